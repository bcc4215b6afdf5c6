/* blas_dspr.c — dspr_, the Fortran-ABI dspr, and the checked core cblas_dspr shares.
 *
 * Reference DSPR's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DSPR  "; then tela_dspr on the process default width. */
#include "compat/compat.h"

void compat_dspr(char uplo, int n, double alpha, const double *x, int incx, double *ap)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (incx == 0)
        info = 5;
    if (info != 0) {
        compat_xerbla("DSPR  ", info);
        return;
    }
    /* tela_dspr may still refuse a NULL array it would use (-4, -6), writing nothing: reference
     * would crash there, so it is no xerbla error. */
    (void)tela_dspr(tela_par_auto(), uplo, n, alpha, x, incx, ap);
}

void dspr_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
           double *ap)
{
    compat_dspr(*uplo, *n, *alpha, x, *incx, ap);
}
