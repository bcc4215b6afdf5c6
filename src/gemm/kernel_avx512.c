/* kernel_avx512.c — the 16 x 12 double micro-kernel for AVX-512F + FMA.
 *
 * Compiled alone with -mavx512f -mfma (CMakeLists.txt): only called when
 * cpuid says the CPU has them, so the library still runs on any x86-64.
 * 24 accumulators + 2 A vectors + 1 broadcast fit the 32 zmm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 16, NR = 12 };

void gemm_ukernel_avx512(int kc, const double *restrict a, const double *restrict b,
                         double *restrict c, ptrdiff_t ldc, double beta)
{
    __m512d lo[NR], hi[NR];
#pragma GCC unroll 12
    for (int j = 0; j < NR; j++) {
        lo[j] = _mm512_setzero_pd();
        hi[j] = _mm512_setzero_pd();
    }
    for (int p = 0; p < kc; p++) {
        const __m512d a0 = _mm512_load_pd(a);
        const __m512d a1 = _mm512_load_pd(a + 8);
        /* The next A panel rows, a few iterations ahead: they come from L2. */
        _mm_prefetch((const char *)(a + (ptrdiff_t)8 * MR), _MM_HINT_T0);
#pragma GCC unroll 12
        for (int j = 0; j < NR; j++) {
            const __m512d bj = _mm512_set1_pd(b[j]);
            lo[j] = _mm512_fmadd_pd(a0, bj, lo[j]);
            hi[j] = _mm512_fmadd_pd(a1, bj, hi[j]);
        }
        a += MR;
        b += NR;
    }
    if (beta == 0.0) {
#pragma GCC unroll 12
        for (int j = 0; j < NR; j++) {
            _mm512_storeu_pd(c + j * ldc, lo[j]);
            _mm512_storeu_pd(c + j * ldc + 8, hi[j]);
        }
    } else if (beta == 1.0) {
#pragma GCC unroll 12
        for (int j = 0; j < NR; j++) {
            double *cj = c + j * ldc;
            _mm512_storeu_pd(cj, _mm512_add_pd(_mm512_loadu_pd(cj), lo[j]));
            _mm512_storeu_pd(cj + 8, _mm512_add_pd(_mm512_loadu_pd(cj + 8), hi[j]));
        }
    } else {
        const __m512d vb = _mm512_set1_pd(beta);
#pragma GCC unroll 12
        for (int j = 0; j < NR; j++) {
            double *cj = c + j * ldc;
            _mm512_storeu_pd(cj, _mm512_fmadd_pd(vb, _mm512_loadu_pd(cj), lo[j]));
            _mm512_storeu_pd(cj + 8, _mm512_fmadd_pd(vb, _mm512_loadu_pd(cj + 8), hi[j]));
        }
    }
}
#else
void gemm_ukernel_avx512(int kc, const double *restrict a, const double *restrict b,
                         double *restrict c, ptrdiff_t ldc, double beta)
{
    gemm_ukernel_generic(kc, a, b, c, ldc, beta); /* never selected off x86-64 */
}
#endif
