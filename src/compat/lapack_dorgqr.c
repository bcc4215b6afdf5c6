/* lapack_dorgqr.c — dorgqr_, the Fortran-ABI dorgqr: reference DORGQR's checks (M 1, N 2, K 3,
 * LDA 5, LWORK 8, reported as "DORGQR"), its workspace query, then tela_dorgqr on the default
 * width. tela_dorgqr takes its workspace from tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info)
{
    const bool query = *lwork == -1;
    *info = 0;
    if (*m < 0)
        *info = -1;
    else if (*n < 0 || *n > *m)
        *info = -2;
    else if (*k < 0 || *k > *n)
        *info = -3;
    else if (*lda < compat_at_least_one(*m))
        *info = -5;
    else if (!query && *lwork < compat_at_least_one(*n))
        *info = -8;
    if (*info != 0) {
        compat_xerbla("DORGQR", -*info);
        return;
    }
    const double optimal = compat_at_least_one(*n) * (double)COMPAT_QR_BLOCK;
    if (!work) {
        *info = -7;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* N = 0 returns 0, a NULL A -4 and a NULL TAU with K > 0 -6, writing nothing. */
    *info = tela_dorgqr(tela_par_auto(), *m, *n, *k, a, *lda, tau);
    if (*info == 0)
        work[0] = *n == 0 ? 1.0 : optimal;
}
