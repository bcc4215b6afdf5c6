/* trmm.c — tela_dtrmm: B = alpha op(A) B or B = alpha B op(A) in place, A
 * triangular.
 *
 * On the left, triangles of order 512 and more go in steps of packed
 * GEMMs that each pack B's rows once (multiply_steps.c). Elsewhere
 * recursive as trsm.c: each half is multiplied in the order that still
 * finds the other half of B unchanged when tela_dgemm adds its share.
 * Triangles of order <= LEVEL3_CHUNK_TRI are multiplied by whole blocks
 * of the kernel's tiles instead (multiply_packed.c). */
#include "gemm/level3.h"
#include "par/engine.h"

static void multiply(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o, tela_int s,
                     tela_int m, tela_int n, double *b, tela_int ldb)
{
    if (level3_multiply_packed(ctx, t, left, o, s, left ? n : m, b, ldb))
        return;
    if (level3_tri_chunked(ctx, multiply, false, t, left, o, s, m, n, b, ldb))
        return;
    level3_tri_recurse(ctx, multiply, false, t, left, o, s, m, n, b, ldb);
}

typedef struct share_job {
    const tri_view *t;
    bool left;
    tela_int m, n, per; /* B's shape; columns (rows) a share */
    double *b;
    tela_int ldb;
} share_job;

static void multiply_share(const level3_ctx *ctx, tela_int from, tela_int to, bool kept, void *arg)
{
    const share_job *job = arg;
    (void)kept; /* each share's leaves and GEMMs pack afresh */
    const tela_int rhs = job->left ? job->n : job->m, s = job->left ? job->m : job->n;
    level3_ctx share = *ctx;
    if (job->left)
        share.whole_n = rhs;
    else
        share.whole_m = rhs;
    for (tela_int c = from; c < to; c++) {
        const tela_int j = c * job->per, cnt = rhs - j < job->per ? rhs - j : job->per;
        if (cnt <= 0)
            continue;
        if (job->left)
            multiply(&share, job->t, true, 0, s, s, cnt, job->b + j * job->ldb, job->ldb);
        else
            multiply(&share, job->t, false, 0, s, cnt, s, job->b + j, job->ldb);
    }
}

/* Triangles above LEVEL3_CHUNK_TRI (on the left, below 512) with at least LEVEL3_CHUNK
 * right-hand sides a member: each member multiplies its share of B's columns (rows)
 * through the whole recursion, serially, in one region. The recursion's
 * own regions (a leaf, a GEMM, a leaf, ...) each met at their ends, which
 * cost more than one region (docs/gemm.md, "trmm above order 256 by
 * shares of B"). An
 * element's arithmetic is the same either way (serial and parallel GEMMs
 * agree bitwise, as do the leaves, and a share's GEMMs take the whole
 * call's path: level3_ctx), so the choice may follow the width. */
static bool multiply_by_shares(tela_par par, const tri_view *t, bool left, tela_int m, tela_int n,
                               double *b, tela_int ldb)
{
    const tela_int s = left ? m : n, rhs = left ? n : m;
    const int bound = par_width_bound(par);
    if (s <= LEVEL3_CHUNK_TRI || bound < 2 || rhs < (tela_int)bound * LEVEL3_CHUNK)
        return false;
    const gemm_kernel *kr = gemm_kernel_get();
    const tela_int v = left ? kr->nr : kr->mr;
    share_job job = {t, left, m, n, (rhs + bound - 1) / bound, b, ldb};
    job.per = (job.per + v - 1) / v * v;
    /* Room for a share's GEMMs: (up to s) x per x s on the left, per x (up to s) x s on the
     * right. A GEMM given less packs into the thread's kept buffer, which on the caller is the
     * one holding every member's buffer: it would overwrite another member's. */
    const size_t gemm = left ? gemm_serial_buffer_len(kr, s, job.per, s)
                             : gemm_serial_buffer_len(kr, job.per, s, s),
                 leaf = level3_multiply_len(left, LEVEL3_CHUNK_TRI);
    return level3_chunks_if_buffers(par, "dtrmm", bound,
                                    level3_tri_estimate_ns(false, left, s, rhs),
                                    gemm > leaf ? gemm : leaf, multiply_share, &job);
}

int tela_dtrmm(tela_par par, char side, char uplo, char transa, char diag, tela_int m, tela_int n,
               double alpha, const double *a, tela_int lda, double *b, tela_int ldb)
{
    tri_view t;
    bool left;
    int status =
        level3_triangular_args(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, &t, &left);
    if (status == 0) {
        const level3_ctx ctx = {.par = par};
        if (!(left && level3_multiply_steps(par, &t, m, n, b, ldb)) &&
            !multiply_by_shares(par, &t, left, m, n, b, ldb))
            multiply(&ctx, &t, left, 0, left ? m : n, m, n, b, ldb);
    }
    return status < 0 ? status : 0;
}
