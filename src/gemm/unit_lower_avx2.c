/* unit_lower_avx2.c — unit_lower.h's solve for the AVX2 kernel's 6-lane panels (a ymm and an xmm
 * a row), four rows at a time so that eight independent FMA chains keep both pipes busy (row by
 * row, one chain waited on each FMA's latency). Compiled with -mavx2 -mfma (CMakeLists.txt);
 * each element's terms in the same order, fused: the same bits as the plain build. */
#include "gemm/unit_lower.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { NR = 6, ROWS_MAX = 4 };

/* Rows [i, i + rows): the terms of the rows above, then the triangle between them, each row's
 * terms still in order of p. Inlined with rows a constant, so the accumulators stay in
 * registers. */
static inline __attribute__((always_inline)) void
solve_rows(int i, int rows, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, double *panel)
{
    __m256d lo[ROWS_MAX];
    __m128d hi[ROWS_MAX];
    for (int r = 0; r < rows; r++) {
        lo[r] = _mm256_loadu_pd(panel + (ptrdiff_t)(i + r) * NR);
        hi[r] = _mm_loadu_pd(panel + (ptrdiff_t)(i + r) * NR + 4);
    }
    const double *li = l + i * l_row;
    for (int p = 0; p < i; p++) {
        const __m256d xlo = _mm256_loadu_pd(panel + (ptrdiff_t)p * NR);
        const __m128d xhi = _mm_loadu_pd(panel + (ptrdiff_t)p * NR + 4);
        for (int r = 0; r < rows; r++) {
            const double lrp = li[r * l_row + p * l_col];
            lo[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrp), xlo, lo[r]);
            hi[r] = _mm_fnmadd_pd(_mm_set1_pd(lrp), xhi, hi[r]);
        }
    }
    for (int r = 1; r < rows; r++) {
        for (int q = 0; q < r; q++) {
            const double lrq = li[r * l_row + (i + q) * l_col];
            lo[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrq), lo[q], lo[r]);
            hi[r] = _mm_fnmadd_pd(_mm_set1_pd(lrq), hi[q], hi[r]);
        }
    }
    for (int r = 0; r < rows; r++) {
        _mm256_storeu_pd(panel + (ptrdiff_t)(i + r) * NR, lo[r]);
        _mm_storeu_pd(panel + (ptrdiff_t)(i + r) * NR + 4, hi[r]);
    }
}

void gemm_unit_lower_panel_avx2(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                double *panel)
{
    if (nr != NR) {
        unit_lower_panel(k, l, l_row, l_col, nr, panel);
        return;
    }
    int i = 0;
    for (; i + ROWS_MAX <= k; i += ROWS_MAX)
        solve_rows(i, ROWS_MAX, l, l_row, l_col, panel);
    for (; i < k; i++)
        solve_rows(i, 1, l, l_row, l_col, panel);
}
#else
void gemm_unit_lower_panel_avx2(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                double *panel)
{
    unit_lower_panel(k, l, l_row, l_col, nr, panel);
}
#endif
