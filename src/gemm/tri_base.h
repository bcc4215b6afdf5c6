/* tri_base.h — the core of the small triangles of trsm and trmm (order <= 16), eight
 * right-hand sides at a time in one vector: lanes are B's columns (left side, B transposed in
 * and out) or B's rows (right side, read in place). Static inline functions, included by one
 * file per ISA (tri_base_generic.c, tri_base_avx512.c), each compiled with its own flags. */
#ifndef TELA_GEMM_TRI_BASE_H
#define TELA_GEMM_TRI_BASE_H

#include "gemm/gemm.h"

#include <string.h>

typedef double lanes8 __attribute__((vector_size(64)));

/* Keeps v as rounded after the diagonal's multiply. With x in registers
 * the product has one use, a later add, and the compiler may fuse the two,
 * which rounds differently from the same steps with x in memory (both run:
 * tri_steps is inlined in both ways). Without AVX-512 a 64-byte vector has
 * no register, so a build with FMA goes through memory; without FMA
 * instructions nothing is fused. */
#if defined(__AVX512F__)
#define TRI_ROUNDED(v) __asm__("" : "+v"(v))
#elif defined(__FMA__)
#define TRI_ROUNDED(v) __asm__("" : "+m"(v))
#else
#define TRI_ROUNDED(v) ((void)0)
#endif

/* Two groups of eight lanes at once. Each step waits on the one before
 * (latency-bound): the second group's chain runs in the first one's gaps,
 * for about the time of one. Inlined with s, lower and solve constants
 * (see tri_apply), the loops unroll and x, y stay in registers; with them
 * read from t, x and y lived on the stack and every update went through a
 * store and a reload. */
static inline __attribute__((always_inline)) void tri_steps(const gemm_tri *t, int s, bool lower,
                                                            bool solve, lanes8 *x, lanes8 *y)
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

static inline void tri_apply(const gemm_tri *t, lanes8 *x, lanes8 *y)
{
    tri_steps(t, t->s, t->lower, t->solve, x, y);
}

/* Rows [r0, r0 + 16) of the right side's B: whole vectors, fixed-size
 * copies that become loads. */
static inline __attribute__((always_inline)) void right_rows16(const gemm_tri *t, int s, bool lower,
                                                               bool solve, double *b, ptrdiff_t ldb)
{
    lanes8 x[GEMM_TRI_MAX], y[GEMM_TRI_MAX];
#pragma GCC unroll 16
    for (int j = 0; j < s; j++) {
        memcpy(&x[j], b + j * ldb, sizeof x[j]);
        memcpy(&y[j], b + 8 + j * ldb, sizeof y[j]);
    }
    tri_steps(t, s, lower, solve, x, y);
#pragma GCC unroll 16
    for (int j = 0; j < s; j++) {
        memcpy(b + j * ldb, &x[j], sizeof x[j]);
        memcpy(b + 8 + j * ldb, &y[j], sizeof y[j]);
    }
}

/* The right side's blocks have the AVX-512 kernel's nr = 12 columns: that
 * order gets its own copies with s, lower and solve constants, unrolled so
 * x and y stay in registers (in the general loops they live on the stack,
 * each update a store and a reload). Same arithmetic in the same order. */
enum { TRI_UNROLLED = 12 };

static inline void right_whole_rows(const gemm_tri *t, ptrdiff_t rows, double *b, ptrdiff_t ldb)
{
    for (ptrdiff_t r0 = 0; r0 + 16 <= rows; r0 += 16) {
        if (t->s != TRI_UNROLLED)
            right_rows16(t, t->s, t->lower, t->solve, b + r0, ldb);
        else if (t->lower && t->solve)
            right_rows16(t, TRI_UNROLLED, true, true, b + r0, ldb);
        else if (t->lower)
            right_rows16(t, TRI_UNROLLED, true, false, b + r0, ldb);
        else if (t->solve)
            right_rows16(t, TRI_UNROLLED, false, true, b + r0, ldb);
        else
            right_rows16(t, TRI_UNROLLED, false, false, b + r0, ldb);
    }
}

/* Lanes of a and b picked by eight indices (b's lanes are 8-15). clang, and so clang-tidy, has
 * no __builtin_shuffle; gcc before 12 has no __builtin_shufflevector. */
#if defined(__clang__)
#define TRI_SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7)                                         \
    __builtin_shufflevector(a, b, i0, i1, i2, i3, i4, i5, i6, i7)
#else
typedef long long lane_index8 __attribute__((vector_size(64)));
#define TRI_SHUFFLE8(a, b, i0, i1, i2, i3, i4, i5, i6, i7)                                         \
    __builtin_shuffle(a, b, (lane_index8){i0, i1, i2, i3, i4, i5, i6, i7})
#endif

