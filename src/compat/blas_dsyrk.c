/* blas_dsyrk.c — dsyrk_, the Fortran-ABI dsyrk, and the checked core cblas_dsyrk shares.
 *
 * Reference DSYRK's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DSYRK "; then tela_dsyrk on the process default width. As reference, trans 'C'
 * is accepted and means 'T' (A is real). */
#include "compat/compat.h"

void compat_dsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int lda,
                  double beta, double *c, int ldc)
{
    const int rows_a = compat_is_notrans(trans) ? n : k;
    int info = 0;
    if (!compat_is_uplo(uplo))
        info = 1;
    else if (!compat_is_trans(trans))
        info = 2;
    else if (n < 0)
        info = 3;
    else if (k < 0)
        info = 4;
    else if (lda < compat_at_least_one(rows_a))
        info = 7;
    else if (ldc < compat_at_least_one(n))
        info = 10;
    if (info != 0) {
        compat_xerbla("DSYRK ", info);
        return;
    }
    /* These arguments pass tela_dsyrk's checks too. What it may still return is -6 or -9 for
     * a NULL matrix it would read or write: reference DSYRK does not check pointers (it would
     * crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dsyrk(tela_par_auto(), uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}

void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc)
{
    compat_dsyrk(*uplo, *trans, *n, *k, *alpha, a, *lda, *beta, c, *ldc);
}
