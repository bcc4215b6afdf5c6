/* kernel_avx512_d16x12.c — the 16 x 12 double micro-kernel for AVX-512F + FMA, its edge
 * variant (any rows of each column, in place: the same sums, for those columns' flops only), and
 * the same kernel asking for what comes next (C's tile, the next B panel, the next block's
 * source) a line at a time as it goes.
 *
 * Compiled alone with -mavx512f -mfma (CMakeLists.txt): only called when
 * cpuid says the CPU has them, so the library still runs on any x86-64.
 * 24 accumulators + 2 A vectors + 1 broadcast fit the 32 zmm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 16, NR = 12 };

/* One k step of the tile's first nc columns: every kernel here sums an element the same way, in
 * registers, one step after another from zero. */
static inline __attribute__((always_inline)) void step(const double *restrict a,
                                                       const double *restrict b, __m512d lo[NR],
                                                       __m512d hi[NR], const int nc)
{
    const __m512d a0 = _mm512_load_pd(a);
    const __m512d a1 = _mm512_load_pd(a + 8);
    /* The next A panel rows, a few iterations ahead: they come from L2. */
    _mm_prefetch((const char *)(a + (ptrdiff_t)8 * MR), _MM_HINT_T0);
#pragma GCC unroll 12
    for (int j = 0; j < nc; j++) {
        const __m512d bj = _mm512_set1_pd(b[j]);
        lo[j] = _mm512_fmadd_pd(a0, bj, lo[j]);
        hi[j] = _mm512_fmadd_pd(a1, bj, hi[j]);
    }
}

static inline __attribute__((always_inline)) void zero(__m512d lo[NR], __m512d hi[NR], const int nc)
{
#pragma GCC unroll 12
    for (int j = 0; j < nc; j++) {
        lo[j] = _mm512_setzero_pd();
        hi[j] = _mm512_setzero_pd();
    }
}

/* The first nc columns of the tile over kc steps. */
static inline __attribute__((always_inline)) void accumulate(int kc, const double *restrict a,
                                                             const double *restrict b,
                                                             __m512d lo[NR], __m512d hi[NR],
                                                             const int nc)
{
    zero(lo, hi, nc);
    for (int p = 0; p < kc; p++, a += MR, b += NR)
        step(a, b, lo, hi, nc);
}

/* The next line of the next block's source, into L2 (t0, t1 and t2 measured alike on Zen 5). */
static inline __attribute__((always_inline)) void source_line(gemm_prefetch *pf)
{
    if (pf->runs_left < 0)
        return;
    _mm_prefetch(pf->line, _MM_HINT_T2);
    pf->line += 64;
    if (pf->line > pf->end) {
        pf->run += pf->ld;
        pf->line = pf->run - ((uintptr_t)pf->run & 63);
        pf->end = pf->run + pf->seg - 1;
        pf->runs_left--;
    }
}

/* A column of C's tile (16 doubles, 128 bytes: 2 or 3 lines, on a line boundary or not) into L1. */
static inline __attribute__((always_inline)) void column_to_l1(const char *column)
{
    _mm_prefetch(column, _MM_HINT_T0);
    _mm_prefetch(column + 64, _MM_HINT_T0);
    _mm_prefetch(column + 127, _MM_HINT_T0);
}

enum {
    GROUP = 4,                      /* steps between two requests of a kind */
    C_PARTS = 4,                    /* requests a column of C, C_PART_BYTES apart: */
    C_PART_BYTES = 43,              /* its 128 bytes' 2 or 3 lines, aligned or not */
    C_STEPS = NR * C_PARTS * GROUP, /* steps over which C is asked into L2 */
    C_LAST = 16                     /* the last steps, over the first NR of which C goes to L1 */
};

/* One group of steps with a request of C's (c: NULL for none) after the second step and of the
 * next B panel's after the third, the source's lines as they fall due. Unrolled whole, as in
 * OpenBLAS's kernel; gcc -O3 spills an A vector a group there (a store and a load per 4 steps,
 * in the load ports' slack: the loops ran at OpenBLAS's kernel's rate, docs/gemm.md). As a loop
 * of single steps with the same requests they ran 2-3% slower. */
