/* blas_dgemv.c — dgemv_, the Fortran-ABI dgemv, and the checked core cblas_dgemv shares.
 *
 * Reference DGEMV's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DGEMV "; then tela_dgemv on the process default width. */
#include "compat/compat.h"

void compat_dgemv(char trans, int m, int n, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy)
{
    int info = 0;
    if (!compat_is_trans(trans))
        info = 1;
    else if (m < 0)
        info = 2;
    else if (n < 0)
        info = 3;
    else if (lda < compat_at_least_one(m))
        info = 6;
    else if (incx == 0)
        info = 8;
    else if (incy == 0)
        info = 11;
    if (info != 0) {
        compat_xerbla("DGEMV ", info);
        return;
    }
    /* What tela_dgemv may still return is -5, -7 or -10 for a NULL array it would use:
     * reference does not check pointers (it would crash), so that is not an xerbla error. */
    (void)tela_dgemv(tela_par_auto(), trans, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

void dgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy)
{
    compat_dgemv(*trans, *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
