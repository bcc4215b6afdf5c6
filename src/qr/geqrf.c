/* geqrf.c — tela_dgeqrf: blocked Householder QR as one region. Each block of columns is
 * factored by the recursive panel, which also gives its T; member 0 updates the next block's
 * columns first and factors it (look-ahead) while the others apply I - V T^T V^T to the rest;
 * every share's GEMMs take the path of the whole update, so every width computes the same
 * bits. */
#include "gemm/level3.h"
#include "par/engine.h"
#include "qr/qr.h"

/* The panel's factorization runs about this much slower per flop than the update (narrow
 * GEMMs, the leaves' column steps), which the shares and the chain bound allow for. */
#define QR_PANEL_SLOWER 3.0
/* The update runs below the GEMM rate (two passes over its columns, the T multiply). */
#define QR_UPDATE_SLOWER 1.3
/* Above this share of the work in member 0's chain of panels, a region with look-ahead could
 * not use a second member: the steps run one after another, each on the whole team. */
#define QR_CHAIN_SHARE 0.5
/* Below this many elements the steps run serially: their GEMMs would start on data the caller
 * has just written and a second member costs more than it brings (256 x 256 ran at 0.93x one
 * thread on two; the same as getrf's and potrf's small orders, docs/lu-chol.md). */
#define QR_STEPS_ALONE (256.0 * 512.0)

typedef struct factor_job {
    double *a, *tau;
    tela_int m, n, lda, nb, k, panels;
    /* Panel p's T (its lower part zero) and V's first ib rows made explicit (unit lower, zero
     * above), in [p % 2]: member 0 prepares the next panel's while the others use these. */
    double *t[2], *v_top[2];
    double *t_keep; /* NULL, or each panel's T kept at column i (nb x k, for gels) */
    double *w;      /* members' two W buffers, w_len doubles apart */
    size_t w_len;   /* 2 nb n and a line of slack */
} factor_job;

static tela_int panel_width(const factor_job *job, tela_int p)
{
    const tela_int left = job->k - p * job->nb;
    return left < job->nb ? left : job->nb;
}

static void factor_panel(const factor_job *job, tela_int p)
{
    const tela_int i = p * job->nb, ib = panel_width(job, p), nb = job->nb;
    double *v = job->a + i + (size_t)i * job->lda, *t = job->t[p % 2];
    qr_panel(tela_par_seq(), job->m - i, ib, v, job->lda, job->tau + i, t, nb, true);
    qr_explicit_block(ib, v, job->lda, t, job->v_top[p % 2], nb);
    if (job->t_keep)
        qr_copy_upper(ib, t, nb, job->t_keep + (size_t)i * (size_t)nb, nb);
}

/* Panel p's update of columns [from, to), told the update's whole width. */
static void update(const factor_job *job, tela_int p, tela_int from, tela_int to, double *w)
{
    if (from >= to)
        return;
    const tela_int i = p * job->nb, ib = panel_width(job, p), lda = job->lda;
    const level3_ctx ctx = {.par = tela_par_seq(), .in_chunk = true, .whole_n = job->n - i - ib};
    qr_apply_left_share(&ctx, true, job->m - i, to - from, ib, job->v_top[p % 2],
                        job->a + i + ib + (size_t)i * lda, lda, job->t[p % 2], job->nb,
                        job->a + i + (size_t)from * lda, lda, w);
}

static double update_flops(tela_int rows, tela_int cols, tela_int ib)
{
    return 4.0 * (double)rows * (double)cols * (double)ib;
}

/* The recursive panel's flops: dgeqr2's 2 rows ib^2 and about half again for its T. */
static double panel_flops(tela_int rows, tela_int ib)
{
    return 3.0 * (double)rows * (double)ib * (double)ib;
}

static void factor_body(tela_member *self, void *arg)
{
    const factor_job *job = arg;
    const int width = tela_width(self), rank = tela_rank(self);
    double *w = job->w + (size_t)rank * job->w_len;
    if (rank == 0)
        factor_panel(job, 0);
    tela_barrier(self);
    for (tela_int p = 0; p < job->panels; p++) {
        const tela_int i = p * job->nb, ib = panel_width(job, p), rows = job->m - i;
        const bool next = p + 1 < job->panels;
        const tela_int look_from = i + ib;
        const tela_int look_to = next ? look_from + panel_width(job, p + 1) : look_from;
        const tela_int rest = job->n - look_to;
        /* Member 0's share: its look-ahead and panel should end with the others' shares. */
        tela_int split = job->n;
        if (width > 1) {
            const double column = update_flops(rows, 1, ib);
            const double ahead =
                (double)(look_to - look_from) * column +
                (next ? QR_PANEL_SLOWER * panel_flops(rows - ib, look_to - look_from) : 0.0);
            const double share = ((double)rest * column + ahead) / width - ahead;
            const tela_int columns =
                share > 0.0 ? (tela_int)(share / column) / QR_SHARE_COLUMNS * QR_SHARE_COLUMNS : 0;
            split = look_to + (columns < rest ? columns : rest);
        }
        if (rank == 0) {
            update(job, p, look_from, look_to, w);
            if (next)
                factor_panel(job, p + 1);
            update(job, p, look_to, split, w);
        } else {
            tela_int from, to;
            qr_share(split, job->n, rank - 1, width - 1, &from, &to);
            update(job, p, from, to, w);
        }
        tela_barrier(self);
    }
}

/* The blocked factorization's serial work in GEMM-rate flops, and that of the chain of panels
 * and look-ahead updates member 0 runs. */
