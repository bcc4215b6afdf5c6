/* syr.c — tela_dsyr: A = alpha x x^T + A on the uplo triangle.
 *
 * Members split the triangle's columns by the elements they hold; each column is one fused axpy
 * of x. As reference BLAS 3.11, a column with x_j = 0 is left as it is. A strided x is gathered
 * LEVEL2_CHUNK rows at a time on the stack; an element's arithmetic is the same either way. */
#include "level2/level2.h"

typedef struct syr_job {
    const level2_kernels *kr;
    bool upper;
    tela_int n;
    double alpha;
    const double *x; /* element 0 */
    tela_int incx;
    double *a;
    tela_int lda;
} syr_job;

/* Columns [c0, c1), rows [r0, r1) of them, x's rows there at xr (contiguous). */
static void syr_piece(const syr_job *job, tela_int c0, tela_int c1, tela_int r0, tela_int r1,
                      const double *xr)
{
    for (tela_int j = c0; j < c1; j++) {
        const double xj = job->x[j * job->incx];
        tela_int from, to;
        level2_column_rows(job->upper, job->n, j, &from, &to);
        from = from > r0 ? from : r0;
        to = to < r1 ? to : r1;
        if (xj != 0.0 && from < to)
            job->kr->axpy(to - from, job->alpha * xj, xr + (from - r0),
                          job->a + from + j * job->lda);
    }
}

static void syr_body(tela_member *self, void *arg)
{
    const syr_job *job = arg;
    const int r = tela_rank(self), w = tela_width(self);
    const tela_int c0 = level2_triangle_cut(job->n, job->upper, (double)r / w);
    const tela_int c1 = level2_triangle_cut(job->n, job->upper, (double)(r + 1) / w);
    if (job->incx == 1) {
        syr_piece(job, c0, c1, 0, job->n, job->x);
        return;
    }
    double xc[LEVEL2_CHUNK];
    for (tela_int r0 = 0; r0 < job->n; r0 += LEVEL2_CHUNK) {
        const tela_int rows = job->n - r0 < LEVEL2_CHUNK ? job->n - r0 : LEVEL2_CHUNK;
        level2_gather(rows, job->x + r0 * job->incx, job->incx, xc);
        syr_piece(job, c0, c1, r0, r0 + rows, xc);
    }
}

int tela_dsyr(tela_par par, char uplo, tela_int n, double alpha, const double *x, tela_int incx,
              double *a, tela_int lda)
{
    bool upper;
    if (!level2_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -5;
    if (lda < (n > 1 ? n : 1))
        return -7;
    if (n == 0 || alpha == 0.0)
        return 0;
    if (!x)
        return -4;
    if (!a)
        return -6;
    syr_job job = {.kr = level2_kernels_get(),
                   .upper = upper,
                   .n = n,
                   .alpha = alpha,
                   .x = x + level2_origin(n, incx),
                   .incx = incx,
                   .a = a,
                   .lda = lda};
    const double area = (double)n * (double)(n + 1) / 2.0;
    level2_run(par, "dsyr", 2.0 * area + (double)n, 1, n, syr_body, &job);
    return 0;
}
