/* rotations.c — the small kernels the QL/QR iterations share: the 2 x 2 symmetric eigenproblem
 * (LAPACK's dlae2, dlaev2), one plane rotation (dlartg), a sweep's rotations applied to the
 * columns of Z (dlasr 'R', 'V'), the splitting into unreduced blocks and their scaling into the
 * safe range (dlascl). Written to round as LAPACK's do, so that values agree with a reference
 * LAPACK to the last bit in most cases and differences stay at rounding level. */
#include "eig/eig.h"
#include "qr/qr.h"

#include <float.h>
#include <math.h>

double eig_hypot(double x, double y)
{
    if (isnan(x))
        return x;
    if (isnan(y))
        return y;
    const double ax = fabs(x), ay = fabs(y);
    const double w = ax > ay ? ax : ay, z = ax > ay ? ay : ax;
    if (z == 0.0 || w > DBL_MAX)
        return w;
    return w * sqrt(1.0 + (z / w) * (z / w));
}

/* sqrt(adf^2 + ab^2) for adf, ab >= 0, as dlae2 and dlaev2 form it. */
static double root(double adf, double ab)
{
    if (adf > ab)
        return adf * sqrt(1.0 + (ab / adf) * (ab / adf));
    if (adf < ab)
        return ab * sqrt(1.0 + (adf / ab) * (adf / ab));
    return ab * sqrt(2.0);
}

/* The eigenvalues of [a b; b c], larger in magnitude first; *sign_sum the sign dlaev2 takes
 * for the larger one. The smaller is formed from the determinant, not by cancellation. Returns
 * the discriminant's root sqrt((a - c)^2 + 4 b^2). */
static double values(double a, double b, double c, double *rt1, double *rt2, int *sign_sum)
{
    const double sm = a + c, adf = fabs(a - c), ab = fabs(b + b);
    const double acmx = fabs(a) > fabs(c) ? a : c, acmn = fabs(a) > fabs(c) ? c : a;
    const double rt = root(adf, ab);
    if (sm < 0.0) {
        *rt1 = 0.5 * (sm - rt);
        *sign_sum = -1;
        *rt2 = (acmx / *rt1) * acmn - (b / *rt1) * b;
    } else if (sm > 0.0) {
        *rt1 = 0.5 * (sm + rt);
        *sign_sum = 1;
        *rt2 = (acmx / *rt1) * acmn - (b / *rt1) * b;
    } else {
        *rt1 = 0.5 * rt;
        *rt2 = -0.5 * rt;
        *sign_sum = 1;
    }
    return rt;
}

void eig_lae2(double a, double b, double c, double *rt1, double *rt2)
{
    int sign_sum;
    values(a, b, c, rt1, rt2, &sign_sum);
}

void eig_laev2(double a, double b, double c, double *rt1, double *rt2, double *cs, double *sn)
{
    int sign_sum;
    const double rt = values(a, b, c, rt1, rt2, &sign_sum);
    const double df = a - c, tb = b + b, ab = fabs(tb);
    const int sign_df = df >= 0.0 ? 1 : -1;
    const double cs_t = df >= 0.0 ? df + rt : df - rt;
    double c1, s1;
    if (fabs(cs_t) > ab) {
        const double ct = -tb / cs_t;
        s1 = 1.0 / sqrt(1.0 + ct * ct);
        c1 = ct * s1;
    } else if (ab == 0.0) {
        c1 = 1.0;
        s1 = 0.0;
    } else {
        const double tn = -cs_t / tb;
        c1 = 1.0 / sqrt(1.0 + tn * tn);
        s1 = tn * c1;
    }
    if (sign_sum == sign_df) { /* the vector computed belongs to rt2: turn it by 90 degrees */
        const double t = c1;
        c1 = -s1;
        s1 = t;
    }
    *cs = c1;
    *sn = s1;
}

void eig_lartg(double f, double g, double *c, double *s, double *r)
{
    const double safmin = DBL_MIN, safmax = 1.0 / DBL_MIN;
    const double rtmin = sqrt(safmin), rtmax = sqrt(safmax / 2.0);
    const double f1 = fabs(f), g1 = fabs(g);
    if (g == 0.0) {
        *c = 1.0;
        *s = 0.0;
        *r = f;
    } else if (f == 0.0) {
        *c = 0.0;
        *s = copysign(1.0, g);
        *r = g1;
    } else if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
        const double d = sqrt(f * f + g * g);
        *c = f1 / d;
        *r = copysign(d, f);
        *s = g / *r;
    } else {
        /* Scaled by the larger so that the squares neither overflow nor underflow. */
        double u = f1 > g1 ? f1 : g1;
        u = u > safmin ? u : safmin;
        u = u < safmax ? u : safmax;
        const double fs = f / u, gs = g / u;
        const double d = sqrt(fs * fs + gs * gs);
        *c = fabs(fs) / d;
        const double rr = copysign(d, f);
        *s = gs / rr;
        *r = rr * u;
    }
}

/* Columns j and j + 1 of z (rows entries each) times the rotation [c -s; s c] from the right,
 * as dlasr's pivot 'V' does: one streaming pass over both columns, which vectorises. */
static void rotate_one(tela_int rows, double c, double s, double *restrict zj, double *restrict zj1)
{
    for (tela_int i = 0; i < rows; i++) {
        const double t = zj1[i];
        zj1[i] = c * t - s * zj[i];
        zj[i] = s * t + c * zj[i];
    }
}

