/* trsv.c — tela_dtrsv: solves op(A) x = b in place, A triangular.
 *
 * Blocked by LEVEL2_TRI_BLOCK diagonal blocks, taken in the order the solve needs (from the
 * first for 'N' lower and 'T' upper, from the last otherwise). A diagonal block is solved
 * TRSV_SUB columns at a time, their own triangle column by column in reference's order and
 * their terms for the block's other rows through the kernels; the rest is rectangular and
 * streamed down columns:
 *   'N' (right-looking): once a block is solved, the rows still to solve get its columns'
 *       terms (level2_gemv_n), rows shared among members;
 *   'T' (left-looking): before a block is solved, its columns' dots with the solved part
 *       (level2_gemv_t), columns shared among members.
 * One region, one barrier per block: member 0 works on the critical path (the next block's
 * share of the latest terms and its solve) while the others, and then member 0, do the rest
 * of the rectangle. Each element's terms are added in block order with each block's arithmetic
 * fixed by n, so every width gives the same bits. As reference BLAS 3.11, 'N' leaves out a
 * column whose x_j is 0 when reached (no division by a(j, j), no terms from that column). */
#include "level2/level2.h"

#define TB LEVEL2_TRI_BLOCK

typedef struct trsv_job {
    const level2_kernels *kr;
    bool upper, trans, unit;
    bool forward; /* blocks solved from the first */
    tela_int n, blocks;
    const double *a;
    tela_int lda;
    double *x; /* element 0 */
    tela_int incx;
    /* Shared between steps, two sets used alternately: what member 0 writes for the next block
     * while the others read the current one's. */
    unsigned char skip[2][TB]; /* 'N': columns of a solved block left out */
    double partial[2][TB];     /* 'T': a block's dots with all solved rows but the last block's */
} trsv_job;

/* Rows (and columns) of the block solved at step position p. */
static void block_at(const trsv_job *job, tela_int p, tela_int *k0, tela_int *k1)
{
    const tela_int k = job->forward ? p : job->blocks - 1 - p;
    *k0 = k * TB;
    *k1 = *k0 + TB < job->n ? *k0 + TB : job->n;
}

/* Rows of the blocks solved after position p: below it (forward) or above. */
static void rows_after(const trsv_job *job, tela_int p, tela_int *r0, tela_int *r1)
{
    tela_int k0, k1;
    block_at(job, p, &k0, &k1);
    *r0 = job->forward ? k1 : 0;
    *r1 = job->forward ? job->n : k0;
}

/* Rows of the blocks solved at positions 0 .. p. */
static void rows_through(const trsv_job *job, tela_int p, tela_int *r0, tela_int *r1)
{
    tela_int k0, k1;
    block_at(job, p, &k0, &k1);
    *r0 = job->forward ? 0 : k0;
    *r1 = job->forward ? k1 : job->n;
}

static const double *at(const trsv_job *job, tela_int i, tela_int j)
{
    return job->a + i + j * job->lda;
}

/* Columns of a diagonal block solved together: their own small triangle is scalar, and their
 * terms for the block's other rows go through the kernel at once (a gemv 'N', or in 'T' their
 * dots with the rows solved before them). */
#define TRSV_SUB 8

/* 'T': solves columns [s0, s1) of the diagonal block at k0 (xb its rows, dots NULL or the
 * columns' dots with the rows of the blocks solved before), given the block's rows solved so
 * far: above them (upper) or below. */
static void solve_columns_t(const trsv_job *job, tela_int k0, tela_int kb, tela_int s0, tela_int s1,
                            const double *dots, double *xb)
{
    double d[TRSV_SUB];
    const tela_int from = job->upper ? 0 : s1, to = job->upper ? s0 : kb;
    if (to > from)
        job->kr->gemv_t(to - from, s1 - s0, at(job, k0 + from, k0 + s0), job->lda, xb + from, NULL,
                        NULL, d);
    for (tela_int q = 0; q < s1 - s0; q++) {
        const tela_int j = job->upper ? s0 + q : s1 - 1 - q;
        const double *col = at(job, k0, k0 + j);
        double t = dots ? xb[j] - dots[j] : xb[j];
        if (to > from)
            t -= d[j - s0];
        if (job->upper) {
            for (tela_int i = s0; i < j; i++)
                t -= col[i] * xb[i];
        } else {
            for (tela_int i = s1 - 1; i > j; i--)
                t -= col[i] * xb[i];
        }
        xb[j] = job->unit ? t : t / col[j];
    }
}

