/* symv.c — tela_dsymv: y = alpha A x + beta y, A symmetric, its uplo triangle read once.
 *
 * One pass: each stored a(i, j) is loaded once and used twice, for y_i += a(i, j) x_j and in
 * column j's dot product (the reference reads the triangle once too, but one element at a time;
 * the kernels take a vector's width of columns per pass, 8 with AVX-512). Every y_i gathers terms
 * from many columns, so members cannot split the columns without an order to add their parts in:
 * the columns are cut into blocks fixed by n alone (equal parts of the triangle), each block sums
 * its terms into its own partial vector, and y = beta y + alpha (partials added in block order).
 * The serial path runs the same blocks, so every width gives the same bits. Small problems (one
 * block) skip the partials: y is scaled and the kernel adds alpha's terms to it directly. */
#include "level2/level2.h"

#include <string.h>

/* Elements of the triangle per block, at least: below two blocks' worth, one block and no
 * partials (n <= 511). */
#define SYMV_BLOCK_AREA 65536
/* Most blocks: partials cost a pass of n each to clear and to add up. */
#define SYMV_BLOCKS_MAX 16
/* The one-block path keeps x and y on the stack when strided: n < this. */
#define SYMV_STACK_N 512

typedef struct symv_job {
    const level2_kernels *kr;
    bool upper;
    tela_int n;
    int blocks;
    tela_int cut[SYMV_BLOCKS_MAX + 1]; /* block b holds columns cut[b] .. cut[b + 1] - 1 */
    const double *a;
    tela_int lda;
    const double *x;  /* contiguous */
    double *partials; /* block b's at partials + b * stride, row i at [i] */
    tela_int stride;
} symv_job;

static int symv_blocks(tela_int n)
{
    const double blocks = (double)n * (double)(n + 1) / 2.0 / SYMV_BLOCK_AREA;
    return blocks < 1.0 ? 1 : blocks > SYMV_BLOCKS_MAX ? SYMV_BLOCKS_MAX : (int)blocks;
}

/* Rows block b's columns touch: above and on its diagonal (upper), or on and below it. */
static void block_rows(const symv_job *job, int b, tela_int *from, tela_int *to)
{
    *from = job->upper ? 0 : job->cut[b];
    *to = job->upper ? job->cut[b + 1] : job->n;
}

static void symv_body(tela_member *self, void *arg)
{
    const symv_job *job = arg;
    const int r = tela_rank(self), w = tela_width(self);
    for (int b = job->blocks * r / w; b < job->blocks * (r + 1) / w; b++) {
        tela_int from, to;
        block_rows(job, b, &from, &to);
        double *p = job->partials + b * job->stride;
        memset(p + from, 0, sizeof(double) * (size_t)(to - from));
        /* The rows the block's columns reach decide prefetching. */
        if (job->upper)
            job->kr->symv_upper(job->cut[b], job->cut[b + 1], 1.0, job->a, job->lda, job->x, p,
                                level2_symv_streams(job->cut[b + 1]));
        else
            job->kr->symv_lower(job->n, job->cut[b], job->cut[b + 1], 1.0, job->a, job->lda, job->x,
                                p + from, level2_symv_streams(job->n));
    }
}

/* y = beta y + alpha (the partials of the blocks touching each row, in block order). */
static void symv_combine(const symv_job *job, double alpha, double beta, double *y, tela_int incy)
{
    for (int s = 0; s < job->blocks; s++) {
        /* Rows cut[s] .. cut[s + 1] - 1 are touched by blocks s .. last (upper) or 0 .. s. */
        const tela_int from = job->cut[s], to = job->cut[s + 1];
        const int first = job->upper ? s : 0, last = job->upper ? job->blocks - 1 : s;
        double *sum = job->partials + first * job->stride;
        for (int b = first + 1; b <= last; b++) {
            const double *p = job->partials + b * job->stride;
            for (tela_int i = from; i < to; i++)
                sum[i] += p[i];
        }
        for (tela_int i = from; i < to; i++) {
            double *yi = y + i * incy;
            const double scaled = beta == 0.0 ? 0.0 : beta == 1.0 ? *yi : beta * *yi;
            *yi = scaled + alpha * sum[i];
        }
    }
}

/* Reference DSYMV's loops, for a call whose scratch cannot be had (inside a region, a huge n or
 * a held team's own region): strided, no buffer. Not the blocked path's bits. */
