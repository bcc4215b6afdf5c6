/* test_blocks.c — the GEMM cache blocks derived from cache sizes
 * (src/gemm/select.c): this project's Zen 5, a Haswell-like part, unknown
 * caches, and the blocks of the kernel this CPU runs; the unpacked path's
 * choice where lda puts A's columns into one L1 set (driver.c); the
 * packing buffer every region member holds (par/scratch.c); the edge
 * kernel's masked rows against the whole tile's; the prefetching kernel's tiles and the lines
 * it asks for; the band of a triangle in op(A) (trmm's steps); and the shares of trsm's steps by
 * the members' rates (solve_steps.c). */
#define _GNU_SOURCE
#include "testutil.h"

#include "gemm/gemm.h"
#include "gemm/level3.h"
#include "par/par.h"

#include <float.h>
#include <math.h>

static gemm_kernel kernel_like(int mr, int nr)
{
    gemm_kernel kr = {.name = "test", .mr = mr, .nr = nr, .mc = 111, .kc = 222, .nc = 333};
    return kr;
}

static void test_zen5_caches(void **state)
{
    (void)state;
    /* 48 KiB L1d, 1 MiB L2, 32 MiB L3: a 256 x 12 B panel is 24 KiB, a
     * 192 x 256 A block 384 KiB, a 256 x 1032 B block 2 MiB (the cap, 1024
     * columns rounded up to whole panels), not a quarter of L3. */
    gemm_kernel kr = kernel_like(16, 12);
    gemm_blocks_for(&kr, 48 << 10, 1 << 20, 32 << 20);
    assert_int_equal(kr.kc, 256);
    assert_int_equal(kr.mc, 192);
    assert_int_equal(kr.nc, 1032);
    assert_int_equal(kr.l2, 1 << 20); /* the driver's test for C's tiles from memory */
    /* The socket's L3, as this VM reports it, changes nothing. */
    gemm_kernel vm = kernel_like(16, 12);
    gemm_blocks_for(&vm, 48 << 10, 1 << 20, 532676608L);
    assert_int_equal(vm.nc, 1032);
    /* A small L3: a quarter of it. */
    gemm_blocks_for(&vm, 48 << 10, 1 << 20, 4 << 20);
    assert_int_equal(vm.nc, (4 << 20) / 4 / (256 * 8) / 12 * 12);
}

static void test_xeon_caches(void **state)
{
    (void)state;
    /* 48 KiB L1d, 2 MiB L2, the socket's 260 MiB L3 (Xeon model 207): a 256 x 12 B panel in
     * half of L1, a 400 x 256 A block in 40% of L2; with a kernel that asks for the next B
     * panel as it runs, a 256 x 4092 B block (8 MiB, at most 4096 columns), else 2 MiB. */
    gemm_kernel kr = kernel_like(16, 12);
    kr.spread_requests = true;
    gemm_blocks_for(&kr, 48 << 10, 2 << 20, 260L << 20);
    assert_int_equal(kr.kc, 256);
    assert_int_equal(kr.mc, 400);
    assert_int_equal(kr.nc, 4092);
    gemm_kernel plain = kernel_like(16, 12);
    gemm_blocks_for(&plain, 48 << 10, 2 << 20, 260L << 20);
    assert_int_equal(plain.kc, 256);
    assert_int_equal(plain.mc, 400);
    assert_int_equal(plain.nc, 1032);
}

static void test_block_columns_even(void **state)
{
    (void)state;
    const int nrs[] = {4, 6, 12};
    for (size_t t = 0; t < sizeof nrs / sizeof nrs[0]; t++) {
        gemm_kernel kr = kernel_like(16, nrs[t]);
        kr.nc = 172 * nrs[t];
        const ptrdiff_t nc = kr.nc;
        for (ptrdiff_t n = 1; n <= 9 * nc; n += n < 3 * nc ? 1 : 37) {
            const int block = gemm_block_columns(&kr, n);
            const ptrdiff_t blocks = (n + block - 1) / block;
            if (n <= kr.nc) {
                assert_int_equal(block, n);
                continue;
            }
            assert_true(block <= kr.nc && block % kr.nr == 0);
            /* As few blocks as nc allows, the last short by less than a
             * panel per block. */
            assert_int_equal(blocks, (n + kr.nc - 1) / kr.nc);
            assert_true(n - (blocks - 1) * block > block - blocks * kr.nr);
        }
    }
    gemm_kernel zen5 = kernel_like(16, 12);
    zen5.nc = 1032;
    assert_int_equal(gemm_block_columns(&zen5, 1024), 1024);
    assert_int_equal(gemm_block_columns(&zen5, 2048), 1032); /* 1032 + 1016 */
    /* 696 + 696 + 678, not 1032 + 1032 + 6. */
    assert_int_equal(gemm_block_columns(&zen5, 2070), 696);
    assert_int_equal(gemm_block_columns(&zen5, 3072), 1032); /* 1032 + 1032 + 1008 */
    /* Rows the same way in whole tiles: 1024 rows in 176 x 5 + 144, not 192 x 5 + 64. */
    zen5.mc = 192;
    assert_int_equal(gemm_block_rows(&zen5, 192), 192);
    assert_int_equal(gemm_block_rows(&zen5, 100), 100);
    assert_int_equal(gemm_block_rows(&zen5, 1024), 176);
    assert_int_equal(gemm_block_rows(&zen5, 2048), 192); /* 192 x 10 + 128 */
    for (ptrdiff_t m = 193; m <= 4000; m += 7) {
        const int rows = gemm_block_rows(&zen5, m);
        const ptrdiff_t blocks = (m + rows - 1) / rows;
        assert_true(rows <= 192 && rows % 16 == 0);
        assert_int_equal(blocks, (m + 191) / 192);
    }
    /* Columns in blocks of at most mc where A is one block (driver.c). */
    assert_int_equal(gemm_block_columns_of(&zen5, 2070, 192), 192); /* 192 x 10 + 150 */
    assert_int_equal(gemm_block_columns_of(&zen5, 200, 192), 108);  /* 108 + 92 */
    assert_int_equal(gemm_block_columns_of(&zen5, 100, 5), 12);     /* at least a panel */
    /* Half blocks where the next block's source is asked for meanwhile (driver.c). */
    assert_int_equal(gemm_block_rows_of(&zen5, 2000, 96), 96); /* 96 x 20 + 80 */
    assert_int_equal(gemm_block_rows_of(&zen5, 1024, 96), 96); /* 96 x 10 + 64 */
    assert_int_equal(gemm_block_rows_of(&zen5, 100, 96), 64);  /* 64 + 36, not 96 + 4 */
    assert_int_equal(gemm_block_rows_of(&zen5, 100, 8), 16);   /* at least a tile */
    /* Depths likewise in steps of 8: 384 in 192 + 192, not 256 + 128. */
    zen5.kc = 256;
    assert_int_equal(gemm_block_depth(&zen5, 256), 256);
    assert_int_equal(gemm_block_depth(&zen5, 100), 100);
    assert_int_equal(gemm_block_depth(&zen5, 384), 192);
    assert_int_equal(gemm_block_depth(&zen5, 300), 152); /* 152 + 148 */
    assert_int_equal(gemm_block_depth(&zen5, 1024), 256);
    for (ptrdiff_t k = 257; k <= 4000; k += 3) {
        const int depth = gemm_block_depth(&zen5, k);
        const ptrdiff_t blocks = (k + depth - 1) / depth;
        assert_true(depth <= 256 && depth % 8 == 0);
        assert_int_equal(blocks, (k + 255) / 256);
        assert_true(k - (blocks - 1) * depth > 0);
    }
}

