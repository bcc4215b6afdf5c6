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

/* v's tail against x's: level 1's kernel where both are contiguous (by loops taken once, see
 * level1_loops_upto), the BLAS entry points (strided LQ rows, C's rows from the right)
 * otherwise. */
static double tail_dot(const level1_loops *loops, tela_int n, const double *x, tela_int incx,
                       const double *v, tela_int incv)
{
    if (n <= 0)
        return 0.0;
    return incx == 1 && incv == 1 ? level1_dot_by(loops, n, x, v)
                                  : tela_ddot(tela_par_seq(), n, x, incx, v, incv);
}

static void tail_axpy(const level1_loops *loops, tela_int n, double alpha, const double *v,
                      tela_int incv, double *x, tela_int incx)
{
    if (n <= 0)
        return;
    if (incx == 1 && incv == 1)
        level1_axpy_by(loops, n, alpha, v, x);
    else
        tela_daxpy(tela_par_seq(), n, alpha, v, incv, x, incx);
}

void qr_apply_reflector(tela_int len, tela_int cols, const double *v, tela_int incv, double tau,
                        double *c, tela_int ldc)
{
    if (tau == 0.0)
        return;
    const level1_loops *loops = level1_loops_upto(len - 1);
    for (tela_int j = 0; j < cols; j++) {
        double *col = c + (size_t)j * (size_t)ldc;
        const double w = tau * (col[0] + tail_dot(loops, len - 1, col + 1, 1, v + incv, incv));
        col[0] -= w;
        tail_axpy(loops, len - 1, -w, v + incv, incv, col + 1, 1);
    }
}

void qr_apply_reflector_right(tela_int rows, tela_int len, const double *v, tela_int incv,
                              double tau, double *c, tela_int ldc)
{
    if (tau == 0.0)
        return;
    for (tela_int r = 0; r < rows; r++) {
        double *row = c + r;
        const double w = tau * (row[0] + tail_dot(NULL, len - 1, row + ldc, ldc, v + incv, incv));
        row[0] -= w;
        tail_axpy(NULL, len - 1, -w, v + incv, incv, row + ldc, ldc);
    }
}