static void symv_unbuffered(bool upper, tela_int n, double alpha, const double *a, tela_int lda,
                            const double *x, tela_int incx, double *y, tela_int incy)
{
    for (tela_int j = 0; j < n; j++) {
        const double t1 = alpha * x[j * incx];
        const double *col = a + j * lda;
        double t2 = 0.0;
        if (upper) {
            for (tela_int i = 0; i < j; i++) {
                y[i * incy] += t1 * col[i];
                t2 += col[i] * x[i * incx];
            }
            y[j * incy] += t1 * col[j] + alpha * t2;
        } else {
            y[j * incy] += t1 * col[j];
            for (tela_int i = j + 1; i < n; i++) {
                y[i * incy] += t1 * col[i];
                t2 += col[i] * x[i * incx];
            }
            y[j * incy] += alpha * t2;
        }
    }
}

/* One block: y scaled, then the kernel's terms added to it, on contiguous copies if strided. */
static void symv_direct(const level2_kernels *kr, bool upper, tela_int n, double alpha,
                        const double *a, tela_int lda, const double *x, tela_int incx, double beta,
                        double *y, tela_int incy)
{
    double xc[SYMV_STACK_N], yc[SYMV_STACK_N];
    const double *xs = x;
    double *ys = y;
    if (incx != 1) {
        level2_gather(n, x, incx, xc);
        xs = xc;
    }
    if (incy != 1) {
        level2_gather(n, y, incy, yc);
        ys = yc;
    }
    level2_scale(n, beta, ys, 1);
    if (upper)
        kr->symv_upper(0, n, alpha, a, lda, xs, ys, level2_symv_streams(n));
    else
        kr->symv_lower(n, 0, n, alpha, a, lda, xs, ys, level2_symv_streams(n));
    if (incy != 1)
        level2_scatter(n, yc, y, incy);
}

int tela_dsymv(tela_par par, char uplo, tela_int n, double alpha, const double *a, tela_int lda,
               const double *x, tela_int incx, double beta, double *y, tela_int incy)
{
    bool upper;
    if (!level2_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (lda < (n > 1 ? n : 1))
        return -5;
    if (incx == 0)
        return -7;
    if (incy == 0)
        return -10;
    if (n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !a)
        return -4;
    if (alpha != 0.0 && !x)
        return -6;
    if (!y)
        return -9;
    const double *x0 = x + level2_origin(n, incx);
    double *y0 = y + level2_origin(n, incy);
    if (alpha == 0.0) {
        level2_scale(n, beta, y0, incy);
        return 0;
    }
    const level2_kernels *kr = level2_kernels_get();
    const int blocks = symv_blocks(n);
    if (blocks == 1) {
        symv_direct(kr, upper, n, alpha, a, lda, x0, incx, beta, y0, incy);
        return 0;
    }
    symv_job job = {.kr = kr, .upper = upper, .n = n, .blocks = blocks, .a = a, .lda = lda};
    /* Cuts on multiples of 8 columns: the kernels' groups of columns, and the vectors of rows
     * they store, stay aligned from block to block. Each block is wider than 8 (blocks > 1
     * needs n > 511), so none is empty. */
    for (int b = 0; b <= blocks; b++)
        job.cut[b] =
            b == blocks ? n : (level2_triangle_cut(n, upper, (double)b / blocks) + 4) / 8 * 8;
    job.stride = (n + 7) / 8 * 8;
    const size_t doubles = (size_t)blocks * (size_t)job.stride + (incx != 1 ? (size_t)n : 0);
    bool owned;
    double *scratch = par_scratch_region(par, PAR_SCRATCH_PACK, doubles * sizeof(double), &owned);
    if (!scratch) {
        level2_scale(n, beta, y0, incy);
        symv_unbuffered(upper, n, alpha, a, lda, x0, incx, y0, incy);
        return 0;
    }
    job.partials = scratch;
    job.x = x0;
    if (incx != 1) {
        double *xc = scratch + (size_t)blocks * (size_t)job.stride;
        level2_gather(n, x0, incx, xc);
        job.x = xc;
    }
    const double area = (double)n * (double)(n + 1) / 2.0;
    level2_run(par, "dsymv", area + (2.0 + blocks) * (double)n, 1, blocks, symv_body, &job);
    symv_combine(&job, alpha, beta, y0, incy);
    par_scratch_release(scratch, owned);
    return 0;
}
