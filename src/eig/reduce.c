/* reduce.c — the reduction a driver asks for when it wants the eigenvalues alone: tela_dsytrd's
 * one stage for small orders, where the matrix stays in cache and its dsymv half is cheap, and
 * the two-stage reduction (band.c, bulge.c) above, whose level-3 first stage does not stream
 * the trailing matrix from memory once per column. */
#include "eig/eig.h"

/* The order from which two stages win, measured on one thread (docs/eig.md). */
#define TWOSTAGE_ORDER 800

static bool use_twostage(tela_int n)
{
    return n >= TWOSTAGE_ORDER;
}

size_t eig_reduce_values_len(bool lower, tela_int n)
{
    if (!use_twostage(n))
        return (size_t)n; /* tau */
    const size_t copy = lower ? 0 : (size_t)n * (size_t)n;
    return eig_twostage_len(n, eig_band_width(n)) + copy;
}

void eig_reduce_values(tela_par par, bool lower, tela_int n, double *a, tela_int lda, double *d,
                       double *e, double *work)
{
    if (!use_twostage(n)) {
        eig_sytrd(par, lower, n, a, lda, d, e, work);
        return;
    }
    if (lower) {
        eig_sytrd_twostage(par, n, a, lda, d, e, work);
        return;
    }
    /* The upper triangle, transposed, is the same matrix's lower one; A's lower triangle must
     * stay as it was, so the copy lives in work. */
    double *copy = work + eig_twostage_len(n, eig_band_width(n));
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++)
            copy[i + (size_t)j * (size_t)n] = a[j + (size_t)i * (size_t)lda];
    eig_sytrd_twostage(par, n, copy, n, d, e, work);
}
