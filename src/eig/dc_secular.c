/* dc_secular.c — the roots of divide and conquer's secular equation
 * f(x) = 1/rho + sum_j z_j^2 / (d_j - x) = 0 (LAPACK's dlaed4, with dlaed5 for two poles and
 * dlaed6's cubic step). Each root is searched as an offset tau from its nearer pole, so the
 * differences d_j - lambda come out accurate to a few ulps: the vectors that divide and conquer
 * builds from them (Gu-Eisenstat) are orthogonal only because of that. Every loop is bounded,
 * so nothing here can hang on bad data; a root not converged reports 1. */
#include "eig/eig.h"

#include <float.h>
#include <math.h>

/* Iterations of the rational (middle way) steps, and of the cubic step's own loop. */
#define DC_SECULAR_MAXIT 30
#define DC_CUBIC_MAXIT   40

/* The relative machine precision of LAPACK's dlamch('Epsilon'). */
#define DC_EPS (DBL_EPSILON / 2)

/* Two poles d[0] < d[1] (dlaed5): the root of index i and its normalized vector in delta,
 * both in closed form. */
static void two_poles(tela_int i, const double *d, const double *z, double *delta, double rho,
                      double *lambda)
{
    const double del = d[1] - d[0];
    const double zz = z[0] * z[0] + z[1] * z[1];
    double tau;
    if (i == 0 && 1.0 + 2.0 * rho * (z[1] * z[1] - z[0] * z[0]) / del > 0.0) {
        /* The root lies in the lower half of (d0, d1): measure from d0. */
        const double b = del + rho * zz, c = rho * z[0] * z[0] * del;
        tau = 2.0 * c / (b + sqrt(fabs(b * b - 4.0 * c)));
        *lambda = d[0] + tau;
        delta[0] = -z[0] / tau;
        delta[1] = z[1] / (del - tau);
    } else {
        /* The upper half of (d0, d1), or the root above d1: measure from d1. */
        const double b = -del + rho * zz, c = rho * z[1] * z[1] * del;
        if (i == 0)
            tau =
                b > 0.0 ? -2.0 * c / (b + sqrt(b * b + 4.0 * c)) : (b - sqrt(b * b + 4.0 * c)) / 2;
        else
            tau =
                b > 0.0 ? (b + sqrt(b * b + 4.0 * c)) / 2 : 2.0 * c / (-b + sqrt(b * b + 4.0 * c));
        *lambda = d[1] + tau;
        delta[0] = -z[0] / (del + tau);
        delta[1] = -z[1] / tau;
    }
    const double norm = sqrt(delta[0] * delta[0] + delta[1] * delta[1]);
    delta[0] /= norm;
    delta[1] /= norm;
}

static double max3(double a, double b, double c)
{
    const double m = a > b ? a : b;
    return m > c ? m : c;
}

/* The step of the rational model with coefficients (a, b, c), c != 0: the root of
 * c t^2 - a t + b nearest zero, by whichever of the two formulas avoids cancellation for
 * a's sign (LAPACK's dlaed4 and dlaed6 both take it). */
static double quadratic_step(double a, double b, double c)
{
    if (a <= 0.0)
        return (a - sqrt(fabs(a * a - 4.0 * b * c))) / (2.0 * c);
    return 2.0 * b / (a + sqrt(fabs(a * a - 4.0 * b * c)));
}

/* dlaed6: the step tau from the current point to the root of
 * g(t) = finit + t * sum_{j<3} z_j / (d_j (d_j - t)), the secular function with its three
 * nearest poles kept exactly and the rest folded into rho (g(0) = finit), between d[1] and d[2]
 * (orgati) or d[0] and d[1], by a cubically convergent iteration. kniter == 2 asks for a
 * fresh initial guess. 0, or 1 if not converged. */
