/* test_compat — the drop-in symbols (dgemm_, dtrsm_, dtrmm_, dsyrk_ and their cblas_ twins)
 * against naive long-double references (every flag combination, both layouts, odd sizes, padded
 * leading dimensions), and their argument errors. This program defines xerbla_ and
 * cblas_xerbla itself, as the netlib suites do: that tela calls these (and not its own weak
 * fallbacks) is what the error tests prove, along with reference BLAS's numbering and order of
 * checks and that nothing is written. */
#define _GNU_SOURCE
#include "testutil.h"
#include "tela_cblas.h"

#include <float.h>
#include <math.h>

/* The Fortran ABI (LP64), declared here as a Fortran caller sees it: no header declares it. */
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb);
void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc);

#define SENTINEL 1234.5
/* The layout argument of the helpers below that means "through dgemm_": no CBLAS layout is 0. */
#define F77 0

/* ---- the program's error hooks ------------------------------------------------------------ */

static struct hook_calls {
    int xerbla;             /* calls of xerbla_ */
    char srname[16];        /* its last srname, srname_len characters */
    size_t srname_len;      /* its last hidden length */
    int info;               /* its last info */
    int cblas_xerbla;       /* calls of cblas_xerbla */
    char rout[32];          /* its last routine name */
    int p;                  /* its last parameter number */
    int tela_handler_calls; /* reports that reached tela's error handler (tela's fallbacks) */
} hooks;

void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    hooks.xerbla++;
    hooks.srname_len = srname_len;
    size_t n = srname_len < sizeof hooks.srname - 1 ? srname_len : sizeof hooks.srname - 1;
    memcpy(hooks.srname, srname, n);
    hooks.srname[n] = '\0';
    hooks.info = *info;
}

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    hooks.cblas_xerbla++;
    snprintf(hooks.rout, sizeof hooks.rout, "%s", rout);
    hooks.p = p;
}

static void count_tela_report(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
    hooks.tela_handler_calls++;
}

static int reset_hooks(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    tela_set_error_handler(count_tela_report, NULL);
    return 0;
}

/* ---- matrices and the naive product ------------------------------------------------------- */

/* A stored matrix: element (i, j) of op(X) for a column- or row-major array. */
typedef struct view {
    const double *x;
    int ld;
    bool trans;
    bool row_major;
} view;

static double at(view v, int i, int j)
{
    if (v.trans) {
        int t = i;
        i = j;
        j = t;
    }
    return v.row_major ? v.x[(size_t)i * v.ld + j] : v.x[i + (size_t)j * v.ld];
}

/* Checks every element of the m x n result C (from C0) against alpha op(A) op(B) + beta C0 to
 * a few ulps of the magnitudes summed, and that C's padding (beyond m rows, or n columns in
 * row-major) still holds C0's values. */
/* got against alpha * sum + beta * c_old (beta = 0: c_old not used), within
 * 2(k+2) eps of the magnitudes (mag: sum of |terms|); *want gets the value. */
static bool product_close(double got, long double sum, long double mag, double alpha, double beta,
                          double c_old, int k, double *want)
{
    long double w = alpha * sum, bound = fabs(alpha) * mag;
    if (beta != 0) {
        w += (long double)beta * c_old;
        bound += fabs(beta) * fabs(c_old);
    }
    *want = (double)w;
    double tol = (double)(2 * (k + 2)) * DBL_EPSILON * (double)bound + DBL_MIN;
    return fabs(got - *want) <= tol;
}

static void expect_product(const char *what, int m, int n, int k, double alpha, view a, view b,
                           double beta, const double *c0, const double *c, int ldc, bool row_major)
{
    const int outer = row_major ? m : n, inner = row_major ? n : m;
    for (int o = 0; o < outer; o++) {
        for (int in = 0; in < ldc; in++) {
            size_t idx = (size_t)o * ldc + in;
            if (in >= inner) {
                if (!(c[idx] == c0[idx] || (isnan(c[idx]) && isnan(c0[idx]))))
                    fail_msg("%s: padding element %zu written", what, idx);
                continue;
            }
            int i = row_major ? o : in, j = row_major ? in : o;
            long double sum = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                long double t = (long double)at(a, i, p) * at(b, p, j);
                sum += t;
                mag += fabsl(t);
            }
            double want;
            if (!product_close(c[idx], sum, mag, alpha, beta, c0[idx], k, &want))
                fail_msg("%s m=%d n=%d k=%d: C(%d,%d) = %.17g, expected %.17g", what, m, n, k, i, j,
                         c[idx], want);
        }
    }
}

typedef struct shape {
    int m, n, k;
} shape;

/* Odd sizes around the micro-kernel tiles, one of a single element, and one large enough for
 * the packed (and possibly parallel) path. */
static const shape shapes[] = {{1, 1, 1},    {3, 5, 7},    {17, 13, 9},
                               {33, 31, 65}, {67, 45, 71}, {150, 131, 70}};
static const double alphas[] = {1.0, -0.7};
static const double betas[] = {0.0, 1.3};

/* Runs one product through the Fortran entry (layout F77) or CBLAS (layout = a CBLAS layout),
 * with leading dimensions 3 beyond the minimum, and checks it. */
