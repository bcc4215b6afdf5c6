/* tri_base_avx512.c — trsm's and trmm's small triangles (tri_base.h) compiled with -mavx512f
 * -mfma (CMakeLists.txt): one zmm per vector of eight lanes. Chosen at run time with the GEMM
 * kernel (registry_avx512.c). */
#include "gemm/tri_base.h"

void gemm_tri_left_avx512(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb)
{
    tri_base_left(t, 16, n, b, ldb);
}

void gemm_tri_right_avx512(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb)
{
    tri_base_right(t, 12, m, b, ldb);
}
