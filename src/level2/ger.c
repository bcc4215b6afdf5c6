/* ger.c — tela_dger: A = alpha x y^T + A.
 *
 * Members split the columns; each column is one fused axpy of x, streamed down once (read and
 * written). As reference BLAS 3.11, a column with y_j = 0 is left as it is, so an Inf or NaN in
 * x does not reach it. A strided x is gathered LEVEL2_CHUNK rows at a time on the stack. */
#include "level2/level2.h"

typedef struct ger_job {
    const level2_kernels *kr;
    tela_int m, n;
    double alpha;
    const double *x; /* element 0 */
    tela_int incx;
    const double *y; /* element 0 */
    tela_int incy;
    double *a;
    tela_int lda;
} ger_job;

static void ger_columns(const ger_job *job, tela_int c0, tela_int c1)
{
    if (job->incx == 1) {
        for (tela_int j = c0; j < c1; j++) {
            const double yj = job->y[j * job->incy];
            if (yj != 0.0)
                job->kr->axpy(job->m, job->alpha * yj, job->x, job->a + j * job->lda);
        }
        return;
    }
    double xc[LEVEL2_CHUNK];
    for (tela_int r0 = 0; r0 < job->m; r0 += LEVEL2_CHUNK) {
        const tela_int rows = job->m - r0 < LEVEL2_CHUNK ? job->m - r0 : LEVEL2_CHUNK;
        level2_gather(rows, job->x + r0 * job->incx, job->incx, xc);
        for (tela_int j = c0; j < c1; j++) {
            const double yj = job->y[j * job->incy];
            if (yj != 0.0)
                job->kr->axpy(rows, job->alpha * yj, xc, job->a + r0 + j * job->lda);
        }
    }
}

static void ger_body(tela_member *self, void *arg)
{
    const ger_job *job = arg;
    const tela_int r = tela_rank(self), w = tela_width(self);
    ger_columns(job, job->n * r / w, job->n * (r + 1) / w);
}

int tela_dger(tela_par par, tela_int m, tela_int n, double alpha, const double *x, tela_int incx,
              const double *y, tela_int incy, double *a, tela_int lda)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -5;
    if (incy == 0)
        return -7;
    if (lda < (m > 1 ? m : 1))
        return -9;
    if (m == 0 || n == 0 || alpha == 0.0)
        return 0;
    if (!x)
        return -4;
    if (!y)
        return -6;
    if (!a)
        return -8;
    ger_job job = {.kr = level2_kernels_get(),
                   .m = m,
                   .n = n,
                   .alpha = alpha,
                   .x = x + level2_origin(m, incx),
                   .incx = incx,
                   .y = y + level2_origin(n, incy),
                   .incy = incy,
                   .a = a,
                   .lda = lda};
    level2_run(par, "dger", 2.0 * (double)m * (double)n + (double)m + (double)n, 1, n, ger_body,
               &job);
    return 0;
}
