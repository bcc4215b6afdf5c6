/* invit.c — eigenvectors of a symmetric tridiagonal matrix for given eigenvalues by inverse
 * iteration, as LAPACK's dstein: a random start, the LU of T - w I with partial pivoting, a few
 * solves, and Gram-Schmidt against the earlier vectors of the same cluster. Clusters are
 * independent, so members of a team take whole clusters; a vector's bits depend only on the
 * problem (its start is seeded by its own index), never on which member computes it. */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>

/* dstein's constants: at most MAXITS solves, EXTRA more after the growth test passes. */
enum { MAXITS = 5, EXTRA = 2 };

/* The LU with partial pivoting of the tridiagonal matrix (a - lambda, b above, c below), as
 * LAPACK's dlagtf: on return a holds U's diagonal, b its first and d its second superdiagonal,
 * c the multipliers, in[k] = 1 where rows k and k + 1 were swapped. */
static void tri_factor(tela_int n, double *a, double lambda, double *b, double *c, double *d,
                       tela_int *in)
{
    a[0] -= lambda;
    in[n - 1] = 0;
    if (n == 1)
        return;
    double scale1 = fabs(a[0]) + fabs(b[0]);
    for (tela_int k = 0; k < n - 1; k++) {
        a[k + 1] -= lambda;
        double scale2 = fabs(c[k]) + fabs(a[k + 1]);
        if (k < n - 2)
            scale2 += fabs(b[k + 1]);
        const double piv1 = a[k] == 0.0 ? 0.0 : fabs(a[k]) / scale1;
        if (c[k] == 0.0) {
            in[k] = 0;
            scale1 = scale2;
            if (k < n - 2)
                d[k] = 0.0;
            continue;
        }
        const double piv2 = fabs(c[k]) / scale2;
        if (piv2 <= piv1) {
            in[k] = 0;
            scale1 = scale2;
            c[k] /= a[k];
            a[k + 1] -= c[k] * b[k];
            if (k < n - 2)
                d[k] = 0.0;
        } else {
            in[k] = 1;
            const double mult = a[k] / c[k], temp = a[k + 1];
            a[k] = c[k];
            a[k + 1] = b[k] - mult * temp;
            if (k < n - 2) {
                d[k] = b[k + 1];
                b[k + 1] = -mult * d[k];
            }
            b[k] = temp;
            c[k] = mult;
        }
    }
}

/* The largest entry of U, times eps: the perturbation tri_solve adds to a pivot too small to
 * divide by (dlagts with job -1 and tol <= 0). */
static double tri_tolerance(tela_int n, const double *a, const double *b, const double *d)
{
    double tol = fabs(a[0]);
    if (n > 1)
        tol = fmax(tol, fmax(fabs(a[1]), fabs(b[0])));
    for (tela_int k = 2; k < n; k++)
        tol = fmax(tol, fmax(fabs(a[k]), fmax(fabs(b[k - 1]), fabs(d[k - 2]))));
    tol *= DBL_EPSILON / 2;
    return tol == 0.0 ? DBL_EPSILON / 2 : tol;
}

/* y over (T - lambda I)^-1 y from tri_factor's LU (dlagts, job -1): a pivot so small that the
 * quotient would overflow is nudged away from zero by tol, 2 tol, ... instead. */
static void tri_solve(tela_int n, const double *a, const double *b, const double *c,
                      const double *d, const tela_int *in, double tol, double *y)
{
    const double sfmin = DBL_MIN, bignum = 1.0 / DBL_MIN;
    for (tela_int k = 1; k < n; k++) {
        if (in[k - 1] == 0) {
            y[k] -= c[k - 1] * y[k - 1];
        } else {
            const double temp = y[k - 1];
            y[k - 1] = y[k];
            y[k] = temp - c[k - 1] * y[k];
        }
    }
    for (tela_int k = n - 1; k >= 0; k--) {
        double temp = y[k];
        if (k <= n - 3)
            temp -= b[k] * y[k + 1] + d[k] * y[k + 2];
        else if (k == n - 2)
            temp -= b[k] * y[k + 1];
        double ak = a[k], pert = copysign(tol, ak);
        for (;;) {
            const double absak = fabs(ak);
            if (absak >= 1.0)
                break;
            if (absak < sfmin) {
                if (absak == 0.0 || fabs(temp) * sfmin > absak) {
                    ak += pert;
                    pert *= 2;
                    continue;
                }
                temp *= bignum;
                ak *= bignum;
                break;
            }
            if (fabs(temp) > absak * bignum) {
                ak += pert;
                pert *= 2;
                continue;
            }
            break;
        }
        y[k] = temp / ak;
    }
}

/* Index of the first entry of largest magnitude (idamax). */
static tela_int largest_at(tela_int n, const double *x)
{
    tela_int at = 0;
    double best = fabs(x[0]);
    for (tela_int i = 1; i < n; i++)
        if (fabs(x[i]) > best) {
            best = fabs(x[i]);
            at = i;
        }
    return at;
}