static void run_product(int layout, char ta, char tb, shape s, double alpha, double beta,
                        unsigned seed)
{
    const bool row_major = layout == CblasRowMajor;
    const bool a_trans = ta != 'N' && ta != 'n', b_trans = tb != 'N' && tb != 'n';
    /* Stored shapes: op(A) is m x k, op(B) is k x n. */
    int a_rows = a_trans ? s.k : s.m, a_cols = a_trans ? s.m : s.k;
    int b_rows = b_trans ? s.n : s.k, b_cols = b_trans ? s.k : s.n;
    int lda = (row_major ? a_cols : a_rows) + 3, ldb = (row_major ? b_cols : b_rows) + 3;
    int ldc = (row_major ? s.n : s.m) + 3;
    size_t a_len = (size_t)lda * (row_major ? a_rows : a_cols);
    size_t b_len = (size_t)ldb * (row_major ? b_rows : b_cols);
    size_t c_len = (size_t)ldc * (row_major ? s.m : s.n);
    double *a = tu_random_array(a_len, seed), *b = tu_random_array(b_len, seed + 1);
    double *c0 = tu_random_array(c_len, seed + 2), *c = malloc(sizeof(double) * c_len);
    assert_non_null(c);
    if (beta == 0.0) /* beta = 0 must overwrite whatever C holds, NaN included */
        for (size_t i = 0; i < c_len; i += 7)
            c0[i] = NAN;
    memcpy(c, c0, sizeof(double) * c_len);
    char what[64];
    if (layout == F77) {
        snprintf(what, sizeof what, "dgemm_ %c%c alpha=%g beta=%g", ta, tb, alpha, beta);
        dgemm_(&ta, &tb, &s.m, &s.n, &s.k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
    } else {
        CBLAS_TRANSPOSE cta = a_trans ? (ta == 'C' ? CblasConjTrans : CblasTrans) : CblasNoTrans;
        CBLAS_TRANSPOSE ctb = b_trans ? (tb == 'C' ? CblasConjTrans : CblasTrans) : CblasNoTrans;
        snprintf(what, sizeof what, "cblas_dgemm %s %c%c alpha=%g beta=%g",
                 row_major ? "row" : "col", ta, tb, alpha, beta);
        cblas_dgemm((CBLAS_LAYOUT)layout, cta, ctb, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c,
                    ldc);
    }
    view va = {a, lda, a_trans, row_major}, vb = {b, ldb, b_trans, row_major};
    expect_product(what, s.m, s.n, s.k, alpha, va, vb, beta, c0, c, ldc, row_major);
    free(a), free(b), free(c0), free(c);
}

static void run_all(int layout, const char *trans_chars)
{
    unsigned seed = 1;
    for (const char *ta = trans_chars; *ta; ta++)
        for (const char *tb = trans_chars; *tb; tb++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t x = 0; x < 2; x++)
                    for (size_t y = 0; y < 2; y++)
                        run_product(layout, *ta, *tb, shapes[s], alphas[x], betas[y], seed++);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

static void test_fortran_products(void **state)
{
    (void)state;
    run_all(F77, "NTCntc"); /* LSAME: either case */
}

static void test_cblas_column_major_products(void **state)
{
    (void)state;
    run_all(CblasColMajor, "NTC");
}

static void test_cblas_row_major_products(void **state)
{
    (void)state;
    run_all(CblasRowMajor, "NTC");
}

/* alpha = 0 reads neither A nor B (NULL is fine, as in reference); beta = 1 then touches
 * nothing, not even C; m = 0 or n = 0 returns before anything. None is an error. */
static void test_quick_returns(void **state)
{
    (void)state;
    double c[4] = {1, 2, 3, 4};
    const double zero = 0.0, one = 1.0, two = 2.0;
    const int two_i = 2, zero_i = 0;
    dgemm_("N", "N", &two_i, &two_i, &two_i, &zero, NULL, &two_i, NULL, &two_i, &two, c, &two_i);
    assert_true(c[0] == 2 && c[1] == 4 && c[2] == 6 && c[3] == 8);
    dgemm_("N", "N", &two_i, &two_i, &two_i, &zero, NULL, &two_i, NULL, &two_i, &one, NULL, &two_i);
    dgemm_("N", "N", &zero_i, &two_i, &two_i, &one, NULL, &two_i, NULL, &two_i, &one, NULL, &two_i);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 0, 2, 1.0, NULL, 2, NULL, 1, 0.0,
                NULL, 1);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_handler_calls, 0);
}

/* ---- dtrsm and dtrmm ------------------------------------------------------------------------ */

/* Where element (i, j) of a matrix stored column- or row-major with leading dimension ld is. */
static size_t index_of(int i, int j, int ld, bool row_major)
{
    return row_major ? (size_t)i * ld + j : i + (size_t)j * ld;
}

