/* cblas_dspr2.c — cblas_dspr2 on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dspr2 it calls. A row-major packed triangle is the
 * column-major packing of the other triangle (A is symmetric): the call flips uplo and keeps
 * every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dspr2_routine = {
    .name = "cblas_dspr2",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dspr2(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha, const double *x,
                 int incx, const double *y, int incy, double *a)
{
    const char *name = cblas_dspr2_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dspr2_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else if (row_major)
        compat_dspr2(ul == 'U' ? 'L' : 'U', n, alpha, x, incx, y, incy, a);
    else
        compat_dspr2(ul, n, alpha, x, incx, y, incy, a);
    compat_cblas_leave(previous);
}
