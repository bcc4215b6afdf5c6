/* trmv.c — tela_dtrmv: x = op(A) x, A triangular.
 *
 * Every new x_i is a sum of old values, so members need no order between them: A is cut into
 * diagonal blocks of LEVEL2_TRI_BLOCK, and each member owns whole blocks of rows ('N') or columns
 * ('T') of the result, reading the old x from a copy. A serial run needs no copy: it takes the
 * blocks in an order that reads only what is not yet overwritten, with the same arithmetic.
 *   'N': the column blocks one after the other, each adding its columns' terms to the owned rows
 *        before it (level2_gemv_n down long column segments), then its own triangle;
 *   'T': each owned column block's dots with the rows outside its triangle (level2_gemv_t),
 *        plus its triangle.
 * As reference BLAS 3.11, 'N' leaves out every column with x_j = 0 (an Inf or NaN there does not
 * reach x, nor does a(j, j)); 'T' leaves out nothing. */
#include "level2/level2.h"

#define TB LEVEL2_TRI_BLOCK

typedef struct trmv_job {
    const level2_kernels *kr;
    bool upper, trans, unit;
    tela_int n, blocks;
    const double *a;
    tela_int lda;
    double *x; /* element 0, written */
    tela_int incx;
    const double *old; /* element 0 of the old x: a contiguous copy, or x itself */
    tela_int old_inc;
} trmv_job;

static const double *at(const trmv_job *job, tela_int i, tela_int j)
{
    return job->a + i + j * job->lda;
}

/* Block k's rows or columns [*k0, *k1). */
static void block_bounds(const trmv_job *job, tela_int k, tela_int *k0, tela_int *k1)
{
    *k0 = k * TB;
    *k1 = *k0 + TB < job->n ? *k0 + TB : job->n;
}

/* Columns of a diagonal block taken together in 'T': their dots with the block's rows outside
 * their own small triangle go through the kernel at once. */
#define TRMV_SUB 8

/* 'T', columns [s0, s1) of the block at k0 from the old values xb: each column's diagonal term,
 * its terms in the small triangle (nearest first, as reference), then the rest of the block's
 * rows on its side (above for upper, below for lower). */
static void triangle_columns_t(const trmv_job *job, tela_int k0, tela_int kb, tela_int s0,
                               tela_int s1, const double *xb, double *yb)
{
    double d[TRMV_SUB];
    const tela_int from = job->upper ? 0 : s1, to = job->upper ? s0 : kb;
    if (to > from)
        job->kr->gemv_t(to - from, s1 - s0, at(job, k0 + from, k0 + s0), job->lda, xb + from, NULL,
                        NULL, d);
    for (tela_int j = s0; j < s1; j++) {
        const double *col = at(job, k0, k0 + j);
        double t = job->unit ? xb[j] : xb[j] * col[j];
        if (job->upper) {
            for (tela_int i = j - 1; i >= s0; i--)
                t += col[i] * xb[i];
        } else {
            for (tela_int i = j + 1; i < s1; i++)
                t += col[i] * xb[i];
        }
        yb[j] = to > from ? t + d[j - s0] : t;
    }
}

/* The new values of block [k0, k0 + kb) from its triangle alone, from the old ones xb into yb.
 * 'N': column by column in reference's order, each column's terms an axpy. 'T': TRMV_SUB columns
 * at a time (triangle_columns_t). */
static void trmv_triangle(const trmv_job *job, tela_int k0, tela_int kb, const double *xb,
                          double *yb)
{
    if (job->trans) {
        for (tela_int s0 = 0; s0 < kb; s0 += TRMV_SUB)
            triangle_columns_t(job, k0, kb, s0, s0 + TRMV_SUB < kb ? s0 + TRMV_SUB : kb, xb, yb);
        return;
    }
    for (tela_int q = 0; q < kb; q++) {
        /* Upper from the first column, lower from the last. */
        const tela_int j = job->upper ? q : kb - 1 - q;
        const double *col = at(job, k0, k0 + j);
        const double t = xb[j];
        if (t == 0.0) {
            yb[j] = t;
            continue;
        }
        if (job->upper)
            job->kr->axpy(j, t, col, yb);
        else
            job->kr->axpy(kb - 1 - j, t, col + j + 1, yb + j + 1);
        yb[j] = job->unit ? t : t * col[j];
    }
}

