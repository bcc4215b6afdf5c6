/* lapack_dgels.c — dgels_, the Fortran-ABI dgels: reference DGELS's checks (TRANS 1 as 'N' or 'T'
 * only, M 2, N 3, NRHS 4, LDA 6, LDB 8 against MAX(1, M, N), LWORK 10, reported as "DGELS "),
 * its workspace query, then tela_dgels on the default width. tela_dgels takes its workspace from
 * tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info)
{
    const bool query = *lwork == -1;
    const int mn = *m < *n ? *m : *n, rows = *m > *n ? *m : *n;
    /* Reference's least LWORK, MAX(1, MN + MAX(MN, NRHS)): TAU and a row of workspace. Wider
     * than int, where no LWORK reaches it, rather than overflowing. */
    const long long sum = (long long)mn + (mn > *nrhs ? mn : *nrhs);
    const long long least = sum > 1 ? sum : 1;
    *info = 0;
    if (!compat_is_notrans(*trans) && *trans != 'T' && *trans != 't')
        *info = -1; /* no 'C', unlike the BLAS */
    else if (*m < 0)
        *info = -2;
    else if (*n < 0)
        *info = -3;
    else if (*nrhs < 0)
        *info = -4;
    else if (*lda < compat_at_least_one(*m))
        *info = -6;
    else if (*ldb < compat_at_least_one(rows))
        *info = -8;
    else if (!query && *lwork < least)
        *info = -10;
    if (*info != 0) {
        compat_xerbla("DGELS ", -*info);
        return;
    }
    /* Reference's MAX(1, MN + MAX(MN, NRHS) * NB), its NB the largest of those it asks ILAENV
     * for (DGEQRF's and DORMQR's, or DGELQF's and DORMLQ's), 32 each. */
    const double wide = (double)(mn > *nrhs ? mn : *nrhs) * COMPAT_QR_BLOCK;
    const double optimal = mn + wide > 1.0 ? mn + wide : 1.0;
    if (!work) {
        *info = -9;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* Reference writes WORK(1) on every return after the checks: the quick return for M, N or
     * NRHS = 0 (B's MAX(M, N) x NRHS block zeroed) and INFO > 0 (a zero on the triangle's
     * diagonal, no solution) too. A NULL B with NRHS > 0 gives -7, a NULL A (when used) -5,
     * writing nothing. */
    *info = tela_dgels(tela_par_auto(), *trans, *m, *n, *nrhs, a, *lda, b, *ldb);
    if (*info >= 0)
        work[0] = optimal;
}
