/* vectors.c — what the level-2 routines do to whole vectors outside the kernels: strided copies
 * in and out of contiguous buffers, reference's first step y = beta y, and where a member's
 * share of a triangle's columns ends. */
#include "level2/level2.h"

#include <math.h>

void level2_gather(tela_int n, const double *x, tela_int inc, double *out)
{
    for (tela_int i = 0; i < n; i++)
        out[i] = x[i * inc];
}

void level2_scatter(tela_int n, const double *in, double *x, tela_int inc)
{
    for (tela_int i = 0; i < n; i++)
        x[i * inc] = in[i];
}

void level2_scale(tela_int n, double beta, double *y, tela_int inc)
{
    if (beta == 1.0)
        return;
    if (beta == 0.0) {
        for (tela_int i = 0; i < n; i++)
            y[i * inc] = 0.0;
    } else {
        for (tela_int i = 0; i < n; i++)
            y[i * inc] *= beta;
    }
}

tela_int level2_triangle_cut(tela_int n, bool upper, double f)
{
    if (f <= 0.0)
        return 0;
    if (f >= 1.0)
        return n;
    /* Columns 0 .. c - 1 of the upper triangle hold about c^2 / 2 elements, of the lower one
     * n^2 / 2 - (n - c)^2 / 2. */
    const double c = upper ? (double)n * sqrt(f) : (double)n * (1.0 - sqrt(1.0 - f));
    const tela_int cut = (tela_int)(c + 0.5);
    return cut < 0 ? 0 : cut > n ? n : cut;
}
