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

#if defined(__x86_64__)
/* AVX-512's tables for Intel's cores: the dot on zmm registers at every length. From L2 (10^4,
 * 3 x 10^4, 10^5 elements) it ran 1.16-1.19x the AVX2 loop the tables take past 2048 elements,
 * level with OpenBLAS's Cooperlake ddot (1088 against 1105 ns at 10^4) where the AVX2 loop ran
 * 0.83x; from memory (10^6) all alike (Xeon model 207). The AVX2 loop was Zen 5's measured
 * choice, and stays there. */
static level1_loops zmm_dot, zmm_dot_streaming;

static void use_zmm_dot(void)
{
    zmm_dot_streaming = *level1_loops_avx512.streaming;
    zmm_dot_streaming.dot = level1_dot_zmm;
    zmm_dot_streaming.streaming = &zmm_dot_streaming;
    zmm_dot = level1_loops_avx512;
    zmm_dot.dot = level1_dot_zmm;
    zmm_dot.streaming = &zmm_dot_streaming;
    chosen = &zmm_dot;
}
#endif

static void choose(void)
{
    const par_isa isa = par_isa_chosen();
    chosen = isa < PAR_ISA_COUNT && loops_by_isa[isa] ? loops_by_isa[isa] : &level1_loops_generic;
#if defined(__x86_64__)
    if (chosen == &level1_loops_avx512 && par_cpu_is_intel())
        use_zmm_dot();
#endif
}

const level1_loops *level1_loops_for(tela_int n)
{
    pthread_once(&chosen_once, choose);
    return n > LEVEL1_BLOCK ? chosen->streaming : chosen;
}
