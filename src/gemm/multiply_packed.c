/* multiply_packed.c — trmm on the left for a triangle of order <=
 * LEVEL3_CHUNK_TRI: each block of mr rows of op(A) packed once, with the
 * triangle's zeros (and unit diagonal) written in; then for each chunk of
 * B's columns, B packed (its values before the product) and one
 * micro-kernel call per tile writes the block's rows of op(A) B. */
#include "gemm/level3.h"
#include "par/par.h"

#include <stdlib.h>

/* Columns [d0, d1) of op(A) that row block i0 reads: up to its diagonal
 * block (lower) or from it (upper). */
static void block_span(const tri_view *t, tela_int s, tela_int i0, int rows, tela_int *d0,
                       tela_int *d1)
{
    *d0 = t->lower ? 0 : i0;
    *d1 = t->lower ? i0 + rows : s;
}

/* Doubles of every row block's packed panel (mr x its span), rounded to
 * keep what follows 64-byte aligned. */
static size_t plan_len(const gemm_kernel *kr, tela_int s)
{
    const size_t mr = (size_t)kr->mr, blocks = (size_t)((s + kr->mr - 1) / kr->mr);
    return (mr * blocks * (size_t)s + 7) / 8 * 8; /* a block's span is at most s */
}

/* Doubles of B packed: LEVEL3_CHUNK columns in nr panels of s rows. */
static size_t packed_b_len(const gemm_kernel *kr, tela_int s)
{
    const size_t panels = (size_t)((LEVEL3_CHUNK + kr->nr - 1) / kr->nr);
    return panels * (size_t)kr->nr * (size_t)s;
}

static size_t multiply_len(tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    return plan_len(kr, s) + packed_b_len(kr, s);
}

/* In the packed panel of rows [i0, i0 + rows) x columns [d0, ..) of op(A)
 * (column p at panel + p * mr): the diagonal block's entries outside the
 * triangle made zero, its diagonal one when unit. Those entries of A are
 * not referenced by BLAS's rules (they may hold anything, NaN included):
 * packed as they were, they are overwritten here before any use. */
static void mask_diagonal(const tri_view *t, tela_int i0, int rows, tela_int d0, int mr,
                          double *panel)
{
    for (int jj = 0; jj < rows; jj++) {
        double *col = panel + (i0 + jj - d0) * mr;
        for (int r = 0; r < rows; r++) {
            if (t->lower ? jj > r : jj < r)
                col[r] = 0.0;
            else if (jj == r && t->unit)
                col[r] = 1.0;
        }
    }
}

static void pack_plan(const gemm_kernel *kr, const tri_view *t, tela_int o, tela_int s,
                      double *plan)
{
    const gemm_operand op = {t->a, t->lda, t->trans};
    for (tela_int i0 = 0; i0 < s; i0 += kr->mr) {
        const int rows = s - i0 < kr->mr ? (int)(s - i0) : kr->mr;
        tela_int d0, d1;
        block_span(t, s, i0, rows, &d0, &d1);
        kr->pack_a(&op, o + i0, rows, o + d0, (int)(d1 - d0), 1.0, kr->mr, plan);
        mask_diagonal(t, i0, rows, d0, kr->mr, plan);
        plan += (d1 - d0) * kr->mr;
    }
}

/* B's s x n (n <= LEVEL3_CHUNK) becomes op(A) B: read packed, so writing a
 * block's rows in place disturbs no other block. */
static void multiply_columns(const gemm_kernel *kr, const tri_view *t, tela_int s,
                             const double *plan, tela_int n, double *b, tela_int ldb,
                             double *packed_b)
{
    const int mr = kr->mr, nr = kr->nr, panels = (int)((n + nr - 1) / nr);
    const gemm_operand x = {b, ldb, false};
    kr->pack_b(&x, 0, (int)s, 0, (int)n, 0, panels, nr, packed_b);
    for (tela_int i0 = 0; i0 < s; i0 += mr) {
        const int rows = s - i0 < mr ? (int)(s - i0) : mr;
        tela_int d0, d1;
        block_span(t, s, i0, rows, &d0, &d1);
        const int k = (int)(d1 - d0);
        for (int jp = 0; jp < panels; jp++) {
            const int cols = n - (tela_int)jp * nr < nr ? (int)(n - (tela_int)jp * nr) : nr;
            const double *bp = packed_b + (ptrdiff_t)jp * nr * s + d0 * nr;
            double *c = b + i0 + (ptrdiff_t)jp * nr * ldb;
            if (rows == mr && cols == nr)
                kr->ukernel(k, plan, bp, c, ldb, 0.0);
            else
                gemm_edge_tile(kr, k, plan, bp, c, ldb, rows, cols, 0.0, GEMM_ALL, 0, 0);
        }
        plan += (ptrdiff_t)k * mr;
    }
}

typedef struct multiply_job {
    const tri_view *t;
    tela_int o, s, n;
    tela_int width; /* columns a chunk */
    double *b;
    tela_int ldb;
} multiply_job;

/* A member's chunks [from, to) of width columns: the triangle packed once
 * for all of them, into the member's buffer. */
static void multiply_chunks(const level3_ctx *ctx, tela_int from, tela_int to, void *arg)
{
    const multiply_job *job = arg;
    const gemm_kernel *kr = gemm_kernel_get();
    double *plan = ctx->buf, *packed_b = ctx->buf + plan_len(kr, job->s);
    pack_plan(kr, job->t, job->o, job->s, plan);
    for (tela_int c = from; c < to; c++) {
        const tela_int j = c * job->width, cols = job->n - j < job->width ? job->n - j : job->width;
        multiply_columns(kr, job->t, job->s, plan, cols, job->b + j * job->ldb, job->ldb, packed_b);
    }
}

bool level3_multiply_left(tela_par par, const tri_view *t, tela_int o, tela_int s, tela_int n,
                          double *b, tela_int ldb)
{
    if (s <= LEVEL3_BASE || s > LEVEL3_CHUNK_TRI)
        return false;
    /* Chunks of LEVEL3_CHUNK columns; fewer columns go by panels, so two
     * members can share them too. A column's arithmetic is the same in
     * any chunk and on any member (edge tiles add through a buffer as
     * whole tiles do): the bits depend on neither. */
    const gemm_kernel *kr = gemm_kernel_get();
    multiply_job job = {t, o, s, n, n > LEVEL3_CHUNK ? LEVEL3_CHUNK : kr->nr, b, ldb};
    const size_t need = multiply_len(s);
    const tela_int chunks = (n + job.width - 1) / job.width;
    if (chunks > 1)
        return level3_chunks_if_buffers(par, "dtrmm", chunks, par_tri_estimate_ns(s, n), need,
                                        multiply_chunks, &job);
    bool owned = false;
    double *buf = gemm_buffer_get(need, &owned);
    if (!buf)
        return false;
    const level3_ctx here = {par, true, buf, need};
    multiply_chunks(&here, 0, 1, &job);
    if (owned)
        free(buf);
    return true;
}
