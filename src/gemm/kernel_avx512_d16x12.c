/* kernel_avx512_d16x12.c — the 16 x 12 double micro-kernel for AVX-512F + FMA, its edge
 * variant (any rows of each column, in place: the same sums, for those columns' flops only), and
 * the same kernel asking for the next block's source a line at a time as it goes.
 *
 * Compiled alone with -mavx512f -mfma (CMakeLists.txt): only called when
 * cpuid says the CPU has them, so the library still runs on any x86-64.
 * 24 accumulators + 2 A vectors + 1 broadcast fit the 32 zmm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 16, NR = 12 };

/* The first nc columns of the tile over kc steps, from zero: every kernel
 * here sums an element the same way, in registers. */
static inline __attribute__((always_inline)) void
accumulate(int kc, const double *restrict a, const double *restrict b, __m512d lo[NR],
           __m512d hi[NR], const int nc, gemm_prefetch *pf, int every)
{
    int countdown = every;
#pragma GCC unroll 12
    for (int j = 0; j < nc; j++) {
        lo[j] = _mm512_setzero_pd();
        hi[j] = _mm512_setzero_pd();
    }
    for (int p = 0; p < kc; p++) {
        const __m512d a0 = _mm512_load_pd(a);
        const __m512d a1 = _mm512_load_pd(a + 8);
        /* The next A panel rows, a few iterations ahead: they come from L2. */
        _mm_prefetch((const char *)(a + (ptrdiff_t)8 * MR), _MM_HINT_T0);
        /* A line of the next block's source every `every` steps, into L2 (t0, t1 and t2
         * measured alike on Zen 5): spread out, the requests overlap the FMAs. */
        if (pf && --countdown == 0) {
            countdown = every;
            if (pf->runs_left >= 0) {
                _mm_prefetch(pf->line, _MM_HINT_T2);
                pf->line += 64;
                if (pf->line > pf->end) {
                    pf->run += pf->ld;
                    pf->line = pf->run - ((uintptr_t)pf->run & 63);
                    pf->end = pf->run + pf->seg - 1;
                    pf->runs_left--;
                }
            }
        }
#pragma GCC unroll 12
        for (int j = 0; j < nc; j++) {
            const __m512d bj = _mm512_set1_pd(b[j]);
            lo[j] = _mm512_fmadd_pd(a0, bj, lo[j]);
            hi[j] = _mm512_fmadd_pd(a1, bj, hi[j]);
        }
        a += MR;
        b += NR;
    }
}

static inline __attribute__((always_inline)) void
whole_tile(int kc, const double *restrict a, const double *restrict b, double *restrict c,
           ptrdiff_t ldc, double beta, gemm_prefetch *pf, int every)
{
    __m512d lo[NR], hi[NR];
    accumulate(kc, a, b, lo, hi, NR, pf, every);
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
    whole_tile(kc, a, b, c, ldc, beta, NULL, 0);
}

void gemm_kernel_avx512_d16x12_prefetch(int kc, const double *restrict a, const double *restrict b,
                                        double *restrict c, ptrdiff_t ldc, double beta,
                                        gemm_prefetch *pf, int every)
{
    whole_tile(kc, a, b, c, ldc, beta, pf, every);
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
    accumulate(kc, a, b, lo, hi, nc, NULL, 0);
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
     * 4 or 8 such columns in most panels). Column j of B's panel is lane j of each step, so a
     * run of columns starting at lane `first` is summed as the whole tile sums them. */
    int first = 0, last = cols;
    while (first < last && rows[first] == 0)
        first++;
    while (last > first && rows[last - 1] == 0)
        last--;
    if (first == last)
        return;
    const int nc = last - first <= 4 ? 4 : last - first <= 8 ? 8 : NR;
    if (first + nc > NR)
        first = NR - nc; /* the same nc lanes, ending at the panel's last */
    uint16_t run[NR] = {0};
    for (int j = first; j < last; j++)
        run[j - first] = rows[j];
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
                                        gemm_prefetch *pf, int every)
{
    (void)pf, (void)every;
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