/* Block k's triangle: its rows of x become their triangle's part of the product. */
static void triangle_block(const trmv_job *job, tela_int k, double *dots)
{
    tela_int k0, k1;
    block_bounds(job, k, &k0, &k1);
    double xb[TB], yb[TB];
    level2_gather(k1 - k0, job->old + k0 * job->old_inc, job->old_inc, xb);
    trmv_triangle(job, k0, k1 - k0, xb, yb);
    if (dots)
        for (tela_int j = 0; j < k1 - k0; j++)
            yb[j] += dots[j];
    level2_scatter(k1 - k0, yb, job->x + k0 * job->incx, job->incx);
}

/* 'N', blocks [b0, b1) of rows owned: column block after column block, upper from the first
 * (its terms go to the rows above it), lower from the last. */
static void trmv_rows(const trmv_job *job, tela_int b0, tela_int b1)
{
    for (tela_int q = 0; q < job->blocks; q++) {
        const tela_int k = job->upper ? q : job->blocks - 1 - q;
        tela_int k0, k1, r0, r1;
        block_bounds(job, k, &k0, &k1);
        r0 = job->upper ? b0 * TB : (b0 > k + 1 ? b0 : k + 1) * TB;
        r1 = job->upper ? (b1 < k ? b1 : k) * TB : b1 * TB;
        r1 = r1 < job->n ? r1 : job->n;
        if (r1 > r0)
            level2_gemv_n(job->kr, r1 - r0, k1 - k0, 1.0, at(job, r0, k0), job->lda,
                          job->old + k0 * job->old_inc, job->old_inc, NULL, true, 1.0,
                          job->x + r0 * job->incx, job->incx);
        if (k >= b0 && k < b1)
            triangle_block(job, k, NULL);
    }
}

/* 'T', block k of columns: its dots with the old x outside its triangle, plus its triangle. */
static void trmv_columns_block(const trmv_job *job, tela_int k)
{
    tela_int k0, k1;
    block_bounds(job, k, &k0, &k1);
    const tela_int r0 = job->upper ? 0 : k1, r1 = job->upper ? k0 : job->n;
    double dots[TB];
    if (r1 > r0)
        level2_gemv_t(job->kr, r1 - r0, k1 - k0, at(job, r0, k0), job->lda,
                      job->old + r0 * job->old_inc, job->old_inc, dots);
    triangle_block(job, k, r1 > r0 ? dots : NULL);
}

static void trmv_body(tela_member *self, void *arg)
{
    const trmv_job *job = arg;
    const int r = tela_rank(self), w = tela_width(self);
    /* Equal shares of the triangle: rows of 'N' upper and columns of 'T' lower hold fewer
     * elements the further they are. */
    const bool shrinking = job->upper != job->trans;
    const tela_int b0 = (level2_triangle_cut(job->n, !shrinking, (double)r / w) + TB / 2) / TB;
    const tela_int b1 =
        r + 1 == w ? job->blocks
                   : (level2_triangle_cut(job->n, !shrinking, (double)(r + 1) / w) + TB / 2) / TB;
    if (!job->trans) {
        trmv_rows(job, b0, b1);
        return;
    }
    /* In place, 'T' upper reads the rows above each block: from the last block. */
    for (tela_int q = b0; q < b1; q++)
        trmv_columns_block(job, job->upper ? b1 - 1 - (q - b0) : q);
}

int tela_dtrmv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *a,
               tela_int lda, double *x, tela_int incx)
{
    bool upper, t, unit;
    const int info = level2_triangle_args(uplo, trans, diag, n, a, lda, x, incx, &upper, &t, &unit);
    if (info != 0 || n == 0)
        return info;
    double *x0 = x + level2_origin(n, incx);
    trmv_job job = {.kr = level2_kernels_get(),
                    .upper = upper,
                    .trans = t,
                    .unit = unit,
                    .n = n,
                    .blocks = (n + TB - 1) / TB,
                    .a = a,
                    .lda = lda,
                    .x = x0,
                    .incx = incx,
                    .old = x0,
                    .old_inc = incx};
    const double elements = (double)n * (double)(n + 1) / 2.0 + 3.0 * (double)n;
    /* A copy of the old x only when members could share the blocks. */
    bool owned = false;
    double *copy = NULL;
    if (job.blocks > 1 && par_may_split(par, par_stream_estimate_ns(elements)))
        copy = par_scratch_region(par, PAR_SCRATCH_PACK, sizeof(double) * (size_t)n, &owned);
    if (copy) {
        level2_gather(n, x0, incx, copy);
        job.old = copy;
        job.old_inc = 1;
        level2_run(par, "dtrmv", elements, 1, job.blocks, trmv_body, &job);
    } else {
        par_region_run_serial(trmv_body, &job);
    }
    par_scratch_release(copy, owned);
    return 0;
}
