/* dc_solve.c — eig_stedc, divide and conquer on a symmetric tridiagonal (LAPACK's dstedc with
 * compz 'I', and dlaed0): the matrix splits where an off-diagonal is negligible; each block
 * above EIG_DC_LEAF is scaled to max-norm 1, cut in halves down to leaves of at most
 * EIG_DC_LEAF (a tree fixed by the block's order alone), the leaves solved by QL/QR and merged
 * bottom-up (dc_merge.c). Non-finite input is refused up front: a NaN hidden in an off-diagonal
 * would otherwise read as negligible and vanish (Reference-LAPACK #1403). */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>

size_t eig_stedc_len(tela_int n)
{
    if (n <= EIG_DC_LEAF)
        return n > 1 ? 2 * (size_t)(n - 1) : 1;
    /* A merge's (n^2 + 4 n) also holds the final reordering (n^2 + n). */
    return eig_dc_merge_len(n);
}

size_t eig_stedc_ilen(tela_int n)
{
    if (n <= EIG_DC_LEAF)
        return 1;
    /* The tree's subproblem ends (at most n), indxq (n), a merge's. */
    return 2 * (size_t)n + eig_dc_merge_ilen(n);
}

/* The largest |entry| of finite (d, e). */
static double max_abs(tela_int n, const double *d, const double *e)
{
    double m = 0.0;
    for (tela_int i = 0; i < n; i++)
        m = fmax(m, fabs(d[i]));
    for (tela_int i = 0; i + 1 < n; i++)
        m = fmax(m, fabs(e[i]));
    return m;
}

static void set_identity(tela_int n, double *q, tela_int ldq)
{
    for (tela_int j = 0; j < n; j++) {
        memset(q + j * ldq, 0, sizeof(double) * (size_t)n);
        q[j + j * ldq] = 1.0;
    }
}

/* Leaf QL/QR per entry cubed, and merge work per entry cubed (two GEMMs) and squared (roots),
 * in units of the GEMM rate: what the tree's regions tell the gate. */
#define DC_LEAF_FLOPS_PER_CUBE    60.0
#define DC_MERGE_FLOPS_PER_CUBE   2.0
#define DC_MERGE_FLOPS_PER_SQUARE 1000.0

/* One level of the tree: its subproblems (ends[i] where subproblem i ends), solved as leaves or
 * merged in pairs. Items are independent and each one's bits depend on the problem alone, so
 * members may take any share of them. */
typedef struct tree_job {
    tela_int n;
    double *d, *e, *q;
    tela_int ldq;
    double *work;
    tela_int *indxq, *merge_iwork;
    const tela_int *ends;
    tela_int count;      /* subproblems at this level */
    tela_par inner;      /* what a merge's products run on */
    _Atomic long failed; /* the first item that failed, or LONG_MAX */
} tree_job;

static tela_int begin_of(const tela_int *ends, tela_int i)
{
    return i ? ends[i - 1] : 0;
}

