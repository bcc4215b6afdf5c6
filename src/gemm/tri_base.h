/* tri_base.h — the core of the small triangles of trsm and trmm (order <= 16), right-hand
 * sides in the lanes of vectors, two vectors at a time: lanes are B's columns (left side, B
 * transposed in and out) or B's rows (right side, read in place). Static inline functions,
 * included by one file per ISA (tri_base_generic.c, tri_base_avx2.c, tri_base_avx512.c), each
 * compiled with its own flags. */
#ifndef TELA_GEMM_TRI_BASE_H
#define TELA_GEMM_TRI_BASE_H

#include "gemm/gemm.h"

#include <string.h>

/* Eight lanes where a zmm holds them, else four (a ymm; two xmm in plain x86-64): a vector wider
 * than the registers went through memory at every operation, and the AVX2 set's trsm 64 ran at a
 * fifth of OpenBLAS's (Haswell) rate. */
#if defined(__AVX512F__)
#define TRI_LANES 8
#else
#define TRI_LANES 4
#endif
typedef double lanes __attribute__((vector_size(TRI_LANES * sizeof(double))));

/* Keeps v as rounded after the diagonal's multiply. With x in registers
 * the product has one use, a later add, and the compiler may fuse the two,
 * which rounds differently from the same steps with x in memory (both run:
 * tri_steps is inlined in both ways). Without FMA instructions nothing is
 * fused. */
#if defined(__FMA__)
#define TRI_ROUNDED(v) __asm__("" : "+v"(v))
#else
#define TRI_ROUNDED(v) ((void)0)
#endif

/* Two groups of lanes at once. Each step waits on the one before
 * (latency-bound): the second group's chain runs in the first one's gaps,
 * for about the time of one. Inlined with s, lower and solve constants
 * (see tri_apply), the loops unroll and x, y stay in registers; with them
 * read from t, x and y lived on the stack and every update went through a
 * store and a reload. */
static inline __attribute__((always_inline)) void tri_steps(const gemm_tri *t, int s, bool lower,
                                                            bool solve, lanes *x, lanes *y)
{
    /* Column by column: once x_p is final (solve) or still original
     * (multiply), it is folded into every row it couples to. Those updates
     * are independent of one another, so the FMAs overlap; the row-by-row
     * form was one chain per row and ran at a quarter of the rate. */
    const bool ascending = lower == solve;
#pragma GCC unroll 16
    for (int step = 0; step < s; step++) {
        const int p = ascending ? step : s - 1 - step;
        const int i_from = lower ? p + 1 : 0, i_to = lower ? s : p;
        if (solve) {
            /* A unit diagonal (getrf's L) leaves the multiply out of the
             * chain; by 1.0 it changed nothing. */
            if (t->diag[p] != 1.0) {
                x[p] *= t->diag[p];
                y[p] *= t->diag[p];
                TRI_ROUNDED(x[p]);
                TRI_ROUNDED(y[p]);
            }
#pragma GCC unroll 16
            for (int i = i_from; i < i_to; i++) {
                x[i] -= t->coef[i][p] * x[p];
                y[i] -= t->coef[i][p] * y[p];
            }
        } else {
#pragma GCC unroll 16
            for (int i = i_from; i < i_to; i++) {
                x[i] += t->coef[i][p] * x[p];
                y[i] += t->coef[i][p] * y[p];
            }
            x[p] *= t->diag[p];
            y[p] *= t->diag[p];
            TRI_ROUNDED(x[p]);
            TRI_ROUNDED(y[p]);
        }
    }
}

static inline void tri_apply(const gemm_tri *t, lanes *x, lanes *y)
{
    tri_steps(t, t->s, t->lower, t->solve, x, y);
}

/* Two vectors of lanes: the rows (right side) or columns (left side) of B one pass takes. */
enum { TRI_GROUP = 2 * TRI_LANES };

/* Rows [r0, r0 + TRI_GROUP) of the right side's B: whole vectors, fixed-size copies that become
 * loads. */
