/* tri_base_avx2.c — trsm's and trmm's small triangles (tri_base.h) compiled with -mavx2 -mfma
 * (CMakeLists.txt): two ymm per vector of eight lanes. Chosen at run time with the GEMM kernel
 * (registry_avx2.c). */
#include "gemm/tri_base.h"

void gemm_tri_left_avx2(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb)
{
    tri_base_left(t, 8, n, b, ldb);
}

void gemm_tri_right_avx2(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb)
{
    tri_base_right(t, 6, m, b, ldb);
}
