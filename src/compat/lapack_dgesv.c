/* lapack_dgesv.c — dgesv_, the Fortran-ABI dgesv: reference DGESV's checks (N 1, NRHS 2, LDA 4,
 * LDB 7, reported as "DGESV "), then tela_dgesv on the default width, its pivots converted to
 * int; without a pivot buffer, DGESV's two steps through the unbuffered dgetrf_ and dgetrs_. */
#include "compat/compat.h"

void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info)
{
    *info = compat_solve_info(*n, *nrhs, *lda, *ldb, 1, 4, 7);
    if (*info != 0) {
        compat_xerbla("DGESV ", -*info);
        return;
    }
    if (*n == 0)
        return;
    if (!a || !ipiv || (*nrhs > 0 && !b)) {
        *info = !a ? -3 : !ipiv ? -5 : -6;
        return;
    }
    const tela_par par = tela_par_auto();
    compat_pivots pivots;
    tela_int *p = compat_pivots_get(&pivots, (size_t)*n);
    if (!p) {
        *info = compat_getrf_unbuffered(par, *n, *n, a, *lda, ipiv);
        if (*info == 0 && *nrhs > 0)
            compat_getrs_unbuffered(par, 'N', *n, *nrhs, a, *lda, ipiv, b, *ldb);
        return;
    }
    *info = tela_dgesv(par, *n, *nrhs, a, *lda, p, b, *ldb);
    if (*info >= 0)
        for (int i = 0; i < *n; i++)
            ipiv[i] = (int)p[i];
    compat_pivots_release(&pivots);
}
