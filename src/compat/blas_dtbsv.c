/* blas_dtbsv.c — dtbsv_, the Fortran-ABI dtbsv (op(A) x = b solved in place, A triangular banded),
 * and the checked core cblas_dtbsv shares.
 *
 * Reference DTBSV's argument checks, in its order and with its numbers, reported through xerbla_
 * as "DTBSV "; then tela_dtbsv (which runs on the calling thread). */
#include "compat/compat.h"

void compat_dtbsv(char uplo, char trans, char diag, int n, int k, const double *a, int lda,
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
        compat_xerbla("DTBSV ", info);
        return;
    }
    /* tela_dtbsv may still refuse a NULL array it would use (-6, -8), writing nothing:
     * reference would crash there, so it is no xerbla error. */
    (void)tela_dtbsv(tela_par_auto(), uplo, trans, diag, n, k, a, lda, x, incx);
}

void dtbsv_(const char *uplo, const char *trans, const char *diag, const int *n, const int *k,
            const double *a, const int *lda, double *x, const int *incx)
{
    compat_dtbsv(*uplo, *trans, *diag, *n, *k, a, *lda, x, *incx);
}
