/* nrm2.c — tela_dnrm2 and level1_nrm2: LAPACK 3.10's dnrm2 (Blue's algorithm). Each |x_i| is
 * squared into one of three sums after scaling by its range, so nothing overflows or underflows
 * harmfully, and the ending combines the sums. Contiguous x: the three sums per block by the
 * chosen ISA's loop, added in block order; any other increment (0 and negative included, as
 * reference 3.11 walks them): reference's loop. */
#include "level1/level1.h"

#include <math.h>

/* Blue's ending: the norm from the three sums, as reference orders its cases (a NaN among the
 * medium ones reaches the result in each). */
static double ssq_finish(level1_ssq acc)
{
    double scale = 1.0, sumsq;
    const bool medium_counts = acc.medium > 0 || isnan(acc.medium);
    if (acc.big > 0) {
        if (medium_counts)
            acc.big += (acc.medium * LEVEL1_SBIG) * LEVEL1_SBIG;
        scale = 1.0 / LEVEL1_SBIG;
        sumsq = acc.big;
    } else if (acc.small > 0) {
        if (medium_counts) {
            const double medium = sqrt(acc.medium);
            const double small = sqrt(acc.small) / LEVEL1_SSML;
            const double ymin = small > medium ? medium : small;
            const double ymax = small > medium ? small : medium;
            const double ratio = ymin / ymax;
            sumsq = ymax * ymax * (1.0 + ratio * ratio);
        } else {
            scale = 1.0 / LEVEL1_SSML;
            sumsq = acc.small;
        }
    } else {
        sumsq = acc.medium;
    }
    return scale * sqrt(sumsq);
}

static void add_ssq(level1_ssq *total, level1_ssq part)
{
    total->small += part.small;
    total->medium += part.medium;
    total->big += part.big;
}

static void nrm2_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    job->ssqs[b] = job->loops->ssq(len, job->x + first);
}

double level1_nrm2(tela_int n, const double *x)
{
    if (n <= 0)
        return 0.0;
    const level1_loops *loops = level1_loops_for(n);
    const tela_int len = level1_block_len(n);
    level1_ssq acc = loops->ssq(n < len ? n : len, x);
    for (tela_int first = len; first < n; first += len)
        add_ssq(&acc, loops->ssq(n - first < len ? n - first : len, x + first));
    return ssq_finish(acc);
}

static double nrm2_strided(tela_int n, const double *x, tela_int incx)
{
    level1_ssq acc = {0, 0, 0};
    bool seen_big = false; /* reference stops the small sum then: it no longer counts */
    tela_int ix = level1_start(n, incx);
    for (tela_int i = 0; i < n; i++, ix += incx) {
        const double ax = fabs(x[ix]);
        if (ax > LEVEL1_TBIG) {
            const double t = ax * LEVEL1_SBIG;
            acc.big += t * t;
            seen_big = true;
        } else if (ax < LEVEL1_TSML) {
            if (!seen_big) {
                const double t = ax * LEVEL1_SSML;
                acc.small += t * t;
            }
        } else {
            acc.medium += ax * ax;
        }
    }
    return ssq_finish(acc);
}

double tela_dnrm2(tela_par par, tela_int n, const double *x, tela_int incx)
{
    if (n <= 0)
        return 0.0;
    if (incx != 1)
        return nrm2_strided(n, x, incx);
    if (n <= LEVEL1_BLOCK)
        return ssq_finish(level1_loops_for(n)->ssq(n, x));
    level1_ssq ssqs[LEVEL1_BLOCKS_MAX];
    level1_job job = {
        .block = nrm2_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .ssqs = ssqs,
    };
    level1_run(par, "dnrm2", 1.0, &job);
    const tela_int count = level1_block_count(n);
    /* cppcheck-suppress uninitvar ; level1_run's blocks wrote all count entries */
    level1_ssq acc = ssqs[0];
    for (tela_int b = 1; b < count; b++)
        add_ssq(&acc, ssqs[b]);
    return ssq_finish(acc);
}
