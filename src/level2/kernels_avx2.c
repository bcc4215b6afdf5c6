/* kernels_avx2.c — the level-2 kernels of kernel_body.h compiled with -mavx2 -mfma (by its name,
 * CMakeLists.txt): 4 lanes, fused. */
#include "level2/kernel_body.h"

const level2_kernels level2_kernels_avx2 = {
    .name = "avx2",
    .gemv_n = kernel_gemv_n,
    .gemv_t = kernel_gemv_t,
    .symv_upper = kernel_symv_upper,
    .symv_lower = kernel_symv_lower,
    .axpy = kernel_axpy,
    .axpy2 = kernel_axpy2,
};
