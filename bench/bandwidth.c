/* bandwidth.c — the memory bandwidth probe (bandwidth.h). As in peak.c, each loop is compiled for
 * its ISA with a target attribute and chosen at run time with __builtin_cpu_supports, and each
 * thread is pinned to its own CPU. The read loop keeps eight vector accumulators, so the adds'
 * latency never limits it and only memory does; the triad uses ordinary stores, as the BLAS
 * routines measured against it do, so the write-allocate read of a is paid but, as in STREAM,
 * not counted. */
#include "bandwidth.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* Per loop, a warm-up, then the measured slices, as in peak.c: short ones, so that on a shared
 * machine some fall between other processes' turns on the CPUs; a slice moves 100 MB or more. */
#define WARM_UP_NS      20000000LL
#define SLICE_NS        5000000LL
#define MEASURED_SLICES 20
/* Elements a loop runs over between two reads of the clock (256 KiB: the clock costs well
 * under 1% of the time); a thread's share is a multiple of three chunks, the triad's a, b and c
 * being its thirds. A multiple of the 64 elements a loop iteration handles. */
#define CHUNK_ELEMENTS 32768
#define ALIGNMENT      64
/* The triad's scalar; with b = 1 and c = 2, a = 7 at every pass. */
#define TRIAD_SCALAR 3.0

enum kind { KIND_READ, KIND_TRIAD, KIND_COUNT };

/* Sum of x[0..n), n a multiple of 64, x aligned to ALIGNMENT. */
typedef double read_loop(const double *x, size_t n);
/* a[i] = b[i] + s c[i] for i < n, same conditions. */
typedef void triad_loop(double *a, const double *b, const double *c, double s, size_t n);

struct loops {
    const char *name;
    read_loop *read;
    triad_loop *triad;
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double read_scalar(const double *x, size_t n)
{
    double acc[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (size_t i = 0; i < n; i += 8) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++)
            acc[k] += x[i + (size_t)k];
    }
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

static void triad_scalar(double *a, const double *b, const double *c, double s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2,fma"))) static double read_avx2(const double *x, size_t n)
{
    __m256d acc[8];
    for (int k = 0; k < 8; k++)
        acc[k] = _mm256_setzero_pd();
    for (size_t i = 0; i < n; i += 32) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++)
            acc[k] = _mm256_add_pd(acc[k], _mm256_load_pd(x + i + 4 * (size_t)k));
    }
    for (int k = 1; k < 8; k++)
        acc[0] = _mm256_add_pd(acc[0], acc[k]);
    double lanes[4];
    _mm256_storeu_pd(lanes, acc[0]);
    return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
}

__attribute__((target("avx2,fma"))) static void triad_avx2(double *a, const double *b,
                                                           const double *c, double s, size_t n)
{
    const __m256d scalar = _mm256_set1_pd(s);
    for (size_t i = 0; i < n; i += 16) {
#pragma GCC unroll 4
        for (size_t k = 0; k < 16; k += 4)
            _mm256_store_pd(a + i + k, _mm256_fmadd_pd(scalar, _mm256_load_pd(c + i + k),
                                                       _mm256_load_pd(b + i + k)));
    }
}

__attribute__((target("avx512f"))) static double read_avx512(const double *x, size_t n)
{
    __m512d acc[8];
    for (int k = 0; k < 8; k++)
        acc[k] = _mm512_setzero_pd();
    for (size_t i = 0; i < n; i += 64) {
#pragma GCC unroll 8
        for (int k = 0; k < 8; k++)
            acc[k] = _mm512_add_pd(acc[k], _mm512_load_pd(x + i + 8 * (size_t)k));
    }
    for (int k = 1; k < 8; k++)
        acc[0] = _mm512_add_pd(acc[0], acc[k]);
    return _mm512_reduce_add_pd(acc[0]);
}

__attribute__((target("avx512f"))) static void triad_avx512(double *a, const double *b,
                                                            const double *c, double s, size_t n)
{
    const __m512d scalar = _mm512_set1_pd(s);
    for (size_t i = 0; i < n; i += 32) {
#pragma GCC unroll 4
        for (size_t k = 0; k < 32; k += 8)
            _mm512_store_pd(a + i + k, _mm512_fmadd_pd(scalar, _mm512_load_pd(c + i + k),
                                                       _mm512_load_pd(b + i + k)));
    }
}
#endif

/* The widest loops the CPU runs. */
static struct loops choose_loops(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return (struct loops){"AVX-512", read_avx512, triad_avx512};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return (struct loops){"AVX2", read_avx2, triad_avx2};
#endif
    return (struct loops){"scalar", read_scalar, triad_scalar};
}

/* What the caller tells the threads once it has tried to start them all. */
enum start_signal { START_WAIT, START_RUN, START_ABANDON };

struct run {
    struct loops loops;
    size_t elements;           /* per thread, a multiple of 3 CHUNK_ELEMENTS */
    pthread_barrier_t barrier; /* all threads, after the first touch and once more */
    int64_t begin_ns;         /* the first warm-up's start, the same for every thread (set by one of
                                 them between the two barriers): slice s of a loop starts at the same
                                 time for all, so a thread the scheduler kept waiting has less time in
                                 it, not a later slice */
    atomic_int start;         /* enum start_signal */
    atomic_int out_of_memory; /* a thread could not allocate its share */
};