static bool same_value(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

/* A flag character as given (upper case) or in lower case, which LSAME accepts too. */
static char flag_case(char c, bool lower)
{
    return lower ? (char)(c - 'A' + 'a') : c;
}

/* The flags of one triangular call, upper case. */
typedef struct tri_flags {
    char side, uplo, trans, diag;
} tri_flags;

/* Element (i, j) of op(A), A the triangle stored in a: zero outside the triangle, one on a unit
 * diagonal (where a holds NaN: the routine must not read it). */
static double tri_element(tri_flags f, const double *a, int lda, bool row_major, int i, int j)
{
    if (f.trans != 'N') {
        int t = i;
        i = j;
        j = t;
    }
    if (i == j)
        return f.diag == 'U' ? 1.0 : a[index_of(i, i, lda, row_major)];
    bool inside = f.uplo == 'U' ? i < j : i > j;
    return inside ? a[index_of(i, j, lda, row_major)] : 0.0;
}

/* A k x k triangle well away from singular (|diagonal| >= 1, each row's other entries summing
 * to at most 1/2), NaN everywhere the routine must not read: the other triangle, the padding
 * and a unit diagonal. */
static double *triangle(tri_flags f, int k, int lda, bool row_major, unsigned seed)
{
    size_t len = (size_t)lda * k;
    double *a = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(a);
    for (size_t i = 0; i < len; i++)
        a[i] = NAN;
    for (int j = 0; j < k; j++) {
        for (int i = 0; i < k; i++) {
            double u = tu_uniform(&seed);
            if (i == j && f.diag == 'N')
                a[index_of(i, j, lda, row_major)] = u < 0 ? u - 1.0 : u + 1.0;
            else if (f.uplo == 'U' ? i < j : i > j)
                a[index_of(i, j, lda, row_major)] = u / k;
        }
    }
    return a;
}

/* One dtrsm (solve) or dtrmm through the Fortran entry (layout F77) or CBLAS, with leading
 * dimensions 3 beyond the minimum. trmm's result is compared with alpha op(A) B0 (or alpha B0
 * op(A)); trsm's X is checked by its residual op(A) X - alpha B0, to a few ulps of the
 * magnitudes summed (a triangular solve is backward stable). alpha = 0 must give exact zeros
 * over a B holding NaNs, and B's padding must keep its values. */
static void run_triangular(int layout, bool solve, tri_flags f, int m, int n, double alpha,
                           unsigned seed)
{
    const bool row_major = layout == CblasRowMajor, left = f.side == 'L';
    const int k = left ? m : n;
    const int lda = k + 3, ldb = (row_major ? n : m) + 3;
    const size_t b_len = (size_t)ldb * (row_major ? m : n);
    double *a = triangle(f, k, lda, row_major, seed);
    double *b0 = tu_random_array(b_len, seed + 1),
           *b = malloc(sizeof(double) * (b_len ? b_len : 1));
    assert_non_null(b);
    if (alpha == 0.0)
        for (size_t i = 0; i < b_len; i += 7)
            b0[i] = NAN;
    memcpy(b, b0, sizeof(double) * b_len);

    const char *routine;
    if (layout == F77) {
        /* LSAME: either case; odd seeds pass lower case. */
        const bool lower = seed & 1u;
        char fs = flag_case(f.side, lower), fu = flag_case(f.uplo, lower);
        char ft = flag_case(f.trans, lower), fd = flag_case(f.diag, lower);
        routine = solve ? "dtrsm_" : "dtrmm_";
        (solve ? dtrsm_ : dtrmm_)(&fs, &fu, &ft, &fd, &m, &n, &alpha, a, &lda, b, &ldb);
    } else {
        CBLAS_SIDE cs = left ? CblasLeft : CblasRight;
        CBLAS_UPLO cu = f.uplo == 'U' ? CblasUpper : CblasLower;
        CBLAS_TRANSPOSE ct =
            f.trans == 'N' ? CblasNoTrans : (f.trans == 'T' ? CblasTrans : CblasConjTrans);
        CBLAS_DIAG cd = f.diag == 'U' ? CblasUnit : CblasNonUnit;
        routine = solve ? "cblas_dtrsm" : "cblas_dtrmm";
        (solve ? cblas_dtrsm : cblas_dtrmm)((CBLAS_LAYOUT)layout, cs, cu, ct, cd, m, n, alpha, a,
                                            lda, b, ldb);
    }

    const int outer = row_major ? m : n, inner = row_major ? n : m;
    for (int o = 0; o < outer; o++) {
        for (int in = 0; in < ldb; in++) {
            const size_t idx = (size_t)o * ldb + in;
            if (in >= inner) {
                if (!same_value(b[idx], b0[idx]))
                    fail_msg("%s: padding element %zu written", routine, idx);
                continue;
            }
            const int i = row_major ? o : in, j = row_major ? in : o;
            if (alpha == 0.0) {
                if (b[idx] != 0.0)
                    fail_msg("%s alpha=0: B(%d,%d) = %g, expected 0", routine, i, j, b[idx]);
                continue;
            }
            /* trmm multiplies B0, trsm's residual multiplies the solution X. */
            const double *x = solve ? b : b0;
            long double sum = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                long double t = left ? (long double)tri_element(f, a, lda, row_major, i, p) *
                                           x[index_of(p, j, ldb, row_major)]
                                     : (long double)x[index_of(i, p, ldb, row_major)] *
                                           tri_element(f, a, lda, row_major, p, j);
                sum += t;
                mag += fabsl(t);
            }
            const long double scaled_b0 = (long double)alpha * b0[idx];
            const long double got = solve ? sum : b[idx], want = solve ? scaled_b0 : alpha * sum;
            const long double bound = solve ? mag + fabsl(scaled_b0) : fabs(alpha) * mag;
            double tol = (double)(4 * (k + 2)) * DBL_EPSILON * (double)bound + DBL_MIN;
            if (!(fabsl(got - want) <= tol))
                fail_msg("%s %c%c%c%c m=%d n=%d alpha=%g: (%d,%d) %s %.17g, expected %.17g",
                         routine, f.side, f.uplo, f.trans, f.diag, m, n, alpha, i, j,
                         solve ? "op(A) X is" : "B is", (double)got, want);
        }
    }
    free(a), free(b0), free(b);
}

/* Odd sizes, one of a single element, and some whose triangle (m for side L, n for R) is above
 * the kernels' recursion threshold, so the off-diagonal blocks go through GEMM. */
static const shape tri_shapes[] = {{1, 1, 0}, {3, 5, 0}, {17, 13, 0}, {9, 67, 0}, {101, 53, 0}};
static const double tri_alphas[] = {1.0, -0.7, 0.0};

static void run_all_triangular(int layout, bool solve)
{
    static const char sides[] = "LR", uplos[] = "UL", transes[] = "NTC", diags[] = "NU";
    unsigned seed = 1;
    for (const char *sd = sides; *sd; sd++)
        for (const char *up = uplos; *up; up++)
            for (const char *tr = transes; *tr; tr++)
                for (const char *dg = diags; *dg; dg++)
                    for (size_t s = 0; s < sizeof tri_shapes / sizeof tri_shapes[0]; s++)
                        for (size_t x = 0; x < sizeof tri_alphas / sizeof tri_alphas[0]; x++)
                            run_triangular(layout, solve, (tri_flags){*sd, *up, *tr, *dg},
                                           tri_shapes[s].m, tri_shapes[s].n, tri_alphas[x], seed++);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_handler_calls, 0);
}

static void test_fortran_triangular(void **state)
{
    (void)state;
    run_all_triangular(F77, true);
    run_all_triangular(F77, false);
}

static void test_cblas_column_major_triangular(void **state)
{
    (void)state;
    run_all_triangular(CblasColMajor, true);
    run_all_triangular(CblasColMajor, false);
}

static void test_cblas_row_major_triangular(void **state)
{
    (void)state;
    run_all_triangular(CblasRowMajor, true);
    run_all_triangular(CblasRowMajor, false);
}

/* ---- dsyrk ------------------------------------------------------------------------------------
 */

/* One dsyrk through the Fortran entry (F77) or CBLAS, leading dimensions 3 beyond the minimum:
 * the uplo triangle of C against alpha op(A) op(A)^T + beta C0 (op(A) = A for trans 'N', else
 * A^T), everything else (the other triangle, padding) as C0 held it. */
