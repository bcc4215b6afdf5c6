/* test_compat_fallback — tela's own xerbla_ and cblas_xerbla, used when the program defines
 * neither (this one does not): they report through tela's error handler with the argument's
 * position in the caller's call (row-major CBLAS numbers swapped back, per routine), write
 * nothing and return, where reference BLAS would stop the process. */
#define _GNU_SOURCE
#include "testutil.h"
#include "tela_cblas.h"

void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc);

#define SENTINEL 1234.5

static struct report {
    int calls;         /* reports received */
    int status;        /* the last one's */
    char where[32];    /* its routine */
    char message[160]; /* its sentence */
} last;

static void record_report(int status, const char *where, const char *message, void *context)
{
    (void)context;
    last.calls++;
    last.status = status;
    snprintf(last.where, sizeof last.where, "%s", where);
    snprintf(last.message, sizeof last.message, "%s", message);
}

static int install_handler(void **state)
{
    (void)state;
    memset(&last, 0, sizeof last);
    tela_set_error_handler(record_report, NULL);
    return 0;
}

static int restore_handler(void **state)
{
    (void)state;
    tela_set_error_handler(NULL, NULL);
    return 0;
}

static double c[64];

static void fill_c(void)
{
    for (int i = 0; i < 64; i++)
        c[i] = SENTINEL;
}

static void expect_c_untouched(void)
{
    for (int i = 0; i < 64; i++)
        assert_true(c[i] == SENTINEL);
}

