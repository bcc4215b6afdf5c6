/* tela_bench_plot.h — tela-bench's SVG plot: GFLOP/s (GB/s for the memory-bound routines) against
 * n (log scale), a panel per routine and transpose pair or triangle, a line per side and thread
 * count, each thread count's peak (read bandwidth) dashed. Plain SVG text written by hand, so
 * drawing needs nothing beyond libc. */
#ifndef TELA_BENCH_PLOT_H
#define TELA_BENCH_PLOT_H

#include "tela_bench_problem.h"

struct tb_plot_point {
    int n;                   /* problem size */
    double median, min, max; /* GFLOP/s or GB/s over the rounds */
};

struct tb_plot_series {
    enum tb_side side;
    int threads;
    int count;                          /* points, in increasing n */
    const struct tb_plot_point *points; /* owned by the caller */
};

/* The peak of one thread count: a dashed line in its panel if a series has that count. */
struct tb_plot_peak {
    int threads;
    double value; /* in the panel's unit */
};

struct tb_plot_panel {
    char title[96];                   /* e.g. "gemm NN" */
    char x_label[64];                 /* e.g. "n (m = n = k; log scale)" */
    const char *y_label;              /* "GFLOP/s" or "GB/s" */
    const struct tb_plot_peak *peaks; /* owned by the caller */
    int peak_count;
    const char *peak_label; /* the peaks' name in the legend: "measured FMA peak" */
    int series_count;
    const struct tb_plot_series *series; /* owned by the caller */
};

/* Writes the plot to path; title heads it, subtitle (may be NULL) goes under it. Returns 0, or
 * -1 if the file cannot be written (errno set). */
int tb_plot_write(const char *path, const char *title, const char *subtitle,
                  const struct tb_plot_panel *panels, int panel_count);

#endif
