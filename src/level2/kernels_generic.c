/* kernels_generic.c — the level-2 kernels of kernel_body.h in plain C vectors of two lanes: what
 * every CPU without AVX2 runs. */
#include "level2/kernel_body.h"

const level2_kernels level2_kernels_generic = {
    .name = "generic",
    .gemv_n = kernel_gemv_n,
    .gemv_t = kernel_gemv_t,
    .symv_upper = kernel_symv_upper,
    .symv_lower = kernel_symv_lower,
    .axpy = kernel_axpy,
    .axpy2 = kernel_axpy2,
};
