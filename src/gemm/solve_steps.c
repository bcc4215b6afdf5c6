/* solve_steps.c — trsm on the left with few right-hand sides (getrs's and
 * potrs's solves): the triangle in blocks of rows solved in order, in one
 * region. A step updates the rows still to solve with the block just
 * solved (members share the rows) and member 0 solves the next block in
 * the same section: one barrier a step. */
#include "gemm/level3.h"
#include "par/engine.h"

/* The recursion it replaces ran a region per GEMM and per block, each
 * cutting B differently; this way pays up to this many right-hand sides,
 * beyond which the recursion's GEMMs are large (docs/gemm.md, "Why 512"). */
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
    /* Each member's update rate (tiles per ns), 0 until measured, and
     * member 0's time for the look-ahead's solve: two copies, step q reads
     * copy q % 2 and writes the other, so no member reads a value another
     * is writing (one barrier a step). Members past STEPS_RATED share
     * evenly. Here, not allocated: a call may come from inside a region. */
    double speeds[2][STEPS_RATED];
    double solve_ns[2];
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
                        buf ? job->buf_len : 0, false);
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

/* Rows [from, to) of B minus op(A)[from:to, r0:r1] X, X the solved rows
 * [r0, r1). Always the packed path, whose bits do not depend on where the
 * rows are cut. */
static void update_rows(const steps_job *job, tela_int r0, tela_int r1, tela_int from, tela_int to,
                        double *buf)
{
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
                             GEMM_ALL,
                             false,
                             NULL,
                             NULL};
    gemm_serial_on_path(&pr, false, buf, buf ? job->buf_len : 0);
}

/* The rows of block i in solving order: [*r0, *r1). */
static void block_rows(const steps_job *job, tela_int q, tela_int *r0, tela_int *r1)
{
    const tela_int i = job->t->lower ? q : job->blocks - 1 - q;
    *r0 = block_start(job->s, job->blocks, i);
    *r1 = block_start(job->s, job->blocks, i + 1);
}

/* Member r's tiles [u0, u1) of count, member 0 already holding head tiles'
 * worth of work (the look-ahead): the shares of count + head by rate, less
 * head, so they still cover [0, count) once in rank order. */
static void share_after_head(const double *speeds, tela_int count, tela_int head, int r, int w,
                             tela_int *u0, tela_int *u1)
{
    tela_int from, to;
    level3_share_by_speed(speeds, count + head, r, w, &from, &to);
    *u0 = from > head ? from - head : 0;
    *u1 = to > head ? to - head : 0;
}

/* The mean of the step's measurement and the n before it (old). */
static double running_mean(double old, double now, tela_int n)
{
    return old > 0.0 ? old + (now - old) / (double)(n + 1) : now;
}

/* Member 0's solve of a block of next_tiles tiles' rows, in tiles of
 * update at its rate, once both are timed; before, 0.6 of a tile per
 * tile's rows, as timed (docs/gemm.md, "Member 0 solves the next block
 * inside the update's section"). */
static tela_int solve_in_tiles(const double *speeds, double solve_ns, tela_int next_tiles)
{
    const double tiles = speeds && speeds[0] > 0.0 && solve_ns > 0.0 ? solve_ns * speeds[0]
                                                                     : 0.6 * (double)next_tiles;
    return (tela_int)(tiles + 0.5);
}

/* Step q, block q solved: the rows still to solve, [b0, b1), updated with
 * it. Member 0's share starts at block q + 1's rows; when it holds them
 * all, member 0 then solves that block alone (its time counted in the
 * shares), one barrier a step. Else (the last steps, where the block is
 * more than member 0's share) the members meet after the update and share
 * the solve by groups. Every member reads the same rates, so all take the
 * same way and the same cut. */
