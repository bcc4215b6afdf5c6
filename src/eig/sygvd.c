/* sygvd.c — tela_dsygvd and tela_dsygst: the generalized symmetric-definite problem as LAPACK's
 * dsygvd: B = U^T U or L L^T (tela_dpotrf), the standard problem C = inv(U^T) A inv(U) (or
 * U A U^T) by two triangular products on the whole symmetric matrix, tela_dsyevd on C, and the
 * vectors taken back by one more. */
#include "eig/eig.h"
#include "par/engine.h"

#define AT(a, lda, i, j) ((a)[(i) + (size_t)(j) * (size_t)(lda)])

/* C = inv(U^T) A inv(U) or inv(L) A inv(L^T) (itype 1), U A U^T or L^T A L (2 and 3) on the
 * full symmetric matrix s (n x n): two level-3 triangular calls, 2n^3 flops at tela_dtrsm's and
 * tela_dtrmm's rate, where dsygst's blocked form takes n^3 at a lower one. */
static void congruence(tela_par par, tela_int itype, bool lower, tela_int n, double *s,
                       const double *b, tela_int ldb)
{
    const char uplo = lower ? 'L' : 'U';
    if (itype == 1) {
        tela_dtrsm(par, 'L', uplo, lower ? 'N' : 'T', 'N', n, n, 1.0, b, ldb, s, n);
        tela_dtrsm(par, 'R', uplo, lower ? 'T' : 'N', 'N', n, n, 1.0, b, ldb, s, n);
    } else {
        tela_dtrmm(par, 'L', uplo, lower ? 'T' : 'N', 'N', n, n, 1.0, b, ldb, s, n);
        tela_dtrmm(par, 'R', uplo, lower ? 'N' : 'T', 'N', n, n, 1.0, b, ldb, s, n);
    }
}

static bool sygst(tela_par par, tela_int itype, bool lower, tela_int n, double *a, tela_int lda,
                  const double *b, tela_int ldb)
{
    bool owned;
    double *s = eig_scratch(par, (size_t)n * (size_t)n, &owned);
    if (!s)
        return false;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            AT(s, n, i, j) = (i >= j) == lower ? AT(a, lda, i, j) : AT(a, lda, j, i);
    congruence(par, itype, lower, n, s, b, ldb);
    for (tela_int j = 0; j < n; j++) {
        const tela_int from = lower ? j : 0, to = lower ? n : j + 1;
        for (tela_int i = from; i < to; i++)
            AT(a, lda, i, j) = AT(s, n, i, j);
    }
    par_scratch_release(s, owned);
    return true;
}

int tela_dsygst(tela_par par, tela_int itype, char uplo, tela_int n, double *a, tela_int lda,
                const double *b, tela_int ldb)
{
    bool lower;
    if (itype < 1 || itype > 3)
        return -1;
    if (!eig_uplo(uplo, &lower))
        return -2;
    if (n < 0)
        return -3;
    if (lda < (n > 1 ? n : 1))
        return -5;
    if (ldb < (n > 1 ? n : 1))
        return -7;
    if (n == 0)
        return 0;
    if (!a)
        return -4;
    if (!b)
        return -6;
    if (!sygst(par, itype, lower, n, a, lda, b, ldb))
        return eig_no_memory("tela_dsygst");
    return 0;
}

int tela_dsygvd(tela_par par, tela_int itype, char jobz, char uplo, tela_int n, double *a,
                tela_int lda, double *b, tela_int ldb, double *w)
{
    bool vectors, lower;
    if (itype < 1 || itype > 3)
        return -1;
    if (!eig_jobz(jobz, &vectors))
        return -2;
    if (!eig_uplo(uplo, &lower))
        return -3;
    if (n < 0)
        return -4;
    if (lda < (n > 1 ? n : 1))
        return -6;
    if (ldb < (n > 1 ? n : 1))
        return -8;
    if (n == 0)
        return 0;
    if (!a)
        return -5;
    if (!b)
        return -7;
    if (!w)
        return -9;
    const char ul = lower ? 'L' : 'U';
    int info = tela_dpotrf(par, ul, n, b, ldb);
    if (info > 0)
        return (int)n + info;
    if (!sygst(par, itype, lower, n, a, lda, b, ldb))
        return eig_no_memory("tela_dsygvd");
    info = tela_dsyevd(par, jobz, ul, n, a, lda, w);
    if (!vectors || info != 0)
        return info;
    /* x = inv(U) y or inv(L^T) y (itype 1, 2); U^T y or L y (3). */
    if (itype < 3)
        tela_dtrsm(par, 'L', ul, lower ? 'T' : 'N', 'N', n, n, 1.0, b, ldb, a, lda);
    else
        tela_dtrmm(par, 'L', ul, lower ? 'N' : 'T', 'N', n, n, 1.0, b, ldb, a, lda);
    return 0;
}
