/* peak.h — the double-precision FMA throughput this machine delivers, measured rather than taken
 * from a data sheet: a loop of independent FMAs in the widest vectors the CPU has, on one or more
 * threads at once. The benchmarks give their GFLOP/s as a share of it. */
#ifndef TELA_BENCH_PEAK_H
#define TELA_BENCH_PEAK_H

struct fma_peak {
    const char *loop; /* the loop that ran: "AVX-512 FMA", "AVX2 FMA" or "multiply-add" */
    int threads;      /* threads that ran it at once */
    double gflops;    /* their summed GFLOP/s in the best of the measured slices */
};

/* Runs the loop on threads threads at once, about 60 ms: a warm-up of 10 ms, then slices of 2 ms,
 * each summed over the threads (the same wall time for all, so more threads than CPUs add
 * nothing); the best slice counts, since a busy machine can only lower a slice. Returns 0, or -1
 * if a thread could not be started. */
int fma_peak_measure(int threads, struct fma_peak *peak);

#endif
