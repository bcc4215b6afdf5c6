/* asum.c — tela_dasum and level1_asum: per-block sums of |x_i| added in block order, as dot.c;
 * a strided x walks reference DASUM's loop. Nothing for incx <= 0, as reference. */
#include "level1/level1.h"

#include <math.h>

static void asum_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    job->sums[b] = job->loops->asum(len, job->x + first);
}

double level1_asum(tela_int n, const double *x)
{
    if (n <= 0)
        return 0.0;
    const level1_loops *loops = level1_loops_for(n);
    const tela_int len = level1_block_len(n);
    double sum = loops->asum(n < len ? n : len, x);
    for (tela_int first = len; first < n; first += len)
        sum += loops->asum(n - first < len ? n - first : len, x + first);
    return sum;
}

double tela_dasum(tela_par par, tela_int n, const double *x, tela_int incx)
{
    if (n <= 0 || incx <= 0)
        return 0.0;
    if (incx != 1) {
        double sum = 0.0;
        for (tela_int i = 0; i < n; i++)
            sum += fabs(x[i * incx]);
        return sum;
    }
    if (n <= LEVEL1_BLOCK)
        return level1_loops_for(n)->asum(n, x);
    double sums[LEVEL1_BLOCKS_MAX];
    level1_job job = {
        .block = asum_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .sums = sums,
    };
    level1_run(par, "dasum", 1.0, &job);
    return level1_sum_in_order(sums, level1_block_count(n));
}
