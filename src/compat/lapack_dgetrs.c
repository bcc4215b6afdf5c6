/* lapack_dgetrs.c — dgetrs_, the Fortran-ABI dgetrs: reference DGETRS's checks (TRANS 1, N 2,
 * NRHS 3, LDA 5, LDB 8, reported as "DGETRS"), then tela_dgetrs on the default width with the
 * pivots converted; without a pivot buffer, DGETRS's own steps on the int pivots. */
#include "compat/compat.h"

void compat_getrs_unbuffered(tela_par par, char trans, int n, int nrhs, const double *a, int lda,
                             const int *ipiv, double *b, int ldb)
{
    if (compat_is_notrans(trans)) {
        compat_laswp(par, nrhs, b, ldb, 1, n, ipiv, 1);
        tela_dtrsm(par, 'L', 'L', 'N', 'U', n, nrhs, 1.0, a, lda, b, ldb);
        tela_dtrsm(par, 'L', 'U', 'N', 'N', n, nrhs, 1.0, a, lda, b, ldb);
    } else {
        tela_dtrsm(par, 'L', 'U', 'T', 'N', n, nrhs, 1.0, a, lda, b, ldb);
        tela_dtrsm(par, 'L', 'L', 'T', 'U', n, nrhs, 1.0, a, lda, b, ldb);
        compat_laswp(par, nrhs, b, ldb, 1, n, ipiv, -1);
    }
}

void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info)
{
    *info = !compat_is_trans(*trans) ? -1 : compat_solve_info(*n, *nrhs, *lda, *ldb, 2, 5, 8);
    if (*info != 0) {
        compat_xerbla("DGETRS", -*info);
        return;
    }
    if (*n == 0 || *nrhs == 0)
        return;
    if (!a || !ipiv || !b) {
        *info = !a ? -4 : !ipiv ? -6 : -7;
        return;
    }
    const tela_par par = tela_par_auto();
    compat_pivots pivots;
    tela_int *p = compat_pivots_get(&pivots, (size_t)*n);
    if (!p) {
        compat_getrs_unbuffered(par, *trans, *n, *nrhs, a, *lda, ipiv, b, *ldb);
        return;
    }
    for (int i = 0; i < *n; i++)
        p[i] = ipiv[i];
    *info = tela_dgetrs(par, *trans, *n, *nrhs, a, *lda, p, b, *ldb);
    compat_pivots_release(&pivots);
}
