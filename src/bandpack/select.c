/* select.c — which build of the segment loops runs: the one for the ISA par_isa_chosen() names
 * (the widest the CPU has, or TELA_ARCH's), the same choice every kernel family makes, so a
 * process never mixes fused and unfused roundings between routines. */
#include "bandpack/bandpack.h"
#include "par/engine.h"

#include <stddef.h>

static const bp_segments *const tables[PAR_ISA_COUNT] = {
    [PAR_ISA_GENERIC] = &bp_segments_generic,
    [PAR_ISA_AVX2] = &bp_segments_avx2,
    [PAR_ISA_AVX512] = &bp_segments_avx512,
};

const bp_segments *bp_segments_get(void)
{
    /* par_isa_chosen() decides once; asking it again is a load and a compare. */
    const par_isa isa = par_isa_chosen();
    const bp_segments *table = isa < PAR_ISA_COUNT ? tables[isa] : NULL;
    return table ? table : &bp_segments_generic;
}
