/* registry_generic.c — the generic kernel set: plain C that any CPU runs, and the defaults the
 * other ISAs' registries fall back to for every kernel they leave NULL. Block sizes are
 * fallbacks for when the C library reports no caches (select.c fits them to the caches). */
#include "gemm/gemm.h"

const gemm_kernel gemm_registry_generic = {
    .name = "generic",
    .mr = 4,    /* rows of a micro-tile, doubles */
    .nr = 4,    /* columns of a micro-tile, doubles */
    .mc = 128,  /* rows of the packed A block (mc x kc in L2) */
    .kc = 256,  /* depth of a packed panel, doubles */
    .nc = 1024, /* columns of the packed B block (kc x nc in L3) */
    .ukernel = gemm_kernel_generic_d4x4,
    .small = gemm_small,
    .pack_a = gemm_pack_a,
    .pack_b = gemm_pack_b,
    .tri_left = gemm_tri_left_generic,
    .tri_right = gemm_tri_right_generic,
    .unit_lower_panel = gemm_unit_lower_panel_generic,
    .unpacked_fast = false,
    .edge = NULL, /* edge tiles computed whole, into a buffer */
    .transpose = gemm_transpose,
};
