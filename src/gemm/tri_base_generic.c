/* tri_base_generic.c — trsm's and trmm's small triangles (tri_base.h) in plain x86-64 or
 * portable C: what every CPU without AVX-512 runs. */
#include "gemm/tri_base.h"

void gemm_tri_left_generic(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb)
{
    tri_base_left(t, 4, n, b, ldb);
}

void gemm_tri_right_generic(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb)
{
    tri_base_right(t, 4, m, b, ldb);
}
