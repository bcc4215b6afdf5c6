/* test_lu — tela_dgetrf, tela_dgetrs, tela_dgesv and tela_dlaswp: LAPACK's residual ratios
 * (dget01 ||P A - L U||, dget02 ||B - op(A) X||) under its threshold for square, odd, prime,
 * tall and wide shapes on both sides of the recursion's bases, padding rows never touched;
 * pivots and factors against OpenBLAS (loaded apart, testlapack.h); singular and
 * rank-deficient matrices built so that the first exact zero pivot, hence LAPACK's info, is
 * known beforehand; NaN and Inf; quick returns; dlaswp against a transcription of LAPACK's
 * loop; bad arguments (-i, nothing written); the same bits at widths 1, 2 and 8, from four
 * threads calling at once, and from calls made inside a region (nested, so serial). With
 * --wide (test_lu_wide) the numerical cases run on a team whose every region is split. */
#define _GNU_SOURCE
#include "testlapack.h"

/* ---- properties of a factorization -------------------------------------------------------- */

/* dget01: ||P A - L U||_1 / (n ||A||_1 eps) for tela_dgetrf's m x n output f with pivots
 * ipiv, a0 the matrix it was given. P A is a0 with ipiv's interchanges applied in order. */
static double lu_ratio(tela_int m, tela_int n, const double *a0, tela_int lda0, const double *f,
                       tela_int ldf, const tela_int *ipiv)
{
    const tela_int mn = m < n ? m : n;
    double *r = tl_alloc(m * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            r[i + j * m] = a0[i + j * lda0];
    for (tela_int i = 0; i < mn; i++) {
        const tela_int p = ipiv[i] - 1;
        for (tela_int j = 0; j < n && p != i; j++) {
            double t = r[i + j * m];
            r[i + j * m] = r[p + j * m];
            r[p + j * m] = t;
        }
    }
    /* R -= L U, L unit lower trapezoidal m x mn, U upper trapezoidal mn x n. */
    for (tela_int j = 0; j < n; j++)
        for (tela_int k = 0; k < mn && k <= j; k++) {
            const double u = f[k + j * ldf];
            r[k + j * m] -= u;
            for (tela_int i = k + 1; i < m; i++)
                r[i + j * m] -= f[i + k * ldf] * u;
        }
    const double ratio = tl_ratio(tl_norm1(m, n, r, m), tl_norm1(m, n, a0, lda0), n);
    free(r);
    return ratio;
}

/* Partial pivoting's invariants: ipiv[i] in [i + 1, m] and |L(i, k)| <= 1 (up to the
 * rounding of a reciprocal). */
static void expect_pivoting(const char *what, tela_int m, tela_int n, const double *f, tela_int ldf,
                            const tela_int *ipiv)
{
    const tela_int mn = m < n ? m : n;
    for (tela_int i = 0; i < mn; i++)
        if (ipiv[i] < i + 1 || ipiv[i] > m)
            fail_msg("%s m=%td n=%td: ipiv[%td] = %td out of [%td, %td]", what, m, n, i, ipiv[i],
                     i + 1, m);
    for (tela_int k = 0; k < mn; k++)
        for (tela_int i = k + 1; i < m; i++)
            if (!(fabs(f[i + k * ldf]) <= 1.0 + 4 * DBL_EPSILON))
                fail_msg("%s m=%td n=%td: |L(%td, %td)| = %g > 1", what, m, n, i, k,
                         fabs(f[i + k * ldf]));
}

/* Factors a copy of the m x n matrix a0 (leading dimension lda, padding rows sentinels) under
 * par and checks info, the padding, the pivots and the residual. Returns the factor (caller
 * frees); *ipiv_out gets the pivots. */
static double *factor_checked(tela_par par, tela_int m, tela_int n, const double *a0, tela_int lda,
                              int want_info, tela_int **ipiv_out)
{
    const tela_int mn = m < n ? m : n;
    double *f = tl_copy(a0, lda * n);
    tela_int *ipiv = tl_alloc_ipiv(mn);
    const int info = tela_dgetrf(par, m, n, f, lda, ipiv);
    if (info != want_info)
        fail_msg("dgetrf m=%td n=%td lda=%td: info %d, expected %d", m, n, lda, info, want_info);
    tl_expect_padding("dgetrf", f, m, n, lda);
    expect_pivoting("dgetrf", m, n, f, lda, ipiv);
    const double ratio = lu_ratio(m, n, a0, lda, f, lda, ipiv);
    if (!(ratio < TL_THRESHOLD))
        fail_msg("dgetrf m=%td n=%td lda=%td: ||PA - LU|| / (n ||A|| eps) = %g", m, n, lda, ratio);
    *ipiv_out = ipiv;
    return f;
}

/* ---- residuals ---------------------------------------------------------------------------- */

/* Square matrices, odd and prime orders, across the panel base (8) and the recursion's
 * splits; each then solved with getrs (N, T and lower-case C) and gesv. */
static void test_square_residuals_and_solves(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1,  2,  3,   4,   5,   7,   8,   9,   11, 13,
                                     15, 16, 17,  23,  31,  32,  33,  47,  63, 64,
                                     65, 97, 100, 101, 127, 128, 129, 160, 257};
    static const char transes[] = {'N', 'T', 'c', 'n'};
    static const tela_int nrhses[] = {1, 3, 17, 2};
    tl_seed(1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + (tela_int)(s % 3);
        /* Most on the caller's thread; every third through the default pool. */
        const tela_par par = s % 3 == 2 ? tela_par_auto() : tl_par();
        double *a0 = tl_random_matrix(n, n, lda);
        tela_int *ipiv;
        double *f = factor_checked(par, n, n, a0, lda, 0, &ipiv);
        double *f_before = tl_copy(f, lda * n);

        tela_int *ipiv_before = tl_alloc_ipiv(n);
        memcpy(ipiv_before, ipiv, sizeof(tela_int) * (size_t)n);
        const char trans = transes[s % 4];
        const bool t = trans != 'N' && trans != 'n';
        const tela_int nrhs = nrhses[s % 4], ldb = n + 2;
        double *b0 = tl_random_matrix(n, nrhs, ldb), *x = tl_copy(b0, ldb * nrhs);
        assert_int_equal(tela_dgetrs(par, trans, n, nrhs, f, lda, ipiv, x, ldb), 0);
        tl_expect_padding("dgetrs", x, n, nrhs, ldb);
        assert_memory_equal(f, f_before, sizeof(double) * (size_t)(lda * n));
        assert_memory_equal(ipiv, ipiv_before, sizeof(tela_int) * (size_t)n);
        free(ipiv_before);
        double ratio = tl_solve_ratio(t, n, nrhs, a0, lda, x, ldb, b0, ldb);
        if (!(ratio < TL_THRESHOLD))
            fail_msg("dgetrs %c n=%td nrhs=%td: solve ratio %g", trans, n, nrhs, ratio);

        /* gesv: getrf's factor and pivots bit for bit, and getrs N's solution. */
        double *g = tl_copy(a0, lda * n), *y = tl_copy(b0, ldb * nrhs),
               *xn = tl_copy(b0, ldb * nrhs);
        tela_int *gpiv = tl_alloc_ipiv(n);
        assert_int_equal(tela_dgetrs(par, 'N', n, nrhs, f, lda, ipiv, xn, ldb), 0);
        ratio = tl_solve_ratio(false, n, nrhs, a0, lda, xn, ldb, b0, ldb);
        if (!(ratio < TL_THRESHOLD))
            fail_msg("dgetrs N n=%td nrhs=%td: solve ratio %g", n, nrhs, ratio);
        assert_int_equal(tela_dgesv(par, n, nrhs, g, lda, gpiv, y, ldb), 0);
        assert_memory_equal(g, f, sizeof(double) * (size_t)(lda * n));
        assert_memory_equal(gpiv, ipiv, sizeof(tela_int) * (size_t)n);
        assert_memory_equal(y, xn, sizeof(double) * (size_t)(ldb * nrhs));
        free(a0);
        free(f);
        free(f_before);
        free(ipiv);
        free(b0);
        free(x);
        free(g);
        free(y);
        free(xn);
        free(gpiv);
    }
}

