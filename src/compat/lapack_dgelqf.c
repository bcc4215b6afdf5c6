/* lapack_dgelqf.c — dgelqf_, the Fortran-ABI dgelqf: reference DGELQF's checks (M 1, N 2, LDA 4,
 * LWORK 7, reported as "DGELQF"), its workspace query, then tela_dgelqf on the default width.
 * tela_dgelqf takes its workspace from tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dgelqf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
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
    else if (!query && *lwork < compat_at_least_one(*m))
        *info = -7; /* 3.11: MAX(1, M) even when N = 0 (3.12 lets N = 0 through) */
    if (*info != 0) {
        compat_xerbla("DGELQF", -*info);
        return;
    }
    /* Reference 3.11's M*NB with M taken as at least 1 (its query says 0 for M = 0, under its
     * own minimum). */
    const bool empty = *m == 0 || *n == 0;
    const double optimal = compat_at_least_one(*m) * (double)COMPAT_QR_BLOCK;
    if (!work) {
        *info = -6;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* An empty A returns 0, a NULL A -3 and a NULL TAU -5, writing nothing. */
    *info = tela_dgelqf(tela_par_auto(), *m, *n, a, *lda, tau);
    if (*info == 0)
        work[0] = empty ? 1.0 : optimal;
}
