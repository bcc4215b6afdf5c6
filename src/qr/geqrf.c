/* geqrf.c — tela_dgeqrf: blocked Householder QR as one region. Each block of columns is
 * factored by the recursive panel, which also gives its T; member 0 updates the next block's
 * columns first and factors it (look-ahead) while the others apply I - V T^T V^T to the rest,
 * in groups of columns whose shapes depend on the problem alone, so every width computes the
 * same bits. */
#include "par/engine.h"
#include "qr/qr.h"

/* The panel's factorization runs about this much slower per flop than the update (narrow
 * GEMMs, the leaves' column steps), which the shares and the chain bound allow for. */
#define QR_PANEL_SLOWER 3.0
/* The update runs below the GEMM rate (two passes over each group, the T multiply). */
#define QR_UPDATE_SLOWER 1.3
/* Bytes of the trailing matrix one group of columns spans: its two GEMMs (W = V^T C, then
 * C -= V W) find it still in L2. */
#define QR_GROUP_BYTES (1u << 20)

typedef struct factor_job {
    double *a, *tau;
    tela_int m, n, lda, nb, k, panels;
    double *t[2]; /* panel p's T in t[p % 2]: member 0 builds the next while others use this */
    double *w;    /* members' W buffers, w_len doubles apart */
    size_t w_len;
} factor_job;

#define QR_GROUP_MIN 32
#define QR_GROUP_MAX 256

/* Columns per group of an update over rows rows: as many as fit QR_GROUP_BYTES, a multiple of
 * 16 within [QR_GROUP_MIN, QR_GROUP_MAX]. */
static tela_int group_columns(tela_int rows)
{
    tela_int g = (tela_int)(QR_GROUP_BYTES / sizeof(double) / (size_t)(rows > 1 ? rows : 1));
    g = g / 16 * 16;
    return g < QR_GROUP_MIN ? QR_GROUP_MIN : g > QR_GROUP_MAX ? QR_GROUP_MAX : g;
}

/* A member's W: the widest group or look-ahead block, by nb rows, and a line of slack. */
static size_t member_w_len(tela_int nb)
{
    return (size_t)nb * (size_t)(nb > QR_GROUP_MAX ? nb : QR_GROUP_MAX) + 8;
}

static tela_int panel_width(const factor_job *job, tela_int p)
{
    const tela_int left = job->k - p * job->nb;
    return left < job->nb ? left : job->nb;
}

static void factor_panel(const factor_job *job, tela_int p)
{
    const tela_int i = p * job->nb;
    qr_panel(tela_par_seq(), job->m - i, panel_width(job, p), job->a + i + (size_t)i * job->lda,
             job->lda, job->tau + i, job->t[p % 2], job->nb);
}

/* Panel p's update of columns [from, to). */
static void update(const factor_job *job, tela_int p, tela_int from, tela_int to, double *w)
{
    if (from >= to)
        return;
    const tela_int i = p * job->nb;
    const double *v = job->a + i + (size_t)i * job->lda;
    qr_apply_block(tela_par_seq(), true, true, job->m - i, to - from, panel_width(job, p), v,
                   job->lda, job->t[p % 2], job->nb, job->a + i + (size_t)from * job->lda, job->lda,
                   w);
}

