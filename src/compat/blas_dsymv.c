/* blas_dsymv.c — dsymv_, the Fortran-ABI dsymv, and the checked core cblas_dsymv shares.
 *
 * Reference DSYMV's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DSYMV "; then tela_dsymv on the process default width. */
#include "compat/compat.h"

void compat_dsymv(char uplo, int n, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (lda < compat_at_least_one(n))
        info = 5;
    else if (incx == 0)
        info = 7;
    else if (incy == 0)
        info = 10;
    if (info != 0) {
        compat_xerbla("DSYMV ", info);
        return;
    }
    /* What tela_dsymv may still return is -4, -6 or -9 for a NULL array it would use, not an
     * xerbla error (reference would crash). */
    (void)tela_dsymv(tela_par_auto(), uplo, n, alpha, a, lda, x, incx, beta, y, incy);
}

void dsymv_(const char *uplo, const int *n, const double *alpha, const double *a, const int *lda,
            const double *x, const int *incx, const double *beta, double *y, const int *incy)
{
    compat_dsymv(*uplo, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
