/* apply_block.c — a block of reflectors in compact WY form, I - V T V^T or its transpose,
 * applied to a matrix from either side (LAPACK's dlarfb, forward and by columns): two GEMMs and
 * three triangular multiplies, every one of them tela's parallel level 3. */
#include "gemm/level3.h"
#include "level1/level1.h"
#include "qr/qr.h"

size_t qr_apply_block_len(bool left, tela_int m, tela_int n, tela_int k)
{
    return (size_t)k * (size_t)(left ? n : m);
}

void qr_apply_block(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
                    const double *v, tela_int ldv, const double *t, tela_int ldt, double *c,
                    tela_int ldc, double *work)
{
    if (m == 0 || n == 0 || k == 0)
        return;
    const char op_t = trans ? 'T' : 'N';
    if (left) {
        /* W (k x n) = V^T C; C -= V op(T) W */
        double *w = work;
        for (tela_int j = 0; j < n; j++)
            level1_copy(k, c + j * ldc, w + j * k);
        tela_dtrmm(par, 'L', 'L', 'T', 'U', k, n, 1.0, v, ldv, w, k);
        if (m > k)
            tela_dgemm(par, 'T', 'N', k, n, m - k, 1.0, v + k, ldv, c + k, ldc, 1.0, w, k);
        tela_dtrmm(par, 'L', 'U', op_t, 'N', k, n, 1.0, t, ldt, w, k);
        if (m > k)
            tela_dgemm(par, 'N', 'N', m - k, n, k, -1.0, v + k, ldv, w, k, 1.0, c + k, ldc);
        tela_dtrmm(par, 'L', 'L', 'N', 'U', k, n, 1.0, v, ldv, w, k);
        for (tela_int j = 0; j < n; j++)
            level1_axpy(k, -1.0, w + j * k, c + j * ldc);
    } else {
        /* W (m x k) = C V; C -= W op(T) V^T */
        double *w = work;
        for (tela_int j = 0; j < k; j++)
            level1_copy(m, c + j * ldc, w + j * m);
        tela_dtrmm(par, 'R', 'L', 'N', 'U', m, k, 1.0, v, ldv, w, m);
        if (n > k)
            tela_dgemm(par, 'N', 'N', m, k, n - k, 1.0, c + k * ldc, ldc, v + k, ldv, 1.0, w, m);
        tela_dtrmm(par, 'R', 'U', op_t, 'N', m, k, 1.0, t, ldt, w, m);
        if (n > k)
            tela_dgemm(par, 'N', 'T', m, n - k, k, -1.0, w, m, v + k, ldv, 1.0, c + k * ldc, ldc);
        tela_dtrmm(par, 'R', 'L', 'T', 'U', m, k, 1.0, v, ldv, w, m);
        for (tela_int j = 0; j < k; j++)
            level1_axpy(m, -1.0, w + j * m, c + j * ldc);
    }
}

void qr_apply_left_share(const level3_ctx *ctx, bool trans, tela_int rows, tela_int cols,
                         tela_int ib, const double *top, const double *v2, tela_int ldv,
                         const double *t, tela_int ldt, double *c, tela_int ldc, double *w)
{
    double *c2 = c + ib, *w1 = w, *w2 = w + (size_t)ldt * (size_t)cols;
    level3_gemm(ctx, 'T', 'N', ib, cols, ib, 1.0, top, ldt, c, ldc, 0.0, w1, ldt);
    if (rows > ib)
        level3_gemm(ctx, 'T', 'N', ib, cols, rows - ib, 1.0, v2, ldv, c2, ldc, 1.0, w1, ldt);
    level3_gemm(ctx, trans ? 'T' : 'N', 'N', ib, cols, ib, 1.0, t, ldt, w1, ldt, 0.0, w2, ldt);
    if (rows > ib)
        level3_gemm(ctx, 'N', 'N', rows - ib, cols, ib, -1.0, v2, ldv, w2, ldt, 1.0, c2, ldc);
    level3_gemm(ctx, 'N', 'N', ib, cols, ib, -1.0, top, ldt, w2, ldt, 1.0, c, ldc);
}

void qr_explicit_block(tela_int ib, const double *v, tela_int ldv, double *t, double *top,
                       tela_int ldt)
{
    /* By ranges of each column: zeros above the unit diagonal, V below it. */
    for (tela_int j = 0; j < ib; j++) {
        double *tj = t + j * ldt, *top_j = top + j * ldt;
        const double *vj = v + (size_t)j * (size_t)ldv;
        for (tela_int r = 0; r < j; r++)
            top_j[r] = 0.0;
        top_j[j] = 1.0;
        for (tela_int r = j + 1; r < ib; r++) {
            tj[r] = 0.0;
            top_j[r] = vj[r];
        }
    }
}
