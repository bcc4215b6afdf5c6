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
    cblas_dsymm(CblasColMajor, CblasLeft, CblasUpper, 1, 1, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dsyr2k(CblasRowMajor, CblasLower, CblasNoTrans, 1, 1, 1.0, one, 1, one, 1, 0.0, c, 1);

    /* Level 1: the return types (double, CBLAS_INDEX = size_t) must agree too. */
    double r[4] = {1.0, 0.0, 0.0, 0.0}, p[5] = {-1.0, 1.0, 0.0, 0.0, 1.0};
    c[0] = cblas_ddot(1, one, 1, one, 1) + cblas_dnrm2(1, one, 1) + cblas_dasum(1, one, 1);
    size_t index = cblas_idamax(1, one, 1);
    c[0] += (double)index;
    cblas_daxpy(1, 1.0, one, 1, c, 1);
    cblas_dscal(1, 2.0, c, 1);
    cblas_dcopy(1, one, 1, c, 1);
    cblas_dswap(1, r, 1, c, 1);
    cblas_drot(1, r, 1, c, 1, 1.0, 0.0);
    cblas_drotg(&r[0], &r[1], &r[2], &r[3]);
    cblas_drotm(1, r, 1, c, 1, p);
    cblas_drotmg(&r[0], &r[1], &r[2], 1.0, p);

    /* Level 2. */
    double a[1] = {1.0};
    cblas_dgemv(CblasRowMajor, CblasNoTrans, 1, 1, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dgbmv(CblasColMajor, CblasTrans, 1, 1, 0, 0, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dsymv(CblasRowMajor, CblasUpper, 1, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dsbmv(CblasColMajor, CblasLower, 1, 0, 1.0, one, 1, one, 1, 0.0, c, 1);
    cblas_dspmv(CblasColMajor, CblasUpper, 1, 1.0, one, one, 1, 0.0, c, 1);
    cblas_dger(CblasRowMajor, 1, 1, 1.0, one, 1, one, 1, a, 1);
    cblas_dsyr(CblasColMajor, CblasLower, 1, 1.0, one, 1, a, 1);
    cblas_dsyr2(CblasColMajor, CblasUpper, 1, 1.0, one, 1, one, 1, a, 1);
    cblas_dspr(CblasRowMajor, CblasLower, 1, 1.0, one, 1, a);
    cblas_dspr2(CblasRowMajor, CblasUpper, 1, 1.0, one, 1, one, 1, a);
    cblas_dtrmv(CblasRowMajor, CblasUpper, CblasTrans, CblasUnit, 1, one, 1, c, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, 1, one, 1, c, 1);
    cblas_dtbmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 1, 0, one, 1, c, 1);
    cblas_dtbsv(CblasRowMajor, CblasLower, CblasTrans, CblasUnit, 1, 0, one, 1, c, 1);
    cblas_dtpmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 1, one, c, 1);
    cblas_dtpsv(CblasRowMajor, CblasLower, CblasTrans, CblasUnit, 1, one, c, 1);
}
