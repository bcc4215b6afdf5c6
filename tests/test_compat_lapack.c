/* test_compat_lapack — the Fortran-ABI LAPACK symbols (dgetrf_, dgetrs_, dgesv_, dlaswp_,
 * dpotrf_, dpotrs_, dposv_): every bad-argument number of every routine, reported to this
 * program's xerbla_ (as xlintstd's own) with the routine's name as LAPACK spells it, INFO = -i
 * and nothing written; results bit for bit those of the native routines, int pivots against
 * tela_int ones; dlaswp_ against a port of reference DLASWP (strides, far pivots); and bit for bit
 * the native routines too when called from inside a region body, where the pivots are converted
 * through each thread's kept block (the paths without one: test_compat_unbuffered). */
#define _GNU_SOURCE
#include "testutil.h"
#include "xerbla_hooks.h"

#include <math.h>

/* The Fortran ABI (LP64), as a Fortran caller sees it: no header declares it. */
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info);
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);
void dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2, const int *ipiv,
             const int *incx);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info);
void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda, double *b,
            const int *ldb, int *info);

#define SENTINEL       1234.5
#define PIVOT_SENTINEL (-77)
/* More pivots than the routines convert on the stack (src/compat: 256). */
#define BIG 300

/* ---- matrices ------------------------------------------------------------------------------- */

static double *copy_of(const double *x, size_t len)
{
    double *y = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(y);
    memcpy(y, x, sizeof(double) * len);
    return y;
}

/* An n x n symmetric positive definite matrix (leading dimension lda): a random symmetric one
 * with n added to its diagonal, NaN in the padding rows (never read). */
static double *spd_matrix(int n, int lda, unsigned seed)
{
    double *a = malloc(sizeof(double) * (size_t)lda * n);
    assert_non_null(a);
    for (size_t i = 0; i < (size_t)lda * n; i++)
        a[i] = NAN;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            const double x = tu_uniform(&seed) + (i == j ? n : 0.0);
            a[i + (size_t)j * lda] = a[j + (size_t)i * lda] = x;
        }
    return a;
}

static void expect_same_pivots(const char *what, const int *got, const tela_int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: ipiv(%d) = %d, the native routine gave %td", what, i + 1, got[i],
                     want[i]);
}

/* ---- results against the native routines ---------------------------------------------------- */

typedef struct dims {
    int m, n;
} dims;

/* Around the kernels' recursion and tile sizes, both orientations, and past the 256 pivots
 * converted on the stack (the heap path). */
static const dims lu_shapes[] = {{1, 1},     {1, 5},     {5, 1},    {3, 5},    {5, 3},
                                 {17, 17},   {64, 64},   {100, 37}, {37, 100}, {130, 130},
                                 {BIG, BIG}, {257, 520}, {520, 257}};

/* dgetrf_ on a, with leading dimension m + 3 (the padding must stay as it is), against
 * tela_dgetrf on a copy; zero_column >= 0 zeroes that column first (info > 0). */
static void compare_getrf(dims s, int zero_column, unsigned seed)
{
    const int lda = s.m + 3, mn = s.m < s.n ? s.m : s.n;
    const size_t len = (size_t)lda * s.n;
    double *a = tu_random_array(len, seed);
    if (zero_column >= 0)
        for (int i = 0; i < s.m; i++)
            a[i + (size_t)zero_column * lda] = 0.0;
    double *want = copy_of(a, len);
    int *ipiv = malloc(sizeof(int) * (size_t)mn);
    tela_int *want_ipiv = malloc(sizeof(tela_int) * (size_t)mn);
    assert_non_null(ipiv);
    assert_non_null(want_ipiv);
    int info = 99;
    dgetrf_(&s.m, &s.n, a, &lda, ipiv, &info);
    const int want_info = tela_dgetrf(tela_par_auto(), s.m, s.n, want, lda, want_ipiv);
    char what[80];
    snprintf(what, sizeof what, "dgetrf_ %d x %d (zero column %d)", s.m, s.n, zero_column);
    if (info != want_info)
        fail_msg("%s: INFO = %d, the native routine returned %d", what, info, want_info);
    if (zero_column >= 0 && zero_column < mn && info <= 0)
        fail_msg("%s: INFO = %d for a singular matrix", what, info);
    tu_expect_same(what, a, want, len);
    expect_same_pivots(what, ipiv, want_ipiv, mn);
    free(a), free(want), free(ipiv), free(want_ipiv);
}

static void test_getrf_results(void **state)
{
    (void)state;
    unsigned seed = 1;
    for (size_t s = 0; s < sizeof lu_shapes / sizeof lu_shapes[0]; s++) {
        const dims d = lu_shapes[s];
        compare_getrf(d, -1, seed++);
        compare_getrf(d, 0, seed++);
        compare_getrf(d, (d.m < d.n ? d.m : d.n) - 1, seed++);
    }
    expect_no_reports();
}

/* The LU of a random n x n matrix (lda = n + 2) from the native routine, pivots in both types. */
typedef struct lu {
    int n, lda;
    double *a;
    tela_int *ipiv;
    int *ipiv_int;
} lu;

