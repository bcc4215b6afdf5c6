/* blocks.c — the one region every level-1 routine runs: a call's blocks (level1.h) dealt out to
 * the members as consecutive runs, gated by the time to stream the call's data. Which member
 * does a block never changes what the block computes, so any width gives the serial bits. */
#include "level1/level1.h"
#include "par/engine.h"

static void run_blocks(const level1_job *job, tela_int from, tela_int to)
{
    for (tela_int b = from; b < to; b++) {
        const tela_int first = b * job->block_len;
        const tela_int len = job->n - first < job->block_len ? job->n - first : job->block_len;
        job->block(job, b, first, len);
    }
}

static void blocks_body(tela_member *self, void *arg)
{
    const level1_job *job = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    const tela_int count = level1_block_count(job->n);
    run_blocks(job, count * r / w, count * (r + 1) / w);
}

void level1_run(tela_par par, const char *name, double moved_per_element, level1_job *job)
{
    const tela_int count = level1_block_count(job->n);
    const double estimate = par_stream_estimate_ns(moved_per_element * (double)job->n);
    /* par_may_split first: a call no width could pay for (most calls below some 10^5 elements)
     * skips the gate's own cost, a good part of a call of a few microseconds. */
    if (count >= 2 && par_may_split(par, estimate)) {
        /* No wider than there are blocks: a member without one would only cost its wake-up. */
        const int limit = par.max_width > 0 && par.max_width < count ? par.max_width : (int)count;
        if (tela_parallel_gated(tela_par_limit(par, limit), name, estimate, 1, blocks_body, job) >=
            1)
            return;
    }
    run_blocks(job, 0, count);
}
