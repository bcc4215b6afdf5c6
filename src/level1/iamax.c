/* iamax.c — tela_idamax and level1_iamax: reference IDAMAX's answer (the first index of the
 * largest |x_i|; a NaN is never larger, so it is chosen only as x_1, which nothing after it
 * beats). Contiguous x: each block's largest and its first place by the chosen ISA's loop, then
 * the first block with the largest; a strided x walks reference's loop. */
#include "level1/level1.h"

#include <math.h>

static void amax_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    job->maxes[b] = job->loops->amax(len, job->x + first);
}

/* 0-based, x_0 not NaN: the first of the blocks' largest (ties: the earlier block). */
static tela_int first_of_largest(const level1_max *maxes, tela_int count, tela_int block_len)
{
    tela_int best = 0;
    for (tela_int b = 1; b < count; b++)
        /* cppcheck-suppress uninitvar ; level1_run's blocks wrote all count entries */
        if (maxes[b].value > maxes[best].value)
            best = b;
    return best * block_len + maxes[best].index;
}

tela_int level1_iamax(tela_int n, const double *x)
{
    if (n < 1)
        return -1;
    if (isnan(x[0]))
        return 0; /* reference's running maximum is NaN from the start: nothing beats it */
    const level1_loops *loops = level1_loops_for(n);
    const tela_int len = level1_block_len(n);
    level1_max best = loops->amax(n < len ? n : len, x);
    for (tela_int first = len; first < n; first += len) {
        const level1_max m = loops->amax(n - first < len ? n - first : len, x + first);
        if (m.value > best.value) {
            best.value = m.value;
            best.index = first + m.index;
        }
    }
    return best.index;
}

static tela_int iamax_strided(tela_int n, const double *x, tela_int incx)
{
    tela_int best = 1;
    double max = fabs(x[0]);
    for (tela_int i = 1; i < n; i++) {
        const double ax = fabs(x[i * incx]);
        if (ax > max) {
            best = i + 1;
            max = ax;
        }
    }
    return best;
}

tela_int tela_idamax(tela_par par, tela_int n, const double *x, tela_int incx)
{
    if (n < 1 || incx <= 0)
        return 0;
    if (incx != 1)
        return iamax_strided(n, x, incx);
    if (n <= LEVEL1_BLOCK || isnan(x[0]))
        return level1_iamax(n, x) + 1;
    level1_max maxes[LEVEL1_BLOCKS_MAX];
    level1_job job = {
        .block = amax_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .maxes = maxes,
    };
    level1_run(par, "idamax", 1.0, &job);
    return first_of_largest(maxes, level1_block_count(n), job.block_len) + 1;
}
