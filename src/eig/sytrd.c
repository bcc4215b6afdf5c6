/* sytrd.c — tela_dsytrd: Q^T A Q = T by Householder reflectors, LAPACK's blocked algorithm.
 * A panel of nb columns is reduced as dlatrd does: each column's reflector needs the trailing
 * matrix times its vector (tela_dsymv, the memory-bound half, on the team), corrected for the
 * panel's columns not yet applied, which W accumulates; the trailing matrix then takes the
 * panel's rank-2nb update by tela_dsyr2k. The upper form is the lower one of the reversed
 * matrix P A P (P the exchange matrix), whose reflectors are LAPACK's upper ones read backwards. */
#include "eig/eig.h"
#include "par/engine.h"
#include "qr/qr.h"

#include <string.h>

enum {
    SYTRD_BLOCK = 32, /* LAPACK's: the panel's gemv corrections grow with it, the syr2k's k too */
    SYTRD_CROSSOVER = 64 /* below this many trailing columns, the unblocked algorithm */
};

#define AT(a, lda, i, j) ((a)[(i) + (size_t)(j) * (size_t)(lda)])

/* LAPACK's dsytd2, lower: one reflector per column, applied at once by dsyr2. tau[i ..] holds
 * the product vector until tau(i) is written, as dsytd2 does. */
static void reduce_columns(tela_par par, tela_int n, double *a, tela_int lda, double *d, double *e,
                           double *tau)
{
    for (tela_int i = 0; i + 1 < n; i++) {
        const tela_int len = n - i - 1;
        double *v = &AT(a, lda, i + 1, i), taui;
        qr_reflector(len, v, &AT(a, lda, i + 2 < n ? i + 2 : n - 1, i), 1, &taui);
        e[i] = *v;
        if (taui != 0.0) {
            *v = 1.0;
            double *x = tau + i;
            tela_dsymv(par, 'L', len, taui, &AT(a, lda, i + 1, i + 1), lda, v, 1, 0.0, x, 1);
            const double alpha = -0.5 * taui * tela_ddot(par, len, x, 1, v, 1);
            tela_daxpy(par, len, alpha, v, 1, x, 1);
            tela_dsyr2(par, 'L', len, -1.0, v, 1, x, 1, &AT(a, lda, i + 1, i + 1), lda);
            *v = e[i];
        }
        d[i] = AT(a, lda, i, i);
        tau[i] = taui;
    }
    if (n > 0)
        d[n - 1] = AT(a, lda, n - 1, n - 1);
}

/* LAPACK's dlatrd, lower: the first nb columns of the m x m trailing matrix a reduced, their
 * reflectors in place (unit elements stored), W (m x nb) such that the trailing matrix's update
 * is A22 - V W^T - W V^T. */
static void reduce_panel(tela_par par, tela_int m, tela_int nb, double *a, tela_int lda, double *e,
                         double *tau, double *w, tela_int ldw)
{
    for (tela_int i = 0; i < nb; i++) {
        double *col = &AT(a, lda, i, i);
        if (i > 0) {
            /* Column i takes the panel's earlier reflectors: A(i:, i) -= A(i:, :i) W(i, :i)^T
             * + W(i:, :i) A(i, :i)^T. */
            tela_dgemv(par, 'N', m - i, i, -1.0, &AT(a, lda, i, 0), lda, &AT(w, ldw, i, 0), ldw,
                       1.0, col, 1);
            tela_dgemv(par, 'N', m - i, i, -1.0, &AT(w, ldw, i, 0), ldw, &AT(a, lda, i, 0), lda,
                       1.0, col, 1);
        }
        if (i + 1 >= m)
            continue;
        const tela_int len = m - i - 1;
        double *v = &AT(a, lda, i + 1, i);
        qr_reflector(len, v, &AT(a, lda, i + 2 < m ? i + 2 : m - 1, i), 1, &tau[i]);
        e[i] = *v;
        *v = 1.0;
        double *wi = &AT(w, ldw, i + 1, i), *scratch = &AT(w, ldw, 0, i);
        tela_dsymv(par, 'L', len, 1.0, &AT(a, lda, i + 1, i + 1), lda, v, 1, 0.0, wi, 1);
        if (i > 0) {
            /* The trailing matrix lacks the panel's updates: w -= V (W^T v) + W (V^T v), the
             * small products kept in W's column above the diagonal, free until then. */
            tela_dgemv(par, 'T', len, i, 1.0, &AT(w, ldw, i + 1, 0), ldw, v, 1, 0.0, scratch, 1);
            tela_dgemv(par, 'N', len, i, -1.0, &AT(a, lda, i + 1, 0), lda, scratch, 1, 1.0, wi, 1);
            tela_dgemv(par, 'T', len, i, 1.0, &AT(a, lda, i + 1, 0), lda, v, 1, 0.0, scratch, 1);
            tela_dgemv(par, 'N', len, i, -1.0, &AT(w, ldw, i + 1, 0), ldw, scratch, 1, 1.0, wi, 1);
        }
        tela_dscal(par, len, tau[i], wi, 1);
        const double alpha = -0.5 * tau[i] * tela_ddot(par, len, wi, 1, v, 1);
        tela_daxpy(par, len, alpha, v, 1, wi, 1);
    }
}

