/* blocked.c — getrf of larger matrices as one region: right-looking LU by
 * panels. Member 0 factors each next panel as soon as its columns are
 * updated (look-ahead), while the others update the rest of the trailing
 * matrix; one barrier per panel. Each column goes through the same calls
 * whatever the width (see update), so every width computes the same bits. */
#include "gemm/gemm.h"
#include "lu/lu.h"
#include "par/engine.h"

/* Panel widths grow with the order: narrow panels keep the serial chain of
 * panel factorizations short (it bounds the width, lu_factor_blocked),
 * wide ones run the trailing GEMM at larger k (docs/lu-chol.md, "Panel
 * width"). */
#define LU_PANEL_COLUMNS_MAX 128
static tela_int panel_columns(tela_int mn)
{
    return mn < 1024 ? 32 : mn < 2048 ? 64 : LU_PANEL_COLUMNS_MAX;
}

/* One member's update buffer for the widest panels, declared to par when the library is loaded:
 * every thread keeps it, so a getrf called serially in a region body (one member's buffers)
 * updates as it would outside, never by update.c's stack path but when out of memory. */
__attribute__((constructor)) static void declare_scratch(void)
{
    const gemm_kernel *kr = gemm_kernel_get();
    par_scratch_declare(PAR_SCRATCH_PACK,
                        lu_update_buffer_len(kr, kr->nc, LU_PANEL_COLUMNS_MAX) * sizeof(double));
}

/* The trailing updates run slower than the GEMM rate: the region's
 * estimate allows for it (docs/lu-chol.md, "Gate"). */
#define LU_SLOWER_THAN_GEMM 1.5
/* A panel's own factorization (narrow GEMMs, the column-by-column base)
 * runs ~3x slower per flop than the trailing update (docs/lu-chol.md,
 * "Gate"). */
#define LU_PANEL_SLOWER 3.0

/* Every member's buffer holds a packed B block of up to nc columns, so
 * their sum grows with the width. nc does not change any element's
 * arithmetic, so it is cut to keep all the members' blocks within
 * LU_UPDATE_BUFFERS bytes, to no fewer than LU_UPDATE_NC_MIN columns,
 * below which the update slows (docs/lu-chol.md, "The members' update
 * buffers"). */
#define LU_UPDATE_BUFFERS (32u << 20)
#define LU_UPDATE_NC_MIN  512
/* Members allowed: the work over this many times the chain's time (see
 * lu_factor_blocked). */
#define LU_CHAIN_MARGIN 0.5
/* One member alone takes this many panels' updates of each block of
 * LU_TOGETHER_PANELS nr-panels of columns in a row (one_member_body): 48
 * columns with the AVX-512 kernel, 768 KiB of a 2048-row matrix. */
#define LU_TOGETHER        3
#define LU_TOGETHER_PANELS 4
/* Only matrices of at least this many bytes: the steps' sweeps of
 * smaller ones stay in L3, where grouping does not pay (docs/lu-chol.md,
 * "One member, 16 MiB and more"). */
#define LU_TOGETHER_MIN_BYTES (16u << 20)

typedef struct blocked_job {
    double *a;
    tela_int *ipiv;
    tela_int m, n, lda, nb, panels;
    tela_int info;             /* written by member 0 only */
    const gemm_kernel *kernel; /* points at update_kernel */
    gemm_kernel update_kernel; /* this CPU's, nc cut for the buffers' size */
    double *bufs;              /* one per member, buf_len doubles apart */
    size_t buf_len;
    bool together; /* bufs[0] is sized for one_member_body */
} blocked_job;

double lu_flops(tela_int m, tela_int n)
{
    const double x = (double)m, y = (double)n, s = (double)(m < n ? m : n);
    return 2.0 * (x * y * s - (x + y) * s * s / 2.0 + s * s * s / 3.0);
}

static tela_int panel_width(const blocked_job *job, tela_int k)
{
    const tela_int mn = job->m < job->n ? job->m : job->n, left = mn - k * job->nb;
    return left < job->nb ? left : job->nb;
}

static void factor_panel(blocked_job *job, tela_int k)
{
    const tela_int k0 = k * job->nb, b = panel_width(job, k);
    double *p = job->a + k0 + k0 * job->lda;
    const tela_int info =
        lu_factor_recursive(tela_par_seq(), job->m - k0, b, p, job->lda, job->ipiv + k0);
    for (tela_int i = k0; i < k0 + b; i++)
        job->ipiv[i] += k0;
    if (job->info == 0 && info > 0)
        job->info = info + k0;
}

/* Panel k's update of columns [from, to) (update.c). */
static void update(const blocked_job *job, tela_int k, tela_int from, tela_int to, double *buf)
{
    lu_update_columns(job->kernel, job->a, job->lda, job->m, k * job->nb, panel_width(job, k), from,
                      to, job->ipiv, buf, job->buf_len);
}

