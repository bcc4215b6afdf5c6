/* blas_dtrsv.c — dtrsv_, the Fortran-ABI dtrsv (the solve of op(A) x = b), and the checked core
 * cblas_dtrsv shares.
 *
 * Reference DTRSV's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DTRSV "; then tela_dtrsv on the process default width. */
#include "compat/compat.h"

void compat_dtrsv(char uplo, char trans, char diag, int n, const double *a, int lda, double *x,
                  int incx)
{
    int info = compat_vector_triangle_info(uplo, trans, diag, n);
    if (info == 0 && lda < compat_at_least_one(n))
        info = 6;
    else if (info == 0 && incx == 0)
        info = 8;
    if (info != 0) {
        compat_xerbla("DTRSV ", info);
        return;
    }
    /* What tela_dtrsv may still return is -5 or -7 for a NULL array it would use, not an
     * xerbla error (reference would crash). */
    (void)tela_dtrsv(tela_par_auto(), uplo, trans, diag, n, a, lda, x, incx);
}

void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx)
{
    compat_dtrsv(*uplo, *trans, *diag, *n, a, *lda, x, *incx);
}
