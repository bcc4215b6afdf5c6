/* registry_avx2.c — the AVX2 + FMA kernel set: an 8 x 6 micro-kernel (12 accumulators, 2 A
 * vectors and a broadcast fill the 16 ymm registers), the unpacked small path, packing and the
 * transposer, trsm/trmm base triangles and getrf's panel solve, edge tiles in place. */
#include "gemm/gemm.h"

const gemm_kernel gemm_registry_avx2 = {
    .name = "avx2",
    .mr = 8,
    .nr = 6,
    .mc = 144,  /* rows of the packed A block */
    .kc = 256,  /* depth of a packed panel: kc x nr x 8 B = 12 KiB of B in L1 */
    .nc = 1026, /* columns of the packed B block, a multiple of nr */
    .ukernel = gemm_kernel_avx2_d8x6,
    .edge = gemm_kernel_avx2_d8x6_edge,
    .small = gemm_small_avx2,
    .pack_a = gemm_pack_a_avx2,
    .pack_b = gemm_pack_b_avx2,
    .transpose = gemm_transpose_avx2,
    .tri_left = gemm_tri_left_avx2,
    .tri_right = gemm_tri_right_avx2,
    .unit_lower_panel = gemm_unit_lower_panel_avx2,
    .unpacked_fast = true, /* its small path beats packing beyond tiny sizes */
    .unpacked_narrow_tiles = true,
};