static lu lu_of(int n, unsigned seed)
{
    lu f = {n, n + 2, NULL, NULL, NULL};
    f.a = tu_random_array((size_t)f.lda * n, seed);
    f.ipiv = malloc(sizeof(tela_int) * (size_t)n);
    f.ipiv_int = malloc(sizeof(int) * (size_t)n);
    assert_non_null(f.ipiv);
    assert_non_null(f.ipiv_int);
    assert_int_equal(tela_dgetrf(tela_par_auto(), n, n, f.a, f.lda, f.ipiv), 0);
    for (int i = 0; i < n; i++)
        f.ipiv_int[i] = (int)f.ipiv[i];
    return f;
}

static void lu_free(lu *f)
{
    free(f->a), free(f->ipiv), free(f->ipiv_int);
}

static const int solve_sizes[] = {1, 5, 17, 64, 130, BIG};

static void test_getrs_results(void **state)
{
    (void)state;
    static const char transes[] = "NTCntc";
    unsigned seed = 100;
    for (size_t s = 0; s < sizeof solve_sizes / sizeof solve_sizes[0]; s++) {
        lu f = lu_of(solve_sizes[s], seed++);
        for (const char *t = transes; *t; t++) {
            for (int nrhs = 1; nrhs <= 7; nrhs += 6) {
                const int ldb = f.n + 1;
                const size_t len = (size_t)ldb * nrhs;
                double *b = tu_random_array(len, seed++), *want = copy_of(b, len);
                int info = 99;
                dgetrs_(t, &f.n, &nrhs, f.a, &f.lda, f.ipiv_int, b, &ldb, &info);
                assert_int_equal(info, 0);
                assert_int_equal(
                    tela_dgetrs(tela_par_auto(), *t, f.n, nrhs, f.a, f.lda, f.ipiv, want, ldb), 0);
                char what[64];
                snprintf(what, sizeof what, "dgetrs_ %c n=%d nrhs=%d", *t, f.n, nrhs);
                tu_expect_same(what, b, want, len);
                free(b), free(want);
            }
        }
        lu_free(&f);
    }
    expect_no_reports();
}