static inline __attribute__((always_inline)) void right_rows(const gemm_tri *t, int s, bool lower,
                                                             bool solve, double *b, ptrdiff_t ldb)
{
    lanes x[GEMM_TRI_MAX], y[GEMM_TRI_MAX];
#pragma GCC unroll 16
    for (int j = 0; j < s; j++) {
        memcpy(&x[j], b + j * ldb, sizeof x[j]);
        memcpy(&y[j], b + TRI_LANES + j * ldb, sizeof y[j]);
    }
    tri_steps(t, s, lower, solve, x, y);
#pragma GCC unroll 16
    for (int j = 0; j < s; j++) {
        memcpy(b + j * ldb, &x[j], sizeof x[j]);
        memcpy(b + TRI_LANES + j * ldb, &y[j], sizeof y[j]);
    }
}

/* The right side's blocks have the kernel's nr columns (order, a constant in each ISA's file):
 * that order gets its own copies with s, lower and solve constants, unrolled so x and y stay in
 * registers (in the general loops they live on the stack, each update a store and a reload).
 * Same arithmetic in the same order. */
static inline __attribute__((always_inline)) void
right_whole_rows(const gemm_tri *t, const int order, ptrdiff_t rows, double *b, ptrdiff_t ldb)
{
    for (ptrdiff_t r0 = 0; r0 + TRI_GROUP <= rows; r0 += TRI_GROUP) {
        if (t->s != order)
            right_rows(t, t->s, t->lower, t->solve, b + r0, ldb);
        else if (t->lower && t->solve)
            right_rows(t, order, true, true, b + r0, ldb);
        else if (t->lower)
            right_rows(t, order, true, false, b + r0, ldb);
        else if (t->solve)
            right_rows(t, order, false, true, b + r0, ldb);
        else
            right_rows(t, order, false, false, b + r0, ldb);
    }
}

/* Lanes of a and b picked by indices (b's lanes follow a's). clang, and so clang-tidy, has no
 * __builtin_shuffle; gcc before 12 has no __builtin_shufflevector. */
#if defined(__clang__)
#define TRI_SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
typedef long long lane_index __attribute__((vector_size(TRI_LANES * sizeof(long long))));
#define TRI_SHUFFLE(a, b, ...) __builtin_shuffle(a, b, (lane_index){__VA_ARGS__})
#endif

