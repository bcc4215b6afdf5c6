/* blas_dsyr.c — dsyr_, the Fortran-ABI dsyr, and the checked core cblas_dsyr shares.
 *
 * Reference DSYR's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DSYR  "; then tela_dsyr on the process default width. */
#include "compat/compat.h"

void compat_dsyr(char uplo, int n, double alpha, const double *x, int incx, double *a, int lda)
{
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (n < 0)
        info = 2;
    else if (incx == 0)
        info = 5;
    else if (lda < compat_at_least_one(n))
        info = 7;
    if (info != 0) {
        compat_xerbla("DSYR  ", info);
        return;
    }
    /* What tela_dsyr may still return is -4 or -6 for a NULL array it would use, not an xerbla
     * error (reference would crash). */
    (void)tela_dsyr(tela_par_auto(), uplo, n, alpha, x, incx, a, lda);
}

void dsyr_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
           double *a, const int *lda)
{
    compat_dsyr(*uplo, *n, *alpha, x, *incx, a, *lda);
}