static int cubic_step(int kniter, bool orgati, double rho, const double *d, const double *z,
                      double finit, double *tau_out)
{
    double lbd = orgati ? d[1] : d[0], ubd = orgati ? d[2] : d[1];
    if (finit < 0.0)
        lbd = 0.0;
    else
        ubd = 0.0;
    double tau = 0.0;
    if (kniter == 2) {
        double a, b, c;
        if (orgati) {
            const double half = (d[2] - d[1]) / 2;
            c = rho + z[0] / ((d[0] - d[1]) - half);
            a = c * (d[1] + d[2]) + z[1] + z[2];
            b = c * d[1] * d[2] + z[1] * d[2] + z[2] * d[1];
        } else {
            const double half = (d[0] - d[1]) / 2;
            c = rho + z[2] / ((d[2] - d[1]) - half);
            a = c * (d[0] + d[1]) + z[0] + z[1];
            b = c * d[0] * d[1] + z[0] * d[1] + z[1] * d[0];
        }
        const double scale = max3(fabs(a), fabs(b), fabs(c));
        a /= scale;
        b /= scale;
        c /= scale;
        tau = c == 0.0 ? b / a : quadratic_step(a, b, c);
        if (tau < lbd || tau > ubd)
            tau = (lbd + ubd) / 2;
        if (d[0] == tau || d[1] == tau || d[2] == tau) {
            tau = 0.0;
        } else {
            const double g = finit + tau * z[0] / (d[0] * (d[0] - tau)) +
                             tau * z[1] / (d[1] * (d[1] - tau)) +
                             tau * z[2] / (d[2] * (d[2] - tau));
            if (g <= 0.0)
                lbd = tau;
            else
                ubd = tau;
            if (fabs(finit) <= fabs(g))
                tau = 0.0;
        }
    }
    /* Poles within 2^-340 of the guess are scaled up (by 2^340 or 2^680), so the reciprocals
     * below neither overflow nor lose their low bits. */
    const double small1 = 0x1p-340, small2 = 0x1p-680;
    const double near = orgati ? fmin(fabs(d[1] - tau), fabs(d[2] - tau))
                               : fmin(fabs(d[0] - tau), fabs(d[1] - tau));
    double scale = 1.0, unscale = 1.0;
    if (near <= small1) {
        scale = near <= small2 ? 0x1p680 : 0x1p340;
        unscale = near <= small2 ? small2 : small1;
        tau *= scale;
        lbd *= scale;
        ubd *= scale;
    }
    double ds[3], zs[3];
    for (int j = 0; j < 3; j++) {
        ds[j] = d[j] * scale;
        zs[j] = z[j] * scale;
    }
    double fc = 0.0, df = 0.0, ddf = 0.0;
    for (int j = 0; j < 3; j++) {
        const double r = 1.0 / (ds[j] - tau), t1 = zs[j] * r, t2 = t1 * r;
        fc += t1 / ds[j];
        df += t2;
        ddf += t2 * r;
    }
    double f = finit + tau * fc;
    int info = 0;
    if (fabs(f) > 0.0) {
        if (f <= 0.0)
            lbd = tau;
        else
            ubd = tau;
        info = 1;
        for (int iter = 2; iter <= DC_CUBIC_MAXIT; iter++) {
            const double t1 = orgati ? ds[1] - tau : ds[0] - tau;
            const double t2 = orgati ? ds[2] - tau : ds[1] - tau;
            double a = (t1 + t2) * f - t1 * t2 * df;
            double b = t1 * t2 * f;
            double c = f - (t1 + t2) * df + t1 * t2 * ddf;
            const double s = max3(fabs(a), fabs(b), fabs(c));
            a /= s;
            b /= s;
            c /= s;
            double eta = c == 0.0 ? b / a : quadratic_step(a, b, c);
            if (f * eta >= 0.0)
                eta = -f / df;
            tau += eta;
            if (tau < lbd || tau > ubd)
                tau = (lbd + ubd) / 2;
            fc = df = ddf = 0.0;
            double erretm = 0.0;
            bool on_pole = false;
            for (int j = 0; j < 3; j++) {
                if (ds[j] - tau == 0.0) {
                    on_pole = true;
                    break;
                }
                const double r = 1.0 / (ds[j] - tau), u1 = zs[j] * r, u2 = u1 * r;
                const double u4 = u1 / ds[j];
                fc += u4;
                erretm += fabs(u4);
                df += u2;
                ddf += u2 * r;
            }
            if (on_pole) {
                info = 0;
                break;
            }
            f = finit + tau * fc;
            erretm = 8.0 * (fabs(finit) + fabs(tau) * erretm) + fabs(tau) * df;
            if (fabs(f) <= 4.0 * DC_EPS * erretm || ubd - lbd <= 4.0 * DC_EPS * fabs(tau)) {
                info = 0;
                break;
            }
            if (f <= 0.0)
                lbd = tau;
            else
                ubd = tau;
        }
    }
    *tau_out = tau * unscale;
    return info;
}

