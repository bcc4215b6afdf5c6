/* quick_omp.h — the OpenMP (libgomp) side of tela-quick, as plain C functions.
 *
 * quick_omp.c is the only file compiled with -fopenmp; quick.c calls these so the tela side
 * of the benchmark never sees OpenMP. Without OpenMP they report "not available". */
#ifndef TELA_BENCH_QUICK_OMP_H
#define TELA_BENCH_QUICK_OMP_H

/* 1 if this build has the OpenMP side, else 0 (and the functions below return -1). */
int omp_side_available(void);

/* A line naming the OpenMP runtime and its wait settings, for the report. */
const char *omp_side_description(void);

/* Runs count empty regions of width width untimed, so libgomp has its threads; returns the
 * number of threads the last region really had (-1 without OpenMP). */
int omp_side_warm_up(int width, int count);

/* Microseconds of one empty `#pragma omp parallel num_threads(width)` region, measured by the
 * caller (master) thread from before the fork to after the join. */
double omp_side_empty_region_us(int width);

/* Microseconds per region of count back-to-back empty regions of width width. */
double omp_side_back_to_back_us(int width, int count);

#endif
