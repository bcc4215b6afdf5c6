/* test_system_slot — a program linked to -lblas and -llapack (the system-slot wrappers built in
 * <build>/slot, not libtela) reaches tela's kernels for the names tela has and the reference
 * libraries for the rest, through the wrappers' trampolines: right results, every name bound to
 * the library it should be, arguments in registers and on the stack intact on a name's first
 * (lazy) call, and first calls racing from several threads. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <libgen.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* The wrappers' introspection (src/slot/slot.c). */
int tela_blas_slot_count(void);
const char *tela_blas_slot_name(int index);
void *tela_blas_slot_target(const char *name);
int tela_lapack_slot_count(void);
const char *tela_lapack_slot_name(int index);
void *tela_lapack_slot_target(const char *name);

/* What the program calls, by the Fortran and CBLAS names every libblas.so.3 exports. */
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);
void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y, int incy);
void cblas_saxpy(int n, float alpha, const float *x, int incx, float *y, int incy);
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info);
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a,
             const int *lda, double *s, double *u, const int *ldu, double *vt, const int *ldvt,
             double *work, const int *lwork, int *info);

/* The library file an address lies in, or "" if none. */
static const char *library_of(const void *address)
{
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0 || info.dli_fname == NULL)
        return "";
    return info.dli_fname;
}

static int ends_with(const char *text, const char *suffix)
{
    size_t text_length = strlen(text), suffix_length = strlen(suffix);
    return text_length >= suffix_length && strcmp(text + text_length - suffix_length, suffix) == 0;
}

