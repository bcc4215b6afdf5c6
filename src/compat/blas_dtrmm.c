/* blas_dtrmm.c — dtrmm_, the Fortran-ABI dtrmm, and the checked core cblas_dtrmm shares.
 *
 * Reference DTRMM's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DTRMM "; then tela_dtrmm on the process default width. Its checks are DTRSM's
 * (compat_triangular_info). */
#include "compat/compat.h"

void compat_dtrmm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                  const double *a, int lda, double *b, int ldb)
{
    const int info = compat_triangular_info(side, uplo, transa, diag, m, n, lda, ldb);
    if (info != 0) {
        compat_xerbla("DTRMM ", info);
        return;
    }
    /* These arguments pass tela_dtrmm's checks too. What it may still return is -8 or -10 for
     * a NULL matrix it would read or write: reference DTRMM does not check pointers (it would
     * crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dtrmm(tela_par_auto(), side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb)
{
    compat_dtrmm(*side, *uplo, *transa, *diag, *m, *n, *alpha, a, *lda, b, *ldb);
}
