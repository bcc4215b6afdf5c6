/* kernel_avx2_d8x6.c — the 8 x 6 double micro-kernel for AVX2 + FMA, and its edge variant.
 *
 * Compiled alone with -mavx2 -mfma; selected by cpuid only. 12 accumulators
 * + 2 A vectors + 1 broadcast fit the 16 ymm registers. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { MR = 8, NR = 6 };

/* The sums of the tile's first nc columns (lanes of B's panel) over kc steps, each column's its
 * own chain of FMAs: any nc gives those columns the same bits. */
static inline __attribute__((always_inline)) void accumulate(int kc, const double *restrict a,
                                                             const double *restrict b,
                                                             __m256d lo[NR], __m256d hi[NR],
                                                             const int nc)
{
#pragma GCC unroll 6
    for (int j = 0; j < nc; j++) {
        lo[j] = _mm256_setzero_pd();
        hi[j] = _mm256_setzero_pd();
    }
    for (int p = 0; p < kc; p++) {
        const __m256d a0 = _mm256_load_pd(a);
        const __m256d a1 = _mm256_load_pd(a + 4);
#pragma GCC unroll 6
        for (int j = 0; j < nc; j++) {
            const __m256d bj = _mm256_broadcast_sd(b + j);
            lo[j] = _mm256_fmadd_pd(a0, bj, lo[j]);
            hi[j] = _mm256_fmadd_pd(a1, bj, hi[j]);
        }
        a += MR;
        b += NR;
    }
}

void gemm_kernel_avx2_d8x6(int kc, const double *restrict a, const double *restrict b,
                           double *restrict c, ptrdiff_t ldc, double beta)
{
    __m256d lo[NR], hi[NR];
    accumulate(kc, a, b, lo, hi, NR);
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
/* The lanes of the four rows whose bits are set in `bits`. */
static inline __m256i lanes_of(unsigned bits)
{
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)bits), bit), bit);
}

/* As the AVX-512 edge kernel: the tile's first 4 or 6 columns summed, then only the rows of each
 * column that rows[j] names read and written, with masks; all of C read before any is written.
 * beta * c + t is one FMA, as gemm_store_tile (the whole tile's other betas) makes it. */
static inline __attribute__((always_inline)) void
edge_tile(int kc, const double *restrict a, const double *restrict b, double *restrict c,
          ptrdiff_t ldc, double beta, const uint16_t *restrict rows, const int nc)
{
    __m256d lo[NR], hi[NR];
    accumulate(kc, a, b, lo, hi, nc);
    if (beta != 0.0) {
        const __m256d vbeta = _mm256_set1_pd(beta);
#pragma GCC unroll 6
        for (int j = 0; j < nc; j++) {
            const double *cj = c + (ptrdiff_t)j * ldc;
            const __m256d c_lo = _mm256_maskload_pd(cj, lanes_of(rows[j] & 15u));
            const __m256d c_hi = _mm256_maskload_pd(cj + 4, lanes_of(rows[j] >> 4 & 15u));
            if (beta == 1.0) {
                lo[j] = _mm256_add_pd(c_lo, lo[j]);
                hi[j] = _mm256_add_pd(c_hi, hi[j]);
            } else {
                lo[j] = _mm256_fmadd_pd(vbeta, c_lo, lo[j]);
                hi[j] = _mm256_fmadd_pd(vbeta, c_hi, hi[j]);
            }
        }
    }
#pragma GCC unroll 6
    for (int j = 0; j < nc; j++) {
        double *cj = c + (ptrdiff_t)j * ldc;
        _mm256_maskstore_pd(cj, lanes_of(rows[j] & 15u), lo[j]);
        _mm256_maskstore_pd(cj + 4, lanes_of(rows[j] >> 4 & 15u), hi[j]);
    }
}

void gemm_kernel_avx2_d8x6_edge(int kc, const double *restrict a, const double *restrict b,
                                double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                const uint16_t *restrict rows)
{
    static const int widths[] = {4, NR};
    uint16_t run[NR];
    int first = 0;
    const int nc = gemm_edge_run(rows, cols, NR, widths, 2, &first, run);
    if (nc == 0)
        return;
    if (nc == 4)
        edge_tile(kc, a, b + first, c + (ptrdiff_t)first * ldc, ldc, beta, run, 4);
    else
        edge_tile(kc, a, b + first, c + (ptrdiff_t)first * ldc, ldc, beta, run, NR);
}
#else
void gemm_kernel_avx2_d8x6_edge(int kc, const double *restrict a, const double *restrict b,
                                double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                const uint16_t *restrict rows)
{
    (void)kc, (void)a, (void)b, (void)c, (void)ldc, (void)beta, (void)cols, (void)rows;
    /* never selected off x86-64 */
}

void gemm_kernel_avx2_d8x6(int kc, const double *restrict a, const double *restrict b,
                           double *restrict c, ptrdiff_t ldc, double beta)
{
    gemm_kernel_generic_d4x4(kc, a, b, c, ldc, beta); /* never selected off x86-64 */
}
#endif
