/* bandwidth.h — the memory bandwidth this machine delivers, measured STREAM's way rather than
 * taken from a data sheet: threads sweeping arrays far larger than the last-level cache, all at
 * once. tela-bench gives the memory-bound routines' GB/s as a share of it, as it gives the
 * compute-bound routines' GFLOP/s as a share of the FMA peak (peak.h). */
#ifndef TELA_BENCH_BANDWIDTH_H
#define TELA_BENCH_BANDWIDTH_H

#include <stddef.h>

/* The arrays' size tela-bench gives memory_bandwidth_measure unless told otherwise: 512 MiB,
 * 16 times the L3 of one chiplet of this project's EPYC (32 MiB), so no sweep is served from a
 * cache. */
#define MEMORY_BANDWIDTH_DEFAULT_BYTES ((size_t)512 << 20)

struct memory_bandwidth {
    const char *loop; /* the loops that ran: "AVX-512", "AVX2" or "scalar" */
    int threads;      /* threads that ran them at once */
    size_t bytes;     /* the arrays' size in all */
    double read_gbs;  /* read: sum of an array, 8 bytes per element; GB/s (1e9 bytes/s) */
    double triad_gbs; /* triad: a = b + s c, STREAM's 24 bytes per element (a's write-allocate
                         read is not counted) */
};

/* Runs both loops on threads threads at once, each thread pinned to its own CPU when there
 * are enough, over bytes of arrays split evenly among them (each thread allocates and first
 * touches its own share, then sweeps it round and round): per loop a warm-up of 20 ms, then
 * slices of 5 ms over 100 ms, each slice's rates summed over the threads (the same wall time
 * for all); the best slice counts, since a busy machine can only lower a slice. About 0.25 s
 * besides the first touch. Returns 0, or -1 if the memory could not be allocated or a thread
 * could not be started. */
int memory_bandwidth_measure(int threads, size_t bytes, struct memory_bandwidth *bandwidth);

#endif
