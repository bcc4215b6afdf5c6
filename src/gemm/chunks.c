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
        gemm_kernel_get(), {a, lda, ta == 'T'}, {b, ldb, tb == 'T'}, c, ldc, m, n, k, alpha, beta};
    gemm_serial_in(&pr, ctx->buf, ctx->buf_len);
}

size_t level3_chunk_buffer_len(tela_int s)
{
    /* The largest GEMM in a chunk: s/2 x LEVEL3_CHUNK x s/2, either way round. */
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
    for (tela_int c = from; c < to; c++)
        job->fn(&ctx, c, job->arg);
}

static void chunk_body(tela_member *self, void *arg)
{
    const chunk_job *job = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    run_chunks(job, job->count * r / w, job->count * (r + 1) / w,
               job->bufs ? job->bufs + (size_t)r * job->buf_len : NULL);
}

void level3_chunks(tela_par par, const char *name, tela_int count, double estimate_ns,
                   size_t buf_len, level3_chunk_fn fn, void *arg)
{
    int bound = par.kind == TELA_PAR_SEQ ? 1 : gemm_width_bound(par);
    if (bound > count)
        bound = (int)count;
    /* One buffer per member that may run: a held team's workspace, else
     * the caller's kept buffer (or one allocated for this call). */
    const size_t len = (buf_len + 7) / 8 * 8;
    bool owned = false;
    double *bufs = NULL;
    if (par.kind == TELA_PAR_TEAM && par.team)
        bufs = tela_team_workspace(par.team, (size_t)bound * len * sizeof(double));
    else
        bufs = gemm_buffer_get((size_t)bound * len, &owned);
    chunk_job job = {count, bufs, len, fn, arg};
    int used = -1;
    if (bound > 1)
        used =
            tela_parallel_gated(tela_par_limit(par, bound), name, estimate_ns, 1, chunk_body, &job);
    if (used < 0)
        run_chunks(&job, 0, count, bufs);
    if (owned)
        free(bufs);
}
