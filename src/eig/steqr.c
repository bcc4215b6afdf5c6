/* steqr.c — the eigenvalues and vectors of a symmetric tridiagonal matrix by implicit QL/QR
 * with Wilkinson shifts (LAPACK's dsteqr), and the public tela_dsteqr. Each sweep's rotations
 * are kept in work and applied to Z's columns in one pass, as dlasr does; the rows of Z never
 * interact, so the result does not depend on how that pass is ordered over rows. */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* LAPACK's limit: at most 30 n sweeps in all before giving up. */
#define STEQR_MAXIT 30

/* What the sweeps over one block share: the sweep count and its limit, Z's rows this caller
 * rotates and the rotations' cosines and sines (c[i], s[i] for the rotation of rows i, i + 1). */
struct steqr_state {
    tela_int done, limit;
    tela_int n;    /* Z's rows rotated here (all n, or a member's share) */
    double *z;     /* their first, in column 0 (column-major, n columns) */
    tela_int ldz;  /* Z's leading dimension */
    double *c, *s; /* n - 1 each, from work */
};

static double *column(const struct steqr_state *st, tela_int j)
{
    return st->z + (size_t)j * (size_t)st->ldz;
}

/* |e|^2 negligible beside |d_a d_b| (dsteqr's test, safmin added so underflow splits). */
static bool negligible(double e, double da, double db)
{
    const double eps = DBL_EPSILON / 2;
    const double tst = fabs(e) * fabs(e);
    return tst <= (eps * eps * fabs(da)) * fabs(db) + DBL_MIN;
}

/* QL on the block l .. lend (l < lend): values deflate at the top. */
static void ql(tela_int l, tela_int lend, double *d, double *e, struct steqr_state *st)
{
    while (l <= lend) {
        tela_int m = l;
        while (m < lend && !negligible(e[m], d[m], d[m + 1]))
            m++;
        if (m < lend)
            e[m] = 0.0;
        if (m == l) {
            l++;
            continue;
        }
        if (m == l + 1) { /* a 2 x 2 block: its rotation directly */
            double rt1, rt2, c, s;
            eig_laev2(d[l], e[l], d[l + 1], &rt1, &rt2, &c, &s);
            eig_rotate_columns(false, st->n, 2, &c, &s, column(st, l), st->ldz);
            d[l] = rt1;
            d[l + 1] = rt2;
            e[l] = 0.0;
            l += 2;
            continue;
        }
        if (st->done == st->limit)
            return;
        st->done++;
        /* Wilkinson's shift from the top 2 x 2, then the chase from the bottom up. */
        double p = d[l];
        double g = (d[l + 1] - p) / (2.0 * e[l]);
        double r = eig_hypot(g, 1.0);
        g = d[m] - p + e[l] / (g + copysign(r, g));
        double s = 1.0, c = 1.0;
        p = 0.0;
        for (tela_int i = m - 1; i >= l; i--) {
            const double f = s * e[i], b = c * e[i];
            eig_lartg(g, f, &c, &s, &r);
            if (i != m - 1)
                e[i + 1] = r;
            g = d[i + 1] - p;
            r = (d[i] - g) * s + 2.0 * c * b;
            p = s * r;
            d[i + 1] = g + p;
            g = c * r - b;
            st->c[i] = c;
            st->s[i] = -s;
        }
        eig_rotate_columns(false, st->n, m - l + 1, st->c + l, st->s + l, column(st, l), st->ldz);
        d[l] -= p;
        e[l] = g;
    }
}

