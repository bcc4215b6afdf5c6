/* test_chol — tela_dpotrf, tela_dpotrs and tela_dposv: LAPACK's residual ratios (dpot01
 * ||A - U^T U|| and ||A - L L^T||, dpot02 ||B - A X||) under its threshold for both triangles,
 * odd and prime orders across the recursion's base (16) and splits; the other triangle and the
 * padding rows hold NaN sentinels that must be neither read nor written; factors against
 * OpenBLAS (loaded apart, testlapack.h); matrices that are not positive definite, built so
 * the first failing leading minor, hence LAPACK's info, is known beforehand (first, middle,
 * last; negative, zero and positive-but-indefinite diagonals); NaN and Inf; quick returns; bad
 * arguments (-i, nothing written); the same bits at widths 1, 2 and 8, from four threads
 * calling at once, and from calls made inside a region (nested, so serial). With --wide
 * (test_chol_wide) the numerical cases run on a team whose every region is split. */
#define _GNU_SOURCE
#include "testlapack.h"

/* ---- matrices ------------------------------------------------------------------------------
 * A symmetric matrix lives twice: full (n x n, both triangles) for the residuals, and stored
 * (leading dimension lda) with only the uplo triangle set, the other triangle and the padding
 * rows the sentinel. */

static bool is_upper(char uplo)
{
    return uplo == 'U' || uplo == 'u';
}

static bool in_triangle(bool upper, tela_int i, tela_int j)
{
    return upper ? i <= j : i >= j;
}

static double *stored_from_full(char uplo, tela_int n, const double *full, tela_int lda)
{
    const bool upper = is_upper(uplo);
    double *a = tl_alloc(lda * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < lda; i++)
            a[i + j * lda] = i < n && in_triangle(upper, i, j) ? full[i + j * n] : tl_sentinel();
    return a;
}

/* A well-conditioned symmetric positive definite matrix, n x n: either diagonally dominant
 * with random entries, or L L^T with L lower triangular, diagonal in [1, 2] and off-diagonal
 * entries of size 1/sqrt(n) (a random Gram matrix, less trivially conditioned). */
static double *spd_full(tela_int n, int kind)
{
    double *s = tl_alloc(n * n);
    if (kind == 0) {
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = j; i < n; i++)
                s[i + j * n] = s[j + i * n] = i == j ? (double)n + tl_uniform() : tl_uniform();
        return s;
    }
    double *l = tl_alloc(n * n);
    const double scale = 1.0 / sqrt((double)n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            l[i + j * n] = i < j ? 0.0 : i == j ? 1.5 + 0.5 * tl_uniform() : scale * tl_uniform();
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++) {
            double sum = 0;
            for (tela_int p = 0; p <= j; p++)
                sum += l[i + p * n] * l[j + p * n];
            s[i + j * n] = s[j + i * n] = sum;
        }
    free(l);
    return s;
}

/* dpot01 on the leading k x k block: ||A_k - U^T U||_1 / (k ||A_k||_1 eps) (or L L^T), f the
 * factor stored with leading dimension ldf. */
static double chol_ratio(char uplo, tela_int k, const double *full, tela_int n, const double *f,
                         tela_int ldf)
{
    const bool upper = is_upper(uplo);
    double *r = tl_alloc(k * k);
    for (tela_int j = 0; j < k; j++)
        for (tela_int i = 0; i < k; i++) {
            double sum = 0;
            const tela_int top = i < j ? i : j;
            for (tela_int p = 0; p <= top; p++)
                sum += upper ? f[p + i * ldf] * f[p + j * ldf] : f[i + p * ldf] * f[j + p * ldf];
            r[i + j * k] = full[i + j * n] - sum;
        }
    const double ratio = tl_ratio(tl_norm1(k, k, r, k), tl_norm1(k, k, full, n), k);
    free(r);
    return ratio;
}

/* The other triangle and the padding rows still hold the sentinel, bit for bit. */
static void expect_untouched(const char *what, char uplo, tela_int n, const double *a, tela_int lda)
{
    const bool upper = is_upper(uplo);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < lda; i++)
            if ((i >= n || !in_triangle(upper, i, j)) && !tl_is_sentinel(&a[i + j * lda]))
                fail_msg("%s uplo=%c n=%td lda=%td: element (%td, %td) outside the triangle was "
                         "written",
                         what, uplo, n, lda, i, j);
}

