/* teambench_clock.h — the clock, busy-wait and sleep that both sides of tela-teambench use.
 *
 * A section's work is a busy-wait on CLOCK_MONOTONIC, written once here so the body of a tela
 * region and the body of an OpenMP region run the very same code. Header-only (static inline)
 * because the OpenMP half (teambench_omp.c) is compiled alone, with -fopenmp, and shares no
 * object code with the tela half. Times are signed 64-bit nanoseconds. */
#ifndef TELA_BENCH_TEAMBENCH_CLOCK_H
#define TELA_BENCH_TEAMBENCH_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

#define TB_NS_PER_S 1000000000LL

static inline int64_t tb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * TB_NS_PER_S + ts.tv_nsec;
}

/* Busy-waits on the clock until deadline (CLOCK_MONOTONIC, ns). */
static inline void tb_spin_until_ns(int64_t deadline)
{
    while (tb_now_ns() < deadline) {}
}

/* Busy-waits ns nanoseconds from now; 0 returns at once without reading the clock. */
static inline void tb_spin_ns(int64_t ns)
{
    if (ns > 0)
        tb_spin_until_ns(tb_now_ns() + ns);
}

/* Sleeps to an absolute deadline, so an interrupted sleep resumes rather than restarts. */
static inline void tb_sleep_until_ns(int64_t deadline)
{
    struct timespec ts = {(time_t)(deadline / TB_NS_PER_S), (long)(deadline % TB_NS_PER_S)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

#endif
