/* unit_lower_avx512.c — unit_lower.h's solve for the AVX-512 kernel's
 * 12-lane panels (a zmm and a ymm a row), several rows at a time so that
 * independent FMA chains keep both pipes busy. Compiled with
 * -mavx512f -mfma (CMakeLists.txt); the same bits as the plain build. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { NR = 12, ROWS_MAX = 8 };

/* Rows [i, i + rows): the terms of the rows above, then the triangle
 * between them, each row's terms still in order of p. Inlined with rows a
 * constant, so the accumulators stay in registers. */
static inline __attribute__((always_inline)) void
solve_rows(int i, int rows, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, double *panel)
{
    __m512d lo[ROWS_MAX];
    __m256d hi[ROWS_MAX];
    for (int r = 0; r < rows; r++) {
        lo[r] = _mm512_loadu_pd(panel + (ptrdiff_t)(i + r) * NR);
        hi[r] = _mm256_loadu_pd(panel + (ptrdiff_t)(i + r) * NR + 8);
    }
    const double *li = l + i * l_row;
    for (int p = 0; p < i; p++) {
        const __m512d xlo = _mm512_loadu_pd(panel + (ptrdiff_t)p * NR);
        const __m256d xhi = _mm256_loadu_pd(panel + (ptrdiff_t)p * NR + 8);
        for (int r = 0; r < rows; r++) {
            const double lrp = li[r * l_row + p * l_col];
            lo[r] = _mm512_fnmadd_pd(_mm512_set1_pd(lrp), xlo, lo[r]);
            hi[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrp), xhi, hi[r]);
        }
    }
    for (int r = 1; r < rows; r++) {
        for (int q = 0; q < r; q++) {
            const double lrq = li[r * l_row + (i + q) * l_col];
            lo[r] = _mm512_fnmadd_pd(_mm512_set1_pd(lrq), lo[q], lo[r]);
            hi[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrq), hi[q], hi[r]);
        }
    }
    for (int r = 0; r < rows; r++) {
        _mm512_storeu_pd(panel + (ptrdiff_t)(i + r) * NR, lo[r]);
        _mm256_storeu_pd(panel + (ptrdiff_t)(i + r) * NR + 8, hi[r]);
    }
}

void gemm_unit_lower_panel_avx512(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                  double *panel)
{
    if (nr != NR) {
        gemm_unit_lower_panel_generic(k, l, l_row, l_col, nr, panel);
        return;
    }
    /* Eight rows at a time: sixteen independent FMA chains, more than the
     * two pipes' latency needs (four rows, eight chains, left them idle). */
    int i = 0;
    for (; i + 8 <= k; i += 8)
        solve_rows(i, 8, l, l_row, l_col, panel);
    if (i + 4 <= k) {
        solve_rows(i, 4, l, l_row, l_col, panel);
        i += 4;
    }
    for (; i < k; i++)
        solve_rows(i, 1, l, l_row, l_col, panel);
}
#else
void gemm_unit_lower_panel_avx512(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                  double *panel)
{
    gemm_unit_lower_panel_generic(k, l, l_row, l_col, nr, panel); /* never selected off x86-64 */
}
#endif
