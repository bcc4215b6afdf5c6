/* engine.h — what src/par offers the kernel families and compat: scratch memory for regions,
 * the width a policy allows, whether a routine may split, the serial rates the gate's estimates
 * are made of, and error reports. Everything else of par (workers, pools, teams, the gate's
 * insides) stays behind par.h, which only src/par and white-box tests include. Regions
 * themselves are started through tela.h (tela_parallel_gated). */
#ifndef TELA_PAR_ENGINE_H
#define TELA_PAR_ENGINE_H

#include "tela.h"

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: the policy's and workers' timings, and the rates
 * the steps' shares follow. */
static inline double par_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define PAR_CACHE_LINE 64

/* ---- regions (region.c, policy.c) ---- */

/* Runs body on the calling thread alone. */
void par_region_run_serial(tela_body body, void *arg);

/* The most members a region under par may get: the team's, pool's or default width, within
 * par's limit (policy.c). What per-member buffers are sized for. */
int par_width_bound(tela_par par);

/* ---- scratch memory (scratch.c) ----
 * Every buffer a kernel uses inside a region comes from here. A kernel family declares what each
 * thread must keep in a slot; par reserves it on every worker when it starts and on a caller
 * before each region, so a serial kernel call in a region body finds its memory without
 * allocating. Larger needs are met outside regions (a held team's workspace, a caller's kept
 * buffer grown, or a fresh block freed after the call). */
typedef enum par_scratch_slot {
    PAR_SCRATCH_PACK,    /* a kernel's packing buffers (serial calls in a region included) */
    PAR_SCRATCH_ROUTINE, /* a routine's data that outlives the kernels it calls meanwhile */
    PAR_SCRATCH_CALL,    /* an entry point's conversions, held through the whole call (the
                          * drop-in layer's pivot arrays) */
    PAR_SCRATCH_DRIVER,  /* a driver's data held through the routines it calls, each of which
                          * takes ROUTINE memory of its own (the eigen drivers' vectors) */
    PAR_SCRATCH_SLOTS
} par_scratch_slot;

/* From now on every thread keeps at least bytes (capped at the keep limit, 16 MiB) in slot.
 * Declare before the threads that need it start: a kernel family does it when the library
 * is loaded. */
void par_scratch_declare(par_scratch_slot slot, size_t bytes);
/* Gives the calling thread, outside any region, what has been declared; a no-op inside a region
 * or when nothing changed since its last call. False when out of memory. */
bool par_scratch_reserve(void);
/* A 64-byte aligned block of at least bytes: the calling thread's kept one in slot, grown if
 * needed, or, above the keep limit, a fresh one with *owned set (par_scratch_release frees it).
 * NULL when it would need allocating inside a region, or out of memory. */
void *par_scratch_thread(par_scratch_slot slot, size_t bytes, bool *owned);
/* Memory for a region's shared data under par, got before the region: for PACK a held team's
 * workspace, else (and for the other slots, which live through the kernels a routine calls)
 * par_scratch_thread(slot). */
void *par_scratch_region(tela_par par, par_scratch_slot slot, size_t bytes, bool *owned);
/* members blocks of bytes each, *stride bytes apart (64-byte aligned), from
 * par_scratch_region(PACK): a region's per-member buffers. */
void *par_scratch_members(tela_par par, int members, size_t bytes, size_t *stride, bool *owned);
/* Frees p if it was handed out *owned. */
void par_scratch_release(void *p, bool owned);

/* ---- the gate's inputs (costs.c, gate.c) ---- */

/* Serial rates of the active table (defaults where not measured). */
double par_rate_ns_per_flop(void);
/* Whether any region of at most estimate_ns could run wider than one under par: a routine whose
 * largest region cannot runs with tela_par_seq(), and its many small steps skip their gates
 * (each costs a few tens of ns, docs/team.md). True for a bad policy, whose regions report it. */
bool par_may_split(tela_par par, double estimate_ns);
double par_rate_copy_ns_per_element(void);
/* The serial time of a memory-bound routine that moves elements doubles (each read or written
 * once, counted once per direction): what level-1 and level-2 regions tell the gate. The rate is
 * a cache-resident copy's, the fastest streaming there is, so the estimate errs towards serial. */
static inline double par_stream_estimate_ns(double elements)
{
    return elements * par_rate_copy_ns_per_element();
}

/* ---- the instruction set (isa.c) ----
 * Kernel families keep one build of their loops per ISA (files named *_avx512.c, *_avx2.c,
 * compiled with those flags) and run the one par_isa_chosen() names. */
typedef enum par_isa { PAR_ISA_GENERIC, PAR_ISA_AVX2, PAR_ISA_AVX512, PAR_ISA_COUNT } par_isa;

/* The widest ISA this CPU runs, or the one TELA_ARCH names if the CPU runs it; chosen once. */
par_isa par_isa_chosen(void);
/* Whether this CPU runs isa. */
bool par_isa_runs(par_isa isa);
/* Whether the CPU is Intel's: where a kernel family measured a choice on Intel's cores and on
 * AMD's apart (false off x86). */
bool par_cpu_is_intel(void);
/* "generic", "avx2", "avx512"; par_isa_by_name's inverse (PAR_ISA_COUNT for an unknown name). */
const char *par_isa_name(par_isa isa);
par_isa par_isa_by_name(const char *name);

/* ---- errors (error.c) ---- */

/* Reports through the installed handler; returns status for convenience. */
int par_error(int status, const char *where, const char *message);

#endif /* TELA_PAR_ENGINE_H */