/* Factors the stored matrix a0 under par; checks info, what must stay untouched and, for the
 * leading minors that were factored, the residual. Returns the factor (caller frees). */
static double *factor_checked(tela_par par, char uplo, tela_int n, const double *full,
                              const double *a0, tela_int lda, int want_info)
{
    double *f = tl_copy(a0, lda * n);
    const int info = tela_dpotrf(par, uplo, n, f, lda);
    if (info != want_info)
        fail_msg("dpotrf uplo=%c n=%td lda=%td: info %d, expected %d", uplo, n, lda, info,
                 want_info);
    expect_untouched("dpotrf", uplo, n, f, lda);
    const tela_int done = want_info > 0 ? want_info - 1 : n;
    for (tela_int i = 0; i < done; i++)
        if (!(f[i + i * lda] > 0))
            fail_msg("dpotrf uplo=%c n=%td: diagonal %td of the factor is %g", uplo, n, i,
                     f[i + i * lda]);
    const double ratio = chol_ratio(uplo, done, full, n, f, lda);
    if (!(ratio < TL_THRESHOLD))
        fail_msg("dpotrf uplo=%c n=%td (minor %td): ||A - factor product|| / (n ||A|| eps) = %g",
                 uplo, n, done, ratio);
    return f;
}

static const char uplos[4] = {'U', 'L', 'u', 'l'};

/* ---- residuals -------------------------------------------------------------------------- */

static void test_residuals_and_solves(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1,  2,  3,  4,  5,  7,  8,  9,   15,  16,  17,  18,  23,  31,
                                     32, 33, 47, 63, 64, 65, 97, 100, 101, 127, 128, 129, 160, 257};
    static const tela_int nrhses[] = {1, 3, 17};
    tl_seed(11);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 2; u++) {
            const tela_int n = sizes[s], lda = n + (tela_int)((s + u) % 3);
            const char uplo = uplos[(s % 2) * 2 + u]; /* lower case on odd sizes */
            const tela_par par = (s + u) % 3 == 2 ? tela_par_auto() : tl_par();
            double *full = spd_full(n, (int)(s + u) % 2);
            double *a0 = stored_from_full(uplo, n, full, lda);
            double *f = factor_checked(par, uplo, n, full, a0, lda, 0);
            double *f_before = tl_copy(f, lda * n);

            const tela_int nrhs = nrhses[(s + u) % 3], ldb = n + 2;
            double *b0 = tl_random_matrix(n, nrhs, ldb), *x = tl_copy(b0, ldb * nrhs);
            assert_int_equal(tela_dpotrs(par, uplo, n, nrhs, f, lda, x, ldb), 0);
            tl_expect_padding("dpotrs", x, n, nrhs, ldb);
            assert_memory_equal(f, f_before, sizeof(double) * (size_t)(lda * n));
            const double ratio = tl_solve_ratio(false, n, nrhs, full, n, x, ldb, b0, ldb);
            if (!(ratio < TL_THRESHOLD))
                fail_msg("dpotrs uplo=%c n=%td nrhs=%td: solve ratio %g", uplo, n, nrhs, ratio);

            /* posv: potrf's factor and potrs's solution, bit for bit. */
            double *g = tl_copy(a0, lda * n), *y = tl_copy(b0, ldb * nrhs);
            assert_int_equal(tela_dposv(par, uplo, n, nrhs, g, lda, y, ldb), 0);
            assert_memory_equal(g, f, sizeof(double) * (size_t)(lda * n));
            assert_memory_equal(y, x, sizeof(double) * (size_t)(ldb * nrhs));
            free(full);
            free(a0);
            free(f);
            free(f_before);
            free(b0);
            free(x);
            free(g);
            free(y);
        }
}

