/* lq_rows.c — the LQ side one reflector at a time along A's rows (LAPACK's dgelq2, dorgl2,
 * dorml2): what tela_dgelqf, tela_dorglq and tela_dormlq fall back on when no scratch memory
 * holds the transposed copy (a call inside a region whose thread keeps too little). */
#include "qr/qr.h"

void qr_lq_factor_rows(tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    const tela_int k = m < n ? m : n;
    for (tela_int i = 0; i < k; i++) {
        double *d = a + i + (size_t)i * (size_t)lda;
        qr_reflector(n - i, d, d + lda, lda, &tau[i]);
        qr_apply_reflector_right(m - i - 1, n - i, d, lda, tau[i], d + 1, lda);
    }
}

void qr_lq_generate_rows(tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                         const double *tau)
{
    for (tela_int j = 0; j < n; j++) /* rows past the reflectors start as the identity's */
        for (tela_int r = k; r < m; r++)
            a[r + (size_t)j * (size_t)lda] = r == j ? 1.0 : 0.0;
    for (tela_int i = k - 1; i >= 0; i--) {
        double *d = a + i + (size_t)i * (size_t)lda;
        qr_apply_reflector_right(m - i - 1, n - i, d, lda, tau[i], d + 1, lda);
        for (tela_int j = 1; j < n - i; j++)
            d[(size_t)j * (size_t)lda] *= -tau[i];
        d[0] = 1.0 - tau[i];
        for (tela_int j = 0; j < i; j++)
            a[i + (size_t)j * (size_t)lda] = 0.0;
    }
}

void qr_lq_multiply_rows(bool left, bool trans, tela_int m, tela_int n, tela_int k, const double *a,
                         tela_int lda, const double *tau, double *c, tela_int ldc)
{
    /* Q = H(k) ... H(1): Q C and C Q^T take H(1) first. */
    const bool forward = left != trans;
    for (tela_int step = 0; step < k; step++) {
        const tela_int i = forward ? step : k - 1 - step;
        const double *v = a + i + (size_t)i * (size_t)lda;
        if (left)
            qr_apply_reflector(m - i, n, v, lda, tau[i], c + i, ldc);
        else
            qr_apply_reflector_right(m, n - i, v, lda, tau[i], c + (size_t)i * (size_t)ldc, ldc);
    }
}
