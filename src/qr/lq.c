/* lq.c — the LQ side (tela_dgelqf, tela_dorglq, tela_dormlq) as the QR routines on the
 * transpose: A = L Q is A^T = Q^T L^T, whose reflectors, once transposed back, are exactly
 * where LAPACK's dgelqf keeps them. The transposes cost O(mn) against O(mn min(m, n)) flops. */
#include "par/engine.h"
#include "qr/qr.h"

int tela_dgelqf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    const int args = qr_factor_args(m, n, a, lda, tau);
    if (args != QR_ARGS_GO)
        return args == QR_ARGS_DONE ? 0 : args;
    const size_t copy = (size_t)m * (size_t)n;
    bool owned;
    double *b = qr_scratch(par, copy + qr_factor_len(par, n, m), &owned);
    if (!b) {
        qr_lq_factor_rows(m, n, a, lda, tau);
        return 0;
    }
    qr_transpose(m, n, a, lda, b, n);
    qr_factor(par, n, m, b, n, tau, b + copy, NULL);
    qr_transpose(n, m, b, n, a, lda);
    par_scratch_release(b, owned);
    return 0;
}

int tela_dorglq(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                const double *tau)
{
    if (m < 0)
        return -1;
    if (n < m)
        return -2;
    if (k < 0 || k > m)
        return -3;
    if (lda < (m > 1 ? m : 1))
        return -5;
    if (m == 0)
        return 0;
    if (!a)
        return -4;
    if (k > 0 && !tau)
        return -6;
    const size_t copy = (size_t)m * (size_t)n;
    bool owned;
    double *b = qr_scratch(par, copy + qr_generate_len(n, m, k), &owned);
    if (!b) {
        qr_lq_generate_rows(m, n, k, a, lda, tau);
        return 0;
    }
    qr_transpose(m, n, a, lda, b, n);
    qr_generate(par, n, m, k, b, n, tau, b + copy);
    qr_transpose(n, m, b, n, a, lda);
    par_scratch_release(b, owned);
    return 0;
}

int tela_dormlq(tela_par par, char side, char trans, tela_int m, tela_int n, tela_int k,
                const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    bool left, transpose;
    const int args =
        qr_multiply_args(true, side, trans, m, n, k, a, lda, tau, c, ldc, &left, &transpose);
    if (args != QR_ARGS_GO)
        return args == QR_ARGS_DONE ? 0 : args;
    const tela_int nq = left ? m : n;
    /* Q = H(k) ... H(1) is the transpose of the QR product H(1) ... H(k) of the same vectors. */
    const size_t copy = (size_t)nq * (size_t)k;
    bool owned;
    double *v = qr_scratch(par, copy + qr_multiply_len(par, left, m, n, k, false), &owned);
    if (!v) {
        qr_lq_multiply_rows(left, transpose, m, n, k, a, lda, tau, c, ldc);
        return 0;
    }
    qr_transpose(k, nq, a, lda, v, nq);
    qr_multiply(par, left, !transpose, m, n, k, v, nq, tau, c, ldc, v + copy, NULL);
    par_scratch_release(v, owned);
    return 0;
}
