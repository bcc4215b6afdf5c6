/* tri_base.c — the small triangles of trsm and trmm (order <= 16), eight
 * right-hand sides at a time in one vector: lanes are B's columns (left
 * side, B transposed in and out) or B's rows (right side, read in place).
 * tri_base_avx512.c compiles this same file with AVX-512 flags. */
#include "gemm/gemm.h"

#include <string.h>

#ifndef TRI_BASE_SUFFIX
#define TRI_BASE_SUFFIX generic
#endif
#define TRI_CONCAT(a, b) a##_##b
#define TRI_NAME(a, b)   TRI_CONCAT(a, b)

typedef double lanes8 __attribute__((vector_size(64)));

/* Two groups of eight lanes at once. Each step waits on the one before
 * (latency-bound): the second group's chain runs in the first one's gaps,
 * for about the time of one. */
static void tri_apply(const gemm_tri *t, lanes8 *x, lanes8 *y)
{
    /* Column by column: once x_p is final (solve) or still original
     * (multiply), it is folded into every row it couples to. Those updates
     * are independent of one another, so the FMAs overlap; the row-by-row
     * form was one chain per row and ran at a quarter of the rate. */
    const bool ascending = t->lower == t->solve;
    for (int step = 0; step < t->s; step++) {
        const int p = ascending ? step : t->s - 1 - step;
        const int i_from = t->lower ? p + 1 : 0, i_to = t->lower ? t->s : p;
        if (t->solve) {
            /* A unit diagonal (getrf's L) leaves the multiply out of the
             * chain; by 1.0 it changed nothing. */
            if (t->diag[p] != 1.0) {
                x[p] *= t->diag[p];
                y[p] *= t->diag[p];
            }
            for (int i = i_from; i < i_to; i++) {
                x[i] -= t->coef[i][p] * x[p];
                y[i] -= t->coef[i][p] * y[p];
            }
        } else {
            for (int i = i_from; i < i_to; i++) {
                x[i] += t->coef[i][p] * x[p];
                y[i] += t->coef[i][p] * y[p];
            }
            x[p] *= t->diag[p];
            y[p] *= t->diag[p];
        }
    }
}

void TRI_NAME(gemm_tri_left, TRI_BASE_SUFFIX)(const gemm_tri *t, ptrdiff_t n, double *b,
                                              ptrdiff_t ldb)
{
    for (ptrdiff_t c0 = 0; c0 < n; c0 += 16) {
        const int cols = n - c0 < 16 ? (int)(n - c0) : 16;
        lanes8 x[2][GEMM_TRI_MAX] = {{{0}}};
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                x[c / 8][i][c % 8] = b[i + (c0 + c) * ldb];
        tri_apply(t, x[0], x[1]);
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                b[i + (c0 + c) * ldb] = x[c / 8][i][c % 8];
    }
}

void TRI_NAME(gemm_tri_right, TRI_BASE_SUFFIX)(const gemm_tri *t, ptrdiff_t m, double *b,
                                               ptrdiff_t ldb)
{
    for (ptrdiff_t r0 = 0; r0 < m; r0 += 16) {
        lanes8 x[GEMM_TRI_MAX], y[GEMM_TRI_MAX];
        if (m - r0 >= 16) { /* whole vectors: fixed-size copies become loads */
            for (int j = 0; j < t->s; j++) {
                memcpy(&x[j], b + r0 + j * ldb, sizeof x[j]);
                memcpy(&y[j], b + r0 + 8 + j * ldb, sizeof y[j]);
            }
            tri_apply(t, x, y);
            for (int j = 0; j < t->s; j++) {
                memcpy(b + r0 + j * ldb, &x[j], sizeof x[j]);
                memcpy(b + r0 + 8 + j * ldb, &y[j], sizeof y[j]);
            }
            continue;
        }
        const ptrdiff_t rows = m - r0, first = rows < 8 ? rows : 8, second = rows - first;
        for (int j = 0; j < t->s; j++) {
            x[j] = y[j] = (lanes8){0};
            memcpy(&x[j], b + r0 + j * ldb, (size_t)first * sizeof(double));
            memcpy(&y[j], b + r0 + 8 + j * ldb, (size_t)second * sizeof(double));
        }
        tri_apply(t, x, y);
        for (int j = 0; j < t->s; j++) {
            memcpy(b + r0 + j * ldb, &x[j], (size_t)first * sizeof(double));
            memcpy(b + r0 + 8 + j * ldb, &y[j], (size_t)second * sizeof(double));
        }
    }
}
