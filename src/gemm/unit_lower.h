/* unit_lower.h — the core of L X = P on one packed B panel (k rows of nr lanes, as pack_b lays
 * them out), L unit lower triangular: getrf's solve with its panel's L11, done where the
 * trailing GEMM reads U12, so no transposes. Each element is P's minus the terms L(i, p) X(p) in
 * order p = 0, 1, ..., each one fused: every build rounds alike (unit_lower_generic.c and
 * unit_lower_avx2.c include this core; unit_lower_avx512.c has its own loop). */
#ifndef TELA_GEMM_UNIT_LOWER_H
#define TELA_GEMM_UNIT_LOWER_H

#include "gemm/gemm.h"

#include <math.h>

/* Inlined with nr a constant, so the lane loop is unrolled or vectorized. */
static inline __attribute__((always_inline)) void
unit_lower_solve(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr, double *panel)
{
    for (int i = 1; i < k; i++) {
        double *x = panel + (ptrdiff_t)i * nr;
        for (int p = 0; p < i; p++) {
            const double lip = l[i * l_row + p * l_col];
            const double *xp = panel + (ptrdiff_t)p * nr;
            for (int j = 0; j < nr; j++)
                x[j] = fma(-lip, xp[j], x[j]);
        }
    }
}

/* gemm_unit_lower_fn: the panel widths of the generic and AVX2 kernels unrolled. */
static inline void unit_lower_panel(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col,
                                    int nr, double *panel)
{
    if (nr == 4)
        unit_lower_solve(k, l, l_row, l_col, 4, panel);
    else if (nr == 6)
        unit_lower_solve(k, l, l_row, l_col, 6, panel);
    else
        unit_lower_solve(k, l, l_row, l_col, nr, panel);
}

#endif /* TELA_GEMM_UNIT_LOWER_H */