static void run_syrk(int layout, char uplo, char trans, int n, int k, double alpha, double beta,
                     unsigned seed)
{
    const bool row_major = layout == CblasRowMajor, a_trans = trans != 'N';
    const int a_rows = a_trans ? k : n, a_cols = a_trans ? n : k;
    const int lda = (row_major ? a_cols : a_rows) + 3, ldc = n + 3;
    const size_t a_len = (size_t)lda * (row_major ? a_rows : a_cols), c_len = (size_t)ldc * n;
    double *a = tu_random_array(a_len, seed), *c0 = tu_random_array(c_len, seed + 1);
    double *c = malloc(sizeof(double) * (c_len ? c_len : 1));
    assert_non_null(c);
    if (beta == 0.0) /* beta = 0 must overwrite the triangle, NaN included, and keep the rest */
        for (size_t i = 0; i < c_len; i += 7)
            c0[i] = NAN;
    memcpy(c, c0, sizeof(double) * c_len);

    const char *routine;
    if (layout == F77) {
        char fu = flag_case(uplo, seed & 1u), ft = flag_case(trans, seed & 1u);
        routine = "dsyrk_";
        dsyrk_(&fu, &ft, &n, &k, &alpha, a, &lda, &beta, c, &ldc);
    } else {
        CBLAS_UPLO cu = uplo == 'U' ? CblasUpper : CblasLower;
        CBLAS_TRANSPOSE ct =
            trans == 'N' ? CblasNoTrans : (trans == 'T' ? CblasTrans : CblasConjTrans);
        routine = "cblas_dsyrk";
        cblas_dsyrk((CBLAS_LAYOUT)layout, cu, ct, n, k, alpha, a, lda, beta, c, ldc);
    }

    const view va = {a, lda, a_trans, row_major};
    for (int o = 0; o < n; o++) {
        for (int in = 0; in < ldc; in++) {
            const size_t idx = (size_t)o * ldc + in;
            const int i = row_major ? o : in, j = row_major ? in : o;
            if (in >= n || (uplo == 'U' ? i > j : i < j)) {
                if (!same_value(c[idx], c0[idx]))
                    fail_msg("%s %c%c n=%d k=%d: element %zu outside the %s triangle written",
                             routine, uplo, trans, n, k, idx, uplo == 'U' ? "upper" : "lower");
                continue;
            }
            long double sum = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                long double t = (long double)at(va, i, p) * at(va, j, p);
                sum += t;
                mag += fabsl(t);
            }
            double want;
            if (!product_close(c[idx], sum, mag, alpha, beta, c0[idx], k, &want))
                fail_msg("%s %c%c n=%d k=%d alpha=%g beta=%g: C(%d,%d) = %.17g, expected %.17g",
                         routine, uplo, trans, n, k, alpha, beta, i, j, c[idx], want);
        }
    }
    free(a), free(c0), free(c);
}

/* {n, unused, k}: n around the tiles and past the kernel's block columns (64), and k = 0 (C
 * only scaled). */
static const shape syrk_shapes[] = {{1, 0, 1},  {3, 0, 5},   {17, 0, 9},  {5, 0, 0},
                                    {33, 0, 1}, {65, 0, 33}, {150, 0, 70}};
/* alpha = 0 only scales (beta = 1: touches nothing); beta = 0 overwrites. */
static const double syrk_scalars[][2] = {
    {1.0, 0.0}, {-0.7, 1.3}, {0.7, 1.0}, {0.0, 1.3}, {0.0, 0.0}};

static void run_all_syrk(int layout)
{
    static const char uplos[] = "UL", transes[] = "NTC";
    unsigned seed = 1;
    for (const char *up = uplos; *up; up++)
        for (const char *tr = transes; *tr; tr++)
            for (size_t s = 0; s < sizeof syrk_shapes / sizeof syrk_shapes[0]; s++)
                for (size_t x = 0; x < sizeof syrk_scalars / sizeof syrk_scalars[0]; x++)
                    run_syrk(layout, *up, *tr, syrk_shapes[s].m, syrk_shapes[s].k,
                             syrk_scalars[x][0], syrk_scalars[x][1], seed++);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_handler_calls, 0);
}

static void test_fortran_syrk(void **state)
{
    (void)state;
    run_all_syrk(F77);
}

static void test_cblas_syrk(void **state)
{
    (void)state;
    run_all_syrk(CblasColMajor);
    run_all_syrk(CblasRowMajor);
}

/* Quick returns and NULLs of the new routines: m or n = 0 (trsm, trmm) and n = 0 or alpha = 0
 * with beta = 1 (syrk) touch nothing; alpha = 0 zeroes B without reading A (NULL is fine, as in
 * reference). A NULL matrix that would be read or written (reference would crash) is neither
 * reported nor touched. */
static void test_quick_returns_level3(void **state)
{
    (void)state;
    double b[4] = {1, 2, 3, 4};
    const double zero = 0.0, one = 1.0;
    const int two = 2, zero_i = 0;
    dtrsm_("L", "U", "N", "N", &zero_i, &two, &one, NULL, &two, NULL, &two);
    dtrmm_("R", "L", "T", "U", &two, &zero_i, &one, NULL, &two, NULL, &two);
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, 2, 0, 1.0, NULL,
                2, NULL, 1);
    dsyrk_("U", "N", &zero_i, &two, &one, NULL, &two, &zero, NULL, &two);
    dsyrk_("L", "T", &two, &two, &zero, NULL, &two, &one, NULL, &two);
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, 2, 0, 1.0, NULL, 2, 1.0, NULL, 2);
    dtrsm_("L", "U", "N", "N", &two, &two, &zero, NULL, &two, b, &two);
    assert_true(b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0);
    b[0] = b[1] = b[2] = b[3] = 5;
    cblas_dtrmm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasUnit, 2, 2, 0.0, NULL, 2, b,
                2);
    assert_true(b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0);
    b[0] = b[1] = b[2] = b[3] = 5;
    dtrsm_("L", "U", "N", "N", &two, &two, &one, NULL, &two, b, &two);
    dtrmm_("L", "U", "N", "N", &two, &two, &one, b, &two, NULL, &two);
    dsyrk_("U", "N", &two, &two, &one, NULL, &two, &one, b, &two);
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, 2, 2, 1.0, b, 2, 1.0, NULL, 2);
    assert_true(b[0] == 5 && b[1] == 5 && b[2] == 5 && b[3] == 5);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_handler_calls, 0);
}

