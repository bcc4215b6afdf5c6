/* dc_vectors.c — the second half of a merge (LAPACK's dlaed3): the k secular roots, then the
 * eigenvectors of D + rho w w^T by Gu and Eisenstat's method — w recomputed by Löwner's formula
 * from the roots, so the vectors built from it are numerically orthogonal however close the
 * roots — then the product of the halves' packed vectors with them by two tela_dgemm calls.
 * Roots, the recomputed w and the vectors are independent per root (per row for w), so one
 * gated region computes them on the team: each item's bits depend on nothing but the problem. */
#include "eig/eig.h"
#include "par/engine.h"

#include <assert.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>

/* The per-root work of a region (roots, Löwner's products, vectors) per entry of U, in units of
 * the GEMM rate: the iterations divide, far below GEMM's speed (measured here about 10 ns per
 * entry at k = 500, against a default rate of 0.01 ns per flop). */
#define DC_VECTOR_FLOPS_PER_ENTRY 1000.0

typedef struct vectors_job {
    tela_int k;
    double *d, *q;
    tela_int ldq;
    double rho;
    const double *dlambda;
    double *w, *w_saved;
    _Atomic int failed;
} vectors_job;

/* [begin, end) of count items for member rank of width: contiguous, in rank order. */
static void share(tela_int count, int rank, int width, tela_int *begin, tela_int *end)
{
    *begin = count * rank / width;
    *end = count * (rank + 1) / width;
}

static void roots(vectors_job *job, tela_int begin, tela_int end)
{
    for (tela_int j = begin; j < end; j++)
        if (eig_dc_secular_root(job->k, j, job->dlambda, job->w, job->q + j * job->ldq, job->rho,
                                job->d + j))
            atomic_store_explicit(&job->failed, 1, memory_order_relaxed);
}

/* Löwner: w_i^2 = prod_j (lambda_j - d_i) / prod_{j != i} (d_j - d_i), up to the factor 1/rho
 * that normalization removes; q(i, j) holds d_i - lambda_j. The sign is the old w_i's. Column
 * by column over the member's rows, so the reads run down q's columns; each product still
 * takes its factors in the order of j. */
static void recompute_w(vectors_job *job, tela_int begin, tela_int end)
{
    const tela_int k = job->k, ldq = job->ldq;
    const double *q = job->q, *dl = job->dlambda;
    double *w = job->w;
    for (tela_int i = begin; i < end; i++)
        w[i] = q[i + i * ldq];
    for (tela_int j = 0; j < k; j++) {
        const double *col = q + j * ldq;
        for (tela_int i = begin; i < end; i++)
            if (i != j)
                w[i] *= col[i] / (dl[i] - dl[j]);
    }
    for (tela_int i = begin; i < end; i++)
        w[i] = copysign(sqrt(-w[i]), job->w_saved[i]);
}

/* Column j of U: w_i / (d_i - lambda_j), normalized (scaled by its largest entry first, so
 * neither tiny nor huge quotients over- or underflow the norm). Rows stay in dlambda's order. */
static void vectors(vectors_job *job, tela_int begin, tela_int end)
{
    const tela_int k = job->k;
    for (tela_int j = begin; j < end; j++) {
        double *u = job->q + j * job->ldq, big = 0.0;
        for (tela_int i = 0; i < k; i++) {
            u[i] = job->w[i] / u[i];
            if (fabs(u[i]) > big || u[i] != u[i])
                big = fabs(u[i]);
        }
        double sum = 0.0;
        for (tela_int i = 0; i < k; i++)
            sum += (u[i] / big) * (u[i] / big);
        const double norm = big * sqrt(sum);
        for (tela_int i = 0; i < k; i++)
            u[i] /= norm;
    }
}

static void vectors_body(tela_member *self, void *arg)
{
    vectors_job *job = arg;
    const int rank = tela_rank(self), width = tela_width(self);
    tela_int begin, end;
    share(job->k, rank, width, &begin, &end);
    roots(job, begin, end);
    if (job->k <= 2)
        return; /* closed forms: the vectors came with the roots */
    tela_barrier(self);
    if (atomic_load_explicit(&job->failed, memory_order_relaxed))
        return;
    recompute_w(job, begin, end);
    tela_barrier(self);
    vectors(job, begin, end);
}

