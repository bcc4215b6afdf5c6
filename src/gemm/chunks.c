/* chunks.c — the level-3 routines' chunked steps: independent chunks of B
 * (or C) shared among members, each running serial GEMMs into a packing
 * buffer handed out before the region (no allocation inside it). */
#include "gemm/level3.h"
#include "par/engine.h"

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
    const gemm_problem pr = {gemm_kernel_get(),
                             {a, lda, ta == 'T'},
                             {b, ldb, tb == 'T'},
                             c,
                             ldc,
                             m,
                             n,
                             k,
                             alpha,
                             beta,
                             GEMM_ALL,
                             false,
                             NULL,
                             NULL};
    gemm_problem whole = pr;
    if (ctx->whole_m > 0)
        whole.m = ctx->whole_m;
    if (ctx->whole_n > 0)
        whole.n = ctx->whole_n;
    gemm_serial_on_path(&pr, gemm_prefers_unpacked(&whole), ctx->buf, ctx->buf_len);
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
    size_t buf_len; /* a member's stride in bufs: its buffer, then its claims' line */
    level3_chunk_fn fn;
    void *arg;
} chunk_job;

/* Members claim chunks one at a time (claims.c). Member r owns the range
 * [count r / w, count (r + 1) / w) and takes from its front; once its own
 * are gone it takes from the back of the range with the most left. Members
 * that keep pace run their ranges as fixed shares would, each on
 * contiguous columns or rows (one shared counter interleaved them, which
 * was slower); one that starts late or runs slow loses its last chunks to
 * the others instead of holding up the region (docs/gemm.md, "Chunks
 * claimed, not handed out"). A range's claims word sits in the last line
 * of its member's buffer. The chunks are independent, so nothing is
 * ordered but by the region's end. */
#define CLAIM_LINE_DOUBLES (PAR_CACHE_LINE / sizeof(double))

static gemm_claim_word *claims_of(const chunk_job *job, int r)
{
    void *line = job->bufs + (size_t)(r + 1) * job->buf_len - CLAIM_LINE_DOUBLES;
    return line;
}

static void range_of(tela_int count, int r, int w, tela_int *first, tela_int *size)
{
    *first = count * r / w;
    *size = count * (r + 1) / w - *first;
}

/* Takes one chunk of member r's range, from its back or front. */
static bool take(const chunk_job *job, int r, int w, bool from_back, tela_int *chunk)
{
    tela_int first, size, at, one;
    range_of(job->count, r, w, &first, &size);
    if (!gemm_claim(claims_of(job, r), size, from_back, 1, &at, &one))
        return false;
    *chunk = first + at;
    return true;
}

/* The member other than r with the most chunks left, -1 when none has. */
static int fullest_other(const chunk_job *job, int r, int w)
{
    int best = -1;
    tela_int most = 0;
    for (int o = 0; o < w; o++) {
        if (o == r)
            continue;
        tela_int first, size;
        range_of(job->count, o, w, &first, &size);
        const tela_int left = gemm_claims_left(claims_of(job, o), size);
        if (left > most) {
            most = left;
            best = o;
        }
    }
    return best;
}

static void chunk_body(tela_member *self, void *arg)
{
    const chunk_job *job = arg;
    const int w = tela_width(self), r = tela_rank(self);
    const level3_ctx ctx = {.par = tela_par_seq(),
                            .in_chunk = true,
                            .buf = job->bufs + (size_t)r * job->buf_len,
                            .buf_len = job->buf_len - CLAIM_LINE_DOUBLES};
    bool kept = false;
    tela_int chunk;
    while (take(job, r, w, false, &chunk)) {
        job->fn(&ctx, chunk, chunk + 1, kept, job->arg);
        kept = true;
    }
    /* Each pass takes a chunk or finds every range empty: bounded. */
    for (int victim; (victim = fullest_other(job, r, w)) >= 0;) {
        if (take(job, victim, w, true, &chunk)) {
            job->fn(&ctx, chunk, chunk + 1, kept, job->arg);
            kept = true;
        }
    }
}

/* Without buffers (none could be had) there is nowhere to keep claims:
 * fixed shares. */
static void chunk_share_body(tela_member *self, void *arg)
{
    const chunk_job *job = arg;
    tela_int first, size;
    range_of(job->count, tela_rank(self), tela_width(self), &first, &size);
    const level3_ctx ctx = {.par = tela_par_seq(), .in_chunk = true};
    if (size > 0)
        job->fn(&ctx, first, first + size, false, job->arg);
}

