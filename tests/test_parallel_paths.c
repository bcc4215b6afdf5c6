/* test_parallel_paths.c — every kernel's parallel paths, forced: with a cost
 * table of near-free dispatch (fixtures/free-dispatch.costs) the gate runs
 * every region at the widest width allowed, so the panel, row-swap, chunk
 * and GEMM regions all run split even at sizes this small. Each result must
 * be bitwise the one computed serially, at widths 2, 3, 4 and 8, through a
 * pool and through a held team; with --narrow at widths 2 and 3 only (the
 * generic kernels' repeat under ThreadSanitizer, tests/CMakeLists.txt). */
#define _GNU_SOURCE
#include "testutil.h"

#include <math.h>

#ifndef TELA_FIXTURE_DIR
#error "TELA_FIXTURE_DIR must name tests/fixtures"
#endif
#define FREE_DISPATCH TELA_FIXTURE_DIR "/free-dispatch.costs"

static const int widths[] = {2, 3, 4, 8};
static size_t width_count = sizeof widths / sizeof widths[0];

static double *random_matrix(tela_int rows, tela_int cols, tela_int ld, unsigned seed)
{
    double *x = malloc(sizeof(double) * (size_t)(ld * cols));
    assert_non_null(x);
    srand(seed);
    for (tela_int j = 0; j < cols; j++)
        for (tela_int i = 0; i < ld; i++)
            x[i + j * ld] = i < rows ? (double)rand() / RAND_MAX - 0.5 : -999.0;
    (void)rows;
    return x;
}

/* One kernel call on an array of `len` doubles (and, for getrf, pivots). */
typedef struct kernel_case {
    const char *name;
    size_t len;       /* doubles in the in/out array */
    const double *in; /* its starting contents */
    int (*run)(tela_par par, const struct kernel_case *kc, double *out, tela_int *ipiv);
    tela_int m, n, k;
    char flags[4];
    const double *a; /* read-only operand where there is one */
} kernel_case;

static int run_gemm(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    (void)ipiv;
    const tela_int lda = kc->flags[0] == 'N' ? kc->m : kc->k;
    const tela_int ldb = kc->flags[1] == 'N' ? kc->k : kc->n;
    return tela_dgemm(par, kc->flags[0], kc->flags[1], kc->m, kc->n, kc->k, 0.5, kc->a, lda, kc->a,
                      ldb, -1.5, out, kc->m);
}

static int run_trsm(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    (void)ipiv;
    const tela_int s = kc->flags[0] == 'L' ? kc->m : kc->n;
    return tela_dtrsm(par, kc->flags[0], kc->flags[1], kc->flags[2], 'N', kc->m, kc->n, 2.0, kc->a,
                      s, out, kc->m);
}

static int run_trmm(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    (void)ipiv;
    const tela_int s = kc->flags[0] == 'L' ? kc->m : kc->n;
    return tela_dtrmm(par, kc->flags[0], kc->flags[1], kc->flags[2], 'U', kc->m, kc->n, -1.0, kc->a,
                      s, out, kc->m);
}

static int run_syrk(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    (void)ipiv;
    const tela_int lda = kc->flags[1] == 'N' ? kc->n : kc->k;
    return tela_dsyrk(par, kc->flags[0], kc->flags[1], kc->n, kc->k, 1.25, kc->a, lda, 0.5, out,
                      kc->n);
}

static int run_getrf(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    return tela_dgetrf(par, kc->m, kc->n, out, kc->m, ipiv);
}

static int run_potrf(tela_par par, const kernel_case *kc, double *out, tela_int *ipiv)
{
    (void)ipiv;
    return tela_dpotrf(par, kc->flags[0], kc->n, out, kc->n);
}

