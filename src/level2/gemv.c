/* gemv.c — tela_dgemv: y = alpha op(A) x + beta y.
 *
 * 'N' splits y's rows among members: each streams its segment of every column past its part of y
 * (kept in L1, LEVEL2_CHUNK rows at a time). 'T' splits the columns: each y_j is one column's dot
 * product, summed in an order fixed by m. Neither split changes an element's arithmetic, so
 * every width gives the same bits. As reference BLAS 3.11, no column is skipped for x_j = 0:
 * an Inf or NaN in A reaches y whatever x holds. */
#include "level2/level2.h"

/* Rows per member at least, for 'N': fewer cannot pay for a member's wake. */
#define GEMV_ROWS_PER_MEMBER 64
/* Columns per member at least, for 'T'. */
#define GEMV_COLUMNS_PER_MEMBER 8

typedef struct gemv_job {
    const level2_kernels *kr;
    bool trans;
    tela_int m, n;
    double alpha, beta;
    const double *a;
    tela_int lda;
    const double *x; /* element 0 */
    tela_int incx;
    double *y; /* element 0 */
    tela_int incy;
} gemv_job;

/* Rows [r0, r1) of y = beta y + alpha A x. */
static void gemv_n_rows(const gemv_job *job, tela_int r0, tela_int r1)
{
    level2_gemv_n(job->kr, r1 - r0, job->n, job->alpha, job->a + r0, job->lda, job->x, job->incx,
                  NULL, false, job->beta, job->y + r0 * job->incy, job->incy);
}

/* y_j = beta y_j + alpha (column j . x) for columns [c0, c1). */
static void gemv_t_columns(const gemv_job *job, tela_int c0, tela_int c1)
{
    double dots[LEVEL2_DOTS];
    for (tela_int j0 = c0; j0 < c1; j0 += LEVEL2_DOTS) {
        const tela_int cols = c1 - j0 < LEVEL2_DOTS ? c1 - j0 : LEVEL2_DOTS;
        level2_gemv_t(job->kr, job->m, cols, job->a + j0 * job->lda, job->lda, job->x, job->incx,
                      dots);
        for (tela_int k = 0; k < cols; k++) {
            double *yj = job->y + (j0 + k) * job->incy;
            const double scaled = job->beta == 0.0 ? 0.0 : job->beta == 1.0 ? *yj : job->beta * *yj;
            *yj = scaled + job->alpha * dots[k];
        }
    }
}

static void gemv_body(tela_member *self, void *arg)
{
    const gemv_job *job = arg;
    const tela_int r = tela_rank(self), w = tela_width(self);
    if (job->trans) {
        gemv_t_columns(job, job->n * r / w, job->n * (r + 1) / w);
    } else {
        /* Whole vectors of 8 rows each: members never share a cache line of y. */
        const tela_int units = (job->m + 7) / 8;
        const tela_int r0 = 8 * (units * r / w), r1 = 8 * (units * (r + 1) / w);
        gemv_n_rows(job, r0, r1 < job->m ? r1 : job->m);
    }
}

int tela_dgemv(tela_par par, char trans, tela_int m, tela_int n, double alpha, const double *a,
               tela_int lda, const double *x, tela_int incx, double beta, double *y, tela_int incy)
{
    bool t;
    if (!level2_trans(trans, &t))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (lda < (m > 1 ? m : 1))
        return -6;
    if (incx == 0)
        return -8;
    if (incy == 0)
        return -11;
    if (m == 0 || n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !a)
        return -5;
    if (alpha != 0.0 && !x)
        return -7;
    if (!y)
        return -10;
    const tela_int lenx = t ? m : n, leny = t ? n : m;
    double *y0 = y + level2_origin(leny, incy);
    if (alpha == 0.0) {
        level2_scale(leny, beta, y0, incy);
        return 0;
    }
    gemv_job job = {.kr = level2_kernels_get(),
                    .trans = t,
                    .m = m,
                    .n = n,
                    .alpha = alpha,
                    .beta = beta,
                    .a = a,
                    .lda = lda,
                    .x = x + level2_origin(lenx, incx),
                    .incx = incx,
                    .y = y0,
                    .incy = incy};
    const tela_int members =
        t ? n / GEMV_COLUMNS_PER_MEMBER : (m + GEMV_ROWS_PER_MEMBER - 1) / GEMV_ROWS_PER_MEMBER;
    level2_run(par, "dgemv", (double)m * (double)n + (double)lenx + 2.0 * (double)leny, 1, members,
               gemv_body, &job);
    return 0;
}