/* m != n: tall and wide, single rows and columns, shapes whose min(m, n) crosses the bases. */
static void test_rectangular_residuals(void **state)
{
    (void)state;
    static const tela_int shapes[][2] = {
        {1, 1},     {1, 2},    {1, 7},    {1, 100},   {2, 1},     {7, 1},    {100, 1},  {2, 3},
        {3, 2},     {3, 17},   {17, 3},   {8, 9},     {9, 8},     {16, 17},  {17, 16},  {8, 100},
        {100, 8},   {9, 70},   {70, 9},   {33, 65},   {65, 33},   {64, 100}, {100, 64}, {257, 100},
        {100, 257}, {300, 17}, {17, 300}, {129, 128}, {128, 129}, {40, 2100}};
    /* {40, 2100}: the update of the last 2060 columns in two B blocks (gemm_block_columns). */
    tl_seed(2);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const tela_int m = shapes[s][0], n = shapes[s][1], lda = m + (tela_int)(s % 4);
        const tela_par par = s % 2 ? tela_par_auto() : tl_par();
        double *a0 = tl_random_matrix(m, n, lda);
        tela_int *ipiv;
        double *f = factor_checked(par, m, n, a0, lda, 0, &ipiv);
        free(a0);
        free(f);
        free(ipiv);
    }
}

/* A matrix whose pivots need not come from the diagonal at all: rows in reverse order of a
 * diagonally dominant matrix, and an entry that grows down each column, so every step swaps. */
static void test_pivoting_swaps_every_step(void **state)
{
    (void)state;
    const tela_int n = 70, lda = 71;
    double *a0 = tl_random_matrix(n, n, lda);
    for (tela_int j = 0; j < n; j++)
        a0[(n - 1 - j) + j * lda] = 4.0 * n + j; /* the dominant entry of column j, reversed */
    tela_int *ipiv;
    double *f = factor_checked(tl_par(), n, n, a0, lda, 0, &ipiv);
    /* Step j < n/2 finds column j's dominant entry still in row n-1-j (the swaps so far only
     * moved rows 0..j-1 and n-j..n-1, the updates are below 1 in size): ipiv[j] = n - j. */
    for (tela_int j = 0; j < n / 2; j++)
        assert_int_equal(ipiv[j], n - j);
    free(a0);
    free(f);
    free(ipiv);
}

/* ---- edge sizes --------------------------------------------------------------------------- */

static void test_empty_and_one_by_one(void **state)
{
    (void)state;
    tela_int ipiv[4] = {-7, -7, -7, -7};
    double a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    const double a_before[4] = {1, 2, 3, 4}, b_before[4] = {5, 6, 7, 8};
    const tela_int ipiv_before[4] = {-7, -7, -7, -7};
    const tela_par p = tela_par_auto();
    /* Empty: info 0, nothing read or written (NULL arrays are fine). */
    assert_int_equal(tela_dgetrf(p, 0, 0, NULL, 1, NULL), 0);
    assert_int_equal(tela_dgetrf(p, 0, 3, a, 1, ipiv), 0);
    assert_int_equal(tela_dgetrf(p, 3, 0, a, 3, ipiv), 0);
    assert_int_equal(tela_dgetrs(p, 'N', 0, 2, NULL, 1, NULL, b, 1), 0);
    assert_int_equal(tela_dgetrs(p, 'T', 2, 0, a, 2, ipiv, NULL, 2), 0);
    assert_int_equal(tela_dgesv(p, 0, 2, NULL, 1, NULL, b, 1), 0);
    assert_int_equal(tela_dgesv(p, 0, 0, NULL, 1, NULL, NULL, 1), 0);
    assert_int_equal(tela_dlaswp(p, 0, a, 1, 1, 2, ipiv, 1), 0);
    assert_memory_equal(a, a_before, sizeof a);
    assert_memory_equal(b, b_before, sizeof b);
    assert_memory_equal(ipiv, ipiv_before, sizeof ipiv);

    /* 1 x 1: nothing to do but record the pivot; a zero is singular at 1. */
    double x = -3.0;
    tela_int piv = 0;
    assert_int_equal(tela_dgetrf(p, 1, 1, &x, 1, &piv), 0);
    assert_true(x == -3.0 && piv == 1);
    double rhs = 6.0;
    assert_int_equal(tela_dgetrs(p, 'N', 1, 1, &x, 1, &piv, &rhs, 1), 0);
    assert_true(rhs == -2.0);
    x = 0.0;
    assert_int_equal(tela_dgetrf(p, 1, 1, &x, 1, &piv), 1);
    assert_true(piv == 1);
    x = 0.0, rhs = 6.0;
    assert_int_equal(tela_dgesv(p, 1, 1, &x, 1, &piv, &rhs, 1), 1);
    assert_true(rhs == 6.0); /* not solved */

    /* One row: pivot 1, U the row, singular at 1 when its first entry is zero. */
    double row[3] = {0.0, 2.0, 3.0};
    assert_int_equal(tela_dgetrf(p, 1, 3, row, 1, &piv), 1);
    assert_true(piv == 1 && row[0] == 0.0 && row[1] == 2.0 && row[2] == 3.0);
    /* One column: the largest entry comes up, the others are divided by it. */
    double col[3] = {1.0, -4.0, 2.0};
    assert_int_equal(tela_dgetrf(p, 3, 1, col, 3, &piv), 0);
    assert_true(piv == 2 && col[0] == -4.0 && col[1] == -0.25 && col[2] == -0.5);
    /* A pivot below DBL_MIN divides (its reciprocal would overflow), as LAPACK does. */
    double tiny[3] = {0x1p-1060, -0x1.8p-1061, 0x1p-1070};
    assert_int_equal(tela_dgetrf(p, 3, 1, tiny, 3, &piv), 0);
    assert_true(piv == 1 && tiny[0] == 0x1p-1060 && tiny[1] == -0.75 && tiny[2] == 0x1p-10);
    double zero_col[3] = {0.0, 0.0, 0.0};
    assert_int_equal(tela_dgetrf(p, 3, 1, zero_col, 3, &piv), 1);
    assert_true(piv == 1);
}

