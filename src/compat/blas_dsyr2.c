/* blas_dsyr2.c — dsyr2_, the Fortran-ABI dsyr2, and the checked core cblas_dsyr2 shares.
 *
 * Reference DSYR2's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DSYR2 "; then tela_dsyr2 on the process default width. */
#include "compat/compat.h"

void compat_dsyr2(char uplo, int n, double alpha, const double *x, int incx, const double *y,
                  int incy, double *a, int lda)
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
    else if (lda < compat_at_least_one(n))
        info = 9;
    if (info != 0) {
        compat_xerbla("DSYR2 ", info);
        return;
    }
    /* What tela_dsyr2 may still return is -4, -6 or -8 for a NULL array it would use, not an
     * xerbla error (reference would crash). */
    (void)tela_dsyr2(tela_par_auto(), uplo, n, alpha, x, incx, y, incy, a, lda);
}

void dsyr2_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
            const double *y, const int *incy, double *a, const int *lda)
{
    compat_dsyr2(*uplo, *n, *alpha, x, *incx, y, *incy, a, *lda);
}