static void run(tela_par par, vectors_job *job)
{
    const double k = (double)job->k;
    const double estimate = DC_VECTOR_FLOPS_PER_ENTRY * k * k * par_rate_ns_per_flop();
    if (job->k > 1 && par_may_split(par, estimate)) {
        int limit = job->k < (1 << 20) ? (int)job->k : 1 << 20;
        if (par.max_width > 0 && par.max_width < limit)
            limit = par.max_width;
        if (tela_parallel_gated(tela_par_limit(par, limit), "stedc_roots", estimate, 3,
                                vectors_body, job) >= 0)
            return;
    }
    par_region_run_serial(vectors_body, job);
}

/* U's rows into the packed order in place (row i takes row rows_of[i]), one column at a time
 * through tmp (k doubles). */
static void permute_rows(tela_int k, const tela_int *rows_of, double *q, tela_int ldq, double *tmp)
{
    for (tela_int j = 0; j < k; j++) {
        double *u = q + j * ldq;
        for (tela_int i = 0; i < k; i++)
            tmp[i] = u[rows_of[i]];
        memcpy(u, tmp, sizeof(double) * (size_t)k);
    }
}

static void copy_block(tela_int rows, tela_int cols, const double *a, tela_int lda, double *b,
                       tela_int ldb)
{
    for (tela_int j = 0; j < cols; j++)
        memcpy(b + j * ldb, a + j * lda, sizeof(double) * (size_t)rows);
}

static void zero_block(tela_int rows, tela_int cols, double *a, tela_int lda)
{
    for (tela_int j = 0; j < cols; j++)
        memset(a + j * lda, 0, sizeof(double) * (size_t)rows);
}

tela_int eig_dc_vectors(tela_par par, tela_int k, tela_int n, double *d, double *q, tela_int ldq,
                        double rho, const double *dlambda, double *w, const eig_dc_packed *packed)
{
    const tela_int n1 = packed->n1, n2 = n - n1;
    const tela_int n12 = packed->top + packed->both, n23 = packed->both + packed->bottom;
    /* The packed top and bottom parts come first in q2; the copies of U's rows go after them
     * (over the deflated columns, already back in q). */
    double *s = packed->q2 + n1 * n12 + n2 * n23;
    assert((size_t)(s - packed->q2) + (size_t)(n12 > n23 ? n12 : n23) * (size_t)k <= packed->room);

    vectors_job job = {
        .k = k, .d = d, .q = q, .ldq = ldq, .rho = rho, .dlambda = dlambda, .w = w, .w_saved = s};
    atomic_init(&job.failed, 0);
    memcpy(s, w, sizeof(double) * (size_t)k);
    run(par, &job);
    if (atomic_load_explicit(&job.failed, memory_order_relaxed))
        return 1;

    /* Bottom rows: the packed bottom parts times U's BOTH and BOTTOM rows; then the top. Those
     * write q's rows n1 .. n - 1, then 0 .. n1 - 1, and U's TOP and BOTH rows lie in the
     * first n12 <= n1 (each BOTH column of the bottom half cost the top half a deflated one). */
    if (k > 1)
        permute_rows(k, packed->rows, q, ldq, s);
    if (n23 > 0) {
        copy_block(n23, k, q + packed->top, ldq, s, n23);
        tela_dgemm(par, 'N', 'N', n2, k, n23, 1.0, packed->q2 + n1 * n12, n2, s, n23, 0.0, q + n1,
                   ldq);
    } else {
        zero_block(n2, k, q + n1, ldq);
    }
    if (n12 > 0) {
        copy_block(n12, k, q, ldq, s, n12);
        tela_dgemm(par, 'N', 'N', n1, k, n12, 1.0, packed->q2, n1, s, n12, 0.0, q, ldq);
    } else {
        zero_block(n1, k, q, ldq);
    }
    return 0;
}
