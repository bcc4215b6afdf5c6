/* peak.c — the FMA peak probe (peak.h). Each loop is compiled for its ISA with a target attribute
 * and chosen at run time with __builtin_cpu_supports, so the build needs no -mavx512f and the
 * program still runs on any x86-64. A loop keeps 16 independent accumulators: an FMA takes about
 * 4 cycles and a core issues two per cycle, so 8 chains in flight are the least that keep both
 * pipes busy; 16 leaves a margin for cores with longer latency. */
#include "peak.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#define ACCUMULATORS 16
/* Loop iterations between two reads of the clock: 16k FMAs, a few microseconds. */
#define ITERATIONS_PER_CHECK 1024
/* A warm-up first (the core reaches its AVX-512 clock, the upper halves of the vector units power
 * up), then the measured slices: short ones, so that on a shared machine some fall between
 * other processes' turns on the CPU. */
#define WARM_UP_NS      10000000LL
#define SLICE_NS        2000000LL
#define MEASURED_SLICES 25
/* acc = acc * FACTOR + ADDEND converges to ADDEND / (1 - FACTOR) = 1: no overflow, no denormals,
 * whatever the run's length. */
#define FACTOR 0.999999
#define ADDEND 0.000001

/* Runs until deadline_ns; returns the flops done and stores the accumulators' sum in *sink, so
 * the compiler must compute them. */
typedef double fma_loop(int64_t deadline_ns, double *sink);

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Without FMA: a multiply and an add per element, which the compiler may put in SSE2 vectors. */
static double loop_multiply_add(int64_t deadline_ns, double *sink)
{
    double acc[ACCUMULATORS];
    for (int i = 0; i < ACCUMULATORS; i++)
        acc[i] = 0.1 * i;
    long iterations = 0;
    do {
        for (int k = 0; k < ITERATIONS_PER_CHECK; k++) {
#pragma GCC unroll 16
            for (int i = 0; i < ACCUMULATORS; i++)
                acc[i] = acc[i] * FACTOR + ADDEND;
        }
        iterations += ITERATIONS_PER_CHECK;
    } while (now_ns() < deadline_ns);
    double sum = 0.0;
    for (int i = 0; i < ACCUMULATORS; i++)
        sum += acc[i];
    *sink = sum;
    return (double)iterations * ACCUMULATORS * 2.0;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2,fma"))) static double loop_avx2(int64_t deadline_ns, double *sink)
{
    const __m256d factor = _mm256_set1_pd(FACTOR), addend = _mm256_set1_pd(ADDEND);
    __m256d acc[ACCUMULATORS];
    for (int i = 0; i < ACCUMULATORS; i++)
        acc[i] = _mm256_set1_pd(0.1 * i);
    long iterations = 0;
    do {
        for (int k = 0; k < ITERATIONS_PER_CHECK; k++) {
#pragma GCC unroll 16
            for (int i = 0; i < ACCUMULATORS; i++)
                acc[i] = _mm256_fmadd_pd(acc[i], factor, addend);
        }
        iterations += ITERATIONS_PER_CHECK;
    } while (now_ns() < deadline_ns);
    __m256d sum = acc[0];
    for (int i = 1; i < ACCUMULATORS; i++)
        sum = _mm256_add_pd(sum, acc[i]);
    double lanes[4];
    _mm256_storeu_pd(lanes, sum);
    *sink = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    return (double)iterations * ACCUMULATORS * 4 * 2.0;
}

__attribute__((target("avx512f"))) static double loop_avx512(int64_t deadline_ns, double *sink)
{
    const __m512d factor = _mm512_set1_pd(FACTOR), addend = _mm512_set1_pd(ADDEND);
    __m512d acc[ACCUMULATORS];
    for (int i = 0; i < ACCUMULATORS; i++)
        acc[i] = _mm512_set1_pd(0.1 * i);
    long iterations = 0;
    do {
        for (int k = 0; k < ITERATIONS_PER_CHECK; k++) {
#pragma GCC unroll 16
            for (int i = 0; i < ACCUMULATORS; i++)
                acc[i] = _mm512_fmadd_pd(acc[i], factor, addend);
        }
        iterations += ITERATIONS_PER_CHECK;
    } while (now_ns() < deadline_ns);
    __m512d sum = acc[0];
    for (int i = 1; i < ACCUMULATORS; i++)
        sum = _mm512_add_pd(sum, acc[i]);
    *sink = _mm512_reduce_add_pd(sum);
    return (double)iterations * ACCUMULATORS * 8 * 2.0;
}
#endif

/* The widest loop the CPU runs, and its name. */
static fma_loop *choose_loop(const char **name)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) {
        *name = "AVX-512 FMA";
        return loop_avx512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        *name = "AVX2 FMA";
        return loop_avx2;
    }
