/* kernel_body.h — the level-2 kernels, written once in simd.h's vector operations and compiled
 * per ISA by kernels_generic.c, kernels_avx2.c and kernels_avx512.c, each of which names them in
 * its level2_kernels table. Included by those files only.
 *
 * Every loop walks down columns (column-major A streams from memory once). A column group's
 * products are summed as a tree (short dependency chains, so the loads are the limit, not FMA
 * latency), in an order fixed by the group's size; groups are counted from the first column
 * passed, so which rows a call covers never changes an element's arithmetic. */
#ifndef TELA_LEVEL2_KERNEL_BODY_H
#define TELA_LEVEL2_KERNEL_BODY_H

#include "level2/level2.h"
#include "level2/simd.h"

#include <stdint.h>

/* sum over k < g of av[k] t[k] for g = 1, 2, 4 or 8: pairs fused, then added as a tree. Inlined
 * with g a constant. */
static inline __attribute__((always_inline)) l2_vec products_sum(const l2_vec *av, const l2_vec *t,
                                                                 int g)
{
    if (g == 1)
        return l2_mul(av[0], t[0]);
    l2_vec q[4];
    for (tela_int h = 0; h < g / 2; h++)
        q[h] = l2_fma(av[2 * h + 1], t[2 * h + 1], l2_mul(av[2 * h], t[2 * h]));
    for (int width = g / 2; width > 1; width /= 2)
        for (tela_int h = 0; h < width / 2; h++)
            q[h] = l2_add(q[2 * h], q[2 * h + 1]);
    /* cppcheck-suppress uninitvar ; g is 2, 4 or 8 here, so the first loop wrote q[0] */
    return q[0];
}

/* Elements before p's next vector boundary (0 on one): a head vector of them puts every later
 * load of a column on the boundary, and of all columns where lda is a multiple of the lanes. */
static inline tela_int l2_head(const double *p)
{
    return (tela_int)(((uintptr_t)0 - (uintptr_t)p) % (L2_LANES * sizeof(double)) / sizeof(double));
}

/* ---- gemv_n ---- */

/* y[i : i + lanes) += sum over the g columns col[k] of col[k][.] t[k]. */
static inline __attribute__((always_inline)) void
gemv_n_rows(const double *const *col, const l2_vec *t, int g, double *y, tela_int i, int lanes)
{
    l2_vec av[8];
    for (int k = 0; k < g; k++)
        av[k] = l2_get(col[k] + i, lanes);
    l2_put(y + i, l2_add(l2_get(y + i, lanes), products_sum(av, t, g)), lanes);
}

static inline __attribute__((always_inline)) void gemv_n_group(tela_int m, int g, double alpha,
                                                               const double *a, tela_int lda,
                                                               const double *x, tela_int incx,
                                                               double *y)
{
    const double *col[8];
    l2_vec t[8];
    for (tela_int k = 0; k < g; k++) {
        col[k] = a + k * lda;
        t[k] = l2_set1(alpha * x[k * incx]);
    }
    /* Rows up to the first whole vector of the first column as a partial one: then every load of
     * A is aligned when lda is a multiple of the lanes (a row's arithmetic is the same in a
     * partial vector). */
    tela_int i = 0;
    const tela_int head = l2_head(a);
    if (head > 0 && head < m && lda % L2_LANES == 0) {
        gemv_n_rows(col, t, g, y, 0, (int)head);
        i = head;
    }
    for (; i + L2_LANES <= m; i += L2_LANES)
        gemv_n_rows(col, t, g, y, i, L2_LANES);
    if (i < m)
        gemv_n_rows(col, t, g, y, i, (int)(m - i));
}

static void kernel_gemv_n(tela_int m, tela_int n, double alpha, const double *a, tela_int lda,
                          const double *x, tela_int incx, double *y)
{
    tela_int j = 0;
    for (; j + 8 <= n; j += 8)
        gemv_n_group(m, 8, alpha, a + j * lda, lda, x + j * incx, incx, y);
    if (j + 4 <= n) {
        gemv_n_group(m, 4, alpha, a + j * lda, lda, x + j * incx, incx, y);
        j += 4;
    }
    for (; j < n; j++)
        gemv_n_group(m, 1, alpha, a + j * lda, lda, x + j * incx, incx, y);
}