static inline __attribute__((always_inline)) void
group(const double *restrict *a, const double *restrict *b, __m512d lo[NR], __m512d hi[NR],
      const char *c, const char **b_line, int *b_left, gemm_prefetch *pf, int every, int *countdown)
{
#pragma GCC unroll 4
    for (int s = 0; s < GROUP; s++) {
        step(*a, *b, lo, hi, NR);
        *a += MR;
        *b += NR;
        if (s == 1 && c)
            _mm_prefetch(c, _MM_HINT_T1);
        if (s == 2 && *b_left > 0) {
            _mm_prefetch(*b_line, _MM_HINT_T1);
            *b_line += 64;
            --*b_left;
        }
    }
    if (pf)
        for (*countdown -= GROUP; *countdown <= 0; *countdown += every)
            source_line(pf);
}

/* The whole tile with rq's requests made as it runs, spread out so that they overlap the FMAs,
 * OpenBLAS's SkylakeX schedule: C's tile into L2 a line every 4 steps over the first C_STEPS
 * steps, then into L1 a column a step over the last C_LAST (asked for earlier, the A and B
 * streams evict it from L1 again), the next B panel's lines into L2 a line every 4 steps, the
 * source's every `every` steps. A call too short to spread C over asks for it all first. */
static inline __attribute__((always_inline)) void
accumulate_requesting(int kc, const double *restrict a, const double *restrict b, __m512d lo[NR],
                      __m512d hi[NR], ptrdiff_t ldc, const gemm_requests *rq)
{
    zero(lo, hi, NR);
    gemm_prefetch *pf = rq->every > 0 ? rq->source : NULL;
    const int every = rq->every;
    int countdown = every, b_left = rq->b_next ? rq->b_lines : 0;
    const char *b_line = rq->b_next;
    const char *const c = (const char *)rq->c;
    const ptrdiff_t ldc_bytes = ldc * (ptrdiff_t)sizeof(double);
    const bool spread_c = c && kc >= C_STEPS + C_LAST;
    if (c && !spread_c)
        for (int j = 0; j < NR; j++)
            column_to_l1(c + j * ldc_bytes);
    const int tail = spread_c ? C_LAST : 0;
    int p = 0;
    if (spread_c)
        for (int j = 0; j < NR; j++)
            for (int q = 0; q < C_PARTS; q++, p += GROUP)
                group(&a, &b, lo, hi, c + j * ldc_bytes + (ptrdiff_t)C_PART_BYTES * q, &b_line,
                      &b_left, pf, every, &countdown);
    for (; p + GROUP <= kc - tail; p += GROUP)
        group(&a, &b, lo, hi, NULL, &b_line, &b_left, pf, every, &countdown);
    for (; p < kc; p++, a += MR, b += NR) {
        const int j = p - (kc - tail); /* column j of C in the last steps */
        if (j >= 0 && j < NR)
            column_to_l1(c + j * ldc_bytes);
        step(a, b, lo, hi, NR);
        if (pf && --countdown == 0) {
            countdown = every;
            source_line(pf);
        }
    }
}

static inline __attribute__((always_inline)) void whole_tile(int kc, const double *restrict a,
                                                             const double *restrict b,
                                                             double *restrict c, ptrdiff_t ldc,
                                                             double beta, const gemm_requests *rq)
{
    __m512d lo[NR], hi[NR];
    if (rq)
        accumulate_requesting(kc, a, b, lo, hi, ldc, rq);
    else
        accumulate(kc, a, b, lo, hi, NR);
    /* beta 1 (every rank-k update after the first kc block) and 0 straight from the registers:
     * the same one addition per element as gemm_store_tile makes, without the trip through a
     * buffer, which costs a short kc (ScaLAPACK's rank-64 updates) a few percent. */
    if (beta == 1.0 || beta == 0.0) {
#pragma GCC unroll 12
        for (int j = 0; j < NR; j++) {
            double *cj = c + (ptrdiff_t)j * ldc;
            if (beta == 1.0) {
                lo[j] = _mm512_add_pd(_mm512_loadu_pd(cj), lo[j]);
                hi[j] = _mm512_add_pd(_mm512_loadu_pd(cj + 8), hi[j]);
            }
            _mm512_storeu_pd(cj, lo[j]);
            _mm512_storeu_pd(cj + 8, hi[j]);
        }
        return;
    }
    double tile[NR * MR] __attribute__((aligned(64)));
#pragma GCC unroll 12
    for (int j = 0; j < NR; j++) {
        _mm512_store_pd(tile + (ptrdiff_t)j * MR, lo[j]);
        _mm512_store_pd(tile + (ptrdiff_t)j * MR + 8, hi[j]);
    }
    gemm_store_tile(c, ldc, tile, MR, NR, beta);
}

void gemm_kernel_avx512_d16x12(int kc, const double *restrict a, const double *restrict b,
                               double *restrict c, ptrdiff_t ldc, double beta)
{
    whole_tile(kc, a, b, c, ldc, beta, NULL);
}

