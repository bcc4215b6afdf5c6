/* ormtr.c — tela_dormtr and tela_dorgtr: tela_dsytrd's Q applied or formed through the QR
 * family's blocked compact WY code. The lower form's reflectors are geqrf's, one row down; the
 * upper form's, read backwards, are too (sytrd.c), so its Q is P Q' P with P the exchange
 * matrix: C's rows (or columns) are reversed around the lower algorithm's product. */
#include "eig/eig.h"
#include "par/engine.h"
#include "qr/qr.h"

#define AT(a, lda, i, j) ((a)[(i) + (size_t)(j) * (size_t)(lda)])

/* The k = order - 1 upper-form reflectors of a as lower (geqrf) ones in b (k x k): reflector j
 * is A's reflector k - 1 - j reversed, its scalar likewise. */
static void reflectors_reversed(tela_int k, const double *a, tela_int lda, const double *tau,
                                double *b, double *tau_b)
{
    for (tela_int j = 0; j < k; j++) {
        for (tela_int s = j + 1; s < k; s++)
            AT(b, k, s, j) = AT(a, lda, k - 1 - s, k - j);
        tau_b[j] = tau[k - 1 - j];
    }
}

/* Reverses the first k rows (rows) or columns (!rows) of the m x n matrix c. */
static void reverse_lines(bool rows, tela_int k, tela_int m, tela_int n, double *c, tela_int ldc)
{
    if (rows) {
        for (tela_int j = 0; j < n; j++)
            eig_reverse_vector(k, c + (size_t)j * (size_t)ldc);
        return;
    }
    for (tela_int j = 0, l = k - 1; j < l; j++, l--)
        for (tela_int i = 0; i < m; i++) {
            const double t = AT(c, ldc, i, j);
            AT(c, ldc, i, j) = AT(c, ldc, i, l);
            AT(c, ldc, i, l) = t;
        }
}

/* The upper form: false when no workspace holds the reversed reflectors. */
static bool multiply_upper(tela_par par, bool left, bool trans, tela_int m, tela_int n,
                           const double *a, tela_int lda, const double *tau, double *c,
                           tela_int ldc)
{
    const tela_int k = (left ? m : n) - 1, mi = left ? k : m, ni = left ? n : k;
    const size_t reflectors = (size_t)k * (size_t)k + (size_t)k;
    bool owned;
    double *b = eig_scratch(par, reflectors + qr_multiply_len(par, left, mi, ni, k, false), &owned);
    if (!b)
        return false;
    double *tau_b = b + (size_t)k * (size_t)k;
    reflectors_reversed(k, a, lda, tau, b, tau_b);
    reverse_lines(left, k, m, n, c, ldc);
    qr_multiply(par, left, trans, mi, ni, k, b, k, tau_b, c, ldc, b + reflectors, NULL);
    reverse_lines(left, k, m, n, c, ldc);
    par_scratch_release(b, owned);
    return true;
}

bool eig_ormtr(tela_par par, bool left, bool lower, bool trans, tela_int m, tela_int n,
               const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    const tela_int order = left ? m : n;
    if (m == 0 || n == 0 || order < 2)
        return true;
    if (!lower)
        return multiply_upper(par, left, trans, m, n, a, lda, tau, c, ldc);
    /* Q = diag(1, Q'), Q' geqrf's of the order - 1 reflectors one row down in a. */
    if (left)
        qr_ormqr(par, true, trans, m - 1, n, m - 1, a + 1, lda, tau, c + 1, ldc, NULL);
    else
        qr_ormqr(par, false, trans, m, n - 1, n - 1, a + 1, lda, tau, c + (size_t)ldc, ldc, NULL);
    return true;
}

int tela_dormtr(tela_par par, char side, char uplo, char trans, tela_int m, tela_int n,
                const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    bool left, lower, transpose;
    if (!qr_side(side, &left))
        return -1;
    if (!eig_uplo(uplo, &lower))
        return -2;
    if (!qr_trans(trans, &transpose))
        return -3;
    if (m < 0)
        return -4;
    if (n < 0)
        return -5;
    const tela_int order = left ? m : n;
    if (lda < (order > 1 ? order : 1))
        return -7;
    if (ldc < (m > 1 ? m : 1))
        return -10;
    if (m == 0 || n == 0 || order < 2)
        return 0;
    if (!a)
        return -6;
    if (!tau)
        return -8;
    if (!c)
        return -9;
    if (!eig_ormtr(par, left, lower, transpose, m, n, a, lda, tau, c, ldc))
        return eig_no_memory("tela_dormtr");
    return 0;
}

/* Q's last row and column are the identity's (upper) or its first ones (lower). */
static void identity_border(bool lower, tela_int n, double *a, tela_int lda)
{
    const tela_int b = lower ? 0 : n - 1;
    for (tela_int i = 0; i < n; i++) {
        AT(a, lda, i, b) = 0.0;
        AT(a, lda, b, i) = 0.0;
    }
    AT(a, lda, b, b) = 1.0;
}

int tela_dorgtr(tela_par par, char uplo, tela_int n, double *a, tela_int lda, const double *tau)
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
    if (!tau && n > 1)
        return -5;
    const tela_int k = n - 1;
    if (lower) {
        /* The reflectors one column right, as geqrf's of the trailing k x k block. */
        for (tela_int j = k; j >= 1; j--)
            for (tela_int i = j + 1; i < n; i++)
                AT(a, lda, i, j) = AT(a, lda, i, j - 1);
        identity_border(true, n, a, lda);
        if (k > 0)
            return tela_dorgqr(par, k, k, k, a + 1 + lda, lda, tau);
        return 0;
    }
    const size_t reflectors = (size_t)k * (size_t)k + (size_t)k;
    bool owned;
    double *b = eig_scratch(par, reflectors + qr_generate_len(k, k, k), &owned);
    if (!b)
        return eig_no_memory("tela_dorgtr");
    double *tau_b = b + (size_t)k * (size_t)k;
    reflectors_reversed(k, a, lda, tau, b, tau_b);
    qr_generate(par, k, k, k, b, k, tau_b, b + reflectors);
    for (tela_int j = 0; j < k; j++)
        for (tela_int i = 0; i < k; i++)
            AT(a, lda, i, j) = AT(b, k, k - 1 - i, k - 1 - j);
    identity_border(false, n, a, lda);
    par_scratch_release(b, owned);
    return 0;
}
