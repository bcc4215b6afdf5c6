/* cblas_dspr.c — cblas_dspr on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dspr it calls. A row-major packed triangle is the
 * column-major packing of the other triangle (A is symmetric): the call flips uplo and keeps
 * every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dspr_routine = {
    .name = "cblas_dspr",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dspr(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha, const double *x, int incx,
                double *ap)
{
    const char *name = cblas_dspr_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dspr_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else if (row_major)
        compat_dspr(ul == 'U' ? 'L' : 'U', n, alpha, x, incx, ap);
    else
        compat_dspr(ul, n, alpha, x, incx, ap);
    compat_cblas_leave(previous);
}