static void test_haswell_caches(void **state)
{
    (void)state;
    /* 32 KiB L1d, 256 KiB L2, 8 MiB L3 with the 8 x 6 AVX2 kernel. */
    gemm_kernel kr = kernel_like(8, 6);
    gemm_blocks_for(&kr, 32 << 10, 256 << 10, 8 << 20);
    assert_int_equal(kr.kc, 256);  /* 32768 / 2 / 48 = 341, at most GEMM_KC_MAX */
    assert_int_equal(kr.mc, 48);   /* 40% of L2 / (256 * 8) = 51, down to a multiple of 8 */
    assert_int_equal(kr.nc, 1020); /* a quarter of L3 / (256 * 8) = 1024, whole panels of 6 */
    /* The Xeon's 48 KiB L1d would give 512 steps of 6 columns; the cap keeps 256. */
    gemm_kernel xeon = kernel_like(8, 6);
    gemm_blocks_for(&xeon, 48 << 10, 2 << 20, 260L << 20);
    assert_int_equal(xeon.kc, 256);
    assert_int_equal(xeon.mc, 408); /* 40% of 2 MiB / (256 * 8) = 409 */
    assert_int_equal(kr.kc % 8, 0);
}

static void test_unknown_caches_keep_blocks(void **state)
{
    (void)state;
    gemm_kernel kr = kernel_like(16, 12);
    gemm_blocks_for(&kr, -1, 0, -1);
    assert_int_equal(kr.kc, 222);
    assert_int_equal(kr.mc, 111);
    assert_int_equal(kr.nc, 333);
    assert_int_equal(kr.l2, 0); /* unknown: the driver estimates it from mc x kc */
    /* Only an L2: L3 taken as 4 x L2. */
    gemm_blocks_for(&kr, -1, 1 << 20, -1);
    assert_int_equal(kr.l2, 1 << 20);
    assert_int_equal(kr.mc, (int)((1 << 20) * 2 / 5 / (222 * 8) / 16 * 16));
    assert_int_equal(kr.nc, (int)((4 << 20) / 4 / (222 * 8) / 12 * 12));
}

static void test_running_kernel_blocks_fit(void **state)
{
    (void)state;
    const gemm_kernel *kr = gemm_kernel_get();
    assert_non_null(kr);
    assert_true(kr->kc >= 64 && kr->kc <= GEMM_KC_MAX && kr->kc % 8 == 0);
    assert_true(kr->mc >= kr->mr && kr->mc % kr->mr == 0);
    assert_true(kr->nc >= 16 * kr->nr && kr->nc % kr->nr == 0 && kr->nc <= 4096);
    /* The B block within the cap, give or take the rounding up to a panel. */
    const long column = kr->kc * (long)sizeof(double);
    const long most = kr->spread_requests ? GEMM_B_BLOCK_BYTES_SPREAD : GEMM_B_BLOCK_BYTES;
    assert_true(kr->nc * column < most + kr->nr * column);
}

static bool unpacked_part(const gemm_kernel *kr, gemm_part part, bool ta, bool tb, ptrdiff_t m,
                          ptrdiff_t n, ptrdiff_t k, ptrdiff_t lda, ptrdiff_t ldb)
{
    static double dummy;
    const gemm_problem pr = {.kernel = kr,
                             .a = {&dummy, lda, ta},
                             .b = {&dummy, ldb, tb},
                             .c = &dummy,
                             .ldc = m,
                             .m = m,
                             .n = n,
                             .k = k,
                             .alpha = -1.0,
                             .beta = 1.0,
                             .part = part};
    return gemm_prefers_unpacked(&pr);
}

static bool unpacked_op(const gemm_kernel *kr, bool ta, bool tb, ptrdiff_t m, ptrdiff_t n,
                        ptrdiff_t k, ptrdiff_t lda, ptrdiff_t ldb)
{
    return unpacked_part(kr, GEMM_ALL, ta, tb, m, n, k, lda, ldb);
}

static bool unpacked(const gemm_kernel *kr, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k, ptrdiff_t lda)
{
    return unpacked_op(kr, false, false, m, n, k, lda, k);
}

