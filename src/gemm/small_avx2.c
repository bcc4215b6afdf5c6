/* small_avx2.c — dgemm's unpacked path for AVX2 + FMA: no packing, tiles of C of up to 8 rows
 * (two vectors of 4, the last masked at the edge) by up to 6 columns held in registers over k
 * (12 accumulators, 2 of A and a broadcast of 16 ymm), as the 8 x 6 packed kernel holds them.
 * Compiled with -mavx2 -mfma (CMakeLists.txt). */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* A is read in place when untransposed; op(A) = A^T is copied onto the stack when it fits
 * (then the same tiles), else the plain path computes it. Serial: callers split C's columns
 * between members. */

#define SMALL_NR 6 /* most columns of a tile */

/* One tile's operands: nv vectors of 4 rows (the last masked) by nr columns of C, over all k.
 * op(B)(p, j) = b[p * step_p + j * step_j]. */
typedef struct small_tile {
    const double *a;
    ptrdiff_t lda, k;
    const double *b;
    ptrdiff_t step_p, step_j;
    double *c;
    ptrdiff_t ldc;
    __m256i last; /* lanes of the last vector's rows: all ones, else zero */
    double alpha, beta;
} small_tile;

/* Four rows, or those of mask (a masked load where no row is missing would cost a little on
 * every step, so whole tiles have instances without masks). */
static inline __m256d small_load(bool masked, __m256i mask, const double *x)
{
    return masked ? _mm256_maskload_pd(x, mask) : _mm256_loadu_pd(x);
}

static inline void small_save(bool masked, __m256i mask, double *x, __m256d v)
{
    if (masked)
        _mm256_maskstore_pd(x, mask, v);
    else
        _mm256_storeu_pd(x, v);
}

/* nv x nr accumulators, each one element's chain of FMAs in k's order, so any tiling of C gives
 * the same bits. nv and nr are constants in each instance below, so that gcc keeps the
 * accumulators, A's vectors and the broadcast in registers; op(B)'s columns are reached from one
 * base per three columns and two strides. */
static inline __attribute__((always_inline)) void small_tile_run(const small_tile *t, const int nv,
                                                                 const int nr, const bool masked)
{
    __m256d acc[2][SMALL_NR];
#pragma GCC unroll 6
    for (int j = 0; j < nr; j++)
        acc[0][j] = acc[1][j] = _mm256_setzero_pd();
    const ptrdiff_t lda = t->lda, k = t->k, step_p = t->step_p, s1 = t->step_j;
    const double *a = t->a, *b0 = t->b;
    const double *b3 = nr > 3 ? b0 + 3 * s1 : b0;
    const __m256i last = t->last;
    for (ptrdiff_t p = 0; p < k; p++, a += lda, b0 += step_p, b3 += step_p) {
        const __m256d a0 = small_load(nv == 1 && masked, last, a);
        const __m256d a1 = nv == 2 ? small_load(masked, last, a + 4) : a0;
#pragma GCC unroll 6
        for (int j = 0; j < nr; j++) {
            const double *q = j < 3 ? b0 : b3;
            const int r = j % 3;
            const __m256d v = _mm256_broadcast_sd(r == 0 ? q : r == 1 ? q + s1 : q + 2 * s1);
            acc[0][j] = _mm256_fmadd_pd(a0, v, acc[0][j]);
            if (nv == 2)
                acc[1][j] = _mm256_fmadd_pd(a1, v, acc[1][j]);
        }
    }
    /* Every column of C is read before any is written, as on the AVX-512 path: a load that
     * overlaps an earlier masked store waits for that store to retire. 1 x acc is acc: the
     * multiplies are skipped, not made, for alpha = 1. */
    const __m256d va = _mm256_set1_pd(t->alpha), vb = _mm256_set1_pd(t->beta);
    const ptrdiff_t ldc = t->ldc;
    double *const c0 = t->c;
    if (t->alpha != 1.0) {
#pragma GCC unroll 6
        for (int j = 0; j < nr; j++) {
            acc[0][j] = _mm256_mul_pd(va, acc[0][j]);
            if (nv == 2)
                acc[1][j] = _mm256_mul_pd(va, acc[1][j]);
        }
    }
    if (t->beta != 0.0) {
#pragma GCC unroll 6
        for (int j = 0; j < nr; j++) {
            const double *c = c0 + j * ldc;
            acc[0][j] = _mm256_fmadd_pd(vb, small_load(nv == 1 && masked, last, c), acc[0][j]);
            if (nv == 2)
                acc[1][j] = _mm256_fmadd_pd(vb, small_load(masked, last, c + 4), acc[1][j]);
        }
    }
#pragma GCC unroll 6
    for (int j = 0; j < nr; j++) {
        double *c = c0 + j * ldc;
        small_save(nv == 1 && masked, last, c, acc[0][j]);
        if (nv == 2)
            small_save(masked, last, c + 4, acc[1][j]);
    }
}

