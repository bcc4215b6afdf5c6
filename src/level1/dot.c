/* dot.c — tela_ddot and level1_dot. Contiguous vectors: each block summed by the chosen ISA's
 * loop, the block sums added in block order (level1.h), in a region when it pays. Any other
 * increments: reference DDOT's loop, one sum in element order. */
#include "level1/level1.h"

static void dot_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    job->sums[b] = job->loops->dot(len, job->x + first, job->y + first);
}

double level1_dot(tela_int n, const double *x, const double *y)
{
    if (n <= 0)
        return 0.0;
    const level1_loops *loops = level1_loops_for(n);
    const tela_int len = level1_block_len(n);
    double sum = loops->dot(n < len ? n : len, x, y);
    for (tela_int first = len; first < n; first += len)
        sum += loops->dot(n - first < len ? n - first : len, x + first, y + first);
    return sum;
}

static double dot_strided(tela_int n, const double *x, tela_int incx, const double *y,
                          tela_int incy)
{
    tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
    double sum = 0.0;
    for (tela_int i = 0; i < n; i++, ix += incx, iy += incy)
        sum += x[ix] * y[iy];
    return sum;
}

double tela_ddot(tela_par par, tela_int n, const double *x, tela_int incx, const double *y,
                 tela_int incy)
{
    if (n <= 0)
        return 0.0;
    if (incx != 1 || incy != 1)
        return dot_strided(n, x, incx, y, incy);
    if (n <= LEVEL1_BLOCK)
        return level1_loops_for(n)->dot(n, x, y);
    double sums[LEVEL1_BLOCKS_MAX];
    level1_job job = {
        .block = dot_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .y = y,
        .sums = sums,
    };
    level1_run(par, "ddot", 2.0, &job);
    return level1_sum_in_order(sums, level1_block_count(n));
}