static void expect_grid(int width, ptrdiff_t m_tiles, int n_panels, int wm, int wn)
{
    int rows = 0, cols = 0;
    gemm_split_grid(width, m_tiles, n_panels, 16, 12, &rows, &cols);
    if (rows != wm || cols != wn)
        fail_msg("width %d, %td tiles x %d panels: grid %d x %d, expected %d x %d", width, m_tiles,
                 n_panels, rows, cols, wm, wn);
}

static void test_member_grids(void **state)
{
    (void)state;
    expect_grid(1, 16, 22, 1, 1);
    /* Two members: columns only at equal shares (256^2: 16 tiles x 22 panels) and up to 1/32
     * more tiles (512^2: 32 x 22 against 16 x 43, 2.3% more); rows where columns cost 5% more
     * (2000 x 200: 125 x 9 against 63 x 17) or cannot be split (one panel). */
    expect_grid(2, 16, 22, 1, 2);
    expect_grid(2, 32, 43, 1, 2);
    expect_grid(2, 125, 17, 2, 1);
    expect_grid(2, 40, 1, 2, 1);
    /* Up to 1/24 more where rows would leave each member under 4 KiB of a column: 320^2 (20 x
     * 27, 3.7% more, 160 rows a member) and 640 x 324 (40 x 27) columns; 480 x 252 (30 x 21,
     * 4.8% more) rows; 2000 x 200 above (1000 rows a member, 5% more) rows. */
    expect_grid(2, 20, 27, 1, 2);
    expect_grid(2, 40, 27, 1, 2);
    expect_grid(2, 30, 21, 2, 1);
    /* Rows where columns only would leave each member at most 4 panels of a B at least 4 times
     * narrower than C is tall: 2000 x 64 (125 tiles x 6 panels; columns 375 tiles, rows 378)
     * and 2000 x 16 (125 x 2); columns still at 192 x 64 (12 x 6: B not narrow enough), and
     * where the shares are wider (2000 x 256: 125 x 22, 11 panels each). */
    expect_grid(2, 125, 6, 2, 1);
    expect_grid(2, 125, 2, 2, 1);
    expect_grid(2, 12, 6, 1, 2);
    expect_grid(2, 125, 22, 1, 2);
    /* Four on 2048^2 (128 x 171): columns 0.6% over rows only. Three on two panels: rows. */
    expect_grid(4, 128, 171, 1, 4);
    expect_grid(3, 50, 2, 3, 1);
    /* 64 on 2048^2 (one block of 86 panels): columns only would be 256 tiles against 172, so
     * the smallest share, on a tie the most rows. */
    expect_grid(64, 128, 86, 64, 1);
    /* 16 on 64 tiles x 43 panels: 16 x 1 (4 x 43 = 172 tiles) against 4 x 4 and 8 x 2 (176) and
     * columns only (64 x 3 = 192). */
    expect_grid(16, 64, 43, 16, 1);
}

static void test_unpacked_path_and_lda(void **state)
{
    (void)state;
    const gemm_kernel *avx512 = gemm_kernel_by_name("avx512");
    if (!avx512 || !avx512->unpacked_fast)
        skip(); /* the choice exists for the AVX-512 small path only */
    if (!avx512)
        return; /* (skip does not return) */
    /* The bounds below were measured with a 1 MiB L2 (Zen 5); whatever this machine's L2, the
     * set is told that one. With 2 MiB (the Xeon) A may take twice as much in place, not A^T's
     * copy (each member copies it). */
    gemm_kernel one_mib = *avx512, two_mib = *avx512;
    one_mib.l2 = 1 << 20;
    two_mib.l2 = 2 << 20;
    const gemm_kernel *kr = &one_mib;
    assert_true(unpacked(&two_mib, 320, 320, 320, 320));
    assert_false(unpacked(kr, 320, 320, 320, 320));
    assert_true(unpacked(&two_mib, 2000, 2000, 64, 2000));
    assert_false(unpacked(&two_mib, 400, 400, 400, 400));
    assert_false(unpacked_op(&two_mib, true, false, 300, 300, 300, 300, 300));
    assert_true(unpacked_op(&two_mib, true, false, 256, 256, 256, 256, 256));
    gemm_kernel unknown = *avx512;
    unknown.l2 = 0; /* half of 1 MiB */
    assert_false(unpacked(&unknown, 320, 320, 320, 320));
    assert_true(unpacked(&unknown, 256, 256, 256, 256));
    /* 256 x 256 x 32: unpacked at lda = 520 (columns spread over L1's sets), packed at 512,
     * 1024 and 2048 (all 32 columns in one set). */
    assert_true(unpacked(kr, 256, 256, 32, 520));
    assert_false(unpacked(kr, 256, 256, 32, 512));
    assert_false(unpacked(kr, 256, 256, 32, 1024));
    assert_false(unpacked(kr, 256, 256, 32, 2048));
    /* Columns spread over 2, 4 or 8 sets (lda 256, 128, 192; 1.06-1.10x packing on one thread,
     * 1.12-1.6x on two), few columns of C, or tiny products keep the unpacked path. */
    assert_true(unpacked(kr, 256, 256, 16, 256));
    assert_true(unpacked(kr, 256, 256, 256, 256));
    assert_true(unpacked(kr, 128, 128, 128, 128));
    assert_true(unpacked(kr, 192, 192, 192, 192));
    assert_false(unpacked(kr, 256, 256, 64, 512));
    assert_false(unpacked(kr, 128, 256, 128, 2048));
    /* op(A) = A, A (m x k) in half of L2 decides whatever n: 16 x 4000 x 4000, 64 x 4000 x
     * 1000 and 1000 x 1000 x 16 unpacked, 2000 x 2000 x 64 (A 1 MB) packed; op(B) = B^T as well
     * up to k = 256 (its rows of a tile in L1), not at 64 x 4000 x 1000. */
    assert_true(unpacked(kr, 16, 4000, 4000, 16));
    assert_true(unpacked(kr, 64, 4000, 1000, 64));
    assert_true(unpacked(kr, 1000, 1000, 16, 1000));
    assert_false(unpacked(kr, 2000, 2000, 64, 2000));
    assert_true(unpacked_op(kr, false, true, 1000, 1000, 16, 1000, 1000));
    assert_true(unpacked_op(kr, false, true, 256, 2000, 256, 256, 2000));
    assert_false(unpacked_op(kr, false, true, 64, 4000, 1000, 64, 4000));
    assert_false(unpacked_op(kr, false, true, 16, 2000, 2000, 16, 2000));
    assert_true(unpacked(kr, 256, 48, 32, 512));
    assert_true(unpacked(kr, 16, 16, 16, 512));
    /* op(A) = A^T alone: on the stack transpose up to 64 x 64, beyond it on a copy of A^T (ld m)
     * made first, within the same bound as A itself; with op(B) = B^T too, C^T = B A reads both
     * in place and B (n x k) is the re-read operand, so its leading dimension decides. */
    assert_true(unpacked_op(kr, true, false, 64, 200, 64, 64, 64));
    assert_true(unpacked_op(kr, true, false, 128, 128, 128, 128, 128));
    assert_true(unpacked_op(kr, true, false, 16, 4000, 4000, 4000, 4000));
    assert_false(unpacked_op(kr, true, false, 300, 300, 300, 300, 300));
    assert_false(unpacked_op(kr, true, false, 512, 256, 64, 64, 64)); /* A^T's copy: ld 512 */
    assert_true(unpacked_op(kr, true, true, 128, 128, 128, 130, 130));
    assert_true(unpacked_op(kr, true, true, 256, 256, 32, 512, 520));
    assert_false(unpacked_op(kr, true, true, 256, 256, 32, 520, 512));
    assert_false(unpacked_op(kr, true, true, 512, 512, 512, 520, 520));
}