static void test_empty_and_one_by_one(void **state)
{
    (void)state;
    const tela_par p = tela_par_auto();
    double b[2] = {5, 6};
    assert_int_equal(tela_dpotrf(p, 'U', 0, NULL, 1), 0);
    assert_int_equal(tela_dpotrs(p, 'L', 0, 2, NULL, 1, b, 1), 0);
    assert_int_equal(tela_dposv(p, 'U', 0, 2, NULL, 1, b, 1), 0);
    assert_int_equal(tela_dposv(p, 'U', 0, 0, NULL, 1, NULL, 1), 0);
    double one = 4.0;
    assert_int_equal(tela_dpotrs(p, 'U', 1, 0, &one, 1, NULL, 1), 0);
    assert_true(b[0] == 5 && b[1] == 6 && one == 4.0);

    for (int u = 0; u < 4; u++) {
        double x = 4.0, rhs = 6.0;
        assert_int_equal(tela_dpotrf(p, uplos[u], 1, &x, 1), 0);
        assert_true(x == 2.0);
        assert_int_equal(tela_dpotrs(p, uplos[u], 1, 1, &x, 1, &rhs, 1), 0);
        assert_true(rhs == 1.5);
        x = 9.0, rhs = 3.0;
        assert_int_equal(tela_dposv(p, uplos[u], 1, 1, &x, 1, &rhs, 1), 0);
        assert_true(x == 3.0 && rhs == 3.0 / 9.0);
        /* Not positive: info 1, the right-hand side not solved. */
        const double bad[4] = {0.0, -1.0, NAN, -INFINITY};
        for (int k = 0; k < 4; k++) {
            x = bad[k];
            assert_int_equal(tela_dpotrf(p, uplos[u], 1, &x, 1), 1);
            x = bad[k], rhs = 3.0;
            assert_int_equal(tela_dposv(p, uplos[u], 1, 1, &x, 1, &rhs, 1), 1);
            assert_true(rhs == 3.0);
        }
    }
}

/* ---- not positive definite: info by construction -------------------------------------------
 * A = L L^T with L as in spd_full, then row and column k-1 (0-based) changed so that the
 * leading minors of order < k stay those of an SPD matrix and the k-th fails. With
 * S = sum_{p < k-1} L(k-1, p)^2 the pivot the factorization meets at k is A(k-1, k-1) - S, up
 * to rounding of order eps S:
 *   negative:    A(k-1, k-1) = S - 1       pivot -1
 *   indefinite:  A(k-1, k-1) = S / 2 > 0   pivot -S/2 (positive diagonal, needs k >= 2)
 *   zero diag:   A(k-1, k-1) = 0           pivot -S (exactly 0 when k = 1)
 *   zero row:    row/column k-1 zero up to and including the diagonal: pivot exactly 0
 * info = k, whatever the blocking. */
enum { NEGATIVE, INDEFINITE, ZERO_DIAGONAL, ZERO_ROW, VARIANTS };

static double *failing_full(tela_int n, tela_int k, int variant)
{
    double *l = tl_alloc(n * n), *s = tl_alloc(n * n);
    const double scale = 1.0 / sqrt((double)n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            l[i + j * n] = i < j ? 0.0 : i == j ? 1.5 + 0.5 * tl_uniform() : scale * tl_uniform();
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++) {
            double sum = 0;
            for (tela_int p = 0; p <= j; p++)
                sum += l[i + p * n] * l[j + p * n];
            s[i + j * n] = s[j + i * n] = sum;
        }
    const tela_int d = k - 1;
    double schur_sum = 0;
    for (tela_int p = 0; p < d; p++)
        schur_sum += l[d + p * n] * l[d + p * n];
    switch (variant) {
    case NEGATIVE:
        s[d + d * n] = schur_sum - 1.0;
        break;
    case INDEFINITE:
        s[d + d * n] = schur_sum / 2;
        break;
    case ZERO_DIAGONAL:
        s[d + d * n] = 0.0;
        break;
    default:
        for (tela_int p = 0; p <= d; p++)
            s[d + p * n] = s[p + d * n] = 0.0;
        break;
    }
    free(l);
    return s;
}

static void expect_not_pd(char uplo, tela_int n, tela_int lda, const double *full, int want)
{
    double *a0 = stored_from_full(uplo, n, full, lda);
    double *f = factor_checked(tl_par(), uplo, n, full, a0, lda, want);
    const struct tl_openblas *ob = tl_openblas();
    if (ob) { /* a cross-check of the construction */
        int in = (int)n, ilda = (int)lda, info = -99;
        double *g = tl_copy(a0, lda * n);
        ob->dpotrf(&uplo, &in, g, &ilda, &info, 1);
        if (info != want)
            fail_msg("uplo=%c n=%td: OpenBLAS's info is %d, the construction says %d", uplo, n,
                     info, want);
        free(g);
    }
    /* posv stops there too and leaves B alone. */
    double *g = tl_copy(a0, lda * n), *b = tl_random_matrix(n, 2, n), *b0 = tl_copy(b, n * 2);
    assert_int_equal(tela_dposv(tl_par(), uplo, n, 2, g, lda, b, n), want);
    assert_memory_equal(b, b0, sizeof(double) * (size_t)(n * 2));
    assert_memory_equal(g, f, sizeof(double) * (size_t)(lda * n));
    free(g);
    free(b);
    free(b0);
    free(a0);
    free(f);
}

