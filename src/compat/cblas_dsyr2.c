/* cblas_dsyr2.c — cblas_dsyr2 on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dsyr2 it calls. Row-major A is the column-major A^T,
 * whose stored triangle is the other one (x y^T + y x^T is symmetric): that call flips uplo and
 * keeps every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dsyr2_routine = {
    .name = "cblas_dsyr2",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dsyr2(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha, const double *x,
                 int incx, const double *y, int incy, double *a, int lda)
{
    const char *name = cblas_dsyr2_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dsyr2_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else
        compat_dsyr2(row_major ? (ul == 'U' ? 'L' : 'U') : ul, n, alpha, x, incx, y, incy, a, lda);
    compat_cblas_leave(previous);
}
