/* kernels_avx512.c — the level-2 kernels of kernel_body.h compiled with -mavx512f -mfma (by its
 * name, CMakeLists.txt): 8 lanes, fused, masked tails. */
#include "level2/kernel_body.h"

const level2_kernels level2_kernels_avx512 = {
    .name = "avx512",
    .gemv_n = kernel_gemv_n,
    .gemv_t = kernel_gemv_t,
    .symv_upper = kernel_symv_upper,
    .symv_lower = kernel_symv_lower,
    .axpy = kernel_axpy,
    .axpy2 = kernel_axpy2,
};