static void note_failure(tree_job *job, long item)
{
    long seen = atomic_load_explicit(&job->failed, memory_order_relaxed);
    while (item < seen &&
           !atomic_compare_exchange_weak_explicit(&job->failed, &seen, item, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

static void share(tela_int count, tela_member *self, tela_int *begin, tela_int *end)
{
    const int rank = tela_rank(self), width = tela_width(self);
    *begin = count * rank / width;
    *end = count * (rank + 1) / width;
}

static void leaves_body(tela_member *self, void *arg)
{
    tree_job *job = arg;
    tela_int begin, end;
    share(job->count, self, &begin, &end);
    for (tela_int i = begin; i < end; i++) {
        const tela_int start = begin_of(job->ends, i), size = job->ends[i] - start;
        /* The leaf's own off-diagonals are consumed; the cuts' stay for the merges. QL/QR's
         * 2 (size - 1) doubles lie at 2 start, apart from every other leaf's. */
        if (eig_steqr(true, size, job->d + start, job->e + start, job->q + start + start * job->ldq,
                      job->ldq, job->work + 2 * start)) {
            note_failure(job, (long)i);
            continue;
        }
        for (tela_int j = 0; j < size; j++)
            job->indxq[start + j] = j;
    }
}

/* Merges begin .. end - 1 of the level. */
static void merge_range(tree_job *job, tela_int begin, tela_int end)
{
    /* Merge j's work lies after merges 0 .. j - 1's: they fit in one merge of order n, since
     * the squares of the orders sum to at most n^2. Its iwork is linear in the order. */
    size_t offset = 0;
    for (tela_int j = 0; j < begin; j++) {
        const tela_int start = begin_of(job->ends, 2 * j);
        offset += eig_dc_merge_len(job->ends[2 * j + 1] - start);
    }
    for (tela_int j = begin; j < end; j++) {
        const tela_int start = begin_of(job->ends, 2 * j);
        const tela_int size = job->ends[2 * j + 1] - start, first = job->ends[2 * j] - start;
        if (eig_dc_merge(job->inner, size, first, job->d + start, job->q + start + start * job->ldq,
                         job->ldq, job->indxq + start, job->e[start + first - 1],
                         job->work + offset, job->merge_iwork + eig_dc_merge_ilen(start)))
            note_failure(job, (long)j);
        offset += eig_dc_merge_len(size);
    }
}

static void merges_body(tela_member *self, void *arg)
{
    tree_job *job = arg;
    tela_int begin, end;
    share(job->count / 2, self, &begin, &end);
    merge_range(job, begin, end);
}

/* Runs body over the level's items on the team when the gate says it pays, else on the
 * caller. */
static void run_level(tela_par par, const char *name, double estimate_ns, tela_body body,
                      tree_job *job, tela_int items)
{
    const double ns = estimate_ns * par_rate_ns_per_flop();
    if (items > 1 && par_may_split(par, ns)) {
        int limit = items < (1 << 20) ? (int)items : 1 << 20;
        if (par.max_width > 0 && par.max_width < limit)
            limit = par.max_width;
        if (tela_parallel_gated(tela_par_limit(par, limit), name, ns, 1, body, job) >= 0)
            return;
    }
    par_region_run_serial(body, job);
}

/* Divide and conquer on one unreduced block of order n > EIG_DC_LEAF, q (n x n) the identity
 * on entry (dlaed0). 0, or LAPACK's info relative to the block. */
static tela_int solve_block(tela_par par, tela_int n, double *d, double *e, double *q, tela_int ldq,
                            double *work, tela_int *iwork)
{
    /* The tree: each subproblem of a level halves (floor first) while the last, the largest,
     * exceeds the leaf order. ends[i] is where subproblem i ends. */
    tela_int *ends = iwork, *indxq = iwork + n, *merge_iwork = iwork + 2 * n;
    tela_int count = 1;
    ends[0] = n;
    while (ends[count - 1] > EIG_DC_LEAF) {
        for (tela_int j = count - 1; j >= 0; j--) {
            ends[2 * j + 1] = (ends[j] + 1) / 2;
            ends[2 * j] = ends[j] / 2;
        }
        count *= 2;
    }
    for (tela_int j = 1; j < count; j++)
        ends[j] += ends[j - 1];

    /* The tears: T = diag(T1, T2) + |e| v v^T with v = (.., 1, sign(e), ..) at each cut. */
    for (tela_int i = 0; i + 1 < count; i++) {
        const tela_int cut = ends[i];
        d[cut - 1] -= fabs(e[cut - 1]);
        d[cut] -= fabs(e[cut - 1]);
    }

    tree_job job = {.n = n,
                    .d = d,
                    .e = e,
                    .q = q,
                    .ldq = ldq,
                    .work = work,
                    .indxq = indxq,
                    .merge_iwork = merge_iwork,
                    .ends = ends,
                    .count = count,
                    .inner = tela_par_seq()};
    atomic_init(&job.failed, LONG_MAX);
    const double leaf = (double)EIG_DC_LEAF;
    run_level(par, "stedc_leaves", DC_LEAF_FLOPS_PER_CUBE * leaf * leaf * leaf * (double)count,
              leaves_body, &job, count);
    long failed = atomic_load_explicit(&job.failed, memory_order_relaxed);
    if (failed != LONG_MAX) {
        const tela_int start = begin_of(ends, (tela_int)failed);
        return (start + 1) * (n + 1) + ends[failed];
    }

    /* Levels with at least as many merges as members run them side by side, each merge on one
     * member; narrower levels run their merges one after the other, each on the whole team.
     * Either way a merge computes the same bits. */
    const int members = par_width_bound(par);
    for (; count > 1; count /= 2) {
        const tela_int merges = count / 2;
        const bool side_by_side = merges > 1 && merges >= members;
        job.count = count;
        job.inner = side_by_side ? tela_par_seq() : par;
        if (side_by_side) {
            const double size = (double)n / (double)merges;
            const double estimate =
                (DC_MERGE_FLOPS_PER_CUBE * size + DC_MERGE_FLOPS_PER_SQUARE) * size * size;
            run_level(par, "stedc_merges", estimate * (double)merges, merges_body, &job, merges);
        } else {
            /* Not in a region: the merges' own regions (roots, GEMMs) take the team. */
            merge_range(&job, 0, merges);
        }
        failed = atomic_load_explicit(&job.failed, memory_order_relaxed);
        if (failed != LONG_MAX) {
            const tela_int start = begin_of(ends, 2 * (tela_int)failed);
            return (start + 1) * (n + 1) + ends[2 * failed + 1];
        }
        for (tela_int j = 0; j < merges; j++)
            ends[j] = ends[2 * j + 1];
    }

    /* The values ascending, the vectors with them. */
    double *sorted = work, *vectors = work + n;
    for (tela_int i = 0; i < n; i++) {
        sorted[i] = d[indxq[i]];
        memcpy(vectors + i * n, q + indxq[i] * ldq, sizeof(double) * (size_t)n);
    }
    memcpy(d, sorted, sizeof(double) * (size_t)n);
    for (tela_int j = 0; j < n; j++)
        memcpy(q + j * ldq, vectors + j * n, sizeof(double) * (size_t)n);
    return 0;
}

/* Selection sort of the values, the vectors swapped with them (as dstedc: the blocks' values
 * interleave). */
static void sort_pairs(tela_int n, double *d, double *q, tela_int ldq)
{
    tela_int ascending = 1;
    while (ascending < n && d[ascending - 1] <= d[ascending])
        ascending++;
    if (ascending == n)
        return; /* one block, or blocks already in order: skip the n^2 / 2 comparisons */
    for (tela_int i = 0; i + 1 < n; i++) {
        tela_int k = i;
        for (tela_int j = i + 1; j < n; j++)
            if (d[j] < d[k])
                k = j;
        if (k == i)
            continue;
        const double t = d[k];
        d[k] = d[i];
        d[i] = t;
        double *a = q + i * ldq, *b = q + k * ldq;
        for (tela_int r = 0; r < n; r++) {
            const double x = a[r];
            a[r] = b[r];
            b[r] = x;
        }
    }
}

tela_int eig_stedc(tela_par par, tela_int n, double *d, double *e, double *q, tela_int ldq,
                   double *work, tela_int *iwork)
{
    if (n <= 0)
        return 0;
    if (n == 1) {
        q[0] = 1.0;
        return 0;
    }
    /* NaN or infinity anywhere: no eigenvalue can be computed. Say so for the whole matrix and
     * leave NaN in every output, never a plausible-looking answer. */
    bool finite = true;
    for (tela_int i = 0; finite && i < n; i++)
        finite = isfinite(d[i]) && (i + 1 == n || isfinite(e[i]));
    if (!finite) {
        for (tela_int j = 0; j < n; j++) {
            d[j] = NAN;
            for (tela_int i = 0; i < n; i++)
                q[i + j * ldq] = NAN;
        }
        return (n + 1) + n;
    }
    if (n <= EIG_DC_LEAF)
        return eig_steqr(true, n, d, e, q, ldq, work);

    set_identity(n, q, ldq);
    if (max_abs(n, d, e) == 0.0)
        return 0;
    const double eps = DBL_EPSILON / 2;
    for (tela_int start = 0; start < n;) {
        tela_int finish = start;
        while (finish + 1 < n &&
               fabs(e[finish]) > eps * sqrt(fabs(d[finish])) * sqrt(fabs(d[finish + 1])))
            finish++;
        const tela_int m = finish - start + 1;
        double *db = d + start, *eb = e + start, *qb = q + start + start * ldq;
        if (m > EIG_DC_LEAF) {
            const double scale = max_abs(m, db, eb);
            for (tela_int i = 0; i < m; i++)
                db[i] /= scale;
            for (tela_int i = 0; i + 1 < m; i++)
                eb[i] /= scale;
            const tela_int info = solve_block(par, m, db, eb, qb, ldq, work, iwork);
            if (info)
                return (info / (m + 1) + start) * (n + 1) + info % (m + 1) + start;
            for (tela_int i = 0; i < m; i++)
                db[i] *= scale;
        } else if (m > 1) {
            if (eig_steqr(true, m, db, eb, qb, ldq, work))
                return (start + 1) * (n + 1) + finish + 1;
        }
        start = finish + 1;
    }
    sort_pairs(n, d, q, ldq);
    return 0;
}
