/* test_compat — the drop-in symbols dgemm_ and cblas_dgemm against a naive product (every
 * transpose, both layouts, odd sizes, padded leading dimensions), and their argument errors.
 * This program defines xerbla_ and cblas_xerbla itself, as the netlib suites do: that tela
 * calls these (and not its own weak fallbacks) is what the error tests prove, along with
 * reference BLAS's numbering and order of checks and that nothing is written. */
#define _GNU_SOURCE
#include "testutil.h"
#include "tela_cblas.h"

#include <float.h>
#include <math.h>

/* The Fortran ABI (LP64), declared here as a Fortran caller sees it: no header declares it. */
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);

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

static double uniform(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (double)((*state >> 8) & 0xffff) / 65536.0 - 0.5;
}

static double *random_array(size_t len, unsigned seed)
{
    double *x = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(x);
    for (size_t i = 0; i < len; i++)
        x[i] = uniform(&seed);
    return x;
}

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
            long double want = alpha * sum, bound = fabs(alpha) * mag;
            if (beta != 0) {
                want += (long double)beta * c0[idx];
                bound += fabs(beta) * fabs(c0[idx]);
            }
            double tol = (double)(2 * (k + 2)) * DBL_EPSILON * (double)bound + DBL_MIN;
            if (!(fabs(c[idx] - (double)want) <= tol))
                fail_msg("%s m=%d n=%d k=%d: C(%d,%d) = %.17g, expected %.17g", what, m, n, k, i, j,
                         c[idx], (double)want);
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
    double *a = random_array(a_len, seed), *b = random_array(b_len, seed + 1);
    double *c0 = random_array(c_len, seed + 2), *c = malloc(sizeof(double) * c_len);
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

/* ---- argument errors ----------------------------------------------------------------------- */

/* One bad call: its arguments and the report expected. */
typedef struct bad_call {
    const char *hook; /* "xerbla_" or "cblas_xerbla": which hook reports it */
    int number;       /* the number that hook gets */
    int layout;       /* F77: dgemm_; else the layout passed to cblas_dgemm (possibly invalid) */
    int ta, tb;       /* transpose characters for dgemm_, CBLAS enum values for cblas_dgemm */
    int m, n, k, lda, ldb, ldc;
} bad_call;

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
    for (int i = 0; i < 64; i++)
        if (c[i] != SENTINEL)
            fail_msg("case %d: C[%d] written by a call with a bad argument", index, i);
    if (strcmp(bc->hook, "xerbla_") == 0) {
        if (hooks.xerbla != 1 || hooks.cblas_xerbla != 0)
            fail_msg("case %d: xerbla_ called %d times, cblas_xerbla %d (expected 1, 0)", index,
                     hooks.xerbla, hooks.cblas_xerbla);
        /* As gfortran passes it: six blank-padded characters and the hidden length. */
        assert_int_equal(hooks.srname_len, 6);
        assert_string_equal(hooks.srname, "DGEMM ");
        if (hooks.info != bc->number)
            fail_msg("case %d: xerbla_ got info %d, expected %d", index, hooks.info, bc->number);
    } else {
        if (hooks.cblas_xerbla != 1 || hooks.xerbla != 0)
            fail_msg("case %d: cblas_xerbla called %d times, xerbla_ %d (expected 1, 0)", index,
                     hooks.cblas_xerbla, hooks.xerbla);
        assert_string_equal(hooks.rout, "cblas_dgemm");
        if (hooks.p != bc->number)
            fail_msg("case %d: cblas_xerbla got %d, expected %d", index, hooks.p, bc->number);
    }
    /* The program's hooks won: tela's fallbacks, which report to tela's handler, never ran. */
    assert_int_equal(hooks.tela_handler_calls, 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_fortran_products, reset_hooks),
        cmocka_unit_test_setup(test_cblas_column_major_products, reset_hooks),
        cmocka_unit_test_setup(test_cblas_row_major_products, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns, reset_hooks),
        cmocka_unit_test_setup(test_fortran_errors, reset_hooks),
        cmocka_unit_test_setup(test_cblas_errors, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
