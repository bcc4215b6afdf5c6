/* test_level3 — tela_dtrsm, tela_dtrmm and tela_dsyrk against long-double
 * references: every side/uplo/trans/diag (uplo/trans for syrk), sizes on
 * both sides of the recursion's base, lda > minimum, alpha = 0, untouched
 * parts of B and C, bad arguments (-i, nothing written), and the same
 * result at widths 1, 2 and 8. */
#define _GNU_SOURCE
#include "testutil.h"

#include <float.h>
#include <math.h>

#define SENTINEL 777.0

static unsigned rng = 12345;

static double uniform(void)
{
    return tu_uniform(&rng);
}

static double *filled(tela_int count)
{
    double *x = malloc(sizeof(double) * (size_t)(count > 0 ? count : 1));
    assert_non_null(x);
    for (tela_int i = 0; i < count; i++)
        x[i] = uniform();
    return x;
}

/* A triangular matrix tela can solve with accurately: a dominant diagonal
 * (off-diagonal entries stay random, the unstored triangle is garbage the
 * routines must not read: NaN). */
static double *triangle(tela_int s, tela_int lda, bool upper)
{
    double *a = filled(lda * s);
    for (tela_int j = 0; j < s; j++)
        for (tela_int i = 0; i < lda; i++) {
            bool stored = i < s && (upper ? i <= j : i >= j);
            if (!stored && i < s)
                a[i + j * lda] = NAN;
            else if (i == j)
                a[i + j * lda] = 2.0 + fabs(a[i + j * lda]);
        }
    return a;
}

/* op(A)(i, j) with the triangle and unit diagonal applied. */
static long double op_a(const double *a, tela_int lda, bool upper, bool trans, bool unit,
                        tela_int i, tela_int j)
{
    tela_int r = trans ? j : i, c = trans ? i : j;
    if (r == c)
        return unit ? 1.0L : a[r + c * lda];
    if (upper ? r > c : r < c)
        return 0.0L;
    return a[r + c * lda];
}

static const char sides[] = {'L', 'R'}, uplos[] = {'U', 'L'}, transes[] = {'N', 'T'},
                  diags[] = {'N', 'U'};

/* B1 = alpha op(A) B0 (left) or alpha B0 op(A) (right), in long double. */
static void reference_trmm(bool left, bool upper, bool trans, bool unit, tela_int m, tela_int n,
                           double alpha, const double *a, tela_int lda, const double *b0,
                           tela_int ldb, long double *out, long double *mag)
{
    tela_int s = left ? m : n;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++) {
            long double sum = 0, abs_sum = 0;
            for (tela_int p = 0; p < s; p++) {
                long double t = left ? op_a(a, lda, upper, trans, unit, i, p) * b0[p + j * ldb]
                                     : b0[i + p * ldb] * op_a(a, lda, upper, trans, unit, p, j);
                sum += t;
                abs_sum += fabsl(t);
            }
            out[i + j * m] = alpha * sum;
            mag[i + j * m] = fabsl((long double)alpha) * abs_sum;
        }
}

