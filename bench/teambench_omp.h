/* teambench_omp.h — the OpenMP (libgomp) side of tela-teambench, as plain C functions.
 *
 * teambench_omp.c is the only file of tela-teambench compiled with -fopenmp; teambench.c calls
 * these, so the tela side never sees OpenMP. Every function runs the same shape of work as its
 * tela counterpart in teambench.c: a section is one fork/join (`#pragma omp parallel`) in which
 * every member busy-waits the section's work on the clock (teambench_clock.h). Built without
 * OpenMP, tb_omp_available() is 0 and the others return -1. */
#ifndef TELA_BENCH_TEAMBENCH_OMP_H
#define TELA_BENCH_TEAMBENCH_OMP_H

#include <stdint.h>
#include <time.h>

/* 1 if this build has the OpenMP side, else 0. */
int tb_omp_available(void);

/* A line naming the OpenMP runtime and its wait settings, for the report. */
const char *tb_omp_description(void);

/* Runs count empty regions of width width untimed, so libgomp has its threads; returns how
 * many threads the last region really had. */
int tb_omp_warm_up(int width, int count);

/* One call: sections consecutive regions of width width, each member busy-waiting work_ns.
 * Returns the call's nanoseconds as seen by the calling thread; *first_ns (if not NULL) gets
 * the time from the call's start to the end of the first region. *narrow counts regions that
 * had fewer threads than width. */
int64_t tb_omp_call(int width, int sections, int64_t work_ns, int64_t *first_ns, long *narrow);

/* Runs one region of width width in which threads 1..width-1 store their CPU-time clock
 * (pthread_getcpuclockid) in clocks[0..width-2] (at most max). Returns how many were stored,
 * or -1 if one failed. libgomp's hot team keeps the same threads while the width stays. */
int tb_omp_worker_clocks(int width, clockid_t *clocks, int max);

#endif