/* The AVX2 set's unpacked path has tiles of 6 columns (re-reading A twice as often as AVX-512's
 * 12): A in a quarter of L2; past 256 columns of C only a thin A (m or k <= 64); op(A) = A^T only
 * within the small path's stack copy (driver.c, measured with a 2 MiB L2). */
static void test_unpacked_path_narrow_tiles(void **state)
{
    (void)state;
    const gemm_kernel *avx2 = gemm_kernel_by_name("avx2");
    if (!avx2)
        skip();
    if (!avx2)
        return; /* (skip does not return) */
    assert_true(avx2->unpacked_fast && avx2->unpacked_narrow_tiles);
    gemm_kernel two_mib = *avx2, one_mib = *avx2, unknown = *avx2;
    two_mib.l2 = 2 << 20;
    one_mib.l2 = 1 << 20;
    unknown.l2 = 0;
    const gemm_kernel *kr = &two_mib;
    assert_true(unpacked(kr, 192, 192, 192, 192));
    assert_true(unpacked(kr, 256, 256, 256, 256));
    assert_false(unpacked(&one_mib, 192, 192, 192, 192)); /* A 36864 > 32768 doubles */
    assert_false(unpacked(&unknown, 192, 192, 192, 192));
    assert_true(unpacked(&unknown, 128, 128, 128, 128));
    /* Past 256 columns: thin A only (16 x 4000 x 4000 1.67x, 512 x 512 x 64 1.21x packing),
     * not 128 x 2000 x 256 (0.94x) or 256 x 2000 x 256 (0.95x). */
    assert_true(unpacked(kr, 16, 4000, 4000, 16));
    assert_true(unpacked(kr, 512, 512, 64, 520));
    assert_false(unpacked(kr, 128, 2000, 256, 128));
    assert_false(unpacked(kr, 256, 2000, 256, 256));
    assert_false(unpacked(kr, 2000, 2000, 64, 2000)); /* A past a quarter of L2 */
    /* op(A) = A^T: on the stack copy (m k <= 4096), else packed, alone or with op(B) = B^T. */
    assert_true(unpacked_op(kr, true, false, 64, 64, 64, 64, 64));
    assert_false(unpacked_op(kr, true, false, 128, 128, 128, 128, 128));
    assert_true(unpacked_op(kr, true, true, 64, 64, 64, 64, 64));
    assert_false(unpacked_op(kr, true, true, 128, 128, 128, 130, 130));
    /* A triangle (syrk, syr2k: strips of 8 columns, tiles of 4 + 4) only with A in L1. */
    assert_true(unpacked_part(kr, GEMM_LOWER, false, true, 64, 64, 64, 64, 64));
    assert_false(unpacked_part(kr, GEMM_LOWER, false, true, 128, 128, 128, 128, 128));
    assert_false(unpacked_part(kr, GEMM_UPPER, false, true, 1000, 1000, 32, 1000, 1000));
    assert_true(unpacked_part(&two_mib, GEMM_ALL, false, false, 1000, 1000, 32, 1000, 32));
    /* The AVX-512 set keeps its rules. */
    const gemm_kernel *avx512 = gemm_kernel_by_name("avx512");
    if (avx512)
        assert_false(avx512->unpacked_narrow_tiles);
}

/* Counts the members of a region whose thread lacks a kept buffer for the
 * largest serial GEMM (inside a region none can be allocated: a serial
 * kernel there would take the unpacked way, at half speed). */
static void count_members_without_buffer(tela_member *self, void *arg)
{
    (void)self;
    atomic_int *missing = arg;
    const ptrdiff_t any = (ptrdiff_t)1 << 30;
    const size_t bytes = gemm_serial_buffer_len(gemm_kernel_get(), any, any, any) * sizeof(double);
    bool owned = false;
    void *buf = par_scratch_thread(PAR_SCRATCH_PACK, bytes, &owned);
    if (!buf || owned)
        atomic_fetch_add(missing, 1);
    par_scratch_release(buf, owned);
}

typedef struct fresh_caller_job {
    tela_pool *pool;
    atomic_int missing;
    int used_seq, used_pool;
} fresh_caller_job;

