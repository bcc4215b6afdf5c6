/* select.c — the level-2 kernel set of the ISA par chose once for every kernel family
 * (par_isa_chosen: cpuid, or TELA_ARCH), from one table indexed by that ISA. */
#include "level2/level2.h"

#include <assert.h>
#include <pthread.h>

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

/* Orders from which symv prefetches A's columns. Zen 5 was measured with prefetching from 1024;
 * on the Intel Xeon (model 207, 260 MiB L3) it only cost: lower, one thread, 1024 / 1536 / 2048
 * 8-10% / 7% / 5% slower than without, level at 8192, and two threads at 1024 21% slower
 * (docs/blas.md). */
#define SYMV_STREAM_ORDER 1024

static bool symv_prefetches;
static pthread_once_t symv_once = PTHREAD_ONCE_INIT;

static void choose_symv_prefetch(void)
{
    symv_prefetches = !par_cpu_is_intel();
}

bool level2_symv_streams(tela_int order)
{
    pthread_once(&symv_once, choose_symv_prefetch);
    return symv_prefetches && order >= SYMV_STREAM_ORDER;
}
