/* test_gemm — tela_dgemm against a long-double reference: every transpose,
 * odd sizes, lda > m, the BLAS rules for alpha, beta, k = 0 and empty
 * matrices, bad arguments (-i, nothing written), bitwise equality across
 * widths 1-16. Registered once per micro-kernel (TELA_ARCH). */
#define _GNU_SOURCE
#include "testutil.h"

#include <float.h>
#include <math.h>

#define SENTINEL 1234.5

static double *random_matrix(tela_int rows, tela_int cols, tela_int ld, unsigned seed)
{
    double *x = malloc(sizeof(double) * (size_t)(ld * cols + 1));
    assert_non_null(x);
    for (tela_int i = 0; i < ld * cols; i++)
        x[i] = tu_uniform(&seed);
    (void)rows;
    return x;
}

static double elem(const double *x, tela_int ld, bool trans, tela_int i, tela_int j)
{
    return trans ? x[j + i * ld] : x[i + j * ld];
}

/* Checks C = alpha op(A) op(B) + beta C0 elementwise, to k ulps of the
 * magnitudes involved, and that rows m..ldc-1 of C were not touched. */
static void expect_product(char ta, char tb, tela_int m, tela_int n, tela_int k, double alpha,
                           const double *a, tela_int lda, const double *b, tela_int ldb,
                           double beta, const double *c0, const double *c, tela_int ldc)
{
    bool at = ta != 'N' && ta != 'n', bt = tb != 'N' && tb != 'n';
    for (tela_int j = 0; j < n; j++) {
        for (tela_int i = 0; i < m; i++) {
            long double sum = 0, mag = 0;
            for (tela_int p = 0; p < k; p++) {
                long double t = (long double)elem(a, lda, at, i, p) * elem(b, ldb, bt, p, j);
                sum += t;
                mag += fabsl(t);
            }
            long double want = alpha * sum, bound = fabs(alpha) * mag;
            if (beta != 0) {
                want += (long double)beta * c0[i + j * ldc];
                bound += fabs(beta) * fabs(c0[i + j * ldc]);
            }
            double got = c[i + j * ldc];
            double tol = (double)(2 * (k + 2)) * DBL_EPSILON * (double)bound + DBL_MIN;
            if (!(fabs(got - (double)want) <= tol))
                fail_msg("%c%c m=%td n=%td k=%td: C(%td,%td) = %.17g, expected %.17g (tol %.3g)",
                         ta, tb, m, n, k, i, j, got, (double)want, tol);
        }
        for (tela_int i = m; i < ldc; i++)
            if (c[i + j * ldc] != c0[i + j * ldc])
                fail_msg("row %td of column %td (beyond m = %td) was written", i, j, m);
    }
}

static void run_case(tela_par par, char ta, char tb, tela_int m, tela_int n, tela_int k,
                     double alpha, double beta, tela_int pad, unsigned seed)
{
    bool at = ta != 'N' && ta != 'n', bt = tb != 'N' && tb != 'n';
    tela_int rows_a = at ? k : m, cols_a = at ? m : k;
    tela_int rows_b = bt ? n : k, cols_b = bt ? k : n;
    tela_int lda = (rows_a > 1 ? rows_a : 1) + pad, ldb = (rows_b > 1 ? rows_b : 1) + pad;
    tela_int ldc = (m > 1 ? m : 1) + pad;
    double *a = random_matrix(rows_a, cols_a, lda, seed);
    double *b = random_matrix(rows_b, cols_b, ldb, seed + 1);
    double *c0 = random_matrix(m, n, ldc, seed + 2);
    double *c = malloc(sizeof(double) * (size_t)(ldc * n + 1));
    assert_non_null(c);
    memcpy(c, c0, sizeof(double) * (size_t)(ldc * n));
    assert_int_equal(tela_dgemm(par, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc), 0);
    expect_product(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c0, c, ldc);
    free(a);
    free(b);
    free(c0);
    free(c);
}

static const char transposes[4][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};

static void test_odd_sizes_all_transposes(void **state)
{
    (void)state;
    static const tela_int sizes[] = {1, 2, 3, 7, 16, 17, 31, 33, 65};
    const int count = sizeof sizes / sizeof sizes[0];
    unsigned seed = 1;
    for (int t = 0; t < 4; t++)
        for (int x = 0; x < count; x++)
            for (int y = 0; y < count; y += 2)
                for (int z = 0; z < count; z += 3)
                    run_case(tela_par_seq(), transposes[t][0], transposes[t][1], sizes[x], sizes[y],
                             sizes[z], 1.5, 0.5, (x + y) % 3, seed++);
}