/* A thread that never called tela before: its first regions, serial and on
 * the pool. */
static void *fresh_caller(void *arg)
{
    fresh_caller_job *job = arg;
    job->used_seq = tela_parallel(tela_par_seq(), 0, count_members_without_buffer, &job->missing);
    job->used_pool =
        tela_parallel(tela_par_pool(job->pool), 0, count_members_without_buffer, &job->missing);
    return NULL;
}

static void test_region_members_hold_a_buffer(void **state)
{
    (void)state;
    fresh_caller_job job = {.pool = tu_pool_of_width(4)};
    assert_non_null(job.pool);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, fresh_caller, &job), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);
    assert_int_equal(job.used_seq, 1);
    assert_int_equal(job.used_pool, 4);
    assert_int_equal(atomic_load(&job.missing), 0);
    tela_pool_destroy(job.pool);
}

/* The edge kernel writes exactly the rows its masks name, each with the bits the whole tile
 * gives it (beta 0: the tile's; beta 1: C + tile; else the kernel's own beta * C + tile, the
 * same single rounding, as a whole tile with that beta writes), reads C only there (beta 0
 * overwrites NaN, beta 1 keeps it local to its element), and leaves every other element of C,
 * in the tile and around it, as it was. */
/* Packed A and B panels of kc steps for the widest tiles, uniform in [-0.5, 0.5), from srand(seed)
 * (free both). */
static void random_panels(int kc, unsigned seed, double **a, double **b)
{
    *a = aligned_alloc(64, sizeof(double) * (size_t)kc * GEMM_MR_MAX);
    *b = aligned_alloc(64, sizeof(double) * (size_t)kc * GEMM_NR_MAX);
    assert_non_null(*a);
    assert_non_null(*b);
    srand(seed);
    for (int i = 0; i < kc * GEMM_MR_MAX; i++)
        (*a)[i] = (double)rand() / RAND_MAX - 0.5;
    for (int i = 0; i < kc * GEMM_NR_MAX; i++)
        (*b)[i] = (double)rand() / RAND_MAX - 0.5;
}

/* Every mask of kr's edge kernel against its whole tile, bit for bit. */
static void check_edge_kernel_masks(const gemm_kernel *kr)
{
    enum { KC = 300, LDC = GEMM_MR_MAX + 5, COLS = GEMM_NR_MAX + 1 }; /* tile columns 1 .. nr */
    double *a, *b;
    random_panels(KC, 7, &a, &b);
    double start[LDC * COLS], c[LDC * COLS], whole[LDC * COLS];
    static const double betas[] = {0.0, 1.0, -0.75};
    for (int trial = 0; trial < 400; trial++) {
        const int kc = 1 + rand() % KC, cols = 1 + rand() % kr->nr;
        const double beta = betas[trial % 3];
        uint16_t rows[GEMM_NR_MAX];
        for (int j = 0; j < cols; j++) {
            /* A run of rows (all kinds: empty, whole, a diagonal's), or any rows at all. */
            const int from = rand() % (kr->mr + 1), to = from + rand() % (kr->mr - from + 1);
            rows[j] = trial % 4 == 3 ? (uint16_t)(rand() & ((1 << kr->mr) - 1))
                                     : (uint16_t)((1u << to) - (1u << from));
        }
        for (int i = 0; i < LDC * COLS; i++)
            start[i] = i % 29 == 5 ? NAN : (double)rand() / RAND_MAX;
        memcpy(c, start, sizeof c);
        memcpy(whole, start, sizeof whole);
        /* Offset by one row and one column: nothing before the tile may change either. */
        kr->edge(kc, a, b, c + 1 + LDC, LDC, beta, cols, rows);
        kr->ukernel(kc, a, b, whole + 1 + LDC, LDC, beta);
        for (int j = 0; j < COLS; j++) {
            for (int i = 0; i < LDC; i++) {
                const int ti = i - 1, tj = j - 1;
                const bool inside =
                    ti >= 0 && ti < kr->mr && tj >= 0 && tj < cols && (rows[tj] >> ti & 1);
                const double want = inside ? whole[i + j * LDC] : start[i + j * LDC];
                const double got = c[i + j * LDC];
                if (!tu_same_bits(got, want) && !(isnan(got) && isnan(want)))
                    fail_msg("kc %d, beta %g, %d columns, element (%d, %d) %s: %g, want %g", kc,
                             beta, cols, ti, tj, inside ? "inside" : "outside", got, want);
            }
        }
    }
    free(a);
    free(b);
}

static void test_edge_kernel_masks(void **state)
{
    (void)state;
    bool any = false;
    static const char *const sets[] = {"avx512", "avx2"};
    for (size_t q = 0; q < sizeof sets / sizeof sets[0]; q++) {
        const gemm_kernel *kr = gemm_kernel_by_name(sets[q]);
        if (kr && kr->edge) {
            check_edge_kernel_masks(kr);
            any = true;
        }
    }
    if (!any)
        skip(); /* this CPU's kernels compute edges as whole tiles, into a buffer */
}

/* Lines of a run of seg bytes from address `at`. */
static ptrdiff_t lines_of(uintptr_t at, ptrdiff_t seg)
{
    return (ptrdiff_t)(((at + (uintptr_t)seg - 1) >> 6) - (at >> 6)) + 1;
}

/* The kernel that asks for the next A block's lines computes the tile the plain kernel computes,
 * bit for bit, and its cursor steps through every line of the region once, a line every `every`
 * steps, runs misaligned or not, then stops; asking as well for its C tile and for lines of a
 * next B panel (any count, any kc) changes neither the sums nor the cursor. */