struct worker {
    pthread_t thread;
    struct run *run;
    double gbs[KIND_COUNT][MEASURED_SLICES]; /* this thread's rate in each slice */
    double sink;                             /* the read loop's sums, kept so its work is live */
};

/* Runs a loop over the thread's share until deadline_ns, a chunk at a time, carrying on from
 * *position where the last call stopped and wrapping at the end: every chunk was last touched
 * a whole share ago, so it comes from memory. Returns the bytes counted. */
static double sweep_until(struct worker *worker, enum kind kind, double *data, size_t *position,
                          int64_t deadline_ns)
{
    const struct run *run = worker->run;
    const size_t third = run->elements / 3;
    const size_t end = kind == KIND_READ ? run->elements : third;
    double bytes = 0.0;
    do {
        if (kind == KIND_READ) {
            worker->sink += run->loops.read(data + *position, CHUNK_ELEMENTS);
            bytes += 8.0 * CHUNK_ELEMENTS;
        } else {
            double *a = data + *position;
            run->loops.triad(a, a + third, a + 2 * third, TRIAD_SCALAR, CHUNK_ELEMENTS);
            bytes += 24.0 * CHUNK_ELEMENTS;
        }
        *position += CHUNK_ELEMENTS;
        if (*position == end)
            *position = 0;
    } while (now_ns() < deadline_ns);
    return bytes;
}

static void *run_worker(void *argument)
{
    struct worker *worker = argument;
    struct run *run = worker->run;
    int start;
    /* Acquire: pairs with the caller's release store once every thread was tried. */
    while ((start = atomic_load_explicit(&run->start, memory_order_acquire)) == START_WAIT)
        sched_yield();
    if (start == START_ABANDON)
        return NULL;
    /* The share is allocated and first touched here, on this thread's CPU: on a machine with
     * several memory nodes its pages are then the node's nearest to the thread. */
    const size_t n = run->elements, third = n / 3;
    double *data = aligned_alloc(ALIGNMENT, n * sizeof *data);
    if (data) {
        for (size_t i = 0; i < n; i++)
            data[i] = i < third ? 0.0 : i < 2 * third ? 1.0 : 2.0;
    } else {
        atomic_store_explicit(&run->out_of_memory, 1, memory_order_relaxed);
    }
    /* The barriers order the flag's store and begin_ns's before every thread's load of them. */
    /* NOLINTNEXTLINE(bugprone-posix-return): it returns PTHREAD_BARRIER_SERIAL_THREAD to one */
    if (pthread_barrier_wait(&run->barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
        run->begin_ns = now_ns();
    pthread_barrier_wait(&run->barrier);
    if (atomic_load_explicit(&run->out_of_memory, memory_order_relaxed)) {
        free(data);
        return NULL;
    }
    int64_t begin = run->begin_ns;
    for (int kind = 0; kind < KIND_COUNT; kind++) {
        size_t position = 0;
        sweep_until(worker, (enum kind)kind, data, &position, begin + WARM_UP_NS);
        for (int slice = 0; slice < MEASURED_SLICES; slice++) {
            const int64_t slice_begin = begin + WARM_UP_NS + slice * SLICE_NS;
            const double bytes =
                sweep_until(worker, (enum kind)kind, data, &position, slice_begin + SLICE_NS);
            worker->gbs[kind][slice] = bytes / (double)(now_ns() - slice_begin);
        }
        begin += WARM_UP_NS + MEASURED_SLICES * SLICE_NS;
    }
    free(data);
    return NULL;
}

/* The best slice of a loop, its rates summed over the threads. */
static double best_slice(const struct worker *workers, int threads, enum kind kind)
{
    double best = 0.0;
    for (int slice = 0; slice < MEASURED_SLICES; slice++) {
        double sum = 0.0;
        for (int t = 0; t < threads; t++)
            sum += workers[t].gbs[kind][slice];
        best = sum > best ? sum : best;
    }
    return best;
}

int memory_bandwidth_measure(int threads, size_t bytes, struct memory_bandwidth *bandwidth)
{
    struct run run = {.loops = choose_loops()};
    const size_t unit = (size_t)3 * CHUNK_ELEMENTS;
    run.elements = bytes / sizeof(double) / (size_t)threads / unit * unit;
    if (run.elements == 0)
        run.elements = unit;
    atomic_init(&run.start, START_WAIT);
    atomic_init(&run.out_of_memory, 0);
    *bandwidth = (struct memory_bandwidth){
        run.loops.name, threads, run.elements * sizeof(double) * (size_t)threads, 0.0, 0.0};
    struct worker *workers = calloc((size_t)threads, sizeof *workers);
    if (!workers)
        return -1;
    if (pthread_barrier_init(&run.barrier, NULL, (unsigned)threads) != 0) {
        free(workers);
        return -1;
    }
    /* Each thread on its own CPU of the process's mask, when there are enough, as peak.c does
     * and for the same reason: left alone, this VM's scheduler may keep two new threads on one
     * CPU for the whole run. */
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
    atomic_store_explicit(&run.start, started == threads ? START_RUN : START_ABANDON,
                          memory_order_release);
    for (int t = 0; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    pthread_barrier_destroy(&run.barrier);

    const int measured = started == threads && !atomic_load(&run.out_of_memory);
    if (measured) {
        bandwidth->read_gbs = best_slice(workers, threads, KIND_READ);
        bandwidth->triad_gbs = best_slice(workers, threads, KIND_TRIAD);
    }
    free(workers);
    return measured ? 0 : -1;
}
