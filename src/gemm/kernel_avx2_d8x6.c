/* kernel_avx2_d8x6.c — the 8 x 6 double micro-kernel for AVX2 + FMA.
 *
 * Compiled alone with -mavx2 -mfma; selected by cpuid only. 12 accumulators
 * + 2 A vectors + 1 broadcast fit the 16 ymm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 8, NR = 6 };

void gemm_kernel_avx2_d8x6(int kc, const double *restrict a, const double *restrict b,
                           double *restrict c, ptrdiff_t ldc, double beta)
{
    __m256d lo[NR], hi[NR];
#pragma GCC unroll 6
    for (int j = 0; j < NR; j++) {
        lo[j] = _mm256_setzero_pd();
        hi[j] = _mm256_setzero_pd();
    }
    for (int p = 0; p < kc; p++) {
        const __m256d a0 = _mm256_load_pd(a);
        const __m256d a1 = _mm256_load_pd(a + 4);
#pragma GCC unroll 6
        for (int j = 0; j < NR; j++) {
            const __m256d bj = _mm256_broadcast_sd(b + j);
            lo[j] = _mm256_fmadd_pd(a0, bj, lo[j]);
            hi[j] = _mm256_fmadd_pd(a1, bj, hi[j]);
        }
        a += MR;
        b += NR;
    }
    /* beta 1 and 0 straight from the registers, as the AVX-512 kernel (docs/gemm.md): the same
     * one addition per element as gemm_store_tile, without the trip through a buffer. */
    if (beta == 1.0 || beta == 0.0) {
#pragma GCC unroll 6
        for (int j = 0; j < NR; j++) {
            double *cj = c + (ptrdiff_t)j * ldc;
            if (beta == 1.0) {
                lo[j] = _mm256_add_pd(_mm256_loadu_pd(cj), lo[j]);
                hi[j] = _mm256_add_pd(_mm256_loadu_pd(cj + 4), hi[j]);
            }
            _mm256_storeu_pd(cj, lo[j]);
            _mm256_storeu_pd(cj + 4, hi[j]);
        }
        return;
    }
    double tile[NR * MR] __attribute__((aligned(32)));
#pragma GCC unroll 6
    for (int j = 0; j < NR; j++) {
        _mm256_store_pd(tile + (ptrdiff_t)j * MR, lo[j]);
        _mm256_store_pd(tile + (ptrdiff_t)j * MR + 4, hi[j]);
    }
    gemm_store_tile(c, ldc, tile, MR, NR, beta);
}
#else
void gemm_kernel_avx2_d8x6(int kc, const double *restrict a, const double *restrict b,
                           double *restrict c, ptrdiff_t ldc, double beta)
{
    gemm_kernel_generic_d4x4(kc, a, b, c, ldc, beta); /* never selected off x86-64 */
}
#endif
