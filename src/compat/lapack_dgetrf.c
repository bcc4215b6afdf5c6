/* lapack_dgetrf.c — dgetrf_, the Fortran-ABI dgetrf: reference DGETRF's checks (M 1, N 2,
 * LDA 4, reported as "DGETRF"), then tela_dgetrf on the default width, its pivots converted
 * to int. Without a pivot buffer (inside a region, see compat.h) LAPACK's blocked LU instead. */
#include "compat/compat.h"

static int least(int x, int y)
{
    return x < y ? x : y;
}

int compat_getrf_unbuffered(tela_par par, int m, int n, double *a, int lda, int *ipiv)
{
    tela_int panel_pivots[COMPAT_PIVOTS_STACK];
    const int mn = least(m, n);
    int info = 0;
    for (int j = 0; j < mn; j += COMPAT_PIVOTS_STACK) {
        const int jb = least(COMPAT_PIVOTS_STACK, mn - j), right = n - j - jb;
        double *ajj = a + j + (tela_int)j * lda, *a12 = ajj + (tela_int)jb * lda;
        /* The panel's pivots are 1-based from row j, so its interchanges apply to the rows from
         * j of the columns left and right of it as they stand. */
        const int panel_info = tela_dgetrf(par, m - j, jb, ajj, lda, panel_pivots);
        if (info == 0 && panel_info > 0)
            info = panel_info + j;
        for (int i = 0; i < jb; i++)
            ipiv[j + i] = (int)panel_pivots[i] + j;
        tela_dlaswp(par, j, a + j, lda, 1, jb, panel_pivots, 1);
        if (right > 0) {
            tela_dlaswp(par, right, a12, lda, 1, jb, panel_pivots, 1);
            tela_dtrsm(par, 'L', 'L', 'N', 'U', jb, right, 1.0, ajj, lda, a12, lda);
            if (m - j - jb > 0)
                tela_dgemm(par, 'N', 'N', m - j - jb, right, jb, -1.0, ajj + jb, lda, a12, lda, 1.0,
                           a12 + jb, lda);
        }
    }
    return info;
}

void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info)
{
    *info = 0;
    if (*m < 0)
        *info = -1;
    else if (*n < 0)
        *info = -2;
    else if (*lda < compat_at_least_one(*m))
        *info = -4;
    if (*info != 0) {
        compat_xerbla("DGETRF", -*info);
        return;
    }
    if (*m == 0 || *n == 0)
        return;
    if (!a || !ipiv) {
        *info = !a ? -3 : -5;
        return;
    }
    const tela_par par = tela_par_auto();
    const int mn = least(*m, *n);
    compat_pivots pivots;
    tela_int *p = compat_pivots_get(&pivots, (size_t)mn);
    if (!p) {
        *info = compat_getrf_unbuffered(par, *m, *n, a, *lda, ipiv);
        return;
    }
    *info = tela_dgetrf(par, *m, *n, a, *lda, p);
    if (*info >= 0)
        for (int i = 0; i < mn; i++)
            ipiv[i] = (int)p[i];
    compat_pivots_release(&pivots);
}
