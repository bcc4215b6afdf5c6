/* blas_dtpsv.c — dtpsv_, the Fortran-ABI dtpsv (op(A) x = b solved in place, A triangular packed),
 * and the checked core cblas_dtpsv shares.
 *
 * Reference DTPSV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DTPSV "; then tela_dtpsv (which runs on the calling thread). */
#include "compat/compat.h"

void compat_dtpsv(char uplo, char trans, char diag, int n, const double *ap, double *x, int incx)
{
    int info = compat_vector_triangle_info(uplo, trans, diag, n);
    if (info == 0 && incx == 0)
        info = 7;
    if (info != 0) {
        compat_xerbla("DTPSV ", info);
        return;
    }
    /* tela_dtpsv may still refuse a NULL array it would use (-5, -6), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dtpsv(tela_par_auto(), uplo, trans, diag, n, ap, x, incx);
}

void dtpsv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *ap,
            double *x, const int *incx)
{
    compat_dtpsv(*uplo, *trans, *diag, *n, ap, x, *incx);
}
