/* geqrf.c — tela_dgeqrf: blocked Householder QR. Each block of columns is factored by the
 * recursive panel, which also gives its T; the columns right of it are updated with
 * I - V T^T V^T through tela's parallel trmm and gemm. */
#include "par/engine.h"
#include "qr/qr.h"

size_t qr_factor_len(tela_int m, tela_int n)
{
    const size_t nb = (size_t)qr_block_size(m, n);
    return nb * nb + qr_apply_block_len(true, m, n, (tela_int)nb);
}

void qr_factor(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
               double *work)
{
    const tela_int k = m < n ? m : n, nb = qr_block_size(m, n);
    double *t = work, *w = work + (size_t)nb * (size_t)nb;
    for (tela_int i = 0; i < k; i += nb) {
        const tela_int ib = k - i < nb ? k - i : nb;
        double *panel = a + i + (size_t)i * (size_t)lda;
        qr_panel(par, m - i, ib, panel, lda, tau + i, t, nb);
        if (i + ib < n)
            qr_apply_block(par, true, true, m - i, n - i - ib, ib, panel, lda, t, nb,
                           panel + (size_t)ib * (size_t)lda, lda, w);
    }
}

int tela_dgeqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (lda < (m > 1 ? m : 1))
        return -4;
    if (m == 0 || n == 0)
        return 0;
    if (!a)
        return -3;
    if (!tau)
        return -5;
    bool owned;
    double *work = qr_scratch(par, qr_factor_len(m, n), &owned);
    if (!work) { /* dgeqr2: slower, the same factorization up to rounding */
        qr_factor_columns(m, n, a, lda, tau);
        return 0;
    }
    qr_factor(par, m, n, a, lda, tau, work);
    par_scratch_release(work, owned);
    return 0;
}
