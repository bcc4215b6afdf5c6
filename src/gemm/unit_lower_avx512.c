/* unit_lower_avx512.c — unit_lower.c's solve for the AVX-512 kernel's
 * 12-lane panels (a zmm and a ymm a row), four rows at a time so that
 * eight independent FMA chains keep both pipes busy. Compiled with
 * -mavx512f -mfma (CMakeLists.txt); the same bits as the plain build. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

enum { NR = 12, ROWS = 4 };

/* Rows [i, i + ROWS): the terms of the rows above, then the triangle
 * between them, each row's terms still in order of p. */
static void solve_rows(int i, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, double *panel)
{
    __m512d lo[ROWS];
    __m256d hi[ROWS];
    for (int r = 0; r < ROWS; r++) {
        lo[r] = _mm512_loadu_pd(panel + (ptrdiff_t)(i + r) * NR);
        hi[r] = _mm256_loadu_pd(panel + (ptrdiff_t)(i + r) * NR + 8);
    }
    const double *li = l + i * l_row;
    for (int p = 0; p < i; p++) {
        const __m512d xlo = _mm512_loadu_pd(panel + (ptrdiff_t)p * NR);
        const __m256d xhi = _mm256_loadu_pd(panel + (ptrdiff_t)p * NR + 8);
#pragma GCC unroll 4
        for (int r = 0; r < ROWS; r++) {
            const double lrp = li[r * l_row + p * l_col];
            lo[r] = _mm512_fnmadd_pd(_mm512_set1_pd(lrp), xlo, lo[r]);
            hi[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrp), xhi, hi[r]);
        }
    }
#pragma GCC unroll 4
    for (int r = 1; r < ROWS; r++) {
        for (int q = 0; q < r; q++) {
            const double lrq = li[r * l_row + (i + q) * l_col];
            lo[r] = _mm512_fnmadd_pd(_mm512_set1_pd(lrq), lo[q], lo[r]);
            hi[r] = _mm256_fnmadd_pd(_mm256_set1_pd(lrq), hi[q], hi[r]);
        }
    }
    for (int r = 0; r < ROWS; r++) {
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
    int i = 0;
    for (; i + ROWS <= k; i += ROWS)
        solve_rows(i, l, l_row, l_col, panel);
    for (; i < k; i++) {
        __m512d lo = _mm512_loadu_pd(panel + (ptrdiff_t)i * NR);
        __m256d hi = _mm256_loadu_pd(panel + (ptrdiff_t)i * NR + 8);
        for (int p = 0; p < i; p++) {
            const double lip = l[i * l_row + p * l_col];
            lo = _mm512_fnmadd_pd(_mm512_set1_pd(lip), _mm512_loadu_pd(panel + (ptrdiff_t)p * NR),
                                  lo);
            hi = _mm256_fnmadd_pd(_mm256_set1_pd(lip),
                                  _mm256_loadu_pd(panel + (ptrdiff_t)p * NR + 8), hi);
        }
        _mm512_storeu_pd(panel + (ptrdiff_t)i * NR, lo);
        _mm256_storeu_pd(panel + (ptrdiff_t)i * NR + 8, hi);
    }
}
#else
void gemm_unit_lower_panel_avx512(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                  double *panel)
{
    gemm_unit_lower_panel_generic(k, l, l_row, l_col, nr, panel); /* never selected off x86-64 */
}
#endif