/* QR on the block lend .. l (lend < l): values deflate at the bottom. */
static void qr(tela_int l, tela_int lend, double *d, double *e, struct steqr_state *st)
{
    while (l >= lend) {
        tela_int m = l;
        while (m > lend && !negligible(e[m - 1], d[m], d[m - 1]))
            m--;
        if (m > lend)
            e[m - 1] = 0.0;
        if (m == l) {
            l--;
            continue;
        }
        if (m == l - 1) {
            double rt1, rt2, c, s;
            eig_laev2(d[l - 1], e[l - 1], d[l], &rt1, &rt2, &c, &s);
            eig_rotate_columns(true, st->n, 2, &c, &s, column(st, l - 1), st->ldz);
            d[l - 1] = rt1;
            d[l] = rt2;
            e[l - 1] = 0.0;
            l -= 2;
            continue;
        }
        if (st->done == st->limit)
            return;
        st->done++;
        double p = d[l];
        double g = (d[l - 1] - p) / (2.0 * e[l - 1]);
        double r = eig_hypot(g, 1.0);
        g = d[m] - p + e[l - 1] / (g + copysign(r, g));
        double s = 1.0, c = 1.0;
        p = 0.0;
        for (tela_int i = m; i <= l - 1; i++) {
            const double f = s * e[i], b = c * e[i];
            eig_lartg(g, f, &c, &s, &r);
            if (i != m)
                e[i - 1] = r;
            g = d[i] - p;
            r = (d[i + 1] - g) * s + 2.0 * c * b;
            p = s * r;
            d[i] = g + p;
            g = c * r - b;
            st->c[i] = c;
            st->s[i] = s;
        }
        eig_rotate_columns(true, st->n, l - m + 1, st->c + m, st->s + m, column(st, m), st->ldz);
        d[l] -= p;
        e[l - 1] = g;
    }
}

/* Selection sort with Z's columns (rows of them), as dsteqr: at most n - 1 column swaps. */
static void sort_with_vectors(tela_int n, tela_int rows, double *d, double *z, tela_int ldz)
{
    for (tela_int i = 0; i + 1 < n; i++) {
        tela_int k = i;
        double p = d[i];
        for (tela_int j = i + 1; j < n; j++)
            if (d[j] < p) {
                k = j;
                p = d[j];
            }
        if (k == i)
            continue;
        d[k] = d[i];
        d[i] = p;
        double *zi = z + (size_t)i * (size_t)ldz, *zk = z + (size_t)k * (size_t)ldz;
        for (tela_int r = 0; r < rows; r++) {
            const double t = zi[r];
            zi[r] = zk[r];
            zk[r] = t;
        }
    }
}

/* dsteqr on (d, e) with rows [row0, row0 + rows) of Z (z points at row0): every row of Z is
 * multiplied by the same rotations whoever rotates the others, so a share's rows come out
 * bitwise as a serial run's. */
static tela_int steqr_rows(bool identity, tela_int n, double *d, double *e, double *z, tela_int ldz,
                           tela_int row0, tela_int rows, double *work)
{
    if (identity)
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < rows; i++)
                z[i + (size_t)j * (size_t)ldz] = i + row0 == j ? 1.0 : 0.0;
    if (n <= 1)
        return 0;
    struct steqr_state st = {0, n * STEQR_MAXIT, rows, z, ldz, work, work + (n - 1)};
    eig_block block;
    for (tela_int start = 0; start < n && st.done < st.limit;) {
        if (!eig_next_block(n, d, e, &start, &block))
            continue;
        const tela_int lsv = block.first, lendsv = block.last;
        if (fabs(d[lendsv]) < fabs(d[lsv]))
            qr(lendsv, lsv, d, e, &st);
        else
            ql(lsv, lendsv, d, e, &st);
        eig_unscale_block(&block, d, e);
    }
    tela_int info = 0;
    for (tela_int i = 0; i < n - 1; i++)
        info += e[i] != 0.0;
    if (info == 0)
        sort_with_vectors(n, rows, d, z, ldz);
    return info;
}

tela_int eig_steqr(bool identity, tela_int n, double *d, double *e, double *z, tela_int ldz,
                   double *work)
{
    return steqr_rows(identity, n, d, e, z, ldz, 0, n, work);
}

/* Members' shares of Z's rows are whole multiples of this (a cache line of doubles), so that
 * two members write no common line of a column when ldz is a multiple of it too. */
#define STEQR_SHARE_ROWS 8
/* Rows below which a share is not worth a member: the iteration each member repeats (a
 * dlartg per rotation, divisions and square roots) costs about as much as rotating this many
 * rows; at 128, two members were 0.8x one at n = 256 and 512 (tela-bench syev). */
#define STEQR_MIN_SHARE 512

