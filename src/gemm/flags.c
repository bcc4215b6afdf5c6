/* flags.c — what trsm, trmm and syrk share before their work: BLAS's
 * character arguments, the argument checks of trsm/trmm, scaling by alpha. */
#include "gemm/level3.h"

bool level3_side(char c, bool *left)
{
    *left = c == 'L' || c == 'l';
    return *left || c == 'R' || c == 'r';
}

bool level3_uplo(char c, bool *upper)
{
    *upper = c == 'U' || c == 'u';
    return *upper || c == 'L' || c == 'l';
}

bool level3_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't' || c == 'C' || c == 'c';
    return *trans || c == 'N' || c == 'n';
}

bool level3_diag(char c, bool *unit)
{
    *unit = c == 'U' || c == 'u';
    return *unit || c == 'N' || c == 'n';
}

void level3_scale(double *b, tela_int ldb, tela_int m, tela_int n, double alpha)
{
    if (alpha == 1.0)
        return;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            b[i + j * ldb] = alpha == 0.0 ? 0.0 : alpha * b[i + j * ldb];
}

int level3_triangular_args(char side, char uplo, char transa, char diag, tela_int m, tela_int n,
                           double alpha, const double *a, tela_int lda, double *b, tela_int ldb,
                           tri_view *t, bool *left)
{
    bool upper, trans, unit;
    if (!level3_side(side, left))
        return -1;
    if (!level3_uplo(uplo, &upper))
        return -2;
    if (!level3_trans(transa, &trans))
        return -3;
    if (!level3_diag(diag, &unit))
        return -4;
    if (m < 0)
        return -5;
    if (n < 0)
        return -6;
    tela_int rows_a = *left ? m : n;
    if (lda < (rows_a > 1 ? rows_a : 1))
        return -9;
    if (ldb < (m > 1 ? m : 1))
        return -11;
    if (m == 0 || n == 0)
        return 1;
    if (!b)
        return -10;
    if (alpha != 0.0 && !a)
        return -8;
    level3_scale(b, ldb, m, n, alpha);
    if (alpha == 0.0)
        return 1;
    /* op(A) is lower when A is lower and not transposed, or upper and transposed. */
    *t = (tri_view){a, lda, trans, upper == trans, unit};
    return 0;
}