/* 'N': solves columns [s0, s1) of the diagonal block at k0 (xb its rows) in reference's order,
 * their terms into the rows among them only; the columns left out (x_j = 0) recorded in skip.
 * Column by column into all the block's rows, an axpy call each, the next column waited for the
 * last one's call: upper 128 took 2.9-3.1 us on the Xeon, 2.4-2.6 so (OpenBLAS 2.2). */
static void solve_columns_n(const trsv_job *job, tela_int k0, tela_int s0, tela_int s1, double *xb,
                            unsigned char *skip)
{
    for (tela_int c = 0; c < s1 - s0; c++) {
        const tela_int j = job->upper ? s1 - 1 - c : s0 + c;
        const double *col = at(job, k0, k0 + j);
        skip[j] = xb[j] == 0.0;
        if (skip[j])
            continue;
        if (!job->unit)
            xb[j] /= col[j];
        const tela_int i0 = job->upper ? s0 : j + 1, i1 = job->upper ? j : s1;
        for (tela_int i = i0; i < i1; i++)
            xb[i] -= xb[j] * col[i];
    }
}

/* Solves the diagonal block [k0, k1) in place, on a copy on the stack. 'N': TRSV_SUB columns at a
 * time (solve_columns_n), then their terms into the block's rows past them; the columns left out
 * recorded in skip. 'T': TRSV_SUB columns at a time (solve_columns_t); dots (NULL: none) are the
 * columns' dots with the rows of the blocks solved before. */
static void solve_block(const trsv_job *job, tela_int k0, tela_int k1, const double *dots,
                        unsigned char *skip)
{
    const level2_kernels *kr = job->kr;
    const tela_int kb = k1 - k0;
    double xb[TB];
    level2_gather(kb, job->x + k0 * job->incx, job->incx, xb);
    if (job->trans) {
        for (tela_int q = 0; q < kb; q += TRSV_SUB) {
            const tela_int s0 = job->upper ? q : (kb - q - TRSV_SUB > 0 ? kb - q - TRSV_SUB : 0);
            const tela_int s1 = job->upper ? (q + TRSV_SUB < kb ? q + TRSV_SUB : kb) : kb - q;
            solve_columns_t(job, k0, kb, s0, s1, dots, xb);
        }
    } else {
        for (tela_int q = 0; q < kb; q += TRSV_SUB) {
            const tela_int s0 = job->upper ? (kb - q - TRSV_SUB > 0 ? kb - q - TRSV_SUB : 0) : q;
            const tela_int s1 = job->upper ? kb - q : (q + TRSV_SUB < kb ? q + TRSV_SUB : kb);
            solve_columns_n(job, k0, s0, s1, xb, skip);
            /* The block's rows past these columns get their terms by one gemv. */
            if (job->upper && s0 > 0)
                level2_gemv_n(kr, s0, s1 - s0, -1.0, at(job, k0, k0 + s0), job->lda, xb + s0, 1,
                              skip + s0, false, 1.0, xb, 1);
            else if (!job->upper && kb > s1)
                level2_gemv_n(kr, kb - s1, s1 - s0, -1.0, at(job, k0 + s1, k0 + s0), job->lda,
                              xb + s0, 1, skip + s0, false, 1.0, xb + s1, 1);
        }
    }
    level2_scatter(kb, xb, job->x + k0 * job->incx, job->incx);
}

/* 'N': rows [r0, r1) of x -= A(rows, block [k0, k1)) x(block), its left-out columns skipped. */
static void subtract_block(const trsv_job *job, tela_int k0, tela_int k1, const unsigned char *skip,
                           tela_int r0, tela_int r1)
{
    if (r1 <= r0)
        return;
    level2_gemv_n(job->kr, r1 - r0, k1 - k0, -1.0, at(job, r0, k0), job->lda,
                  job->x + k0 * job->incx, job->incx, skip, false, 1.0, job->x + r0 * job->incx,
                  job->incx);
}

/* dots[j] for columns [c0, c1): their dots with x over rows [r0, r1). */
static void column_dots(const trsv_job *job, tela_int c0, tela_int c1, tela_int r0, tela_int r1,
                        double *dots)
{
    if (c1 > c0)
        level2_gemv_t(job->kr, r1 - r0, c1 - c0, at(job, r0, c0), job->lda, job->x + r0 * job->incx,
                      job->incx, dots);
}

/* Member r's part [*u0, *u1) of units units of work of cost each, member 0 already holding
 * `fixed` besides: equal totals where the shares allow. */
