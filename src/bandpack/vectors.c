/* vectors.c — what every band and packed routine shares about its arguments: reference LSAME on
 * the flag characters, and reference's scaling of y by beta (zeros stored for beta = 0, so a NaN
 * in y does not survive; nothing touched for beta = 1). */
#include "bandpack/bandpack.h"

bool bp_uplo(char c, bool *upper)
{
    *upper = c == 'U' || c == 'u';
    return *upper || c == 'L' || c == 'l';
}

bool bp_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't' || c == 'C' || c == 'c';
    return *trans || c == 'N' || c == 'n';
}

bool bp_diag(char c, bool *unit)
{
    *unit = c == 'U' || c == 'u';
    return *unit || c == 'N' || c == 'n';
}

void bp_scale(tela_int n, double beta, double *y, tela_int incy)
{
    if (beta == 1.0)
        return;
    if (incy == 1) {
        if (beta == 0.0)
            for (tela_int i = 0; i < n; i++)
                y[i] = 0.0;
        else
            for (tela_int i = 0; i < n; i++)
                y[i] *= beta;
    } else {
        if (beta == 0.0)
            for (tela_int i = 0; i < n; i++)
                y[i * incy] = 0.0;
        else
            for (tela_int i = 0; i < n; i++)
                y[i * incy] *= beta;
    }
}