/* Uniform in (-1, 1) from splitmix64: vector j's start depends on j alone. */
static void random_start(uint64_t seed, tela_int n, double *x)
{
    uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
    for (tela_int i = 0; i < n; i++) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        x[i] = (double)(z >> 11) * 0x1p-52 - 1.0; /* [-1, 1): -1 itself has weight 2^-53 */
    }
}

typedef struct stein_job {
    tela_int n;
    const double *d, *e;
    const double *x;      /* the shifts: w, nudged apart where they coincide */
    const double *onenrm; /* per block */
    const tela_int *block, *split, *column;
    const tela_int *first; /* cluster c holds vectors first[c] .. first[c + 1) - 1 */
    tela_int clusters;
    double *z;
    tela_int ldz;
    double *work; /* 5 n doubles per member, member_doubles apart */
    size_t member_doubles;
    tela_int *iwork; /* n per member */
    unsigned char *failed;
    atomic_long next; /* the next cluster not yet taken */
} stein_job;

/* The power of two that brings a block of 1-norm onenrm near 1 when it lies far outside it,
 * else 1. dstein's scaling of the right-hand side (n ||T|| max(eps, |u_nn|)) overflows once
 * ||T|| passes ~2^510 (reference dstein then returns NaN vectors with info 0); inside
 * [2^-400, 2^400], which covers every T tela_dsyevr makes, nothing changes. */
static double block_scale(double onenrm)
{
    if (onenrm > 0x1p400 || (onenrm > 0.0 && onenrm < 0x1p-400))
        return ldexp(1.0, -ilogb(onenrm));
    return 1.0;
}

/* Vector j of cluster start g (its block rows b1 .. b1 + bs - 1) into z's column column[j]. */
static void one_vector(const stein_job *job, tela_int g, tela_int j, double *work, tela_int *in)
{
    const tela_int b = job->block[j];
    const tela_int b1 = b > 0 ? job->split[b - 1] : 0, bs = job->split[b] - b1;
    double *col = job->z + (size_t)job->column[j] * (size_t)job->ldz;
    for (tela_int i = 0; i < job->n; i++)
        col[i] = 0.0;
    if (bs == 1) {
        col[b1] = 1.0;
        return;
    }
    double *y = work, *a = work + bs, *up = work + 2 * bs, *lo = work + 3 * bs, *d2 = work + 4 * bs;
    /* The block scaled by a power of two (exactly, up to entries negligible against it). */
    const double sigma = block_scale(job->onenrm[b]);
    const double eps = DBL_EPSILON, onenrm = job->onenrm[b] * sigma;
    const double growth = sqrt(0.1 / (double)bs); /* dstein's DTPCRT */
    random_start((uint64_t)j, bs, y);
    for (tela_int i = 0; i < bs; i++)
        a[i] = job->d[b1 + i] * sigma;
    for (tela_int i = 0; i + 1 < bs; i++)
        up[i] = lo[i] = job->e[b1 + i] * sigma;
    tri_factor(bs, a, job->x[j] * sigma, up, lo, d2, in);
    const double tol = tri_tolerance(bs, a, up, d2);
    bool done = false;
    for (int its = 0, checks = 0; its < MAXITS && !done; its++) {
        /* Scaled so the solve's growth is measured against ||T||: a vector that grows past
         * growth is accurate to the pivot's size. */
        const double scl =
            (double)bs * onenrm * fmax(eps, fabs(a[bs - 1])) / fabs(y[largest_at(bs, y)]);
        for (tela_int i = 0; i < bs; i++)
            y[i] *= scl;
        tri_solve(bs, a, up, lo, d2, in, tol, y);
        for (tela_int i = g; i < j; i++) { /* modified Gram-Schmidt within the cluster */
            const double *q = job->z + (size_t)job->column[i] * (size_t)job->ldz + b1;
            double dot = 0.0;
            for (tela_int r = 0; r < bs; r++)
                dot += y[r] * q[r];
            for (tela_int r = 0; r < bs; r++)
                y[r] -= dot * q[r];
        }
        if (fabs(y[largest_at(bs, y)]) >= growth && ++checks >= EXTRA + 1)
            done = true;
    }
    if (!done)
        job->failed[j] = 1;
    /* Unit 2-norm (summed after scaling by the largest entry, so nothing overflows), the
     * largest entry positive. */
    const tela_int at = largest_at(bs, y);
    const double big = fabs(y[at]);
    double sum = 0.0;
    for (tela_int i = 0; i < bs; i++) {
        const double t = y[i] / big;
        sum += t * t;
    }
    double scl = 1.0 / (big * sqrt(sum));
    if (y[at] < 0.0)
        scl = -scl;
    for (tela_int i = 0; i < bs; i++)
        col[b1 + i] = y[i] * scl;
}

static void stein_body(tela_member *self, void *arg)
{
    stein_job *job = arg;
    const int r = tela_rank(self);
    double *work = job->work + (size_t)r * job->member_doubles;
    tela_int *in = job->iwork + (size_t)r * (size_t)(job->n > 0 ? job->n : 1);
    for (;;) {
        const long c = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
        if (c >= (long)job->clusters)
            return;
        for (tela_int j = job->first[c]; j < job->first[c + 1]; j++)
            one_vector(job, job->first[c], j, work, in);
    }
}

