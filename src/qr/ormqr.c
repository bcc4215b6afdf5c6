/* ormqr.c — tela_dormqr: Q or Q^T from geqrf's reflectors applied from either side, a block of
 * reflectors at a time in compact WY form (T rebuilt from V by syrk), in the order the product
 * asks for. */
#include "par/engine.h"
#include "qr/qr.h"

size_t qr_multiply_len(bool left, tela_int m, tela_int n, tela_int k)
{
    const tela_int nq = left ? m : n;
    const size_t nb = (size_t)qr_block_size(nq, k > 0 ? k : 1);
    return nb * nb + qr_apply_block_len(left, m, n, (tela_int)nb);
}

void qr_multiply(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
                 const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
                 double *work, const double *t_kept)
{
    if (m == 0 || n == 0 || k == 0)
        return;
    const tela_int nq = left ? m : n, nb = qr_block_size(nq, k);
    double *t = work, *w = work + (size_t)nb * (size_t)nb;
    /* Q^T C and C Q take H(1) first; Q C and C Q^T take it last. */
    const bool forward = left == trans;
    const tela_int last = (k - 1) / nb * nb;
    for (tela_int step = 0; step <= last; step += nb) {
        const tela_int i = forward ? step : last - step;
        const tela_int ib = k - i < nb ? k - i : nb;
        const double *v = a + i + (size_t)i * (size_t)lda;
        const double *t_block = t_kept ? t_kept + (size_t)i * (size_t)nb : t;
        if (!t_kept)
            qr_build_t(par, nq - i, ib, v, lda, tau + i, t, nb);
        if (left)
            qr_apply_block(par, true, trans, m - i, n, ib, v, lda, t_block, nb, c + i, ldc, w);
        else
            qr_apply_block(par, false, trans, m, n - i, ib, v, lda, t_block, nb,
                           c + (size_t)i * (size_t)ldc, ldc, w);
    }
}

/* dorm2r: without scratch, one reflector at a time (C's rows for the left side, columns by
 * way of each row for the right). */
static void multiply_by_reflectors(bool left, bool trans, tela_int m, tela_int n, tela_int k,
                                   const double *a, tela_int lda, const double *tau, double *c,
                                   tela_int ldc)
{
    const bool forward = left == trans;
    for (tela_int step = 0; step < k; step++) {
        const tela_int i = forward ? step : k - 1 - step;
        const double *v = a + i + (size_t)i * (size_t)lda;
        if (left) {
            qr_apply_reflector(m - i, n, v, tau[i], c + i, ldc);
            continue;
        }
        if (tau[i] == 0.0)
            continue;
        for (tela_int r = 0; r < m; r++) { /* row r of C times H(i), H(i) acting on columns i.. */
            double *row = c + r + (size_t)i * (size_t)ldc;
            double s = row[0];
            for (tela_int p = 1; p < n - i; p++)
                s += row[(size_t)p * (size_t)ldc] * v[p];
            s *= tau[i];
            row[0] -= s;
            for (tela_int p = 1; p < n - i; p++)
                row[(size_t)p * (size_t)ldc] -= s * v[p];
        }
    }
}

void qr_ormqr(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
              const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
              const double *t_kept)
{
    bool owned;
    double *work = qr_scratch(par, qr_multiply_len(left, m, n, k), &owned);
    if (!work) {
        multiply_by_reflectors(left, trans, m, n, k, a, lda, tau, c, ldc);
        return;
    }
    qr_multiply(par, left, trans, m, n, k, a, lda, tau, c, ldc, work, t_kept);
    par_scratch_release(work, owned);
}

int tela_dormqr(tela_par par, char side, char trans, tela_int m, tela_int n, tela_int k,
                const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    bool left, transpose;
    const int args =
        qr_multiply_args(false, side, trans, m, n, k, a, lda, tau, c, ldc, &left, &transpose);
    if (args != QR_ARGS_GO)
        return args == QR_ARGS_DONE ? 0 : args;
    qr_ormqr(par, left, transpose, m, n, k, a, lda, tau, c, ldc, NULL);
    return 0;
}