static void share(tela_int units, double cost, double fixed, int r, int w, tela_int *u0,
                  tela_int *u1)
{
    const double mine = ((double)units * cost + fixed) / w;
    tela_int first = w == 1 ? units : (tela_int)((mine - fixed) / cost);
    first = first < 0 ? 0 : first > units ? units : first;
    if (r == 0 || w == 1) {
        *u0 = 0;
        *u1 = first;
    } else {
        *u0 = first + (units - first) * (r - 1) / (w - 1);
        *u1 = first + (units - first) * r / (w - 1);
    }
}

/* Step p (-1 .. blocks - 2), block p solved before it: solves block p + 1 and does the work
 * that block p + 2 needs besides block p + 1. */
static void step_n(trsv_job *job, tela_int p, int r, int w)
{
    tela_int k0, k1, n0, n1;
    block_at(job, p + 1, &n0, &n1);
    const unsigned char *skip = job->skip[p & 1];
    if (r == 0) {
        if (p >= 0) {
            block_at(job, p, &k0, &k1);
            subtract_block(job, k0, k1, skip, n0, n1);
        }
        solve_block(job, n0, n1, NULL, job->skip[(p + 1) & 1]);
    }
    if (p < 0)
        return;
    block_at(job, p, &k0, &k1);
    tela_int r0, r1, u0, u1;
    rows_after(job, p + 1, &r0, &r1);
    /* Member 0's block: the next block's terms and its solve, about 1.5 TB^2. Rows by 8. */
    const tela_int units = (r1 - r0 + 7) / 8;
    share(units, 8.0 * (double)(k1 - k0), 1.5 * TB * TB, r, w, &u0, &u1);
    const tela_int from = r0 + 8 * u0, to = r0 + 8 * u1 < r1 ? r0 + 8 * u1 : r1;
    subtract_block(job, k0, k1, skip, from, to);
}

static void step_t(trsv_job *job, tela_int p, int r, int w)
{
    tela_int k0, k1, n0, n1;
    block_at(job, p + 1, &n0, &n1);
    if (r == 0) {
        double dots[TB];
        const double *partial = job->partial[(p + 1) & 1];
        if (p >= 0) {
            block_at(job, p, &k0, &k1);
            column_dots(job, n0, n1, k0, k1, dots);
            if (p >= 1) /* the rows before block p too */
                for (tela_int j = 0; j < n1 - n0; j++)
                    dots[j] = partial[j] + dots[j];
        }
        solve_block(job, n0, n1, p >= 0 ? dots : NULL, NULL);
    }
    if (p < 0 || p + 2 >= job->blocks)
        return;
    /* Block p + 2's dots with the rows of blocks 0 .. p, its columns shared. */
    tela_int c0, c1, r0, r1, u0, u1;
    block_at(job, p + 2, &c0, &c1);
    rows_through(job, p, &r0, &r1);
    share(c1 - c0, (double)(r1 - r0), 1.5 * TB * TB, r, w, &u0, &u1);
    column_dots(job, c0 + u0, c0 + u1, r0, r1, job->partial[(p + 2) & 1] + u0);
}

static void trsv_body(tela_member *self, void *arg)
{
    trsv_job *job = arg;
    const int r = tela_rank(self), w = tela_width(self);
    for (tela_int p = -1; p + 1 < job->blocks; p++) {
        if (p >= 0)
            tela_barrier(self);
        if (job->trans)
            step_t(job, p, r, w);
        else
            step_n(job, p, r, w);
    }
}

int tela_dtrsv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *a,
               tela_int lda, double *x, tela_int incx)
{
    bool upper, t, unit;
    const int info = level2_triangle_args(uplo, trans, diag, n, a, lda, x, incx, &upper, &t, &unit);
    if (info != 0 || n == 0)
        return info;
    trsv_job job = {.kr = level2_kernels_get(),
                    .upper = upper,
                    .trans = t,
                    .unit = unit,
                    .forward = upper == t,
                    .n = n,
                    .blocks = (n + TB - 1) / TB,
                    .a = a,
                    .lda = lda,
                    .x = x + level2_origin(n, incx),
                    .incx = incx};
    const double elements = (double)n * (double)(n + 1) / 2.0 + 2.0 * (double)n;
    level2_run(par, "dtrsv", elements, (int)(job.blocks < (1 << 20) ? job.blocks : 1 << 20),
               job.blocks, trsv_body, &job);
    return 0;
}
