/* potrs.c — tela_dpotrs and tela_dposv: solves with potrf's factor, two
 * triangular solves. */
#include "chol/chol.h"
#include "gemm/level3.h"
#include "lu/lu.h"
#include "par/engine.h"

static void solve(tela_par par, bool upper, tela_int n, tela_int nrhs, const double *a,
                  tela_int lda, double *b, tela_int ldb)
{
    const char uplo = upper ? 'U' : 'L';
    /* Each triangular solve is the largest region. */
    if (!par_may_split(par, level3_tri_estimate_ns(true, true, n, nrhs)))
        par = tela_par_seq();
    /* A = U^T U: U^T Y = B, U X = Y; A = L L^T: L Y = B, L^T X = Y. */
    tela_dtrsm(par, 'L', uplo, upper ? 'T' : 'N', 'N', n, nrhs, 1.0, a, lda, b, ldb);
    tela_dtrsm(par, 'L', uplo, upper ? 'N' : 'T', 'N', n, nrhs, 1.0, a, lda, b, ldb);
}

/* The checks potrs and posv share (their argument numbers agree). */
static int check(char uplo, bool *upper, tela_int n, tela_int nrhs, tela_int lda, tela_int ldb)
{
    if (!chol_uplo(uplo, upper))
        return -1;
    return lu_solve_dims(n, nrhs, lda, ldb, 2, 5, 7);
}

int tela_dpotrs(tela_par par, char uplo, tela_int n, tela_int nrhs, const double *a, tela_int lda,
                double *b, tela_int ldb)
{
    bool upper;
    const int status = check(uplo, &upper, n, nrhs, lda, ldb);
    if (status || n == 0 || nrhs == 0)
        return status;
    if (!a)
        return -4;
    if (!b)
        return -6;
    solve(par, upper, n, nrhs, a, lda, b, ldb);
    return 0;
}

int tela_dposv(tela_par par, char uplo, tela_int n, tela_int nrhs, double *a, tela_int lda,
               double *b, tela_int ldb)
{
    bool upper;
    const int status = check(uplo, &upper, n, nrhs, lda, ldb);
    if (status || n == 0)
        return status;
    if (!a)
        return -4;
    if (nrhs > 0 && !b)
        return -6;
    const int info = tela_dpotrf(par, uplo, n, a, lda);
    if (info == 0 && nrhs > 0)
        solve(par, upper, n, nrhs, a, lda, b, ldb);
    return info;
}
