/* blas_dspmv.c — dspmv_, the Fortran-ABI dspmv, and the checked core cblas_dspmv shares.
 *
 * Reference DSPMV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DSPMV "; then tela_dspmv on the process default width. */
#include "compat/compat.h"

void compat_dspmv(char uplo, int n, double alpha, const double *ap, const double *x, int incx,
                  double beta, double *y, int incy)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (incx == 0)
        info = 6;
    else if (incy == 0)
        info = 9;
    if (info != 0) {
        compat_xerbla("DSPMV ", info);
        return;
    }
    /* tela_dspmv may still refuse a NULL array it would use (-4, -5, -8), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dspmv(tela_par_auto(), uplo, n, alpha, ap, x, incx, beta, y, incy);
}

void dspmv_(const char *uplo, const int *n, const double *alpha, const double *ap, const double *x,
            const int *incx, const double *beta, double *y, const int *incy)
{
    compat_dspmv(*uplo, *n, *alpha, ap, x, *incx, *beta, y, *incy);
}
