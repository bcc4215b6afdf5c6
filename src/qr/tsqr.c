/* tsqr.c — tall and skinny QR: a fixed number of row blocks (leaves) factored side by side,
 * their stacked R factors factored once more, then Q formed leaf by leaf and turned back into
 * Householder vectors (the reconstruction of Ballard et al., LAPACK's dorhr_col), so the output
 * is geqrf's. The leaves are set by the problem alone: every width computes the same bits. */
#include "level1/level1.h"
#include "par/engine.h"
#include "qr/qr.h"

#include <math.h>

#define TSQR_LEAVES_MAX 32
/* Each leaf holds at least this many times n rows (so its QR is mostly the leaf's own), and at
 * least TSQR_ROWS_MIN: below, the steps' calls cost more than the leaves save. */
#define TSQR_ROWS_PER_COLUMN 8
#define TSQR_ROWS_MIN        1024
/* A leaf's recursive panel, from cache, runs about this much slower per flop than GEMM (half the
 * slowdown of geqrf's panels from memory; measured at 10^5 x 16 .. 128, docs/qr.md). */
#define TSQR_LEAF_SLOWER 1.5
/* The top step's panel runs at geqrf's panel rate. */
#define TSQR_TOP_SLOWER 3.0
/* Rows of a leaf's Q formed and reconstructed at a time. */
#define TSQR_CHUNK 256
/* The widest A TSQR takes: its top factorization is (leaves n) x n, done by one member. */
#define TSQR_COLUMNS_MAX 256

tela_int qr_tsqr_leaves(tela_int m, tela_int n)
{
    if (n < 1 || n > TSQR_COLUMNS_MAX)
        return 1;
    const tela_int rows =
        TSQR_ROWS_PER_COLUMN * n > TSQR_ROWS_MIN ? TSQR_ROWS_PER_COLUMN * n : TSQR_ROWS_MIN;
    const tela_int leaves = m / rows;
    return leaves < TSQR_LEAVES_MAX ? leaves : TSQR_LEAVES_MAX;
}

/* Where a member's flags start in its space, after x and the chunk. */
static size_t member_flags(tela_int n)
{
    return (size_t)n * (size_t)n + (size_t)TSQR_CHUNK * (size_t)n;
}

typedef struct tsqr_job {
    double *a, *tau;
    tela_int m, n, lda, leaves;
    double *leaf_t;              /* leaves x (n x n): each leaf's T, its tau on the diagonal */
    double *leaf_tau;            /* leaves x n */
    double *stack;               /* (leaves n) x n: the leaves' R, then the top's Q */
    double *top_v;               /* (leaves n) x n: the top's reflectors while its Q is formed */
    double *top_t, *top_tau, *r; /* n x n, n, n x n (the top's R, then D R) */
    double *lu, *d;              /* n x n: Q's first n rows, then their L\U; n signs */
    double *members; /* per member: x (n x n), chunk (TSQR_CHUNK x n), n flags (see identity) */
    size_t member_len;
} tsqr_job;

static tela_int leaf_from(const tsqr_job *job, tela_int leaf)
{
    return (tela_int)((long long)job->m * leaf / job->leaves);
}

static void leaf_range(const tsqr_job *job, int rank, int width, tela_int *first, tela_int *last)
{
    *first = job->leaves * rank / width;
    *last = job->leaves * (rank + 1) / width;
}

static double *leaf_t(const tsqr_job *job, tela_int leaf)
{
    return job->leaf_t + (size_t)leaf * (size_t)job->n * (size_t)job->n;
}

static void factor_leaf(const tsqr_job *job, tela_int leaf)
{
    const tela_int n = job->n, from = leaf_from(job, leaf), rows = leaf_from(job, leaf + 1) - from;
    double *a = job->a + from;
    qr_panel(tela_par_seq(), rows, n, a, job->lda, job->leaf_tau + (size_t)leaf * n,
             leaf_t(job, leaf), n, true);
    const tela_int ld = job->leaves * n;
    double *r = job->stack + (size_t)leaf * n;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            r[i + (size_t)j * ld] = i <= j ? a[i + (size_t)j * job->lda] : 0.0;
}

/* LAPACK's dlaorhr_col_getrfnp: LU without pivoting of Q's first n rows minus the signs D,
 * d(j) = -sign(q(j, j)), which keeps every pivot at least 1 in size. */
static void sign_lu(tela_int n, double *q, double *d)
{
    for (tela_int j = 0; j < n; j++) {
        double *qj = q + (size_t)j * n;
        d[j] = qj[j] >= 0.0 ? -1.0 : 1.0;
        qj[j] -= d[j];
        const double pivot = qj[j];
        for (tela_int i = j + 1; i < n; i++)
            qj[i] /= pivot;
        for (tela_int c = j + 1; c < n; c++) {
            double *qc = q + (size_t)c * n;
            level1_axpy(n - j - 1, -qc[j], qj + j + 1, qc + j + 1);
        }
    }
}