void gemm_kernel_avx512_d16x12_prefetch(int kc, const double *restrict a, const double *restrict b,
                                        double *restrict c, ptrdiff_t ldc, double beta,
                                        const gemm_requests *rq)
{
    whole_tile(kc, a, b, c, ldc, beta, rq);
}

/* The tile's first 4, 8 or 12 columns (an edge of 4 columns, as with nrhs = 100 = 8 x 12 + 4,
 * costs a whole tile's 24 FMAs a step for 8 of use), then only the rows of each column that
 * rows[j] names read and written, with masks: edges and tiles across a triangle's diagonal go
 * straight into C instead of through a buffer and a scalar combine (one path for both; measured
 * level, docs/gemm.md). C is read for every column before any is written (a load after a masked
 * store to the same lines waits for the store to retire). beta * c + t is one FMA, as
 * gemm_store_tile makes it. */
static inline __attribute__((always_inline)) void
edge_tile(int kc, const double *restrict a, const double *restrict b, double *restrict c,
          ptrdiff_t ldc, double beta, const uint16_t *restrict rows, const int nc)
{
    __m512d lo[NR], hi[NR];
    accumulate(kc, a, b, lo, hi, nc);
    if (beta != 0.0) {
        const __m512d vbeta = _mm512_set1_pd(beta);
#pragma GCC unroll 12
        for (int j = 0; j < nc; j++) {
            const double *cj = c + (ptrdiff_t)j * ldc;
            const __m512d c_lo = _mm512_maskz_loadu_pd((__mmask8)rows[j], cj);
            const __m512d c_hi = _mm512_maskz_loadu_pd((__mmask8)(rows[j] >> 8), cj + 8);
            if (beta == 1.0) {
                lo[j] = _mm512_add_pd(c_lo, lo[j]);
                hi[j] = _mm512_add_pd(c_hi, hi[j]);
            } else {
                lo[j] = _mm512_fmadd_pd(vbeta, c_lo, lo[j]);
                hi[j] = _mm512_fmadd_pd(vbeta, c_hi, hi[j]);
            }
        }
    }
#pragma GCC unroll 12
    for (int j = 0; j < nc; j++) {
        double *cj = c + (ptrdiff_t)j * ldc;
        _mm512_mask_storeu_pd(cj, (__mmask8)rows[j], lo[j]);
        _mm512_mask_storeu_pd(cj + 8, (__mmask8)(rows[j] >> 8), hi[j]);
    }
}

void gemm_kernel_avx512_d16x12_edge(int kc, const double *restrict a, const double *restrict b,
                                    double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                    const uint16_t *restrict rows)
{
    /* Only the columns from the first to the last with rows to write are summed: a diagonal
     * tile of a triangle has none on one side (a 16 x 12 tile, anchored at C's origin, holds
     * 4 or 8 such columns in most panels). */
    static const int widths[] = {4, 8, NR};
    uint16_t run[NR];
    int first = 0;
    const int nc = gemm_edge_run(rows, cols, NR, widths, 3, &first, run);
    if (nc == 0)
        return;
    const double *b_run = b + first;
    double *c_run = c + (ptrdiff_t)first * ldc;
    if (nc == 4)
        edge_tile(kc, a, b_run, c_run, ldc, beta, run, 4);
    else if (nc == 8)
        edge_tile(kc, a, b_run, c_run, ldc, beta, run, 8);
    else
        edge_tile(kc, a, b_run, c_run, ldc, beta, run, NR);
}
#else
void gemm_kernel_avx512_d16x12(int kc, const double *restrict a, const double *restrict b,
                               double *restrict c, ptrdiff_t ldc, double beta)
{
    gemm_kernel_generic_d4x4(kc, a, b, c, ldc, beta); /* never selected off x86-64 */
}

void gemm_kernel_avx512_d16x12_prefetch(int kc, const double *restrict a, const double *restrict b,
                                        double *restrict c, ptrdiff_t ldc, double beta,
                                        const gemm_requests *rq)
{
    (void)rq;
    gemm_kernel_generic_d4x4(kc, a, b, c, ldc, beta);
}

void gemm_kernel_avx512_d16x12_edge(int kc, const double *restrict a, const double *restrict b,
                                    double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                    const uint16_t *restrict rows)
{
    (void)kc, (void)a, (void)b, (void)c, (void)ldc, (void)beta, (void)cols, (void)rows;
    /* never selected off x86-64 */
}
#endif
