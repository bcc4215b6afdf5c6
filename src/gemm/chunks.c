/* chunks.c — the level-3 routines' chunked steps: independent chunks of B
 * (or C) shared among members, each running serial GEMMs into a packing
 * buffer handed out before the region (no allocation inside it). */
#include "gemm/level3.h"
#include "par/par.h"

#include <stdlib.h>

void level3_gemm(const level3_ctx *ctx, char ta, char tb, tela_int m, tela_int n, tela_int k,
                 double alpha, const double *a, tela_int lda, const double *b, tela_int ldb,
                 double beta, double *c, tela_int ldc)
{
    if (!ctx->in_chunk) {
        tela_dgemm(ctx->par, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    if (m == 0 || n == 0)
        return;
    /* Callers here pass valid arguments, k > 0 and alpha != 0. */
    const gemm_problem pr = {
        gemm_kernel_get(), {a, lda, ta == 'T'}, {b, ldb, tb == 'T'}, c, ldc, m, n, k, alpha, beta,
        GEMM_ALL};
    gemm_serial_in(&pr, ctx->buf, ctx->buf_len);
}

size_t level3_chunk_buffer_len(tela_int s)
{
    /* The largest GEMM in a chunk: s/2 x LEVEL3_CHUNK x s/2, either way
     * round (a trsm's chunks solved by blocks bring their own plan). */
    const tela_int big = s > LEVEL3_CHUNK ? s : LEVEL3_CHUNK;
    return gemm_serial_buffer_len(gemm_kernel_get(), big, big, s);
}

typedef struct chunk_job {
    tela_int count;
    double *bufs;
    size_t buf_len;
    level3_chunk_fn fn;
    void *arg;
} chunk_job;

static void run_chunks(const chunk_job *job, tela_int from, tela_int to, double *buf)
{
    const level3_ctx ctx = {tela_par_seq(), true, buf, buf ? job->buf_len : 0};
    if (from < to)
        job->fn(&ctx, from, to, job->arg);
}

static void chunk_body(tela_member *self, void *arg)
{
    const chunk_job *job = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    run_chunks(job, job->count * r / w, job->count * (r + 1) / w,
               job->bufs ? job->bufs + (size_t)r * job->buf_len : NULL);
}

/* level3_chunks; false (nothing run) when the members' buffers cannot be
 * had and need_buffers is set. */
static bool run_chunked(tela_par par, const char *name, tela_int count, double estimate_ns,
                        size_t buf_len, level3_chunk_fn fn, void *arg, bool need_buffers)
{
    int bound = par.kind == TELA_PAR_SEQ ? 1 : gemm_width_bound(par);
    if (bound > count)
        bound = (int)count;
    size_t len;
    bool owned;
    double *bufs = gemm_member_buffers(par, bound, buf_len, &len, &owned);
    if (!bufs && need_buffers)
        return false;
    chunk_job job = {count, bufs, len, fn, arg};
    int used = -1;
    if (bound > 1)
        used =
            tela_parallel_gated(tela_par_limit(par, bound), name, estimate_ns, 1, chunk_body, &job);
    if (used < 0)
        run_chunks(&job, 0, count, bufs);
    if (owned)
        free(bufs);
    return true;
}

void level3_chunks(tela_par par, const char *name, tela_int count, double estimate_ns,
                   size_t buf_len, level3_chunk_fn fn, void *arg)
{
    run_chunked(par, name, count, estimate_ns, buf_len, fn, arg, false);
}

bool level3_chunks_if_buffers(tela_par par, const char *name, tela_int count, double estimate_ns,
                              size_t buf_len, level3_chunk_fn fn, void *arg)
{
    return run_chunked(par, name, count, estimate_ns, buf_len, fn, arg, true);
}

typedef struct tri_chunk_job {
    level3_tri_step step;
    const tri_view *t;
    bool left;
    tela_int o, s, m, n;
    double *b;
    tela_int ldb;
} tri_chunk_job;

/* Chunk c: LEVEL3_CHUNK columns (left) or rows (right) of B, from *first. */
static tela_int chunk_rhs(tela_int c, tela_int rhs, tela_int *first)
{
    *first = c * LEVEL3_CHUNK;
    return rhs - *first < LEVEL3_CHUNK ? rhs - *first : LEVEL3_CHUNK;
}

static void tri_chunks(const level3_ctx *ctx, tela_int from, tela_int to, void *arg)
{
    const tri_chunk_job *job = arg;
    for (tela_int c = from; c < to; c++) {
        tela_int first;
        const tela_int count = chunk_rhs(c, job->left ? job->n : job->m, &first);
        if (job->left)
            job->step(ctx, job->t, true, job->o, job->s, job->m, count, job->b + first * job->ldb,
                      job->ldb);
        else
            job->step(ctx, job->t, false, job->o, job->s, count, job->n, job->b + first, job->ldb);
    }
}

static tela_int chunks_of(tela_int rhs)
{
    return (rhs + LEVEL3_CHUNK - 1) / LEVEL3_CHUNK;
}

bool level3_tri_chunked(const level3_ctx *ctx, level3_tri_step step, const char *name,
                        const tri_view *t, bool left, tela_int o, tela_int s, tela_int m,
                        tela_int n, double *b, tela_int ldb)
{
    const tela_int rhs = left ? n : m;
    if (ctx->in_chunk || s > LEVEL3_CHUNK_TRI || rhs <= LEVEL3_CHUNK)
        return false;
    tri_chunk_job job = {step, t, left, o, s, m, n, b, ldb};
    level3_chunks(ctx->par, name, chunks_of(rhs), par_tri_estimate_ns(s, rhs),
                  level3_chunk_buffer_len(s), tri_chunks, &job);
    return true;
}

typedef struct solve_chunk_job {
    level3_solve_plan probe; /* the plan's shape, unprepared */
    tela_int rhs;
    double *b;
    tela_int ldb;
} solve_chunk_job;

/* Groups [from, to) of the tile's v right-hand sides. A member packs the
 * plan once, into its own buffer: shared, the plan the caller had just
 * written crossed to the other cores (two members on 256 x 256 ran at
 * 0.75x). */
static void solve_groups(const level3_ctx *ctx, tela_int from, tela_int to, void *arg)
{
    const solve_chunk_job *job = arg;
    const level3_solve_plan *pr = &job->probe;
    level3_solve_groups(&pr->t, pr->left, pr->o, pr->s, from, to, job->rhs, job->b, job->ldb,
                        ctx->buf, ctx->buf_len);
}

bool level3_solve_by_blocks(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o,
                            tela_int s, tela_int m, tela_int n, double *b, tela_int ldb)
{
    const tela_int rhs = left ? n : m;
    solve_chunk_job job = {.rhs = rhs, .b = b, .ldb = ldb};
    if (s <= LEVEL3_BASE || s > LEVEL3_CHUNK_TRI ||
        !level3_solve_prepare(&job.probe, t, left, o, s, NULL))
        return false;
    const tela_int groups = (rhs + job.probe.v - 1) / job.probe.v;
    const size_t need = level3_solve_plan_len(s);
    if (!ctx->in_chunk && groups >= 2) {
        /* Each right-hand side is solved alone, the same way in any group
         * of tiles (edge tiles add through a buffer as whole tiles do), so
         * the members take balanced shares of groups at any width: the
         * result is the serial one bitwise. */
        level3_chunks(ctx->par, "dtrsm", groups, par_tri_estimate_ns(s, rhs), need, solve_groups,
                      &job);
        return true;
    }
    /* One group, or inside a chunk: on the caller, with the buffer it has. */
    bool owned = false;
    double *buf = ctx->in_chunk ? ctx->buf : gemm_buffer_get(need, &owned);
    const level3_ctx here = {ctx->par, true, buf, ctx->in_chunk ? ctx->buf_len : buf ? need : 0};
    solve_groups(&here, 0, groups, &job);
    if (owned)
        free(buf);
    return true;
}
