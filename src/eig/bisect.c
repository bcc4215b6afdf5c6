/* bisect.c — eigenvalues of a symmetric tridiagonal matrix by bisection on Sturm counts, as
 * LAPACK's dstebz: all of them, those in (vl, vu] or the il-th to iu-th, each to an absolute
 * tolerance, listed block by block after the matrix splits where its off-diagonal is negligible. */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>

/* Shifts counted side by side: independent recurrences interleaved hide the division's latency
 * (a chain of one shift waits on every division; eight keep the divider busy). */
enum { BATCH = 8 };

/* dstebz's margins: Gershgorin bounds widened by FUDGE rounding errors, RELFAC ulps of relative
 * tolerance on each value. */
static const double FUDGE = 2.1, RELFAC = 2.0;

bool eig_range_flag(char c, eig_range *range)
{
    switch (c) {
    case 'A':
    case 'a':
        *range = EIG_RANGE_ALL;
        return true;
    case 'V':
    case 'v':
        *range = EIG_RANGE_VALUES;
        return true;
    case 'I':
    case 'i':
        *range = EIG_RANGE_INDICES;
        return true;
    default:
        return false;
    }
}

/* For each shift x[s], how many eigenvalues of the n rows (squared off-diagonals e2, zero
 * where the matrix splits) are at most x[s]: the negative pivots of the LDL^T of T - x I.
 * Pivots at most pivmin count as negative and become at most -pivmin, so no division
 * overflows and the count stays monotone in x (Kahan's safeguard, dlaebz). All BATCH lanes run
 * so the inner loop has a fixed length; the caller fills unused ones. */
static void sturm_counts(tela_int n, const double *d, const double *e2, double pivmin,
                         const double *x, tela_int *count)
{
    double t[BATCH];
    tela_int c[BATCH];
    for (int s = 0; s < BATCH; s++) {
        const double v = d[0] - x[s];
        const bool neg = v <= pivmin;
        c[s] = neg;
        t[s] = neg && v > -pivmin ? -pivmin : v;
    }
    for (tela_int j = 1; j < n; j++) {
        const double dj = d[j], ej = e2[j - 1];
        for (int s = 0; s < BATCH; s++) {
            const double v = dj - ej / t[s] - x[s];
            const bool neg = v <= pivmin;
            c[s] += neg;
            t[s] = neg && v > -pivmin ? -pivmin : v;
        }
    }
    for (int s = 0; s < BATCH; s++)
        count[s] = c[s];
}

/* One shift's count: sturm_counts's lane alone (the same operations, so the same count), for
 * the searches that bisect a single point and the last few intervals of a group, where eight
 * lanes would do eight times the work. */
static tela_int sturm_count(tela_int n, const double *d, const double *e2, double pivmin, double x)
{
    double v = d[0] - x;
    bool neg = v <= pivmin;
    tela_int c = neg;
    double t = neg && v > -pivmin ? -pivmin : v;
    for (tela_int j = 1; j < n; j++) {
        v = d[j] - e2[j - 1] / t - x;
        neg = v <= pivmin;
        c += neg;
        t = neg && v > -pivmin ? -pivmin : v;
    }
    return c;
}

/* Bisection's bound on steps: enough halvings of width to reach pivmin, plus two. */
static tela_int step_bound(double width, double pivmin)
{
    const double steps = (log(width + pivmin) - log(pivmin)) / log(2.0);
    return steps > 0 && steps < 4096 ? (tela_int)steps + 2 : 4096;
}

static bool converged(double lo, double hi, double atol, double pivmin)
{
    const double big = fmax(fabs(lo), fabs(hi));
    return fabs(hi - lo) < fmax(fmax(atol, pivmin), RELFAC * DBL_EPSILON * big);
}

/* Eigenvalues bisected per group: a group keeps only the intervals that hold one of its
 * eigenvalues, so its list (on the stack) never exceeds GROUP. */
enum { GROUP = 32 };

/* A block's bisection (n rows, its eigenvalues nlo + 1 .. nhi in (lo, hi]), cut into groups of
 * GROUP consecutive eigenvalues that members of a team take whole. */
typedef struct bisect_job {
    tela_int n;
    const double *d, *e2;
    double pivmin, atol, lo, hi;
    tela_int nlo, nhi, steps, groups;
    double *w;       /* eigenvalue nlo + 1 + k at w[k] */
    tela_int failed; /* per group's count, summed after the region */
    tela_int *group_failed;
    atomic_long next;
} bisect_job;