/* Every tile shape of the unpacked path: 1-16 rows in one or two vectors, with and without a
 * masked last vector, and 1-12 columns a tile (n = 13 and 23-25 cut into two tiles of unequal
 * width), beta = 0 over NaN-free C and beta != 0, lda, ldb and ldc past the rows; under
 * TELA_ARCH=avx2 (test_gemm_avx2) the AVX2 path's 1-8 rows in vectors of 4 by 1-6 columns. */
static void test_small_tile_shapes(void **state)
{
    (void)state;
    unsigned seed = 500;
    for (int t = 0; t < 4; t++)
        for (tela_int m = 1; m <= 24; m += m < 17 ? 1 : 7)
            for (tela_int n = 1; n <= 25; n += n < 13 ? 1 : n < 23 ? 10 : 1)
                for (tela_int k = 1; k <= 4; k += 3)
                    run_case(tela_par_seq(), transposes[t][0], transposes[t][1], m, n, k, -1.25,
                             (m + n) % 2 ? 0.0 : 0.75, 1 + (m + n + k) % 3, seed++);
}

static void test_blocked_sizes_and_scalars(void **state)
{
    (void)state;
    /* Beyond the small path and across kc, mc and edge tiles; 2070 columns are three B
     * blocks of 696, 696 and 678 with nc = 1032 (gemm_block_columns) under 200 rows, and
     * under 24 rows (one A block) blocks of mc columns with the AVX-512 kernel (192 x 10 +
     * 150), the next one's source asked for meanwhile, across k blocks and column blocks. With
     * the AVX-512 kernel, NN takes the unpacked path where m x k <= 65536 (24 x 2070 x 270,
     * 200 x 2070 x 40), so 24 x 400 x 2800 keeps NN on those narrow blocks (144 + 144 + 112). */
    static const tela_int shapes[][3] = {{200, 130, 300}, {37, 250, 260},  {260, 19, 70},
                                         {129, 129, 513}, {24, 2070, 270}, {200, 2070, 40},
                                         {24, 400, 2800}};
    static const double scalars[][2] = {{1, 0}, {-2, 1}, {0.5, -1.25}, {1, 1}};
    unsigned seed = 100;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t++)
            run_case(tela_par_seq(), transposes[t][0], transposes[t][1], shapes[s][0], shapes[s][1],
                     shapes[s][2], scalars[t][0], scalars[t][1], (tela_int)s % 4, seed++);
    /* Lower-case and 'C' mean the same. */
    run_case(tela_par_seq(), 'c', 'n', 70, 50, 90, 1.0, 0.0, 1, seed++);
}

/* C = 0.75 op(A) op(B) - 0.5 C at widths 1-16, pool and team routes,
 * bitwise equal to the serial call. */
static void check_widths(tela_int m, tela_int n, tela_int k, const double *a, const double *b,
                         const double *c0, tela_int ld)
{
    double *ref = malloc(sizeof(double) * (size_t)(ld * n));
    double *c = malloc(sizeof(double) * (size_t)(ld * n));
    assert_non_null(ref);
    assert_non_null(c);
    for (int t = 0; t < 4; t++) {
        char ta = transposes[t][0], tb = transposes[t][1];
        memcpy(ref, c0, sizeof(double) * (size_t)(ld * n));
        assert_int_equal(
            tela_dgemm(tela_par_seq(), ta, tb, m, n, k, 0.75, a, ld, b, ld, -0.5, ref, ld), 0);
        expect_product(ta, tb, m, n, k, 0.75, a, ld, b, ld, -0.5, c0, ref, ld);
        static const int widths[] = {1, 2, 3, 4, 8, 16};
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            tela_pool *pool = tu_pool_of_width(widths[w]);
            assert_non_null(pool);
            for (int route = 0; route < 2; route++) {
                tela_team *team = route ? tela_team_acquire(pool, widths[w]) : NULL;
                tela_par par = route ? tela_par_team(team) : tela_par_pool(pool);
                memcpy(c, c0, sizeof(double) * (size_t)(ld * n));
                tela_stats before = tu_stats();
                assert_int_equal(tela_dgemm(par, ta, tb, m, n, k, 0.75, a, ld, b, ld, -0.5, c, ld),
                                 0);
                tela_stats after = tu_stats();
                if (widths[w] > 1 && after.region_wakeups == before.region_wakeups)
                    fail_msg("%td x %td x %td width %d: no worker took part", m, n, k, widths[w]);
                if (memcmp(c, ref, sizeof(double) * (size_t)(ld * n)) != 0)
                    fail_msg("%c%c %td x %td x %td width %d (%s): not bitwise equal to the serial "
                             "result",
                             ta, tb, m, n, k, widths[w], route ? "team" : "pool");
                if (team)
                    assert_int_equal(tela_team_release(team), 0);
            }
            tela_pool_destroy(pool);
        }
    }
    free(ref);
    free(c);
}