/* The flops of panel k's update of one column (solve and GEMM). */
static double column_flops(const blocked_job *job, tela_int k)
{
    const double b = (double)panel_width(job, k), rows = (double)(job->m - k * job->nb) - b;
    return 2.0 * rows * b + b * b;
}

/* How many columns after the look-ahead member 0 takes in step k (a
 * multiple of 8): its update of the next panel's columns, that panel's
 * factorization and its share should end when the others' shares do. */
static tela_int first_share(const blocked_job *job, tela_int k, tela_int look_from,
                            tela_int look_to, int width)
{
    const tela_int rest = job->n - look_to;
    if (width == 1)
        return rest;
    const double column = column_flops(job, k);
    const tela_int rows = job->m - k * job->nb - panel_width(job, k);
    const double panel =
        look_to > look_from ? LU_PANEL_SLOWER * lu_flops(rows, look_to - look_from) : 0.0;
    const double ahead = (double)(look_to - look_from) * column + panel;
    const double share = (ahead + (double)rest * column) / width - ahead;
    const tela_int columns = share > 0.0 ? (tela_int)(share / column) / 8 * 8 : 0;
    return columns < rest ? columns : rest;
}

/* The serial time of the factorization and of its chain on member 0 (the
 * panels and the look-ahead updates, which no other member can take). */
static void estimate_times(const blocked_job *job, double *serial_ns, double *chain_ns)
{
    double all = 0.0, chain = 0.0;
    for (tela_int k = 0; k < job->panels; k++) {
        const tela_int k0 = k * job->nb, b = panel_width(job, k);
        const double panel = LU_PANEL_SLOWER * lu_flops(job->m - k0, b);
        const tela_int look = k + 1 < job->panels ? panel_width(job, k + 1) : 0;
        chain += panel + (double)look * column_flops(job, k);
        all += (double)(job->n - k0 - b) * column_flops(job, k) + panel;
    }
    const double ns = LU_SLOWER_THAN_GEMM * par_rate_ns_per_flop();
    *serial_ns = all * ns;
    *chain_ns = chain * ns;
}

/* Each panel's columns (of L) take the later panels' interchanges, in
 * their order, as LAPACK applies them after each panel; panels split among
 * the members. */
static void swap_left(const blocked_job *job, int rank, int width)
{
    const tela_int mn = job->m < job->n ? job->m : job->n;
    for (tela_int k = rank; k + 1 < job->panels; k += width) {
        const tela_int k0 = k * job->nb, b = panel_width(job, k);
        lu_swap_rows(tela_par_seq(), b, job->a + k0 * job->lda, job->lda, k0 + b, mn, job->ipiv);
    }
}

static size_t together_block_len(const gemm_kernel *kr, tela_int nb)
{
    const int block = LU_TOGETHER_PANELS * kr->nr;
    return gemm_b_buffer_len(kr, block > nb ? block : (int)nb, (int)nb);
}

static size_t together_len(const gemm_kernel *kr, tela_int m, tela_int nb)
{
    return LU_TOGETHER * lu_step_len(kr, m, nb) + together_block_len(kr, nb);
}

/* One member alone: the same updates, ordered so that each block of
 * columns narrow enough to stay in L2 takes LU_TOGETHER panels' updates
 * one after the other. With each step sweeping the whole trailing matrix,
 * every step's interchanges (the first touch of its columns, scattered
 * over the rows) and GEMM read it from memory. The later steps' panels are
 * factored first, after the earlier steps' updates of their columns; each
 * panel's L21 is packed once, whole, for all blocks. Same bits: each
 * column goes through the same steps in the same order. (What it gains,
 * and why three steps: docs/lu-chol.md, "One member, 16 MiB and more".) */
static void one_member_body(blocked_job *job, double *space)
{
    const gemm_kernel *kr = job->kernel;
    const size_t step_len = lu_step_len(kr, job->m, job->nb);
    const int block = LU_TOGETHER_PANELS * kr->nr;
    double *b_buf = space + LU_TOGETHER * step_len;
    lu_step steps[LU_TOGETHER];
    factor_panel(job, 0);
    for (tela_int k = 0; k < job->panels; k += LU_TOGETHER) {
        const tela_int last = (k + LU_TOGETHER < job->panels ? k + LU_TOGETHER : job->panels) - 1;
        for (tela_int q = k; q <= last; q++) {
            const tela_int q0 = q * job->nb, b = panel_width(job, q);
            if (q > k) {
                for (tela_int s = k; s < q; s++)
                    lu_step_update(&steps[s - k], q0, q0 + b, b_buf);
                factor_panel(job, q);
            }
            lu_step_prepare(&steps[q - k], kr, job->a, job->lda, job->m, q0, b, job->ipiv,
                            space + (size_t)(q - k) * step_len, true);
        }
        for (tela_int x = last * job->nb + panel_width(job, last); x < job->n; x += block) {
            const tela_int y = job->n - x < block ? job->n : x + block;
            for (tela_int s = k; s <= last; s++)
                lu_step_update(&steps[s - k], x, y, b_buf);
        }
        if (last + 1 < job->panels)
            factor_panel(job, last + 1);
    }
    swap_left(job, 0, 1);
}