/* Group g's eigenvalues (nlo + g GROUP + 1 onwards) to w, each to max(atol, pivmin,
 * 2 ulp |value|); a converged interval gives its midpoint to every eigenvalue it holds (a
 * cluster within the tolerance). All live intervals are halved at once, the midpoints counted
 * BATCH at a time. An eigenvalue's interval evolves the same whatever else is in the list, so
 * the values do not depend on the grouping. Returns how many did not converge within the step
 * bound (they get their last interval's midpoint). */
static tela_int bisect_group(const bisect_job *job, tela_int g)
{
    const tela_int keep_lo = job->nlo + g * GROUP;
    const tela_int keep_hi = keep_lo + GROUP < job->nhi ? keep_lo + GROUP : job->nhi;
    double lo[GROUP], hi[GROUP];
    tela_int nlo[GROUP], nhi[GROUP], count = 1;
    lo[0] = job->lo;
    hi[0] = job->hi;
    nlo[0] = job->nlo;
    nhi[0] = job->nhi;
    for (tela_int step = 0; step < job->steps && count > 0; step++) {
        /* Halve every interval (those split off this step wait for the next). */
        const tela_int live = count;
        for (tela_int i0 = 0; i0 < live; i0 += BATCH) {
            double x[BATCH];
            tela_int c[BATCH];
            const int k = live - i0 < BATCH ? (int)(live - i0) : BATCH;
            for (int s = 0; s < BATCH; s++) {
                const tela_int i = i0 + (s < k ? s : 0);
                x[s] = 0.5 * (lo[i] + hi[i]);
            }
            if (k <= 2)
                for (int s = 0; s < k; s++)
                    c[s] = sturm_count(job->n, job->d, job->e2, job->pivmin, x[s]);
            else
                sturm_counts(job->n, job->d, job->e2, job->pivmin, x, c);
            for (int s = 0; s < k; s++) {
                const tela_int i = i0 + s;
                /* Clamped to the interval's counts: a count outside them would be rounding. */
                tela_int cs = c[s] < nlo[i] ? nlo[i] : c[s];
                cs = cs > nhi[i] ? nhi[i] : cs;
                const bool below = nlo[i] < keep_hi && cs > keep_lo; /* (lo, x] keeps some */
                const bool above = cs < keep_hi && nhi[i] > keep_lo; /* (x, hi] keeps some */
                if (cs == nhi[i] || !above) {
                    hi[i] = x[s];
                    nhi[i] = cs;
                } else if (cs == nlo[i] || !below) {
                    lo[i] = x[s];
                    nlo[i] = cs;
                } else { /* kept eigenvalues on both sides: the upper half becomes a new one */
                    lo[count] = x[s];
                    hi[count] = hi[i];
                    nlo[count] = cs;
                    nhi[count] = nhi[i];
                    count++;
                    hi[i] = x[s];
                    nhi[i] = cs;
                }
            }
        }
        /* Converged intervals give their values and leave the list. */
        tela_int kept = 0;
        for (tela_int i = 0; i < count; i++) {
            if (converged(lo[i], hi[i], job->atol, job->pivmin) || nlo[i] >= nhi[i]) {
                const double mid = 0.5 * (lo[i] + hi[i]);
                const tela_int from = nlo[i] > keep_lo ? nlo[i] : keep_lo;
                const tela_int to = nhi[i] < keep_hi ? nhi[i] : keep_hi;
                for (tela_int j = from; j < to; j++)
                    job->w[j - job->nlo] = mid;
                continue;
            }
            lo[kept] = lo[i];
            hi[kept] = hi[i];
            nlo[kept] = nlo[i];
            nhi[kept] = nhi[i];
            kept++;
        }
        count = kept;
    }
    tela_int failed = 0;
    for (tela_int i = 0; i < count; i++) {
        const double mid = 0.5 * (lo[i] + hi[i]);
        const tela_int from = nlo[i] > keep_lo ? nlo[i] : keep_lo;
        const tela_int to = nhi[i] < keep_hi ? nhi[i] : keep_hi;
        for (tela_int j = from; j < to; j++)
            job->w[j - job->nlo] = mid;
        failed += to - from;
    }
    return failed;
}

static void bisect_body(tela_member *self, void *arg)
{
    (void)self;
    bisect_job *job = arg;
    for (;;) {
        const long g = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (g >= (long)job->groups)
            return;
        job->group_failed[g] = bisect_group(job, g);
    }
}