/* One report, from where, whose message starts with prefix. */
static void expect_report(const char *where, const char *prefix)
{
    assert_int_equal(last.calls, 1);
    assert_int_equal(last.status, TELA_EINVAL);
    assert_string_equal(last.where, where);
    if (strncmp(last.message, prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", last.message, prefix);
    expect_c_untouched();
    memset(&last, 0, sizeof last);
}

static void test_fortran_error_reported_and_returns(void **state)
{
    (void)state;
    double a[4] = {0}, b[4] = {0};
    const double one = 1.0;
    const int two = 2, one_i = 1, minus = -1;
    fill_c();
    dgemm_("N", "N", &two, &two, &two, &one, a, &one_i, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 8 had an illegal value");
    dgemm_("N", "N", &minus, &two, &two, &one, a, &one_i, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 3 had an illegal value");
    dgemm_("Q", "N", &two, &two, &two, &one, a, &two, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 1 had an illegal value");
    dtrsm_("R", "U", "N", "N", &two, &two, &one, a, &one_i, c, &two);
    expect_report("DTRSM", "parameter number 9 had an illegal value");
    dsyrk_("L", "C", &two, &minus, &one, a, &two, &one, c, &two);
    expect_report("DSYRK", "parameter number 4 had an illegal value");
}

/* The Fortran routine's error is handed to cblas_xerbla one number up; in row-major tela's
 * cblas_xerbla swaps the numbers the operand swap exchanged, so each names its own argument. */
static void test_cblas_errors_name_the_callers_argument(void **state)
{
    (void)state;
    double a[4] = {0}, b[4] = {0};
    const CBLAS_LAYOUT col = CblasColMajor, row = CblasRowMajor;
    const CBLAS_TRANSPOSE nt = CblasNoTrans;
    fill_c();
    cblas_dgemm((CBLAS_LAYOUT)0, nt, nt, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 1 was incorrect: Illegal layout setting, 0");
    cblas_dgemm(row, (CBLAS_TRANSPOSE)-1, nt, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 2 was incorrect: Illegal TransA setting, -1");
    cblas_dgemm(col, nt, (CBLAS_TRANSPOSE)7, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 3 was incorrect: Illegal TransB setting, 7");

    const struct {
        CBLAS_LAYOUT layout;
        int m, n, k, lda, ldb, ldc;
        int position; /* in the cblas_dgemm call */
    } cases[] = {
        {col, -1, 2, 2, 2, 2, 2, 4}, {col, 2, -1, 2, 2, 2, 2, 5}, {col, 2, 2, -1, 2, 2, 2, 6},
        {col, 2, 2, 2, 1, 2, 2, 9},  {col, 2, 2, 2, 2, 1, 2, 11}, {col, 2, 2, 2, 2, 2, 1, 14},
        {row, -1, 2, 2, 2, 2, 2, 4}, {row, 2, -1, 2, 2, 2, 2, 5}, {row, 2, 2, -1, 2, 2, 2, 6},
        {row, 2, 2, 2, 1, 2, 2, 9},  {row, 2, 2, 2, 2, 1, 2, 11}, {row, 2, 2, 2, 2, 2, 1, 14},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "parameter %d was incorrect", cases[i].position);
        cblas_dgemm(cases[i].layout, nt, nt, cases[i].m, cases[i].n, cases[i].k, 1.0, a,
                    cases[i].lda, b, cases[i].ldb, 1.0, c, cases[i].ldc);
        expect_report("cblas_dgemm", prefix);
    }
}

/* cblas_dtrsm and cblas_dtrmm in row-major swap M and N for the Fortran call, so M's error
 * comes back from it at N's place: tela's cblas_xerbla swaps 6/7 back. cblas_dsyrk keeps every
 * argument in place. */
static void test_level3_cblas_errors_name_the_callers_argument(void **state)
{
    (void)state;
    double a[4] = {0};
    const CBLAS_LAYOUT col = CblasColMajor, row = CblasRowMajor;
    const CBLAS_SIDE l = CblasLeft, r = CblasRight;
    const CBLAS_UPLO up = CblasUpper, lo = CblasLower;
    const CBLAS_TRANSPOSE nt = CblasNoTrans, tr = CblasTrans;
    const CBLAS_DIAG nu = CblasNonUnit;
    fill_c();
    cblas_dtrsm(row, l, up, nt, (CBLAS_DIAG)9, 2, 2, 1.0, a, 2, c, 2);
    expect_report("cblas_dtrsm", "parameter 5 was incorrect: Illegal Diag setting, 9");
    cblas_dtrmm(col, (CBLAS_SIDE)0, up, nt, nu, 2, 2, 1.0, a, 2, c, 2);
    expect_report("cblas_dtrmm", "parameter 2 was incorrect: Illegal Side setting, 0");
    cblas_dsyrk(row, lo, (CBLAS_TRANSPOSE)5, 2, 2, 1.0, a, 2, 1.0, c, 2);
    expect_report("cblas_dsyrk", "parameter 3 was incorrect: Illegal Trans setting, 5");

    const struct {
        CBLAS_LAYOUT layout;
        CBLAS_SIDE side;
        int m, n, lda, ldb;
        int position; /* in the cblas_dtrsm / cblas_dtrmm call */
    } tri[] = {
        {col, l, -1, 2, 2, 2, 6}, {col, r, 2, -1, 2, 2, 7}, {col, l, 2, 2, 1, 2, 10},
        {col, r, 2, 2, 2, 1, 12}, {row, l, -1, 2, 2, 2, 6}, {row, r, 2, -1, 2, 2, 7},
        {row, l, 2, 2, 1, 2, 10}, {row, r, 2, 2, 2, 1, 12}, {row, l, -1, -1, 2, 2, 7},
    };
    for (size_t i = 0; i < sizeof tri / sizeof tri[0]; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "parameter %d was incorrect", tri[i].position);
        cblas_dtrsm(tri[i].layout, tri[i].side, lo, tr, nu, tri[i].m, tri[i].n, 1.0, a, tri[i].lda,
                    c, tri[i].ldb);
        expect_report("cblas_dtrsm", prefix);
        cblas_dtrmm(tri[i].layout, tri[i].side, up, nt, nu, tri[i].m, tri[i].n, 1.0, a, tri[i].lda,
                    c, tri[i].ldb);
        expect_report("cblas_dtrmm", prefix);
    }

    const struct {
        CBLAS_LAYOUT layout;
        CBLAS_TRANSPOSE trans;
        int n, k, lda, ldc;
        int position; /* in the cblas_dsyrk call */
    } syrk[] = {
        {col, nt, -1, 2, 2, 2, 4}, {col, tr, 2, -1, 2, 2, 5}, {col, nt, 2, 2, 1, 2, 8},
        {col, tr, 2, 2, 2, 1, 11}, {row, nt, -1, 2, 2, 2, 4}, {row, tr, 2, -1, 2, 2, 5},
        {row, nt, 2, 2, 1, 2, 8},  {row, tr, 2, 2, 2, 1, 11},
    };
    for (size_t i = 0; i < sizeof syrk / sizeof syrk[0]; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "parameter %d was incorrect", syrk[i].position);
        cblas_dsyrk(syrk[i].layout, up, syrk[i].trans, syrk[i].n, syrk[i].k, 1.0, a, syrk[i].lda,
                    1.0, c, syrk[i].ldc);
        expect_report("cblas_dsyrk", prefix);
    }
}

/* After errors, calls work and report nothing. */
static void test_good_calls_after_errors(void **state)
{
    (void)state;
    double a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, d[4] = {0};
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, d, 2);
    assert_int_equal(last.calls, 0);
    for (int i = 0; i < 4; i++)
        assert_true(d[i] == a[i]);
    /* Row-major upper [[1, 2], [0, 4]] times X = [[1, 2], [3, 4]] gives B = [[7, 10], [12, 16]];
     * the solve takes B back to X. */
    double u[4] = {1, 2, 0, 4}, x[4] = {7, 10, 12, 16};
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, 2, 2, 1.0, u, 2,
                x, 2);
    assert_int_equal(last.calls, 0);
    for (int i = 0; i < 4; i++)
        assert_true(x[i] == (double)(i + 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fortran_error_reported_and_returns, install_handler,
                                        restore_handler),
        cmocka_unit_test_setup_teardown(test_cblas_errors_name_the_callers_argument,
                                        install_handler, restore_handler),
        cmocka_unit_test_setup_teardown(test_level3_cblas_errors_name_the_callers_argument,
                                        install_handler, restore_handler),
        cmocka_unit_test_setup_teardown(test_good_calls_after_errors, install_handler,
                                        restore_handler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