/* ---- gemv_t ---- */

/* Columns col[0 .. g): each row's product goes to the lane of its address (row i at lane
 * (address / 8) mod lanes, when lda keeps the columns aligned alike, else lane i mod lanes), so
 * every load of A after the first partial vector is aligned, and the rows of a column may be
 * taken in pieces at any multiple of the lanes with the same bits. Partial vectors update their
 * own lanes only. */
static inline __attribute__((always_inline)) void gemv_t_group(tela_int m, int g, const double *a,
                                                               tela_int lda, const double *x,
                                                               const double *acc_in,
                                                               double *acc_out, double *dots)
{
    const double *col[8];
    l2_vec acc[8];
    for (tela_int k = 0; k < g; k++) {
        col[k] = a + k * lda;
        acc[k] = acc_in ? l2_load(acc_in + k * LEVEL2_ACC) : l2_zero();
    }
    tela_int i = 0;
    const int q = lda % L2_LANES == 0 ? (int)((uintptr_t)a / sizeof(double) % L2_LANES) : 0;
    if (q > 0 && m > 0) {
        const int hi = m < L2_LANES - q ? q + (int)m : L2_LANES;
        const l2_vec xv = l2_load_lanes(x, q, hi);
        for (int k = 0; k < g; k++)
            acc[k] = l2_fma_lanes(l2_load_lanes(col[k], q, hi), xv, acc[k], q, hi);
        i = hi - q;
    }
    for (; i + L2_LANES <= m; i += L2_LANES) {
        const l2_vec xv = l2_load(x + i);
        for (int k = 0; k < g; k++)
            acc[k] = l2_fma(l2_load(col[k] + i), xv, acc[k]);
    }
    if (i < m) {
        const int lanes = (int)(m - i);
        const l2_vec xv = l2_load_part(x + i, lanes);
        for (int k = 0; k < g; k++)
            acc[k] = l2_fma_lanes(l2_load_part(col[k] + i, lanes), xv, acc[k], 0, lanes);
    }
    for (tela_int k = 0; k < g; k++) {
        if (acc_out)
            l2_store(acc_out + k * LEVEL2_ACC, acc[k]);
        else
            dots[k] = l2_sum(acc[k]);
    }
}

static void kernel_gemv_t(tela_int m, tela_int n, const double *a, tela_int lda, const double *x,
                          const double *acc_in, double *acc_out, double *dots)
{
    for (tela_int j = 0; j < n;) {
        const int g = n - j >= 8 ? 8 : 1;
        const double *in = acc_in ? acc_in + j * LEVEL2_ACC : NULL;
        double *out = acc_out ? acc_out + j * LEVEL2_ACC : NULL;
        if (g == 8)
            gemv_t_group(m, 8, a + j * lda, lda, x, in, out, out ? NULL : dots + j);
        else
            gemv_t_group(m, 1, a + j * lda, lda, x, in, out, out ? NULL : dots + j);
        j += g;
    }
}

/* ---- symv ---- */

/* How far ahead symv prefetches a streaming A's columns, doubles: eight lines. */
#define SYMV_PREFETCH 64

/* Rows [i, i + lanes) of g columns col[k] in one pass: p += sum of col[k] t[k] (t = alpha x_j),
 * acc[k] += col[k] x (the columns' dot products). */
static inline __attribute__((always_inline)) void symv_rows(const double *const *col,
                                                            const l2_vec *t, l2_vec *acc, int g,
                                                            const double *x, double *p, tela_int i,
                                                            int lanes, bool prefetch)
{
    l2_vec av[8];
    const l2_vec xv = l2_get(x + i, lanes);
    for (int k = 0; k < g; k++) {
        if (prefetch)
            __builtin_prefetch(col[k] + i + SYMV_PREFETCH, 0, 3);
        av[k] = l2_get(col[k] + i, lanes);
        l2_pin(&av[k]);
        acc[k] = l2_fma(av[k], xv, acc[k]);
    }
    l2_put(p + i, l2_add(l2_get(p + i, lanes), products_sum(av, t, g)), lanes);
}

