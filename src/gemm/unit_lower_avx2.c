/* unit_lower_avx2.c — getrf's solve on a packed panel (unit_lower.h) compiled with -mavx2 -mfma
 * (CMakeLists.txt), for the AVX2 kernel's panels of 6 lanes. */
#include "gemm/unit_lower.h"

void gemm_unit_lower_panel_avx2(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                double *panel)
{
    unit_lower_panel(k, l, l_row, l_col, nr, panel);
}