static void test_parallel_widths_are_bitwise_equal(void **state)
{
    (void)state;
    /* With the AVX-512 kernel (grids chosen by gemm_split_grid): 203 x 171 x 530, two kc
     * blocks, members splitting B's panels at widths 2-4 (each packing its own) and C's rows
     * at 8 and 16 (B shared); 530 x 12 x 530: one panel, so members split rows only and each
     * packs the small B itself, over three kc blocks without a barrier; 530 x 40 x 300: a
     * small B packed by each member where the rows are split, its panels shared out elsewhere;
     * 520 x 132 x 260: eleven panels, rows only at widths 2-3 with a B block over 256 KiB
     * (for every kernel) packed whole by every member, whose rows are claimed between
     * barriers, a 2 x 4 grid at 8 and rows only with B shared at 16; 150 x 170 x 120: the
     * unpacked path for NN, NT and TT (C^T = B A), members taking columns of C. */
    static const tela_int shapes[][3] = {
        {203, 171, 530}, {530, 12, 530}, {530, 40, 300}, {520, 132, 260}, {150, 170, 120}};
    const tela_int ld = 541; /* >= every dimension */
    /* k columns hold op(A) and op(B) in every transpose case. */
    double *a = random_matrix(530, 530, ld, 7), *b = random_matrix(530, 530, ld, 8);
    double *c0 = random_matrix(530, 171, ld, 9);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_widths(shapes[s][0], shapes[s][1], shapes[s][2], a, b, c0, ld);
    free(a);
    free(b);
    free(c0);
    /* 1100 columns: two B blocks (552 + 548), each shared among the members in turn; with the
     * AVX-512 kernel, 40 rows are one A block, and at widths 2-8 (8 panels a member or more)
     * each member runs the serial loops on its own columns instead (narrow_body); NN there
     * takes the unpacked path (m x k <= 65536), members taking columns of C. */
    const tela_int wide = 1100, wide_ld = 1101;
    a = random_matrix(270, 270, wide_ld, 10);
    b = random_matrix(wide, wide, wide_ld, 11);
    c0 = random_matrix(40, wide, wide_ld, 12);
    check_widths(40, wide, 270, a, b, c0, wide_ld);
    free(a);
    free(b);
    free(c0);
}

/* C computed from A, B and C placed off their 64-byte lines, by `off` doubles each (A and C
 * together or C left on the line), into out; ld a multiple of 8, so every column sits at the
 * same offset. */
static void product_placed(char tb, tela_int m, tela_int n, tela_int k, const double *a,
                           const double *b, const double *c0, tela_int ld, int off_a, int off_c,
                           double *out)
{
    /* Whole lines (aligned_alloc takes multiples of the alignment; ld is a multiple of 8). */
    const size_t len = (size_t)ld * (size_t)(m > n ? (m > k ? m : k) : (n > k ? n : k)) + 8;
    double *ap = aligned_alloc(64, len * sizeof(double));
    double *bp = aligned_alloc(64, len * sizeof(double));
    double *cp = aligned_alloc(64, len * sizeof(double));
    assert_true(ap && bp && cp);
    memcpy(ap + off_a, a, sizeof(double) * (size_t)(ld * k));
    memcpy(bp + off_a, b, sizeof(double) * (size_t)(ld * (tb == 'N' ? n : k)));
    memcpy(cp + off_c, c0, sizeof(double) * (size_t)(ld * n));
    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', tb, m, n, k, -1.25, ap + off_a, ld, bp + off_a,
                                ld, 0.5, cp + off_c, ld),
                     0);
    memcpy(out, cp + off_c, sizeof(double) * (size_t)(ld * n));
    free(ap);
    free(bp);
    free(cp);
}

