/* compat_cblas_h.c — compiled, never run: tela_cblas.h included after a system cblas.h
 * (TELA_SYSTEM_CBLAS_H names it: netlib's or OpenBLAS's) must compile cleanly, its prototype
 * agreeing with the system one, and a call through the system's enums must compile. */
#include TELA_SYSTEM_CBLAS_H
#include "tela_cblas.h"

void compat_cblas_h_call(double *c);

void compat_cblas_h_call(double *c)
{
    static const double one[1] = {1.0};
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 1, 1, 1, 1.0, one, 1, one, 1, 0.0, c, 1);
}