static void test_not_positive_definite(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1, 2, 5, 16, 17, 33, 64, 65, 100};
    tl_seed(12);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 1;
        /* The first, second, the base's edges, the middle, the last but one and the last. */
        const tela_int minors[] = {1, 2, 16, 17, 18, n / 2, n - 1, n};
        const int count = sizeof minors / sizeof minors[0];
        for (int q = 0; q < count; q++) {
            const tela_int k = minors[q];
            bool seen = k < 1 || k > n;
            for (int e = 0; e < q; e++)
                seen = seen || minors[e] == k;
            if (seen)
                continue;
            for (int variant = 0; variant < VARIANTS; variant++) {
                if (variant == INDEFINITE && k < 2)
                    continue;
                double *full = failing_full(n, k, variant);
                if (variant == INDEFINITE && !(full[(k - 1) + (k - 1) * n] > 0))
                    fail_msg("construction: the diagonal should be positive");
                expect_not_pd(uplos[(q + variant) % 4], n, lda, full, (int)k);
                free(full);
            }
        }
    }
    /* Indefinite in the simplest way: [[1, 2], [2, 1]] has eigenvalues 3 and -1. */
    double a[4] = {1, 2, 2, 1};
    assert_int_equal(tela_dpotrf(tela_par_seq(), 'U', 2, a, 2), 2);
}

/* ---- NaN and Inf ----------------------------------------------------------------------------
 * A NaN or -Inf on the diagonal at minor k, with everything before it SPD: the pivot there is
 * NaN or -Inf, info = k (LAPACK tests AJJ <= 0 or NaN). A NaN or +-Inf off the diagonal at
 * (i, j) of the stored triangle reaches only row/column max(i, j) of what follows, whose pivot
 * becomes NaN or -Inf: info = max(i, j) + 1. A +Inf on the diagonal: LAPACK's answer depends on
 * how it meets Inf * 0, so only that it returns with an info in [0, n]. In the triangle not
 * referenced, NaN sentinels are in every test here. */
static void test_nan_and_inf(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1, 5, 16, 17, 40, 100};
    tl_seed(13);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 2;
        const tela_int where[3] = {0, n / 2, n - 1};
        for (int u = 0; u < 2; u++) {
            const char uplo = uplos[u];
            for (int w = 0; w < 3; w++) {
                const tela_int k = where[w];
                const double diag_specials[3] = {NAN, -INFINITY, INFINITY};
                for (int v = 0; v < 3; v++) {
                    double *full = spd_full(n, 1);
                    full[k + k * n] = diag_specials[v];
                    double *a = stored_from_full(uplo, n, full, lda);
                    const int info = tela_dpotrf(tl_par(), uplo, n, a, lda);
                    if (v < 2 ? info != (int)k + 1 : info < 0 || info > n)
                        fail_msg("uplo=%c n=%td: %g on the diagonal at %td: info %d", uplo, n,
                                 diag_specials[v], k, info);
                    expect_untouched("dpotrf with NaN/Inf", uplo, n, a, lda);
                    free(a);
                    free(full);
                }
                /* Off the diagonal: (k, j) with j < k, mirrored into the stored triangle. */
                if (k == 0)
                    continue;
                const double off_specials[3] = {NAN, INFINITY, -INFINITY};
                for (int v = 0; v < 3; v++) {
                    const tela_int j = tl_below(k);
                    double *full = spd_full(n, 1);
                    full[k + j * n] = full[j + k * n] = off_specials[v];
                    double *a = stored_from_full(uplo, n, full, lda);
                    const int info = tela_dpotrf(tl_par(), uplo, n, a, lda);
                    if (info != (int)k + 1)
                        fail_msg("uplo=%c n=%td: %g at (%td, %td): info %d, expected %td", uplo, n,
                                 off_specials[v], k, j, info, k + 1);
                    free(a);
                    free(full);
                }
            }
        }
    }
    /* On a team wide enough for the parallel paths: regions must end with NaNs too. */
    const tela_int n = 300;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    for (int u = 0; u < 2; u++) {
        double *full = spd_full(n, 0);
        full[(n - 3) + (n - 3) * n] = NAN;
        full[(n - 2) + 5 * n] = full[5 + (n - 2) * n] = INFINITY;
        double *a = stored_from_full(uplos[u], n, full, n);
        assert_int_equal(tela_dpotrf(tela_par_team(team), uplos[u], n, a, n), n - 2);
        free(a);
        free(full);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
}