/* x = T_i V_i1^T Qtop_i: what leaf i's Q needs of its reflectors, V_i's first n rows. */
static void leaf_coupling(const tsqr_job *job, tela_int leaf, double *x)
{
    const tela_int n = job->n, ld = job->leaves * n;
    const double *v = job->a + leaf_from(job, leaf);
    for (tela_int j = 0; j < n; j++)
        level1_copy(n, job->stack + (size_t)leaf * n + (size_t)j * ld, x + (size_t)j * n);
    tela_dtrmm(tela_par_seq(), 'L', 'L', 'T', 'U', n, n, 1.0, v, job->lda, x, n);
    tela_dtrmm(tela_par_seq(), 'L', 'U', 'N', 'N', n, n, 1.0, leaf_t(job, leaf), n, x, n);
}

/* Leaf i's first n rows of Q, into q: Qtop_i - V_i1 x, V_i1 being V_i's unit lower triangle. */
static void leaf_q_top(const tsqr_job *job, tela_int leaf, const double *x, double *q, tela_int ldq)
{
    const tela_int n = job->n, ld = job->leaves * n;
    const double *v = job->a + leaf_from(job, leaf);
    for (tela_int j = 0; j < n; j++)
        level1_copy(n, x + (size_t)j * n, q + (size_t)j * ldq);
    tela_dtrmm(tela_par_seq(), 'L', 'L', 'N', 'U', n, n, -1.0, v, job->lda, q, ldq);
    for (tela_int j = 0; j < n; j++)
        level1_axpy(n, 1.0, job->stack + (size_t)leaf * n + (size_t)j * ld, q + (size_t)j * ldq);
}

/* Member 0 between the leaves' two passes: the top QR, its Q, Q's first n rows and their
 * signed LU, and the final R = D R_top with tau. */
static void top_step(const tsqr_job *job, double *x)
{
    const tela_int n = job->n, ld = job->leaves * n;
    qr_panel(tela_par_seq(), ld, n, job->stack, ld, job->top_tau, job->top_t, n, true);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i <= j; i++)
            job->r[i + (size_t)j * n] = job->stack[i + (size_t)j * ld];
    /* The top's Q, formed over its own reflectors through a copy of them. */
    for (tela_int j = 0; j < n; j++)
        level1_copy(ld, job->stack + (size_t)j * ld, job->top_v + (size_t)j * ld);
    qr_form_q(tela_par_seq(), ld, n, job->top_v, ld, job->top_t, n, job->stack, ld, x);
    /* Q's first n rows are leaf 0's: Qtop_0 - V_01 T_0 V_01^T Qtop_0. */
    leaf_coupling(job, 0, x);
    leaf_q_top(job, 0, x, job->lu, n);
    sign_lu(n, job->lu, job->d);
    for (tela_int j = 0; j < n; j++) {
        job->tau[j] = -job->lu[j + (size_t)j * n] * job->d[j];
        for (tela_int i = 0; i <= j; i++)
            job->r[i + (size_t)j * n] *= job->d[i];
    }
}

/* Copies rows [from, from + rows) of the chunk's n columns to A, setting flag j when column j
 * has a nonzero (or NaN) strictly below the diagonal there. */
static void write_rows(const tsqr_job *job, const double *chunk, tela_int from, tela_int rows,
                       double *flags)
{
    for (tela_int j = 0; j < job->n; j++) {
        const double *src = chunk + (size_t)j * TSQR_CHUNK;
        level1_copy(rows, src, job->a + from + (size_t)j * job->lda);
        if (flags[j] != 0.0)
            continue;
        /* Mostly the first element below the diagonal already answers. */
        for (tela_int i = from > j ? 0 : j + 1 - from; i < rows; i++)
            if (src[i] != 0.0 || isnan(src[i])) {
                flags[j] = 1.0;
                break;
            }
    }
}

/* Leaf i's rows of Q, made Householder vectors: Q U^-1 below the first n rows of A. Below the
 * leaf's own first n rows Q is -V_i x, so Q U^-1 = -V_i (x U^-1): one GEMM per chunk. */
static void reconstruct_leaf(const tsqr_job *job, tela_int leaf, double *x, double *chunk,
                             double *flags)
{
    const tela_int n = job->n, from = leaf_from(job, leaf), rows = leaf_from(job, leaf + 1) - from;
    double *a = job->a + from;
    const tela_int lda = job->lda;
    leaf_coupling(job, leaf, x);
    if (leaf == 0) { /* A's first n rows: D R above the diagonal, L below */
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < n; i++)
                chunk[i + (size_t)j * TSQR_CHUNK] =
                    i <= j ? job->r[i + (size_t)j * n] : job->lu[i + (size_t)j * n];
    } else {
        leaf_q_top(job, leaf, x, chunk, TSQR_CHUNK);
        tela_dtrsm(tela_par_seq(), 'R', 'U', 'N', 'N', n, n, 1.0, job->lu, n, chunk, TSQR_CHUNK);
    }
    tela_dtrsm(tela_par_seq(), 'R', 'U', 'N', 'N', n, n, 1.0, job->lu, n, x, n);
    /* The first chunk's rows of V_i are read only through x from here: they may be written. */
    write_rows(job, chunk, from, n, flags);
    for (tela_int c0 = n; c0 < rows; c0 += TSQR_CHUNK) {
        const tela_int c = rows - c0 < TSQR_CHUNK ? rows - c0 : TSQR_CHUNK;
        tela_dgemm(tela_par_seq(), 'N', 'N', c, n, n, -1.0, a + c0, lda, x, n, 0.0, chunk,
                   TSQR_CHUNK);
        write_rows(job, chunk, from + c0, c, flags);
    }
}