/* Panel p's update of the groups [g0, g1) after column start, each group a call of its own. */
static void update_groups(const factor_job *job, tela_int p, tela_int start, tela_int g0,
                          tela_int g1, double *w)
{
    const tela_int g = group_columns(job->m - p * job->nb);
    for (tela_int q = g0; q < g1; q++) {
        const tela_int from = start + q * g, to = from + g < job->n ? from + g : job->n;
        update(job, p, from, to, w);
    }
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
        const tela_int look_from = i + ib,
                       look_to = next ? look_from + panel_width(job, p + 1) : look_from;
        const tela_int g = group_columns(rows), groups = (job->n - look_to + g - 1) / g;
        /* Member 0's groups: its look-ahead and panel should end with the others' shares. */
        tela_int first = groups;
        if (width > 1) {
            const double group = update_flops(rows, g, ib);
            const double ahead =
                update_flops(rows, look_to - look_from, ib) +
                (next ? QR_PANEL_SLOWER * panel_flops(rows - ib, look_to - look_from) : 0.0);
            const double share = (ahead + (double)groups * group) / width - ahead;
            first = share > 0.0 ? (tela_int)(share / group + 0.5) : 0;
            if (first > groups)
                first = groups;
        }
        if (rank == 0) {
            update(job, p, look_from, look_to, w);
            if (next)
                factor_panel(job, p + 1);
            update_groups(job, p, look_to, 0, first, w);
        } else {
            const tela_int rest = groups - first, others = width - 1;
            update_groups(job, p, look_to, first + rest * (rank - 1) / others,
                          first + rest * rank / others, w);
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

double qr_factor_estimate_ns(tela_int m, tela_int n)
{
    double all, chain;
    estimate_flops(m, n, &all, &chain);
    return all * par_rate_ns_per_flop();
}

size_t qr_factor_len(tela_par par, tela_int m, tela_int n)
{
    const size_t nb = (size_t)qr_block_size(m, n);
    const size_t single = nb * nb + qr_apply_block_len(true, m, n, (tela_int)nb);
    const size_t blocked = 2 * nb * nb + (size_t)par_width_bound(par) * member_w_len((tela_int)nb);
    return single > blocked ? single : blocked;
}

void qr_factor(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
               double *work)
{
    const tela_int k = m < n ? m : n, nb = qr_block_size(m, n);
    if (nb >= k) { /* one panel: its own level 3 runs on the team */
        qr_panel(par, m, k, a, lda, tau, work, nb);
        if (n > k)
            qr_apply_block(par, true, true, m, n - k, k, a, lda, work, nb, a + (size_t)k * lda, lda,
                           work + (size_t)nb * (size_t)nb);
        return;
    }
    factor_job job = {.a = a,
                      .tau = tau,
                      .m = m,
                      .n = n,
                      .lda = lda,
                      .nb = nb,
                      .k = k,
                      .panels = (k + nb - 1) / nb};
    job.t[0] = work;
    job.t[1] = work + (size_t)nb * (size_t)nb;
    job.w = work + 2 * (size_t)nb * (size_t)nb;
    job.w_len = member_w_len(nb);
    double all, chain;
    estimate_flops(m, n, &all, &chain);
    const double ns = par_rate_ns_per_flop();
    /* No more members than the chain of panels leaves work for (as getrf). */
    const double useful = chain > 0.0 ? all / chain : 1.0;
    const int bound = par_width_bound(par);
    const int limit = useful < bound ? (int)useful : bound;
    if (tela_parallel_gated(tela_par_limit(par, limit > 1 ? limit : 1), "geqrf", all * ns,
                            (int)job.panels + 1, factor_body, &job) < 0)
        tela_parallel_gated(tela_par_seq(), "geqrf", all * ns, 1, factor_body, &job);
}

int tela_dgeqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (lda < (m > 1 ? m : 1))
        return -4;
    if (m == 0 || n == 0)
        return 0;
    if (!a)
        return -3;
    if (!tau)
        return -5;
    bool owned;
    if (qr_tsqr_chosen(m, n)) {
        double *work = qr_scratch(par, qr_tsqr_len(par, m, n), &owned);
        if (work) {
            qr_tsqr(par, m, n, a, lda, tau, work);
            par_scratch_release(work, owned);
            return 0;
        }
    }
    double *work = qr_scratch(par, qr_factor_len(par, m, n), &owned);
    if (!work) { /* dgeqr2: slower, the same factorization up to rounding */
        qr_factor_columns(m, n, a, lda, tau);
        return 0;
    }
    qr_factor(par, m, n, a, lda, tau, work);
    par_scratch_release(work, owned);
    return 0;
}
