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

static void tri_apply(const gemm_tri *t, lanes8 *x)
{
    /* Solve goes the way the triangle points, multiply against it. */
    const bool ascending = t->lower == t->solve;
    for (int step = 0; step < t->s; step++) {
        const int i = ascending ? step : t->s - 1 - step;
        const int k_from = t->lower ? 0 : i + 1, k_to = t->lower ? i : t->s;
        lanes8 acc = t->solve ? x[i] : t->diag[i] * x[i];
        if (t->solve) {
            for (int k = k_from; k < k_to; k++)
                acc -= t->coef[i][k] * x[k];
            x[i] = acc * t->diag[i];
        } else {
            for (int k = k_from; k < k_to; k++)
                acc += t->coef[i][k] * x[k];
            x[i] = acc;
        }
    }
}

void TRI_NAME(gemm_tri_left, TRI_BASE_SUFFIX)(const gemm_tri *t, ptrdiff_t n, double *b,
                                              ptrdiff_t ldb)
{
    for (ptrdiff_t c0 = 0; c0 < n; c0 += 8) {
        const int cols = n - c0 < 8 ? (int)(n - c0) : 8;
        lanes8 x[GEMM_TRI_MAX] = {0};
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                x[i][c] = b[i + (c0 + c) * ldb];
        tri_apply(t, x);
        for (int c = 0; c < cols; c++)
            for (int i = 0; i < t->s; i++)
                b[i + (c0 + c) * ldb] = x[i][c];
    }
}

void TRI_NAME(gemm_tri_right, TRI_BASE_SUFFIX)(const gemm_tri *t, ptrdiff_t m, double *b,
                                               ptrdiff_t ldb)
{
    for (ptrdiff_t r0 = 0; r0 < m; r0 += 8) {
        const size_t bytes = (size_t)(m - r0 < 8 ? m - r0 : 8) * sizeof(double);
        lanes8 x[GEMM_TRI_MAX];
        for (int j = 0; j < t->s; j++) {
            x[j] = (lanes8){0};
            memcpy(&x[j], b + r0 + j * ldb, bytes);
        }
        tri_apply(t, x);
        for (int j = 0; j < t->s; j++)
            memcpy(b + r0 + j * ldb, &x[j], bytes);
    }
}
