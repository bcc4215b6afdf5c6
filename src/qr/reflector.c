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

void qr_reflector(tela_int n, double *alpha, double *x, double *tau)
{
    if (n <= 1) {
        *tau = 0.0;
        return;
    }
    double xnorm = level1_nrm2(n - 1, x);
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
            level1_scal(n - 1, rsafmn, x);
            beta *= rsafmn;
            *alpha *= rsafmn;
        } while (fabs(beta) < safmin && knt < 20);
        xnorm = level1_nrm2(n - 1, x);
        beta = -copysign(pythagoras(*alpha, xnorm), *alpha);
    }
    *tau = (beta - *alpha) / beta;
    level1_scal(n - 1, 1.0 / (*alpha - beta), x);
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
