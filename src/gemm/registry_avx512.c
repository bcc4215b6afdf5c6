/* registry_avx512.c — the AVX-512F + FMA kernel set: the 16 x 12 micro-kernel and its masked
 * edge variant, the unpacked small path, packing, trsm/trmm base triangles, getrf's panel solve
 * and the 8 x 8 transposer, with block sizes for caches like Zen 5's (48 KiB L1d, 1 MiB L2). */
#include "gemm/gemm.h"

const gemm_kernel gemm_registry_avx512 = {
    .name = "avx512",
    .mr = 16,
    .nr = 12,
    .mc = 192,  /* mc 192 x kc 256 x 8 B = 384 KiB of A in L2 */
    .kc = 256,  /* kc 256 x nr 12 x 8 B = 24 KiB of B in L1 */
    .nc = 1032, /* kc 256 x nc 1032 x 8 B = 2 MiB of B in L3 */
    .ukernel = gemm_kernel_avx512_d16x12,
    .small = gemm_small_avx512,
    .pack_a = gemm_pack_a_avx512,
    .pack_b = gemm_pack_b_avx512,
    .pack_a_from_b = gemm_pack_a_from_b_avx512,
    .tri_left = gemm_tri_left_avx512,
    .tri_right = gemm_tri_right_avx512,
    .unit_lower_panel = gemm_unit_lower_panel_avx512,
    .unpacked_fast = true, /* its small path beats packing beyond tiny sizes */
    .trmm_left_in_place = true,
    .edge = gemm_kernel_avx512_d16x12_edge,
    .ukernel_prefetch = gemm_kernel_avx512_d16x12_prefetch,
    .transpose = gemm_transpose_avx512,
};
