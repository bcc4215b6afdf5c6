/* lapack_dpotrs.c — dpotrs_, the Fortran-ABI dpotrs: reference DPOTRS's checks (UPLO 1, N 2,
 * NRHS 3, LDA 5, LDB 7, reported as "DPOTRS"), then tela_dpotrs on the default width. */
#include "compat/compat.h"

/* The checks DPOTRS and DPOSV share, numbers included: 0 or the first bad argument's -i. */
int compat_potrs_info(char uplo, int n, int nrhs, int lda, int ldb)
{
    if (!compat_is_uplo(uplo))
        return -1;
    return compat_solve_info(n, nrhs, lda, ldb, 2, 5, 7);
}

void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info)
{
    *info = compat_potrs_info(*uplo, *n, *nrhs, *lda, *ldb);
    if (*info != 0) {
        compat_xerbla("DPOTRS", -*info);
        return;
    }
    /* n = 0 or nrhs = 0 returns 0, a NULL A or B -4 or -6, writing nothing. */
    *info = tela_dpotrs(tela_par_auto(), *uplo, *n, *nrhs, a, *lda, b, *ldb);
}