/* level3_chunks; false (nothing run) when the members' buffers cannot be
 * had and need_buffers is set. */
static bool run_chunked(tela_par par, const char *name, tela_int count, double estimate_ns,
                        size_t buf_len, level3_chunk_fn fn, void *arg, bool need_buffers)
{
    /* Where no width pays, the members' buffers and claims are skipped too: on a held team they
     * cost small triangles 3-9% (trmm 32-64) against tela_par_seq(). */
    int bound = par_may_split(par, estimate_ns) ? par_width_bound(par) : 1;
    if (bound > count)
        bound = (int)count;
    size_t stride;
    bool owned;
    /* Each member's buffer, rounded to whole lines, then its claims' line. */
    const size_t len = (buf_len + CLAIM_LINE_DOUBLES - 1) / CLAIM_LINE_DOUBLES * CLAIM_LINE_DOUBLES;
    double *bufs = par_scratch_members(par, bound, (len + CLAIM_LINE_DOUBLES) * sizeof(double),
                                       &stride, &owned);
    stride /= sizeof(double);
    if (!bufs && need_buffers)
        return false;
    chunk_job job = {count, bufs, stride, fn, arg};
    int used = -1;
    if (bound > 1 && count <= UINT32_MAX) {
        for (int r = 0; bufs && r < bound; r++)
            atomic_init(claims_of(&job, r), 0);
        used = tela_parallel_gated(tela_par_limit(par, bound), name, estimate_ns, 1,
                                   bufs ? chunk_body : chunk_share_body, &job);
    }
    if (used < 0) {
        const level3_ctx ctx = {
            .par = tela_par_seq(), .in_chunk = true, .buf = bufs, .buf_len = bufs ? len : 0};
        fn(&ctx, 0, count, false, arg);
    }
    par_scratch_release(bufs, owned);
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

static void tri_chunks(const level3_ctx *ctx, tela_int from, tela_int to, bool kept, void *arg)
{
    const tri_chunk_job *job = arg;
    (void)kept; /* each chunk's steps pack what they need afresh */
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

bool level3_tri_chunked(const level3_ctx *ctx, level3_tri_step step, bool solve, const tri_view *t,
                        bool left, tela_int o, tela_int s, tela_int m, tela_int n, double *b,
                        tela_int ldb)
{
    const tela_int rhs = left ? n : m;
    if (ctx->in_chunk || s > LEVEL3_CHUNK_TRI || rhs <= LEVEL3_CHUNK)
        return false;
    tri_chunk_job job = {step, t, left, o, s, m, n, b, ldb};
    level3_chunks(ctx->par, solve ? "dtrsm" : "dtrmm", chunks_of(rhs),
                  level3_tri_estimate_ns(solve, left, s, rhs), level3_chunk_buffer_len(s),
                  tri_chunks, &job);
    return true;
}

typedef struct solve_chunk_job {
    level3_solve_plan probe; /* the plan's shape, unprepared */
    tela_int rhs;
    double *b;
    tela_int ldb;
} solve_chunk_job;

/* Groups [from, to) of the tile's v right-hand sides. A member packs the
 * plan once, into its own buffer, on its first claim (a member that
 * arrives when every group is claimed packs nothing): shared, the plan the
 * caller had just written crossed to the other cores (docs/gemm.md, "One
 * plan per member"). */
static void solve_groups(const level3_ctx *ctx, tela_int from, tela_int to, bool kept, void *arg)
{
    const solve_chunk_job *job = arg;
    const level3_solve_plan *pr = &job->probe;
    level3_solve_groups(&pr->t, pr->left, pr->o, pr->s, from, to, job->rhs, job->b, job->ldb,
                        ctx->buf, ctx->buf_len, kept);
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
        level3_chunks(ctx->par, "dtrsm", groups, level3_tri_estimate_ns(true, left, s, rhs), need,
                      solve_groups, &job);
        return true;
    }
    /* One group, or inside a chunk: on the caller, with the buffer it has. */
    bool owned = false;
    double *buf = ctx->in_chunk
                      ? ctx->buf
                      : par_scratch_thread(PAR_SCRATCH_PACK, need * sizeof(double), &owned);
    level3_ctx here = *ctx;
    here.in_chunk = true;
    here.buf = buf;
    here.buf_len = ctx->in_chunk ? ctx->buf_len : buf ? need : 0;
    solve_groups(&here, 0, groups, false, &job);
    par_scratch_release(buf, owned);
    return true;
}
