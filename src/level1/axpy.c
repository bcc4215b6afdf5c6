/* axpy.c — tela_daxpy and level1_axpy: y += alpha x. Contiguous vectors: the chosen ISA's loop
 * on blocks, in a region when it pays; any other increments: reference DAXPY's loop. Nothing
 * when alpha = 0, as reference (so a NaN or Inf in x does not reach y then). */
#include "level1/level1.h"

static void axpy_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    job->loops->axpy(len, job->alpha, job->x + first, job->out_y + first);
}

void level1_axpy(tela_int n, double alpha, const double *x, double *y)
{
    if (n > 0)
        level1_loops_for(n)->axpy(n, alpha, x, y);
}

void tela_daxpy(tela_par par, tela_int n, double alpha, const double *x, tela_int incx, double *y,
                tela_int incy)
{
    if (n <= 0 || alpha == 0.0)
        return;
    if (incx != 1 || incy != 1) {
        tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
        for (tela_int i = 0; i < n; i++, ix += incx, iy += incy)
            y[iy] += alpha * x[ix];
        return;
    }
    if (n <= LEVEL1_BLOCK) {
        level1_loops_for(n)->axpy(n, alpha, x, y);
        return;
    }
    level1_job job = {
        .block = axpy_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .y = y,
        .out_y = y,
        .alpha = alpha,
    };
    level1_run(par, "daxpy", 3.0, &job);
}
