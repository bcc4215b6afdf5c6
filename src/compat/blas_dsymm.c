/* blas_dsymm.c — dsymm_, the Fortran-ABI dsymm, and the checked core cblas_dsymm shares.
 *
 * Reference DSYMM's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DSYMM "; then tela_dsymm on the process default width. */
#include "compat/compat.h"

void compat_dsymm(char side, char uplo, int m, int n, double alpha, const double *a, int lda,
                  const double *b, int ldb, double beta, double *c, int ldc)
{
    /* A is m x m on the left, n x n on the right. */
    const int rows_a = side == 'L' || side == 'l' ? m : n;
    int info = 0;
    if (!compat_is_side(side))
        info = 1;
    else if (!compat_is_uplo(uplo))
        info = 2;
    else if (m < 0)
        info = 3;
    else if (n < 0)
        info = 4;
    else if (lda < compat_at_least_one(rows_a))
        info = 7;
    else if (ldb < compat_at_least_one(m))
        info = 9;
    else if (ldc < compat_at_least_one(m))
        info = 12;
    if (info != 0) {
        compat_xerbla("DSYMM ", info);
        return;
    }
    /* These arguments pass tela_dsymm's checks too. What it may still return is -6, -8 or -11
     * for a NULL matrix it would read or write: reference DSYMM does not check pointers (it
     * would crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dsymm(tela_par_auto(), side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dsymm_(const char *side, const char *uplo, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
            double *c, const int *ldc)
{
    compat_dsymm(*side, *uplo, *m, *n, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
