/* blas_dger.c — dger_, the Fortran-ABI dger, and the checked core cblas_dger shares.
 *
 * Reference DGER's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DGER  "; then tela_dger on the process default width. */
#include "compat/compat.h"

void compat_dger(int m, int n, double alpha, const double *x, int incx, const double *y, int incy,
                 double *a, int lda)
{
    int info = 0;
    if (m < 0)
        info = 1;
    else if (n < 0)
        info = 2;
    else if (incx == 0)
        info = 5;
    else if (incy == 0)
        info = 7;
    else if (lda < compat_at_least_one(m))
        info = 9;
    if (info != 0) {
        compat_xerbla("DGER  ", info);
        return;
    }
    /* What tela_dger may still return is -4, -6 or -8 for a NULL array it would use, not an
     * xerbla error (reference would crash). */
    (void)tela_dger(tela_par_auto(), m, n, alpha, x, incx, y, incy, a, lda);
}

void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda)
{
    compat_dger(*m, *n, *alpha, x, *incx, y, *incy, a, *lda);
}
