/* swap.c — tela_dswap and level1_swap: x <-> y. Contiguous vectors: the chosen ISA's loop on
 * blocks, in a region when it pays; any other increments: reference DSWAP's loop. */
#include "level1/level1.h"

static void swap_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    job->loops->swap(len, job->out_x + first, job->out_y + first);
}

void level1_swap(tela_int n, double *x, double *y)
{
    if (n > 0)
        level1_loops_for(n)->swap(n, x, y);
}

void tela_dswap(tela_par par, tela_int n, double *x, tela_int incx, double *y, tela_int incy)
{
    if (n <= 0)
        return;
    if (incx != 1 || incy != 1) {
        tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
        for (tela_int i = 0; i < n; i++, ix += incx, iy += incy) {
            const double t = x[ix];
            x[ix] = y[iy];
            y[iy] = t;
        }
        return;
    }
    if (n <= LEVEL1_BLOCK) {
        level1_loops_for(n)->swap(n, x, y);
        return;
    }
    level1_job job = {
        .block = swap_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .y = y,
        .out_x = x,
        .out_y = y,
    };
    level1_run(par, "dswap", 4.0, &job);
}
