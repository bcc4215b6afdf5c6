/* symmetric_entries.c — tela_dsbmv and tela_dspmv: the checks and quick returns of reference
 * DSBMV and DSPMV, in their order with their numbers, then the one symmetric product both
 * storages share (symmetric.c). */
#include "bandpack/bandpack.h"

int tela_dsbmv(tela_par par, char uplo, tela_int n, tela_int k, double alpha, const double *a,
               tela_int lda, const double *x, tela_int incx, double beta, double *y, tela_int incy)
{
    bool upper;
    if (!bp_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (k < 0)
        return -3;
    if (lda < 1 || lda - 1 < k) /* lda < k + 1 */
        return -6;
    if (incx == 0)
        return -8;
    if (incy == 0)
        return -11;
    if (n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !a)
        return -5;
    if (alpha != 0.0 && !x)
        return -7;
    if (!y)
        return -10;
    const bp_shape s = bp_band(a, lda, n, k, upper);
    bp_symmetric_product(par, "dsbmv", &s, alpha, x + bp_first(n, incx), incx, beta,
                         y + bp_first(n, incy), incy);
    return 0;
}

int tela_dspmv(tela_par par, char uplo, tela_int n, double alpha, const double *ap, const double *x,
               tela_int incx, double beta, double *y, tela_int incy)
{
    bool upper;
    if (!bp_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -6;
    if (incy == 0)
        return -9;
    if (n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !ap)
        return -4;
    if (alpha != 0.0 && !x)
        return -5;
    if (!y)
        return -8;
    const bp_shape s = bp_packed(ap, n, upper);
    bp_symmetric_product(par, "dspmv", &s, alpha, x + bp_first(n, incx), incx, beta,
                         y + bp_first(n, incy), incy);
    return 0;
}
