/* teambench_omp.c — the libgomp reference of tela-teambench: the same calls and sections as the
 * tela side, driven by `#pragma omp parallel num_threads(w)`, one region per section, timed with
 * the same clock from the calling thread. Compiled alone with -fopenmp (default runtime
 * settings: whatever OMP_WAIT_POLICY / GOMP_SPINCOUNT the environment gives); built without
 * OpenMP, every function reports "not available". */
#include "teambench_omp.h"
#include "teambench_clock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>

int tb_omp_available(void)
{
    return 1;
}

const char *tb_omp_description(void)
{
    static char text[320];
    const char *policy = getenv("OMP_WAIT_POLICY");
    const char *spin = getenv("GOMP_SPINCOUNT");
    const char *bind = getenv("OMP_PROC_BIND");
    snprintf(text, sizeof text, "OpenMP %d (libgomp), OMP_WAIT_POLICY=%s, GOMP_SPINCOUNT=%s%s%s",
             _OPENMP, policy ? policy : "(unset: libgomp default)",
             spin ? spin : "(unset: libgomp default)", bind ? ", OMP_PROC_BIND=" : "",
             bind ? bind : "");
    return text;
}

int tb_omp_warm_up(int width, int count)
{
    int team_size = 0;
    for (int i = 0; i < count; i++) {
#pragma omp parallel num_threads(width)
        {
            /* Read back what libgomp granted: dynamic adjustment or a thread limit could
             * quietly make the reference narrower than the tela side. */
#pragma omp master
            team_size = omp_get_num_threads();
        }
    }
    return team_size;
}

int64_t tb_omp_call(int width, int sections, int64_t work_ns, int64_t *first_ns, long *narrow)
{
    long narrow_regions = 0;
    int64_t start = tb_now_ns(), first = start;
    for (int i = 0; i < sections; i++) {
#pragma omp parallel num_threads(width)
        {
            /* The master checks the width as the tela side checks tela_parallel's return. */
#pragma omp master
            narrow_regions += omp_get_num_threads() != width;
            tb_spin_ns(work_ns);
        }
        if (i == 0)
            first = tb_now_ns();
    }
    int64_t end = tb_now_ns();
    if (first_ns)
        *first_ns = first - start;
    *narrow += narrow_regions;
    return end - start;
}

int tb_omp_worker_clocks(int width, clockid_t *clocks, int max)
{
    /* Each worker counts its slot in with a release after writing it, and the caller acquires
     * the counts after the region: ThreadSanitizer does not see libgomp's join (libgomp is not
     * instrumented), and the plain writes were reported as a race with the caller's reads
     * whenever the worker's stack had left TSan's history, which the libgomp suppression then
     * could not match. */
    atomic_int stored = 0, failed = 0;
#pragma omp parallel num_threads(width)
    {
        int thread = omp_get_thread_num();
        if (thread > 0 && thread <= max) {
            clockid_t id;
            const bool ok = pthread_getcpuclockid(pthread_self(), &id) == 0;
            if (ok)
                clocks[thread - 1] = id;
            atomic_fetch_add_explicit(ok ? &stored : &failed, 1, memory_order_release);
        }
    }
    const int s = atomic_load_explicit(&stored, memory_order_acquire);
    return atomic_load_explicit(&failed, memory_order_acquire) ? -1 : s;
}

#else /* no OpenMP in this build */

int tb_omp_available(void)
{
    return 0;
}

const char *tb_omp_description(void)
{
    return "not available: built without OpenMP";
}

int tb_omp_warm_up(int width, int count)
{
    (void)width;
    (void)count;
    return -1;
}

int64_t tb_omp_call(int width, int sections, int64_t work_ns, int64_t *first_ns, long *narrow)
{
    (void)width;
    (void)sections;
    (void)work_ns;
    (void)narrow;
    if (first_ns)
        *first_ns = -1;
    return -1;
}

int tb_omp_worker_clocks(int width, clockid_t *clocks, int max)
{
    (void)width;
    (void)clocks;
    (void)max;
    return -1;
}

#endif
