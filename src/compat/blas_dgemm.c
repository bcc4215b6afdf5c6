/* blas_dgemm.c — dgemm_, the Fortran-ABI dgemm, and the checked core cblas_dgemm shares.
 *
 * Reference DGEMM's argument checks, in its order and with its numbers, reported through
 * xerbla_ as "DGEMM "; then tela_dgemm on the process default width. Reference checks nothing
 * else, so neither does this layer (see compat_dgemm). */
#include "compat/compat.h"

void compat_dgemm(char transa, char transb, int m, int n, int k, double alpha, const double *a,
                  int lda, const double *b, int ldb, double beta, double *c, int ldc)
{
    const int rows_a = compat_is_notrans(transa) ? m : k;
    const int rows_b = compat_is_notrans(transb) ? k : n;
    int info = 0;
    if (!compat_is_trans(transa))
        info = 1;
    else if (!compat_is_trans(transb))
        info = 2;
    else if (m < 0)
        info = 3;
    else if (n < 0)
        info = 4;
    else if (k < 0)
        info = 5;
    else if (lda < compat_at_least_one(rows_a))
        info = 8;
    else if (ldb < compat_at_least_one(rows_b))
        info = 10;
    else if (ldc < compat_at_least_one(m))
        info = 13;
    if (info != 0) {
        compat_xerbla("DGEMM ", info);
        return;
    }
    /* These arguments pass tela_dgemm's checks too. What it may still return is -7, -9 or -12
     * for a NULL matrix it would read or write: reference DGEMM does not check pointers (it
     * would crash), so that is not an xerbla error here; tela has written nothing then. */
    (void)tela_dgemm(tela_par_auto(), transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc)
{
    compat_dgemm(*transa, *transb, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}
