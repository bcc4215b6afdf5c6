/* multiply_packed.c — trmm for a triangle of order <= LEVEL3_CHUNK_TRI:
 * op(A) cut into blocks of the micro-kernel tile's side along it (mr rows
 * on the left, nr columns on the right), each packed once with the
 * triangle's zeros (and unit diagonal) written in; then for each chunk of
 * B, B packed (its values before the product) and one micro-kernel call
 * per tile writes the block's part of op(A) B or B op(A) in place. */
#include "gemm/level3.h"
#include "par/engine.h"

/* A block of op(A): rows [i0, i0 + width) on the left, columns on the
 * right, and the range [d0, d1) along the other side it reaches: up to
 * its diagonal block or from it. */
typedef struct tri_block_span {
    tela_int i0, d0, d1;
    int width;
} tri_block_span;

static tri_block_span block_at(const tri_view *t, bool left, tela_int s, tela_int i0, int w)
{
    tri_block_span b = {i0, 0, s, s - i0 < w ? (int)(s - i0) : w};
    /* On the left a lower op(A)'s rows reach up to the diagonal; on the
     * right a lower op(A)'s columns reach down from it. */
    if (t->lower == left)
        b.d1 = i0 + b.width;
    else
        b.d0 = i0;
    return b;
}

/* The block side along op(A): the kernel's A side (mr) on the left, its B
 * side (nr) on the right; the other is B's. */
static int block_side(const gemm_kernel *kr, bool left)
{
    return left ? kr->mr : kr->nr;
}

/* Doubles of every block's packed panel (its side x its span, a span at
 * most s), rounded to keep what follows 64-byte aligned. */
static size_t plan_len(const gemm_kernel *kr, bool left, tela_int s)
{
    const size_t w = (size_t)block_side(kr, left), blocks = (size_t)((s + (tela_int)w - 1) / w);
    return (w * blocks * (size_t)s + 7) / 8 * 8;
}

/* Whether B is read in place (multiply_chunk_in_place) rather than packed. */
static bool b_in_place(const gemm_kernel *kr, bool left)
{
    return left && kr->trmm_left_in_place && !kr->packed_only;
}

/* Doubles of B packed: LEVEL3_CHUNK columns (left) or rows (right) in
 * panels of the kernel's other side, s deep; none where B is read in place. */
static size_t packed_b_len(const gemm_kernel *kr, bool left, tela_int s)
{
    const tela_int v = block_side(kr, !left);
    return b_in_place(kr, left) ? 0 : (size_t)((LEVEL3_CHUNK + v - 1) / v * v) * (size_t)s;
}

size_t level3_multiply_len(bool left, tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    return plan_len(kr, left, s) + packed_b_len(kr, left, s);
}

/* In a block's packed panel (lane l, depth p at panel[p * w + l]; lanes
 * are op(A)'s rows on the left, its columns on the right): the diagonal
 * block's entries outside the triangle made zero, its diagonal one when
 * unit. Those entries of A are not referenced by BLAS's rules (they may
 * hold anything, NaN included): packed as they were, they are overwritten
 * here before any use. */
static void mask_diagonal(const tri_view *t, bool left, const tri_block_span *b, int w,
                          double *panel)
{
    /* At depth p the lanes outside are those before p (lower on the left, upper on the right)
     * or those after it: ranges, not a test per lane, which took a seventh of trmm 32. */
    const bool before = t->lower == left;
    for (int p = 0; p < b->width; p++) {
        double *depth = panel + (b->i0 + p - b->d0) * w;
        for (int l = before ? 0 : p + 1; l < (before ? p : b->width); l++)
            depth[l] = 0.0;
        if (t->unit)
            depth[p] = 1.0;
    }
}

static void pack_plan(const gemm_kernel *kr, const tri_view *t, bool left, tela_int o, tela_int s,
                      double *plan)
{
    const gemm_operand op = {t->a, t->lda, t->trans};
    const int w = block_side(kr, left);
    for (tela_int i0 = 0; i0 < s; i0 += w) {
        const tri_block_span b = block_at(t, left, s, i0, w);
        const int depth = (int)(b.d1 - b.d0);
        if (left)
            kr->pack_a(&op, o + i0, b.width, o + b.d0, depth, 1.0, w, plan);
        else
            kr->pack_b(&op, o + b.d0, depth, o + i0, b.width, 0, 1, w, plan);
        mask_diagonal(t, left, &b, w, plan);
        plan += (ptrdiff_t)depth * w;
    }
}

/* B's s x n (left) or n x s (right), n <= LEVEL3_CHUNK, becomes op(A) B
 * or B op(A): read packed, so writing a block's part in place disturbs no
 * other block. */
static void multiply_chunk(const gemm_kernel *kr, const tri_view *t, bool left, tela_int s,
                           const double *plan, tela_int n, double *b, tela_int ldb,
                           double *packed_b)
{
    const int w = block_side(kr, left), v = block_side(kr, !left), panels = (int)((n + v - 1) / v);
    const gemm_operand x = {b, ldb, false};
    if (left)
        kr->pack_b(&x, 0, (int)s, 0, (int)n, 0, panels, v, packed_b);
    else
        kr->pack_a(&x, 0, (int)n, 0, (int)s, 1.0, v, packed_b);
    for (tela_int i0 = 0; i0 < s; i0 += w) {
        const tri_block_span blk = block_at(t, left, s, i0, w);
        const int depth = (int)(blk.d1 - blk.d0);
        for (int q = 0; q < panels; q++) {
            const int lanes = n - (tela_int)q * v < v ? (int)(n - (tela_int)q * v) : v;
            const double *other = packed_b + (ptrdiff_t)q * v * s + blk.d0 * v;
            const double *a_side = left ? plan : other, *b_side = left ? other : plan;
            const int rows = left ? blk.width : lanes, cols = left ? lanes : blk.width;
            double *c = left ? b + i0 + (ptrdiff_t)q * v * ldb : b + (ptrdiff_t)q * v + i0 * ldb;
            if (rows == kr->mr && cols == kr->nr)
                kr->ukernel(depth, a_side, b_side, c, ldb, 0.0);
            else
                gemm_edge_tile(kr, depth, a_side, b_side, c, ldb, rows, cols, 0.0, GEMM_ALL, 0, 0);
        }
        plan += (ptrdiff_t)depth * w;
    }
}

