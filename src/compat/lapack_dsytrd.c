/* lapack_dsytrd.c — dsytrd_, the Fortran-ABI dsytrd: reference DSYTRD's checks (UPLO 1, N 2,
 * LDA 4, LWORK 9 at least 1, reported as "DSYTRD"), its workspace query, then tela_dsytrd on the
 * default width. tela_dsytrd takes its workspace from tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dsytrd_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e,
             double *tau, double *work, const int *lwork, int *info)
{
    const bool query = *lwork == -1;
    *info = 0;
    if (!compat_is_uplo(*uplo))
        *info = -1;
    else if (*n < 0)
        *info = -2;
    else if (*lda < compat_at_least_one(*n))
        *info = -4;
    else if (!query && *lwork < 1)
        *info = -9;
    if (*info != 0) {
        compat_xerbla("DSYTRD", -*info);
        return;
    }
    /* Reference's N NB, the blocked reduction's panel (DLATRD's W); 1, the least LWORK, where
     * 3.11 says 0 for N = 0. */
    const double optimal = *n > 0 ? (double)*n * COMPAT_EIG_BLOCK : 1.0;
    if (!work) {
        *info = -8;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* N = 0 returns 0 (reference then says 1: so does optimal); a NULL A -3, D -5, E -6 or TAU
     * -7 writes nothing. */
    *info = tela_dsytrd(tela_par_auto(), *uplo, *n, a, *lda, d, e, tau);
    if (*info == 0)
        work[0] = optimal;
}