static void check_trmm_trsm(tela_par par, tela_int m, tela_int n, tela_int pad)
{
    for (int sd = 0; sd < 2; sd++)
        for (int up = 0; up < 2; up++)
            for (int tr = 0; tr < 2; tr++)
                for (int dg = 0; dg < 2; dg++) {
                    bool left = sd == 0, upper = up == 0, trans = tr == 1, unit = dg == 1;
                    tela_int s = left ? m : n, lda = (s > 1 ? s : 1) + pad;
                    tela_int ldb = (m > 1 ? m : 1) + pad;
                    double *a = triangle(s, lda, upper);
                    double *b0 = filled(ldb * n), *b = filled(ldb * n);
                    memcpy(b, b0, sizeof(double) * (size_t)(ldb * n));
                    long double *want = malloc(sizeof(long double) * (size_t)(m * n + 1));
                    long double *mag = malloc(sizeof(long double) * (size_t)(m * n + 1));
                    assert_non_null(want);
                    assert_non_null(mag);
                    const double alpha = -1.25;
                    /* trmm: B = alpha op(A) B0. */
                    assert_int_equal(tela_dtrmm(par, sides[sd], uplos[up], transes[tr], diags[dg],
                                                m, n, alpha, a, lda, b, ldb),
                                     0);
                    reference_trmm(left, upper, trans, unit, m, n, alpha, a, lda, b0, ldb, want,
                                   mag);
                    for (tela_int j = 0; j < n; j++) {
                        for (tela_int i = 0; i < m; i++) {
                            double tol =
                                4.0 * (double)(s + 2) * DBL_EPSILON * (double)mag[i + j * m];
                            if (!(fabs(b[i + j * ldb] - (double)want[i + j * m]) <= tol))
                                fail_msg("trmm %c%c%c%c m=%td n=%td: B(%td,%td) = %.17g, want "
                                         "%.17g",
                                         sides[sd], uplos[up], transes[tr], diags[dg], m, n, i, j,
                                         b[i + j * ldb], (double)want[i + j * m]);
                        }
                        for (tela_int i = m; i < ldb; i++)
                            assert_true(b[i + j * ldb] == b0[i + j * ldb]);
                    }
                    /* trsm undoes it: op(A) X = (1/alpha) B gives X = B0. */
                    memcpy(b0, b, sizeof(double) * (size_t)(ldb * n)); /* B, for the residual */
                    assert_int_equal(tela_dtrsm(par, sides[sd], uplos[up], transes[tr], diags[dg],
                                                m, n, 1.0 / alpha, a, lda, b, ldb),
                                     0);
                    /* A triangular solve is backward stable element by element (Higham, Accuracy
                     * and Stability, Thm. 8.5): op(A) X (X B op(A) on the right) is (1/alpha) B
                     * within a few (s + 2) eps |op(A)| |X|. The forward error X - B0 is that
                     * times op(A)'s condition, which a unit diagonal (random entries beside it)
                     * does not bound: with values of whole mantissas it reached 6e-8 at 300-512. */
                    reference_trmm(left, upper, trans, unit, m, n, 1.0, a, lda, b, ldb, want, mag);
                    for (tela_int j = 0; j < n; j++) {
                        for (tela_int i = 0; i < m; i++) {
                            const double rhs = b0[i + j * ldb] / alpha;
                            const double tol = 16.0 * (double)(s + 2) * DBL_EPSILON *
                                               ((double)mag[i + j * m] + fabs(rhs));
                            if (!(fabs((double)(want[i + j * m] - rhs)) <= tol))
                                fail_msg("trsm %c%c%c%c m=%td n=%td: residual at (%td,%td) %.3g, "
                                         "bound %.3g",
                                         sides[sd], uplos[up], transes[tr], diags[dg], m, n, i, j,
                                         fabs((double)(want[i + j * m] - rhs)), tol);
                        }
                        for (tela_int i = m; i < ldb; i++)
                            assert_true(b[i + j * ldb] == b0[i + j * ldb]);
                    }
                    free(a);
                    free(b0);
                    free(b);
                    free(want);
                    free(mag);
                }
}

