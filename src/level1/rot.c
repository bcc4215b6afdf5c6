/* rot.c — tela_drot and level1_rot: the plane rotation (x_i, y_i) = (c x_i + s y_i,
 * c y_i - s x_i). Contiguous vectors: the chosen ISA's loop on blocks, in a region when it pays;
 * any other increments: reference DROT's loop. */
#include "level1/level1.h"

static void rot_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    job->loops->rot(len, job->out_x + first, job->out_y + first, job->alpha, job->beta);
}

void level1_rot(tela_int n, double *x, double *y, double c, double s)
{
    if (n > 0)
        level1_loops_for(n)->rot(n, x, y, c, s);
}

void tela_drot(tela_par par, tela_int n, double *x, tela_int incx, double *y, tela_int incy,
               double c, double s)
{
    if (n <= 0)
        return;
    if (incx != 1 || incy != 1) {
        tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
        for (tela_int i = 0; i < n; i++, ix += incx, iy += incy) {
            const double t = c * x[ix] + s * y[iy];
            y[iy] = c * y[iy] - s * x[ix];
            x[ix] = t;
        }
        return;
    }
    if (n <= LEVEL1_BLOCK) {
        level1_loops_for(n)->rot(n, x, y, c, s);
        return;
    }
    level1_job job = {
        .block = rot_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .y = y,
        .out_x = x,
        .out_y = y,
        .alpha = c,
        .beta = s,
    };
    level1_run(par, "drot", 4.0, &job);
}