/* ---- singular and rank-deficient matrices: info by construction ---------------------------
 * A zero column j stays exactly zero through every update (each subtracts l * 0), so the first
 * exact zero pivot is U(j, j): info = j + 1, the other pivots of a random matrix are not zero.
 * The factorization is completed all the same (LAPACK's rule), so PA = LU still holds. */

static int openblas_info_getrf(const struct tl_openblas *ob, tela_int m, tela_int n,
                               const double *a0, tela_int lda, tela_int *ob_ipiv)
{
    int im = (int)m, in = (int)n, ilda = (int)lda, info = 0;
    const tela_int mn = m < n ? m : n;
    double *f = tl_copy(a0, lda * n);
    int *ipiv = malloc(sizeof(int) * (size_t)(mn > 0 ? mn : 1));
    assert_non_null(ipiv);
    ob->dgetrf(&im, &in, f, &ilda, ipiv, &info);
    for (tela_int i = 0; i < mn && ob_ipiv; i++)
        ob_ipiv[i] = ipiv[i];
    free(f);
    free(ipiv);
    return info;
}

static void expect_singular(tela_int m, tela_int n, const double *a0, tela_int lda, int want)
{
    tela_int *ipiv;
    double *f = factor_checked(tl_par(), m, n, a0, lda, want, &ipiv);
    if (want > 0 && f[(want - 1) + (want - 1) * lda] != 0.0)
        fail_msg("m=%td n=%td: info %d but U(%d, %d) = %g", m, n, want, want, want,
                 f[(want - 1) + (want - 1) * lda]);
    /* gesv: the same factor and info, and B left alone (not solved when info > 0). */
    if (m == n) {
        double *g = tl_copy(a0, lda * n), *b = tl_random_matrix(n, 2, n + 1);
        double *b0 = tl_copy(b, (n + 1) * 2);
        tela_int *gpiv = tl_alloc_ipiv(n);
        assert_int_equal(tela_dgesv(tl_par(), n, 2, g, lda, gpiv, b, n + 1), want);
        assert_memory_equal(g, f, sizeof(double) * (size_t)(lda * n));
        assert_memory_equal(gpiv, ipiv, sizeof(tela_int) * (size_t)n);
        if (want > 0)
            assert_memory_equal(b, b0, sizeof(double) * (size_t)((n + 1) * 2));
        free(g);
        free(b);
        free(b0);
        free(gpiv);
    }
    /* OpenBLAS, when it is here, agrees (a cross-check of the construction). */
    const struct tl_openblas *ob = tl_openblas();
    if (ob) {
        const int ob_info = openblas_info_getrf(ob, m, n, a0, lda, NULL);
        if (ob_info != want)
            fail_msg("m=%td n=%td: OpenBLAS's info is %d, the construction says %d", m, n, ob_info,
                     want);
    }
    free(f);
    free(ipiv);
}

static void test_zero_columns(void **state)
{
    (void)state;
    /* 200 and 301: panels in one region (blocked.c), the zero column in a later panel. */
    static const tela_int sizes[] = {2, 5, 8, 9, 16, 17, 33, 64, 65, 100, 130, 200, 301};
    tl_seed(3);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s];
        const tela_int where[3] = {0, n / 2, n - 1};
        for (int w = 0; w < 3; w++) {
            const tela_int j = where[w];
            /* Square, tall (m = n + 7) and wide (m = n - 1 rows when j < m). */
            for (int shape = 0; shape < 3; shape++) {
                const tela_int m = shape == 0 ? n : shape == 1 ? n + 7 : n - 1;
                if (m < 1)
                    continue;
                const tela_int lda = m + 1;
                double *a = tl_random_matrix(m, n, lda);
                for (tela_int i = 0; i < m; i++)
                    a[i + j * lda] = 0.0;
                /* A zero column beyond the last pivot changes nothing. */
                expect_singular(m, n, a, lda, j < m ? (int)j + 1 : 0);
                free(a);
            }
        }
        /* Two zero columns: the first one is reported. */
        if (n >= 3) {
            double *a = tl_random_matrix(n, n, n);
            const tela_int j1 = n / 3, j2 = n - 1 - n / 5;
            for (tela_int i = 0; i < n; i++)
                a[i + j1 * n] = a[i + j2 * n] = 0.0;
            expect_singular(n, n, a, n, (int)(j1 < j2 ? j1 : j2) + 1);
            free(a);
        }
    }
}

/* Two equal rows r1 < r2 whose first entry, 4, is the largest of column 0: the tie goes to
 * the first (idamax), the multiplier of r2 is 4 * (1/4) = 1 exactly and every later entry of
 * r2 becomes y - 1 * y = 0 exactly (the other multipliers of r2 are then 0 / pivot = 0). Row
 * r2 is never chosen while a non-zero row remains, so the one exact zero pivot is the last:
 * info = n. */
