/* panel.c — the unblocked LU of a narrow panel (LAPACK's dgetf2), the base
 * of getrf's recursion: pivot search, row swap, scaling and the rank-1
 * update, one column at a time, as LAPACK orders them. */
#include "lu/lu.h"

#include <float.h>
#include <math.h>

/* The first index of the largest |x[i]| (LAPACK's idamax: a NaN is never
 * larger, so it is only chosen when nothing else is). */
static tela_int index_of_max(tela_int count, const double *x)
{
    tela_int best = 0;
    double best_abs = fabs(x[0]);
    for (tela_int i = 1; i < count; i++) {
        const double v = fabs(x[i]);
        if (v > best_abs) {
            best_abs = v;
            best = i;
        }
    }
    return best;
}

tela_int lu_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, tela_int *ipiv)
{
    (void)par; /* narrow panels are cheaper serial than any dispatch here */
    const tela_int mn = m < n ? m : n;
    tela_int info = 0;
    for (tela_int j = 0; j < mn; j++) {
        double *col = a + j * lda;
        const tela_int p = j + index_of_max(m - j, col + j);
        ipiv[j] = p + 1;
        const double pivot = col[p];
        if (pivot != 0.0) {
            if (p != j)
                for (tela_int c = 0; c < n; c++) {
                    const double t = a[j + c * lda];
                    a[j + c * lda] = a[p + c * lda];
                    a[p + c * lda] = t;
                }
            /* LAPACK scales by the reciprocal unless it would overflow. */
            if (fabs(pivot) >= DBL_MIN) {
                const double r = 1.0 / pivot;
                for (tela_int i = j + 1; i < m; i++)
                    col[i] *= r;
            } else {
                for (tela_int i = j + 1; i < m; i++)
                    col[i] /= pivot;
            }
        } else if (info == 0) {
            info = j + 1;
        }
        /* The rank-1 update of what is right of and below the pivot. */
        for (tela_int c = j + 1; c < n; c++) {
            double *cc = a + c * lda;
            const double u = cc[j];
            if (u == 0.0)
                continue;
            for (tela_int i = j + 1; i < m; i++)
                cc[i] -= col[i] * u;
        }
    }
    return info;
}
