/* bench_median.h — the median the benchmarks report, shared by tela-teambench
 * and tela-calibrate so both summarise rounds the same way. */
#ifndef TELA_BENCH_MEDIAN_H
#define TELA_BENCH_MEDIAN_H

#include <stdlib.h>

static inline int bench_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of count values; sorts them in place. */
static inline double median_of(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, bench_compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

#endif