static void estimate_flops(tela_int m, tela_int n, double *all, double *chain)
{
    const tela_int k = m < n ? m : n, nb = qr_block_size(m, n);
    *all = *chain = 0.0;
    for (tela_int i = 0; i < k; i += nb) {
        const tela_int ib = k - i < nb ? k - i : nb, rows = m - i;
        const double panel = QR_PANEL_SLOWER * panel_flops(rows, ib);
        const tela_int look = i + ib < k ? (k - i - ib < nb ? k - i - ib : nb) : 0;
        *all += panel + QR_UPDATE_SLOWER * update_flops(rows, n - i - ib, ib);
        *chain += panel + QR_UPDATE_SLOWER * update_flops(rows, look, ib);
    }
}

static double estimate_ns(tela_int m, tela_int n, double *chain_ns)
{
    double all, chain;
    estimate_flops(m, n, &all, &chain);
    *chain_ns = chain * par_rate_ns_per_flop();
    return all * par_rate_ns_per_flop();
}

size_t qr_factor_len(tela_par par, tela_int m, tela_int n)
{
    const size_t nb = (size_t)qr_block_size(m, n);
    const size_t single = nb * nb + qr_apply_block_len(true, m, n, (tela_int)nb);
    const size_t blocked = 4 * nb * nb + (size_t)par_width_bound(par) * (2 * nb * (size_t)n + 8);
    return single > blocked ? single : blocked;
}

void qr_factor(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
               double *work, double *t_keep)
{
    const tela_int k = m < n ? m : n, nb = qr_block_size(m, n);
    double all, chain;
    estimate_flops(m, n, &all, &chain);
    if (chain > QR_CHAIN_SHARE * all) {
        /* Few panels over many rows (one, when nb >= k): the panels themselves are most of the
         * work, so each step runs on the team through its level 3 (tela's GEMMs split rows and
         * give the same bits at every width) instead of one member factoring them. */
        const tela_par steps = (double)m * (double)n < QR_STEPS_ALONE ? tela_par_seq() : par;
        for (tela_int i = 0; i < k; i += nb) {
            const tela_int ib = k - i < nb ? k - i : nb;
            double *panel = a + i + (size_t)i * (size_t)lda;
            qr_panel(steps, m - i, ib, panel, lda, tau + i, work, nb, t_keep || i + ib < n);
            if (t_keep)
                qr_copy_upper(ib, work, nb, t_keep + (size_t)i * (size_t)nb, nb);
            if (i + ib < n)
                qr_apply_block(steps, true, true, m - i, n - i - ib, ib, panel, lda, work, nb,
                               panel + (size_t)ib * (size_t)lda, lda,
                               work + (size_t)nb * (size_t)nb);
        }
        return;
    }
    factor_job job = {.a = a,
                      .tau = tau,
                      .m = m,
                      .n = n,
                      .lda = lda,
                      .nb = nb,
                      .k = k,
                      .panels = (k + nb - 1) / nb,
                      .t_keep = t_keep};
    const size_t nn = (size_t)nb * (size_t)nb;
    job.t[0] = work;
    job.t[1] = work + nn;
    job.v_top[0] = work + 2 * nn;
    job.v_top[1] = work + 3 * nn;
    job.w = work + 4 * nn;
    job.w_len = 2 * (size_t)nb * (size_t)n + 8;
    const double ns = par_rate_ns_per_flop();
    /* No more members than the chain of panels leaves work for (as getrf). */
    const double useful = chain > 0.0 ? all / chain : 1.0;
    const int bound = par_width_bound(par);
    const int limit = useful < bound ? (int)useful : bound;
    if (tela_parallel_gated(tela_par_limit(par, limit > 1 ? limit : 1), "geqrf", all * ns,
                            (int)job.panels + 1, factor_body, &job) < 0)
        tela_parallel_gated(tela_par_seq(), "geqrf", all * ns, 1, factor_body, &job);
}

/* Whether TSQR or the blocked algorithm factors an m x n matrix. */
static bool tsqr_chosen(tela_int m, tela_int n)
{
    /* By estimates of the problem alone, so the choice (and so the bits) is the same at every
     * width: the blocked algorithm's tall panels run at the panel's slow rate and in a chain no
     * other member shares (counted twice: once as work, once as what bounds its width), TSQR's
     * leaves do twice the flops but from cache, side by side. */
    if (qr_tsqr_leaves(m, n) < 2)
        return false;
    double chain;
    const double blocked = estimate_ns(m, n, &chain);
    return qr_tsqr_flops(m, n) * par_rate_ns_per_flop() < blocked + chain;
}

bool qr_geqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
              double *t_keep)
{
    bool owned;
    if (tsqr_chosen(m, n)) {
        double *work = qr_scratch(par, qr_tsqr_len(par, m, n), &owned);
        if (work) {
            qr_tsqr(par, m, n, a, lda, tau, work);
            par_scratch_release(work, owned);
            return false;
        }
    }
    double *work = qr_scratch(par, qr_factor_len(par, m, n), &owned);
    if (!work) { /* dgeqr2: slower, the same factorization up to rounding */
        qr_factor_columns(m, n, a, lda, tau);
        return false;
    }
    qr_factor(par, m, n, a, lda, tau, work, t_keep);
    par_scratch_release(work, owned);
    return t_keep != NULL;
}

int tela_dgeqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    const int args = qr_factor_args(m, n, a, lda, tau);
    if (args != QR_ARGS_GO)
        return args == QR_ARGS_DONE ? 0 : args;
    qr_geqrf(par, m, n, a, lda, tau, NULL);
    return 0;
}