/* A column with nothing below its diagonal gets dlarfg's H = I (tau = 0), as LAPACK's geqrf
 * gives it, where the reconstruction made it a sign flip (tau = 2, v = e_j): the flip commutes
 * with the later reflectors, so dropping it and negating R's row j leaves A = Q R exact. */
static void identity_where_nothing_below(const tsqr_job *job, int width)
{
    const tela_int n = job->n;
    for (tela_int j = 0; j < n; j++) {
        bool below = false;
        for (int r = 0; r < width; r++)
            below |= job->members[(size_t)r * job->member_len + member_flags(n) + (size_t)j] != 0.0;
        if (below || job->tau[j] == 0.0)
            continue;
        job->tau[j] = 0.0;
        for (tela_int c = j; c < n; c++)
            job->a[j + (size_t)c * job->lda] = -job->a[j + (size_t)c * job->lda];
        double *v = job->a + (size_t)j * job->lda; /* -0 from the GEMMs: A's zeros as given */
        for (tela_int i = j + 1; i < job->m; i++)
            v[i] = 0.0;
    }
}

static void tsqr_body(tela_member *self, void *arg)
{
    const tsqr_job *job = arg;
    const int width = tela_width(self), rank = tela_rank(self);
    double *x = job->members + (size_t)rank * job->member_len;
    double *chunk = x + (size_t)job->n * (size_t)job->n;
    double *flags = x + member_flags(job->n);
    for (tela_int j = 0; j < job->n; j++)
        flags[j] = 0.0;
    tela_int first, last;
    leaf_range(job, rank, width, &first, &last);
    for (tela_int leaf = first; leaf < last; leaf++)
        factor_leaf(job, leaf);
    tela_barrier(self);
    if (rank == 0)
        top_step(job, x);
    tela_barrier(self);
    for (tela_int leaf = first; leaf < last; leaf++)
        reconstruct_leaf(job, leaf, x, chunk, flags);
    tela_barrier(self);
    if (rank == 0)
        identity_where_nothing_below(job, width);
}

static size_t member_len(tela_int n)
{
    return member_flags(n) + (size_t)n + 8;
}

size_t qr_tsqr_len(tela_par par, tela_int m, tela_int n)
{
    const size_t leaves = (size_t)qr_tsqr_leaves(m, n), nn = (size_t)n * (size_t)n;
    return 3 * leaves * nn + leaves * (size_t)n + 3 * nn + 2 * (size_t)n +
           (size_t)par_width_bound(par) * member_len(n);
}

double qr_tsqr_flops(tela_int m, tela_int n)
{
    /* At the GEMM rate: the leaves' recursive panels (3 m n^2 with their T, at the leaves'
     * slowdown), Q's rows and their reconstruction (2 m n^2 each), and the top's steps on
     * (leaves n) rows (its panel at the panel's slowdown, its Q). */
    const double x = (double)m, y = (double)n, top = (double)qr_tsqr_leaves(m, n) * y;
    return (3.0 * TSQR_LEAF_SLOWER + 4.0) * x * y * y + (3.0 * TSQR_TOP_SLOWER + 2.0) * top * y * y;
}

void qr_tsqr(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
             double *work)
{
    const tela_int leaves = qr_tsqr_leaves(m, n);
    const size_t nn = (size_t)n * (size_t)n, stack = (size_t)leaves * nn;
    tsqr_job job = {.a = a, .tau = tau, .m = m, .n = n, .lda = lda, .leaves = leaves};
    double *p = work;
    job.leaf_t = p, p += stack;
    job.stack = p, p += stack;
    job.top_v = p, p += stack;
    job.leaf_tau = p, p += (size_t)leaves * (size_t)n;
    job.top_t = p, p += nn;
    job.r = p, p += nn;
    job.lu = p, p += nn;
    job.top_tau = p, p += (size_t)n;
    job.d = p, p += (size_t)n;
    job.members = p;
    job.member_len = member_len(n);
    const double estimate = qr_tsqr_flops(m, n) * par_rate_ns_per_flop();
    if (tela_parallel_gated(tela_par_limit(par, (int)leaves), "tsqr", estimate, 4, tsqr_body,
                            &job) < 0)
        tela_parallel_gated(tela_par_seq(), "tsqr", estimate, 4, tsqr_body, &job);
}
