/* syr2.c — tela_dsyr2: A = alpha (x y^T + y x^T) + A on the uplo triangle.
 *
 * Members split the triangle's columns by the elements they hold; column j gets
 * x (alpha y_j) + y (alpha x_j), each term fused, in reference's order. As reference BLAS 3.11, a
 * column with x_j = y_j = 0 is left as it is. Strided vectors are gathered LEVEL2_CHUNK rows at a
 * time on the stack; an element's arithmetic is the same either way. */
#include "level2/level2.h"

typedef struct syr2_job {
    const level2_kernels *kr;
    bool upper;
    tela_int n;
    double alpha;
    const double *x, *y; /* element 0 */
    tela_int incx, incy;
    double *a;
    tela_int lda;
} syr2_job;

/* Columns [c0, c1), rows [r0, r1) of them, x's and y's rows there at xr and yr. */
static void syr2_piece(const syr2_job *job, tela_int c0, tela_int c1, tela_int r0, tela_int r1,
                       const double *xr, const double *yr)
{
    for (tela_int j = c0; j < c1; j++) {
        const double xj = job->x[j * job->incx], yj = job->y[j * job->incy];
        tela_int from, to;
        level2_column_rows(job->upper, job->n, j, &from, &to);
        from = from > r0 ? from : r0;
        to = to < r1 ? to : r1;
        if ((xj != 0.0 || yj != 0.0) && from < to)
            job->kr->axpy2(to - from, job->alpha * yj, xr + (from - r0), job->alpha * xj,
                           yr + (from - r0), job->a + from + j * job->lda);
    }
}

static void syr2_body(tela_member *self, void *arg)
{
    const syr2_job *job = arg;
    const int r = tela_rank(self), w = tela_width(self);
    const tela_int c0 = level2_triangle_cut(job->n, job->upper, (double)r / w);
    const tela_int c1 = level2_triangle_cut(job->n, job->upper, (double)(r + 1) / w);
    if (job->incx == 1 && job->incy == 1) {
        syr2_piece(job, c0, c1, 0, job->n, job->x, job->y);
        return;
    }
    double xc[LEVEL2_CHUNK / 2], yc[LEVEL2_CHUNK / 2];
    for (tela_int r0 = 0; r0 < job->n; r0 += LEVEL2_CHUNK / 2) {
        const tela_int rows = job->n - r0 < LEVEL2_CHUNK / 2 ? job->n - r0 : LEVEL2_CHUNK / 2;
        level2_gather(rows, job->x + r0 * job->incx, job->incx, xc);
        level2_gather(rows, job->y + r0 * job->incy, job->incy, yc);
        syr2_piece(job, c0, c1, r0, r0 + rows, xc, yc);
    }
}

int tela_dsyr2(tela_par par, char uplo, tela_int n, double alpha, const double *x, tela_int incx,
               const double *y, tela_int incy, double *a, tela_int lda)
{
    bool upper;
    if (!level2_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -5;
    if (incy == 0)
        return -7;
    if (lda < (n > 1 ? n : 1))
        return -9;
    if (n == 0 || alpha == 0.0)
        return 0;
    if (!x)
        return -4;
    if (!y)
        return -6;
    if (!a)
        return -8;
    syr2_job job = {.kr = level2_kernels_get(),
                    .upper = upper,
                    .n = n,
                    .alpha = alpha,
                    .x = x + level2_origin(n, incx),
                    .y = y + level2_origin(n, incy),
                    .incx = incx,
                    .incy = incy,
                    .a = a,
                    .lda = lda};
    const double area = (double)n * (double)(n + 1) / 2.0;
    level2_run(par, "dsyr2", 2.0 * area + 2.0 * (double)n, 1, n, syr2_body, &job);
    return 0;
}
