/* tela_bench_plot.h — tela-bench's SVG plot: GFLOP/s against n (log scale), a panel per routine
 * and gemm transpose pair, a line per side and thread count, each thread count's peak dashed. Plain
 * SVG text written by hand, so drawing needs nothing beyond libc. */
#ifndef TELA_BENCH_PLOT_H
#define TELA_BENCH_PLOT_H

#include "tela_bench_problem.h"

struct tb_plot_point {
    int n;                   /* problem size */
    double median, min, max; /* GFLOP/s over the rounds */
};

struct tb_plot_series {
    enum tb_side side;
    int threads;
    int count;                          /* points, in increasing n */
    const struct tb_plot_point *points; /* owned by the caller */
};

/* The peak of one thread count: a dashed line in every panel that has a series of that count. */
struct tb_plot_peak {
    int threads;
    double gflops;
};

struct tb_plot_panel {
    char title[96];   /* e.g. "gemm NN" */
    char x_label[64]; /* e.g. "n (m = n = k; log scale)" */
    int series_count;
    const struct tb_plot_series *series; /* owned by the caller */
};

/* Writes the plot to path; title heads it, subtitle (may be NULL) goes under it; peaks, named
 * peak_label in the legend ("measured FMA peak"), draw the peak lines. Returns 0, or -1 if the
 * file cannot be written (errno set). */
int tb_plot_write(const char *path, const char *title, const char *subtitle,
                  const struct tb_plot_panel *panels, int panel_count,
                  const struct tb_plot_peak *peaks, int peak_count, const char *peak_label);

#endif
