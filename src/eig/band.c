/* band.c — the first stage of the two-stage reduction to tridiagonal form (LAPACK's
 * dsytrd_sy2sb, lower): a dense symmetric matrix to a band of width b by blocked Householder,
 * every flop of it level 3, the band then copied compact for the second stage (bulge.c) to
 * chase down to the tridiagonal. Values only: the reflectors are not kept. */
#include "eig/eig.h"
#include "qr/qr.h"

#include <string.h>

#define AT(a, lda, i, j) ((a)[(i) + (size_t)(j) * (size_t)(lda)])

tela_int eig_band_width(tela_int n)
{
    /* Stage 1's products have k = b, faster with it; stage 2's 6 b n^2 flops run at level 2's
     * speed, serially. On one core (Xeon, AVX-512) b = 24, 32 and 48 measured within noise of
     * each other at n = 1000 to 3000 (16 lost in stage 1, 64 in stage 2), 24 ahead below 1000.
     * 24: with more members stage 1 shrinks and stage 2 does not, and 24 is a whole number of
     * every GEMM kernel's nr (QR_SHARE_COLUMNS). */
    (void)n;
    return 24;
}

size_t eig_twostage_len(tela_int n, tela_int b)
{
    if (n <= 0)
        return 1;
    const size_t nb = (size_t)n * (size_t)b;
    /* the band (2b rows), S = V T and W (n x b each), T and tau */
    return 2 * nb + 2 * nb + (size_t)b * (size_t)b + (size_t)b;
}

/* Column j's band part A(j .. min(j + b, n - 1), j) into the band (column j at band + j ldb),
 * the rest of the band's column zero: the second stage's bulges grow there. */
static void copy_band_column(tela_int n, tela_int b, tela_int j, const double *a, tela_int lda,
                             double *band, tela_int ldb)
{
    const tela_int len = (n - j < b + 1 ? n - j : b + 1);
    double *col = band + (size_t)j * (size_t)ldb;
    memcpy(col, &AT(a, lda, j, j), (size_t)len * sizeof *col);
    memset(col + len, 0, (size_t)(ldb - len) * sizeof *col);
}

void eig_sy2sb(tela_par par, tela_int n, tela_int b, double *a, tela_int lda, double *band,
               tela_int ldb, double *work)
{
    double *s = work, *w = s + (size_t)n * (size_t)b, *t = w + (size_t)n * (size_t)b;
    double *tau = t + (size_t)b * (size_t)b;
    tela_int i = 0;
    /* A panel of one row has only H = I to give: stop while two rows remain below the band. */
    for (; i + b < n - 1; i += b) {
        const tela_int pn = n - i - b, pk = pn < b ? pn : b;
        double *v = &AT(a, lda, i + b, i), *a22 = &AT(a, lda, i + b, i + b);
        if (pn >= b) {
            qr_panel(par, pn, b, v, lda, tau, t, b, true);
        } else {
            /* the last panel, shorter than wide: pn reflectors, the columns right of them
             * (inside the band) taking them too */
            qr_factor_columns(pn, b, v, lda, tau);
            qr_build_t(par, pn, pk, v, lda, tau, t, b);
        }
        for (tela_int j = i; j < i + b; j++)
            copy_band_column(n, b, j, a, lda, band, ldb);
        /* V explicit (unit diagonal, zeros above it, over R now in the band) and T's lower part
         * zero, so that plain products take them whole. */
        for (tela_int j = 0; j < pk; j++) {
            for (tela_int r = 0; r < j; r++) {
                AT(v, lda, r, j) = 0.0;
                AT(t, b, j, r) = 0.0;
            }
            AT(v, lda, j, j) = 1.0;
        }
        /* Q^T A22 Q with Q = I - V T V^T: X = A22 V T, W = X - 1/2 V (T^T V^T X), and then
         * A22 - V W^T - W V^T is it (T^T V^T A22 V T is symmetric). */
        tela_dgemm(par, 'N', 'N', pn, pk, pk, 1.0, v, lda, t, b, 0.0, s, pn);
        tela_dsymm(par, 'L', 'L', pn, pk, 1.0, a22, lda, s, pn, 0.0, w, pn);
        tela_dgemm(par, 'T', 'N', pk, pk, pn, 1.0, s, pn, w, pn, 0.0, t, b);
        tela_dgemm(par, 'N', 'N', pn, pk, pk, -0.5, v, lda, t, b, 1.0, w, pn);
        tela_dsyr2k(par, 'L', 'N', pn, pk, -1.0, v, lda, w, pn, 1.0, a22, lda);
    }
    for (tela_int j = i; j < n; j++)
        copy_band_column(n, b, j, a, lda, band, ldb);
}

void eig_sytrd_twostage(tela_par par, tela_int n, double *a, tela_int lda, double *d, double *e,
                        double *work)
{
    if (n <= 0)
        return;
    tela_int b = eig_band_width(n);
    if (b > n - 1)
        b = n - 1 > 1 ? n - 1 : 1; /* the whole lower triangle is the band already */
    const tela_int ldb = 2 * b;
    double *band = work;
    eig_sy2sb(par, n, b, a, lda, band, ldb, band + (size_t)ldb * (size_t)n);
    eig_sb2st(n, b, band, ldb, d, e);
}
