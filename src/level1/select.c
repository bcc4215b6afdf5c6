/* select.c — which instruction set's loops the level-1 routines run: the one par_isa_chosen()
 * names (TELA_ARCH forces a narrower one), looked up once, AVX-512's own table for Intel's cores;
 * for vectors of several blocks, its streaming table. */
#include "level1/level1.h"
#include "par/engine.h"

#include <pthread.h>

static const level1_loops *const loops_by_isa[PAR_ISA_COUNT] = {
    [PAR_ISA_GENERIC] = &level1_loops_generic,
#if defined(__x86_64__)
    [PAR_ISA_AVX2] = &level1_loops_avx2,
    [PAR_ISA_AVX512] = &level1_loops_avx512,
#endif
};

static const level1_loops *chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    const par_isa isa = par_isa_chosen();
    chosen = isa < PAR_ISA_COUNT && loops_by_isa[isa] ? loops_by_isa[isa] : &level1_loops_generic;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (chosen == &level1_loops_avx512 && __builtin_cpu_is("intel"))
        chosen = &level1_loops_avx512_intel;
#endif
}

const level1_loops *level1_loops_for(tela_int n)
{
    pthread_once(&chosen_once, choose);
    return n > LEVEL1_BLOCK ? chosen->streaming : chosen;
}