/* Every eigenvalue of the block in (lo, hi] (counts nlo < nhi there) to w, the groups side by
 * side on par's members when that pays. group_failed holds a count per group. Returns how
 * many did not converge. */
static tela_int bisect_block(tela_par par, tela_int n, const double *d, const double *e2,
                             double pivmin, double atol, double lo, double hi, tela_int nlo,
                             tela_int nhi, double *w, tela_int *group_failed)
{
    bisect_job job = {.n = n,
                      .d = d,
                      .e2 = e2,
                      .pivmin = pivmin,
                      .atol = atol,
                      .lo = lo,
                      .hi = hi,
                      .nlo = nlo,
                      .nhi = nhi,
                      .steps = step_bound(hi - lo, pivmin),
                      .groups = (nhi - nlo + GROUP - 1) / GROUP,
                      .w = w,
                      .group_failed = group_failed};
    atomic_init(&job.next, 0);
    /* A count's row costs a division (~200 of GEMM's flops); an eigenvalue takes the halvings
     * from the block's width down to its tolerance (the step bound, down to pivmin, is far
     * more). */
    const double tol = fmax(fmax(atol, pivmin), DBL_EPSILON * fmax(fabs(lo), fabs(hi)));
    const double halvings = fmin((double)job.steps, log2((hi - lo) / tol + 1.0) + 1.0);
    const double estimate =
        200.0 * (double)n * halvings * (double)(nhi - nlo) * par_rate_ns_per_flop();
    const int bound = par_width_bound(par);
    const int limit = job.groups < bound ? (int)job.groups : bound;
    if (tela_parallel_gated(tela_par_limit(par, limit > 1 ? limit : 1), "stebz", estimate, 1,
                            bisect_body, &job) < 0) {
        atomic_store(&job.next, 0);
        bisect_body(NULL, &job);
    }
    tela_int failed = 0;
    for (tela_int g = 0; g < job.groups; g++)
        failed += group_failed[g];
    return failed;
}

/* A point in [gl, gu] whose count over the whole matrix is target, or the ends of an interval
 * within the tolerance whose counts straddle it (dlaebz's job 3): *lo with *nlo <= target, *hi
 * with *nhi >= target. Two searches side by side, as many steps as dstebz allows (from tnorm,
 * the Gershgorin bound before its margins: which values a tie loses depends on it). */
static void find_counts(tela_int n, const double *d, const double *e2, double pivmin, double atol,
                        double tnorm, double gl, double gu, const tela_int target[2], double lo[2],
                        double hi[2], tela_int nlo[2], tela_int nhi[2])
{
    for (int k = 0; k < 2; k++) {
        lo[k] = gl;
        hi[k] = gu;
        nlo[k] = -1;
        nhi[k] = n + 1;
    }
    const tela_int steps = step_bound(tnorm, pivmin); /* dstebz's: ||T|| before the margins */
    bool done[2] = {false, false};
    for (tela_int step = 0; step < steps && !(done[0] && done[1]); step++) {
        double x[BATCH];
        tela_int c[BATCH];
        /* The first step counts at the bounds themselves (the lower search at gl, the upper at
         * gu), so that a window already within the tolerance still has true counts. */
        for (int s = 0; s < BATCH; s++)
            x[s] = step == 0 ? (s & 1 ? gu : gl) : 0.5 * (lo[s & 1] + hi[s & 1]);
        sturm_counts(n, d, e2, pivmin, x, c);
        for (int k = 0; k < 2; k++) {
            if (done[k])
                continue;
            if (c[k] <= target[k]) {
                lo[k] = x[k];
                nlo[k] = c[k];
            }
            if (c[k] >= target[k]) {
                hi[k] = x[k];
                nhi[k] = c[k];
            }
            done[k] = converged(lo[k], hi[k], atol, pivmin) || nlo[k] >= nhi[k];
        }
    }
}

size_t eig_stebz_len(tela_int n)
{
    return (size_t)(n > 0 ? n : 1);
}

size_t eig_stebz_ilen(tela_int n)
{
    return (size_t)(n > 0 ? n : 1) / GROUP + 1;
}

/* Drops the values a range 'I' search found beyond the il-th .. iu-th (dstebz): ties at the
 * window's ends, where the counts at its ends could not separate them, lose their values
 * nearest the ends. discard[0] at the low end (values at most wlu first), discard[1] at the
 * high end (values at least wul first). */
