/* lapack_dposv.c — dposv_, the Fortran-ABI dposv: reference DPOSV's checks (those of DPOTRS,
 * reported as "DPOSV "), then tela_dposv on the default width (B not solved when INFO > 0). */
#include "compat/compat.h"

void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda, double *b,
            const int *ldb, int *info)
{
    *info = compat_potrs_info(*uplo, *n, *nrhs, *lda, *ldb);
    if (*info != 0) {
        compat_xerbla("DPOSV ", -*info);
        return;
    }
    /* n = 0 returns 0, a NULL A -4 and a NULL B with nrhs > 0 -6, writing nothing. */
    *info = tela_dposv(tela_par_auto(), *uplo, *n, *nrhs, a, *lda, b, *ldb);
}
