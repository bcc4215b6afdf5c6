/* lapack_dorgqr.c — dorgqr_ and dorglq_, the Fortran-ABI dorgqr and dorglq: reference's checks
 * (M 1, N 2, K 3, LDA 5, LWORK 8, reported as "DORGQR" or "DORGLQ"), their workspace query, then
 * tela_dorgqr or tela_dorglq on the default width. Those take their workspace from tela's
 * scratch: WORK only reports sizes. The LQ side is the QR side with M and N's parts swapped. */
#include "compat/compat.h"

static void generate_q(bool lq, const int *m, const int *n, const int *k, double *a, const int *lda,
                       const double *tau, double *work, const int *lwork, int *info)
{
    /* Q's length and count of orthonormal vectors: its rows and columns (QR), or columns and
     * rows (LQ). */
    const int length = lq ? *n : *m, count = lq ? *m : *n;
    const bool query = *lwork == -1;
    *info = 0;
    if (*m < 0)
        *info = -1;
    else if (*n < 0 || count > length)
        *info = -2;
    else if (*k < 0 || *k > count)
        *info = -3;
    else if (*lda < compat_at_least_one(*m))
        *info = -5;
    else if (!query && *lwork < compat_at_least_one(count))
        *info = -8;
    if (*info != 0) {
        compat_xerbla(lq ? "DORGLQ" : "DORGQR", -*info);
        return;
    }
    const double optimal = compat_at_least_one(count) * (double)COMPAT_QR_BLOCK;
    if (!work) {
        *info = -7;
        return;
    }
    if (query) {
        work[0] = optimal;
        return;
    }
    /* No vectors (count 0) returns 0, a NULL A -4 and a NULL TAU with K > 0 -6, writing
     * nothing. */
    *info = lq ? tela_dorglq(tela_par_auto(), *m, *n, *k, a, *lda, tau)
               : tela_dorgqr(tela_par_auto(), *m, *n, *k, a, *lda, tau);
    if (*info == 0)
        work[0] = count == 0 ? 1.0 : optimal;
}

void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info)
{
    generate_q(false, m, n, k, a, lda, tau, work, lwork, info);
}

void dorglq_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info)
{
    generate_q(true, m, n, k, a, lda, tau, work, lwork, info);
}