static void test_prefetch_kernel(void **state)
{
    (void)state;
    const gemm_kernel *kr = gemm_kernel_get();
    if (!kr->ukernel_prefetch)
        skip(); /* this CPU's kernel set asks for nothing */
    enum { KC = 300, LDC = GEMM_MR_MAX + 3, RUNS = 40, LD = 1003 };
    double *a, *b, *region = malloc(sizeof(double) * RUNS * LD);
    double *b_next = malloc(sizeof(double) * KC * GEMM_NR_MAX);
    assert_non_null(region);
    assert_non_null(b_next);
    random_panels(KC, 11, &a, &b);
    static const double betas[] = {0.0, 1.0, -0.75};
    for (int trial = 0; trial < 60; trial++) {
        const int kc = 1 + rand() % KC, every = trial % 3 == 0 ? 1 : 1 + rand() % kc;
        const double beta = betas[trial % 3];
        /* Runs of 1 .. 300 doubles from any double of the region's first column, LD apart:
         * 8 bytes off a line in most, their lines counted from their own addresses. */
        const ptrdiff_t seg = (ptrdiff_t)sizeof(double) * (1 + rand() % 300);
        const double *origin = region + rand() % 8;
        ptrdiff_t total = 0;
        for (int r = 0; r < RUNS; r++)
            total += lines_of((uintptr_t)(origin + (ptrdiff_t)r * LD), seg);
        gemm_prefetch pf = {.run = (const char *)origin,
                            .seg = seg,
                            .ld = (ptrdiff_t)sizeof(double) * LD,
                            .runs_left = RUNS - 1};
        pf.line = pf.run - ((uintptr_t)pf.run & 63);
        pf.end = pf.run + seg - 1;
        double c[LDC * GEMM_NR_MAX], plain[LDC * GEMM_NR_MAX];
        for (int i = 0; i < LDC * GEMM_NR_MAX; i++)
            c[i] = plain[i] = (double)rand() / RAND_MAX;
        const ptrdiff_t per_call = kc / every; /* a line at every every-th step */
        /* C's tile and up to a whole next B panel asked for in two trials of three. */
        const bool more = trial % 3 != 2;
        const gemm_requests rq = {&pf, every, more ? c : NULL, more ? (const char *)b_next : NULL,
                                  rand() % (1 + kc * GEMM_NR_MAX / 8)};
        ptrdiff_t asked = 0;
        for (int call = 0; pf.runs_left >= 0; call++) {
            assert_true(call <= total); /* bounded: each call asks for at least one line */
            kr->ukernel_prefetch(kc, a, b, c, LDC, beta, &rq);
            kr->ukernel(kc, a, b, plain, LDC, beta);
            asked += per_call;
            for (int i = 0; i < LDC * GEMM_NR_MAX; i++)
                if (!tu_same_bits(c[i], plain[i]))
                    fail_msg("kc %d, beta %g, every %d: the tile differs", kc, beta, every);
            if (pf.runs_left >= 0) {
                /* Still inside the region: in the run, on a line boundary, and as far along
                 * as the lines asked for so far put it. */
                const ptrdiff_t r = RUNS - 1 - pf.runs_left;
                const char *run = (const char *)(origin + r * LD);
                assert_ptr_equal(pf.run, run);
                assert_true(pf.line >= run - ((uintptr_t)run & 63));
                assert_true(pf.line <= pf.end && pf.end == run + seg - 1);
                assert_int_equal((uintptr_t)pf.line % 64, 0);
                ptrdiff_t before = 0;
                for (int q = 0; q < r; q++)
                    before += lines_of((uintptr_t)(origin + (ptrdiff_t)q * LD), seg);
                before +=
                    (ptrdiff_t)(((uintptr_t)pf.line - ((uintptr_t)run & ~(uintptr_t)63)) / 64);
                assert_int_equal(before, asked);
            } else {
                assert_true(asked >= total && asked - per_call < total);
            }
        }
    }
    free(b_next);
    free(a);
    free(b);
    free(region);
}

/* The steps' shares by rate: every member's share computed apart must cover
 * [0, count) once in rank order (a gap leaves rows unsolved, an overlap
 * updates them twice), follow the rates to within one unit, and be even
 * while any rate is unmeasured. */
/* The loops around the kernel compute the same bits whether C's tiles and the next B panels are
 * asked for by the kernel over its steps (spread_requests: Intel) or C in a burst before each
 * call (elsewhere): both ways on this CPU, with C taken as coming from memory in every block
 * (l2 of one page), packed (packed_only), one and two k blocks, a k block too short to spread
 * C over (k = 20), rows past one A block (the next block's source asked for too), serial and
 * on a pool of 2. */
static void test_spread_requests_same_bits(void **state)
{
    (void)state;
    const gemm_kernel *chosen = gemm_kernel_get();
    if (!chosen->ukernel_prefetch)
        skip(); /* this CPU's kernel set asks for nothing */
    gemm_kernel spread = *chosen, burst = *chosen;
    spread.spread_requests = true;
    burst.spread_requests = false;
    spread.l2 = burst.l2 = 4096;
    spread.packed_only = burst.packed_only = true;
    static const ptrdiff_t shapes[][3] = {{421, 150, 301}, {37, 100, 20}, {842, 49, 513}};
    const ptrdiff_t ld = 845;
    double *a = tu_random_array((size_t)(ld * 513), 31),
           *b = tu_random_array((size_t)(ld * 513), 32);
    double *c0 = tu_random_array((size_t)(ld * 150), 33);
    double *c_spread = malloc(sizeof(double) * (size_t)(ld * 150));
    double *c_burst = malloc(sizeof(double) * (size_t)(ld * 150));
    assert_non_null(c_spread);
    assert_non_null(c_burst);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const ptrdiff_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        for (int wide = 0; wide < 2; wide++) {
            const tela_par par = wide ? tela_par_pool(pool) : tela_par_seq();
            memcpy(c_spread, c0, sizeof(double) * (size_t)(ld * n));
            memcpy(c_burst, c0, sizeof(double) * (size_t)(ld * n));
            gemm_problem pr = {&spread, {a, ld, false}, {b, ld, false}, c_spread, ld,   m,   n, k,
                               0.75,    -0.5,           GEMM_ALL,       false,    NULL, NULL};
            gemm_run(par, &pr, "test");
            pr.kernel = &burst;
            pr.c = c_burst;
            gemm_run(par, &pr, "test");
            if (memcmp(c_spread, c_burst, sizeof(double) * (size_t)(ld * n)) != 0)
                fail_msg("%td x %td x %td %s: spread and burst requests differ", m, n, k,
                         wide ? "width 2" : "serial");
        }
    }
    tela_pool_destroy(pool);
    free(c_burst);
    free(c_spread);
    free(c0);
    free(b);
    free(a);
}

