/* ormqr.c — tela_dormqr: Q or Q^T from geqrf's reflectors applied from either side, a block of
 * reflectors at a time in compact WY form (T rebuilt from V by syrk), in the order the product
 * asks for. */
#include "par/engine.h"
#include "qr/qr.h"

/* From the left, one region: the members build the blocks' explicit T and V triangles side by
 * side, then each applies every block, in the product's order, to its own columns of C — no
 * barrier between blocks. */
typedef struct multiply_job {
    bool trans, forward;
    tela_int m, n, k, nb, blocks;
    const double *a, *tau, *t_kept;
    tela_int lda;
    double *c;
    tela_int ldc;
    double *t_all, *top_all; /* blocks x (nb x nb) each */
    double *w;               /* members' W, w_len doubles apart */
    size_t w_len;
} multiply_job;

static void prepare_block(const multiply_job *job, tela_int b)
{
    const tela_int i = b * job->nb, ib = job->k - i < job->nb ? job->k - i : job->nb;
    const size_t nn = (size_t)job->nb * (size_t)job->nb;
    const double *v = job->a + i + (size_t)i * (size_t)job->lda;
    double *t = job->t_all + (size_t)b * nn;
    if (job->t_kept)
        qr_copy_upper(ib, job->t_kept + (size_t)i * (size_t)job->nb, job->nb, t, job->nb);
    else
        qr_build_t(tela_par_seq(), job->m - i, ib, v, job->lda, job->tau + i, t, job->nb);
    qr_explicit_block(ib, v, job->lda, t, job->top_all + (size_t)b * nn, job->nb);
}

static void multiply_body(tela_member *self, void *arg)
{
    const multiply_job *job = arg;
    const int width = tela_width(self), rank = tela_rank(self);
    for (tela_int b = rank; b < job->blocks; b += width)
        prepare_block(job, b);
    tela_barrier(self);
    tela_int from, to;
    qr_share(0, job->n, rank, width, &from, &to);
    if (from >= to)
        return;
    const level3_ctx ctx = {.par = tela_par_seq(), .in_chunk = true, .whole_n = job->n};
    const size_t nn = (size_t)job->nb * (size_t)job->nb;
    double *w = job->w + (size_t)rank * job->w_len;
    for (tela_int step = 0; step < job->blocks; step++) {
        const tela_int b = job->forward ? step : job->blocks - 1 - step;
        const tela_int i = b * job->nb, ib = job->k - i < job->nb ? job->k - i : job->nb;
        qr_apply_left_share(
            &ctx, job->trans, job->m - i, to - from, ib, job->top_all + (size_t)b * nn,
            job->a + i + ib + (size_t)i * (size_t)job->lda, job->lda, job->t_all + (size_t)b * nn,
            job->nb, job->c + i + (size_t)from * (size_t)job->ldc, job->ldc, w);
    }
}

/* Reflectors a block. With a kept T, geqrf's blocks (its T is laid out by them). Without one,
 * narrower than geqrf's: each block's T is built from V (about nq k nb flops in all, whatever
 * C's other dimension), and the products on its triangles grow with nb. From the left they are
 * GEMMs on explicit triangles, 4 n k nb flops beyond the product's 2 n k (2m - k): k = 64 in
 * one block of 64 did three times the product's flops. From the right they are trmms. Measured
 * call by call against geqrf's blocks, one thread (docs/qr.md): from the left, square 64 0.50x
 * the time, 256 0.82x, 1024 0.90x, 256 x 64 with 8 columns 0.42x; from the right, square 64
 * 0.64x, 128 0.88x, 512 x 128 with 16 rows 0.65x. C is m x n; Q is of order nq, and the other
 * dimension of C is the one Q does not touch. */
static tela_int multiply_block_size(bool left, tela_int m, tela_int n, tela_int k, bool kept)
{
    const tela_int nq = left ? m : n, other = left ? n : m, nb = qr_block_size(nq, k);
    if (kept)
        return nb;
    tela_int narrow;
    if (left)
        narrow = other <= 16 && k <= 256 ? 8 : k <= 256 ? 16 : k <= 512 ? 32 : 64;
    else
        narrow = k <= 64 || (other <= 16 && k <= 256) ? 8 : k <= 256 ? 32 : nb;
    return narrow < nb ? narrow : nb;
}

