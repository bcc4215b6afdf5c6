/* isa.c — the instruction set every kernel family runs: the widest of AVX-512, AVX2 (both with
 * FMA) and plain x86-64 that the CPU has, chosen once; TELA_ARCH=generic|avx2|avx512 forces a
 * narrower one (tests run the same sources on each). One choice for the whole library, so a
 * GEMM and the vector loops around it never disagree on which code rounds their sums. */
#include "par/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const isa_names[PAR_ISA_COUNT] = {
    [PAR_ISA_GENERIC] = "generic",
    [PAR_ISA_AVX2] = "avx2",
    [PAR_ISA_AVX512] = "avx512",
};

const char *par_isa_name(par_isa isa)
{
    return isa >= 0 && isa < PAR_ISA_COUNT ? isa_names[isa] : "unknown";
}

par_isa par_isa_by_name(const char *name)
{
    for (int i = 0; i < PAR_ISA_COUNT; i++)
        if (strcmp(name, isa_names[i]) == 0)
            return (par_isa)i;
    return PAR_ISA_COUNT;
}

bool par_isa_runs(par_isa isa)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (isa == PAR_ISA_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
    if (isa == PAR_ISA_AVX2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    if (isa == PAR_ISA_AVX512 || isa == PAR_ISA_AVX2)
        return false;
#endif
    return isa == PAR_ISA_GENERIC;
}

bool par_cpu_is_intel(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    __builtin_cpu_init();
    return __builtin_cpu_is("intel");
#else
    return false;
#endif
}

static par_isa chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    /* A forced ISA the CPU lacks falls back to the detected one. */
    const char *forced = getenv("TELA_ARCH");
    if (forced && *forced) {
        par_isa isa = par_isa_by_name(forced);
        if (isa < PAR_ISA_COUNT && par_isa_runs(isa)) {
            chosen = isa;
            return;
        }
    }
    chosen = PAR_ISA_GENERIC;
    for (int i = PAR_ISA_COUNT - 1; i > PAR_ISA_GENERIC; i--)
        if (par_isa_runs((par_isa)i)) {
            chosen = (par_isa)i;
            return;
        }
}

par_isa par_isa_chosen(void)
{
    pthread_once(&chosen_once, choose);
    return chosen;
}