/* ---- argument errors ----------------------------------------------------------------------- */

/* One bad call: its arguments and the report expected. */
typedef struct bad_call {
    const char *hook; /* "xerbla_" or "cblas_xerbla": which hook reports it */
    int number;       /* the number that hook gets */
    int layout;       /* F77: dgemm_; else the layout passed to cblas_dgemm (possibly invalid) */
    int ta, tb;       /* transpose characters for dgemm_, CBLAS enum values for cblas_dgemm */
    int m, n, k, lda, ldb, ldc;
} bad_call;

/* After one bad call: out (the 64 elements it could write) still holds SENTINEL, and exactly
 * one report was made, to hook ("xerbla_" or "cblas_xerbla") with number, naming the routine
 * as srname ("DGEMM ", for xerbla_) or rout ("cblas_dgemm", for cblas_xerbla). */
static void check_report(const char *what, int index, const char *hook, const char *srname,
                         const char *rout, int number, const double *out)
{
    for (int i = 0; i < 64; i++)
        if (out[i] != SENTINEL)
            fail_msg("%s case %d: element %d written by a call with a bad argument", what, index,
                     i);
    if (strcmp(hook, "xerbla_") == 0) {
        if (hooks.xerbla != 1 || hooks.cblas_xerbla != 0)
            fail_msg("%s case %d: xerbla_ called %d times, cblas_xerbla %d (expected 1, 0)", what,
                     index, hooks.xerbla, hooks.cblas_xerbla);
        /* As gfortran passes it: six blank-padded characters and the hidden length. */
        assert_int_equal(hooks.srname_len, 6);
        assert_string_equal(hooks.srname, srname);
        if (hooks.info != number)
            fail_msg("%s case %d: xerbla_ got info %d, expected %d", what, index, hooks.info,
                     number);
    } else {
        if (hooks.cblas_xerbla != 1 || hooks.xerbla != 0)
            fail_msg("%s case %d: cblas_xerbla called %d times, xerbla_ %d (expected 1, 0)", what,
                     index, hooks.cblas_xerbla, hooks.xerbla);
        assert_string_equal(hooks.rout, rout);
        if (hooks.p != number)
            fail_msg("%s case %d: cblas_xerbla got %d, expected %d", what, index, hooks.p, number);
    }
    /* The program's hooks won: tela's fallbacks, which report to tela's handler, never ran. */
    assert_int_equal(hooks.tela_handler_calls, 0);
}

static void expect_report(const bad_call *bc, int index)
{
    /* C is large enough for any write the call could make, so a write is seen, not a crash. */
    double a[64], b[64], c[64];
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = 1.0, c[i] = SENTINEL;
    memset(&hooks, 0, sizeof hooks);
    if (bc->layout == F77) {
        char ta = (char)bc->ta, tb = (char)bc->tb;
        const double alpha = 1.0, beta = 0.0;
        dgemm_(&ta, &tb, &bc->m, &bc->n, &bc->k, &alpha, a, &bc->lda, b, &bc->ldb, &beta, c,
               &bc->ldc);
    } else {
        cblas_dgemm((CBLAS_LAYOUT)bc->layout, (CBLAS_TRANSPOSE)bc->ta, (CBLAS_TRANSPOSE)bc->tb,
                    bc->m, bc->n, bc->k, 1.0, a, bc->lda, b, bc->ldb, 0.0, c, bc->ldc);
    }
    check_report("dgemm", index, bc->hook, "DGEMM ", "cblas_dgemm", bc->number, c);
}

/* Reference DGEMM: TRANSA 1, TRANSB 2, M 3, N 4, K 5, LDA 8, LDB 10, LDC 13, checked in that
 * order (the first bad one is reported); LDA is against M (or K if A is transposed), LDB
 * against K (or N), LDC against M, each at least 1. Cases from dblat3's DCHKE and more. */