/* C's rows [at, at + k) of a band product (gemm_band) in long double: each row's reached steps of
 * op(A)'s triangle (ones on a unit diagonal) times alpha, C's old value not read; other rows
 * beta C + alpha A B. mag: the sums of magnitudes, for the tolerance. */
static void band_reference(const gemm_problem *pr, const double *c0, long double *want,
                           long double *mag)
{
    const gemm_band *band = pr->band;
    for (ptrdiff_t j = 0; j < pr->n; j++)
        for (ptrdiff_t i = 0; i < pr->m; i++) {
            const ptrdiff_t row = i - band->at;
            const bool in = row >= 0 && row < pr->k;
            long double sum = 0, abs_sum = 0;
            for (ptrdiff_t p = 0; p < pr->k; p++) {
                if (in && (band->lower ? p > row : p < row))
                    continue;
                const double a = in && band->unit && p == row ? 1.0 : gemm_at(&pr->a, i, p);
                const long double t = (long double)a * gemm_at(&pr->b, p, j);
                sum += t;
                abs_sum += fabsl(t);
            }
            const double old = c0[i + j * pr->ldc];
            want[i + j * pr->m] = pr->alpha * sum + (in ? 0.0L : (long double)pr->beta * old);
            mag[i + j * pr->m] = fabsl((long double)pr->alpha) * abs_sum +
                                 (in ? 0.0L : fabsl((long double)pr->beta * old));
        }
}

/* The driver's band (trmm's steps, multiply_steps.c): lower and upper, unit or not; the band
 * ending at C's last row (an edge tile in it), with rows above or below it, and alone; A's
 * entries beyond the triangle NaN, C's band rows NaN (written, not read). On the chosen kernel
 * set (one k block) and on one with small blocks (kc 40: band tiles whose steps run over two and
 * three k blocks, several A blocks and B blocks); serially and on pools of 2 and 3, which must
 * agree bit for bit. */
static void test_band_products(void **state)
{
    (void)state;
    gemm_kernel whole = *gemm_kernel_get(), small = whole;
    whole.packed_only = small.packed_only = true;
    const ptrdiff_t mr = whole.mr, nr = whole.nr;
    small.kc = 40;
    small.mc = 2 * mr;
    small.nc = 3 * nr;
    /* {at, k, rows below the band} */
    const ptrdiff_t shapes[][3] = {
        {2 * mr, 3 * mr + 5, 0}, {mr, 4 * mr, 2 * mr + 3}, {0, 2 * mr, 0}, {0, 5 * mr, 7}};
    const ptrdiff_t n = 3 * nr + 5, ld = 9 * mr + 11;
    tela_pool *pools[2] = {tu_pool_of_width(2), tu_pool_of_width(3)};
    assert_non_null(pools[0]);
    assert_non_null(pools[1]);
    double *a = tu_random_array((size_t)(ld * ld), 41), *b = tu_random_array((size_t)(ld * n), 42);
    double *c_init = tu_random_array((size_t)(ld * n), 43);
    /* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI): ld, n >= 5 */
    double *c0 = malloc(sizeof(double) * (size_t)(ld * n)),
           *c = malloc(sizeof(double) * (size_t)(ld * n));
    double *first = malloc(sizeof(double) * (size_t)(ld * n));
    long double *want = malloc(sizeof(long double) * (size_t)(ld * n));
    long double *mag = malloc(sizeof(long double) * (size_t)(ld * n));
    assert_non_null(c0);
    assert_non_null(c);
    assert_non_null(first);
    assert_non_null(want);
    assert_non_null(mag);
    const gemm_kernel *sets[2] = {&whole, &small};
    for (int set = 0; set < 2; set++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int form = 0; form < 4; form++) {
                const bool lower = form & 1, unit = form & 2;
                const ptrdiff_t at = shapes[s][0], k = shapes[s][1], m = at + k + shapes[s][2];
                const gemm_band band = {at, lower, unit};
                /* A's entries the band never uses, NaN; C's band rows NaN. */
                double *a_nan = malloc(sizeof(double) * (size_t)(ld * k));
                assert_non_null(a_nan);
                memcpy(a_nan, a, sizeof(double) * (size_t)(ld * k));
                for (ptrdiff_t p = 0; p < k; p++)
                    for (ptrdiff_t r = 0; r < k; r++)
                        if (lower ? p > r : p < r)
                            a_nan[at + r + p * ld] = NAN;
                memcpy(c0, c_init, sizeof(double) * (size_t)(ld * n));
                for (ptrdiff_t j = 0; j < n; j++)
                    for (ptrdiff_t r = 0; r < k; r++)
                        c0[at + r + j * ld] = NAN;
                const gemm_problem pr = {.kernel = sets[set],
                                         .a = {a_nan, ld, false},
                                         .b = {b, ld, false},
                                         .c = c,
                                         .ldc = ld,
                                         .m = m,
                                         .n = n,
                                         .k = k,
                                         .alpha = 0.75,
                                         .beta = 0.5,
                                         .part = GEMM_ALL,
                                         .band = &band};
                band_reference(&pr, c0, want, mag);
                for (int w = 0; w < 3; w++) {
                    memcpy(c, c0, sizeof(double) * (size_t)(ld * n));
                    gemm_run(w ? tela_par_pool(pools[w - 1]) : tela_par_seq(), &pr, "test");
                    for (ptrdiff_t j = 0; j < n; j++)
                        for (ptrdiff_t i = 0; i < m; i++) {
                            const double got = c[i + j * ld];
                            const double tol =
                                4.0 * (double)(k + 2) * DBL_EPSILON * (double)mag[i + j * m];
                            if (!(fabs(got - (double)want[i + j * m]) <= tol))
                                fail_msg("band at %td k %td m %td %s%s set %d width %d: C(%td, "
                                         "%td) = %.17g, want %.17g",
                                         at, k, m, lower ? "lower" : "upper", unit ? " unit" : "",
                                         set, w + 1, i, j, got, (double)want[i + j * m]);
                        }
                    if (w == 0)
                        memcpy(first, c, sizeof(double) * (size_t)(ld * n));
                    else if (memcmp(first, c, sizeof(double) * (size_t)(ld * n)) != 0)
                        fail_msg("band at %td k %td: width %d differs from serial", at, k, w + 1);
                }
                free(a_nan);
            }
    tela_pool_destroy(pools[0]);
    tela_pool_destroy(pools[1]);
    free(mag);
    free(want);
    free(first);
    free(c);
    free(c0);
    free(c_init);
    free(b);
    free(a);
}