/* The unpacked AVX-512 path starts its tiles of 192 rows or more with a head of 1-7 rows where
 * that puts A's and C's columns on 64-byte lines (small_avx512.c). Each element is one chain of
 * FMAs whatever its tile, so every placement gives the bits of the aligned one, and the
 * product. */
static void test_unpacked_rows_off_their_lines(void **state)
{
    (void)state;
    static const tela_int rows[] = {192, 203, 250};
    const tela_int n = 29, k = 40, ld = 256;
    double *a = random_matrix(ld, k, ld, 40), *b = random_matrix(ld, ld, ld, 41);
    double *c0 = random_matrix(ld, n, ld, 42);
    double *ref = malloc(sizeof(double) * (size_t)(ld * n));
    double *c = malloc(sizeof(double) * (size_t)(ld * n));
    assert_true(ref && c);
    for (int t = 0; t < 2; t++) {
        const char tb = t ? 'T' : 'N';
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            const tela_int m = rows[r];
            product_placed(tb, m, n, k, a, b, c0, ld, 0, 0, ref);
            expect_product('N', tb, m, n, k, -1.25, a, ld, b, ld, 0.5, c0, ref, ld);
            for (int off = 1; off < 8; off++)
                for (int c_too = 0; c_too < 2; c_too++) {
                    product_placed(tb, m, n, k, a, b, c0, ld, off, c_too ? off : 0, c);
                    if (memcmp(c, ref, sizeof(double) * (size_t)(ld * n)) != 0)
                        fail_msg("N%c m=%td, A %d doubles off its line, C %d: other bits", tb, m,
                                 off, c_too ? off : 0);
                }
        }
    }
    free(a);
    free(b);
    free(c0);
    free(ref);
    free(c);
}

static void test_beta_zero_overwrites_nan(void **state)
{
    (void)state;
    const tela_int m = 45, n = 40, k = 50;
    double *a = random_matrix(m, k, m, 3), *b = random_matrix(k, n, k, 4);
    double *c = malloc(sizeof(double) * (size_t)(m * n));
    assert_non_null(c);
    for (int big = 0; big < 3; big++) {
        /* The small path (16-row blocks, then 6 rows alone) and the packed one. */
        tela_int kk = big == 2 ? k : 3, rows = big == 1 ? 6 : m;
        for (tela_int i = 0; i < m * n; i++)
            c[i] = i % 2 ? NAN : INFINITY;
        assert_int_equal(
            tela_dgemm(tela_par_seq(), 'N', 'N', rows, n, kk, 1.0, a, m, b, k, 0.0, c, m), 0);
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < m; i++)
                assert_true(i < rows ? isfinite(c[i + j * m]) : !isfinite(c[i + j * m]));
    }
    free(a);
    free(b);
    free(c);
}

static void test_alpha_zero_and_k_zero_only_scale(void **state)
{
    (void)state;
    const tela_int m = 9, n = 7;
    double a[64], b[64], c[63];
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = NAN; /* never read */
    for (int i = 0; i < 63; i++)
        c[i] = i;
    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', m, n, 8, 0.0, a, m, b, 8, 2.0, c, m), 0);
    for (int i = 0; i < 63; i++)
        assert_true(c[i] == 2.0 * i);
    assert_int_equal(
        tela_dgemm(tela_par_seq(), 'N', 'N', m, n, 0, 1.0, NULL, m, NULL, 1, 0.5, c, m), 0);
    for (int i = 0; i < 63; i++)
        assert_true(c[i] == (double)i);
    /* beta = 1 with nothing to add: C untouched, even NaN stays NaN. */
    c[5] = NAN;
    assert_int_equal(
        tela_dgemm(tela_par_seq(), 'T', 'N', m, n, 0, 1.0, NULL, 1, NULL, 1, 1.0, c, m), 0);
    assert_true(isnan(c[5]));
    /* beta = 0 and alpha = 0: zeros, NaN overwritten. */
    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', m, n, 8, 0.0, a, m, b, 8, 0.0, c, m), 0);
    for (int i = 0; i < 63; i++)
        assert_true(c[i] == 0.0);
}