static void step(tela_member *self, steps_job *job, tela_int q, double *buf)
{
    const int w = tela_width(self), r = tela_rank(self);
    const tela_int mr = job->kr->mr;
    const double *speeds = w > 1 && w <= STEPS_RATED ? job->speeds[q % 2] : NULL;
    tela_int r0, r1, n0, n1;
    block_rows(job, q, &r0, &r1);
    block_rows(job, q + 1, &n0, &n1);
    const bool lower = job->t->lower;
    const tela_int b0 = lower ? n0 : 0, b1 = lower ? job->s : n1;
    const tela_int tiles = (b1 - b0 + mr - 1) / mr, next_tiles = (n1 - n0 + mr - 1) / mr;
    const double solve_ns = job->solve_ns[q % 2];
    const tela_int head = solve_in_tiles(speeds, solve_ns, next_tiles);
    tela_int u0, u1, first_end;
    share_after_head(speeds, tiles, head, 0, w, &u0, &first_end);
    const bool ahead = w == 1 || first_end >= next_tiles;
    if (ahead)
        share_after_head(speeds, tiles, head, r, w, &u0, &u1);
    else
        level3_share_by_speed(speeds, tiles, r, w, &u0, &u1);
    /* Tiles counted from the next block's side, so member 0's come first. */
    const tela_int from = lower ? b0 + u0 * mr : b1 - u1 * mr;
    const tela_int to = lower ? b0 + u1 * mr : b1 - u0 * mr;
    const double t0 = par_monotonic_ns();
    update_rows(job, r0, r1, from > b0 ? from : b0, to < b1 ? to : b1, buf);
    const double t1 = par_monotonic_ns();
    double *next_speeds = job->speeds[(q + 1) % 2];
    if (r < STEPS_RATED) {
        const double old = job->speeds[q % 2][r];
        next_speeds[r] = u1 > u0 ? running_mean(old, (double)(u1 - u0) / (t1 - t0 + 1.0), q) : old;
    }
    if (!ahead) {
        if (r == 0)
            job->solve_ns[(q + 1) % 2] = solve_ns;
        tela_barrier(self);
        solve_block(job, n0, n1, r, w, buf);
    } else if (r == 0) {
        solve_block(job, n0, n1, 0, 1, buf);
        job->solve_ns[(q + 1) % 2] = running_mean(solve_ns, par_monotonic_ns() - t1, q);
    }
}

static void steps_body(tela_member *self, void *arg)
{
    steps_job *job = arg;
    const int w = tela_width(self), r = tela_rank(self);
    double *buf = job->bufs ? job->bufs + (size_t)r * job->buf_len : NULL;
    tela_int r0, r1;
    block_rows(job, 0, &r0, &r1);
    solve_block(job, r0, r1, r, w, buf);
    for (tela_int q = 0; q + 1 < job->blocks; q++) {
        tela_barrier(self);
        step(self, job, q, buf);
    }
}

bool level3_solve_in_steps(tela_par par, const tri_view *t, tela_int s, tela_int n, double *b,
                           tela_int ldb)
{
    level3_solve_plan probe;
    if (s <= LEVEL3_CHUNK_TRI || n > STEPS_MAX_RHS ||
        !level3_solve_prepare(&probe, t, true, 0, LEVEL3_CHUNK_TRI, NULL))
        return false;
    steps_job job = {probe.kr, t, s, n, blocks_for(s), probe.v, b, ldb, NULL, 0, {{0.0}}, {0.0}};
    const int bound = par_width_bound(par);
    const size_t plan = level3_solve_plan_len(LEVEL3_CHUNK_TRI),
                 gemm = gemm_serial_buffer_len(job.kr, s, n, LEVEL3_CHUNK_TRI);
    bool owned;
    job.bufs = par_scratch_members(par, bound, (plan > gemm ? plan : gemm) * sizeof(double),
                                   &job.buf_len, &owned);
    job.buf_len /= sizeof(double);
    const double estimate_ns = level3_tri_estimate_ns(true, true, s, n);
    if (tela_parallel_gated(tela_par_limit(par, bound), "dtrsm", estimate_ns, (int)(job.blocks + 1),
                            steps_body, &job) < 0)
        par_region_run_serial(steps_body, &job); /* a bad policy (reported): serially */
    par_scratch_release(job.bufs, owned);
    return true;
}