/* Two consecutive rotations in one pass over three columns a, b, c (the middle one loaded and
 * stored once instead of twice): (a, b) by (c0, s0) then (b, c) by (c1, s1) forward, or (b, c)
 * by (c1, s1) then (a, b) by (c0, s0) backward. Each entry sees the same operations in the
 * same order as with two passes, so the bits are the same. */
static void rotate_two_forward(tela_int rows, double c0, double s0, double c1, double s1,
                               double *restrict za, double *restrict zb, double *restrict zc)
{
    for (tela_int i = 0; i < rows; i++) {
        const double t = zb[i], x = za[i];
        const double u = c0 * t - s0 * x;
        za[i] = s0 * t + c0 * x;
        const double t2 = zc[i];
        zc[i] = c1 * t2 - s1 * u;
        zb[i] = s1 * t2 + c1 * u;
    }
}

static void rotate_two_backward(tela_int rows, double c0, double s0, double c1, double s1,
                                double *restrict za, double *restrict zb, double *restrict zc)
{
    for (tela_int i = 0; i < rows; i++) {
        const double t = zc[i], y = zb[i];
        zc[i] = c1 * t - s1 * y;
        const double u = s1 * t + c1 * y, x = za[i];
        zb[i] = c0 * u - s0 * x;
        za[i] = s0 * u + c0 * x;
    }
}

/* dlasr skips an identity rotation, which matters where z holds an Inf or NaN (0 * Inf). */
static bool identity_rotation(double c, double s)
{
    return c == 1.0 && s == 0.0;
}

static double *col(double *z, tela_int ldz, tela_int j)
{
    return z + (size_t)j * (size_t)ldz;
}

void eig_rotate_columns(bool forward, tela_int rows, tela_int cols, const double *c,
                        const double *s, double *z, tela_int ldz)
{
    if (forward) {
        for (tela_int j = 0; j + 1 < cols;) {
            if (identity_rotation(c[j], s[j])) {
                j++;
            } else if (j + 2 < cols && !identity_rotation(c[j + 1], s[j + 1])) {
                rotate_two_forward(rows, c[j], s[j], c[j + 1], s[j + 1], col(z, ldz, j),
                                   col(z, ldz, j + 1), col(z, ldz, j + 2));
                j += 2;
            } else {
                rotate_one(rows, c[j], s[j], col(z, ldz, j), col(z, ldz, j + 1));
                j++;
            }
        }
    } else {
        for (tela_int j = cols - 2; j >= 0;) {
            if (identity_rotation(c[j], s[j])) {
                j--;
            } else if (j >= 1 && !identity_rotation(c[j - 1], s[j - 1])) {
                rotate_two_backward(rows, c[j - 1], s[j - 1], c[j], s[j], col(z, ldz, j - 1),
                                    col(z, ldz, j), col(z, ldz, j + 1));
                j -= 2;
            } else {
                rotate_one(rows, c[j], s[j], col(z, ldz, j), col(z, ldz, j + 1));
                j--;
            }
        }
    }
}

/* x[0 .. n) *= to / from, as dlascl steps it. */
static void rescale(double from, double to, tela_int n, double *x)
{
    qr_rescale(from, to, n, 1, x, n > 1 ? n : 1);
}

/* The largest |d[i]|, |e[i]| of a block (dlanst 'M'), NaN when any is NaN. */
static double block_norm(tela_int n, const double *d, const double *e)
{
    double norm = 0.0;
    for (tela_int i = 0; i < n; i++) {
        const double v = fabs(d[i]), w = i + 1 < n ? fabs(e[i]) : 0.0;
        if (isnan(v) || isnan(w))
            return NAN;
        norm = v > norm ? v : norm;
        norm = w > norm ? w : norm;
    }
    return norm;
}

bool eig_next_block(tela_int n, double *d, double *e, tela_int *start, eig_block *block)
{
    const double eps = DBL_EPSILON / 2;
    const double ssfmax = sqrt(1.0 / DBL_MIN) / 3.0, ssfmin = sqrt(DBL_MIN) / (eps * eps);
    const tela_int l1 = *start;
    if (l1 > 0)
        e[l1 - 1] = 0.0;
    tela_int m = l1;
    while (m < n - 1 && e[m] != 0.0 &&
           !(fabs(e[m]) <= (sqrt(fabs(d[m])) * sqrt(fabs(d[m + 1]))) * eps))
        m++;
    if (m < n - 1)
        e[m] = 0.0;
    *start = m + 1;
    const tela_int len = m - l1 + 1;
    if (len == 1)
        return false;
    const double norm = block_norm(len, d + l1, e + l1);
    /* Zero needs nothing; Inf or NaN cannot converge: its e's stay nonzero and count in the
     * result (LAPACK would spend all its sweeps, each O(n^2) with Z, on it). */
    if (norm == 0.0 || !(norm <= DBL_MAX))
        return false;
    block->first = l1;
    block->last = m;
    block->norm = norm;
    block->to = norm > ssfmax ? ssfmax : norm < ssfmin ? ssfmin : 0.0;
    if (block->to != 0.0) {
        rescale(norm, block->to, len, d + l1);
        rescale(norm, block->to, len - 1, e + l1);
    }
    return true;
}

void eig_unscale_block(const eig_block *block, double *d, double *e)
{
    if (block->to == 0.0)
        return;
    const tela_int len = block->last - block->first + 1;
    rescale(block->to, block->norm, len, d + block->first);
    if (e)
        rescale(block->to, block->norm, len - 1, e + block->first);
}
