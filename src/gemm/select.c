/* select.c — which micro-kernel this CPU runs, chosen once from cpuid, and
 * its cache blocks, sized once from the caches the C library reports (a
 * kc x nr B panel in half of L1, the mc x kc A block in 40% of L2, the
 * kc x nc B block in a quarter of L3 and at most GEMM_B_BLOCK_BYTES). */
#include "gemm/gemm.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Block sizes here are the fallbacks, for caches like this project's Zen 5
 * (48 KiB L1d, 1 MiB L2 per core, 32 MiB L3), when none are reported. */
static gemm_kernel kernels[] = {
    /* kc 256 x nr 12 x 8 B = 24 KiB of B in L1; mc 192 x kc 256 = 384 KiB of A in L2;
     * kc 256 x nc 1032 x 8 B = 2 MiB of B in L3. */
    {"avx512", 16, 12, 192, 256, 1032, gemm_ukernel_avx512, gemm_small_avx512, gemm_pack_a_avx512,
     gemm_pack_b_avx512, gemm_tri_left_avx512, gemm_tri_right_avx512, gemm_unit_lower_panel_avx512,
     true, gemm_ukernel_narrow_avx512, gemm_transpose_avx512},
    {"avx2", 8, 6, 144, 256, 1026, gemm_ukernel_avx2, gemm_small, gemm_pack_a, gemm_pack_b,
     gemm_tri_left_generic, gemm_tri_right_generic, gemm_unit_lower_panel_avx2, false, NULL,
     gemm_transpose},
    {"generic", 4, 4, 128, 256, 1024, gemm_ukernel_generic, gemm_small, gemm_pack_a, gemm_pack_b,
     gemm_tri_left_generic, gemm_tri_right_generic, gemm_unit_lower_panel_generic, false, NULL,
     gemm_transpose},
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

static int round_down(long x, int multiple, int low, int high)
{
    long r = x / multiple * multiple;
    return r < low ? low : r > high ? high / multiple * multiple : (int)r;
}

void gemm_blocks_for(gemm_kernel *kr, long l1, long l2, long l3)
{
    if (l1 > 0)
        kr->kc = round_down(l1 / 2 / (kr->nr * (long)sizeof(double)), 8, 64, 512);
    if (l2 > 0)
        kr->mc = round_down(l2 * 2 / 5 / (kr->kc * (long)sizeof(double)), kr->mr, kr->mr, 1024);
    if (l3 <= 0 && l2 > 0)
        l3 = 4 * l2;
    if (l3 > 0) {
        const long column = (long)kr->kc * (long)sizeof(double);
        /* The cap rounded up to whole panels: 1024 columns stay one block. */
        const long cap = (GEMM_B_BLOCK_BYTES / column + kr->nr - 1) / kr->nr * kr->nr;
        const long nc = l3 / 4 / column;
        kr->nc = round_down(nc < cap ? nc : cap, kr->nr, 16 * kr->nr, 4096);
    }
}

static long cache_bytes(int name, const char *sys_index)
{
    long v = -1;
#if defined(_SC_LEVEL1_DCACHE_SIZE)
    v = sysconf(name);
#else
    (void)name;
#endif
    if (v > 0)
        return v;
    /* sysfs: "48K", "1024K", "32768K". */
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/%s/size", sys_index);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char unit = 0;
    if (fscanf(f, "%ld%c", &v, &unit) < 1)
        v = -1;
    fclose(f);
    return v > 0 && (unit == 'K' || unit == 'k') ? v * 1024 : v > 0 && unit == 'M' ? v << 20 : v;
}

static pthread_once_t sized_once = PTHREAD_ONCE_INIT;

static void size_kernels(void)
{
    const long l1 = cache_bytes(_SC_LEVEL1_DCACHE_SIZE, "index0");
    const long l2 = cache_bytes(_SC_LEVEL2_CACHE_SIZE, "index2");
    const long l3 = cache_bytes(_SC_LEVEL3_CACHE_SIZE, "index3");
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        gemm_blocks_for(&kernels[i], l1, l2, l3);
}

const gemm_kernel *gemm_kernel_by_name(const char *name)
{
    pthread_once(&sized_once, size_kernels);
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return cpu_runs(name) ? &kernels[i] : NULL;
    return NULL;
}

static const gemm_kernel *chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    pthread_once(&sized_once, size_kernels);
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