static void blocked_body(tela_member *self, void *arg)
{
    blocked_job *job = arg;
    const int width = tela_width(self), rank = tela_rank(self);
    double *buf = job->bufs ? job->bufs + (size_t)rank * job->buf_len : NULL;
    if (width == 1 && buf && job->together) {
        one_member_body(job, buf);
        return;
    }
    if (rank == 0)
        factor_panel(job, 0);
    tela_barrier(self);
    for (tela_int k = 0; k < job->panels; k++) {
        const tela_int t0 = k * job->nb + panel_width(job, k);
        const tela_int look_to = k + 1 < job->panels ? t0 + panel_width(job, k + 1) : t0;
        const tela_int split = look_to + first_share(job, k, t0, look_to, width);
        if (rank == 0) {
            update(job, k, t0, look_to, buf);
            if (k + 1 < job->panels)
                factor_panel(job, k + 1);
            update(job, k, look_to, split, buf);
        } else {
            /* rank >= 1 here, so width >= 2 */
            const tela_int groups = (job->n - split + 7) / 8, others = width > 1 ? width - 1 : 1;
            const tela_int from = split + groups * (rank - 1) / others * 8;
            const tela_int to = split + groups * rank / others * 8;
            update(job, k, from, to < job->n ? to : job->n, buf);
        }
        tela_barrier(self);
    }
    swap_left(job, rank, width);
}

tela_int lu_factor_blocked(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                           tela_int *ipiv)
{
    const tela_int mn = m < n ? m : n;
    const tela_int nb = panel_columns(mn);
    blocked_job job = {.a = a,
                       .ipiv = ipiv,
                       .m = m,
                       .n = n,
                       .lda = lda,
                       .nb = nb,
                       .panels = (mn + nb - 1) / nb,
                       .update_kernel = *gemm_kernel_get()};
    job.kernel = &job.update_kernel;
    const int bound = par_width_bound(par);
    double nc = (double)LU_UPDATE_BUFFERS / ((double)bound * (double)nb * sizeof(double));
    if (nc < LU_UPDATE_NC_MIN)
        nc = LU_UPDATE_NC_MIN;
    if (nc < job.update_kernel.nc)
        job.update_kernel.nc = (int)nc / job.update_kernel.nr * job.update_kernel.nr;
    /* No more members than the chain leaves work for. The work over the
     * chain is an average over the steps: the early steps, with most of
     * the flops, leave work for more members than the late ones, so the
     * bound allows twice that (docs/lu-chol.md, "Width bounded by the
     * chain"). */
    double estimate, chain;
    estimate_times(&job, &estimate, &chain);
    const double useful = chain > 0.0 ? estimate / (LU_CHAIN_MARGIN * chain) : 1.0;
    const int limit = useful < bound ? (int)useful : bound;
    /* One member for sure: the buffer for one_member_body, if within the
     * budget. (With more allowed the gate may still choose one; that runs
     * by steps.) */
    const size_t alone = together_len(job.kernel, m, nb);
    job.together = limit <= 1 && alone * sizeof(double) <= LU_UPDATE_BUFFERS &&
                   (double)m * (double)n * sizeof(double) >= LU_TOGETHER_MIN_BYTES;
    bool owned;
    double *bufs;
    if (job.together) {
        /* Apart from the GEMMs' buffer: the panels' GEMMs pack into it
         * while the prepared steps live. */
        bufs = par_scratch_region(par, PAR_SCRATCH_ROUTINE, alone * sizeof(double), &owned);
        job.buf_len = alone;
    } else {
        bufs = par_scratch_members(par, bound,
                                   lu_update_buffer_len(job.kernel, n, nb) * sizeof(double),
                                   &job.buf_len, &owned);
        job.buf_len /= sizeof(double);
    }
    job.bufs = bufs;
    if (tela_parallel_gated(tela_par_limit(par, limit > 1 ? limit : 1), "getrf", estimate,
                            (int)job.panels + 1, blocked_body, &job) < 0) {
        /* A bad policy (reported): the same steps on the caller. */
        job.bufs = NULL;
        tela_parallel_gated(tela_par_seq(), "getrf", estimate, 1, blocked_body, &job);
    }
    par_scratch_release(bufs, owned);
    return job.info;
}
