/* select.c — which micro-kernel this CPU runs, chosen once from cpuid.
 *
 * Block sizes per kernel are for caches like this project's Zen 5 (48 KiB
 * L1d, 1 MiB L2 per core, 32 MiB L3): a kc x nr B panel stays in L1, the
 * mc x kc A block in L2, the kc x nc B block in L3. */
#include "gemm/gemm.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const gemm_kernel kernels[] = {
    /* kc 256 x nr 12 x 8 B = 24 KiB of B in L1; mc 192 x kc 256 = 384 KiB of A in L2. */
    {"avx512", 16, 12, 192, 256, 4092, gemm_ukernel_avx512, gemm_small_avx512, gemm_pack_a_avx512,
     gemm_pack_b_avx512, gemm_tri_left_avx512, gemm_tri_right_avx512, true},
    {"avx2", 8, 6, 144, 256, 4092, gemm_ukernel_avx2, gemm_small, gemm_pack_a, gemm_pack_b,
     gemm_tri_left_generic, gemm_tri_right_generic, false},
    {"generic", 4, 4, 128, 256, 2048, gemm_ukernel_generic, gemm_small, gemm_pack_a, gemm_pack_b,
     gemm_tri_left_generic, gemm_tri_right_generic, false},
};

static bool cpu_runs(const char *name)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (strcmp(name, "avx512") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
    if (strcmp(name, "avx2") == 0)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    if (strcmp(name, "avx512") == 0 || strcmp(name, "avx2") == 0)
        return false;
#endif
    return strcmp(name, "generic") == 0;
}

const gemm_kernel *gemm_kernel_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return cpu_runs(name) ? &kernels[i] : NULL;
    return NULL;
}

static const gemm_kernel *chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    const char *forced = getenv("TELA_GEMM_KERNEL");
    if (forced && *forced)
        chosen = gemm_kernel_by_name(forced);
    for (size_t i = 0; !chosen && i < sizeof kernels / sizeof kernels[0]; i++)
        if (cpu_runs(kernels[i].name))
            chosen = &kernels[i];
}

const gemm_kernel *gemm_kernel_get(void)
{
    pthread_once(&chosen_once, choose);
    return chosen;
}
