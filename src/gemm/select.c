/* select.c — which registry's kernel set this CPU runs, chosen once from cpuid (TELA_ARCH forces
 * one), and its cache blocks, sized once from the caches the C library reports (a
 * kc x nr B panel in half of L1, the mc x kc A block in 40% of L2, the
 * kc x nc B block in a quarter of L3 and at most GEMM_B_BLOCK_BYTES, or
 * GEMM_B_BLOCK_BYTES_SPREAD where the kernel asks for the next B panel as it runs). */
#include "gemm/gemm.h"
#include "par/engine.h"

#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The ISAs in order of preference, each with its registry. */
typedef enum gemm_isa { GEMM_ISA_AVX512, GEMM_ISA_AVX2, GEMM_ISA_GENERIC, GEMM_ISA_COUNT } gemm_isa;

static const gemm_kernel *const registries[GEMM_ISA_COUNT] = {
    [GEMM_ISA_AVX512] = &gemm_registry_avx512,
    [GEMM_ISA_AVX2] = &gemm_registry_avx2,
    [GEMM_ISA_GENERIC] = &gemm_registry_generic,
};

/* The registries with the generic kernels filled in and blocks fitted to the caches. */
static gemm_kernel kernels[GEMM_ISA_COUNT];

/* kr's NULL kernels taken from the generic registry. */
static void fill_from_generic(gemm_kernel *kr)
{
    const gemm_kernel *g = &gemm_registry_generic;
    if (!kr->small)
        kr->small = g->small;
    if (!kr->pack_a)
        kr->pack_a = g->pack_a;
    if (!kr->pack_b)
        kr->pack_b = g->pack_b;
    if (!kr->tri_left)
        kr->tri_left = g->tri_left;
    if (!kr->tri_right)
        kr->tri_right = g->tri_right;
    if (!kr->unit_lower_panel)
        kr->unit_lower_panel = g->unit_lower_panel;
    if (!kr->transpose)
        kr->transpose = g->transpose;
}

static bool cpu_runs(const char *name)
{
    par_isa isa = par_isa_by_name(name);
    return isa < PAR_ISA_COUNT && par_isa_runs(isa);
}

static int round_down(long x, int multiple, int low, int high)
{
    long r = x / multiple * multiple;
    return r < low ? low : r > high ? high / multiple * multiple : (int)r;
}

void gemm_blocks_for(gemm_kernel *kr, long l1, long l2, long l3)
{
    if (l1 > 0)
        kr->kc = round_down(l1 / 2 / (kr->nr * (long)sizeof(double)), 8, 64, GEMM_KC_MAX);
    if (l2 > 0) {
        kr->mc = round_down(l2 * 2 / 5 / (kr->kc * (long)sizeof(double)), kr->mr, kr->mr, 1024);
        kr->l2 = l2 < INT_MAX ? (int)l2 : INT_MAX;
    }
    if (l3 <= 0 && l2 > 0)
        l3 = 4 * l2;
    if (l3 > 0) {
        const long column = (long)kr->kc * (long)sizeof(double);
        const long most = kr->spread_requests ? GEMM_B_BLOCK_BYTES_SPREAD : GEMM_B_BLOCK_BYTES;
        /* The cap rounded up to whole panels: 1024 columns stay one block. */
        const long cap = (most / column + kr->nr - 1) / kr->nr * kr->nr;
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

/* Whether the kernels ask for C's tile and the next B panel over their steps (gemm_requests)
 * rather than for C in a burst before each call. On the Intel Xeon (model 207) a copy of the
 * loops around the kernel over a 3072^2 C ran 4-5% faster so, at OpenBLAS's kernel's rate, and
 * dgemm 1024-4096 on one thread 1.02-1.035x; Zen 5 was measured with the burst, 1.01-1.08x
 * against no request, and keeps it until measured (docs/gemm.md). */
static bool spreads_requests(void)
{
    return par_cpu_is_intel();
}

static pthread_once_t sized_once = PTHREAD_ONCE_INIT;

static void size_kernels(void)
{
    const long l1 = cache_bytes(_SC_LEVEL1_DCACHE_SIZE, "index0");
    const long l2 = cache_bytes(_SC_LEVEL2_CACHE_SIZE, "index2");
    const long l3 = cache_bytes(_SC_LEVEL3_CACHE_SIZE, "index3");
    const bool spread = spreads_requests();
    for (int i = 0; i < GEMM_ISA_COUNT; i++) {
        assert(registries[i] && registries[i]->ukernel);
        kernels[i] = *registries[i];
        fill_from_generic(&kernels[i]);
        kernels[i].spread_requests = spread && kernels[i].ukernel_prefetch;
        gemm_blocks_for(&kernels[i], l1, l2, l3);
    }
}

const gemm_kernel *gemm_kernel_by_name(const char *name)
{
    pthread_once(&sized_once, size_kernels);
    for (int i = 0; i < GEMM_ISA_COUNT; i++)
        if (strcmp(kernels[i].name, name) == 0)
            return cpu_runs(name) ? &kernels[i] : NULL;
    return NULL;
}

/* Set once by choose(); gemm_kernel_get reads it first, without pthread_once, whose call is a
 * few ns of a 30 ns dgemm of n = 8. */
const gemm_kernel *_Atomic gemm_kernel_chosen;
static pthread_once_t chosen_once = PTHREAD_ONCE_INIT;

static void choose(void)
{
    pthread_once(&sized_once, size_kernels);
    atomic_store_explicit(&gemm_kernel_chosen, gemm_kernel_by_name(par_isa_name(par_isa_chosen())),
                          memory_order_release);
}

const gemm_kernel *gemm_kernel_choose(void)
{
    pthread_once(&chosen_once, choose);
    return atomic_load_explicit(&gemm_kernel_chosen, memory_order_acquire);
}

/* The largest serial GEMM's packing (B's kc x nc block and A's mc x kc), declared to par when the
 * library is loaded, before any worker starts: every thread then keeps it, and a serial GEMM in
 * a region body packs as it would outside. */
__attribute__((constructor)) static void declare_scratch(void)
{
    const ptrdiff_t any = (ptrdiff_t)1 << 30;
    const size_t doubles = gemm_serial_buffer_len(gemm_kernel_get(), any, any, any);
    par_scratch_declare(PAR_SCRATCH_PACK, doubles * sizeof(double));
}