/* out[i] lane q = r[q] lane i: TRI_LANES vectors transposed in rounds of shuffles. */
static inline __attribute__((always_inline)) void transpose_lanes(const lanes r[TRI_LANES],
                                                                  lanes out[TRI_LANES])
{
#if TRI_LANES == 8
    lanes t[8], u[8];
    for (int q = 0; q < 8; q += 2) {
        t[q] = TRI_SHUFFLE(r[q], r[q + 1], 0, 8, 2, 10, 4, 12, 6, 14);
        t[q + 1] = TRI_SHUFFLE(r[q], r[q + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
    for (int q = 0; q < 8; q += 4) {
        u[q] = TRI_SHUFFLE(t[q], t[q + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[q + 2] = TRI_SHUFFLE(t[q], t[q + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[q + 1] = TRI_SHUFFLE(t[q + 1], t[q + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[q + 3] = TRI_SHUFFLE(t[q + 1], t[q + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int q = 0; q < 4; q++) {
        out[q] = TRI_SHUFFLE(u[q], u[q + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        out[q + 4] = TRI_SHUFFLE(u[q], u[q + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
#else
    const lanes t0 = TRI_SHUFFLE(r[0], r[1], 0, 4, 2, 6), t1 = TRI_SHUFFLE(r[0], r[1], 1, 5, 3, 7),
                t2 = TRI_SHUFFLE(r[2], r[3], 0, 4, 2, 6), t3 = TRI_SHUFFLE(r[2], r[3], 1, 5, 3, 7);
    out[0] = TRI_SHUFFLE(t0, t2, 0, 1, 4, 5);
    out[1] = TRI_SHUFFLE(t1, t3, 0, 1, 4, 5);
    out[2] = TRI_SHUFFLE(t0, t2, 2, 3, 6, 7);
    out[3] = TRI_SHUFFLE(t1, t3, 2, 3, 6, 7);
#endif
}

/* Columns [0, cols) (cols <= TRI_GROUP) of the left side's B, rows [0, s) (s a multiple of
 * TRI_LANES): each group of TRI_LANES columns transposed into lanes by shuffles, solved or
 * multiplied in registers, transposed back. */
static inline __attribute__((always_inline)) void left_cols(const gemm_tri *t, const int s,
                                                            bool lower, bool solve, int cols,
                                                            double *b, ptrdiff_t ldb)
{
    lanes x[2][GEMM_TRI_MAX], r[TRI_LANES];
    for (ptrdiff_t g = 0; g < 2; g++)
        for (ptrdiff_t i0 = 0; i0 < s; i0 += TRI_LANES) {
            for (ptrdiff_t q = 0; q < TRI_LANES; q++) {
                r[q] = (lanes){0};
                if (TRI_LANES * g + q < cols)
                    memcpy(&r[q], b + i0 + (TRI_LANES * g + q) * ldb, sizeof r[q]);
            }
            transpose_lanes(r, x[g] + i0);
        }
    tri_steps(t, s, lower, solve, x[0], x[1]);
    for (ptrdiff_t g = 0; g < 2; g++)
        for (ptrdiff_t i0 = 0; i0 < s; i0 += TRI_LANES) {
            transpose_lanes(x[g] + i0, r);
            for (ptrdiff_t q = 0; q < TRI_LANES; q++)
                if (TRI_LANES * g + q < cols)
                    memcpy(b + i0 + (TRI_LANES * g + q) * ldb, &r[q], sizeof r[q]);
        }
}

/* left_cols with s, lower and solve constants. */
static inline __attribute__((always_inline)) void left_cols_of(const gemm_tri *t, const int s,
                                                               int cols, double *b, ptrdiff_t ldb)
{
    if (t->lower && t->solve)
        left_cols(t, s, true, true, cols, b, ldb);
    else if (t->lower)
        left_cols(t, s, true, false, cols, b, ldb);
    else if (t->solve)
        left_cols(t, s, false, true, cols, b, ldb);
    else
        left_cols(t, s, false, false, cols, b, ldb);
}

/* gemm_tri_fn for the left side. order (a constant: the kernel's mr, a multiple of TRI_LANES) is
 * the order of the blocked solves' triangles, and 16 that of most of the recursions' bases: both
 * get their own unrolled copies. */
static inline __attribute__((always_inline)) void
tri_base_left(const gemm_tri *t, const int order, ptrdiff_t n, double *b, ptrdiff_t ldb)
{
    for (ptrdiff_t c0 = 0; c0 < n; c0 += TRI_GROUP) {
        const int cols = n - c0 < TRI_GROUP ? (int)(n - c0) : TRI_GROUP;
        double *bc = b + c0 * ldb;
        if (t->s == order) {
            left_cols_of(t, order, cols, bc, ldb);
            continue;
        }
        if (t->s == GEMM_TRI_MAX) {
            left_cols_of(t, GEMM_TRI_MAX, cols, bc, ldb);
            continue;
        }
        lanes x[2][GEMM_TRI_MAX] = {{{0}}};
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                x[c / TRI_LANES][i][c % TRI_LANES] = bc[i + c * ldb];
        tri_apply(t, x[0], x[1]);
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                bc[i + c * ldb] = x[c / TRI_LANES][i][c % TRI_LANES];
    }
}

/* gemm_tri_fn for the right side; order (a constant: the kernel's nr) as right_whole_rows. */
static inline __attribute__((always_inline)) void
tri_base_right(const gemm_tri *t, const int order, ptrdiff_t m, double *b, ptrdiff_t ldb)
{
    const ptrdiff_t whole = m / TRI_GROUP * TRI_GROUP;
    right_whole_rows(t, order, whole, b, ldb);
    if (whole == m)
        return;
    const ptrdiff_t rows = m - whole, first = rows < TRI_LANES ? rows : TRI_LANES,
                    second = rows - first;
    double *br = b + whole;
    lanes x[GEMM_TRI_MAX], y[GEMM_TRI_MAX];
    for (int j = 0; j < t->s; j++) {
        x[j] = y[j] = (lanes){0};
        memcpy(&x[j], br + j * ldb, (size_t)first * sizeof(double));
        memcpy(&y[j], br + TRI_LANES + j * ldb, (size_t)second * sizeof(double));
    }
    tri_apply(t, x, y);
    for (int j = 0; j < t->s; j++) {
        memcpy(br + j * ldb, &x[j], (size_t)first * sizeof(double));
        memcpy(br + TRI_LANES + j * ldb, &y[j], (size_t)second * sizeof(double));
    }
}

#endif /* TELA_GEMM_TRI_BASE_H */