static void test_two_equal_rows(void **state)
{
    (void)state;
    static const tela_int sizes[] = {2, 3, 6, 9, 17, 40, 65, 130};
    tl_seed(4);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 2;
        double *a = tl_random_matrix(n, n, lda);
        const tela_int r1 = tl_below(n - 1), r2 = r1 + 1 + tl_below(n - 1 - r1);
        for (tela_int j = 0; j < n; j++)
            a[r2 + j * lda] = a[r1 + j * lda];
        a[r1] = a[r2] = 4.0;
        expect_singular(n, n, a, lda, (int)n);
        tela_int *ipiv;
        double *f = factor_checked(tl_par(), n, n, a, lda, (int)n, &ipiv);
        assert_int_equal(ipiv[0], r1 + 1);
        free(f);
        free(ipiv);
        free(a);
    }
}

/* Rank r by zero rows: n - r rows zero at random places. Zero rows stay zero (multipliers
 * 0 / pivot), the r others are generic, so pivots 1..r are not zero and pivot r + 1 is: info
 * = r + 1. From there every column left is zero: idamax takes the first row, ipiv[k] = k + 1.
 * Also rank 1 from powers of two, x y^T with x_i = +-2^e and y_0 = 2^-1, where every
 * elimination step is exact: info = 2. */
static void test_rank_deficient(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1, 4, 7, 16, 17, 40, 100};
    tl_seed(5);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 1;
        const tela_int ranks[4] = {0, 1, n / 2, n - 1};
        for (int q = 0; q < 4; q++) {
            const tela_int r = ranks[q];
            bool seen = r >= n;
            for (int e = 0; e < q; e++)
                seen = seen || ranks[e] == r;
            if (seen)
                continue;
            double *a = tl_random_matrix(n, n, lda);
            /* Zero n - r distinct rows: a random permutation's first n - r. */
            tela_int *perm = tl_alloc_ipiv(n);
            for (tela_int i = 0; i < n; i++)
                perm[i] = i;
            for (tela_int i = n - 1; i > 0; i--) {
                tela_int k = tl_below(i + 1), t = perm[i];
                perm[i] = perm[k];
                perm[k] = t;
            }
            for (tela_int z = 0; z < n - r; z++)
                for (tela_int j = 0; j < n; j++)
                    a[perm[z] + j * lda] = 0.0;
            expect_singular(n, n, a, lda, (int)r + 1);
            tela_int *ipiv;
            double *f = factor_checked(tl_par(), n, n, a, lda, (int)r + 1, &ipiv);
            for (tela_int k = r; k < n; k++)
                if (ipiv[k] != k + 1)
                    fail_msg("n=%td rank %td: ipiv[%td] = %td in the zero part, LAPACK's %td", n, r,
                             k, ipiv[k], k + 1);
            if (r == 0)
                for (tela_int i = 0; i < lda * n; i++)
                    assert_true(f[i] == a[i] || (tl_is_sentinel(&f[i]) && tl_is_sentinel(&a[i])));
            free(perm);
            free(ipiv);
            free(f);
            free(a);
        }
        if (n < 2)
            continue;
        double *a = tl_random_matrix(n, n, lda);
        double *x = tl_alloc(n);
        for (tela_int i = 0; i < n; i++)
            x[i] = ldexp(tl_uniform() < 0 ? -1.0 : 1.0, (int)tl_below(7) - 3);
        for (tela_int j = 0; j < n; j++) {
            const double y = j == 0 ? 0.5 : tl_uniform();
            for (tela_int i = 0; i < n; i++)
                a[i + j * lda] = x[i] * y;
        }
        expect_singular(n, n, a, lda, 2);
        free(x);
        free(a);
    }
}

/* ---- NaN and Inf ----------------------------------------------------------------------------
 * Neither is an exact zero and neither turns a non-zero entry of a random matrix into one
 * (NaN and Inf only spread as NaN or Inf), so every pivot stays non-zero: info = 0, as LAPACK
 * gives. The first pivot is idamax's on the column given: a NaN there is never larger, but
 * is taken when idamax starts on one (nothing compares greater); an all-NaN matrix pivots on
 * the diagonal, ipiv[k] = k + 1. The point is also that nothing hangs or crashes, on one
 * thread and on a team. */
/* LAPACK's idamax, as written: the first index of the largest |x|, where nothing compares
 * larger than a NaN and a NaN larger than nothing (0-based). */
static tela_int reference_idamax(tela_int count, const double *x)
{
    tela_int best = 0;
    double best_abs = fabs(x[0]);
    for (tela_int i = 1; i < count; i++)
        if (fabs(x[i]) > best_abs) {
            best = i;
            best_abs = fabs(x[i]);
        }
    return best;
}

static void test_nan_and_inf(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1, 5, 17, 40, 150};
    const double specials[3] = {NAN, INFINITY, -INFINITY};
    tl_seed(6);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 1;
        const tela_int where[4][2] = {{0, 0}, {n / 2, 0}, {n / 2, n / 3}, {n - 1, n - 1}};
        for (int v = 0; v < 3; v++)
            for (int w = 0; w < 4; w++) {
                double *a = tl_random_matrix(n, n, lda);
                a[where[w][0] + where[w][1] * lda] = specials[v];
                const tela_int first = reference_idamax(n, a) + 1;
                tela_int *ipiv = tl_alloc_ipiv(n);
                const int info = tela_dgetrf(tl_par(), n, n, a, lda, ipiv);
                if (info != 0)
                    fail_msg("n=%td, %g at (%td, %td): info %d", n, specials[v], where[w][0],
                             where[w][1], info);
                if (ipiv[0] != first)
                    fail_msg("n=%td, %g at (%td, %td): ipiv[0] = %td, LAPACK's idamax gives %td", n,
                             specials[v], where[w][0], where[w][1], ipiv[0], first);
                tl_expect_padding("dgetrf with NaN/Inf", a, n, n, lda);
                free(ipiv);
                free(a);
            }
        double *a = tl_alloc(lda * n);
        for (tela_int i = 0; i < lda * n; i++)
            a[i] = i % lda < n ? NAN : tl_sentinel();
        tela_int *ipiv = tl_alloc_ipiv(n);
        assert_int_equal(tela_dgetrf(tl_par(), n, n, a, lda, ipiv), 0);
        for (tela_int k = 0; k < n; k++)
            assert_int_equal(ipiv[k], k + 1);
        tl_expect_padding("dgetrf of NaNs", a, n, n, lda);
        free(ipiv);
        free(a);
    }
    /* On a team wide enough for the parallel paths (regions must end with NaNs too). */
    const tela_int n = 260;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    for (int v = 0; v < 3; v++) {
        double *a = tl_random_matrix(n, n, n);
        a[n / 2 + (n / 2) * n] = specials[v];
        a[3] = specials[v];
        tela_int *ipiv = tl_alloc_ipiv(n);
        assert_int_equal(tela_dgetrf(tela_par_team(team), n, n, a, n, ipiv), 0);
        double *b = tl_random_matrix(n, 3, n);
        assert_int_equal(tela_dgetrs(tela_par_team(team), 'T', n, 3, a, n, ipiv, b, n), 0);
        free(b);
        free(ipiv);
        free(a);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
}

