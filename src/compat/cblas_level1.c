/* cblas_level1.c — the CBLAS level-1 routines (cblas_ddot, ..., cblas_drotmg): no layout, no
 * checks, as reference CBLAS; each is tela's routine on the process default width.
 * cblas_idamax is 0-based, as reference CBLAS's: the Fortran index minus one, 0 when that is 0
 * (n < 1 or incx <= 0). */
#include "compat/compat.h"

double cblas_ddot(int n, const double *x, int incx, const double *y, int incy)
{
    return tela_ddot(tela_par_auto(), n, x, incx, y, incy);
}

void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y, int incy)
{
    tela_daxpy(tela_par_auto(), n, alpha, x, incx, y, incy);
}

void cblas_dscal(int n, double alpha, double *x, int incx)
{
    tela_dscal(tela_par_auto(), n, alpha, x, incx);
}

void cblas_dcopy(int n, const double *x, int incx, double *y, int incy)
{
    tela_dcopy(tela_par_auto(), n, x, incx, y, incy);
}

void cblas_dswap(int n, double *x, int incx, double *y, int incy)
{
    tela_dswap(tela_par_auto(), n, x, incx, y, incy);
}

double cblas_dnrm2(int n, const double *x, int incx)
{
    return tela_dnrm2(tela_par_auto(), n, x, incx);
}

double cblas_dasum(int n, const double *x, int incx)
{
    return tela_dasum(tela_par_auto(), n, x, incx);
}

size_t cblas_idamax(int n, const double *x, int incx)
{
    const tela_int i = tela_idamax(tela_par_auto(), n, x, incx);
    return i > 0 ? (size_t)(i - 1) : 0;
}

void cblas_drot(int n, double *x, int incx, double *y, int incy, double c, double s)
{
    tela_drot(tela_par_auto(), n, x, incx, y, incy, c, s);
}

void cblas_drotg(double *a, double *b, double *c, double *s)
{
    tela_drotg(a, b, c, s);
}

void cblas_drotm(int n, double *x, int incx, double *y, int incy, const double *p)
{
    tela_drotm(tela_par_auto(), n, x, incx, y, incy, p);
}

void cblas_drotmg(double *d1, double *d2, double *b1, double b2, double *p)
{
    tela_drotmg(d1, d2, b1, b2, p);
}