/* libtela's own definition of name (not one of its dependencies'), or NULL. */
static void *tela_definition(const char *name)
{
    void *tela = dlopen("libtela.so.0", RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(tela);
    void *found = dlsym(tela, name);
    void *version = dlsym(tela, "tela_version");
    Dl_info found_info, tela_info;
    int in_tela = found != NULL && dladdr(found, &found_info) && dladdr(version, &tela_info) &&
                  found_info.dli_fbase == tela_info.dli_fbase;
    dlclose(tela);
    return in_tela ? found : NULL;
}

static double next_random(unsigned *state)
{
    *state = *state * 1664525u + 1013904223u;
    return (double)(*state >> 8) / (double)(1u << 24) - 0.5;
}

/* The program's own references to the slot names go to the wrappers in the build tree, not to
 * the system's libblas.so.3 or liblapack.so.3 or to libtela directly. */
static void test_program_is_linked_to_the_wrappers(void **state)
{
    (void)state;
    char blas[4096], lapack[4096];
    snprintf(blas, sizeof blas, "%s", library_of((void *)dgemm_));
    snprintf(lapack, sizeof lapack, "%s", library_of((void *)dsyevd_));
    assert_string_equal(dirname(blas), TELA_SLOT_DIR);
    assert_true(ends_with(library_of((void *)dgemm_), "/libblas.so.3"));
    assert_string_equal(dirname(lapack), TELA_SLOT_DIR);
    assert_true(ends_with(library_of((void *)dsyevd_), "/liblapack.so.3"));
}

/* Every name of each wrapper binds: to libtela's definition exactly when libtela has one, to
 * the reference library otherwise. tela's BLAS and eigen names are among the former. */
static void check_bindings(int count, const char *(*name_of)(int), void *(*target_of)(const char *),
                           const char *reference, int *tela_count)
{
    *tela_count = 0;
    for (int index = 0; index < count; index++) {
        const char *name = name_of(index);
        void *target = target_of(name);
        void *tela = tela_definition(name);
        if (target == NULL)
            fail_msg("%s is bound to nothing", name);
        if (tela != NULL) {
            if (target != tela)
                fail_msg("%s is bound into %s, not libtela", name, library_of(target));
            (*tela_count)++;
        } else if (strcmp(library_of(target), reference) != 0) {
            fail_msg("%s is bound into %s, not %s", name, library_of(target), reference);
        }
    }
    assert_null(name_of(count));
    assert_null(target_of("not_a_routine_"));
}

static void test_every_name_binds(void **state)
{
    (void)state;
    int tela_blas = 0, tela_lapack = 0;
    check_bindings(tela_blas_slot_count(), tela_blas_slot_name, tela_blas_slot_target,
                   TELA_REFERENCE_BLAS, &tela_blas);
    check_bindings(tela_lapack_slot_count(), tela_lapack_slot_name, tela_lapack_slot_target,
                   TELA_REFERENCE_LAPACK, &tela_lapack);
    /* tela has the whole double-precision real BLAS (with CBLAS) and its LAPACK families. */
    assert_true(tela_blas >= 60);
    assert_true(tela_lapack >= 20);
    const char *tela_names[] = {"dgemm_", "dtrsm_", "ddot_", "dnrm2_", "cblas_dgemm", "dgemv_"};
    for (size_t i = 0; i < sizeof tela_names / sizeof tela_names[0]; i++)
        assert_ptr_equal(tela_blas_slot_target(tela_names[i]), tela_definition(tela_names[i]));
    const char *tela_lapack_names[] = {"dgetrf_", "dpotrf_", "dgeqrf_", "dsyevd_", "dsyevr_"};
    for (size_t i = 0; i < sizeof tela_lapack_names / sizeof tela_lapack_names[0]; i++)
        assert_ptr_equal(tela_lapack_slot_target(tela_lapack_names[i]),
                         tela_definition(tela_lapack_names[i]));
    assert_string_equal(library_of(tela_blas_slot_target("zgemm_")), TELA_REFERENCE_BLAS);
    assert_string_equal(library_of(tela_lapack_slot_target("zheevd_")), TELA_REFERENCE_LAPACK);
}

/* dgemm_ through the wrapper (13 arguments, 7 of them on the stack, and two hidden lengths)
 * against a direct sum, on odd sizes with lda > m. */
static void test_dgemm_through_slot(void **state)
{
    (void)state;
    enum { M = 37, N = 41, K = 29, LDA = 40, LDB = 31, LDC = 39 };
    static double a[LDA * K], b[LDB * N], c[LDC * N];
    unsigned seed = 7;
    for (int i = 0; i < LDA * K; i++)
        a[i] = next_random(&seed);
    for (int i = 0; i < LDB * N; i++)
        b[i] = next_random(&seed);
    for (int i = 0; i < LDC * N; i++)
        c[i] = next_random(&seed);
    static double expected[LDC * N], bound[LDC * N];
    const double alpha = 1.5, beta = -0.5;
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < M; i++) {
            long double sum = 0, magnitude = 0;
            for (int p = 0; p < K; p++) {
                sum += (long double)a[i + p * LDA] * b[p + j * LDB];
                magnitude += fabsl((long double)a[i + p * LDA] * b[p + j * LDB]);
            }
            expected[i + j * LDC] = (double)(alpha * sum + beta * (long double)c[i + j * LDC]);
            bound[i + j * LDC] = 2 * (K + 2) * DBL_EPSILON *
                                 (double)(fabs(alpha) * magnitude + fabs(beta * c[i + j * LDC]));
        }
        for (int i = M; i < LDC; i++) /* rows past m are not touched */
            expected[i + j * LDC] = c[i + j * LDC], bound[i + j * LDC] = 0;
    }
    const int m = M, n = N, k = K, lda = LDA, ldb = LDB, ldc = LDC;
    dgemm_("N", "N", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    for (int i = 0; i < LDC * N; i++)
        assert_true(fabs(c[i] - expected[i]) <= bound[i]);
}

/* A reference-only routine with its floating arguments in xmm0 (cblas_saxpy, on its first
 * call through the lazy path), and sgemm_ by pointers. */
static void test_reference_routines_through_slot(void **state)
{
    (void)state;
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1};
    cblas_saxpy(5, 2.5f, x, 1, y, 1);
    for (int i = 0; i < 5; i++)
        assert_true(y[i] == 1 + 2.5f * x[i]);
    double dx[3] = {1, 2, 3}, dy[3] = {0, 0, 1};
    cblas_daxpy(3, -0.5, dx, 1, dy, 1);
    assert_true(dy[0] == -0.5 && dy[1] == -1 && dy[2] == -0.5);

    const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, alpha = 1, beta = 0;
    float c[4];
    const int two = 2;
    sgemm_("N", "N", &two, &two, &two, &alpha, a, &two, b, &two, &beta, c, &two);
    assert_true(c[0] == 23 && c[1] == 34 && c[2] == 31 && c[3] == 46);
}

