/* potrf.c — tela_dpotrf: recursive Cholesky. Factor the top-left half,
 * solve the off-diagonal block against it (trsm), update the bottom-right
 * (syrk: the bulk of the flops and of the parallelism), factor that. */
#include "chol/chol.h"
#include "gemm/level3.h"

/* Diagonal blocks at most this order are factored by block.c. */
#define CHOL_BASE 16
/* Each member of potrf's regions needs this much of the order: below it
 * the regions of the recursion (trsm, syrk) start on data the caller has
 * just written and a second member costs more than it brings
 * (docs/lu-chol.md, "Width: a member per 128 of the order"). */
#define CHOL_ORDER_PER_MEMBER 128

bool chol_uplo(char c, bool *upper)
{
    *upper = c == 'U' || c == 'u';
    return *upper || c == 'L' || c == 'l';
}

static tela_int factor(tela_par par, bool upper, tela_int n, double *a, tela_int lda)
{
    if (n <= CHOL_BASE)
        return chol_block(upper, n, a, lda);
    const tela_int n1 = level3_first_half(n), n2 = n - n1;
    double *a22 = a + n1 + n1 * lda;
    tela_int info = factor(par, upper, n1, a, lda);
    if (info)
        return info;
    if (upper) {
        double *a12 = a + n1 * lda; /* U12 = U11^-T A12; A22 -= U12^T U12 */
        tela_dtrsm(par, 'L', 'U', 'T', 'N', n1, n2, 1.0, a, lda, a12, lda);
        tela_dsyrk(par, 'U', 'T', n2, n1, -1.0, a12, lda, 1.0, a22, lda);
    } else {
        double *a21 = a + n1; /* L21 = A21 L11^-T; A22 -= L21 L21^T */
        tela_dtrsm(par, 'R', 'L', 'T', 'N', n2, n1, 1.0, a, lda, a21, lda);
        tela_dsyrk(par, 'L', 'N', n2, n1, -1.0, a21, lda, 1.0, a22, lda);
    }
    info = factor(par, upper, n2, a22, lda);
    return info ? info + n1 : 0;
}

int tela_dpotrf(tela_par par, char uplo, tela_int n, double *a, tela_int lda)
{
    bool upper;
    if (!chol_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (lda < (n > 1 ? n : 1))
        return -4;
    if (n == 0)
        return 0;
    if (!a)
        return -3;
    /* One member: the serial policy, which also skips every region's gate. */
    const tela_int members = n / CHOL_ORDER_PER_MEMBER;
    const tela_par within =
        members > 1 ? tela_par_limit(par, (int)(members < 4096 ? members : 4096)) : tela_par_seq();
    return (int)factor(within, upper, n, a, lda);
}