static void test_empty_matrices_return_at_once(void **state)
{
    (void)state;
    double c[4] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL};
    double a[4] = {1, 2, 3, 4};
    assert_int_equal(tela_dgemm(tela_par_auto(), 'N', 'N', 0, 2, 2, 1.0, a, 1, a, 2, 0.0, c, 1), 0);
    assert_int_equal(tela_dgemm(tela_par_auto(), 'N', 'N', 2, 0, 2, 1.0, a, 2, a, 2, 0.0, c, 2), 0);
    assert_int_equal(
        tela_dgemm(tela_par_auto(), 'N', 'N', 0, 0, 0, 1.0, NULL, 1, NULL, 1, 0.0, NULL, 1), 0);
    for (int i = 0; i < 4; i++)
        assert_true(c[i] == SENTINEL);
    /* 1 x 1 x 1. */
    double x = 3, y = 4, z = NAN;
    assert_int_equal(tela_dgemm(tela_par_auto(), 'N', 'N', 1, 1, 1, 2.0, &x, 1, &y, 1, 0.0, &z, 1),
                     0);
    assert_true(z == 24.0);
}

static void test_bad_arguments_write_nothing(void **state)
{
    (void)state;
    double a[100], b[100], c[100];
    for (int i = 0; i < 100; i++) {
        a[i] = b[i] = 1.0;
        c[i] = SENTINEL;
    }
    const tela_par s = tela_par_seq();
    assert_int_equal(tela_dgemm(s, 'X', 'N', 4, 4, 4, 1, a, 4, b, 4, 0, c, 4), -1);
    assert_int_equal(tela_dgemm(s, 'N', '?', 4, 4, 4, 1, a, 4, b, 4, 0, c, 4), -2);
    assert_int_equal(tela_dgemm(s, 'N', 'N', -1, 4, 4, 1, a, 4, b, 4, 0, c, 4), -3);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, -1, 4, 1, a, 4, b, 4, 0, c, 4), -4);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, -1, 1, a, 4, b, 4, 0, c, 4), -5);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, a, 3, b, 4, 0, c, 4), -8);
    assert_int_equal(tela_dgemm(s, 'T', 'N', 4, 4, 5, 1, a, 4, b, 5, 0, c, 4), -8); /* lda >= k */
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, a, 4, b, 3, 0, c, 4), -10);
    assert_int_equal(tela_dgemm(s, 'N', 'T', 4, 5, 4, 1, a, 4, b, 4, 0, c, 4), -10); /* ldb >= n */
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, a, 4, b, 4, 0, c, 3), -13);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 0, 4, 4, 1, a, 1, b, 4, 0, c, 0), -13); /* ld >= 1 */
    /* The first bad argument in BLAS's order wins. */
    assert_int_equal(tela_dgemm(s, 'X', 'N', -1, 4, 4, 1, a, 4, b, 4, 0, c, 0), -1);
    assert_int_equal(tela_dgemm(s, 'N', 'N', -1, -1, 4, 1, a, 4, b, 4, 0, c, 0), -3);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4), -7);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, a, 4, NULL, 4, 0, c, 4), -9);
    assert_int_equal(tela_dgemm(s, 'N', 'N', 4, 4, 4, 1, a, 4, b, 4, 0, NULL, 4), -12);
    for (int i = 0; i < 100; i++)
        assert_true(c[i] == SENTINEL);
}

int main(void)
{
    const char *kernel = getenv("TELA_ARCH");
    printf("micro-kernel: %s\n", kernel && *kernel ? kernel : "(cpuid's choice)");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_sizes_all_transposes),
        cmocka_unit_test(test_small_tile_shapes),
        cmocka_unit_test(test_blocked_sizes_and_scalars),
        cmocka_unit_test(test_parallel_widths_are_bitwise_equal),
        cmocka_unit_test(test_unpacked_rows_off_their_lines),
        cmocka_unit_test(test_beta_zero_overwrites_nan),
        cmocka_unit_test(test_alpha_zero_and_k_zero_only_scale),
        cmocka_unit_test(test_empty_matrices_return_at_once),
        cmocka_unit_test(test_bad_arguments_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
