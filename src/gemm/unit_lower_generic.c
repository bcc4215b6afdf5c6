/* unit_lower_generic.c — getrf's solve on a packed panel (unit_lower.h) in plain C: what every CPU
 * without AVX2 runs. */
#include "gemm/unit_lower.h"

void gemm_unit_lower_panel_generic(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                   double *panel)
{
    unit_lower_panel(k, l, l_row, l_col, nr, panel);
}