/* ---- OpenBLAS ------------------------------------------------------------------------------
 * The Cholesky factor of a well-conditioned matrix is unique and well determined:
 * ||F_tela - F_openblas||_1 / (n ||F_openblas||_1 eps) is bounded like a residual. */
static void test_against_openblas(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(ob);
    static const tela_int sizes[] = {1, 7, 16, 17, 33, 64, 65, 100, 257, 301};
    tl_seed(14);
    double worst = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 2; u++) {
            const tela_int n = sizes[s], lda = n + 3;
            char uplo = uplos[u];
            double *full = spd_full(n, (int)(s + u) % 2);
            double *a0 = stored_from_full(uplo, n, full, lda);
            double *f = factor_checked(tela_par_auto(), uplo, n, full, a0, lda, 0);
            double *g = tl_copy(a0, lda * n);
            int in = (int)n, ilda = (int)lda, info = -99;
            ob->dpotrf(&uplo, &in, g, &ilda, &info, 1);
            assert_int_equal(info, 0);
            double *d = tl_alloc(n * n), *h = tl_alloc(n * n);
            for (tela_int j = 0; j < n; j++)
                for (tela_int i = 0; i < n; i++) {
                    const bool mine = in_triangle(is_upper(uplo), i, j);
                    h[i + j * n] = mine ? g[i + j * lda] : 0.0;
                    d[i + j * n] = mine ? f[i + j * lda] - g[i + j * lda] : 0.0;
                }
            const double ratio = tl_ratio(tl_norm1(n, n, d, n), tl_norm1(n, n, h, n), n);
            if (!(ratio < TL_THRESHOLD))
                fail_msg("uplo=%c n=%td: ||F - F_openblas|| / (n ||F_openblas|| eps) = %g", uplo, n,
                         ratio);
            worst = ratio > worst ? ratio : worst;
            free(d);
            free(h);
            free(g);
            free(f);
            free(a0);
            free(full);
        }
    printf("factors against OpenBLAS: worst ratio %.3g\n", worst);
}

/* ---- bad arguments: -i as tela.h numbers them (par not counted), nothing written ------------ */

/* tela_dpotrs (posv 0) or tela_dposv (posv 1) on the sequential policy. */
static int solve_call(int posv, char uplo, tela_int n, tela_int nrhs, double *a, tela_int lda,
                      double *b, tela_int ldb)
{
    return posv ? tela_dposv(tela_par_seq(), uplo, n, nrhs, a, lda, b, ldb)
                : tela_dpotrs(tela_par_seq(), uplo, n, nrhs, a, lda, b, ldb);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    struct {
        double a[64], b[64];
    } x, before;
    for (int i = 0; i < 64; i++) {
        x.a[i] = i % 9 == 0 ? 10.0 : 0.5;
        x.b[i] = tl_sentinel();
    }
    before = x;
    double *a = x.a, *b = x.b;
    const tela_par p = tela_par_seq();
    /* potrf: uplo 1, n 2, a 3, lda 4. */
    assert_int_equal(tela_dpotrf(p, 'X', 4, a, 4), -1);
    assert_int_equal(tela_dpotrf(p, 'N', 4, a, 4), -1);
    assert_int_equal(tela_dpotrf(p, 'U', -1, a, 4), -2);
    assert_int_equal(tela_dpotrf(p, 'U', 4, NULL, 4), -3);
    assert_int_equal(tela_dpotrf(p, 'L', 4, a, 3), -4);
    assert_int_equal(tela_dpotrf(p, 'L', 0, a, 0), -4); /* lda >= max(1, n) */
    assert_int_equal(tela_dpotrf(p, 'X', -1, NULL, 0), -1);
    assert_int_equal(tela_dpotrf(p, 'U', -1, NULL, 0), -2);
    /* potrs and posv: uplo 1, n 2, nrhs 3, a 4, lda 5, b 6, ldb 7. */
    for (int posv = 0; posv < 2; posv++) {
        assert_int_equal(solve_call(posv, 'X', 4, 2, a, 4, b, 4), -1);
        assert_int_equal(solve_call(posv, 'U', -1, 2, a, 4, b, 4), -2);
        assert_int_equal(solve_call(posv, 'U', 4, -1, a, 4, b, 4), -3);
        assert_int_equal(solve_call(posv, 'U', 4, 2, NULL, 4, b, 4), -4);
        assert_int_equal(solve_call(posv, 'L', 4, 2, a, 3, b, 4), -5);
        assert_int_equal(solve_call(posv, 'L', 4, 2, a, 4, NULL, 4), -6);
        assert_int_equal(solve_call(posv, 'L', 4, 2, a, 4, b, 3), -7);
        assert_int_equal(solve_call(posv, 'U', 0, 2, a, 0, b, 1), -5);   /* lda >= 1 */
        assert_int_equal(solve_call(posv, 'X', -1, -1, a, 0, b, 0), -1); /* first wins */
        assert_int_equal(solve_call(posv, 'U', 4, -1, a, 3, b, 3), -3);
        assert_int_equal(solve_call(posv, 'U', 4, 2, a, 3, b, 3), -5);
    }
    assert_memory_equal(&x, &before, sizeof x);
    /* The same through the default pool and a team: the checks come before any dispatch. */
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[2] = {tela_par_auto(), tela_par_team(team)};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(tela_dpotrf(pars[k], 'U', 4, a, 3), -4);
        assert_int_equal(tela_dpotrs(pars[k], 'U', 4, 2, a, 4, b, 3), -7);
        assert_int_equal(tela_dposv(pars[k], 'Q', 4, 2, a, 4, b, 4), -1);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_memory_equal(&x, &before, sizeof x);
}