/* On the left, the same product with B read in place by the kernel set's small path, one call
 * per block of op(A): each tile holds its sums over the block's whole span in registers and
 * stores them last, so a block may overwrite the rows of B it reads, and the blocks run in the
 * order that finds the rows they read unchanged: from the last for a lower op(A) (it reads the
 * rows before its own), else from the first. The same bits as through packed B (each element the
 * same FMA chain along the span), without B's packing (docs/gemm.md, "trmm's blocks on the
 * small path"). */
static void multiply_chunk_in_place(const gemm_kernel *kr, const tri_view *t, tela_int s,
                                    const double *plan, tela_int n, double *b, tela_int ldb)
{
    const int w = block_side(kr, true);
    const tela_int blocks = (s + w - 1) / w;
    const double *at = plan;
    if (t->lower) /* from the end of the blocks' panels (a lower block's span ends at its own) */
        for (tela_int i0 = 0; i0 < s; i0 += w)
            at += (i0 + block_at(t, true, s, i0, w).width) * w;
    for (tela_int q = 0; q < blocks; q++) {
        const tri_block_span blk = block_at(t, true, s, (t->lower ? blocks - 1 - q : q) * w, w);
        const tela_int depth = blk.d1 - blk.d0;
        if (t->lower)
            at -= depth * w;
        const gemm_problem pr = {.kernel = kr,
                                 .a = {at, w, false},
                                 .b = {b + blk.d0, ldb, false},
                                 .c = b + blk.i0,
                                 .ldc = ldb,
                                 .m = blk.width,
                                 .n = n,
                                 .k = depth,
                                 .alpha = 1.0,
                                 .part = GEMM_ALL};
        kr->small(&pr);
        if (!t->lower)
            at += depth * w;
    }
}

typedef struct multiply_job {
    const tri_view *t;
    bool left;
    tela_int o, s, n; /* n: B's columns (left) or rows (right) */
    tela_int width;   /* of them a chunk */
    double *b;
    tela_int ldb;
} multiply_job;

/* A member's chunks [from, to): the triangle packed once for all its
 * claims, into the member's buffer. */
static void multiply_chunks(const level3_ctx *ctx, tela_int from, tela_int to, bool kept, void *arg)
{
    const multiply_job *job = arg;
    const gemm_kernel *kr = gemm_kernel_get();
    double *plan = ctx->buf, *packed_b = ctx->buf + plan_len(kr, job->left, job->s);
    if (!kept)
        pack_plan(kr, job->t, job->left, job->o, job->s, plan);
    for (tela_int c = from; c < to; c++) {
        const tela_int j = c * job->width, cnt = job->n - j < job->width ? job->n - j : job->width;
        double *b = job->b + (job->left ? j * job->ldb : j);
        if (b_in_place(kr, job->left))
            multiply_chunk_in_place(kr, job->t, job->s, plan, cnt, b, job->ldb);
        else
            multiply_chunk(kr, job->t, job->left, job->s, plan, cnt, b, job->ldb, packed_b);
    }
}

bool level3_multiply_packed(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o,
                            tela_int s, tela_int n, double *b, tela_int ldb)
{
    if (s <= LEVEL3_BASE || s > LEVEL3_CHUNK_TRI)
        return false;
    /* Chunks of LEVEL3_CHUNK; fewer go by the kernel's panels, so two
     * members can share them too. A column's (row's) arithmetic is the
     * same in any chunk and on any member (edge tiles add through a buffer
     * as whole tiles do): the bits depend on neither. */
    const gemm_kernel *kr = gemm_kernel_get();
    multiply_job job = {t, left, o, s, n, n > LEVEL3_CHUNK ? LEVEL3_CHUNK : block_side(kr, !left),
                        b, ldb};
    const size_t need = level3_multiply_len(left, s);
    const tela_int chunks = (n + job.width - 1) / job.width;
    if (ctx->in_chunk) {
        /* A member's share of a larger triangle's columns (trmm.c): here
         * serially, in the member's buffer. */
        if (!ctx->buf || ctx->buf_len < need)
            return false;
        multiply_chunks(ctx, 0, chunks, false, &job);
        return true;
    }
    if (chunks > 1)
        return level3_chunks_if_buffers(ctx->par, "dtrmm", chunks,
                                        level3_tri_estimate_ns(false, left, s, n), need,
                                        multiply_chunks, &job);
    bool owned = false;
    double *buf = par_scratch_thread(PAR_SCRATCH_PACK, need * sizeof(double), &owned);
    if (!buf)
        return false;
    const level3_ctx here = {.par = ctx->par, .in_chunk = true, .buf = buf, .buf_len = need};
    multiply_chunks(&here, 0, 1, false, &job);
    par_scratch_release(buf, owned);
    return true;
}