/* psi (the poles below the root's interval) and phi (those above), their derivatives, and the
 * running sums of their partial sums that LAPACK's error bound erretm is built from;
 * delta_j = d_j - lambda. */
typedef struct secular_sums {
    double psi, dpsi, phi, dphi, erretm;
} secular_sums;

/* psi over j < lo_end, phi over j >= hi_begin (summed from the top, as LAPACK does: the
 * order is part of the result); phi's partial sums join the error bound for interior roots. */
static secular_sums secular_eval(tela_int n, tela_int lo_end, tela_int hi_begin, bool phi_error,
                                 const double *z, const double *delta)
{
    secular_sums s = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (tela_int j = 0; j < lo_end; j++) {
        const double t = z[j] / delta[j];
        s.psi += z[j] * t;
        s.dpsi += t * t;
        s.erretm += s.psi;
    }
    s.erretm = fabs(s.erretm);
    for (tela_int j = n - 1; j >= hi_begin; j--) {
        const double t = z[j] / delta[j];
        s.phi += z[j] * t;
        s.dphi += t * t;
        if (phi_error)
            s.erretm += s.phi;
    }
    return s;
}

static void shift(tela_int n, double *delta, double eta)
{
    for (tela_int j = 0; j < n; j++)
        delta[j] -= eta;
}

/* The largest root, above d[n-1]: searched from d[n-1] in (0, rho]. */
static int last_root(tela_int n, const double *d, const double *z, double *delta, double rho,
                     double *lambda)
{
    const double rhoinv = 1.0 / rho, midpt = rho / 2;
    const tela_int top = n - 1, below = n - 2;
    for (tela_int j = 0; j < n; j++)
        delta[j] = (d[j] - d[top]) - midpt;
    double psi = 0.0;
    for (tela_int j = 0; j < n - 2; j++)
        psi += z[j] * z[j] / delta[j];
    double c = rhoinv + psi;
    double w = c + z[below] * z[below] / delta[below] + z[top] * z[top] / delta[top];
    const double del = d[top] - d[below];
    double tau, lb, ub;
    /* The two-pole model of f through d[n-2] and d[n-1] gives the initial guess. */
    const double a0 = -c * del + z[below] * z[below] + z[top] * z[top];
    const double b0 = z[top] * z[top] * del;
    const double model = a0 < 0.0 ? 2.0 * b0 / (sqrt(a0 * a0 + 4.0 * b0 * c) - a0)
                                  : (a0 + sqrt(a0 * a0 + 4.0 * b0 * c)) / (2.0 * c);
    if (w <= 0.0) {
        const double f_rho = z[below] * z[below] / (del + rho) + z[top] * z[top] / rho;
        tau = c <= f_rho ? rho : model;
        lb = midpt;
        ub = rho;
    } else {
        tau = model;
        lb = 0.0;
        ub = midpt;
    }
    for (tela_int j = 0; j < n; j++)
        delta[j] = (d[j] - d[top]) - tau;
    secular_sums s = secular_eval(n, n - 1, n - 1, false, z, delta);
    s.erretm = 8.0 * (-s.phi - s.psi) + s.erretm - s.phi + rhoinv + fabs(tau) * (s.dpsi + s.dphi);
    w = rhoinv + s.phi + s.psi;
    for (int iter = 1;; iter++) {
        if (fabs(w) <= DC_EPS * s.erretm) {
            *lambda = d[top] + tau;
            return 0;
        }
        if (iter == DC_SECULAR_MAXIT - 1)
            break;
        if (w <= 0.0)
            lb = fmax(lb, tau);
        else
            ub = fmin(ub, tau);
        /* The rational model through the two top poles. */
        c = w - delta[below] * s.dpsi - delta[top] * s.dphi;
        const double a =
            (delta[below] + delta[top]) * w - delta[below] * delta[top] * (s.dpsi + s.dphi);
        const double b = delta[below] * delta[top] * w;
        const bool first = iter == 1;
        if (first && c < 0.0)
            c = fabs(c);
        double eta;
        if (first && c == 0.0)
            eta = -w / (s.dpsi + s.dphi);
        else if (a >= 0.0)
            eta = (a + sqrt(fabs(a * a - 4.0 * b * c))) / (2.0 * c);
        else
            eta = 2.0 * b / (a - sqrt(fabs(a * a - 4.0 * b * c)));
        if (w * eta > 0.0)
            eta = -w / (s.dpsi + s.dphi);
        if (tau + eta > ub || tau + eta < lb) {
            const double half = w < 0.0 ? (ub - tau) / 2 : (lb - tau) / 2;
            if (first) {
                const double newton = -w / (s.dpsi + s.dphi);
                const double t = tau + newton;
                eta = lb <= t && t <= ub
                          ? copysign(1.0, newton) * sqrt(fabs(newton)) * sqrt(fabs(half))
                          : half;
            } else {
                eta = half;
            }
        }
        shift(n, delta, eta);
        tau += eta;
        s = secular_eval(n, n - 1, n - 1, false, z, delta);
        s.erretm =
            8.0 * (-s.phi - s.psi) + s.erretm - s.phi + rhoinv + fabs(tau) * (s.dpsi + s.dphi);
        w = rhoinv + s.phi + s.psi;
    }
    *lambda = d[top] + tau;
    return 1;
}