/* ---- OpenBLAS ------------------------------------------------------------------------------
 * Random matrices have no ties, so every correct partial pivoting picks the same rows: the
 * pivots must be identical. The factors differ only by rounding (the two sum in different
 * orders): ||F_tela - F_openblas||_1 / (n ||F_openblas||_1 eps) is bounded like a residual. */
static void test_against_openblas(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(ob);
    static const tela_int shapes[][2] = {{1, 1},    {1, 50},   {50, 1},    {7, 7},    {9, 9},
                                         {17, 17},  {33, 33},  {64, 64},   {65, 65},  {100, 100},
                                         {150, 60}, {60, 150}, {257, 257}, {333, 301}};
    tl_seed(7);
    double worst = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const tela_int m = shapes[s][0], n = shapes[s][1], mn = m < n ? m : n, lda = m + 3;
        double *a0 = tl_random_matrix(m, n, lda);
        tela_int *ipiv;
        double *f = factor_checked(tela_par_auto(), m, n, a0, lda, 0, &ipiv);
        double *g = tl_copy(a0, lda * n);
        int im = (int)m, in = (int)n, ilda = (int)lda, info = -99;
        int *gpiv = malloc(sizeof(int) * (size_t)mn);
        assert_non_null(gpiv);
        ob->dgetrf(&im, &in, g, &ilda, gpiv, &info);
        assert_int_equal(info, 0);
        for (tela_int i = 0; i < mn; i++)
            if (ipiv[i] != gpiv[i])
                fail_msg("m=%td n=%td: ipiv[%td] = %td, OpenBLAS %d", m, n, i, ipiv[i], gpiv[i]);
        double *d = tl_alloc(m * n);
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < m; i++)
                d[i + j * m] = f[i + j * lda] - g[i + j * lda];
        const double ratio = tl_ratio(tl_norm1(m, n, d, m), tl_norm1(m, n, g, lda), n);
        if (!(ratio < TL_THRESHOLD))
            fail_msg("m=%td n=%td: ||F - F_openblas|| / (n ||F_openblas|| eps) = %g", m, n, ratio);
        worst = ratio > worst ? ratio : worst;
        free(d);
        free(gpiv);
        free(g);
        free(f);
        free(ipiv);
        free(a0);
    }
    printf("factors against OpenBLAS: worst ratio %.3g\n", worst);
}

/* ---- dlaswp ----------------------------------------------------------------------------------
 * LAPACK's loop transcribed: for incx > 0 rows k1..k2 upwards, row i swapped with
 * ipiv(k1 + (i - k1) incx); for incx < 0 rows k2..k1 downwards, row i with
 * ipiv(k1 + (i - k1) |incx|); incx = 0 nothing. All indices 1-based. */
static void reference_laswp(tela_int n, double *a, tela_int lda, tela_int k1, tela_int k2,
                            const tela_int *ipiv, tela_int incx)
{
    if (incx == 0)
        return;
    const tela_int step = incx > 0 ? incx : -incx;
    for (tela_int q = 0; q <= k2 - k1; q++) {
        const tela_int i = incx > 0 ? k1 + q : k2 - q;
        const tela_int ip = ipiv[(k1 + (i - k1) * step) - 1];
        if (ip == i)
            continue;
        for (tela_int j = 0; j < n; j++) {
            double t = a[(i - 1) + j * lda];
            a[(i - 1) + j * lda] = a[(ip - 1) + j * lda];
            a[(ip - 1) + j * lda] = t;
        }
    }
}

static void test_dlaswp(void **state)
{
    (void)state;
    static const tela_int incxs[] = {1, -1, 2, -2, 3, -3, 0};
    static const tela_int columns[] = {1, 5, 31, 32, 33, 64, 65, 200};
    static const tela_int ranges[][2] = {{1, 1}, {1, 9}, {3, 9}, {2, 17}, {5, 40}, {7, 6}};
    const tela_int rows = 40, lda = 43;
    tl_seed(8);
    for (size_t c = 0; c < sizeof columns / sizeof columns[0]; c++)
        for (size_t x = 0; x < sizeof incxs / sizeof incxs[0]; x++)
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
                const tela_int n = columns[c], incx = incxs[x];
                const tela_int k1 = ranges[r][0], k2 = ranges[r][1];
                const tela_int step = incx > 0 ? incx : incx < 0 ? -incx : 1;
                /* Entries the routine must use are in [1, rows]; the ones between them (a
                 * stride > 1) are in range too but differ, so reading them shows. */
                const tela_int len = k1 + (k2 >= k1 ? k2 - k1 : 0) * step + 2;
                tela_int *ipiv = tl_alloc_ipiv(len), *ipiv_before = tl_alloc_ipiv(len);
                for (tela_int i = 0; i < len; i++)
                    ipiv[i] = 1 + tl_below(rows);
                memcpy(ipiv_before, ipiv, sizeof(tela_int) * (size_t)len);
                double *a = tl_random_matrix(rows, n, lda), *want = tl_copy(a, lda * n);
                reference_laswp(n, want, lda, k1, k2, ipiv, incx);
                const tela_par par = (c + x + r) % 2 ? tela_par_auto() : tl_par();
                assert_int_equal(tela_dlaswp(par, n, a, lda, k1, k2, ipiv, incx), 0);
                if (memcmp(a, want, sizeof(double) * (size_t)(lda * n)) != 0)
                    fail_msg("dlaswp n=%td k1=%td k2=%td incx=%td: rows differ from LAPACK's "
                             "loop",
                             n, k1, k2, incx);
                assert_memory_equal(ipiv, ipiv_before, sizeof(tela_int) * (size_t)len);
                free(ipiv);
                free(ipiv_before);
                free(a);
                free(want);
            }
    /* Undoing: forward then backward with the same pivots is the identity. */
    const tela_int n = 77;
    double *a = tl_random_matrix(rows, n, lda), *a0 = tl_copy(a, lda * n);
    tela_int ipiv[40];
    for (tela_int i = 0; i < rows; i++)
        ipiv[i] = i + 1 + tl_below(rows - i);
    assert_int_equal(tela_dlaswp(tela_par_seq(), n, a, lda, 1, rows, ipiv, 1), 0);
    assert_int_equal(tela_dlaswp(tela_par_seq(), n, a, lda, 1, rows, ipiv, -1), 0);
    assert_memory_equal(a, a0, sizeof(double) * (size_t)(lda * n));
    free(a);
    free(a0);
}