/* A region's job: each member repeats the scalar iteration on its own copy of (d, e) (member 0
 * on the caller's) and rotates its share of Z's rows; no member waits for another. */
struct steqr_job {
    bool identity;
    tela_int n, ldz;
    double *d, *e, *z;
    const double *given; /* d then e as given, what members 1.. copy */
    double *bufs;        /* per member: d, e (n each), then the rotations (2 n) */
    size_t stride;       /* doubles between two members' blocks */
    tela_int info;       /* member 0's (every member's is the same) */
};

static void steqr_body(tela_member *self, void *arg)
{
    struct steqr_job *job = arg;
    const int rank = tela_rank(self), width = tela_width(self);
    const tela_int n = job->n;
    tela_int share = (n + width - 1) / width;
    share = (share + STEQR_SHARE_ROWS - 1) / STEQR_SHARE_ROWS * STEQR_SHARE_ROWS;
    const tela_int first = (tela_int)rank * share;
    if (first >= n)
        return;
    const tela_int rows = n - first < share ? n - first : share;
    double *buf = job->bufs + (size_t)rank * job->stride, *d = job->d, *e = job->e;
    if (rank > 0) {
        d = buf;
        e = buf + n;
        memcpy(d, job->given, (size_t)n * sizeof *d);
        memcpy(e, job->given + n, (size_t)(n - 1) * sizeof *e);
    }
    const tela_int info =
        steqr_rows(job->identity, n, d, e, job->z + first, job->ldz, first, rows, buf + 2 * n);
    if (rank == 0)
        job->info = info;
}

tela_int eig_steqr_par(tela_par par, bool identity, tela_int n, double *d, double *e, double *z,
                       tela_int ldz)
{
    if (n <= 1)
        return eig_steqr(identity, n, d, e, z, ldz, NULL);
    /* About n^2 rotations (two sweeps per value, each over half the matrix on average), each
     * reading and writing two of Z's columns: a stream of 4 n^3 elements, more than the 6 n^3
     * flops that come with them would take at GEMM's rate. */
    const double estimate = par_stream_estimate_ns(4.0 * (double)n * (double)n * (double)n);
    int bound = par_width_bound(par);
    if (bound > n / STEQR_MIN_SHARE)
        bound = (int)(n / STEQR_MIN_SHARE);
    if (bound > 1 && par_may_split(par, estimate)) {
        size_t stride;
        bool owned;
        /* One block per member and one more for the given (d, e). */
        double *bufs =
            par_scratch_members(par, bound + 1, 4 * (size_t)n * sizeof(double), &stride, &owned);
        if (bufs) {
            stride /= sizeof(double);
            double *given = bufs + (size_t)bound * stride;
            memcpy(given, d, (size_t)n * sizeof *d);
            memcpy(given + n, e, (size_t)(n - 1) * sizeof *e);
            struct steqr_job job = {identity, n, ldz, d, e, z, given, bufs, stride, 0};
            const int used = tela_parallel_gated(tela_par_limit(par, bound), "steqr", estimate, 1,
                                                 steqr_body, &job);
            par_scratch_release(bufs, owned);
            if (used > 0)
                return job.info;
        }
    }
    bool owned;
    double *work = eig_scratch(par, 2 * (size_t)(n - 1), &owned);
    if (!work)
        return TELA_EIG_NO_MEMORY;
    const tela_int info = eig_steqr(identity, n, d, e, z, ldz, work);
    par_scratch_release(work, owned);
    return info;
}

int tela_dsteqr(tela_par par, char compz, tela_int n, double *d, double *e, double *z, tela_int ldz)
{
    bool identity;
    const int args = eig_tridiagonal_args(compz, n, d, e, z, ldz, &identity);
    if (args < 0 || args == EIG_ARGS_DONE)
        return args < 0 ? args : 0;
    if (args == EIG_ARGS_VALUES)
        return (int)eig_sterf(n, d, e);
    const tela_int info = eig_steqr_par(par, identity, n, d, e, z, ldz);
    return info == TELA_EIG_NO_MEMORY ? eig_no_memory("tela_dsteqr") : (int)info;
}