static void test_trmm_trsm_small_and_odd(void **state)
{
    (void)state;
    static const tela_int sizes[][2] = {{1, 1}, {1, 5}, {5, 1}, {7, 3}, {17, 13}, {48, 48}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_trmm_trsm(tela_par_seq(), sizes[i][0], sizes[i][1], (tela_int)(i % 3));
}

static void test_trmm_trsm_recursive(void **state)
{
    (void)state;
    /* Well past LEVEL3_BASE (16) on the triangle's side: several levels of GEMM updates. */
    check_trmm_trsm(tela_par_seq(), 131, 70, 2);
    check_trmm_trsm(tela_par_seq(), 70, 131, 0);
}

static void test_trsm_left_in_steps(void **state)
{
    (void)state;
    /* Left triangles above 256 with at most 512 right-hand sides go by
     * blocks of rows in one region (solve_steps.c): two blocks (300) and
     * three (529, lda and ldb padded), serially and on two members. */
    check_trmm_trsm(tela_par_seq(), 300, 37, 0);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    check_trmm_trsm(tela_par_pool(pool), 300, 1, 1);
    check_trmm_trsm(tela_par_pool(pool), 529, 40, 3);
    tela_pool_destroy(pool);
}

static void test_trmm_left_in_steps(void **state)
{
    (void)state;
    /* Left triangles of order 512 and more go in steps of packed GEMMs with the step's triangle
     * as a band (multiply_steps.c): one right-hand side (a single edge panel), an odd order of
     * two whole steps and a partial one on a pool of 4 (oversubscribed here) with lda and ldb
     * padded. */
    check_trmm_trsm(tela_par_seq(), 512, 1, 0);
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    check_trmm_trsm(tela_par_pool(pool), 601, 13, 5);
    tela_pool_destroy(pool);
}

static void test_syrk(void **state)
{
    (void)state;
    /* Up to 150 x 77 the unpacked path, in strips along the diagonal; 280 x 260 and 301 x 17
     * pack, with tiles across the diagonal, two k blocks and two row blocks (mc = 192); 1100 x
     * 16 in two B blocks (nc = 1032), where A's rows come from the packed B block for the
     * columns it holds and from A for the others, a row block holding both kinds. */
    static const tela_int shapes[][2] = {{1, 1},    {5, 0},     {9, 4},    {64, 64},  {65, 3},
                                         {150, 77}, {280, 260}, {301, 17}, {1100, 16}};
    static const double scalars[][2] = {{1.5, 0.0}, {-0.5, 2.0}, {1.0, 1.0}, {0.0, 0.5}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int up = 0; up < 2; up++)
            for (int tr = 0; tr < 2; tr++)
                for (int sc = 0; sc < (shapes[s][0] > 1000 ? 1 : 4); sc++) {
                    tela_int n = shapes[s][0], k = shapes[s][1];
                    bool upper = up == 0, trans = tr == 1;
                    double alpha = scalars[sc][0], beta = scalars[sc][1];
                    tela_int rows = trans ? k : n, cols = trans ? n : k;
                    tela_int lda = (rows > 1 ? rows : 1) + 1, ldc = n + 2;
                    double *a = filled(lda * (cols > 0 ? cols : 1));
                    double *c0 = filled(ldc * n), *c = malloc(sizeof(double) * (size_t)(ldc * n));
                    assert_non_null(c);
                    /* The other triangle is never read: NaN there must survive as is. */
                    for (tela_int j = 0; j < n; j++)
                        for (tela_int i = 0; i < n; i++)
                            if (upper ? i > j : i < j)
                                c0[i + j * ldc] = NAN;
                    if (beta == 0.0)
                        for (tela_int j = 0; j < n; j++)
                            c0[j + j * ldc] = NAN; /* overwritten, never read */
                    memcpy(c, c0, sizeof(double) * (size_t)(ldc * n));
                    assert_int_equal(tela_dsyrk(tela_par_auto(), uplos[up], transes[tr], n, k,
                                                alpha, a, lda, beta, c, ldc),
                                     0);
                    for (tela_int j = 0; j < n; j++)
                        for (tela_int i = 0; i < ldc; i++) {
                            double got = c[i + j * ldc];
                            bool in = i < n && (upper ? i <= j : i >= j);
                            if (!in) {
                                assert_memory_equal(&got, &c0[i + j * ldc], sizeof got);
                                continue;
                            }
                            long double sum = 0, mag = 0;
                            for (tela_int p = 0; p < k; p++) {
                                double x = trans ? a[p + i * lda] : a[i + p * lda];
                                double y = trans ? a[p + j * lda] : a[j + p * lda];
                                sum += (long double)x * y;
                                mag += fabsl((long double)x * y);
                            }
                            long double want = alpha * sum;
                            double bound = fabs(alpha) * (double)mag;
                            if (beta != 0.0) {
                                want += (long double)beta * c0[i + j * ldc];
                                bound += fabs(beta * c0[i + j * ldc]);
                            }
                            double tol = 2.0 * (double)(k + 2) * DBL_EPSILON * bound + DBL_MIN;
                            if (!(fabs(got - (double)want) <= tol))
                                fail_msg("syrk %c%c n=%td k=%td alpha=%g beta=%g: C(%td,%td) = "
                                         "%.17g, want %.17g",
                                         uplos[up], transes[tr], n, k, alpha, beta, i, j, got,
                                         (double)want);
                        }
                    free(a);
                    free(c0);
                    free(c);
                }
}

/* C = alpha A A^T + beta C (syr2k: alpha (A B^T + B A^T) + beta C) with A, B and C placed `off`
 * doubles past a 64-byte line (ld a multiple of 8: every column at that offset), into out. */
static void syrk_placed(bool two, char uplo, tela_int n, tela_int k, double alpha, double beta,
                        const double *a, const double *c0, tela_int ld, int off, double *out)
{
    const size_t len = (size_t)ld * (size_t)(n > k ? n : k) + 8; /* whole lines */
    double *ap = aligned_alloc(64, len * sizeof(double)),
           *bp = aligned_alloc(64, len * sizeof(double)),
           *cp = aligned_alloc(64, len * sizeof(double));
    assert_true(ap && bp && cp);
    memcpy(ap + off, a, sizeof(double) * (size_t)(ld * k));
    memcpy(bp + off, c0, sizeof(double) * (size_t)(ld * k)); /* B: any other matrix */
    memcpy(cp + off, c0, sizeof(double) * (size_t)(ld * n));
    if (two)
        assert_int_equal(tela_dsyr2k(tela_par_seq(), uplo, 'N', n, k, alpha, ap + off, ld, bp + off,
                                     ld, beta, cp + off, ld),
                         0);
    else
        assert_int_equal(
            tela_dsyrk(tela_par_seq(), uplo, 'N', n, k, alpha, ap + off, ld, beta, cp + off, ld),
            0);
    memcpy(out, cp + off, sizeof(double) * (size_t)(ld * n));
    free(ap);
    free(bp);
    free(cp);
}

/* Off their lines, syrk's strips pack from op(A) of 24576 elements where packing gives their
 * bits (alpha +-1, beta 0 or 1; driver.c): every placement must give the aligned call's bits, for
 * those scalings and for the others, which keep the strips, and for syr2k, whose packed form
 * would not. */
static void test_syrk_off_its_lines_keeps_bits(void **state)
{
    (void)state;
    /* n, k: below the bound, above it square, and a syr2k whose packed form has other bits */
    static const tela_int shapes[][2] = {{96, 96}, {160, 160}, {256, 96}};
    static const double scalings[][2] = {{-1.0, 1.0}, {1.0, 0.0}, {0.7, 1.3}};
    for (size_t o = 0; o < sizeof shapes / sizeof shapes[0]; o++) {
        const tela_int n = shapes[o][0], k = shapes[o][1], ld = (n + 7) / 8 * 8 + 8;
        double *a = filled(ld * n), *c0 = filled(ld * n);
        /* Values with whole mantissas: sums of uniform()'s 16-bit values are exact in any order,
         * and would hide a path that sums in another. */
        for (tela_int i = 0; i < ld * n; i++) {
            a[i] /= 3.0;
            c0[i] /= 7.0;
        }
        double *ref = malloc(sizeof(double) * (size_t)(ld * n)),
               *c = malloc(sizeof(double) * (size_t)(ld * n));
        assert_true(ref && c);
        for (int two = 0; two < 2; two++)
            for (int u = 0; u < 2; u++)
                for (size_t q = 0; q < sizeof scalings / sizeof scalings[0]; q++) {
                    const double alpha = scalings[q][0], beta = scalings[q][1];
                    syrk_placed(two, uplos[u], n, k, alpha, beta, a, c0, ld, 0, ref);
                    for (int off = 1; off < 8; off++) {
                        syrk_placed(two, uplos[u], n, k, alpha, beta, a, c0, ld, off, c);
                        if (memcmp(c, ref, sizeof(double) * (size_t)(ld * n)) != 0)
                            fail_msg("%s %c N n=%td k=%td alpha=%g beta=%g, %d doubles off: "
                                     "other bits",
                                     two ? "syr2k" : "syrk", uplos[u], n, k, alpha, beta, off);
                    }
                }
        free(a);
        free(c0);
        free(ref);
        free(c);
    }
}

static void test_same_result_at_every_width(void **state)
{
    (void)state;
    const tela_int m = 200, n = 180, lda = 200;
    double *a = triangle(m, lda, false), *b0 = filled(m * n);
    double *ref = malloc(sizeof(double) * (size_t)(m * n)),
           *b = malloc(sizeof(double) * (size_t)(m * n));
    double *s0 = malloc(sizeof(double) * (size_t)(m * m)),
           *s = malloc(sizeof(double) * (size_t)(m * m));
    assert_non_null(ref);
    assert_non_null(b);
    assert_non_null(s0);
    assert_non_null(s);
    memcpy(ref, b0, sizeof(double) * (size_t)(m * n));
    assert_int_equal(tela_dtrsm(tela_par_seq(), 'L', 'L', 'N', 'N', m, n, 2.0, a, lda, ref, m), 0);
    memset(s0, 0, sizeof(double) * (size_t)(m * m));
    assert_int_equal(tela_dsyrk(tela_par_seq(), 'L', 'N', m, n, 1.0, b0, m, 0.0, s0, m), 0);
    static const int widths[] = {1, 2, 8};
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        tela_pool *pool = tu_pool_of_width(widths[w]);
        assert_non_null(pool);
        memcpy(b, b0, sizeof(double) * (size_t)(m * n));
        assert_int_equal(
            tela_dtrsm(tela_par_pool(pool), 'L', 'L', 'N', 'N', m, n, 2.0, a, lda, b, m), 0);
        assert_memory_equal(b, ref, sizeof(double) * (size_t)(m * n));
        memset(s, 0, sizeof(double) * (size_t)(m * m));
        assert_int_equal(tela_dsyrk(tela_par_pool(pool), 'L', 'N', m, n, 1.0, b0, m, 0.0, s, m), 0);
        assert_memory_equal(s, s0, sizeof(double) * (size_t)(m * m));
        tela_pool_destroy(pool);
    }
    free(a);
    free(b0);
    free(ref);
    free(b);
    free(s0);
    free(s);
}