static void check_case(const kernel_case *kc)
{
    double *ref = malloc(sizeof(double) * kc->len), *out = malloc(sizeof(double) * kc->len);
    tela_int ref_piv[4096], piv[4096];
    assert_non_null(ref);
    assert_non_null(out);
    memcpy(ref, kc->in, sizeof(double) * kc->len);
    memset(ref_piv, 0, sizeof ref_piv);
    const int ref_info = kc->run(tela_par_seq(), kc, ref, ref_piv);
    assert_true(ref_info >= 0);
    for (size_t w = 0; w < width_count; w++) {
        tela_pool *pool = tu_pool_of_width(widths[w]);
        assert_non_null(pool);
        for (int route = 0; route < 2; route++) {
            tela_team *team = route ? tela_team_acquire(pool, widths[w]) : NULL;
            tela_par par = route ? tela_par_team(team) : tela_par_pool(pool);
            memcpy(out, kc->in, sizeof(double) * kc->len);
            memset(piv, 0, sizeof piv);
            const tela_stats before = tu_stats();
            const int info = kc->run(par, kc, out, piv);
            const tela_stats after = tu_stats();
            if (after.region_wakeups == before.region_wakeups)
                fail_msg("%s width %d: no worker took part", kc->name, widths[w]);
            if (info != ref_info)
                fail_msg("%s width %d: info %d, serially %d", kc->name, widths[w], info, ref_info);
            if (memcmp(out, ref, sizeof(double) * kc->len) != 0)
                fail_msg("%s width %d (%s): not bitwise equal to the serial result", kc->name,
                         widths[w], route ? "team" : "pool");
            if (memcmp(piv, ref_piv, sizeof piv) != 0)
                fail_msg("%s width %d: pivots differ from the serial ones", kc->name, widths[w]);
            if (team)
                assert_int_equal(tela_team_release(team), 0);
        }
        tela_pool_destroy(pool);
    }
    free(ref);
    free(out);
}

static int setup(void **state)
{
    (void)state;
    return tela_costs_load(FREE_DISPATCH) == TELA_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return tela_costs_load(NULL) == TELA_OK ? 0 : -1;
}

static void test_gemm_all_transposes(void **state)
{
    (void)state;
    const tela_int m = 97, n = 131, k = 300; /* two kc blocks, edge tiles both ways */
    double *a = random_matrix(k, k > n ? k : n, k > m ? k : m, 1);
    double *c = random_matrix(m, n, m, 2);
    static const char trans[4][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};
    for (int t = 0; t < 4; t++) {
        kernel_case kc = {
            "dgemm", (size_t)(m * n), c, run_gemm, m, n, k, {trans[t][0], trans[t][1]}, a};
        check_case(&kc);
    }
    free(a);
    free(c);
}

static void test_triangular_chunks_and_recursion(void **state)
{
    (void)state;
    /* Orders below and above LEVEL3_CHUNK_TRI (256), right-hand sides
     * above LEVEL3_CHUNK (128): chunked steps and parallel GEMMs both; 37
     * right-hand sides: trsm's groups of tiles shared among members (uneven
     * at most widths), and trmm's panels of the halves of 300 (trmm has
     * no region at 40 x 37). Order 520 on 260 (trmm alone): trmm by shares
     * of B, where a share (144 rows at width 2) alone would take another
     * GEMM path than the whole 260, so its GEMMs must choose as for the whole. */
    static const tela_int orders[][2] = {{40, 290}, {300, 290}, {40, 37}, {300, 37}, {520, 260}};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        const tela_int s = orders[o][0], rhs = orders[o][1];
        double *a = random_matrix(s, s, s, 3);
        for (tela_int i = 0; i < s; i++)
            a[i + i * s] = 4.0 + (double)(i % 5); /* well away from zero */
        double *b = random_matrix(s > rhs ? s : rhs, s > rhs ? s : rhs, s > rhs ? s : rhs, 4);
        static const char sides[2] = {'L', 'R'}, uplos[2] = {'L', 'U'}, transes[2] = {'N', 'T'};
        for (int x = 0; x < 8; x++) {
            const char side = sides[x & 1], uplo = uplos[(x >> 1) & 1], tr = transes[x >> 2];
            const tela_int m = side == 'L' ? s : rhs, n = side == 'L' ? rhs : s;
            kernel_case solve = {"dtrsm", (size_t)(m * n),  b, run_trsm, m, n,
                                 0,       {side, uplo, tr}, a};
            if (s != 520)
                check_case(&solve);
            kernel_case multiply = {"dtrmm", (size_t)(m * n),  b, run_trmm, m, n,
                                    0,       {side, uplo, tr}, a};
            if (rhs > 128 || s > 256)
                check_case(&multiply);
        }
        free(a);
        free(b);
    }
}

