/* select.c — the level-2 kernel set of the ISA par chose once for every kernel family
 * (par_isa_chosen: cpuid, or TELA_ARCH), from one table indexed by that ISA. */
#include "level2/level2.h"

#include <assert.h>

static const level2_kernels *const sets[PAR_ISA_COUNT] = {
    [PAR_ISA_GENERIC] = &level2_kernels_generic,
    [PAR_ISA_AVX2] = &level2_kernels_avx2,
    [PAR_ISA_AVX512] = &level2_kernels_avx512,
};

const level2_kernels *level2_kernels_get(void)
{
    const par_isa isa = par_isa_chosen();
    assert(isa >= 0 && isa < PAR_ISA_COUNT && sets[isa]);
    return sets[isa];
}
