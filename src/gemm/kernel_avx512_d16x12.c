/* kernel_avx512_d16x12.c — the 16 x 12 double micro-kernel for AVX-512F + FMA, and its edge
 * variant for tiles of few columns (the same sums, for those columns' flops only).
 *
 * Compiled alone with -mavx512f -mfma (CMakeLists.txt): only called when
 * cpuid says the CPU has them, so the library still runs on any x86-64.
 * 24 accumulators + 2 A vectors + 1 broadcast fit the 32 zmm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 16, NR = 12 };

/* The C tile is read or written only after kc steps: its lines (columns
 * far apart when ldc is large) arrive meanwhile. Out of line: inlined, it
 * made gcc spill an A vector inside the k loop. */
static __attribute__((noinline)) void prefetch_tile(const double *c, ptrdiff_t ldc)
{
    for (int j = 0; j < NR; j++) {
        _mm_prefetch((const char *)(c + j * ldc), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + j * ldc + MR - 1), _MM_HINT_T0);
    }
}

/* The first nc columns of the tile over kc steps, from zero: every kernel
 * here sums an element the same way, in registers. */
static inline __attribute__((always_inline)) void accumulate(int kc, const double *restrict a,
                                                             const double *restrict b,
                                                             __m512d lo[NR], __m512d hi[NR],
                                                             const int nc)
{
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

void gemm_kernel_avx512_d16x12(int kc, const double *restrict a, const double *restrict b,
                               double *restrict c, ptrdiff_t ldc, double beta)
{
    __m512d lo[NR], hi[NR];
    prefetch_tile(c, ldc);
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

/* The first 4, 8 or 12 columns of the tile (an edge of 4 columns, as with
 * nrhs = 100 = 8 x 12 + 4, cost a whole tile's 24 FMAs a step for 8 of
 * use), stored into the edge buffer. */
static inline __attribute__((always_inline)) void narrow_tile(int kc, const double *restrict a,
                                                              const double *restrict b,
                                                              double *restrict tile, const int nc)
{
    __m512d lo[NR], hi[NR];
    accumulate(kc, a, b, lo, hi, nc);
#pragma GCC unroll 8
    for (int j = 0; j < nc; j++) {
        _mm512_store_pd(tile + (ptrdiff_t)j * MR, lo[j]);
        _mm512_store_pd(tile + (ptrdiff_t)j * MR + 8, hi[j]);
    }
}

void gemm_kernel_avx512_d16x12_narrow(int kc, const double *restrict a, const double *restrict b,
                                      double *restrict tile, int cols)
{
    if (cols <= 4)
        narrow_tile(kc, a, b, tile, 4);
    else if (cols <= 8)
        narrow_tile(kc, a, b, tile, 8);
    else
        narrow_tile(kc, a, b, tile, NR);
}
#else
void gemm_kernel_avx512_d16x12(int kc, const double *restrict a, const double *restrict b,
                               double *restrict c, ptrdiff_t ldc, double beta)
{
    gemm_kernel_generic_d4x4(kc, a, b, c, ldc, beta); /* never selected off x86-64 */
}

void gemm_kernel_avx512_d16x12_narrow(int kc, const double *restrict a, const double *restrict b,
                                      double *restrict tile, int cols)
{
    (void)kc, (void)a, (void)b, (void)tile, (void)cols; /* never selected off x86-64 */
}
#endif
