/* lapack_dpotrf.c — dpotrf_, the Fortran-ABI dpotrf: reference DPOTRF's checks (UPLO 1, N 2,
 * LDA 4, reported as "DPOTRF"), then tela_dpotrf on the default width. INFO = i > 0: the
 * leading minor of order i is not positive definite, as reference. */
#include "compat/compat.h"

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info)
{
    *info = 0;
    if (!compat_is_uplo(*uplo))
        *info = -1;
    else if (*n < 0)
        *info = -2;
    else if (*lda < compat_at_least_one(*n))
        *info = -4;
    if (*info != 0) {
        compat_xerbla("DPOTRF", -*info);
        return;
    }
    /* n = 0 returns 0 and a NULL A -3 there, writing nothing. */
    *info = tela_dpotrf(tela_par_auto(), *uplo, *n, a, *lda);
}
