/* cblas_dgemm.c — cblas_dgemm on tela, reporting errors as reference CBLAS does.
 *
 * Layout and transposes are checked here (cblas_xerbla 1, 2, 3); the rest by the Fortran-ABI
 * core, as reference CBLAS leaves them to the Fortran dgemm it calls. Row-major C = AB is the
 * column-major C^T = B^T A^T, so that call swaps A with B and M with N, and its errors carry
 * the swapped call's numbers: the routine's table says how to swap them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dgemm_routine = {
    .name = "cblas_dgemm",
    /* Row-major: M is reported at N's place (5), N at M's (4); lda at ldb's (11), ldb at
     * lda's (9), as in reference cblas_xerbla. */
    .row_major_swaps = {{4, 5}, {9, 11}},
};

void cblas_dgemm(CBLAS_ORDER layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb, int m, int n,
                 int k, double alpha, const double *a, int lda, const double *b, int ldb,
                 double beta, double *c, int ldc)
{
    const char *name = cblas_dgemm_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dgemm_routine, row_major);
    char ta = 'N', tb = 'N';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_trans(transa, &ta))
        cblas_xerbla(2, name, "Illegal TransA setting, %d\n", (int)transa);
    else if (!compat_cblas_trans(transb, &tb))
        cblas_xerbla(3, name, "Illegal TransB setting, %d\n", (int)transb);
    else if (row_major)
        compat_dgemm(tb, ta, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
    else
        compat_dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    compat_cblas_leave(previous);
}