/* ---- bad arguments: -i as tela.h numbers them (par not counted), nothing written ------------ */

struct lu_arrays {
    double a[64], b[64];
    tela_int ipiv[8];
};

static void lu_arrays_fill(struct lu_arrays *x)
{
    for (int i = 0; i < 64; i++) {
        x->a[i] = 1.0 + i % 7 + (i % 9 == 0 ? 10.0 : 0.0);
        x->b[i] = tl_sentinel();
    }
    for (int i = 0; i < 8; i++)
        x->ipiv[i] = -5;
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct lu_arrays x, before;
    lu_arrays_fill(&x);
    before = x;
    const tela_par p = tela_par_seq();
    double *a = x.a, *b = x.b;
    tela_int *ip = x.ipiv;
    /* getrf: m 1, n 2, a 3, lda 4, ipiv 5. */
    assert_int_equal(tela_dgetrf(p, -1, 4, a, 4, ip), -1);
    assert_int_equal(tela_dgetrf(p, 4, -1, a, 4, ip), -2);
    assert_int_equal(tela_dgetrf(p, 4, 4, NULL, 4, ip), -3);
    assert_int_equal(tela_dgetrf(p, 4, 4, a, 3, ip), -4);
    assert_int_equal(tela_dgetrf(p, 0, 4, a, 0, ip), -4); /* lda >= max(1, m) */
    assert_int_equal(tela_dgetrf(p, 4, 4, a, 4, NULL), -5);
    assert_int_equal(tela_dgetrf(p, -1, -1, a, 0, NULL), -1); /* the first in order wins */
    assert_int_equal(tela_dgetrf(p, 4, -1, NULL, 0, NULL), -2);
    /* getrs: trans 1, n 2, nrhs 3, a 4, lda 5, ipiv 6, b 7, ldb 8. */
    const tela_int piv[4] = {1, 2, 3, 4};
    assert_int_equal(tela_dgetrs(p, 'X', 4, 2, a, 4, piv, b, 4), -1);
    assert_int_equal(tela_dgetrs(p, 'U', 4, 2, a, 4, piv, b, 4), -1);
    assert_int_equal(tela_dgetrs(p, 'N', -1, 2, a, 4, piv, b, 4), -2);
    assert_int_equal(tela_dgetrs(p, 'N', 4, -1, a, 4, piv, b, 4), -3);
    assert_int_equal(tela_dgetrs(p, 'N', 4, 2, NULL, 4, piv, b, 4), -4);
    assert_int_equal(tela_dgetrs(p, 'T', 4, 2, a, 3, piv, b, 4), -5);
    assert_int_equal(tela_dgetrs(p, 'N', 4, 2, a, 4, NULL, b, 4), -6);
    assert_int_equal(tela_dgetrs(p, 'N', 4, 2, a, 4, piv, NULL, 4), -7);
    assert_int_equal(tela_dgetrs(p, 'N', 4, 2, a, 4, piv, b, 3), -8);
    assert_int_equal(tela_dgetrs(p, 'N', 0, 2, a, 0, piv, b, 1), -5); /* lda >= 1 */
    assert_int_equal(tela_dgetrs(p, 'X', -1, -1, a, 0, piv, b, 0), -1);
    assert_int_equal(tela_dgetrs(p, 'N', 4, -1, a, 3, piv, b, 3), -3);
    assert_int_equal(tela_dgetrs(p, 'N', 4, 2, a, 3, piv, b, 3), -5);
    /* gesv: n 1, nrhs 2, a 3, lda 4, ipiv 5, b 6, ldb 7. */
    assert_int_equal(tela_dgesv(p, -1, 2, a, 4, ip, b, 4), -1);
    assert_int_equal(tela_dgesv(p, 4, -1, a, 4, ip, b, 4), -2);
    assert_int_equal(tela_dgesv(p, 4, 2, NULL, 4, ip, b, 4), -3);
    assert_int_equal(tela_dgesv(p, 4, 2, a, 3, ip, b, 4), -4);
    assert_int_equal(tela_dgesv(p, 4, 2, a, 4, NULL, b, 4), -5);
    assert_int_equal(tela_dgesv(p, 4, 2, a, 4, ip, NULL, 4), -6);
    assert_int_equal(tela_dgesv(p, 4, 2, a, 4, ip, b, 3), -7);
    assert_int_equal(tela_dgesv(p, -1, -1, a, 0, ip, b, 0), -1);
    assert_int_equal(tela_dgesv(p, 4, 2, a, 3, ip, b, 3), -4);
    /* laswp (tela.h): n 1, a 2, lda 3, ipiv 6. */
    assert_int_equal(tela_dlaswp(p, -1, a, 4, 1, 4, piv, 1), -1);
    assert_int_equal(tela_dlaswp(p, 4, NULL, 4, 1, 4, piv, 1), -2);
    assert_int_equal(tela_dlaswp(p, 4, a, 0, 1, 4, piv, 1), -3);
    assert_int_equal(tela_dlaswp(p, 4, a, 4, 1, 4, NULL, 1), -6);
    assert_int_equal(tela_dlaswp(p, 4, a, 4, 1, 4, NULL, -1), -6);
    assert_int_equal(tela_dlaswp(p, -1, NULL, 0, 1, 4, NULL, 1), -1);
    assert_memory_equal(&x, &before, sizeof x);
    /* The same through the default pool and a team: the checks come before any dispatch. */
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[2] = {tela_par_auto(), tela_par_team(team)};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(tela_dgetrf(pars[k], 4, 4, a, 3, ip), -4);
        assert_int_equal(tela_dgetrs(pars[k], 'N', 4, 2, a, 4, piv, b, 3), -8);
        assert_int_equal(tela_dgesv(pars[k], 4, 2, a, 4, ip, b, 3), -7);
        assert_int_equal(tela_dlaswp(pars[k], 4, a, 0, 1, 4, piv, 1), -3);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_memory_equal(&x, &before, sizeof x);
}

