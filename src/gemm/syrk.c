/* syrk.c — tela_dsyrk: C = alpha A A^T + beta C (trans 'N') or
 * alpha A^T A + beta C ('T'), only the uplo triangle of C referenced.
 *
 * The diagonal blocks (SYRK_NB) are small GEMMs into a stack buffer of
 * which one triangle is kept, shared among members; the rest is halved
 * recursively, each rectangle one tela_dgemm (parallel through the gate). */
#include "gemm/level3.h"

#include "par/par.h"

/* Order of the diagonal blocks: each is a whole SYRK_NB x SYRK_NB GEMM of
 * which one triangle is kept (half its flops wasted: 32/n of the total). */
#define SYRK_NB 32

typedef struct syrk_job {
    bool upper, trans;
    tela_int n, k;
    double alpha, beta;
    const double *a;
    tela_int lda;
    double *c;
    tela_int ldc;
} syrk_job;

/* Row block [i0, i0 + rows) of op(A) (n x k) as a dgemm operand. */
static const double *rows_of(const syrk_job *job, tela_int i0)
{
    return job->trans ? job->a + i0 * job->lda : job->a + i0;
}

/* Diagonal block number `block`: the product into a stack buffer, its
 * triangle combined with C as BLAS does (beta = 0 never reads C). */
static void diagonal_block(const level3_ctx *ctx, tela_int block, void *arg)
{
    const syrk_job *job = arg;
    const tela_int j0 = block * SYRK_NB, jb = job->n - j0 < SYRK_NB ? job->n - j0 : SYRK_NB;
    const char ta = job->trans ? 'T' : 'N', tb = job->trans ? 'N' : 'T';
    const double *aj = rows_of(job, j0);
    double d[SYRK_NB * SYRK_NB];
    level3_gemm(ctx, ta, tb, jb, jb, job->k, job->alpha, aj, job->lda, aj, job->lda, 0.0, d, jb);
    for (tela_int j = 0; j < jb; j++) {
        const tela_int i_from = job->upper ? 0 : j, i_to = job->upper ? j + 1 : jb;
        double *cj = job->c + j0 + (j0 + j) * job->ldc;
        for (tela_int i = i_from; i < i_to; i++)
            cj[i] = job->beta == 0.0 ? d[i + j * jb] : job->beta * cj[i] + d[i + j * jb];
    }
}

/* The blocks off the diagonal blocks of C[o.., o..] (order s), recursively:
 * each step's rectangle is one tela_dgemm, parallel inside. */
static void off_diagonal(tela_par par, const syrk_job *job, tela_int o, tela_int s)
{
    if (s <= SYRK_NB)
        return;
    /* A split on the diagonal-block grid, so the rectangles tile exactly
     * what the diagonal blocks leave. */
    const tela_int blocks = (s + SYRK_NB - 1) / SYRK_NB;
    const tela_int s1 = (blocks / 2) * SYRK_NB, s2 = s - s1;
    const char ta = job->trans ? 'T' : 'N', tb = job->trans ? 'N' : 'T';
    if (job->upper)
        tela_dgemm(par, ta, tb, s1, s2, job->k, job->alpha, rows_of(job, o), job->lda,
                   rows_of(job, o + s1), job->lda, job->beta, job->c + o + (o + s1) * job->ldc,
                   job->ldc);
    else
        tela_dgemm(par, ta, tb, s2, s1, job->k, job->alpha, rows_of(job, o + s1), job->lda,
                   rows_of(job, o), job->lda, job->beta, job->c + (o + s1) + o * job->ldc,
                   job->ldc);
    off_diagonal(par, job, o, s1);
    off_diagonal(par, job, o + s1, s2);
}

/* The uplo triangle of C(0:n, 0:n) times beta. */
static void scale_triangle(double *c, tela_int ldc, tela_int n, bool upper, double beta)
{
    for (tela_int j = 0; j < n; j++) {
        tela_int i_from = upper ? 0 : j, i_to = upper ? j + 1 : n;
        for (tela_int i = i_from; i < i_to; i++)
            c[i + j * ldc] = beta == 0.0 ? 0.0 : beta * c[i + j * ldc];
    }
}

int tela_dsyrk(tela_par par, char uplo, char trans, tela_int n, tela_int k, double alpha,
               const double *a, tela_int lda, double beta, double *c, tela_int ldc)
{
    bool upper, t;
    if (!level3_uplo(uplo, &upper))
        return -1;
    if (!level3_trans(trans, &t))
        return -2;
    if (n < 0)
        return -3;
    if (k < 0)
        return -4;
    tela_int rows_a = t ? k : n;
    if (lda < (rows_a > 1 ? rows_a : 1))
        return -7;
    if (ldc < (n > 1 ? n : 1))
        return -10;
    if (n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0))
        return 0;
    if (!c)
        return -9;
    if (alpha == 0.0 || k == 0) {
        scale_triangle(c, ldc, n, upper, beta);
        return 0;
    }
    if (!a)
        return -6;
    const syrk_job job = {upper, t, n, k, alpha, beta, a, lda, c, ldc};
    /* The diagonal blocks are independent: shared among members. */
    const tela_int blocks = (n + SYRK_NB - 1) / SYRK_NB;
    const double flops = 2.0 * (double)n * SYRK_NB * (double)k;
    level3_chunks(par, "dsyrk", blocks, flops * par_rate_gemm_ns_per_flop(),
                  gemm_serial_buffer_len(gemm_kernel_get(), SYRK_NB, SYRK_NB, k), diagonal_block,
                  (void *)&job);
    off_diagonal(par, &job, 0, n);
    return 0;
}
