/* lapack_dormtr.c — dormtr_ and dorgtr_, the Fortran-ABI dormtr and dorgtr: reference's checks
 * (DORMTR: SIDE 1, UPLO 2, TRANS 3 as 'N' or 'T' only, M 4, N 5, LDA 7 against Q's order, LDC 10,
 * LWORK 12; DORGTR: UPLO 1, N 2, LDA 4, LWORK 7; reported as "DORMTR", "DORGTR"), their workspace
 * queries, then tela_dormtr or tela_dorgtr on the default width. Those take their workspace from
 * tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

void dormtr_(const char *side, const char *uplo, const char *trans, const int *m, const int *n,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info)
{
    /* Q's order NQ and the least LWORK NW: reference takes the right side's for any SIDE that is
     * not 'L', a bad one included (reported first anyway). */
    const bool left = *side == 'L' || *side == 'l', query = *lwork == -1;
    const int nq = left ? *m : *n, nw = compat_at_least_one(left ? *n : *m);
    *info = 0;
    if (!compat_is_side(*side))
        *info = -1;
    else if (!compat_is_uplo(*uplo))
        *info = -2;
    else if (!compat_is_notrans(*trans) && *trans != 'T' && *trans != 't')
        *info = -3; /* no 'C', unlike the BLAS */
    else if (*m < 0)
        *info = -4;
    else if (*n < 0)
        *info = -5;
    else if (*lda < compat_at_least_one(nq))
        *info = -7;
    else if (*ldc < compat_at_least_one(*m))
        *info = -10;
    else if (!query && *lwork < nw)
        *info = -12;
    if (*info != 0) {
        compat_xerbla("DORMTR", -*info);
        return;
    }
    /* Reference's NW NB (DORMQL's or DORMQR's block size, its T not counted). */
    const double optimal = (double)nw * COMPAT_EIG_BLOCK;
    if (!work) {
        *info = -11;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* M or N = 0 returns 0; a NULL A -6, TAU -8 or C -9 (when read) writes nothing. Reference
     * says 1 after its quick return (Q of order 1 is I too). */
    *info = tela_dormtr(tela_par_auto(), *side, *uplo, *trans, *m, *n, a, *lda, tau, c, *ldc);
    if (*info == 0)
        work[0] = *m == 0 || *n == 0 || nq == 1 ? 1.0 : optimal;
}

void dorgtr_(const char *uplo, const int *n, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info)
{
    const bool query = *lwork == -1;
    const int reflectors = compat_at_least_one(*n - 1);
    *info = 0;
    if (!compat_is_uplo(*uplo))
        *info = -1;
    else if (*n < 0)
        *info = -2;
    else if (*lda < compat_at_least_one(*n))
        *info = -4;
    else if (!query && *lwork < reflectors)
        *info = -7;
    if (*info != 0) {
        compat_xerbla("DORGTR", -*info);
        return;
    }
    /* Reference's MAX(1, N - 1) NB (DORGQL's or DORGQR's block size). */
    const double optimal = (double)reflectors * COMPAT_EIG_BLOCK;
    if (!work) {
        *info = -6;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* N = 0 returns 0 (reference then says 1); a NULL A -3 or TAU -5 writes nothing. */
    *info = tela_dorgtr(tela_par_auto(), *uplo, *n, a, *lda, tau);
    if (*info == 0)
        work[0] = *n == 0 ? 1.0 : optimal;
}
