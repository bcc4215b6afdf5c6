/* lapack_dgeqrf.c — dgeqrf_, the Fortran-ABI dgeqrf: reference DGEQRF's checks (M 1, N 2, LDA 4,
 * LWORK 7, reported as "DGEQRF"), its workspace query, then tela_dgeqrf on the default width.
 * tela_dgeqrf takes its workspace from tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info)
{
    const bool query = *lwork == -1;
    *info = 0;
    if (*m < 0)
        *info = -1;
    else if (*n < 0)
        *info = -2;
    else if (*lda < compat_at_least_one(*m))
        *info = -4;
    else if (!query && (*lwork <= 0 || (*m > 0 && *lwork < compat_at_least_one(*n))))
        *info = -7; /* LWORK >= 1 even when M = 0 */
    if (*info != 0) {
        compat_xerbla("DGEQRF", -*info);
        return;
    }
    const bool empty = *m == 0 || *n == 0;
    const double optimal = empty ? 1.0 : (double)*n * COMPAT_QR_BLOCK;
    if (!work) {
        *info = -6;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* An empty A returns 0, a NULL A -3 and a NULL TAU -5, writing nothing. */
    *info = tela_dgeqrf(tela_par_auto(), *m, *n, a, *lda, tau);
    if (*info == 0)
        work[0] = optimal;
}
