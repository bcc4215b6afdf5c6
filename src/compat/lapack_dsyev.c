/* lapack_dsyev.c — dsyev_, the Fortran-ABI dsyev: reference DSYEV's checks (JOBZ 1, UPLO 2, N 3,
 * LDA 5, LWORK 8 against MAX(1, 3 N - 1), reported as "DSYEV "), its workspace query, then
 * tela_dsyev on the default width. tela_dsyev takes its workspace from tela's scratch: WORK only
 * reports sizes. */
#include "compat/compat.h"

void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info)
{
    bool vectors;
    const bool query = *lwork == -1;
    const double order = *n;
    *info = 0;
    if (!compat_is_jobz(*jobz, &vectors))
        *info = -1;
    else if (!compat_is_uplo(*uplo))
        *info = -2;
    else if (*n < 0)
        *info = -3;
    else if (*lda < compat_at_least_one(*n))
        *info = -5;
    else if (!query && compat_work_short(*lwork, order > 0.0 ? 3.0 * order - 1.0 : 1.0))
        *info = -8;
    if (*info != 0) {
        compat_xerbla("DSYEV ", -*info);
        return;
    }
    /* Reference's MAX(1, (NB + 2) N): E, TAU and DSYTRD's blocked need. */
    const double optimal = order > 0.0 ? (COMPAT_EIG_BLOCK + 2.0) * order : 1.0;
    if (!work) {
        *info = -7;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* A NULL A -4 or W -6 (N > 0), writing nothing. Reference says 2 after its N = 1 shortcut,
     * the optimal size on every other return, INFO > 0 (no convergence) included. */
    *info = tela_dsyev(tela_par_auto(), *jobz, *uplo, *n, a, *lda, w);
    if (*info >= 0)
        work[0] = *n == 1 ? 2.0 : optimal;
}
