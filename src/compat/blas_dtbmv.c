/* blas_dtbmv.c — dtbmv_, the Fortran-ABI dtbmv (x = op(A) x, A triangular banded), and the
 * checked core cblas_dtbmv shares.
 *
 * Reference DTBMV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DTBMV "; then tela_dtbmv (which runs on the calling thread). */
#include "compat/compat.h"

void compat_dtbmv(char uplo, char trans, char diag, int n, int k, const double *a, int lda,
                  double *x, int incx)
{
    int info = compat_vector_triangle_info(uplo, trans, diag, n);
    if (info == 0 && k < 0)
        info = 5;
    else if (info == 0 && lda < (long long)k + 1)
        info = 7;
    else if (info == 0 && incx == 0)
        info = 9;
    if (info != 0) {
        compat_xerbla("DTBMV ", info);
        return;
    }
    /* tela_dtbmv may still refuse a NULL array it would use (-6, -8), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dtbmv(tela_par_auto(), uplo, trans, diag, n, k, a, lda, x, incx);
}

void dtbmv_(const char *uplo, const char *trans, const char *diag, const int *n, const int *k,
            const double *a, const int *lda, double *x, const int *incx)
{
    compat_dtbmv(*uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);
}