static tela_int drop_extra(tela_int m, double *w, tela_int *block, tela_int discard[2], double wl,
                           double wlu, double wu, double wul)
{
    tela_int kept = 0;
    for (tela_int j = 0; j < m; j++) {
        if (w[j] <= wlu && discard[0] > 0) {
            discard[0]--;
        } else if (w[j] >= wul && discard[1] > 0) {
            discard[1]--;
        } else {
            w[kept] = w[j];
            block[kept] = block[j];
            kept++;
        }
    }
    m = kept;
    if (discard[0] <= 0 && discard[1] <= 0)
        return m;
    /* Still too many: the smallest (then largest) remaining ones go, marked by block -1. */
    for (tela_int k = 0; k < discard[0]; k++) {
        tela_int best = -1;
        double value = wu;
        for (tela_int j = 0; j < m; j++)
            if (block[j] >= 0 && (w[j] < value || best < 0)) {
                best = j;
                value = w[j];
            }
        if (best >= 0)
            block[best] = -1;
    }
    for (tela_int k = 0; k < discard[1]; k++) {
        tela_int best = -1;
        double value = wl;
        for (tela_int j = 0; j < m; j++)
            if (block[j] >= 0 && (w[j] > value || best < 0)) {
                best = j;
                value = w[j];
            }
        if (best >= 0)
            block[best] = -1;
    }
    kept = 0;
    for (tela_int j = 0; j < m; j++)
        if (block[j] >= 0) {
            w[kept] = w[j];
            block[kept] = block[j];
            kept++;
        }
    discard[0] = discard[0] > 0 ? 0 : discard[0];
    discard[1] = discard[1] > 0 ? 0 : discard[1];
    return kept;
}

