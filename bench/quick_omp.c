/* quick_omp.c — the libgomp reference of tela-quick: the same empty regions as the tela side,
 * driven by `#pragma omp parallel`, timed with the same clock from the calling thread.
 * Compiled alone with -fopenmp; built without it, every function reports "not available". */
#include "quick_omp.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

int omp_side_available(void)
{
    return 1;
}

const char *omp_side_description(void)
{
    static char text[256];
    const char *policy = getenv("OMP_WAIT_POLICY");
    const char *spin = getenv("GOMP_SPINCOUNT");
    snprintf(text, sizeof text, "OpenMP %d (libgomp), OMP_WAIT_POLICY=%s, GOMP_SPINCOUNT=%s",
             _OPENMP, policy ? policy : "(unset: libgomp default)",
             spin ? spin : "(unset: libgomp default)");
    return text;
}

int omp_side_warm_up(int width, int count)
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

double omp_side_empty_region_us(int width)
{
    double start = now_us();
#pragma omp parallel num_threads(width)
    {
        /* Empty on purpose: the cost measured is fork, wake and join. The fence emits no
         * instruction; it only keeps GCC from deleting a region with an empty body, which it
         * otherwise does (the region then costs nothing and the comparison is void). */
        atomic_signal_fence(memory_order_seq_cst);
    }
    return now_us() - start;
}

double omp_side_back_to_back_us(int width, int count)
{
    double start = now_us();
    for (int i = 0; i < count; i++) {
#pragma omp parallel num_threads(width)
        {
            atomic_signal_fence(memory_order_seq_cst); /* see omp_side_empty_region_us */
        }
    }
    return (now_us() - start) / count;
}

#else /* no OpenMP in this build */

int omp_side_available(void)
{
    return 0;
}

const char *omp_side_description(void)
{
    return "not available: built without OpenMP";
}

int omp_side_warm_up(int width, int count)
{
    (void)width;
    (void)count;
    return -1;
}

double omp_side_empty_region_us(int width)
{
    (void)width;
    return -1.0;
}

double omp_side_back_to_back_us(int width, int count)
{
    (void)width;
    (void)count;
    return -1.0;
}

#endif
