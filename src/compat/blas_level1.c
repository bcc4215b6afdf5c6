/* blas_level1.c — the Fortran-ABI level-1 BLAS (ddot_, daxpy_, ..., drotmg_). Reference BLAS
 * checks nothing here, and neither does tela: each symbol is tela's routine on the process
 * default width (the scalar ones, drotg_ and drotmg_, have no width). */
#include "compat/compat.h"

double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy)
{
    return tela_ddot(tela_par_auto(), *n, x, *incx, y, *incy);
}

void daxpy_(const int *n, const double *alpha, const double *x, const int *incx, double *y,
            const int *incy)
{
    tela_daxpy(tela_par_auto(), *n, *alpha, x, *incx, y, *incy);
}

void dscal_(const int *n, const double *alpha, double *x, const int *incx)
{
    tela_dscal(tela_par_auto(), *n, *alpha, x, *incx);
}

void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy)
{
    tela_dcopy(tela_par_auto(), *n, x, *incx, y, *incy);
}

void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy)
{
    tela_dswap(tela_par_auto(), *n, x, *incx, y, *incy);
}

double dnrm2_(const int *n, const double *x, const int *incx)
{
    return tela_dnrm2(tela_par_auto(), *n, x, *incx);
}

double dasum_(const int *n, const double *x, const int *incx)
{
    return tela_dasum(tela_par_auto(), *n, x, *incx);
}

int idamax_(const int *n, const double *x, const int *incx)
{
    /* At most n, which is an int. */
    return (int)tela_idamax(tela_par_auto(), *n, x, *incx);
}

void drot_(const int *n, double *x, const int *incx, double *y, const int *incy, const double *c,
           const double *s)
{
    tela_drot(tela_par_auto(), *n, x, *incx, y, *incy, *c, *s);
}

void drotg_(double *a, double *b, double *c, double *s)
{
    tela_drotg(a, b, c, s);
}

void drotm_(const int *n, double *x, const int *incx, double *y, const int *incy,
            const double *param)
{
    tela_drotm(tela_par_auto(), *n, x, *incx, y, *incy, param);
}

void drotmg_(double *d1, double *d2, double *x1, const double *y1, double *param)
{
    tela_drotmg(d1, d2, x1, *y1, param);
}