size_t qr_multiply_len(tela_par par, bool left, tela_int m, tela_int n, tela_int k, bool kept)
{
    const size_t nb = (size_t)multiply_block_size(left, m, n, k > 0 ? k : 1, kept);
    if (!left)
        return nb * nb + qr_apply_block_len(false, m, n, (tela_int)nb);
    const size_t blocks = ((size_t)(k > 0 ? k : 1) + nb - 1) / nb;
    return 2 * blocks * nb * nb + (size_t)par_width_bound(par) * (2 * nb * (size_t)n + 8);
}

void qr_multiply(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
                 const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
                 double *work, const double *t_kept)
{
    if (m == 0 || n == 0 || k == 0)
        return;
    const tela_int nq = left ? m : n, nb = multiply_block_size(left, m, n, k, t_kept != NULL);
    /* Q^T C and C Q take H(1) first; Q C and C Q^T take it last. */
    const bool forward = left == trans;
    if (left) {
        const tela_int blocks = (k + nb - 1) / nb;
        const size_t nn = (size_t)nb * (size_t)nb;
        multiply_job job = {.trans = trans,
                            .forward = forward,
                            .m = m,
                            .n = n,
                            .k = k,
                            .nb = nb,
                            .blocks = blocks,
                            .a = a,
                            .tau = tau,
                            .t_kept = t_kept,
                            .lda = lda,
                            .c = c,
                            .ldc = ldc,
                            .t_all = work,
                            .top_all = work + (size_t)blocks * nn,
                            .w = work + 2 * (size_t)blocks * nn,
                            .w_len = 2 * (size_t)nb * (size_t)n + 8};
        const double estimate = 4.0 * (double)m * (double)n * (double)k * par_rate_ns_per_flop();
        /* No more members than C has shares of columns: with one share, a second member only
         * moved the whole product to the other core, after a barrier, reading V and C from the
         * caller's caches (gels4 96 and 128 with n / 8 right-hand sides on two threads ran
         * 0.93x and 0.96x one thread). */
        const tela_int shares = qr_shares(n);
        const tela_par members = tela_par_limit(par, shares < (1 << 20) ? (int)shares : 1 << 20);
        if (tela_parallel_gated(members, "ormqr", estimate, 2, multiply_body, &job) < 0)
            tela_parallel_gated(tela_par_seq(), "ormqr", estimate, 2, multiply_body, &job);
        return;
    }
    double *t = work, *w = work + (size_t)nb * (size_t)nb;
    const tela_int last = (k - 1) / nb * nb;
    for (tela_int step = 0; step <= last; step += nb) {
        const tela_int i = forward ? step : last - step;
        const tela_int ib = k - i < nb ? k - i : nb;
        const double *v = a + i + (size_t)i * (size_t)lda;
        const double *t_block = t_kept ? t_kept + (size_t)i * (size_t)nb : t;
        if (!t_kept)
            qr_build_t(par, nq - i, ib, v, lda, tau + i, t, nb);
        qr_apply_block(par, false, trans, m, n - i, ib, v, lda, t_block, nb,
                       c + (size_t)i * (size_t)ldc, ldc, w);
    }
}

/* dorm2r: without scratch, one reflector at a time. */
void qr_multiply_by_reflectors(bool left, bool trans, tela_int m, tela_int n, tela_int k,
                               const double *a, tela_int lda, const double *tau, double *c,
                               tela_int ldc)
{
    const bool forward = left == trans;
    for (tela_int step = 0; step < k; step++) {
        const tela_int i = forward ? step : k - 1 - step;
        const double *v = a + i + (size_t)i * (size_t)lda;
        if (left)
            qr_apply_reflector(m - i, n, v, 1, tau[i], c + i, ldc);
        else
            qr_apply_reflector_right(m, n - i, v, 1, tau[i], c + (size_t)i * (size_t)ldc, ldc);
    }
}

void qr_ormqr(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
              const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
              const double *t_kept)
{
    bool owned;
    double *work = qr_scratch(par, qr_multiply_len(par, left, m, n, k, t_kept != NULL), &owned);
    if (!work) {
        qr_multiply_by_reflectors(left, trans, m, n, k, a, lda, tau, c, ldc);
        return;
    }
    qr_multiply(par, left, trans, m, n, k, a, lda, tau, c, ldc, work, t_kept);
    par_scratch_release(work, owned);
}

int tela_dormqr(tela_par par, char side, char trans, tela_int m, tela_int n, tela_int k,
                const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    bool left, transpose;
    const int args =
        qr_multiply_args(false, side, trans, m, n, k, a, lda, tau, c, ldc, &left, &transpose);
    if (args != QR_ARGS_GO)
        return args == QR_ARGS_DONE ? 0 : args;
    qr_ormqr(par, left, transpose, m, n, k, a, lda, tau, c, ldc, NULL);
    return 0;
}