/* ---- widths: the same bits at 1, 2 and 8 ---------------------------------------------------
 * Orders where potrf's trsm and syrk and the solves are parallel regions (a team of width w > 1
 * must wake a worker; potrf gives a member per 256 of the order). Both orders under sanitizers
 * too. */
static void test_widths_bitwise_equal(void **state)
{
    (void)state;
    static const tela_int sizes[] = {517, 600};
    const size_t count = sizeof sizes / sizeof sizes[0];
    const tela_int nrhs = 37;
    tl_seed(15);
    for (size_t c = 0; c < count; c++)
        for (int u = 0; u < 2; u++) {
            const tela_int order = sizes[c];
            const tela_int lda = order + 1, ldb = order + 1;
            const char uplo = uplos[u];
            double *full = spd_full(order, (int)c % 2);
            double *a0 = stored_from_full(uplo, order, full, lda);
            double *ref = factor_checked(tela_par_seq(), uplo, order, full, a0, lda, 0);
            double *b0 = tl_random_matrix(order, nrhs, ldb), *xref = tl_copy(b0, ldb * nrhs);
            assert_int_equal(tela_dpotrs(tela_par_seq(), uplo, order, nrhs, ref, lda, xref, ldb),
                             0);
            assert_true(tl_solve_ratio(false, order, nrhs, full, order, xref, ldb, b0, ldb) <
                        TL_THRESHOLD);
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
                    double *f = tl_copy(a0, lda * order);
                    assert_int_equal(tela_dpotrf(par, uplo, order, f, lda), 0);
                    const tela_stats after = tu_stats();
                    if (route && width > 1 && after.region_wakeups == before.region_wakeups)
                        fail_msg("dpotrf %td on a team of %d: no worker took part", order, width);
                    if (memcmp(f, ref, sizeof(double) * (size_t)(lda * order)) != 0)
                        fail_msg("dpotrf %c %td at width %d (%s): not bitwise equal to the "
                                 "serial result",
                                 uplo, order, width, policy);
                    double *x = tl_copy(b0, ldb * nrhs);
                    assert_int_equal(tela_dpotrs(par, uplo, order, nrhs, ref, lda, x, ldb), 0);
                    if (memcmp(x, xref, sizeof(double) * (size_t)(ldb * nrhs)) != 0)
                        fail_msg("dpotrs %c %td at width %d (%s): not bitwise equal", uplo, order,
                                 width, policy);
                    memcpy(x, b0, sizeof(double) * (size_t)(ldb * nrhs));
                    memcpy(f, a0, sizeof(double) * (size_t)(lda * order));
                    assert_int_equal(tela_dposv(par, uplo, order, nrhs, f, lda, x, ldb), 0);
                    if (memcmp(f, ref, sizeof(double) * (size_t)(lda * order)) != 0 ||
                        memcmp(x, xref, sizeof(double) * (size_t)(ldb * nrhs)) != 0)
                        fail_msg("dposv %c %td at width %d (%s): not bitwise equal", uplo, order,
                                 width, policy);
                    free(x);
                    free(f);
                }
                assert_int_equal(tela_team_release(team), 0);
                tela_pool_destroy(pool);
            }
            free(full);
            free(a0);
            free(ref);
            free(b0);
            free(xref);
        }
}