static void test_gesv_results(void **state)
{
    (void)state;
    unsigned seed = 200;
    for (size_t s = 0; s < sizeof solve_sizes / sizeof solve_sizes[0]; s++) {
        const int n = solve_sizes[s], lda = n + 1, ldb = n + 2;
        for (int nrhs = 0; nrhs <= 7; nrhs += nrhs ? 6 : 1) {
            for (int singular = 0; singular < 2; singular++) {
                const size_t a_len = (size_t)lda * n, b_len = (size_t)ldb * nrhs;
                double *a = tu_random_array(a_len, seed++), *b = tu_random_array(b_len, seed++);
                if (singular) /* column n/2 zero: a zero pivot there or before */
                    for (int i = 0; i < n; i++)
                        a[i + (size_t)(n / 2) * lda] = 0.0;
                double *want_a = copy_of(a, a_len), *want_b = copy_of(b, b_len);
                const double *b0 = copy_of(b, b_len);
                int *ipiv = malloc(sizeof(int) * (size_t)n);
                tela_int *want_ipiv = malloc(sizeof(tela_int) * (size_t)n);
                assert_non_null(ipiv);
                assert_non_null(want_ipiv);
                int info = 99;
                dgesv_(&n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
                const int want_info =
                    tela_dgesv(tela_par_auto(), n, nrhs, want_a, lda, want_ipiv, want_b, ldb);
                char what[64];
                snprintf(what, sizeof what, "dgesv_ n=%d nrhs=%d%s", n, nrhs,
                         singular ? " singular" : "");
                if (info != want_info || (singular && info <= 0))
                    fail_msg("%s: INFO = %d, the native routine returned %d", what, info,
                             want_info);
                tu_expect_same(what, a, want_a, a_len);
                tu_expect_same(what, b, want_b, b_len);
                expect_same_pivots(what, ipiv, want_ipiv, n);
                if (singular) /* as reference: B is not solved */
                    tu_expect_same(what, b, b0, b_len);
                free(a), free(b), free(want_a), free(want_b), free((void *)b0), free(ipiv),
                    free(want_ipiv);
            }
        }
    }
    expect_no_reports();
}

static void test_cholesky_results(void **state)
{
    (void)state;
    static const char uplos[] = "ULul";
    unsigned seed = 300;
    for (size_t s = 0; s < sizeof solve_sizes / sizeof solve_sizes[0]; s++) {
        const int n = solve_sizes[s], lda = n + 3, ldb = n + 1;
        for (const char *u = uplos; *u; u++) {
            for (int broken = 0; broken < 2; broken++) {
                const size_t a_len = (size_t)lda * n;
                double *a = spd_matrix(n, lda, seed++);
                if (broken) /* not positive definite from order n/2 + 1 */
                    a[n / 2 + (size_t)(n / 2) * lda] = -1.0;
                double *a0 = copy_of(a, a_len);
                char what[64];
                snprintf(what, sizeof what, "dpotrf_ %c n=%d%s", *u, n,
                         broken ? " not definite" : "");
                /* dpotrf_ */
                double *want = copy_of(a0, a_len);
                int info = 99;
                dpotrf_(u, &n, a, &lda, &info);
                const int want_info = tela_dpotrf(tela_par_auto(), *u, n, want, lda);
                if (info != want_info || (broken && info != n / 2 + 1))
                    fail_msg("%s: INFO = %d, the native routine returned %d", what, info,
                             want_info);
                tu_expect_same(what, a, want, a_len);
                /* dpotrs_ with that factor (when there is one), dposv_ from the start */
                for (int nrhs = 1; nrhs <= 7; nrhs += 6) {
                    const size_t b_len = (size_t)ldb * nrhs;
                    if (!broken) {
                        double *b = tu_random_array(b_len, seed++), *want_b = copy_of(b, b_len);
                        snprintf(what, sizeof what, "dpotrs_ %c n=%d nrhs=%d", *u, n, nrhs);
                        dpotrs_(u, &n, &nrhs, a, &lda, b, &ldb, &info);
                        assert_int_equal(info, 0);
                        assert_int_equal(
                            tela_dpotrs(tela_par_auto(), *u, n, nrhs, a, lda, want_b, ldb), 0);
                        tu_expect_same(what, b, want_b, b_len);
                        free(b), free(want_b);
                    }
                    double *b = tu_random_array(b_len, seed++), *want_b = copy_of(b, b_len);
                    double *b0 = copy_of(b, b_len);
                    double *pa = copy_of(a0, a_len), *want_pa = copy_of(a0, a_len);
                    snprintf(what, sizeof what, "dposv_ %c n=%d nrhs=%d%s", *u, n, nrhs,
                             broken ? " not definite" : "");
                    dposv_(u, &n, &nrhs, pa, &lda, b, &ldb, &info);
                    const int want_posv =
                        tela_dposv(tela_par_auto(), *u, n, nrhs, want_pa, lda, want_b, ldb);
                    if (info != want_posv || info != want_info)
                        fail_msg("%s: INFO = %d, the native routine returned %d", what, info,
                                 want_posv);
                    tu_expect_same(what, pa, want_pa, a_len);
                    tu_expect_same(what, b, want_b, b_len);
                    if (broken) /* as reference: B is not solved */
                        tu_expect_same(what, b, b0, b_len);
                    free(b), free(want_b), free(b0), free(pa), free(want_pa);
                }
                free(a), free(a0), free(want);
            }
        }
    }
    expect_no_reports();
}

/* ---- dlaswp_ ------------------------------------------------------------------------------------
 */

/* Reference DLASWP, line for line (without its blocking of 32 columns, which changes nothing). */
static void reference_laswp(int n, double *a, int lda, int k1, int k2, const int *ipiv, int incx)
{
    int ix0, i1, i2, inc;
    if (incx > 0) {
        ix0 = k1, i1 = k1, i2 = k2, inc = 1;
    } else if (incx < 0) {
        ix0 = k1 + (k1 - k2) * incx, i1 = k2, i2 = k1, inc = -1;
    } else {
        return;
    }
    for (int k = 1; k <= n; k++) {
        int ix = ix0;
        for (int i = i1; inc > 0 ? i <= i2 : i >= i2; i += inc) {
            const int ip = ipiv[ix - 1];
            if (ip != i) {
                double *x = &a[(i - 1) + (size_t)(k - 1) * lda];
                double *y = &a[(ip - 1) + (size_t)(k - 1) * lda];
                const double t = *x;
                *x = *y;
                *y = t;
            }
            ix += incx;
        }
    }
}

enum { SWAP_ROWS = 700 };

/* One dlaswp_ call on a SWAP_ROWS-row matrix of n columns (lda 2 beyond), against the port. */
static void compare_laswp(const char *kind, int n, int k1, int k2, const int *ipiv, int incx,
                          unsigned seed)
{
    const int lda = SWAP_ROWS + 2;
    const size_t len = (size_t)lda * (n > 0 ? n : 1);
    double *a = tu_random_array(len, seed), *want = copy_of(a, len);
    dlaswp_(&n, a, &lda, &k1, &k2, ipiv, &incx);
    reference_laswp(n, want, lda, k1, k2, ipiv, incx);
    char what[96];
    snprintf(what, sizeof what, "dlaswp_ %s n=%d k1=%d k2=%d incx=%d", kind, n, k1, k2, incx);
    tu_expect_same(what, a, want, len);
    free(a), free(want);
}

static void test_laswp(void **state)
{
    (void)state;
    enum { PIVOTS = 3 * SWAP_ROWS };
    static int lu_like[PIVOTS], anywhere[PIVOTS];
    unsigned seed = 400;
    /* LU pivots (row i to a row at or below it) and pivots anywhere in the matrix (far above
     * their row too: more than the 256 rows converted at once). */
    for (int i = 0; i < PIVOTS; i++) {
        const int row = i % SWAP_ROWS;
        lu_like[i] = row + 1 + (int)((tu_uniform(&seed) + 0.5) * (SWAP_ROWS - row));
        anywhere[i] = 1 + (int)((tu_uniform(&seed) + 0.5) * SWAP_ROWS);
    }
    static const int columns[] = {1, 5, 70};
    static const int incxs[] = {1, -1, 2, -2, 3, -3};
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++) {
        const int n = columns[c];
        for (size_t x = 0; x < sizeof incxs / sizeof incxs[0]; x++) {
            const int incx = incxs[x];
            /* strided pivots reach ipiv((k1 - 1) + (k2 - k1) |incx| + 1) <= PIVOTS */
            compare_laswp("LU pivots", n, 1, SWAP_ROWS, lu_like, incx, seed++);
            compare_laswp("any pivots", n, 1, SWAP_ROWS, anywhere, incx, seed++);
            compare_laswp("any pivots", n, 5, 400, anywhere, incx, seed++);
            compare_laswp("any pivots", n, 650, 699, anywhere, incx, seed++);
            compare_laswp("one row", n, 333, 333, anywhere, incx, seed++);
        }
    }
    /* A pivot 600 rows above its row, alone and between near ones. */
    int far[SWAP_ROWS];
    for (int i = 0; i < SWAP_ROWS; i++)
        far[i] = i + 1;
    far[649] = 50, far[650] = 640, far[651] = 3;
    compare_laswp("far pivots", 9, 640, 660, far, 1, seed++);
    compare_laswp("far pivots", 9, 640, 660, far, -1, seed++);
    compare_laswp("far pivots", 9, 1, SWAP_ROWS, far, 1, seed++);
    /* Nothing to do, and no checks (reference has none): k2 < k1, incx = 0, n <= 0. */
    compare_laswp("k2 < k1", 4, 10, 9, anywhere, 1, seed++);
    compare_laswp("k2 < k1", 4, 10, 9, anywhere, -1, seed++);
    compare_laswp("incx = 0", 4, 1, 10, anywhere, 0, seed++);
    compare_laswp("n = 0", 0, 1, 10, anywhere, 1, seed++);
    compare_laswp("n < 0", -3, 1, 10, anywhere, 1, seed++);
    /* incx = +-1 against the native tela_dlaswp too, with tela_int pivots. */
    tela_int *wide = malloc(sizeof(tela_int) * SWAP_ROWS);
    assert_non_null(wide);
    for (int i = 0; i < SWAP_ROWS; i++)
        wide[i] = lu_like[i];
    for (int incx = -1; incx <= 1; incx += 2) {
        const int n = 70, lda = SWAP_ROWS + 2, k1 = 2, k2 = SWAP_ROWS - 1;
        const size_t len = (size_t)lda * n;
        double *a = tu_random_array(len, seed++), *want = copy_of(a, len);
        dlaswp_(&n, a, &lda, &k1, &k2, lu_like, &incx);
        assert_int_equal(tela_dlaswp(tela_par_auto(), n, want, lda, k1, k2, wide, incx), 0);
        tu_expect_same("dlaswp_ against tela_dlaswp", a, want, len);
        free(a), free(want);
    }
    free(wide);
    expect_no_reports();
}

