/* lapack_dormqr.c — dormqr_ and dormlq_, the Fortran-ABI dormqr and dormlq: reference's checks
 * (SIDE 1, TRANS 2 as 'N' or 'T' only, M 3, N 4, K 5, LDA 7 — against Q's order for dormqr, K for
 * dormlq, whose A holds its reflectors in rows —, LDC 10, LWORK 12, reported as "DORMQR" or
 * "DORMLQ"), their workspace query, then tela_dormqr or tela_dormlq on the default width. Those
 * take their workspace from tela's scratch: WORK only reports sizes. */
#include "compat/compat.h"

static void multiply_q(bool lq, const char *side, const char *trans, const int *m, const int *n,
                       const int *k, const double *a, const int *lda, const double *tau, double *c,
                       const int *ldc, double *work, const int *lwork, int *info)
{
    /* Q's order NQ and the least LWORK NW: reference takes the right side's for any SIDE that is
     * not 'L', a bad one included (reported first anyway). */
    const bool left = *side == 'L' || *side == 'l', query = *lwork == -1;
    const int nq = left ? *m : *n, nw = compat_at_least_one(left ? *n : *m);
    *info = 0;
    if (!compat_is_side(*side))
        *info = -1;
    else if (!compat_is_notrans(*trans) && *trans != 'T' && *trans != 't')
        *info = -2; /* no 'C', unlike the BLAS */
    else if (*m < 0)
        *info = -3;
    else if (*n < 0)
        *info = -4;
    else if (*k < 0 || *k > nq)
        *info = -5;
    else if (*lda < compat_at_least_one(lq ? *k : nq))
        *info = -7;
    else if (*ldc < compat_at_least_one(*m))
        *info = -10;
    else if (!query && *lwork < nw)
        *info = -12;
    if (*info != 0) {
        compat_xerbla(lq ? "DORMLQ" : "DORMQR", -*info);
        return;
    }
    const double optimal = (double)nw * COMPAT_QR_BLOCK + COMPAT_QR_T_ROOM;
    if (!work) {
        *info = -11;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* M, N or K = 0 returns 0; a NULL A -6, TAU -8, C -9, writing nothing. */
    *info = lq ? tela_dormlq(tela_par_auto(), *side, *trans, *m, *n, *k, a, *lda, tau, c, *ldc)
               : tela_dormqr(tela_par_auto(), *side, *trans, *m, *n, *k, a, *lda, tau, c, *ldc);
    if (*info == 0)
        work[0] = *m == 0 || *n == 0 || *k == 0 ? 1.0 : optimal;
}

void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info)
{
    multiply_q(false, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info);
}

void dormlq_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info)
{
    multiply_q(true, side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info);
}
