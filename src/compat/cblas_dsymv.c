/* cblas_dsymv.c — cblas_dsymv on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dsymv it calls. Row-major A is the column-major
 * A^T = A with the other triangle stored: that call flips uplo and keeps every other argument in
 * its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dsymv_routine = {
    .name = "cblas_dsymv",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dsymv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha, const double *a, int lda,
                 const double *x, int incx, double beta, double *y, int incy)
{
    const char *name = cblas_dsymv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dsymv_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else
        compat_dsymv(row_major ? (ul == 'U' ? 'L' : 'U') : ul, n, alpha, a, lda, x, incx, beta, y,
                     incy);
    compat_cblas_leave(previous);
}