static void test_fortran_errors(void **state)
{
    (void)state;
    static const bad_call cases[] = {
        {"xerbla_", 1, F77, '/', 'N', 0, 0, 0, 1, 1, 1},
        {"xerbla_", 1, F77, '/', 'T', 0, 0, 0, 1, 1, 1},
        {"xerbla_", 2, F77, 'N', '/', 0, 0, 0, 1, 1, 1},
        {"xerbla_", 2, F77, 'T', 'x', 0, 0, 0, 1, 1, 1},
        {"xerbla_", 3, F77, 'N', 'N', -1, 0, 0, 1, 1, 1},
        {"xerbla_", 3, F77, 'T', 'C', -1, 0, 0, 1, 1, 1},
        {"xerbla_", 4, F77, 'N', 'N', 0, -1, 0, 1, 1, 1},
        {"xerbla_", 4, F77, 'c', 't', 0, -1, 0, 1, 1, 1},
        {"xerbla_", 5, F77, 'N', 'N', 0, 0, -1, 1, 1, 1},
        {"xerbla_", 5, F77, 'T', 'T', 0, 0, -1, 1, 1, 1},
        {"xerbla_", 8, F77, 'N', 'N', 2, 0, 0, 1, 1, 2},
        {"xerbla_", 8, F77, 'N', 'T', 2, 0, 0, 1, 1, 2},
        {"xerbla_", 8, F77, 'T', 'N', 0, 0, 2, 1, 2, 1},
        {"xerbla_", 8, F77, 'T', 'T', 0, 0, 2, 1, 1, 1},
        {"xerbla_", 10, F77, 'N', 'N', 0, 0, 2, 1, 1, 1},
        {"xerbla_", 10, F77, 'T', 'N', 0, 0, 2, 2, 1, 1},
        {"xerbla_", 10, F77, 'N', 'T', 0, 2, 0, 1, 1, 1},
        {"xerbla_", 10, F77, 'T', 'T', 0, 2, 0, 1, 1, 1},
        {"xerbla_", 13, F77, 'N', 'N', 2, 0, 0, 2, 1, 1},
        {"xerbla_", 13, F77, 'T', 'T', 2, 0, 0, 1, 1, 1},
        {"xerbla_", 13, F77, 'N', 'N', 2, 2, 2, 2, 2, 0}, /* ldc = 0 with real work */
        /* several bad: the first in reference order */
        {"xerbla_", 1, F77, '/', '/', -1, -1, -1, 0, 0, 0},
        {"xerbla_", 3, F77, 'N', 'N', -1, -1, 2, 0, 0, 0},
        {"xerbla_", 5, F77, 'N', 'N', 2, 2, -1, 0, 0, 0},
        {"xerbla_", 8, F77, 'N', 'N', 3, 3, 3, 2, 2, 2},
        {"xerbla_", 10, F77, 'N', 'N', 3, 3, 3, 3, 2, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_report(&cases[i], (int)i);
}

/* Reference CBLAS: layout 1, TransA 2, TransB 3 go to cblas_xerbla from the C layer. The rest
 * are found by the Fortran dgemm it calls, reported to xerbla_ with that call's numbers; in
 * row-major the call has A and B (M and N) swapped, so M is reported as 4 and lda as 10. (A
 * program's xerbla_ that hands them on, as the netlib suite's does, adds one for the layout
 * argument, and its cblas_xerbla swaps 4/5 and 9/11 back when the call was row-major.) */
static void test_cblas_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = -1;
    const int nt = CblasNoTrans, tr = CblasTrans, ct = CblasConjTrans;
    const bad_call cases[] = {
        {"cblas_xerbla", 1, bad, nt, nt, 0, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 1, bad, tr, bad, -1, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 2, col, bad, nt, 0, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 2, row, 114, tr, -1, 0, 0, 1, 1, 1}, /* OpenBLAS's ConjNoTrans */
        {"cblas_xerbla", 3, col, nt, bad, 0, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 3, row, ct, bad, 0, 0, 0, 1, 1, 1},
        /* column-major: the Fortran call's own numbers */
        {"xerbla_", 3, col, nt, nt, -1, 0, 0, 1, 1, 1},
        {"xerbla_", 4, col, tr, nt, 0, -1, 0, 1, 1, 1},
        {"xerbla_", 5, col, nt, tr, 0, 0, -1, 1, 1, 1},
        {"xerbla_", 8, col, nt, nt, 2, 0, 0, 1, 1, 2},
        {"xerbla_", 8, col, tr, nt, 0, 0, 2, 1, 2, 1},
        {"xerbla_", 10, col, nt, nt, 0, 0, 2, 1, 1, 1},
        {"xerbla_", 10, col, nt, tr, 0, 2, 0, 1, 1, 1},
        {"xerbla_", 13, col, nt, nt, 2, 0, 0, 2, 1, 1},
        /* row-major: M and N, A and B swapped in the Fortran call */
        {"xerbla_", 4, row, nt, nt, -1, 0, 0, 1, 1, 1},
        {"xerbla_", 3, row, tr, tr, 0, -1, 0, 1, 1, 1},
        {"xerbla_", 5, row, nt, nt, 0, 0, -1, 1, 1, 1},
        {"xerbla_", 3, row, nt, nt, -1, -1, 0, 1, 1, 1}, /* N is checked first now */
        {"xerbla_", 10, row, nt, nt, 0, 0, 2, 1, 1, 2},  /* lda < K */
        {"xerbla_", 10, row, tr, nt, 2, 0, 0, 1, 2, 1},  /* lda < M */
        {"xerbla_", 8, row, nt, nt, 0, 2, 0, 1, 1, 1},   /* ldb < N */
        {"xerbla_", 8, row, nt, tr, 0, 0, 2, 2, 1, 1},   /* ldb < K */
        {"xerbla_", 13, row, nt, nt, 0, 2, 0, 1, 2, 1},  /* ldc < N */
        {"xerbla_", 8, row, nt, nt, 2, 2, 2, 1, 1, 2},   /* ldb before lda now */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_report(&cases[i], (int)i);
}

/* One bad dtrsm/dtrmm call: its arguments and the report expected. */
typedef struct bad_tri_call {
    const char *hook;            /* "xerbla_" or "cblas_xerbla" */
    int number;                  /* the number that hook gets */
    int layout;                  /* F77, or the layout passed to the CBLAS routine */
    int side, uplo, trans, diag; /* characters for F77, CBLAS enum values otherwise */
    int m, n, lda, ldb;
} bad_tri_call;

static void expect_tri_report(bool solve, const bad_tri_call *bc, int index)
{
    double a[64], b[64];
    for (int i = 0; i < 64; i++)
        a[i] = 1.0, b[i] = SENTINEL;
    memset(&hooks, 0, sizeof hooks);
    if (bc->layout == F77) {
        char sd = (char)bc->side, up = (char)bc->uplo, tr = (char)bc->trans, dg = (char)bc->diag;
        const double alpha = 1.0;
        (solve ? dtrsm_ : dtrmm_)(&sd, &up, &tr, &dg, &bc->m, &bc->n, &alpha, a, &bc->lda, b,
                                  &bc->ldb);
    } else {
        (solve ? cblas_dtrsm : cblas_dtrmm)((CBLAS_LAYOUT)bc->layout, (CBLAS_SIDE)bc->side,
                                            (CBLAS_UPLO)bc->uplo, (CBLAS_TRANSPOSE)bc->trans,
                                            (CBLAS_DIAG)bc->diag, bc->m, bc->n, 1.0, a, bc->lda, b,
                                            bc->ldb);
    }
    check_report(solve ? "dtrsm" : "dtrmm", index, bc->hook, solve ? "DTRSM " : "DTRMM ",
                 solve ? "cblas_dtrsm" : "cblas_dtrmm", bc->number, b);
}

/* Reference DTRSM and DTRMM: SIDE 1, UPLO 2, TRANSA 3, DIAG 4, M 5, N 6, LDA 9 (against M for
 * side L, N for R), LDB 11 (against M), in that order. Cases from dblat3's DCHKE and more. */
static void test_fortran_triangular_errors(void **state)
{
    (void)state;
    static const bad_tri_call cases[] = {
        {"xerbla_", 1, F77, '/', 'U', 'N', 'N', 0, 0, 1, 1},
        {"xerbla_", 2, F77, 'L', '/', 'N', 'N', 0, 0, 1, 1},
        {"xerbla_", 3, F77, 'L', 'U', '/', 'N', 0, 0, 1, 1},
        {"xerbla_", 4, F77, 'L', 'U', 'N', '/', 0, 0, 1, 1},
        {"xerbla_", 5, F77, 'L', 'U', 'N', 'N', -1, 0, 1, 1},
        {"xerbla_", 5, F77, 'R', 'L', 'T', 'U', -1, 0, 1, 1},
        {"xerbla_", 6, F77, 'L', 'U', 'C', 'N', 0, -1, 1, 1},
        {"xerbla_", 6, F77, 'r', 'l', 'n', 'u', 0, -1, 1, 1},
        {"xerbla_", 9, F77, 'L', 'U', 'N', 'N', 2, 0, 1, 2}, /* lda < M (side L) */
        {"xerbla_", 9, F77, 'l', 'L', 'T', 'N', 2, 0, 1, 2},
        {"xerbla_", 9, F77, 'R', 'U', 'N', 'N', 0, 2, 1, 1}, /* lda < N (side R) */
        {"xerbla_", 9, F77, 'R', 'L', 'C', 'U', 0, 2, 1, 1},
        {"xerbla_", 11, F77, 'L', 'U', 'N', 'N', 2, 0, 2, 1},
        {"xerbla_", 11, F77, 'R', 'L', 'T', 'N', 2, 0, 1, 1}, /* side R: lda may be 1 here */
        {"xerbla_", 11, F77, 'L', 'U', 'N', 'N', 2, 2, 2, 0}, /* ldb = 0 with real work */
        /* several bad: the first in reference order */
        {"xerbla_", 1, F77, 'X', '/', '/', '/', -1, -1, 0, 0},
        {"xerbla_", 2, F77, 'R', '/', '/', '/', -1, -1, 0, 0},
        {"xerbla_", 3, F77, 'R', 'U', '/', '/', -1, -1, 0, 0},
        {"xerbla_", 4, F77, 'R', 'U', 'T', 'x', -1, -1, 0, 0},
        {"xerbla_", 5, F77, 'L', 'U', 'N', 'N', -1, -1, 0, 0},
        {"xerbla_", 6, F77, 'R', 'U', 'N', 'N', 3, -1, 0, 0},
        {"xerbla_", 9, F77, 'L', 'U', 'N', 'N', 3, 3, 2, 2},
    };
    for (int solve = 0; solve < 2; solve++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            expect_tri_report(solve, &cases[i], (int)i);
}

/* Reference cblas_dtrsm/cblas_dtrmm: layout 1, Side 2, Uplo 3, TransA 4, Diag 5 to
 * cblas_xerbla; the rest by the Fortran call, numbered as that call's: in row-major it has
 * side and uplo flipped and M, N swapped, so M is reported as 6 and N as 5 (a program's
 * cblas_xerbla swaps 7/6 back after its xerbla_ adds one), and lda is checked against M for
 * CblasRight, N for CblasLeft. The cases of c_d3chke.c and more. */
static void test_cblas_triangular_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = -1;
    const int l = CblasLeft, r = CblasRight, up = CblasUpper, lo = CblasLower;
    const int nt = CblasNoTrans, tr = CblasTrans, ct = CblasConjTrans;
    const int nu = CblasNonUnit, un = CblasUnit;
    const bad_tri_call cases[] = {
        {"cblas_xerbla", 1, bad, l, up, nt, nu, 0, 0, 1, 1},
        {"cblas_xerbla", 1, 103, bad, bad, bad, bad, -1, -1, 0, 0},
        {"cblas_xerbla", 2, col, bad, up, nt, nu, 0, 0, 1, 1},
        {"cblas_xerbla", 2, row, 0, bad, bad, bad, -1, 0, 1, 1},
        {"cblas_xerbla", 3, col, l, bad, nt, nu, 0, 0, 1, 1},
        {"cblas_xerbla", 3, row, r, 123, bad, nu, 0, 0, 1, 1},
        {"cblas_xerbla", 4, col, l, up, bad, nu, 0, 0, 1, 1},
        {"cblas_xerbla", 4, row, l, lo, 114, bad, -1, 0, 1, 1}, /* OpenBLAS's ConjNoTrans */
        {"cblas_xerbla", 5, col, l, up, nt, bad, 0, 0, 1, 1},
        {"cblas_xerbla", 5, row, r, up, ct, 133, -1, -1, 0, 0},
        /* column-major: the Fortran call's own numbers */
        {"xerbla_", 5, col, l, up, nt, nu, -1, 0, 1, 1},
        {"xerbla_", 5, col, r, lo, tr, un, -1, 0, 1, 1},
        {"xerbla_", 6, col, l, up, ct, nu, 0, -1, 1, 1},
        {"xerbla_", 9, col, l, up, nt, nu, 2, 0, 1, 2},
        {"xerbla_", 9, col, r, lo, tr, nu, 0, 2, 1, 1},
        {"xerbla_", 11, col, l, up, nt, nu, 2, 0, 2, 1},
        {"xerbla_", 11, col, r, up, nt, un, 2, 0, 1, 1},
        /* row-major: M and N swapped, side flipped in the Fortran call */
        {"xerbla_", 6, row, l, up, nt, nu, -1, 0, 1, 1},
        {"xerbla_", 6, row, r, lo, tr, un, -1, 0, 1, 1},
        {"xerbla_", 5, row, l, up, nt, nu, 0, -1, 1, 1},
        {"xerbla_", 5, row, l, up, nt, nu, -1, -1, 1, 1}, /* N is checked first now */
        {"xerbla_", 9, row, l, up, nt, nu, 2, 0, 1, 1},   /* lda < M (side L) */
        {"xerbla_", 9, row, r, lo, ct, nu, 0, 2, 1, 2},   /* lda < N (side R) */
        {"xerbla_", 11, row, l, up, nt, nu, 0, 2, 1, 1},  /* ldb < N */
        {"xerbla_", 11, row, r, up, tr, un, 0, 2, 2, 1},
        {"xerbla_", 11, row, l, lo, nt, nu, 2, 2, 2, 0}, /* ldb = 0 with real work */
    };
    for (int solve = 0; solve < 2; solve++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            expect_tri_report(solve, &cases[i], (int)i);
}

/* One bad dsyrk call: its arguments and the report expected. */
typedef struct bad_syrk_call {
    const char *hook; /* "xerbla_" or "cblas_xerbla" */
    int number;       /* the number that hook gets */
    int layout;       /* F77, or the layout passed to cblas_dsyrk */
    int uplo, trans;  /* characters for F77, CBLAS enum values otherwise */
    int n, k, lda, ldc;
} bad_syrk_call;

static void expect_syrk_report(const bad_syrk_call *bc, int index)
{
    double a[64], c[64];
    for (int i = 0; i < 64; i++)
        a[i] = 1.0, c[i] = SENTINEL;
    memset(&hooks, 0, sizeof hooks);
    if (bc->layout == F77) {
        char up = (char)bc->uplo, tr = (char)bc->trans;
        const double alpha = 1.0, beta = 0.0;
        dsyrk_(&up, &tr, &bc->n, &bc->k, &alpha, a, &bc->lda, &beta, c, &bc->ldc);
    } else {
        cblas_dsyrk((CBLAS_LAYOUT)bc->layout, (CBLAS_UPLO)bc->uplo, (CBLAS_TRANSPOSE)bc->trans,
                    bc->n, bc->k, 1.0, a, bc->lda, 0.0, c, bc->ldc);
    }
    check_report("dsyrk", index, bc->hook, "DSYRK ", "cblas_dsyrk", bc->number, c);
}

/* Reference DSYRK: UPLO 1, TRANS 2 ('C' is a real transpose), N 3, K 4, LDA 7 (against N for
 * 'N', K otherwise), LDC 10; reference cblas_dsyrk: layout 1, Uplo 2, Trans 3 to cblas_xerbla,
 * the rest as the Fortran call's, which keeps every argument in place in row-major (there lda is
 * against K for CblasNoTrans, N for CblasTrans). From DCHKE, c_d3chke.c and more. */
static void test_syrk_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = -1;
    const int up = CblasUpper, lo = CblasLower;
    const int nt = CblasNoTrans, tr = CblasTrans, ct = CblasConjTrans;
    const bad_syrk_call cases[] = {
        {"xerbla_", 1, F77, '/', 'N', 0, 0, 1, 1},
        {"xerbla_", 2, F77, 'U', '/', 0, 0, 1, 1},
        {"xerbla_", 3, F77, 'U', 'N', -1, 0, 1, 1},
        {"xerbla_", 3, F77, 'l', 't', -1, 0, 1, 1},
        {"xerbla_", 4, F77, 'U', 'C', 0, -1, 1, 1},
        {"xerbla_", 7, F77, 'U', 'N', 2, 0, 1, 2},
        {"xerbla_", 7, F77, 'L', 'T', 0, 2, 1, 1},
        {"xerbla_", 7, F77, 'L', 'c', 0, 2, 1, 1},
        {"xerbla_", 10, F77, 'U', 'N', 2, 0, 2, 1},
        {"xerbla_", 10, F77, 'L', 'C', 2, 0, 1, 1}, /* 'C' accepted: ldc is what is wrong */
        {"xerbla_", 10, F77, 'U', 'T', 2, 2, 2, 0},
        {"xerbla_", 1, F77, 'x', '/', -1, -1, 0, 0},
        {"xerbla_", 2, F77, 'U', 'X', -1, -1, 0, 0},
        {"xerbla_", 3, F77, 'U', 'N', -1, -1, 0, 0},
        {"xerbla_", 7, F77, 'U', 'N', 3, 3, 2, 2},
        {"cblas_xerbla", 1, bad, up, nt, 0, 0, 1, 1},
        {"cblas_xerbla", 1, 100, bad, bad, -1, 0, 1, 1},
        {"cblas_xerbla", 2, col, bad, nt, 0, 0, 1, 1},
        {"cblas_xerbla", 2, row, 0, bad, -1, 0, 1, 1},
        {"cblas_xerbla", 3, col, up, bad, 0, 0, 1, 1},
        {"cblas_xerbla", 3, row, lo, 114, -1, 0, 1, 1},
        {"xerbla_", 3, col, up, nt, -1, 0, 1, 1},
        {"xerbla_", 4, col, lo, tr, 0, -1, 1, 1},
        {"xerbla_", 7, col, up, nt, 2, 0, 1, 2},
        {"xerbla_", 7, col, lo, ct, 0, 2, 1, 1},
        {"xerbla_", 10, col, up, nt, 2, 0, 2, 1},
        {"xerbla_", 10, col, lo, tr, 2, 0, 1, 1},
        {"xerbla_", 3, row, up, tr, -1, 0, 1, 1},
        {"xerbla_", 4, row, lo, nt, 0, -1, 1, 1},
        {"xerbla_", 7, row, up, nt, 0, 2, 1, 2}, /* lda < K */
        {"xerbla_", 7, row, lo, tr, 2, 0, 1, 1}, /* lda < N */
        {"xerbla_", 7, row, lo, ct, 2, 0, 1, 1},
        {"xerbla_", 10, row, up, nt, 2, 0, 1, 1},
        {"xerbla_", 10, row, lo, tr, 2, 0, 2, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_syrk_report(&cases[i], (int)i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_fortran_products, reset_hooks),
        cmocka_unit_test_setup(test_cblas_column_major_products, reset_hooks),
        cmocka_unit_test_setup(test_cblas_row_major_products, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns, reset_hooks),
        cmocka_unit_test_setup(test_fortran_errors, reset_hooks),
        cmocka_unit_test_setup(test_cblas_errors, reset_hooks),
        cmocka_unit_test_setup(test_fortran_triangular, reset_hooks),
        cmocka_unit_test_setup(test_cblas_column_major_triangular, reset_hooks),
        cmocka_unit_test_setup(test_cblas_row_major_triangular, reset_hooks),
        cmocka_unit_test_setup(test_fortran_syrk, reset_hooks),
        cmocka_unit_test_setup(test_cblas_syrk, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns_level3, reset_hooks),
        cmocka_unit_test_setup(test_fortran_triangular_errors, reset_hooks),
        cmocka_unit_test_setup(test_cblas_triangular_errors, reset_hooks),
        cmocka_unit_test_setup(test_syrk_errors, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
