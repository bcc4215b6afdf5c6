/* sterf.c — the eigenvalues of a symmetric tridiagonal matrix by the Pal-Walker-Kahan
 * square-root-free QL/QR iteration (LAPACK's dsterf), and the public tela_dsterf. The matrix
 * splits at negligible off-diagonals; each block is scaled into the safe range, then iterated
 * by QL when its top is the larger end, by QR otherwise, so the small values converge first. */
#include "eig/eig.h"

#include <float.h>
#include <math.h>

/* LAPACK's limit: at most 30 n sweeps in all before giving up. */
#define STERF_MAXIT 30

/* True when a must come before b: NaN last, -0 before +0, so that the order is total. */
static bool before(double a, double b)
{
    if (isnan(b))
        return !isnan(a);
    if (a < b)
        return true;
    return a == b && signbit(a) && !signbit(b);
}

static void sift_down(double *d, tela_int root, tela_int end)
{
    for (;;) {
        tela_int child = 2 * root + 1;
        if (child >= end)
            return;
        if (child + 1 < end && before(d[child], d[child + 1]))
            child++;
        if (!before(d[root], d[child]))
            return;
        const double t = d[root];
        d[root] = d[child];
        d[child] = t;
        root = child;
    }
}

void eig_sort_values(tela_int n, double *d)
{
    /* Heapsort: n log n at any n, in place, no allocation (callers may be inside a region). */
    for (tela_int root = n / 2 - 1; root >= 0; root--)
        sift_down(d, root, n);
    for (tela_int end = n - 1; end > 0; end--) {
        const double t = d[0];
        d[0] = d[end];
        d[end] = t;
        sift_down(d, 0, end);
    }
}

/* The iteration's state over one block: the sweep count shared by all blocks, its limit. */
struct sterf_sweeps {
    tela_int done, limit;
};

/* QL on the block l .. lend (l < lend) of (d, e), e holding squares: values deflate at l. */
static void ql(tela_int l, tela_int lend, double *d, double *e, struct sterf_sweeps *sw)
{
    const double eps = DBL_EPSILON / 2, eps2 = eps * eps;
    while (l <= lend) {
        tela_int m = l;
        while (m < lend && !(fabs(e[m]) <= eps2 * fabs(d[m] * d[m + 1])))
            m++;
        if (m < lend)
            e[m] = 0.0;
        if (m == l) { /* d[l] converged */
            l++;
            continue;
        }
        if (m == l + 1) { /* a 2 x 2 block, solved directly */
            double rt1, rt2;
            eig_lae2(d[l], sqrt(e[l]), d[l + 1], &rt1, &rt2);
            d[l] = rt1;
            d[l + 1] = rt2;
            e[l] = 0.0;
            l += 2;
            continue;
        }
        if (sw->done == sw->limit)
            return;
        sw->done++;
        /* The shift: the eigenvalue of the top 2 x 2 closer to d[l]. */
        const double rte = sqrt(e[l]), p0 = d[l];
        double sigma = (d[l + 1] - p0) / (2.0 * rte);
        const double r0 = eig_hypot(sigma, 1.0);
        sigma = p0 - rte / (sigma + copysign(r0, sigma));
        double c = 1.0, s = 0.0, gamma = d[m] - sigma, p = gamma * gamma;
        for (tela_int i = m - 1; i >= l; i--) {
            const double bb = e[i], r = p + bb;
            if (i != m - 1)
                e[i + 1] = s * r;
            const double oldc = c, oldgam = gamma, alpha = d[i];
            c = p / r;
            s = bb / r;
            gamma = c * (alpha - sigma) - s * oldgam;
            d[i + 1] = oldgam + (alpha - gamma);
            p = c != 0.0 ? (gamma * gamma) / c : oldc * bb;
        }
        e[l] = s * p;
        d[l] = sigma + gamma;
    }
}

/* QR on the block lend .. l (lend < l), values deflating at l (the bottom). */
static void qr(tela_int l, tela_int lend, double *d, double *e, struct sterf_sweeps *sw)
{
    const double eps = DBL_EPSILON / 2, eps2 = eps * eps;
    while (l >= lend) {
        tela_int m = l;
        while (m > lend && !(fabs(e[m - 1]) <= eps2 * fabs(d[m] * d[m - 1])))
            m--;
        if (m > lend)
            e[m - 1] = 0.0;
        if (m == l) {
            l--;
            continue;
        }
        if (m == l - 1) {
            double rt1, rt2;
            eig_lae2(d[l], sqrt(e[l - 1]), d[l - 1], &rt1, &rt2);
            d[l] = rt1;
            d[l - 1] = rt2;
            e[l - 1] = 0.0;
            l -= 2;
            continue;
        }
        if (sw->done == sw->limit)
            return;
        sw->done++;
        const double rte = sqrt(e[l - 1]), p0 = d[l];
        double sigma = (d[l - 1] - p0) / (2.0 * rte);
        const double r0 = eig_hypot(sigma, 1.0);
        sigma = p0 - rte / (sigma + copysign(r0, sigma));
        double c = 1.0, s = 0.0, gamma = d[m] - sigma, p = gamma * gamma;
        for (tela_int i = m; i <= l - 1; i++) {
            const double bb = e[i], r = p + bb;
            if (i != m)
                e[i - 1] = s * r;
            const double oldc = c, oldgam = gamma, alpha = d[i + 1];
            c = p / r;
            s = bb / r;
            gamma = c * (alpha - sigma) - s * oldgam;
            d[i] = oldgam + (alpha - gamma);
            p = c != 0.0 ? (gamma * gamma) / c : oldc * bb;
        }
        e[l - 1] = s * p;
        d[l] = sigma + gamma;
    }
}

tela_int eig_sterf(tela_int n, double *d, double *e)
{
    if (n <= 1)
        return 0;
    struct sterf_sweeps sw = {0, n * STERF_MAXIT};
    eig_block block;
    for (tela_int start = 0; start < n && sw.done < sw.limit;) {
        if (!eig_next_block(n, d, e, &start, &block))
            continue;
        const tela_int lsv = block.first, lendsv = block.last;
        for (tela_int i = lsv; i < lendsv; i++)
            e[i] *= e[i];
        if (fabs(d[lendsv]) < fabs(d[lsv]))
            qr(lendsv, lsv, d, e, &sw);
        else
            ql(lsv, lendsv, d, e, &sw);
        eig_unscale_block(&block, d, NULL);
    }
    tela_int info = 0;
    for (tela_int i = 0; i < n - 1; i++)
        info += e[i] != 0.0;
    if (info == 0)
        eig_sort_values(n, d);
    return info;
}

int tela_dsterf(tela_par par, tela_int n, double *d, double *e)
{
    (void)par;
    if (n < 0)
        return -1;
    if (n == 0)
        return 0;
    if (!d)
        return -2;
    if (n > 1 && !e)
        return -3;
    return (int)eig_sterf(n, d, e);
}