/* symv_rows over rows [0, rows), the last vector partial; inlined with prefetch a constant. */
static inline __attribute__((always_inline)) void symv_span(const double *const *col,
                                                            const l2_vec *t, l2_vec *acc, int g,
                                                            const double *x, double *p,
                                                            tela_int rows, bool prefetch)
{
    tela_int i = 0;
    for (; i + L2_LANES <= rows; i += L2_LANES)
        symv_rows(col, t, acc, g, x, p, i, L2_LANES, prefetch);
    if (i < rows)
        symv_rows(col, t, acc, g, x, p, i, (int)(rows - i), false);
}

/* Rows from which a span's columns start with a head (SYMV_HEAD_MIN_ROWS), and the head: the
 * rows before the columns' next vector boundary (l2_head), where all g columns sit at the same
 * offset from one (lda a multiple of the lanes), else 0. */
#define SYMV_HEAD_MIN_ROWS ((tela_int)4 * L2_LANES)
static inline tela_int symv_head(const double *const *col, int g, tela_int rows)
{
    const tela_int head = l2_head(col[0]);
    return rows >= SYMV_HEAD_MIN_ROWS && l2_head(col[g - 1]) == head ? head : 0;
}

/* Whether a kernel call's column groups, whose first span starts at `first`, may start their
 * spans with a head: its groups' columns then all sit off the vector boundary by first's offset
 * (lda a multiple of the lanes). */
static inline bool symv_headed(const double *first, tela_int lda)
{
    return L2_ALIGN_HEADS && lda % L2_LANES == 0 && l2_head(first) != 0;
}

/* symv_span for columns off their vector boundary (a caller's array 16 bytes past a page;
 * dsytrd's A(i+1, i+1) in 7 calls of 8), whose every load is split: dsymv ran 1.5-1.9x slower at
 * 128-512 on the Xeon. The rows before the boundary go first as a partial vector; the dot
 * products' lanes are rotated for the aligned vectors and back after them, so each lane adds the
 * same rows in the same order as from row 0, and the bits do not depend on where A sits (but for
 * the sign of an exact zero: the head's empty lanes add +0, as the last vector's do). */
static inline __attribute__((always_inline)) void
symv_span_headed(const double *const *col, const l2_vec *t, l2_vec *acc, int g, const double *x,
                 double *p, tela_int rows, tela_int head, bool prefetch)
{
    symv_rows(col, t, acc, g, x, p, 0, (int)head, false);
    for (int k = 0; k < g; k++)
        acc[k] = l2_rotate(acc[k], (int)head);
    const double *shifted[8];
    for (int k = 0; k < g; k++)
        shifted[k] = col[k] + head;
    symv_span(shifted, t, acc, g, x + head, p + head, rows - head, prefetch);
    for (int k = 0; k < g; k++)
        acc[k] = l2_rotate(acc[k], L2_LANES - (int)head);
}

/* symv_span, prefetching when the matrix streams (level2.h, symv_upper); with a head where
 * `headed` (a constant: the kernels without one keep their loops as they were, which ran 5% slower
 * at 128-256 with the head's branches beside them). */
static inline __attribute__((always_inline)) void
symv_column_span(const double *const *col, const l2_vec *t, l2_vec *acc, int g, const double *x,
                 double *p, tela_int rows, bool stream, bool headed)
{
    const tela_int head = headed ? symv_head(col, g, rows) : 0;
    if (head && stream)
        symv_span_headed(col, t, acc, g, x, p, rows, head, true);
    else if (head)
        symv_span_headed(col, t, acc, g, x, p, rows, head, false);
    else if (stream)
        symv_span(col, t, acc, g, x, p, rows, true);
    else
        symv_span(col, t, acc, g, x, p, rows, false);
}