static void test_shares_by_speed(void **state)
{
    (void)state;
    srand(11);
    const tela_int counts[] = {0, 1, 7, 16, 113, 4096};
    for (int w = 1; w <= 16; w++) {
        double speeds[16];
        for (int trial = 0; trial < 50; trial++) {
            double total = 0.0;
            for (int i = 0; i < w; i++) {
                /* Rates of 1e-4 .. 1e-2 tiles per ns, some far apart. */
                speeds[i] = 1e-4 * (1.0 + 99.0 * rand() / RAND_MAX);
                total += speeds[i];
            }
            const bool unmeasured = trial % 5 == 0;
            if (unmeasured)
                speeds[rand() % w] = 0.0;
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                tela_int expect_from = 0;
                for (int r = 0; r < w; r++) {
                    tela_int from, to;
                    level3_share_by_speed(speeds, counts[c], r, w, &from, &to);
                    assert_int_equal(from, expect_from);
                    assert_true(to >= from);
                    if (unmeasured) {
                        assert_int_equal(from, counts[c] * r / w);
                    } else {
                        const double fair = (double)counts[c] * speeds[r] / total;
                        assert_true(fabs((double)(to - from) - fair) <= 1.0 + 1e-9);
                    }
                    expect_from = to;
                }
                assert_int_equal(expect_from, counts[c]);
            }
        }
    }
    tela_int from, to;
    level3_share_by_speed(NULL, 10, 1, 3, &from, &to);
    assert_int_equal(from, 3);
    assert_int_equal(to, 6);
}

/* gemm_sym_expand_columns on column ranges of every kind (from 0, inside, to the end, across
 * the 8-column strips or within one, a single column) of a symmetric matrix stored in either
 * triangle, the other NaN: each column of S exactly, read only from the stored triangle, and
 * the rows past the order in out (ld > order) left as they were. By every kernel set the CPU
 * runs: each has its own transposer. */
static void test_symmetric_expansion(void **state)
{
    (void)state;
    enum { ORDER = 37, LDX = 41, LD = 40 };
    static const int ranges[][2] = {{0, 37}, {0, 8}, {3, 29}, {8, 24}, {13, 14}, {36, 37}, {5, 7}};
    const char *isas[] = {"avx512", "avx2", "generic"};
    double x[LDX * ORDER], out[LD * ORDER];
    for (size_t q = 0; q < sizeof isas / sizeof isas[0]; q++) {
        const gemm_kernel *kr = gemm_kernel_by_name(isas[q]);
        if (!kr)
            continue;
        for (int upper = 0; upper < 2; upper++) {
            for (int j = 0; j < ORDER; j++)
                for (int i = 0; i < LDX; i++)
                    x[i + j * LDX] =
                        i >= ORDER || (upper ? i > j : i < j) ? NAN : 1.0 + i + 1000.0 * j;
            const gemm_operand s = {x, LDX, upper != 0};
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
                const int c0 = ranges[r][0], c1 = ranges[r][1];
                for (int i = 0; i < LD * ORDER; i++)
                    out[i] = -7.5;
                gemm_sym_expand_columns(kr, &s, ORDER, c0, c1, out, LD);
                for (int j = c0; j < c1; j++)
                    for (int i = 0; i < LD; i++) {
                        const int lo = i < j ? i : j, hi = i < j ? j : i;
                        /* S(i, j) = X(hi, lo) stored lower, X(lo, hi) stored upper. */
                        const double want = i >= ORDER ? -7.5
                                            : upper    ? x[lo + hi * LDX]
                                                       : x[hi + lo * LDX];
                        assert_true(out[i + (j - c0) * LD] == want);
                    }
                for (int i = (c1 - c0) * LD; i < LD * ORDER; i++)
                    assert_true(out[i] == -7.5);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zen5_caches),
        cmocka_unit_test(test_haswell_caches),
        cmocka_unit_test(test_xeon_caches),
        cmocka_unit_test(test_block_columns_even),
        cmocka_unit_test(test_unknown_caches_keep_blocks),
        cmocka_unit_test(test_running_kernel_blocks_fit),
        cmocka_unit_test(test_unpacked_path_and_lda),
        cmocka_unit_test(test_unpacked_path_narrow_tiles),
        cmocka_unit_test(test_member_grids),
        cmocka_unit_test(test_region_members_hold_a_buffer),
        cmocka_unit_test(test_edge_kernel_masks),
        cmocka_unit_test(test_prefetch_kernel),
        cmocka_unit_test(test_spread_requests_same_bits),
        cmocka_unit_test(test_band_products),
        cmocka_unit_test(test_shares_by_speed),
        cmocka_unit_test(test_symmetric_expansion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