static void test_trsm_left_in_steps(void **state)
{
    (void)state;
    /* Orders above LEVEL3_CHUNK_TRI on the left with at most 512
     * right-hand sides: blocks of rows in one region (solve_steps.c), 529
     * in three; one right-hand side (a single group: members only share
     * the updates) and 512 (the most that go this way). */
    const tela_int s = 529;
    double *a = random_matrix(s, s, s, 5);
    for (tela_int i = 0; i < s; i++)
        a[i + i * s] = 4.0 + (double)(i % 5);
    static const tela_int rhs_counts[] = {1, 512};
    for (size_t r = 0; r < 2; r++) {
        const tela_int rhs = rhs_counts[r];
        double *b = random_matrix(s, rhs, s, 6);
        static const char uplos[2] = {'L', 'U'}, transes[2] = {'N', 'T'};
        for (int x = 0; x < 4; x++) {
            kernel_case solve = {"dtrsm", (size_t)(s * rhs),
                                 b,       run_trsm,
                                 s,       rhs,
                                 0,       {'L', uplos[x & 1], transes[x >> 1]},
                                 a};
            check_case(&solve);
        }
        free(b);
    }
    free(a);
    /* 1030 in five blocks, 100 right-hand sides: member 0 solves the next
     * block in the update's section once its share holds it, its solve and
     * the members' rates timed from step to step; the last steps share the
     * solve. Lower and upper op(A). */
    const tela_int s5 = 1030, rhs5 = 100;
    double *a5 = random_matrix(s5, s5, s5, 7), *b5 = random_matrix(s5, rhs5, s5, 8);
    for (tela_int i = 0; i < s5; i++)
        a5[i + i * s5] = 4.0 + (double)(i % 7);
    static const char transes5[2] = {'N', 'T'};
    for (int x = 0; x < 2; x++) {
        kernel_case solve = {"dtrsm", (size_t)(s5 * rhs5),     b5, run_trsm, s5, rhs5,
                             0,       {'L', 'L', transes5[x]}, a5};
        check_case(&solve);
    }
    free(a5);
    free(b5);
}

static void test_syrk_both_triangles(void **state)
{
    (void)state;
    /* 203 x 70: the unpacked path, members taking strips; 56 x 40: the same with 'T' too
     * (op(A) transposed once per member, from the first row its columns reach); 290 x 300:
     * packed, members taking column panels balanced by the triangle's elements, two k
     * blocks. */
    static const tela_int shapes[3][2] = {{203, 70}, {56, 40}, {290, 300}};
    for (int s = 0; s < 3; s++) {
        const tela_int n = shapes[s][0], k = shapes[s][1], big = n > k ? n : k;
        double *a = random_matrix(big, big, big, 5), *c = random_matrix(n, n, n, 6);
        static const char flags[4][2] = {{'L', 'N'}, {'L', 'T'}, {'U', 'N'}, {'U', 'T'}};
        for (int f = 0; f < 4; f++) {
            kernel_case kc = {
                "dsyrk", (size_t)(n * n), c, run_syrk, 0, n, k, {flags[f][0], flags[f][1]}, a};
            check_case(&kc);
        }
        free(a);
        free(c);
    }
}

static void test_getrf_square_tall_and_wide(void **state)
{
    (void)state;
    /* 450 x 900: getrf's panels in one region (blocked.c; its chain of panels allows every
     * width tested here); 2000 x 12 and 150 x 400: the recursion, with the panel a region. */
    static const tela_int shapes[][2] = {{450, 900}, {2000, 12}, {150, 400}};
    for (size_t s = 0; s < 3; s++) {
        const tela_int m = shapes[s][0], n = shapes[s][1];
        double *a = random_matrix(m, n, m, 7 + (unsigned)s);
        kernel_case kc = {"dgetrf", (size_t)(m * n), a, run_getrf, m, n, 0, {0}, NULL};
        check_case(&kc);
        free(a);
    }
}

static void test_potrf_both_triangles(void **state)
{
    (void)state;
    const tela_int n = 520; /* potrf gives a member per 128 of the order */
    double *g = random_matrix(n, n, n, 9), *a = malloc(sizeof(double) * (size_t)(n * n));
    assert_non_null(a);
    /* SPD: G G^T + n I. */
    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'T', n, n, n, 1.0, g, n, g, n, 0.0, a, n), 0);
    for (tela_int i = 0; i < n; i++)
        a[i + i * n] += (double)n;
    for (int u = 0; u < 2; u++) {
        kernel_case kc = {"dpotrf", (size_t)(n * n), a, run_potrf, 0, n, 0, {u ? 'U' : 'L'}, NULL};
        check_case(&kc);
    }
    free(g);
    free(a);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--narrow") == 0)
        width_count = 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_all_transposes),
        cmocka_unit_test(test_triangular_chunks_and_recursion),
        cmocka_unit_test(test_trsm_left_in_steps),
        cmocka_unit_test(test_syrk_both_triangles),
        cmocka_unit_test(test_getrf_square_tall_and_wide),
        cmocka_unit_test(test_potrf_both_triangles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
