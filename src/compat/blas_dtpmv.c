/* blas_dtpmv.c — dtpmv_, the Fortran-ABI dtpmv (x = op(A) x, A triangular packed), and the
 * checked core cblas_dtpmv shares.
 *
 * Reference DTPMV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DTPMV "; then tela_dtpmv (which runs on the calling thread). */
#include "compat/compat.h"

void compat_dtpmv(char uplo, char trans, char diag, int n, const double *ap, double *x, int incx)
{
    int info = compat_vector_triangle_info(uplo, trans, diag, n);
    if (info == 0 && incx == 0)
        info = 7;
    if (info != 0) {
        compat_xerbla("DTPMV ", info);
        return;
    }
    /* tela_dtpmv may still refuse a NULL array it would use (-5, -6), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dtpmv(tela_par_auto(), uplo, trans, diag, n, ap, x, incx);
}

void dtpmv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *ap,
            double *x, const int *incx)
{
    compat_dtpmv(*uplo, *trans, *diag, *n, ap, x, *incx);
}