/* The root in (d[i], d[i+1]), i < n - 1, measured from the nearer pole. */
static int interior_root(tela_int n, tela_int i, const double *d, const double *z, double *delta,
                         double rho, double *lambda)
{
    const double rhoinv = 1.0 / rho;
    const tela_int ip1 = i + 1;
    const double del = d[ip1] - d[i], midpt = del / 2;
    for (tela_int j = 0; j < n; j++)
        delta[j] = (d[j] - d[i]) - midpt;
    double psi = 0.0, phi = 0.0;
    for (tela_int j = 0; j < i; j++)
        psi += z[j] * z[j] / delta[j];
    for (tela_int j = n - 1; j >= i + 2; j--)
        phi += z[j] * z[j] / delta[j];
    double c = rhoinv + psi + phi;
    double w = c + z[i] * z[i] / delta[i] + z[ip1] * z[ip1] / delta[ip1];
    /* f at the midpoint tells which half holds the root, so which pole is nearer. */
    const bool orgati = w > 0.0;
    double tau, lb, ub;
    if (orgati) {
        const double a = c * del + z[i] * z[i] + z[ip1] * z[ip1], b = z[i] * z[i] * del;
        tau = a > 0.0 ? 2.0 * b / (a + sqrt(fabs(a * a - 4.0 * b * c)))
                      : (a - sqrt(fabs(a * a - 4.0 * b * c))) / (2.0 * c);
        lb = 0.0;
        ub = midpt;
    } else {
        const double a = c * del - z[i] * z[i] - z[ip1] * z[ip1], b = z[ip1] * z[ip1] * del;
        tau = a < 0.0 ? 2.0 * b / (a - sqrt(fabs(a * a + 4.0 * b * c)))
                      : -(a + sqrt(fabs(a * a + 4.0 * b * c))) / (2.0 * c);
        lb = -midpt;
        ub = 0.0;
    }
    const tela_int ii = orgati ? i : ip1, iim1 = ii - 1, iip1 = ii + 1;
    const double origin = d[ii];
    for (tela_int j = 0; j < n; j++)
        delta[j] = (d[j] - origin) - tau;

    secular_sums s = secular_eval(n, ii, iip1, true, z, delta);
    w = rhoinv + s.phi + s.psi;
    /* The cubic (three-pole) step where f's sign says the far side dominates. */
    bool swtch3 = orgati ? w < 0.0 : w > 0.0;
    if (ii == 0 || ii == n - 1)
        swtch3 = false;
    double t = z[ii] / delta[ii];
    double dw = s.dpsi + s.dphi + t * t;
    t *= z[ii];
    w += t;
    double erretm =
        8.0 * (s.phi - s.psi) + s.erretm + 2.0 * rhoinv + 3.0 * fabs(t) + fabs(tau) * dw;
    bool swtch = false;
    double prew; /* w before the last step, set with the first */
    for (int iter = 1;; iter++) {
        if (fabs(w) <= DC_EPS * erretm) {
            *lambda = origin + tau;
            return 0;
        }
        if (iter == DC_SECULAR_MAXIT - 1)
            break;
        if (w <= 0.0)
            lb = fmax(lb, tau);
        else
            ub = fmin(ub, tau);
        const int niter = iter + 1; /* LAPACK's count: 2 on the first step */
        double eta;
        if (!swtch3) {
            double dpsi = s.dpsi, dphi = s.dphi;
            if (!swtch) {
                c = orgati ? w - delta[ip1] * dw -
                                 (d[i] - d[ip1]) * (z[i] / delta[i]) * (z[i] / delta[i])
                           : w - delta[i] * dw -
                                 (d[ip1] - d[i]) * (z[ip1] / delta[ip1]) * (z[ip1] / delta[ip1]);
            } else {
                const double r = z[ii] / delta[ii];
                if (orgati)
                    dpsi += r * r;
                else
                    dphi += r * r;
                c = w - delta[i] * dpsi - delta[ip1] * dphi;
            }
            double a = (delta[i] + delta[ip1]) * w - delta[i] * delta[ip1] * dw;
            const double b = delta[i] * delta[ip1] * w;
            if (c == 0.0) {
                if (a == 0.0) {
                    if (!swtch)
                        a = orgati ? z[i] * z[i] + delta[ip1] * delta[ip1] * (dpsi + dphi)
                                   : z[ip1] * z[ip1] + delta[i] * delta[i] * (dpsi + dphi);
                    else
                        a = delta[i] * delta[i] * dpsi + delta[ip1] * delta[ip1] * dphi;
                }
                eta = b / a;
            } else {
                eta = quadratic_step(a, b, c);
            }
        } else {
            const double base = rhoinv + s.psi + s.phi;
            double zz[3];
            if (swtch) {
                c = base - delta[iim1] * s.dpsi - delta[iip1] * s.dphi;
                zz[0] = delta[iim1] * delta[iim1] * s.dpsi;
                zz[2] = delta[iip1] * delta[iip1] * s.dphi;
            } else if (orgati) {
                const double r = (z[iim1] / delta[iim1]) * (z[iim1] / delta[iim1]);
                c = base - delta[iip1] * (s.dpsi + s.dphi) - (d[iim1] - d[iip1]) * r;
                zz[0] = z[iim1] * z[iim1];
                zz[2] = delta[iip1] * delta[iip1] * ((s.dpsi - r) + s.dphi);
            } else {
                const double r = (z[iip1] / delta[iip1]) * (z[iip1] / delta[iip1]);
                c = base - delta[iim1] * (s.dpsi + s.dphi) - (d[iip1] - d[iim1]) * r;
                zz[0] = delta[iim1] * delta[iim1] * (s.dpsi + (s.dphi - r));
                zz[2] = z[iip1] * z[iip1];
            }
            zz[1] = z[ii] * z[ii];
            if (cubic_step(niter, orgati, c, delta + iim1, zz, w, &eta)) {
                *lambda = origin + tau;
                return 1;
            }
        }
        if (w * eta >= 0.0)
            eta = -w / dw;
        if (tau + eta > ub || tau + eta < lb) {
            const double half = w < 0.0 ? (ub - tau) / 2 : (lb - tau) / 2;
            if (iter == 1) {
                eta = half;
            } else {
                const double newton = -w / dw;
                const double tn = tau + newton;
                eta = lb <= tn && tn <= ub
                          ? copysign(1.0, newton) * sqrt(fabs(newton)) * sqrt(fabs(half))
                          : half;
            }
        }
        prew = w;
        shift(n, delta, eta);
        tau += eta;
        s = secular_eval(n, ii, iip1, true, z, delta);
        t = z[ii] / delta[ii];
        dw = s.dpsi + s.dphi + t * t;
        t *= z[ii];
        w = rhoinv + s.phi + s.psi + t;
        erretm = 8.0 * (s.phi - s.psi) + s.erretm + 2.0 * rhoinv + 3.0 * fabs(t) + fabs(tau) * dw;
        if (iter == 1)
            swtch = orgati ? -w > fabs(prew) / 10 : w > fabs(prew) / 10;
        else if (w * prew > 0.0 && fabs(w) > fabs(prew) / 10)
            swtch = !swtch;
    }
    *lambda = origin + tau;
    return 1;
}

int eig_dc_secular_root(tela_int n, tela_int i, const double *d, const double *z, double *delta,
                        double rho, double *lambda)
{
    if (n == 1) {
        *lambda = d[0] + rho * z[0] * z[0];
        delta[0] = 1.0;
        return 0;
    }
    if (n == 2) {
        two_poles(i, d, z, delta, rho, lambda);
        return 0;
    }
    return i == n - 1 ? last_root(n, d, z, delta, rho, lambda)
                      : interior_root(n, i, d, z, delta, rho, lambda);
}
