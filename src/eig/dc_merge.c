/* dc_merge.c — one merge of divide and conquer (LAPACK's dlaed1 and dlaed2): the eigensystems
 * of two adjacent halves, torn apart by a rank-one change rho v v^T, become the eigensystem of
 * the whole. Deflation first: a tiny component of z leaves its eigenpair as it is, and two
 * nearly equal values are rotated so that one of them does (Givens); the rest go to the
 * secular equation (dc_vectors.c). The halves' vectors are packed by kind (nonzero on top only,
 * on both, on the bottom only) so the products skip the zero blocks. */
#include "eig/eig.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Deflation tolerance in eps * max(|d|, |z|): LAPACK's 8. Reference LAPACK raised it to 64 in
 * 2026 (PR #1317) and went back (PR #1372, issue #1370): deeper in the tree the local gaps
 * are far smaller than the global one, and the wider tolerance skipped near-degenerate pairs
 * that the secular equation solves accurately. Measured here: 64 gave residuals up to 12 n eps
 * on a constant diagonal with tiny off-diagonals, where 8 (and OpenBLAS) gives under 2. */
#define DC_DEFLATE_EPS 8.0

/* Column kinds: nonzero in the first n1 rows only, in both parts (a rotation mixed a top and a
 * bottom column), in the last n - n1 rows only, deflated. */
enum { KIND_TOP, KIND_BOTH, KIND_BOTTOM, KIND_DEFLATED, KINDS };

/* index[0 .. n1 + n2): the merged ascending order of a[0 .. n1) (ascending) and a[n1 ..)
 * (ascending, or descending when second_down), as positions in a (LAPACK's dlamrg). */
static void merge_order(tela_int n1, tela_int n2, const double *a, bool second_down,
                        tela_int *index)
{
    tela_int i1 = 0, i2 = second_down ? n1 + n2 - 1 : n1, k = 0;
    const tela_int step2 = second_down ? -1 : 1;
    tela_int left1 = n1, left2 = n2;
    while (left1 > 0 && left2 > 0) {
        if (a[i1] <= a[i2]) {
            index[k++] = i1++;
            left1--;
        } else {
            index[k++] = i2;
            i2 += step2;
            left2--;
        }
    }
    for (; left1 > 0; left1--)
        index[k++] = i1++;
    for (; left2 > 0; left2--, i2 += step2)
        index[k++] = i2;
}

/* The first index of the largest |x| (BLAS's idamax). */
static tela_int largest(tela_int n, const double *x)
{
    tela_int at = 0;
    for (tela_int i = 1; i < n; i++)
        if (fabs(x[i]) > fabs(x[at]))
            at = i;
    return at;
}

static void copy_column(tela_int rows, const double *from, double *to)
{
    memcpy(to, from, sizeof(double) * (size_t)rows);
}

/* The merge's scratch within work and iwork. */
typedef struct merge_space {
    double *z, *dlambda, *w, *q2;          /* n, n, n and the packed vectors (n^2 + n) */
    tela_int *indx, *indxc, *kind, *indxp; /* n each */
} merge_space;

/* Deflation (dlaed2): returns k, the count of values left to the secular equation, with their
 * poles in dlambda[0 .. k), their weights in w, the halves' vectors packed in q2 by kind
 * (counts in ctot) and, in indxc, the row of U each packed column takes. The deflated values
 * go to d[k ..) with their vectors in q's columns k .. n - 1. rho becomes the positive weight of
 * the scaled z. */
static tela_int deflate(tela_int n, tela_int n1, double *d, double *q, tela_int ldq,
                        tela_int *indxq, double *rho, const merge_space *m, tela_int ctot[KINDS])
{
    const tela_int n2 = n - n1;
    double *z = m->z, *dlambda = m->dlambda, *q2 = m->q2;
    tela_int *indx = m->indx, *indxc = m->indxc, *kind = m->kind, *indxp = m->indxp;

    /* The tear's vector is (last row of Q1, first row of Q2) / sqrt 2 with weight 2 |rho|. */
    if (*rho < 0.0)
        for (tela_int i = n1; i < n; i++)
            z[i] = -z[i];
    const double root_half = 1.0 / sqrt(2.0);
    for (tela_int i = 0; i < n; i++)
        z[i] *= root_half;
    *rho = fabs(2.0 * *rho);

    /* Both halves' values in ascending order: indx lists q's columns that way. */
    for (tela_int i = n1; i < n; i++)
        indxq[i] += n1;
    for (tela_int i = 0; i < n; i++)
        dlambda[i] = d[indxq[i]];
    merge_order(n1, n2, dlambda, false, indxc);
    for (tela_int i = 0; i < n; i++)
        indx[i] = indxq[indxc[i]];

    const double zmax = fabs(z[largest(n, z)]), dmax = fabs(d[largest(n, d)]);
    const double tol = DC_DEFLATE_EPS * (DBL_EPSILON / 2) * (dmax > zmax ? dmax : zmax);

    if (*rho * zmax <= tol) {
        /* Everything deflates: the values are the halves', sorted. */
        for (tela_int j = 0; j < n; j++) {
            copy_column(n, q + indx[j] * ldq, q2 + j * n);
            dlambda[j] = d[indx[j]];
        }
        for (tela_int j = 0; j < n; j++)
            copy_column(n, q2 + j * n, q + j * ldq);
        memcpy(d, dlambda, sizeof(double) * (size_t)n);
        return 0;
    }

    for (tela_int i = 0; i < n; i++)
        kind[i] = i < n1 ? KIND_TOP : KIND_BOTTOM;
    /* Kept columns fill indxp from the front in ascending order, deflated ones from the back
     * (so descending there). */
    tela_int k = 0, k2 = n, j = 0, pj = -1;
    for (; j < n; j++) {
        const tela_int nj = indx[j];
        if (*rho * fabs(z[nj]) <= tol) {
            kind[nj] = KIND_DEFLATED;
            indxp[--k2] = nj;
        } else {
            pj = nj;
            break;
        }
    }
    /* pj >= 0 here: z's largest component does not deflate. */
    for (j++; j < n; j++) {
        const tela_int nj = indx[j];
        if (*rho * fabs(z[nj]) <= tol) {
            kind[nj] = KIND_DEFLATED;
            indxp[--k2] = nj;
            continue;
        }
        /* pj and nj close: a rotation that zeroes z[pj] changes the matrix by less than tol. */
        double s = z[pj], c = z[nj];
        const double tau = hypot(c, s), gap = d[nj] - d[pj];
        c /= tau;
        s = -s / tau;
        if (fabs(gap * c * s) <= tol) {
            z[nj] = tau;
            z[pj] = 0.0;
            if (kind[nj] != kind[pj])
                kind[nj] = KIND_BOTH;
            kind[pj] = KIND_DEFLATED;
            double *x = q + pj * ldq, *y = q + nj * ldq;
            for (tela_int r = 0; r < n; r++) {
                const double xr = x[r], yr = y[r];
                x[r] = c * xr + s * yr;
                y[r] = c * yr - s * xr;
            }
            const double t = d[pj] * c * c + d[nj] * s * s;
            d[nj] = d[pj] * s * s + d[nj] * c * c;
            d[pj] = t;
            /* Insert pj among the deflated, which stay descending. */
            k2--;
            tela_int at = k2;
            while (at + 1 < n && d[pj] < d[indxp[at + 1]]) {
                indxp[at] = indxp[at + 1];
                at++;
            }
            indxp[at] = pj;
        } else {
            dlambda[k] = d[pj];
            m->w[k] = z[pj];
            indxp[k++] = pj;
        }
        pj = nj;
    }
    dlambda[k] = d[pj];
    m->w[k] = z[pj];
    indxp[k++] = pj;

    /* Group the columns by kind (each group keeps indxp's order): indx[i] is the column that
     * goes i-th, indxc[i] its place in the ascending order of dlambda. */
    for (int t = 0; t < KINDS; t++)
        ctot[t] = 0;
    for (tela_int i = 0; i < n; i++)
        ctot[kind[i]]++;
    tela_int psm[KINDS] = {0, ctot[0], ctot[0] + ctot[1], ctot[0] + ctot[1] + ctot[2]};
    k = n - ctot[KIND_DEFLATED];
    for (tela_int i = 0; i < n; i++) {
        const tela_int js = indxp[i];
        const tela_int at = psm[kind[js]]++;
        indx[at] = js;
        indxc[at] = i;
    }

    /* Pack: the top parts of the TOP and BOTH columns (n1 rows each), then the bottom parts of
     * BOTH and BOTTOM (n2 rows each), then the deflated columns whole. z takes the values in
     * this order. */
    tela_int i = 0;
    double *top = q2, *bottom = q2 + (ctot[KIND_TOP] + ctot[KIND_BOTH]) * n1;
    for (tela_int c = 0; c < ctot[KIND_TOP]; c++, i++, top += n1) {
        copy_column(n1, q + indx[i] * ldq, top);
        z[i] = d[indx[i]];
    }
    for (tela_int c = 0; c < ctot[KIND_BOTH]; c++, i++, top += n1, bottom += n2) {
        copy_column(n1, q + indx[i] * ldq, top);
        copy_column(n2, q + n1 + indx[i] * ldq, bottom);
        z[i] = d[indx[i]];
    }
    for (tela_int c = 0; c < ctot[KIND_BOTTOM]; c++, i++, bottom += n2) {
        copy_column(n2, q + n1 + indx[i] * ldq, bottom);
        z[i] = d[indx[i]];
    }
    double *deflated = bottom;
    for (tela_int c = 0; c < ctot[KIND_DEFLATED]; c++, i++, bottom += n) {
        copy_column(n, q + indx[i] * ldq, bottom);
        z[i] = d[indx[i]];
    }
    for (tela_int c = 0; c < ctot[KIND_DEFLATED]; c++)
        copy_column(n, deflated + c * n, q + (k + c) * ldq);
    for (tela_int c = k; c < n; c++)
        d[c] = z[c];
    return k;
}

size_t eig_dc_merge_len(tela_int n)
{
    return (size_t)n * (size_t)n + 4 * (size_t)n;
}

size_t eig_dc_merge_ilen(tela_int n)
{
    return 4 * (size_t)n;
}

tela_int eig_dc_merge(tela_par par, tela_int n, tela_int n1, double *d, double *q, tela_int ldq,
                      tela_int *indxq, double rho, double *work, tela_int *iwork)
{
    const merge_space m = {
        .z = work,
        .dlambda = work + n,
        .w = work + 2 * n,
        .q2 = work + 3 * n,
        .indx = iwork,
        .indxc = iwork + n,
        .kind = iwork + 2 * n,
        .indxp = iwork + 3 * n,
    };
    /* z: the last row of the top half's vectors, the first row of the bottom half's. */
    for (tela_int j = 0; j < n1; j++)
        m.z[j] = q[n1 - 1 + j * ldq];
    for (tela_int j = n1; j < n; j++)
        m.z[j] = q[n1 + j * ldq];
    tela_int ctot[KINDS];
    const tela_int k = deflate(n, n1, d, q, ldq, indxq, &rho, &m, ctot);
    if (k == 0) {
        for (tela_int i = 0; i < n; i++)
            indxq[i] = i;
        return 0;
    }
    const eig_dc_packed packed = {
        .n1 = n1,
        .top = ctot[KIND_TOP],
        .both = ctot[KIND_BOTH],
        .bottom = ctot[KIND_BOTTOM],
        .q2 = m.q2,
        .room = eig_dc_merge_len(n) - 3 * (size_t)n,
        .rows = m.indxc,
    };
    const tela_int info = eig_dc_vectors(par, k, n, d, q, ldq, rho, m.dlambda, m.w, &packed);
    if (info)
        return info;
    /* The k new values ascend, the deflated ones descend: their merged order. */
    merge_order(k, n - k, d, true, indxq);
    return 0;
}
