/* copy.c — tela_dcopy and level1_copy: y = x. Contiguous vectors: the C library's copy (the
 * fastest there is for every size, streaming stores included) on blocks, in a region when it
 * pays; any other increments (0 and negative too): reference DCOPY's loop. */
#include "level1/level1.h"

#include <string.h>

static void copy_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    memmove(job->out_y + first, job->x + first, sizeof(double) * (size_t)len);
}

void level1_copy(tela_int n, const double *x, double *y)
{
    if (n > 0)
        memmove(y, x, sizeof(double) * (size_t)n);
}

void tela_dcopy(tela_par par, tela_int n, const double *x, tela_int incx, double *y, tela_int incy)
{
    if (n <= 0)
        return;
    if (incx != 1 || incy != 1) {
        tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
        for (tela_int i = 0; i < n; i++, ix += incx, iy += incy)
            y[iy] = x[ix];
        return;
    }
    if (n <= LEVEL1_BLOCK) {
        level1_copy(n, x, y);
        return;
    }
    level1_job job = {
        .block = copy_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .out_y = y,
    };
    level1_run(par, "dcopy", 2.0, &job);
}
