/* scal.c — tela_dscal and level1_scal: x = alpha x. As reference 3.11: nothing for incx <= 0 or
 * alpha = 1, and alpha = 0 multiplies (a NaN or Inf in x gives NaN, not 0). Contiguous x: the
 * chosen ISA's loop on blocks, in a region when it pays; a strided one: reference's loop. */
#include "level1/level1.h"

static void scal_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    job->loops->scal(len, job->alpha, job->out_x + first);
}

void level1_scal(tela_int n, double alpha, double *x)
{
    if (n > 0)
        level1_loops_for(n)->scal(n, alpha, x);
}

void tela_dscal(tela_par par, tela_int n, double alpha, double *x, tela_int incx)
{
    if (n <= 0 || incx <= 0 || alpha == 1.0)
        return;
    if (incx != 1) {
        for (tela_int i = 0; i < n; i++)
            x[i * incx] *= alpha;
        return;
    }
    if (n <= LEVEL1_BLOCK) {
        level1_loops_for(n)->scal(n, alpha, x);
        return;
    }
    level1_job job = {
        .block = scal_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .out_x = x,
        .alpha = alpha,
    };
    level1_run(par, "dscal", 2.0, &job);
}
