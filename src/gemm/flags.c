/* flags.c — BLAS's character arguments and the scaling the level-3
 * routines apply before their work. */
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
