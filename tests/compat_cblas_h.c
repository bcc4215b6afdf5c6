/* compat_cblas_h.c — compiled, never run: tela_cblas.h included after a system cblas.h
 * (TELA_SYSTEM_CBLAS_H names it: netlib's or OpenBLAS's) must compile cleanly, its prototypes
 * agreeing with the system ones, and calls through the system's enums must compile. */
#include TELA_SYSTEM_CBLAS_H
#include "tela_cblas.h"

void compat_cblas_h_call(double *c);

void compat_cblas_h_call(double *c)
{
    static const double one[1] = {1.0};
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 1, 1, 1, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, 1, 1, 1.0, one, 1,
                c, 1);
    cblas_dtrmm(CblasColMajor, CblasRight, CblasLower, CblasNoTrans, CblasUnit, 1, 1, 1.0, one, 1,
                c, 1);
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, 1, 1, 1.0, one, 1, 0.0, c, 1);
}