/* Column j of the upper triangle alone: the rows above it as vectors, then its diagonal. */
static void symv_upper_one(tela_int j, bool stream, double alpha, const double *a, tela_int lda,
                           const double *x, double *p)
{
    const double *col[1] = {a + j * lda};
    const double tj = alpha * x[j];
    const l2_vec t[1] = {l2_set1(tj)};
    l2_vec acc[1] = {l2_zero()};
    symv_column_span(col, t, acc, 1, x, p, j, stream, false);
    p[j] = l2_fma1(alpha, l2_sum(acc[0]), l2_fma1(col[0][j], tj, p[j]));
}

/* Columns j .. j + L2_LANES - 1 of the upper triangle: the rows above them as vectors, then
 * their diagonal block as one more vector of rows, each column's lanes masked at the diagonal
 * (the other triangle is never read). */
static inline __attribute__((always_inline)) void symv_upper_full(tela_int j, bool stream,
                                                                  bool headed, double alpha,
                                                                  const double *a, tela_int lda,
                                                                  const double *x, double *p)
{
    const double *col[L2_LANES];
    l2_vec t[L2_LANES], acc[L2_LANES];
    for (int k = 0; k < L2_LANES; k++) {
        col[k] = a + (j + k) * lda;
        t[k] = l2_set1(alpha * x[j + k]);
        acc[k] = l2_zero();
    }
    symv_column_span(col, t, acc, L2_LANES, x, p, j, stream, headed);
    const l2_vec xv = l2_load(x + j);
    l2_vec pv = l2_load(p + j);
    for (int k = 0; k < L2_LANES; k++) {
        const l2_vec av = l2_load_part(col[k] + j, k + 1); /* rows j .. j + k */
        pv = l2_fma_lanes(av, t[k], pv, 0, k + 1);
        acc[k] = l2_fma_lanes(av, xv, acc[k], 0, k); /* above the diagonal only */
    }
    l2_store(p + j, l2_fma(l2_set1(alpha), l2_sums(acc), pv));
}

/* Columns [c0, c1) of the upper triangle; headed: a separate copy (below). */
static inline __attribute__((always_inline)) void
symv_upper_columns(tela_int c0, tela_int c1, double alpha, const double *a, tela_int lda,
                   const double *x, double *p, bool stream, bool headed)
{
    tela_int j = c0;
    for (; j + L2_LANES <= c1; j += L2_LANES)
        symv_upper_full(j, stream, headed, alpha, a, lda, x, p);
    for (; j < c1; j++)
        symv_upper_one(j, stream, alpha, a, lda, x, p);
}

static __attribute__((noinline)) void symv_upper_headed(tela_int c0, tela_int c1, double alpha,
                                                        const double *a, tela_int lda,
                                                        const double *x, double *p, bool stream)
{
    symv_upper_columns(c0, c1, alpha, a, lda, x, p, stream, true);
}

static void kernel_symv_upper(tela_int c0, tela_int c1, double alpha, const double *a, tela_int lda,
                              const double *x, double *p, bool stream)
{
    if (symv_headed(a + c0 * lda, lda))
        symv_upper_headed(c0, c1, alpha, a, lda, x, p, stream);
    else
        symv_upper_columns(c0, c1, alpha, a, lda, x, p, stream, false);
}

/* Column j of the lower triangle alone: its diagonal, then the rows below as vectors. q is p's
 * row j. */
static void symv_lower_one(tela_int n, tela_int j, double alpha, const double *a, tela_int lda,
                           const double *x, double *q, bool stream)
{
    const double *col[1] = {a + j * lda + j + 1};
    const double tj = alpha * x[j];
    const l2_vec t[1] = {l2_set1(tj)};
    l2_vec acc[1] = {l2_zero()};
    const double diagonal = l2_fma1(a[j + j * lda], tj, q[0]);
    symv_column_span(col, t, acc, 1, x + j + 1, q + 1, n - j - 1, stream, false);
    q[0] = l2_fma1(alpha, l2_sum(acc[0]), diagonal);
}

/* Columns j .. j + L2_LANES - 1 of the lower triangle: their diagonal block as a vector of rows
 * (lanes masked at the diagonal), then the rows below. q is p's row j. */