/* ---- widths: the same bits at 1, 2 and 8 ---------------------------------------------------
 * Sizes where getrf's updates, the row swaps and the solves are parallel regions (a team of
 * width w > 1 must wake a worker). All three shapes under sanitizers too: about 3 s of TSan. */
struct width_case {
    tela_int m, n;
};

static void expect_same_bits(const char *what, const void *got, const void *want, size_t bytes,
                             int width, const char *policy)
{
    if (memcmp(got, want, bytes) != 0)
        fail_msg("%s at width %d (%s): not bitwise equal to the serial result", what, width,
                 policy);
}

static void test_widths_bitwise_equal(void **state)
{
    (void)state;
    /* Panels of 32 columns in blocked.c (min(m, n) < 1024) and, unsanitized only (2.6 GFLOP
     * each), of 64: the last two, 16 MiB and more, are factored serially in groups of panels
     * (one_member_body), tall and wide: the widths compare them with the step-by-step order.
     * A narrower last panel (400 x 170 just above its minimum order), and the recursion below
     * it (300 x 150). Under ThreadSanitizer 900 x 801 (half the flops left, 13 of its 39 s)
     * goes too: 1000 x 600 runs the same panels and look-ahead on as many members. */
    static const struct width_case cases[] = {{517, 517}, {1000, 600}, {300, 650},   {400, 170},
                                              {300, 150}, {900, 801},  {1600, 1541}, {1100, 2000}};
    const size_t count = sizeof cases / sizeof cases[0] - (TU_TSAN ? 3 : TU_SANITIZED ? 2 : 0);
    const tela_int nrhs = 37;
    tl_seed(9);
    for (size_t c = 0; c < count; c++) {
        const tela_int m = cases[c].m, n = cases[c].n, mn = m < n ? m : n, lda = m + 1;
        double *a0 = tl_random_matrix(m, n, lda);
        tela_int *ref_piv;
        double *ref = factor_checked(tela_par_seq(), m, n, a0, lda, 0, &ref_piv);
        /* Solves and gesv on the square leading part. */
        const tela_int ns = mn, ldb = ns + 1;
        double *s0 = tl_random_matrix(ns, ns, lda);
        for (tela_int j = 0; j < ns; j++)
            for (tela_int i = 0; i < ns; i++)
                s0[i + j * lda] = a0[i + j * lda];
        double *sf = tl_copy(s0, lda * ns), *b0 = tl_random_matrix(ns, nrhs, ldb);
        tela_int *spiv = tl_alloc_ipiv(ns);
        assert_int_equal(tela_dgetrf(tela_par_seq(), ns, ns, sf, lda, spiv), 0);
        double *xn = tl_copy(b0, ldb * nrhs), *xt = tl_copy(b0, ldb * nrhs);
        assert_int_equal(tela_dgetrs(tela_par_seq(), 'N', ns, nrhs, sf, lda, spiv, xn, ldb), 0);
        assert_int_equal(tela_dgetrs(tela_par_seq(), 'T', ns, nrhs, sf, lda, spiv, xt, ldb), 0);
        assert_true(tl_solve_ratio(false, ns, nrhs, s0, lda, xn, ldb, b0, ldb) < TL_THRESHOLD);
        assert_true(tl_solve_ratio(true, ns, nrhs, s0, lda, xt, ldb, b0, ldb) < TL_THRESHOLD);
        /* dlaswp over many columns: the strips split among members (a member needs 2^20
         * element swaps, which the first case's 517 rows over 4100 columns give two). */
        const tela_int wide = c == 0 ? 4100 : 1500;
        double *w0 = tl_random_matrix(m, wide, m), *wref = tl_copy(w0, m * wide);
        reference_laswp(wide, wref, m, 1, mn, ref_piv, 1);

        for (int w = 0; w < TL_WIDTH_COUNT; w++) {
            const int width = tl_widths[w];
            tela_pool *pool = tu_pool_of_width(width);
            assert_non_null(pool);
            tela_team *team = tela_team_acquire(pool, width);
            assert_non_null(team);
            assert_int_equal(tela_team_width(team), width);
            for (int route = 0; route < 2; route++) {
                const tela_par par =
                    route ? tela_par_team(team) : tela_par_limit(tela_par_auto(), width);
                const char *policy = route ? "held team" : "tela_par_auto limited";
                const tela_stats before = tu_stats();
                double *f = tl_copy(a0, lda * n);
                tela_int *piv = tl_alloc_ipiv(mn);
                assert_int_equal(tela_dgetrf(par, m, n, f, lda, piv), 0);
                const tela_stats after = tu_stats();
                if (route && width > 1 && after.region_wakeups == before.region_wakeups)
                    fail_msg("dgetrf %tdx%td on a team of %d: no worker took part", m, n, width);
                expect_same_bits("dgetrf A", f, ref, sizeof(double) * (size_t)(lda * n), width,
                                 policy);
                expect_same_bits("dgetrf ipiv", piv, ref_piv, sizeof(tela_int) * (size_t)mn, width,
                                 policy);

                double *x = tl_copy(b0, ldb * nrhs);
                assert_int_equal(tela_dgetrs(par, 'N', ns, nrhs, sf, lda, spiv, x, ldb), 0);
                expect_same_bits("dgetrs N", x, xn, sizeof(double) * (size_t)(ldb * nrhs), width,
                                 policy);
                memcpy(x, b0, sizeof(double) * (size_t)(ldb * nrhs));
                assert_int_equal(tela_dgetrs(par, 'T', ns, nrhs, sf, lda, spiv, x, ldb), 0);
                expect_same_bits("dgetrs T", x, xt, sizeof(double) * (size_t)(ldb * nrhs), width,
                                 policy);
                double *g = tl_copy(s0, lda * ns);
                tela_int *gpiv = tl_alloc_ipiv(ns);
                memcpy(x, b0, sizeof(double) * (size_t)(ldb * nrhs));
                assert_int_equal(tela_dgesv(par, ns, nrhs, g, lda, gpiv, x, ldb), 0);
                expect_same_bits("dgesv A", g, sf, sizeof(double) * (size_t)(lda * ns), width,
                                 policy);
                expect_same_bits("dgesv ipiv", gpiv, spiv, sizeof(tela_int) * (size_t)ns, width,
                                 policy);
                expect_same_bits("dgesv X", x, xn, sizeof(double) * (size_t)(ldb * nrhs), width,
                                 policy);
                double *sw = tl_copy(w0, m * wide);
                const tela_stats before_swaps = tu_stats();
                assert_int_equal(tela_dlaswp(par, wide, sw, m, 1, mn, ref_piv, 1), 0);
                if (c == 0 && route && width > 1 &&
                    tu_stats().region_wakeups == before_swaps.region_wakeups)
                    fail_msg("dlaswp on a team of %d: no worker took part", width);
                expect_same_bits("dlaswp", sw, wref, sizeof(double) * (size_t)(m * wide), width,
                                 policy);
                free(sw);
                free(g);
                free(gpiv);
                free(x);
                free(f);
                free(piv);
            }
            assert_int_equal(tela_team_release(team), 0);
            tela_pool_destroy(pool);
        }
        free(a0);
        free(ref);
        free(ref_piv);
        free(s0);
        free(sf);
        free(b0);
        free(spiv);
        free(xn);
        free(xt);
        free(w0);
        free(wref);
    }
}

