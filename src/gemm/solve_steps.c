/* solve_steps.c — trsm on the left with few right-hand sides (getrs's and
 * potrs's solves): the triangle in blocks of rows solved in order, in one
 * region. A step solves a diagonal block (members share its groups of the
 * tile's right-hand sides), then updates the rows still to solve (members
 * share the rows); two barriers a step. */
#include "gemm/level3.h"
#include "par/par.h"

#include <stdlib.h>

/* The recursion it replaces ran a region per GEMM and per block, each
 * cutting B differently; on two threads, n = 1024-2048, this way gained
 * 5-20% at 100 right-hand sides and 1.5-2x at 16-40, and lost 3-15% at
 * 1024, where the recursion's GEMMs are large (serially level). */
#define STEPS_MAX_RHS 512
/* Members whose rates the steps' shares follow. */
#define STEPS_RATED 64

typedef struct steps_job {
    const gemm_kernel *kr;
    const tri_view *t;
    tela_int s, n;   /* order, right-hand sides */
    tela_int blocks; /* row blocks of order in (LEVEL3_BASE, LEVEL3_CHUNK_TRI] */
    int v;           /* right-hand sides per tile of the blocks' solves */
    double *b;
    tela_int ldb;
    double *bufs; /* a buffer per member, buf_len doubles apart (may be NULL) */
    size_t buf_len;
    /* Each member's update rate (tiles per ns), 0 until measured; members
     * past STEPS_RATED share evenly. Here, not allocated: a call may come
     * from inside a region. */
    double speeds[STEPS_RATED];
} steps_job;

/* Block i's first row: a multiple of 8 (aligned columns), the blocks even. */
static tela_int block_start(tela_int s, tela_int blocks, tela_int i)
{
    return i >= blocks ? s : i * s / blocks / 8 * 8;
}

/* The fewest blocks none of which is wider than LEVEL3_CHUNK_TRI (rounding
 * the starts down to multiples of 8 can widen one by up to 7). */
static tela_int blocks_for(tela_int s)
{
    tela_int blocks = (s + LEVEL3_CHUNK_TRI - 1) / LEVEL3_CHUNK_TRI;
    for (; blocks < s; blocks++) {
        tela_int widest = 0;
        for (tela_int i = 0; i < blocks; i++) {
            const tela_int order = block_start(s, blocks, i + 1) - block_start(s, blocks, i);
            widest = order > widest ? order : widest;
        }
        if (widest <= LEVEL3_CHUNK_TRI)
            break;
    }
    return blocks;
}

/* [from, to) of count units for member r of w, in balanced shares. */
static void share_of(tela_int count, int r, int w, tela_int *from, tela_int *to)
{
    *from = count * r / w;
    *to = count * (r + 1) / w;
}

/* Rows [r0, r1) solved: this member's groups of right-hand sides. */
static void solve_block(const steps_job *job, tela_int r0, tela_int r1, int r, int w, double *buf)
{
    tela_int g0, g1;
    share_of((job->n + job->v - 1) / job->v, r, w, &g0, &g1);
    level3_solve_groups(job->t, true, r0, r1 - r0, g0, g1, job->n, job->b + r0, job->ldb, buf,
                        buf ? job->buf_len : 0);
}

static bool all_measured(const double *speeds, int w)
{
    for (int i = 0; i < w; i++)
        if (!(speeds[i] > 0.0))
            return false;
    return true;
}

void level3_share_by_speed(const double *speeds, tela_int count, int r, int w, tela_int *from,
                           tela_int *to)
{
    if (!speeds || !all_measured(speeds, w)) {
        share_of(count, r, w, from, to);
        return;
    }
    double total = 0.0, before = 0.0;
    for (int i = 0; i < w; i++) {
        if (i < r)
            before += speeds[i];
        total += speeds[i];
    }
    *from = (tela_int)((double)count * (before / total) + 0.5);
    *to = r + 1 == w ? count : (tela_int)((double)count * ((before + speeds[r]) / total) + 0.5);
}

/* How many rows are still to solve after block [r0, r1): below it for a
 * lower triangle, above it for an upper. */