tela_int eig_stebz(tela_par par, eig_range range, tela_int n, double vl, double vu, tela_int il,
                   tela_int iu, double abstol, const double *d, const double *e, tela_int *m,
                   tela_int *nsplit, double *w, tela_int *block, tela_int *split, double *work,
                   tela_int *iwork)
{
    *m = 0;
    *nsplit = 0;
    if (n <= 0)
        return 0;
    if (range == EIG_RANGE_INDICES && il == 1 && iu == n)
        range = EIG_RANGE_ALL;
    const double ulp = DBL_EPSILON, safmin = DBL_MIN;
    if (n == 1) {
        *nsplit = 1;
        split[0] = 1;
        if (range == EIG_RANGE_VALUES && (vl >= d[0] || vu < d[0]))
            return 0;
        w[0] = d[0];
        block[0] = 0;
        *m = 1;
        return 0;
    }

    /* Split where e(j)^2 is negligible next to |d(j) d(j+1)| (or underflows); pivmin is the
     * smallest pivot the counts let stand, relative to the largest e^2 kept. */
    double *e2 = work;
    tela_int blocks = 0;
    double pivmin = 1.0;
    e2[n - 1] = 0.0;
    for (tela_int j = 1; j < n; j++) {
        const double t = e[j - 1] * e[j - 1];
        if (fabs(d[j] * d[j - 1]) * ulp * ulp + safmin > t) {
            split[blocks++] = j;
            e2[j - 1] = 0.0;
        } else {
            e2[j - 1] = t;
            pivmin = fmax(pivmin, t);
        }
    }
    split[blocks++] = n;
    *nsplit = blocks;
    pivmin *= safmin;

    /* The window (wl, wu] of values, and for range 'I' the counts at its ends (nwl, nwu) and
     * the inner ends of the intervals that found them (wlu, wul). */
    double wl = 0.0, wu = 0.0, wlu = 0.0, wul = 0.0;
    tela_int nwl = 0, nwu = 0;
    if (range == EIG_RANGE_INDICES) {
        double gl = d[0], gu = d[0], prev = 0.0;
        for (tela_int j = 0; j < n - 1; j++) {
            const double off = sqrt(e2[j]);
            gu = fmax(gu, d[j] + prev + off);
            gl = fmin(gl, d[j] - prev - off);
            prev = off;
        }
        gu = fmax(gu, d[n - 1] + prev);
        gl = fmin(gl, d[n - 1] - prev);
        const double tnorm = fmax(fabs(gl), fabs(gu));
        gl -= FUDGE * tnorm * ulp * (double)n + FUDGE * 2.0 * pivmin;
        gu += FUDGE * tnorm * ulp * (double)n + FUDGE * pivmin;
        const double atol = abstol <= 0.0 ? ulp * tnorm : abstol;
        const tela_int target[2] = {il - 1, iu};
        double lo[2], hi[2];
        tela_int nlo[2], nhi[2];
        find_counts(n, d, e2, pivmin, atol, tnorm, gl, gu, target, lo, hi, nlo, nhi);
        wl = lo[0];
        wlu = hi[0];
        nwl = nlo[0];
        wu = hi[1];
        wul = lo[1];
        nwu = nhi[1];
        if (nwl < 0 || nwl >= n || nwu < 1 || nwu > n)
            return 4;
    } else if (range == EIG_RANGE_VALUES) {
        wl = vl;
        wu = vu;
    }

    /* Block by block: the block's Gershgorin interval cut to the window, its eigenvalues
     * there by bisection, w and block filled in the block's order. */
    tela_int found = 0, failed = 0, begin = 0;
    nwl = 0;
    nwu = 0;
    for (tela_int b = 0; b < blocks; b++) {
        const tela_int end = split[b], rows = end - begin;
        const double *db = d + begin, *e2b = e2 + begin;
        if (rows == 1) {
            const double v = db[0];
            const bool all = range == EIG_RANGE_ALL;
            if (all || wl >= v - pivmin)
                nwl++;
            if (all || wu >= v - pivmin)
                nwu++;
            if (all || (wl < v - pivmin && wu >= v - pivmin)) {
                w[found] = v;
                block[found] = b;
                found++;
            }
            begin = end;
            continue;
        }
        double gl = db[0], gu = db[0], prev = 0.0;
        for (tela_int j = 0; j < rows - 1; j++) {
            const double off = fabs(e[begin + j]);
            gu = fmax(gu, db[j] + prev + off);
            gl = fmin(gl, db[j] - prev - off);
            prev = off;
        }
        gu = fmax(gu, db[rows - 1] + prev);
        gl = fmin(gl, db[rows - 1] - prev);
        const double bnorm = fmax(fabs(gl), fabs(gu));
        gl -= FUDGE * bnorm * ulp * (double)rows + FUDGE * pivmin;
        gu += FUDGE * bnorm * ulp * (double)rows + FUDGE * pivmin;
        const double atol = abstol <= 0.0 ? ulp * fmax(fabs(gl), fabs(gu)) : abstol;
        if (range != EIG_RANGE_ALL) {
            if (gu <= wl) { /* the whole block lies below the window */
                nwl += rows;
                nwu += rows;
                begin = end;
                continue;
            }
            gl = fmax(gl, wl);
            gu = fmin(gu, wu);
            if (gl >= gu) {
                begin = end;
                continue;
            }
        }
        const tela_int cl = sturm_count(rows, db, e2b, pivmin, gl);
        const tela_int cu = sturm_count(rows, db, e2b, pivmin, gu);
        nwl += cl;
        nwu += cu;
        if (cu > cl) {
            failed +=
                bisect_block(par, rows, db, e2b, pivmin, atol, gl, gu, cl, cu, w + found, iwork);
            for (tela_int j = found; j < found + cu - cl; j++)
                block[j] = b;
            found += cu - cl;
        }
        begin = end;
    }

    tela_int info = failed > 0 ? 1 : 0;
    if (range == EIG_RANGE_INDICES) {
        tela_int discard[2] = {il - 1 - nwl, nwu - iu};
        if (discard[0] > 0 || discard[1] > 0)
            found = drop_extra(found, w, block, discard, wl, wlu, wu, wul);
        if (discard[0] < 0 || discard[1] < 0)
            info += 2; /* too few found: ties the tolerance could not split */
    }
    *m = found;
    return info;
}

void eig_sort_order(tela_int m, const double *w, tela_int *order, tela_int *tmp)
{
    /* Bottom-up merge sort of the indices: stable, so equal values keep the block order. */
    for (tela_int j = 0; j < m; j++)
        order[j] = j;
    for (tela_int width = 1; width < m; width *= 2) {
        for (tela_int lo = 0; lo < m; lo += 2 * width) {
            const tela_int mid = lo + width < m ? lo + width : m;
            const tela_int hi = lo + 2 * width < m ? lo + 2 * width : m;
            tela_int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = w[order[j]] < w[order[i]] ? order[j++] : order[i++];
            while (i < mid)
                tmp[k++] = order[i++];
            while (j < hi)
                tmp[k++] = order[j++];
        }
        for (tela_int j = 0; j < m; j++)
            order[j] = tmp[j];
    }
}
