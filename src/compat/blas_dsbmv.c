/* blas_dsbmv.c — dsbmv_, the Fortran-ABI dsbmv, and the checked core cblas_dsbmv shares.
 *
 * Reference DSBMV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DSBMV "; then tela_dsbmv on the process default width. */
#include "compat/compat.h"

void compat_dsbmv(char uplo, int n, int k, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (k < 0)
        info = 3;
    else if (lda < (long long)k + 1)
        info = 6;
    else if (incx == 0)
        info = 8;
    else if (incy == 0)
        info = 11;
    if (info != 0) {
        compat_xerbla("DSBMV ", info);
        return;
    }
    /* tela_dsbmv may still refuse a NULL array it would use (-5, -7, -10), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dsbmv(tela_par_auto(), uplo, n, k, alpha, a, lda, x, incx, beta, y, incy);
}

void dsbmv_(const char *uplo, const int *n, const int *k, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy)
{
    compat_dsbmv(*uplo, *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