#endif
    *name = "multiply-add";
    return loop_multiply_add;
}

/* What the caller tells the threads once it has tried to start them all. */
enum start_signal { START_WAIT, START_RUN, START_ABANDON };

struct run {
    fma_loop *loop;
    int64_t begin_ns; /* the warm-up's start; slice s starts at the same time for every thread:
                         a thread the scheduler kept waiting has less time in it, not a later
                         slice */
    atomic_int start; /* enum start_signal; begin_ns is set before START_RUN */
};

struct worker {
    pthread_t thread;
    struct run *run;
    double gflops[MEASURED_SLICES]; /* this thread's rate in each slice */
    double sink;                    /* the loop's result, kept so its work is not dead */
};

static void *run_worker(void *argument)
{
    struct worker *worker = argument;
    struct run *run = worker->run;
    int start;
    /* Acquire: pairs with the caller's release store, which follows its write of begin_ns. */
    while ((start = atomic_load_explicit(&run->start, memory_order_acquire)) == START_WAIT)
        sched_yield();
    if (start == START_ABANDON)
        return NULL;
    run->loop(run->begin_ns + WARM_UP_NS, &worker->sink);
    for (int slice = 0; slice < MEASURED_SLICES; slice++) {
        const int64_t slice_begin = run->begin_ns + WARM_UP_NS + slice * SLICE_NS;
        const double flops = run->loop(slice_begin + SLICE_NS, &worker->sink);
        worker->gflops[slice] = flops / (double)(now_ns() - slice_begin);
    }
    return NULL;
}

int fma_peak_measure(int threads, struct fma_peak *peak)
{
    struct run run = {.loop = choose_loop(&peak->loop)};
    atomic_init(&run.start, START_WAIT);
    peak->threads = threads;
    peak->gflops = 0.0;
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    if (!workers)
        return -1;
    /* Each thread on its own CPU of the process's mask, when there are enough: this VM's
     * scheduler may otherwise keep two new threads on one CPU for the whole run (docs/team.md,
     * "This machine's scheduler packs threads"), which measured one core's peak for two. */
    cpu_set_t mask;
    int cpus[CPU_SETSIZE], cpu_count = 0;
    if (sched_getaffinity(0, sizeof mask, &mask) == 0)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &mask))
                cpus[cpu_count++] = c;
    int started = 0;
    while (started < threads) {
        workers[started].run = &run;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        if (threads <= cpu_count) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpus[started], &one);
            pthread_attr_setaffinity_np(&attr, sizeof one, &one);
        }
        const int failed =
            pthread_create(&workers[started].thread, &attr, run_worker, &workers[started]);
        pthread_attr_destroy(&attr);
        if (failed != 0)
            break;
        started++;
    }
    run.begin_ns = now_ns();
    atomic_store_explicit(&run.start, started == threads ? START_RUN : START_ABANDON,
                          memory_order_release);
    for (int t = 0; t < started; t++)
        pthread_join(workers[t].thread, NULL);

    for (int slice = 0; started == threads && slice < MEASURED_SLICES; slice++) {
        double sum = 0.0;
        for (int t = 0; t < threads; t++)
            sum += workers[t].gflops[slice];
        peak->gflops = sum > peak->gflops ? sum : peak->gflops;
    }
    free(workers);
    return started == threads ? 0 : -1;
}
