/* getrs.c — tela_dgetrs and tela_dgesv: solves with getrf's factors, the
 * row interchanges then two triangular solves (or the reverse for A^T). */
#include "gemm/level3.h"
#include "lu/lu.h"
#include "par/engine.h"

bool lu_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't' || c == 'C' || c == 'c';
    return *trans || c == 'N' || c == 'n';
}

int lu_solve_dims(tela_int n, tela_int nrhs, tela_int lda, tela_int ldb, int n_arg, int lda_arg,
                  int ldb_arg)
{
    if (n < 0)
        return -n_arg;
    if (nrhs < 0)
        return -(n_arg + 1);
    if (lda < (n > 1 ? n : 1))
        return -lda_arg;
    if (ldb < (n > 1 ? n : 1))
        return -ldb_arg;
    return 0;
}

static void solve(tela_par par, bool trans, tela_int n, tela_int nrhs, const double *a,
                  tela_int lda, const tela_int *ipiv, double *b, tela_int ldb)
{
    /* Each triangular solve is the largest region. */
    if (!par_may_split(par, level3_tri_estimate_ns(true, true, n, nrhs)))
        par = tela_par_seq();
    if (!trans) {
        lu_swap_rows(par, nrhs, b, ldb, 0, n, ipiv);
        tela_dtrsm(par, 'L', 'L', 'N', 'U', n, nrhs, 1.0, a, lda, b, ldb);
        tela_dtrsm(par, 'L', 'U', 'N', 'N', n, nrhs, 1.0, a, lda, b, ldb);
    } else {
        tela_dtrsm(par, 'L', 'U', 'T', 'N', n, nrhs, 1.0, a, lda, b, ldb);
        tela_dtrsm(par, 'L', 'L', 'T', 'U', n, nrhs, 1.0, a, lda, b, ldb);
        tela_dlaswp(par, nrhs, b, ldb, 1, n, ipiv, -1);
    }
}

int tela_dgetrs(tela_par par, char trans, tela_int n, tela_int nrhs, const double *a, tela_int lda,
                const tela_int *ipiv, double *b, tela_int ldb)
{
    bool t;
    if (!lu_trans(trans, &t))
        return -1;
    const int status = lu_solve_dims(n, nrhs, lda, ldb, 2, 5, 8);
    if (status || n == 0 || nrhs == 0)
        return status;
    if (!a)
        return -4;
    if (!ipiv)
        return -6;
    if (!b)
        return -7;
    solve(par, t, n, nrhs, a, lda, ipiv, b, ldb);
    return 0;
}

int tela_dgesv(tela_par par, tela_int n, tela_int nrhs, double *a, tela_int lda, tela_int *ipiv,
               double *b, tela_int ldb)
{
    const int status = lu_solve_dims(n, nrhs, lda, ldb, 1, 4, 7);
    if (status || n == 0)
        return status;
    if (!a)
        return -3;
    if (!ipiv)
        return -5;
    if (nrhs > 0 && !b)
        return -6;
    const int info = tela_dgetrf(par, n, n, a, lda, ipiv);
    if (info == 0 && nrhs > 0)
        solve(par, false, n, nrhs, a, lda, ipiv, b, ldb);
    return info;
}
