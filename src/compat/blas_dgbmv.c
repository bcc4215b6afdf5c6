/* blas_dgbmv.c — dgbmv_, the Fortran-ABI dgbmv, and the checked core cblas_dgbmv shares.
 *
 * Reference DGBMV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DGBMV "; then tela_dgbmv on the process default width. */
#include "compat/compat.h"

void compat_dgbmv(char trans, int m, int n, int kl, int ku, double alpha, const double *a, int lda,
                  const double *x, int incx, double beta, double *y, int incy)
{
    int info = 0;
    if (!compat_is_trans(trans))
        info = 1;
    else if (m < 0)
        info = 2;
    else if (n < 0)
        info = 3;
    else if (kl < 0)
        info = 4;
    else if (ku < 0)
        info = 5;
    else if (lda < (long long)kl + ku + 1) /* reference's KL + KU + 1, here without overflow */
        info = 8;
    else if (incx == 0)
        info = 10;
    else if (incy == 0)
        info = 13;
    if (info != 0) {
        compat_xerbla("DGBMV ", info);
        return;
    }
    /* What tela_dgbmv may still return is -7, -9 or -12 for a NULL array it would use: reference
     * does not check pointers (it would crash), so that is no xerbla error; nothing is written. */
    (void)tela_dgbmv(tela_par_auto(), trans, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);
}

void dgbmv_(const char *trans, const int *m, const int *n, const int *kl, const int *ku,
            const double *alpha, const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy)
{
    compat_dgbmv(*trans, *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}