/* ---- quick returns and NULL arrays ----------------------------------------------------------- */

/* Dimensions of zero return INFO = 0 and touch nothing (reference's quick returns); a NULL array
 * that would be used (reference would crash) gives tela's -i, no report, nothing written. */
static void test_quick_returns_and_nulls(void **state)
{
    (void)state;
    double a[16], b[16];
    int ipiv[4];
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = SENTINEL;
    for (int i = 0; i < 4; i++)
        ipiv[i] = PIVOT_SENTINEL;
    const int zero = 0, one = 1, two = 2, four = 4;
    int info = 99;
    dgetrf_(&zero, &two, NULL, &one, NULL, &info);
    assert_int_equal(info, 0);
    dgetrf_(&two, &zero, a, &two, ipiv, &info);
    assert_int_equal(info, 0);
    dgetrs_("N", &zero, &two, NULL, &one, NULL, NULL, &one, &info);
    assert_int_equal(info, 0);
    dgetrs_("T", &two, &zero, a, &two, ipiv, b, &two, &info);
    assert_int_equal(info, 0);
    dgesv_(&zero, &two, NULL, &one, NULL, NULL, &one, &info);
    assert_int_equal(info, 0);
    dpotrf_("U", &zero, NULL, &one, &info);
    assert_int_equal(info, 0);
    dpotrs_("L", &two, &zero, a, &two, b, &two, &info);
    assert_int_equal(info, 0);
    dposv_("L", &zero, &two, NULL, &one, NULL, &one, &info);
    assert_int_equal(info, 0);
    dlaswp_(&two, NULL, &two, &one, &two, NULL, &one);

    dgetrf_(&two, &two, NULL, &two, ipiv, &info);
    assert_int_equal(info, -3);
    dgetrf_(&two, &two, a, &two, NULL, &info);
    assert_int_equal(info, -5);
    dgetrs_("N", &two, &one, NULL, &two, ipiv, b, &two, &info);
    assert_int_equal(info, -4);
    dgetrs_("N", &two, &one, a, &two, NULL, b, &two, &info);
    assert_int_equal(info, -6);
    dgetrs_("N", &two, &one, a, &two, ipiv, NULL, &two, &info);
    assert_int_equal(info, -7);
    dgesv_(&two, &one, NULL, &two, ipiv, b, &two, &info);
    assert_int_equal(info, -3);
    dgesv_(&two, &one, a, &two, NULL, b, &two, &info);
    assert_int_equal(info, -5);
    dgesv_(&two, &one, a, &two, ipiv, NULL, &two, &info);
    assert_int_equal(info, -6);
    dpotrf_("L", &two, NULL, &two, &info);
    assert_int_equal(info, -3);
    dpotrs_("U", &two, &one, NULL, &two, b, &two, &info);
    assert_int_equal(info, -4);
    dpotrs_("U", &two, &one, a, &two, NULL, &two, &info);
    assert_int_equal(info, -6);
    dposv_("L", &four, &one, NULL, &four, b, &four, &info);
    assert_int_equal(info, -4);
    dposv_("L", &four, &one, a, &four, NULL, &four, &info);
    assert_int_equal(info, -6);
    for (int i = 0; i < 16; i++)
        if (a[i] != SENTINEL || b[i] != SENTINEL)
            fail_msg("element %d written by a quick return or a call with a NULL array", i);
    for (int i = 0; i < 4; i++)
        assert_int_equal(ipiv[i], PIVOT_SENTINEL);
    expect_no_reports();
}