/* Each shape's two instances (whole and masked last vector): small_tile_<nv>_<nr>[_masked]. */
#define SMALL_INSTANCES(nv, nr)                                                                    \
    static void small_tile_##nv##_##nr(const small_tile *t)                                        \
    {                                                                                              \
        small_tile_run(t, nv, nr, false);                                                          \
    }                                                                                              \
    static void small_tile_##nv##_##nr##_masked(const small_tile *t)                               \
    {                                                                                              \
        small_tile_run(t, nv, nr, true);                                                           \
    }
#define SMALL_TILES(nv)                                                                            \
    SMALL_INSTANCES(nv, 1)                                                                         \
    SMALL_INSTANCES(nv, 2)                                                                         \
    SMALL_INSTANCES(nv, 3)                                                                         \
    SMALL_INSTANCES(nv, 4)                                                                         \
    SMALL_INSTANCES(nv, 5)                                                                         \
    SMALL_INSTANCES(nv, 6)
#define SMALL_ROW(nv, suffix)                                                                      \
    {                                                                                              \
        small_tile_##nv##_1##suffix, small_tile_##nv##_2##suffix, small_tile_##nv##_3##suffix,     \
            small_tile_##nv##_4##suffix, small_tile_##nv##_5##suffix, small_tile_##nv##_6##suffix  \
    }
SMALL_TILES(1)
SMALL_TILES(2)
/* [vectors - 1][rows missing from the last vector][columns - 1] */
static void (*const small_tiles[2][2][SMALL_NR])(const small_tile *) = {
    {SMALL_ROW(1, ), SMALL_ROW(1, _masked)}, {SMALL_ROW(2, ), SMALL_ROW(2, _masked)}};

void gemm_small_avx2(const gemm_problem *pr)
{
    const ptrdiff_t m = pr->m, n = pr->n, k = pr->k;
    if (m <= 0 || n <= 0)
        return;
    if (pr->a.trans) {
        if (m * k > GEMM_SMALL_TRANSPOSE_MAX) {
            gemm_small(pr);
            return;
        }
        /* op(A) = A^T, small: transposed onto the stack, then the tiles. */
        double at[GEMM_SMALL_TRANSPOSE_MAX];
        const gemm_problem copy = gemm_with_a_copied(pr, at);
        gemm_small_avx2(&copy);
        return;
    }
    /* Columns in as few tiles of at most SMALL_NR as cover n, of even width; rows in blocks of
     * 8, the last one of 1-8 rows (masked). */
    const ptrdiff_t step_p = pr->b.trans ? pr->b.ld : 1, step_j = pr->b.trans ? 1 : pr->b.ld;
    small_tile t = {.lda = pr->a.ld,
                    .k = k,
                    .step_p = step_p,
                    .step_j = step_j,
                    .ldc = pr->ldc,
                    .alpha = pr->alpha,
                    .beta = pr->beta};
    const ptrdiff_t tiles = (n + SMALL_NR - 1) / SMALL_NR, narrow = n / tiles,
                    wide = n - narrow * tiles;
    for (ptrdiff_t q = 0, j0 = 0; q < tiles; q++) {
        const int nr = (int)(narrow + (q < wide));
        t.b = pr->b.p + j0 * step_j;
        for (ptrdiff_t i0 = 0; i0 < m; i0 += 8) {
            const int rows = m - i0 < 8 ? (int)(m - i0) : 8, nv = rows > 4 ? 2 : 1;
            const int last_rows = rows - 4 * (nv - 1);
            t.last = gemm_first_lanes_avx2(last_rows);
            t.a = pr->a.p + i0;
            t.c = pr->c + i0 + j0 * pr->ldc;
            small_tiles[nv - 1][last_rows != 4][nr - 1](&t);
        }
        j0 += nr;
    }
}
#else
void gemm_small_avx2(const gemm_problem *pr)
{
    gemm_small(pr);
}
#endif
