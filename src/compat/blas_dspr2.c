/* blas_dspr2.c — dspr2_, the Fortran-ABI dspr2, and the checked core cblas_dspr2 shares.
 *
 * Reference DSPR2's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DSPR2 "; then tela_dspr2 on the process default width. */
#include "compat/compat.h"

void compat_dspr2(char uplo, int n, double alpha, const double *x, int incx, const double *y,
                  int incy, double *ap)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (incx == 0)
        info = 5;
    else if (incy == 0)
        info = 7;
    if (info != 0) {
        compat_xerbla("DSPR2 ", info);
        return;
    }
    /* tela_dspr2 may still refuse a NULL array it would use (-4, -6, -8), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dspr2(tela_par_auto(), uplo, n, alpha, x, incx, y, incy, ap);
}

void dspr2_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
            const double *y, const int *incy, double *ap)
{
    compat_dspr2(*uplo, *n, *alpha, x, *incx, y, *incy, ap);
}