/* ---- several callers at once, and from inside a region ------------------------------------
 * getrf, then getrs N and T on its factors. */
struct lu_job {
    tela_int n, nrhs;
    double *a0, *b0;                    /* inputs */
    double *want_f, *want_xn, *want_xt; /* serial results */
    tela_int *want_piv;
    double *f, *xn, *xt; /* the job's own outputs */
    tela_int *piv;
};

static long run_lu_job(struct tl_caller *c)
{
    struct lu_job *job = c->job;
    const tela_int n = job->n, nrhs = job->nrhs;
    memcpy(job->f, job->a0, sizeof(double) * (size_t)(n * n));
    memcpy(job->xn, job->b0, sizeof(double) * (size_t)(n * nrhs));
    memcpy(job->xt, job->b0, sizeof(double) * (size_t)(n * nrhs));
    if (tela_dgetrf(c->par, n, n, job->f, n, job->piv) != 0 ||
        tela_dgetrs(c->par, 'N', n, nrhs, job->f, n, job->piv, job->xn, n) != 0 ||
        tela_dgetrs(c->par, 'T', n, nrhs, job->f, n, job->piv, job->xt, n) != 0 ||
        memcmp(job->piv, job->want_piv, sizeof(tela_int) * (size_t)n) != 0)
        return -1;
    return tl_count_differ(job->f, job->want_f, n * n, &c->worst) +
           tl_count_differ(job->xn, job->want_xn, n * nrhs, &c->worst) +
           tl_count_differ(job->xt, job->want_xt, n * nrhs, &c->worst);
}

/* Jobs of orders first, first + step, ...; nrhs right-hand sides. */
static void lu_jobs_make(struct lu_job jobs[TL_CALLERS], struct tl_caller callers[TL_CALLERS],
                         tela_int first, tela_int step, tela_int nrhs)
{
    for (int i = 0; i < TL_CALLERS; i++) {
        struct lu_job *j = &jobs[i];
        const tela_int n = first + step * i;
        j->n = n;
        j->nrhs = nrhs;
        j->a0 = tl_random_matrix(n, n, n);
        j->b0 = tl_random_matrix(n, nrhs, n);
        j->want_f = tl_copy(j->a0, n * n);
        j->want_xn = tl_copy(j->b0, n * nrhs);
        j->want_xt = tl_copy(j->b0, n * nrhs);
        j->want_piv = tl_alloc_ipiv(n);
        j->f = tl_alloc(n * n);
        j->xn = tl_alloc(n * nrhs);
        j->xt = tl_alloc(n * nrhs);
        j->piv = tl_alloc_ipiv(n);
        const tela_par s = tela_par_seq();
        assert_int_equal(tela_dgetrf(s, n, n, j->want_f, n, j->want_piv), 0);
        assert_int_equal(tela_dgetrs(s, 'N', n, nrhs, j->want_f, n, j->want_piv, j->want_xn, n), 0);
        assert_int_equal(tela_dgetrs(s, 'T', n, nrhs, j->want_f, n, j->want_piv, j->want_xt, n), 0);
        callers[i].run = run_lu_job;
        callers[i].job = j;
    }
}

static void lu_jobs_free(struct lu_job jobs[TL_CALLERS])
{
    for (int i = 0; i < TL_CALLERS; i++) {
        struct lu_job *j = &jobs[i];
        double *doubles[] = {j->a0, j->b0, j->want_f, j->want_xn, j->want_xt, j->f, j->xn, j->xt};
        for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; k++)
            free(doubles[k]);
        free(j->want_piv);
        free(j->piv);
    }
}

static void test_concurrent_callers(void **state)
{
    (void)state;
    struct lu_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(10);
    lu_jobs_make(jobs, callers, 150, 37, 150);
    const int bad = tl_run_concurrent(callers);
    lu_jobs_free(jobs);
    if (bad)
        fail_msg("%d of %d concurrent callers computed other bits than a serial call", bad,
                 TL_CALLERS);
}

/* Region members each run a job of orders first, first + step, ... (serial there, as nested
 * calls are) and must give the bits of a serial call outside. */
static void check_nested(uint64_t seed, tela_int first, tela_int step, tela_int nrhs)
{
    struct lu_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(seed);
    lu_jobs_make(jobs, callers, first, step, nrhs);
    const int bad = tl_run_nested(callers);
    lu_jobs_free(jobs);
    if (bad)
        fail_msg("%d region members computed other bits than a serial call", bad);
}

static void test_nested_in_region(void **state)
{
    (void)state;
    check_nested(17, 150, 37, 150);
}

/* Orders from 1024 on: panels of 64 columns, whose triangles are solved in two halves coupled
 * by the micro-kernel (src/lu/update.c); a member without a packing buffer does that on the
 * stack, the same bits. */
static void test_nested_in_region_wide_panels(void **state)
{
    (void)state;
    check_nested(19, 1024, 13, 3);
}

int main(int argc, char **argv)
{
    if (!tl_setup(argc, argv))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_square_residuals_and_solves),
        cmocka_unit_test(test_rectangular_residuals),
        cmocka_unit_test(test_pivoting_swaps_every_step),
        cmocka_unit_test(test_empty_and_one_by_one),
        cmocka_unit_test(test_zero_columns),
        cmocka_unit_test(test_two_equal_rows),
        cmocka_unit_test(test_rank_deficient),
        cmocka_unit_test(test_nan_and_inf),
        cmocka_unit_test(test_against_openblas),
        cmocka_unit_test(test_dlaswp),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_widths_bitwise_equal),
        cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_nested_in_region),
        cmocka_unit_test(test_nested_in_region_wide_panels),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tl_teardown();
    return failed;
}