/* out[i] lane q = r[q] lane i: eight vectors transposed in three rounds of
 * shuffles. */
static inline __attribute__((always_inline)) void transpose8(const lanes8 r[8], lanes8 out[8])
{
    lanes8 t[8], u[8];
    for (int q = 0; q < 8; q += 2) {
        t[q] = TRI_SHUFFLE8(r[q], r[q + 1], 0, 8, 2, 10, 4, 12, 6, 14);
        t[q + 1] = TRI_SHUFFLE8(r[q], r[q + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
    for (int q = 0; q < 8; q += 4) {
        u[q] = TRI_SHUFFLE8(t[q], t[q + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        u[q + 2] = TRI_SHUFFLE8(t[q], t[q + 2], 2, 3, 10, 11, 6, 7, 14, 15);
        u[q + 1] = TRI_SHUFFLE8(t[q + 1], t[q + 3], 0, 1, 8, 9, 4, 5, 12, 13);
        u[q + 3] = TRI_SHUFFLE8(t[q + 1], t[q + 3], 2, 3, 10, 11, 6, 7, 14, 15);
    }
    for (int q = 0; q < 4; q++) {
        out[q] = TRI_SHUFFLE8(u[q], u[q + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        out[q + 4] = TRI_SHUFFLE8(u[q], u[q + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
}

/* Columns [0, cols) (cols <= 16) of the left side's B, rows [0, 16): each
 * group of eight columns transposed into lanes by shuffles, solved or
 * multiplied in registers, transposed back. */
static inline __attribute__((always_inline)) void
left_cols16(const gemm_tri *t, bool lower, bool solve, int cols, double *b, ptrdiff_t ldb)
{
    lanes8 x[2][16], r[8];
    for (ptrdiff_t g = 0; g < 2; g++)
        for (ptrdiff_t half = 0; half < 2; half++) {
            for (ptrdiff_t q = 0; q < 8; q++) {
                r[q] = (lanes8){0};
                if (8 * g + q < cols)
                    memcpy(&r[q], b + 8 * half + (8 * g + q) * ldb, sizeof r[q]);
            }
            transpose8(r, x[g] + 8 * half);
        }
    tri_steps(t, 16, lower, solve, x[0], x[1]);
    for (ptrdiff_t g = 0; g < 2; g++)
        for (ptrdiff_t half = 0; half < 2; half++) {
            transpose8(x[g] + 8 * half, r);
            for (ptrdiff_t q = 0; q < 8; q++)
                if (8 * g + q < cols)
                    memcpy(b + 8 * half + (8 * g + q) * ldb, &r[q], sizeof r[q]);
        }
}

/* gemm_tri_fn for the left side. */
static inline void tri_base_left(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb)
{
    for (ptrdiff_t c0 = 0; c0 < n; c0 += 16) {
        const int cols = n - c0 < 16 ? (int)(n - c0) : 16;
        double *bc = b + c0 * ldb;
        /* The left side's blocks have the AVX-512 kernel's mr = 16 rows. */
        if (t->s == 16) {
            if (t->lower && t->solve)
                left_cols16(t, true, true, cols, bc, ldb);
            else if (t->lower)
                left_cols16(t, true, false, cols, bc, ldb);
            else if (t->solve)
                left_cols16(t, false, true, cols, bc, ldb);
            else
                left_cols16(t, false, false, cols, bc, ldb);
            continue;
        }
        lanes8 x[2][GEMM_TRI_MAX] = {{{0}}};
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                x[c / 8][i][c % 8] = bc[i + c * ldb];
        tri_apply(t, x[0], x[1]);
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                bc[i + c * ldb] = x[c / 8][i][c % 8];
    }
}

/* gemm_tri_fn for the right side. */
static inline void tri_base_right(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb)
{
    const ptrdiff_t whole = m / 16 * 16;
    right_whole_rows(t, whole, b, ldb);
    if (whole == m)
        return;
    const ptrdiff_t rows = m - whole, first = rows < 8 ? rows : 8, second = rows - first;
    double *br = b + whole;
    lanes8 x[GEMM_TRI_MAX], y[GEMM_TRI_MAX];
    for (int j = 0; j < t->s; j++) {
        x[j] = y[j] = (lanes8){0};
        memcpy(&x[j], br + j * ldb, (size_t)first * sizeof(double));
        memcpy(&y[j], br + 8 + j * ldb, (size_t)second * sizeof(double));
    }
    tri_apply(t, x, y);
    for (int j = 0; j < t->s; j++) {
        memcpy(br + j * ldb, &x[j], (size_t)first * sizeof(double));
        memcpy(br + 8 + j * ldb, &y[j], (size_t)second * sizeof(double));
    }
}

#endif /* TELA_GEMM_TRI_BASE_H */