/* ---- several callers at once, and from inside a region ------------------------------------
 * potrf, then potrs on its factor; upper on even ranks, lower on odd ones. */
struct chol_job {
    tela_int n, nrhs;
    char uplo;
    double *a0, *b0, *want_f, *want_x, *f, *x;
};

static long run_chol_job(struct tl_caller *c)
{
    struct chol_job *job = c->job;
    const tela_int n = job->n, nrhs = job->nrhs;
    memcpy(job->f, job->a0, sizeof(double) * (size_t)(n * n));
    memcpy(job->x, job->b0, sizeof(double) * (size_t)(n * nrhs));
    if (tela_dpotrf(c->par, job->uplo, n, job->f, n) != 0 ||
        tela_dpotrs(c->par, job->uplo, n, nrhs, job->f, n, job->x, n) != 0)
        return -1;
    return tl_count_differ(job->f, job->want_f, n * n, &c->worst) +
           tl_count_differ(job->x, job->want_x, n * nrhs, &c->worst);
}

static void chol_jobs_make(struct chol_job jobs[TL_CALLERS], struct tl_caller callers[TL_CALLERS])
{
    for (int i = 0; i < TL_CALLERS; i++) {
        struct chol_job *j = &jobs[i];
        const tela_int n = 200 + 41 * i, nrhs = 140;
        double *full = spd_full(n, i % 2);
        j->n = n;
        j->nrhs = nrhs;
        j->uplo = uplos[i % 2];
        j->a0 = stored_from_full(j->uplo, n, full, n);
        j->b0 = tl_random_matrix(n, nrhs, n);
        j->want_f = tl_copy(j->a0, n * n);
        j->want_x = tl_copy(j->b0, n * nrhs);
        j->f = tl_alloc(n * n);
        j->x = tl_alloc(n * nrhs);
        assert_int_equal(tela_dpotrf(tela_par_seq(), j->uplo, n, j->want_f, n), 0);
        assert_int_equal(tela_dpotrs(tela_par_seq(), j->uplo, n, nrhs, j->want_f, n, j->want_x, n),
                         0);
        callers[i].run = run_chol_job;
        callers[i].job = j;
        free(full);
    }
}

static void chol_jobs_free(struct chol_job jobs[TL_CALLERS])
{
    for (int i = 0; i < TL_CALLERS; i++) {
        free(jobs[i].a0);
        free(jobs[i].b0);
        free(jobs[i].want_f);
        free(jobs[i].want_x);
        free(jobs[i].f);
        free(jobs[i].x);
    }
}

static void test_concurrent_callers(void **state)
{
    (void)state;
    struct chol_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(16);
    chol_jobs_make(jobs, callers);
    const int bad = tl_run_concurrent(callers);
    chol_jobs_free(jobs);
    if (bad)
        fail_msg("%d of %d concurrent callers computed other bits than a serial call", bad,
                 TL_CALLERS);
}

static void test_nested_in_region(void **state)
{
    (void)state;
    struct chol_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(18);
    chol_jobs_make(jobs, callers);
    const int bad = tl_run_nested(callers);
    chol_jobs_free(jobs);
    if (bad)
        fail_msg("%d region members computed other bits than a serial call", bad);
}

int main(int argc, char **argv)
{
    if (!tl_setup(argc, argv))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_residuals_and_solves),  cmocka_unit_test(test_empty_and_one_by_one),
        cmocka_unit_test(test_not_positive_definite), cmocka_unit_test(test_nan_and_inf),
        cmocka_unit_test(test_against_openblas),      cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_widths_bitwise_equal),  cmocka_unit_test(test_concurrent_callers),
        cmocka_unit_test(test_nested_in_region),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    tl_teardown();
    return failed;
}
