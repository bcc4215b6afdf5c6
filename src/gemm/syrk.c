/* syrk.c — tela_dsyrk: C = alpha A A^T + beta C (trans 'N') or
 * alpha A^T A + beta C ('T'), only the uplo triangle of C referenced.
 *
 * One GEMM of op(A) by op(A)^T restricted to the triangle: the packed
 * path skips the tiles outside it and writes those across the diagonal
 * through a buffer, so each operand is packed once and nearly all flops
 * run in the micro-kernel (parallel through the gate, members sharing the
 * columns by the elements they hold). */
#include "gemm/level3.h"

void level3_scale_triangle(double *c, tela_int ldc, tela_int n, bool upper, double beta)
{
    for (tela_int j = 0; j < n; j++) {
        tela_int i_from = upper ? 0 : j, i_to = upper ? j + 1 : n;
        for (tela_int i = i_from; i < i_to; i++)
            c[i + j * ldc] = beta == 0.0 ? 0.0 : beta * c[i + j * ldc];
    }
}

int tela_dsyrk(tela_par par, char uplo, char trans, tela_int n, tela_int k, double alpha,
               const double *a, tela_int lda, double beta, double *c, tela_int ldc)
{
    bool upper, t;
    if (!level3_uplo(uplo, &upper))
        return -1;
    if (!level3_trans(trans, &t))
        return -2;
    if (n < 0)
        return -3;
    if (k < 0)
        return -4;
    tela_int rows_a = t ? k : n;
    if (lda < (rows_a > 1 ? rows_a : 1))
        return -7;
    if (ldc < (n > 1 ? n : 1))
        return -10;
    if (n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0))
        return 0;
    if (!c)
        return -9;
    if (alpha == 0.0 || k == 0) {
        level3_scale_triangle(c, ldc, n, upper, beta);
        return 0;
    }
    if (!a)
        return -6;
    /* op(A) is n x k: A, or A read transposed; the right operand is its
     * transpose, the same memory read the other way. */
    const gemm_problem pr = {gemm_kernel_get(),
                             {a, lda, t},
                             {a, lda, !t},
                             c,
                             ldc,
                             n,
                             n,
                             k,
                             alpha,
                             beta,
                             upper ? GEMM_UPPER : GEMM_LOWER,
                             true,
                             NULL,
                             NULL};
    gemm_run(par, &pr, "dsyrk");
    return 0;
}