/* trsm called by each member of a region on its own B: no buffer can be had there (nothing is
 * allocated inside a region), so blocks are packed on the stack; the bits must be those of the
 * call outside, which packs into a buffer. */
typedef struct member_solves {
    char side, uplo, trans, diag;
    tela_int s, rhs;
    const double *a;
    double *b[2];
} member_solves;

static void solve_in_member(tela_member *self, void *arg)
{
    const member_solves *job = arg;
    const bool left = job->side == 'L';
    const tela_int m = left ? job->s : job->rhs, n = left ? job->rhs : job->s;
    tela_dtrsm(tela_par_seq(), job->side, job->uplo, job->trans, job->diag, m, n, 0.5, job->a,
               job->s, job->b[tela_rank(self)], m);
}

static void test_trsm_inside_a_region(void **state)
{
    (void)state;
    static const char flags[][4] = {
        {'L', 'L', 'N', 'U'}, {'R', 'L', 'T', 'N'}, {'L', 'U', 'T', 'N'}, {'R', 'U', 'N', 'U'}};
    /* Order 203, 100 right-hand sides: blocks of the triangle, not in
     * chunks; 290: in chunks, their plan in the thread's kept buffer, or
     * packed again per block on the stack when it has none big enough.
     * Order 300 on the left: blocks of rows in steps (solve_steps.c), in a
     * region nested in the member's. */
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    for (size_t f = 0; f < 4 * sizeof flags / sizeof flags[0]; f++) {
        const tela_int s = f % 4 < 2 ? 203 : 300, rhs = f % 2 ? 290 : 100;
        const char *fl = flags[f / 4];
        const bool upper = fl[1] == 'U';
        double *a = triangle(s, s, upper), *b0 = filled(s * rhs);
        double *ref = malloc(sizeof(double) * (size_t)(s * rhs));
        assert_non_null(ref);
        member_solves job = {fl[0], fl[1], fl[2], fl[3],
                             s,     rhs,   a,     {filled(s * rhs), filled(s * rhs)}};
        memcpy(ref, b0, sizeof(double) * (size_t)(s * rhs));
        for (int r = 0; r < 2; r++)
            memcpy(job.b[r], b0, sizeof(double) * (size_t)(s * rhs));
        const bool left = job.side == 'L';
        assert_int_equal(tela_dtrsm(tela_par_seq(), job.side, job.uplo, job.trans, job.diag,
                                    left ? s : rhs, left ? rhs : s, 0.5, a, s, ref, left ? s : rhs),
                         0);
        assert_int_equal(tela_parallel(tela_par_pool(pool), 2, solve_in_member, &job), 2);
        for (int r = 0; r < 2; r++)
            if (memcmp(job.b[r], ref, sizeof(double) * (size_t)(s * rhs)) != 0)
                fail_msg("trsm %.4s on %td columns in member %d: not the bits outside", fl, rhs, r);
        free(a);
        free(b0);
        free(ref);
        free(job.b[0]);
        free(job.b[1]);
    }
    tela_pool_destroy(pool);
}