/* ---- argument errors --------------------------------------------------------------------------
 */

typedef enum routine { GETRF, GETRS, GESV, POTRF, POTRS, POSV } routine;

static const char *const routine_names[] = {
    [GETRF] = "DGETRF", [GETRS] = "DGETRS", [GESV] = "DGESV ",
    [POTRF] = "DPOTRF", [POTRS] = "DPOTRS", [POSV] = "DPOSV ",
};

/* One bad call. The arguments a routine lacks are ignored: flag is trans (GETRS) or uplo
 * (POTRF, POTRS, POSV); m is GETRF's only. */
typedef struct bad_call {
    routine r;
    int number; /* the argument reference LAPACK rejects first */
    char flag;
    int m, n, nrhs, lda, ldb;
} bad_call;

static void expect_report(const bad_call *bc, int index)
{
    double a[64], b[64];
    int ipiv[8];
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = SENTINEL;
    for (int i = 0; i < 8; i++)
        ipiv[i] = PIVOT_SENTINEL;
    memset(&hooks, 0, sizeof hooks);
    int info = 99;
    switch (bc->r) {
    case GETRF:
        dgetrf_(&bc->m, &bc->n, a, &bc->lda, ipiv, &info);
        break;
    case GETRS:
        dgetrs_(&bc->flag, &bc->n, &bc->nrhs, a, &bc->lda, ipiv, b, &bc->ldb, &info);
        break;
    case GESV:
        dgesv_(&bc->n, &bc->nrhs, a, &bc->lda, ipiv, b, &bc->ldb, &info);
        break;
    case POTRF:
        dpotrf_(&bc->flag, &bc->n, a, &bc->lda, &info);
        break;
    case POTRS:
        dpotrs_(&bc->flag, &bc->n, &bc->nrhs, a, &bc->lda, b, &bc->ldb, &info);
        break;
    case POSV:
        dposv_(&bc->flag, &bc->n, &bc->nrhs, a, &bc->lda, b, &bc->ldb, &info);
        break;
    }
    const char *name = routine_names[bc->r];
    if (hooks.xerbla != 1)
        fail_msg("%s case %d: xerbla_ called %d times (expected once)", name, index, hooks.xerbla);
    /* As gfortran passes it: LAPACK's six characters, blank-padded, and the hidden length. */
    if (hooks.srname_len != 6 || strcmp(hooks.srname, name) != 0)
        fail_msg("%s case %d: xerbla_ got \"%s\" (length %zu), expected \"%s\"", name, index,
                 hooks.srname, hooks.srname_len, name);
    if (hooks.info != bc->number || info != -bc->number)
        fail_msg("%s case %d: xerbla_ got %d and INFO = %d, expected %d and %d", name, index,
                 hooks.info, info, bc->number, -bc->number);
    for (int i = 0; i < 64; i++)
        if (a[i] != SENTINEL || b[i] != SENTINEL)
            fail_msg("%s case %d: element %d written by a call with a bad argument", name, index,
                     i);
    for (int i = 0; i < 8; i++)
        if (ipiv[i] != PIVOT_SENTINEL)
            fail_msg("%s case %d: ipiv(%d) written by a call with a bad argument", name, index,
                     i + 1);
    /* The program's hook won: tela's fallback, which reports to tela's handler, never ran. */
    assert_int_equal(hooks.tela_handler_calls, 0);
}