static tela_int rows_left(const steps_job *job, tela_int r0, tela_int r1)
{
    return job->t->lower ? job->s - r1 : r0;
}

/* The rows still to solve minus op(A)[rows, r0:r1] X: tiles [u0, u1) of
 * them. Always the packed path, whose bits do not depend on where the
 * rows are cut. */
static void update_rows(const steps_job *job, tela_int r0, tela_int r1, tela_int u0, tela_int u1,
                        double *buf)
{
    const tela_int top = job->t->lower ? r1 : 0, rows = rows_left(job, r0, r1);
    const tela_int mr = job->kr->mr;
    const tela_int from = top + u0 * mr, to = top + (u1 * mr < rows ? u1 * mr : rows);
    if (from >= to)
        return;
    char ta;
    const double *a = tri_block(job->t, from, r0, &ta);
    const gemm_problem pr = {job->kr,
                             {a, job->t->lda, ta == 'T'},
                             {job->b + r0, job->ldb, false},
                             job->b + from,
                             job->ldb,
                             to - from,
                             job->n,
                             r1 - r0,
                             -1.0,
                             1.0,
                             GEMM_ALL};
    gemm_serial_on_path(&pr, false, buf, buf ? job->buf_len : 0);
}

static void steps_body(tela_member *self, void *arg)
{
    steps_job *job = arg;
    const int w = tela_width(self), r = tela_rank(self);
    double *buf = job->bufs ? job->bufs + (size_t)r * job->buf_len : NULL;
    double *speeds = w > 1 && w <= STEPS_RATED ? job->speeds : NULL;
    for (tela_int q = 0; q < job->blocks; q++) {
        const tela_int i = job->t->lower ? q : job->blocks - 1 - q;
        const tela_int r0 = block_start(job->s, job->blocks, i),
                       r1 = block_start(job->s, job->blocks, i + 1);
        const tela_int rows = rows_left(job, r0, r1), mr = job->kr->mr;
        /* The rates are read before the barrier that ends this solve and
         * written only after it: every member reads the same ones. */
        tela_int u0, u1;
        level3_share_by_speed(speeds, (rows + mr - 1) / mr, r, w, &u0, &u1);
        solve_block(job, r0, r1, r, w, buf);
        if (q + 1 == job->blocks)
            break;
        tela_barrier(self);
        const double start = speeds ? par_monotonic_ns() : 0.0;
        update_rows(job, r0, r1, u0, u1, buf);
        if (speeds && u1 > u0) {
            const double rate = (double)(u1 - u0) / (par_monotonic_ns() - start + 1.0);
            speeds[r] = speeds[r] > 0.0 ? 0.5 * (speeds[r] + rate) : rate;
        }
        tela_barrier(self);
    }
}

bool level3_solve_in_steps(tela_par par, const tri_view *t, tela_int s, tela_int n, double *b,
                           tela_int ldb)
{
    level3_solve_plan probe;
    if (s <= LEVEL3_CHUNK_TRI || n > STEPS_MAX_RHS ||
        !level3_solve_prepare(&probe, t, true, 0, LEVEL3_CHUNK_TRI, NULL))
        return false;
    steps_job job = {probe.kr, t, s, n, blocks_for(s), probe.v, b, ldb, NULL, 0, {0.0}};
    const int bound = par.kind == TELA_PAR_SEQ ? 1 : gemm_width_bound(par);
    const size_t plan = level3_solve_plan_len(LEVEL3_CHUNK_TRI),
                 gemm = gemm_serial_buffer_len(job.kr, s, n, LEVEL3_CHUNK_TRI);
    bool owned;
    job.bufs = gemm_member_buffers(par, bound, plan > gemm ? plan : gemm, &job.buf_len, &owned);
    const double estimate_ns = par_tri_estimate_ns(s, n);
    if (tela_parallel_gated(tela_par_limit(par, bound), "dtrsm", estimate_ns,
                            (int)(2 * job.blocks - 1), steps_body, &job) < 0)
        par_region_run_serial(steps_body, &job); /* a bad policy (reported): serially */
    if (owned)
        free(job.bufs);
    return true;
}