/* The lower algorithm on a, with W from work (n x SYTRD_BLOCK doubles). */
static void reduce_lower(tela_par par, tela_int n, double *a, tela_int lda, double *d, double *e,
                         double *tau, double *work)
{
    tela_int i = 0;
    if (work)
        for (; n - i > SYTRD_CROSSOVER; i += SYTRD_BLOCK) {
            const tela_int m = n - i, nb = SYTRD_BLOCK;
            double *panel = &AT(a, lda, i, i);
            reduce_panel(par, m, nb, panel, lda, e + i, tau + i, work, m);
            tela_dsyr2k(par, 'L', 'N', m - nb, nb, -1.0, &AT(panel, lda, nb, 0), lda, work + nb, m,
                        1.0, &AT(panel, lda, nb, nb), lda);
            for (tela_int j = i; j < i + nb; j++) {
                AT(a, lda, j + 1, j) = e[j];
                d[j] = AT(a, lda, j, j);
            }
        }
    reduce_columns(par, n - i, &AT(a, lda, i, i), lda, d + i, e + i, tau + i);
}

/* LAPACK's dsytd2, upper, for when no scratch holds the reversed copy: the reflectors from the
 * last column back, each applied at once. */
static void reduce_columns_upper(tela_par par, tela_int n, double *a, tela_int lda, double *d,
                                 double *e, double *tau)
{
    for (tela_int i = n - 2; i >= 0; i--) {
        /* H(i) annihilates A(0 : i-1, i+1); its unit element at row i. */
        double *alpha = &AT(a, lda, i, i + 1), taui;
        qr_reflector(i + 1, alpha, &AT(a, lda, 0, i + 1), 1, &taui);
        e[i] = *alpha;
        if (taui != 0.0) {
            *alpha = 1.0;
            double *v = &AT(a, lda, 0, i + 1), *x = tau;
            tela_dsymv(par, 'U', i + 1, taui, a, lda, v, 1, 0.0, x, 1);
            const double c = -0.5 * taui * tela_ddot(par, i + 1, x, 1, v, 1);
            tela_daxpy(par, i + 1, c, v, 1, x, 1);
            tela_dsyr2(par, 'U', i + 1, -1.0, v, 1, x, 1, a, lda);
            *alpha = e[i];
        }
        d[i + 1] = AT(a, lda, i + 1, i + 1);
        tau[i] = taui;
    }
    if (n > 0)
        d[0] = AT(a, lda, 0, 0);
}

/* b (n x n, lower) = the lower triangle of P A P from A's upper one, or back. */
static void reverse_upper(tela_int n, double *a, tela_int lda, double *b, bool back)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++) {
            double *x = &AT(a, lda, n - 1 - i, n - 1 - j), *y = &AT(b, n, i, j);
            if (back)
                *x = *y;
            else
                *y = *x;
        }
}

void eig_reverse_vector(tela_int n, double *x)
{
    for (tela_int i = 0, j = n - 1; i < j; i++, j--) {
        const double t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

void eig_sytrd(tela_par par, bool lower, tela_int n, double *a, tela_int lda, double *d, double *e,
               double *tau)
{
    if (n == 0)
        return;
    const size_t panel = (size_t)n * SYTRD_BLOCK;
    bool owned;
    double *work = eig_scratch(par, panel + (lower ? 0 : (size_t)n * (size_t)n), &owned);
    if (lower) {
        reduce_lower(par, n, a, lda, d, e, tau, work);
    } else if (!work) {
        reduce_columns_upper(par, n, a, lda, d, e, tau);
    } else {
        double *b = work + panel;
        reverse_upper(n, a, lda, b, false);
        reduce_lower(par, n, b, n, d, e, tau, work);
        reverse_upper(n, a, lda, b, true);
        eig_reverse_vector(n, d);
        eig_reverse_vector(n - 1, e);
        eig_reverse_vector(n - 1, tau);
    }
    if (work)
        par_scratch_release(work, owned);
}

int tela_dsytrd(tela_par par, char uplo, tela_int n, double *a, tela_int lda, double *d, double *e,
                double *tau)
{
    bool lower;
    if (!eig_uplo(uplo, &lower))
        return -1;
    if (n < 0)
        return -2;
    if (lda < (n > 1 ? n : 1))
        return -4;
    if (n == 0)
        return 0;
    if (!a)
        return -3;
    if (!d)
        return -5;
    if (!e && n > 1)
        return -6;
    if (!tau && n > 1)
        return -7;
    eig_sytrd(par, lower, n, a, lda, d, e, tau);
    return 0;
}
