/* reflector.c — one Householder reflector (LAPACK's dlarfg), the step every QR and LQ column
 * takes, with its rescaling of a tiny beta so that tau and v keep full precision. */
#include "level1/level1.h"
#include "qr/qr.h"

#include <float.h>
#include <math.h>

/* LAPACK's dlapy2: sqrt(x^2 + y^2) without overflow, a NaN returned as is. */
static double pythagoras(double x, double y)
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

/* x's 2-norm and x *= s, contiguous through level 1's kernels, strided (an LQ row without
 * scratch) through the BLAS entry points. */
static double norm(tela_int n, const double *x, tela_int incx)
{
    return incx == 1 ? level1_nrm2(n, x) : tela_dnrm2(tela_par_seq(), n, x, incx);
}

static void scale(tela_int n, double s, double *x, tela_int incx)
{
    if (incx == 1)
        level1_scal(n, s, x);
    else
        tela_dscal(tela_par_seq(), n, s, x, incx);
}

void qr_reflector(tela_int n, double *alpha, double *x, tela_int incx, double *tau)
{
    if (n <= 1) {
        *tau = 0.0;
        return;
    }
    double xnorm = norm(n - 1, x, incx);
    if (xnorm == 0.0) {
        *tau = 0.0;
        return;
    }
    double beta = -copysign(pythagoras(*alpha, xnorm), *alpha);
    /* LAPACK's safmin / eps: below it v = x / (alpha - beta) would lose digits. */
    const double safmin = DBL_MIN / (DBL_EPSILON * 0.5);
    const double rsafmn = 1.0 / safmin;
    int knt = 0;
    if (fabs(beta) < safmin) {
        /* At most 20 rescalings, as LAPACK: a NaN or zero cannot loop for ever. */
        do {
            knt++;
            scale(n - 1, rsafmn, x, incx);
            beta *= rsafmn;
            *alpha *= rsafmn;
        } while (fabs(beta) < safmin && knt < 20);
        xnorm = norm(n - 1, x, incx);
        beta = -copysign(pythagoras(*alpha, xnorm), *alpha);
    }
    *tau = (beta - *alpha) / beta;
    scale(n - 1, 1.0 / (*alpha - beta), x, incx);
    for (int j = 0; j < knt; j++)
        beta *= safmin;
    *alpha = beta;
}

void qr_apply_reflector(tela_int m, tela_int n, const double *v, double tau, double *c,
                        tela_int ldc)
{
    if (tau == 0.0)
        return;
    for (tela_int j = 0; j < n; j++) {
        double *col = c + j * ldc;
        const double w = tau * (col[0] + level1_dot(m - 1, v + 1, col + 1));
        col[0] -= w;
        level1_axpy(m - 1, -w, v + 1, col + 1);
    }
}