static inline __attribute__((always_inline)) void
symv_lower_full(tela_int n, tela_int j, double alpha, const double *a, tela_int lda,
                const double *x, double *q, bool stream, bool headed)
{
    const double *col[L2_LANES];
    l2_vec t[L2_LANES], acc[L2_LANES];
    const l2_vec xv = l2_load(x + j);
    l2_vec pv = l2_load(q);
    for (int k = 0; k < L2_LANES; k++) {
        col[k] = a + (j + k) * lda + j;
        t[k] = l2_set1(alpha * x[j + k]);
        const l2_vec av = l2_load_high(col[k], k); /* rows j + k .. */
        pv = l2_fma_lanes(av, t[k], pv, k, L2_LANES);
        acc[k] = l2_fma_lanes(av, xv, l2_zero(), k + 1, L2_LANES); /* below the diagonal */
        col[k] += L2_LANES;
    }
    symv_column_span(col, t, acc, L2_LANES, x + j + L2_LANES, q + L2_LANES, n - j - L2_LANES,
                     stream, headed);
    l2_store(q, l2_fma(l2_set1(alpha), l2_sums(acc), pv));
}

/* Columns [c0, c1) of the lower triangle; headed: a separate copy (below). */
static inline __attribute__((always_inline)) void
symv_lower_columns(tela_int n, tela_int c0, tela_int c1, double alpha, const double *a,
                   tela_int lda, const double *x, double *p, bool stream, bool headed)
{
    tela_int j = c0;
    for (; j + L2_LANES <= c1; j += L2_LANES)
        symv_lower_full(n, j, alpha, a, lda, x, p + (j - c0), stream, headed);
    for (; j < c1; j++)
        symv_lower_one(n, j, alpha, a, lda, x, p + (j - c0), stream);
}

static __attribute__((noinline)) void symv_lower_headed(tela_int n, tela_int c0, tela_int c1,
                                                        double alpha, const double *a, tela_int lda,
                                                        const double *x, double *p, bool stream)
{
    symv_lower_columns(n, c0, c1, alpha, a, lda, x, p, stream, true);
}

static void kernel_symv_lower(tela_int n, tela_int c0, tela_int c1, double alpha, const double *a,
                              tela_int lda, const double *x, double *p, bool stream)
{
    /* The first group's span starts L2_LANES rows below its diagonal. */
    if (symv_headed(a + c0 * lda + c0 + L2_LANES, lda))
        symv_lower_headed(n, c0, c1, alpha, a, lda, x, p, stream);
    else
        symv_lower_columns(n, c0, c1, alpha, a, lda, x, p, stream, false);
}

/* ---- rank-1 and rank-2 column updates ---- */

static void kernel_axpy(tela_int m, double t, const double *x, double *a)
{
    const l2_vec tv = l2_set1(t);
    tela_int i = 0;
    for (; i + (tela_int)2 * L2_LANES <= m; i += (tela_int)2 * L2_LANES) {
        l2_store(a + i, l2_fma(l2_load(x + i), tv, l2_load(a + i)));
        l2_store(a + i + L2_LANES,
                 l2_fma(l2_load(x + i + L2_LANES), tv, l2_load(a + i + L2_LANES)));
    }
    for (; i < m; i += L2_LANES) {
        const int lanes = m - i < L2_LANES ? (int)(m - i) : L2_LANES;
        l2_put(a + i, l2_fma(l2_get(x + i, lanes), tv, l2_get(a + i, lanes)), lanes);
    }
}

static void kernel_axpy2(tela_int m, double t, const double *x, double u, const double *y,
                         double *a)
{
    const l2_vec tv = l2_set1(t), uv = l2_set1(u);
    tela_int i = 0;
    for (; i + L2_LANES <= m; i += L2_LANES)
        l2_store(a + i, l2_fma(l2_load(y + i), uv, l2_fma(l2_load(x + i), tv, l2_load(a + i))));
    if (i < m) {
        const int lanes = (int)(m - i);
        const l2_vec sum = l2_fma(l2_load_part(x + i, lanes), tv, l2_load_part(a + i, lanes));
        l2_store_part(a + i, l2_fma(l2_load_part(y + i, lanes), uv, sum), lanes);
    }
}

#endif /* TELA_LEVEL2_KERNEL_BODY_H */
