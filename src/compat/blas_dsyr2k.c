/* blas_dsyr2k.c — dsyr2k_, the Fortran-ABI dsyr2k, and the checked core cblas_dsyr2k shares.
 *
 * Reference DSYR2K's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DSYR2K"; then tela_dsyr2k on the process default width. As reference, trans 'C'
 * is accepted and means 'T' (A and B are real). */
#include "compat/compat.h"

void compat_dsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int lda,
                   const double *b, int ldb, double beta, double *c, int ldc)
{
    /* A and B are n x k, or k x n when transposed. */
    const int rows = compat_is_notrans(trans) ? n : k;
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (!compat_is_trans(trans))
        info = 2;
    else if (n < 0)
        info = 3;
    else if (k < 0)
        info = 4;
    else if (lda < compat_at_least_one(rows))
        info = 7;
    else if (ldb < compat_at_least_one(rows))
        info = 9;
    else if (ldc < compat_at_least_one(n))
        info = 12;
    if (info != 0) {
        compat_xerbla("DSYR2K", info);
        return;
    }
    /* These arguments pass tela_dsyr2k's checks too. What it may still return is -6, -8 or
     * -11 for a NULL matrix it would read or write: reference DSYR2K does not check pointers
     * (it would crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dsyr2k(tela_par_auto(), uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
             const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
             double *c, const int *ldc)
{
    compat_dsyr2k(*uplo, *trans, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