/* Reference LAPACK 3.11: DGETRF M 1, N 2, LDA 4 (against max(1, M)); DGETRS TRANS 1 (N, T or
 * C, either case), N 2, NRHS 3, LDA 5, LDB 8; DGESV N 1, NRHS 2, LDA 4, LDB 7; DPOTRF UPLO 1,
 * N 2, LDA 4; DPOTRS and DPOSV UPLO 1, N 2, NRHS 3, LDA 5, LDB 7. Each number alone, at its
 * boundary, and with every later argument bad too (the first in reference's order wins). */
static void test_argument_errors(void **state)
{
    (void)state;
    static const bad_call cases[] = {
        {GETRF, 1, 0, -1, 0, 0, 1, 0},
        {GETRF, 1, 0, -1, -1, 0, 0, 0},
        {GETRF, 2, 0, 0, -1, 0, 1, 0},
        {GETRF, 2, 0, 3, -1, 0, 0, 0},
        {GETRF, 4, 0, 2, 2, 0, 1, 0},
        {GETRF, 4, 0, 0, 0, 0, 0, 0}, /* max(1, M): lda 0 is bad even for M = 0 */
        {GETRF, 4, 0, 3, 1, 0, 2, 0},
        {GETRS, 1, '/', 0, 0, 0, 1, 1},
        {GETRS, 1, 'X', 0, -1, -1, 0, 0},
        {GETRS, 1, 'U', 0, 2, 1, 2, 2}, /* not a transpose */
        {GETRS, 2, 'N', 0, -1, 0, 1, 1},
        {GETRS, 2, 't', 0, -1, -1, 0, 0},
        {GETRS, 3, 'C', 0, 0, -1, 1, 1},
        {GETRS, 3, 'n', 0, 2, -1, 1, 0},
        {GETRS, 5, 'N', 0, 2, 1, 1, 2},
        {GETRS, 5, 'T', 0, 0, 0, 0, 1},
        {GETRS, 5, 'c', 0, 3, 0, 2, 0}, /* nrhs = 0 is no quick return before the checks */
        {GETRS, 8, 'N', 0, 2, 1, 2, 1},
        {GETRS, 8, 'c', 0, 0, 0, 1, 0},
        {GESV, 1, 0, 0, -1, 0, 1, 1},
        {GESV, 1, 0, 0, -1, -1, 0, 0},
        {GESV, 2, 0, 0, 0, -1, 1, 1},
        {GESV, 2, 0, 0, 2, -1, 1, 1},
        {GESV, 4, 0, 0, 2, 1, 1, 2},
        {GESV, 4, 0, 0, 0, 0, 0, 1},
        {GESV, 4, 0, 0, 3, 0, 2, 0},
        {GESV, 7, 0, 0, 2, 1, 2, 1},
        {GESV, 7, 0, 0, 0, 0, 1, 0},
        {POTRF, 1, '/', 0, 0, 0, 1, 0},
        {POTRF, 1, 'x', 0, -1, 0, 0, 0},
        {POTRF, 1, 'N', 0, 2, 0, 2, 0},
        {POTRF, 2, 'U', 0, -1, 0, 1, 0},
        {POTRF, 2, 'l', 0, -1, 0, 0, 0},
        {POTRF, 4, 'L', 0, 2, 0, 1, 0},
        {POTRF, 4, 'u', 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_report(&cases[i], (int)i);
    /* DPOTRS and DPOSV share their checks and numbers. */
    static const bad_call shared[] = {
        {POTRS, 1, '/', 0, 0, 0, 1, 1},   {POTRS, 1, 'X', 0, -1, -1, 0, 0},
        {POTRS, 1, 'T', 0, 2, 1, 2, 2},   {POTRS, 2, 'U', 0, -1, 0, 1, 1},
        {POTRS, 2, 'L', 0, -1, -1, 0, 0}, {POTRS, 3, 'u', 0, 0, -1, 1, 1},
        {POTRS, 3, 'l', 0, 2, -1, 1, 0},  {POTRS, 5, 'U', 0, 2, 1, 1, 2},
        {POTRS, 5, 'L', 0, 0, 0, 0, 1},   {POTRS, 5, 'u', 0, 3, 0, 2, 0},
        {POTRS, 7, 'U', 0, 2, 1, 2, 1},   {POTRS, 7, 'l', 0, 0, 0, 1, 0},
    };
    for (routine r = POTRS; r <= POSV; r++) {
        for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
            bad_call bc = shared[i];
            bc.r = r;
            expect_report(&bc, (int)i);
        }
    }
}

/* ---- inside a region: the buffered paths ---------------------------------------------------- */

/* The tall and the wide matrix: 260 pivots, more than the 256 converted on the stack. */
enum { RECT_LONG = 600, RECT_SHORT = 260, RECT_LD = RECT_LONG + 2 };

/* Each member of a width-2 region runs the routines on its own data with BIG pivots, more than
 * the stack holds: inside a region nothing is allocated, so the pivots go through the block every
 * thread keeps for up to COMPAT_PIVOTS_KEPT (8192) of them, and the routines must be the native
 * ones bit for bit. Without that block they would take the unbuffered paths, whose LU differs in
 * rounding (test_compat_unbuffered). The member runs the native routines too, on the same thread
 * in the same region, so both meet the same conditions (a nested call runs serially). */
typedef struct member_job {
    const double *a0, *b0; /* a random BIG x BIG matrix (lda BIG + 2), B of BIG x 3 */
    const lu *factors;     /* the native LU of another matrix, made outside */
    /* through the Fortran symbols */
    double *lu, *singular, *sv_a, *sv_b, *rs_b[2];
    int ipiv[BIG], singular_ipiv[BIG], sv_ipiv[BIG];
    int info, singular_info, sv_info, rs_info[2];
    /* through the native routines, in the same member */
    double *native_lu, *native_singular, *native_sv_a, *native_sv_b, *native_rs_b[2];
    tela_int native_ipiv[BIG], native_singular_ipiv[BIG], native_sv_ipiv[BIG];
    int native_info, native_singular_info, native_sv_info;
    /* a tall and a wide matrix (RECT_LONG x RECT_SHORT and back, lda RECT_LD): both ways */
    const double *rect0[2];
    double *rect[2], *native_rect[2];
    int rect_ipiv[2][RECT_SHORT], rect_info[2], native_rect_info[2];
    tela_int native_rect_ipiv[2][RECT_SHORT];
} member_job;

/* The column zeroed in the singular matrix: a zero pivot there or before. */
enum { ZERO_COLUMN = 280 };

static void region_body(tela_member *self, void *arg)
{
    member_job *m = (member_job *)arg + tela_rank(self);
    const tela_par par = tela_par_auto(); /* serial here: a nested call */
    const int n = BIG, lda = BIG + 2, ldb = BIG, nrhs = 3;
    const size_t a_len = (size_t)lda * n, b_len = (size_t)ldb * nrhs;
    memcpy(m->lu, m->a0, sizeof(double) * a_len);
    memcpy(m->native_lu, m->a0, sizeof(double) * a_len);
    dgetrf_(&n, &n, m->lu, &lda, m->ipiv, &m->info);
    m->native_info = tela_dgetrf(par, n, n, m->native_lu, lda, m->native_ipiv);

    memcpy(m->singular, m->a0, sizeof(double) * a_len);
    memset(m->singular + (size_t)ZERO_COLUMN * lda, 0, sizeof(double) * n);
    memcpy(m->native_singular, m->singular, sizeof(double) * a_len);
    dgetrf_(&n, &n, m->singular, &lda, m->singular_ipiv, &m->singular_info);
    m->native_singular_info =
        tela_dgetrf(par, n, n, m->native_singular, lda, m->native_singular_ipiv);

    memcpy(m->sv_a, m->a0, sizeof(double) * a_len);
    memcpy(m->sv_b, m->b0, sizeof(double) * b_len);
    memcpy(m->native_sv_a, m->a0, sizeof(double) * a_len);
    memcpy(m->native_sv_b, m->b0, sizeof(double) * b_len);
    dgesv_(&n, &nrhs, m->sv_a, &lda, m->sv_ipiv, m->sv_b, &ldb, &m->sv_info);
    m->native_sv_info =
        tela_dgesv(par, n, nrhs, m->native_sv_a, lda, m->native_sv_ipiv, m->native_sv_b, ldb);

    for (int k = 0; k < 2; k++) {
        const int rows = k ? RECT_SHORT : RECT_LONG, cols = k ? RECT_LONG : RECT_SHORT;
        const int ld = RECT_LD;
        memcpy(m->rect[k], m->rect0[k], sizeof(double) * (size_t)ld * cols);
        memcpy(m->native_rect[k], m->rect0[k], sizeof(double) * (size_t)ld * cols);
        dgetrf_(&rows, &cols, m->rect[k], &ld, m->rect_ipiv[k], &m->rect_info[k]);
        m->native_rect_info[k] =
            tela_dgetrf(par, rows, cols, m->native_rect[k], ld, m->native_rect_ipiv[k]);
    }

    for (int t = 0; t < 2; t++) {
        const char *trans = t ? "t" : "N";
        memcpy(m->rs_b[t], m->b0, sizeof(double) * b_len);
        memcpy(m->native_rs_b[t], m->b0, sizeof(double) * b_len);
        dgetrs_(trans, &n, &nrhs, m->factors->a, &lda, m->factors->ipiv_int, m->rs_b[t], &ldb,
                &m->rs_info[t]);
        tela_dgetrs(par, *trans, n, nrhs, m->factors->a, lda, m->factors->ipiv, m->native_rs_b[t],
                    ldb);
    }
}

static void test_inside_a_region(void **state)
{
    (void)state;
    const int n = BIG, lda = BIG + 2, ldb = BIG, nrhs = 3;
    const size_t a_len = (size_t)lda * n, b_len = (size_t)ldb * nrhs;
    member_job *jobs = calloc(2, sizeof *jobs);
    assert_non_null(jobs);
    lu factors[2];
    for (int r = 0; r < 2; r++) {
        member_job *m = &jobs[r];
        m->a0 = tu_random_array(a_len, 500 + r);
        m->b0 = tu_random_array(b_len, 510 + r);
        factors[r] = lu_of(n, 520 + r);
        assert_int_equal(factors[r].lda, lda);
        m->factors = &factors[r];
        double **arrays[] = {&m->lu,        &m->singular,        &m->sv_a,
                             &m->native_lu, &m->native_singular, &m->native_sv_a};
        for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
            *arrays[i] = tu_random_array(a_len, 0);
        for (int k = 0; k < 2; k++) {
            const size_t len = (size_t)RECT_LD * (k ? RECT_LONG : RECT_SHORT);
            m->rect0[k] = tu_random_array(len, 530 + 2 * r + k);
            m->rect[k] = tu_random_array(len, 0);
            m->native_rect[k] = tu_random_array(len, 0);
        }
        double **rhs[] = {&m->sv_b,        &m->rs_b[0],        &m->rs_b[1],
                          &m->native_sv_b, &m->native_rs_b[0], &m->native_rs_b[1]};
        for (size_t i = 0; i < sizeof rhs / sizeof rhs[0]; i++)
            *rhs[i] = tu_random_array(b_len, 0);
    }
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 2, region_body, jobs), 2);
    tela_pool_destroy(pool);

    for (int r = 0; r < 2; r++) {
        member_job *m = &jobs[r];
        /* dgetrf_: the native routine's info, factors (padding rows included) and pivots */
        assert_int_equal(m->native_info, 0);
        assert_int_equal(m->info, 0);
        tu_expect_same("dgetrf_ inside a region", m->lu, m->native_lu, a_len);
        expect_same_pivots("dgetrf_ inside a region", m->ipiv, m->native_ipiv, n);
        for (int k = 0; k < 2; k++) {
            const int cols = k ? RECT_LONG : RECT_SHORT;
            const char *what = k ? "dgetrf_ of a wide matrix inside a region"
                                 : "dgetrf_ of a tall matrix inside a region";
            assert_int_equal(m->native_rect_info[k], 0);
            assert_int_equal(m->rect_info[k], 0);
            tu_expect_same(what, m->rect[k], m->native_rect[k], (size_t)RECT_LD * cols);
            expect_same_pivots(what, m->rect_ipiv[k], m->native_rect_ipiv[k], RECT_SHORT);
            free((void *)m->rect0[k]), free(m->rect[k]), free(m->native_rect[k]);
        }
        /* singular: the first zero pivot at the zeroed column or before, all as natively */
        assert_true(m->native_singular_info > 0 && m->native_singular_info <= ZERO_COLUMN + 1);
        assert_int_equal(m->singular_info, m->native_singular_info);
        tu_expect_same("singular dgetrf_ inside a region", m->singular, m->native_singular, a_len);
        expect_same_pivots("singular dgetrf_ inside a region", m->singular_ipiv,
                           m->native_singular_ipiv, n);
        /* dgesv_: tela_dgesv's info, factors, pivots and X */
        assert_int_equal(m->native_sv_info, 0);
        assert_int_equal(m->sv_info, 0);
        tu_expect_same("dgesv_ inside a region: A", m->sv_a, m->native_sv_a, a_len);
        expect_same_pivots("dgesv_ inside a region", m->sv_ipiv, m->native_sv_ipiv, n);
        tu_expect_same("dgesv_ inside a region: X", m->sv_b, m->native_sv_b, b_len);
        /* dgetrs_ on the native factors: the native solve's result, N and T */
        for (int t = 0; t < 2; t++) {
            assert_int_equal(m->rs_info[t], 0);
            tu_expect_same(t ? "dgetrs_ T inside a region" : "dgetrs_ N inside a region",
                           m->rs_b[t], m->native_rs_b[t], b_len);
        }
        double *arrays[] = {(double *)m->a0,    (double *)m->b0,  m->lu,
                            m->singular,        m->sv_a,          m->sv_b,
                            m->rs_b[0],         m->rs_b[1],       m->native_lu,
                            m->native_singular, m->native_sv_a,   m->native_sv_b,
                            m->native_rs_b[0],  m->native_rs_b[1]};
        for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
            free(arrays[i]);
        lu_free(&factors[r]);
    }
    free(jobs);
    expect_no_reports();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_argument_errors, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns_and_nulls, reset_hooks),
        cmocka_unit_test_setup(test_getrf_results, reset_hooks),
        cmocka_unit_test_setup(test_getrs_results, reset_hooks),
        cmocka_unit_test_setup(test_gesv_results, reset_hooks),
        cmocka_unit_test_setup(test_cholesky_results, reset_hooks),
        cmocka_unit_test_setup(test_laswp, reset_hooks),
        cmocka_unit_test_setup(test_inside_a_region, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
