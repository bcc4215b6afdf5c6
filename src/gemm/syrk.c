/* syrk.c — tela_dsyrk: C = alpha A A^T + beta C (trans 'N') or
 * alpha A^T A + beta C ('T'), only the uplo triangle of C referenced.
 *
 * Block columns of SYRK_NB: the rectangle off the diagonal is one
 * tela_dgemm (parallel through the gate), the diagonal block is a small
 * GEMM into a buffer on the stack of which the triangle is kept. */
#include "gemm/level3.h"

#define SYRK_NB 64

/* Row block [i0, i0 + rows) of op(A) (n x k) as a dgemm operand. */
static const double *rows_of(const double *a, tela_int lda, bool trans, tela_int i0)
{
    return trans ? a + i0 * lda : a + i0;
}

/* The uplo triangle of C(0:n, 0:n) times beta. */
static void scale_triangle(double *c, tela_int ldc, tela_int n, bool upper, double beta)
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
        scale_triangle(c, ldc, n, upper, beta);
        return 0;
    }
    if (!a)
        return -6;
    const char ta = t ? 'T' : 'N', tb = t ? 'N' : 'T';
    for (tela_int j0 = 0; j0 < n; j0 += SYRK_NB) {
        tela_int jb = n - j0 < SYRK_NB ? n - j0 : SYRK_NB;
        const double *aj = rows_of(a, lda, t, j0);
        /* Diagonal block: the whole jb x jb product, of which one triangle
         * is combined with C as BLAS does (beta = 0 never reads C). */
        double d[SYRK_NB * SYRK_NB];
        tela_dgemm(tela_par_seq(), ta, tb, jb, jb, k, alpha, aj, lda, aj, lda, 0.0, d, jb);
        for (tela_int j = 0; j < jb; j++) {
            tela_int i_from = upper ? 0 : j, i_to = upper ? j + 1 : jb;
            double *cj = c + j0 + (j0 + j) * ldc;
            for (tela_int i = i_from; i < i_to; i++)
                cj[i] = beta == 0.0 ? d[i + j * jb] : beta * cj[i] + d[i + j * jb];
        }
        /* Off the diagonal: rows below (lower) or above (upper) the block. */
        if (!upper && j0 + jb < n)
            tela_dgemm(par, ta, tb, n - j0 - jb, jb, k, alpha, rows_of(a, lda, t, j0 + jb), lda, aj,
                       lda, beta, c + (j0 + jb) + j0 * ldc, ldc);
        if (upper && j0 > 0)
            tela_dgemm(par, ta, tb, j0, jb, k, alpha, a, lda, aj, lda, beta, c + j0 * ldc, ldc);
    }
    return 0;
}
