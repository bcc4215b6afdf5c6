/* block.c — the unblocked Cholesky of a small diagonal block (LAPACK's
 * dpotf2), the base of potrf's recursion. */
#include "chol/chol.h"

#include <math.h>

tela_int chol_block(bool upper, tela_int n, double *a, tela_int lda)
{
    /* Both triangles as one: element (i, j) of the factor's row-major view
     * (U(j, i) upper, L(i, j) lower) sits at a[i * s_row + j * s_col]. */
    const tela_int s_row = upper ? lda : 1, s_col = upper ? 1 : lda;
    for (tela_int j = 0; j < n; j++) {
        double *rj = a + j * s_row; /* row j of L (column j of U) */
        double d = rj[j * s_col];
        for (tela_int k = 0; k < j; k++)
            d -= rj[k * s_col] * rj[k * s_col];
        if (!(d > 0.0)) { /* also a NaN */
            rj[j * s_col] = d;
            return j + 1;
        }
        d = sqrt(d);
        rj[j * s_col] = d;
        const double r = 1.0 / d;
        for (tela_int i = j + 1; i < n; i++) {
            double *ri = a + i * s_row;
            double v = ri[j * s_col];
            for (tela_int k = 0; k < j; k++)
                v -= ri[k * s_col] * rj[k * s_col];
            ri[j * s_col] = v * r;
        }
    }
    return 0;
}
