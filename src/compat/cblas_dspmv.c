/* cblas_dspmv.c — cblas_dspmv on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dspmv it calls. A row-major packed triangle is
 * the column-major one of A^T = A with the other triangle stored: the call flips uplo and keeps
 * every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dspmv_routine = {
    .name = "cblas_dspmv",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dspmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha, const double *ap,
                 const double *x, int incx, double beta, double *y, int incy)
{
    const char *name = cblas_dspmv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dspmv_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else if (row_major)
        compat_dspmv(ul == 'U' ? 'L' : 'U', n, alpha, ap, x, incx, beta, y, incy);
    else
        compat_dspmv(ul, n, alpha, ap, x, incx, beta, y, incy);
    compat_cblas_leave(previous);
}