/* A LAPACK routine tela has (dsyevd_) and one it does not (dgesvd_, the reference's, whose
 * BLAS calls reach libtela through the global scope): residuals of a 60 x 60 problem. */
static void test_lapack_through_slot(void **state)
{
    (void)state;
    enum { N = 60 };
    static double a[N * N], copy[N * N], w[N], work[1 + 6 * N + 2 * N * N];
    static int iwork[3 + 5 * N];
    unsigned seed = 11;
    for (int j = 0; j < N; j++)
        for (int i = 0; i <= j; i++)
            a[i + j * N] = a[j + i * N] = next_random(&seed);
    memcpy(copy, a, sizeof a);
    const int n = N, lwork = 1 + 6 * N + 2 * N * N, liwork = 3 + 5 * N;
    int info = -1;
    dsyevd_("V", "L", &n, a, &n, w, work, &lwork, iwork, &liwork, &info);
    assert_int_equal(info, 0);
    double norm = 0, worst = 0;
    for (int i = 0; i < N * N; i++)
        norm = fmax(norm, fabs(copy[i]));
    for (int j = 0; j < N; j++) {
        if (j > 0)
            assert_true(w[j - 1] <= w[j]);
        for (int i = 0; i < N; i++) {
            double sum = -w[j] * a[i + j * N];
            for (int p = 0; p < N; p++)
                sum += copy[i + p * N] * a[p + j * N];
            worst = fmax(worst, fabs(sum));
        }
    }
    assert_true(worst / (N * norm * DBL_EPSILON) < 30);

    /* Singular values of copy = eigenvalue magnitudes. */
    static double s[N], svd_work[8 * N];
    const int svd_lwork = 8 * N, one = 1;
    dgesvd_("N", "N", &n, &n, copy, &n, s, NULL, &one, NULL, &one, svd_work, &svd_lwork, &info);
    assert_int_equal(info, 0);
    static double magnitude[N];
    for (int j = 0; j < N; j++)
        magnitude[j] = fabs(w[j]);
    for (int j = 0; j < N; j++) { /* descending order, as dgesvd returns them */
        int largest = j;
        for (int i = j + 1; i < N; i++)
            if (magnitude[i] > magnitude[largest])
                largest = i;
        double held = magnitude[j];
        magnitude[j] = magnitude[largest];
        magnitude[largest] = held;
        assert_true(fabs(s[j] - magnitude[j]) <= 30 * N * DBL_EPSILON * norm);
    }
}

/* Threads calling a name for the first time together: each gets the right answer whichever
 * binds the trampoline. */
static void *dot_in_thread(void *argument)
{
    double *result = argument, x[100], y[100];
    for (int i = 0; i < 100; i++)
        x[i] = i, y[i] = 2;
    const int n = 100, inc = 1;
    *result = ddot_(&n, x, &inc, y, &inc);
    return NULL;
}

static void test_first_calls_race(void **state)
{
    (void)state;
    enum { THREADS = 8 };
    pthread_t threads[THREADS];
    double results[THREADS];
    for (int t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&threads[t], NULL, dot_in_thread, &results[t]), 0);
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(threads[t], NULL), 0);
        assert_true(results[t] == 9900);
    }
}

int main(void)
{
    /* The lazy paths run in the order of this list: the racing first calls of ddot_ and the
     * first calls of cblas_saxpy and dgemm_ come before test_every_name_binds binds the rest. */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_calls_race),
        cmocka_unit_test(test_reference_routines_through_slot),
        cmocka_unit_test(test_dgemm_through_slot),
        cmocka_unit_test(test_lapack_through_slot),
        cmocka_unit_test(test_program_is_linked_to_the_wrappers),
        cmocka_unit_test(test_every_name_binds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
