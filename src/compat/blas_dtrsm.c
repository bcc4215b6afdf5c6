/* blas_dtrsm.c — dtrsm_, the Fortran-ABI dtrsm, and the checked core cblas_dtrsm shares.
 *
 * Reference DTRSM's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DTRSM "; then tela_dtrsm on the process default width. As reference, a zero on
 * A's diagonal is not checked (the solve divides by it). */
#include "compat/compat.h"

void compat_dtrsm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                  const double *a, int lda, double *b, int ldb)
{
    const int info = compat_triangular_info(side, uplo, transa, diag, m, n, lda, ldb);
    if (info != 0) {
        compat_xerbla("DTRSM ", info);
        return;
    }
    /* These arguments pass tela_dtrsm's checks too. What it may still return is -8 or -10 for
     * a NULL matrix it would read or write: reference DTRSM does not check pointers (it would
     * crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dtrsm(tela_par_auto(), side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
            const int *n, const double *alpha, const double *a, const int *lda, double *b,
            const int *ldb)
{
    compat_dtrsm(*side, *uplo, *transa, *diag, *m, *n, *alpha, a, *lda, b, *ldb);
}