static size_t member_doubles(tela_int n)
{
    /* Whole cache lines, so two members' buffers never share one. */
    const size_t per_line = PAR_CACHE_LINE / sizeof(double);
    const size_t len = 5 * (size_t)(n > 0 ? n : 1);
    return (len + per_line - 1) / per_line * per_line;
}

size_t eig_stein_len(tela_par par, tela_int n, tela_int m)
{
    const size_t members = (size_t)par_width_bound(par);
    return 2 * (size_t)(m > 0 ? m : 1) + (size_t)(n > 0 ? n : 1) + members * member_doubles(n) +
           PAR_CACHE_LINE / sizeof(double);
}

size_t eig_stein_ilen(tela_par par, tela_int n, tela_int m)
{
    const size_t members = (size_t)par_width_bound(par);
    return (size_t)(m > 0 ? m : 1) + 1 + members * (size_t)(n > 0 ? n : 1);
}

tela_int eig_stein(tela_par par, tela_int n, const double *d, const double *e, tela_int m,
                   const double *w, const tela_int *block, const tela_int *split,
                   const tela_int *column, double *z, tela_int ldz, double *work, tela_int *iwork,
                   tela_int *ifail)
{
    if (n <= 0 || m <= 0)
        return 0;
    const tela_int blocks = block[m - 1] + 1;
    double *x = work, *onenrm = work + m;
    unsigned char *failed = (unsigned char *)(work + m + n);
    for (tela_int j = 0; j < m; j++)
        failed[j] = 0;
    double *members = work + 2 * (size_t)m + (size_t)n;
    {
        /* Line up the members' buffers. */
        const uintptr_t mis = (uintptr_t)members % PAR_CACHE_LINE;
        if (mis)
            members += (PAR_CACHE_LINE - mis) / sizeof(double);
    }
    tela_int *first = iwork, *pivots = iwork + m + 1;

    /* The blocks' 1-norms, for the growth test and the cluster gap (1e-3 ||T_b||_1). */
    for (tela_int b = 0; b < blocks; b++) {
        const tela_int b1 = b > 0 ? split[b - 1] : 0, bn = split[b] - 1;
        double norm = fabs(d[b1]);
        if (bn > b1) {
            norm = fmax(fabs(d[b1]) + fabs(e[b1]), fabs(d[bn]) + fabs(e[bn - 1]));
            for (tela_int i = b1 + 1; i < bn; i++)
                norm = fmax(norm, fabs(d[i]) + fabs(e[i - 1]) + fabs(e[i]));
        }
        onenrm[b] = norm;
    }
    /* Shifts nudged apart by 10 ulps where they coincide (so the solves differ), and the
     * clusters: runs within one block whose neighbours are at most 1e-3 ||T_b|| apart. */
    tela_int clusters = 0;
    double work_estimate = 0.0;
    for (tela_int j = 0; j < m; j++) {
        const tela_int b = block[j];
        const tela_int bs = split[b] - (b > 0 ? split[b - 1] : 0);
        double xj = w[j];
        const bool same_block = j > 0 && block[j - 1] == b;
        if (same_block && bs > 1) {
            const double pertol = 10.0 * fabs(DBL_EPSILON * xj);
            if (xj - x[j - 1] < pertol)
                xj = x[j - 1] + pertol;
        }
        x[j] = xj;
        if (!same_block || bs == 1 || fabs(xj - x[j - 1]) > 1e-3 * onenrm[b])
            first[clusters++] = j;
        /* The factorization and three to five solves, a chain of divisions (~5000 of GEMM's
         * flops a row), and Gram-Schmidt against the cluster so far (~100 a row and vector). */
        work_estimate += (double)bs * (5000.0 + 100.0 * (double)(j - first[clusters - 1]));
    }
    first[clusters] = m;

    stein_job job = {.n = n,
                     .d = d,
                     .e = e,
                     .x = x,
                     .onenrm = onenrm,
                     .block = block,
                     .split = split,
                     .column = column,
                     .first = first,
                     .clusters = clusters,
                     .z = z,
                     .ldz = ldz,
                     .work = members,
                     .member_doubles = member_doubles(n),
                     .iwork = pivots,
                     .failed = failed};
    atomic_init(&job.next, 0);
    const int bound = par_width_bound(par);
    const int limit = clusters < bound ? (int)clusters : bound;
    if (tela_parallel_gated(tela_par_limit(par, limit > 1 ? limit : 1), "stein",
                            work_estimate * par_rate_ns_per_flop(), 1, stein_body, &job) < 0) {
        atomic_store(&job.next, 0);
        tela_parallel_gated(tela_par_seq(), "stein", 0.0, 1, stein_body, &job);
    }

    tela_int count = 0;
    for (tela_int j = 0; j < m; j++)
        if (failed[j]) {
            if (ifail)
                ifail[count] = j;
            count++;
        }
    return count;
}