static void test_alpha_zero_and_bad_arguments(void **state)
{
    (void)state;
    double a[16], b[16];
    for (int i = 0; i < 16; i++) {
        a[i] = 1.0;
        b[i] = i % 2 ? NAN : 3.0;
    }
    const tela_par p = tela_par_seq();
    /* alpha = 0: B = 0 (NaN overwritten), A never read. */
    assert_int_equal(tela_dtrsm(p, 'L', 'U', 'N', 'N', 4, 4, 0.0, NULL, 4, b, 4), 0);
    for (int i = 0; i < 16; i++)
        assert_true(b[i] == 0.0);
    for (int i = 0; i < 16; i++)
        b[i] = SENTINEL;
    for (int routine = 0; routine < 2; routine++) {
        int (*f)(tela_par, char, char, char, char, tela_int, tela_int, double, const double *,
                 tela_int, double *, tela_int) = routine ? tela_dtrmm : tela_dtrsm;
        assert_int_equal(f(p, 'X', 'U', 'N', 'N', 4, 4, 1, a, 4, b, 4), -1);
        assert_int_equal(f(p, 'L', 'X', 'N', 'N', 4, 4, 1, a, 4, b, 4), -2);
        assert_int_equal(f(p, 'L', 'U', 'X', 'N', 4, 4, 1, a, 4, b, 4), -3);
        assert_int_equal(f(p, 'L', 'U', 'N', 'X', 4, 4, 1, a, 4, b, 4), -4);
        assert_int_equal(f(p, 'L', 'U', 'N', 'N', -1, 4, 1, a, 4, b, 4), -5);
        assert_int_equal(f(p, 'L', 'U', 'N', 'N', 4, -1, 1, a, 4, b, 4), -6);
        assert_int_equal(f(p, 'L', 'U', 'N', 'N', 4, 4, 1, a, 3, b, 4), -9);
        assert_int_equal(f(p, 'R', 'U', 'N', 'N', 2, 4, 1, a, 3, b, 4), -9); /* lda >= n */
        assert_int_equal(f(p, 'L', 'U', 'N', 'N', 4, 4, 1, a, 4, b, 3), -11);
        assert_int_equal(f(p, 'X', 'X', 'N', 'N', -1, 4, 1, a, 4, b, 4), -1); /* first wins */
    }
    assert_int_equal(tela_dsyrk(p, 'X', 'N', 4, 4, 1, a, 4, 0, b, 4), -1);
    assert_int_equal(tela_dsyrk(p, 'U', 'X', 4, 4, 1, a, 4, 0, b, 4), -2);
    assert_int_equal(tela_dsyrk(p, 'U', 'N', -1, 4, 1, a, 4, 0, b, 4), -3);
    assert_int_equal(tela_dsyrk(p, 'U', 'N', 4, -1, 1, a, 4, 0, b, 4), -4);
    assert_int_equal(tela_dsyrk(p, 'U', 'N', 4, 4, 1, a, 3, 0, b, 4), -7);
    assert_int_equal(tela_dsyrk(p, 'U', 'T', 4, 5, 1, a, 4, 0, b, 4), -7); /* lda >= k */
    assert_int_equal(tela_dsyrk(p, 'U', 'N', 4, 4, 1, a, 4, 0, b, 3), -10);
    for (int i = 0; i < 16; i++)
        assert_true(b[i] == SENTINEL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trmm_trsm_small_and_odd),
        cmocka_unit_test(test_trmm_trsm_recursive),
        cmocka_unit_test(test_trmm_left_in_steps),
        cmocka_unit_test(test_trsm_left_in_steps),
        cmocka_unit_test(test_syrk),
        cmocka_unit_test(test_syrk_off_its_lines_keeps_bits),
        cmocka_unit_test(test_same_result_at_every_width),
        cmocka_unit_test(test_trsm_inside_a_region),
        cmocka_unit_test(test_alpha_zero_and_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
