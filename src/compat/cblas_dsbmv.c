/* cblas_dsbmv.c — cblas_dsbmv on tela, reporting errors as reference CBLAS does.
 *
 * Layout and Uplo are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dsbmv it calls. A row-major band is
 * the column-major one of A^T = A with the other triangle stored: the call flips uplo and keeps
 * every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dsbmv_routine = {
    .name = "cblas_dsbmv",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dsbmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, int k, double alpha, const double *a,
                 int lda, const double *x, int incx, double beta, double *y, int incy)
{
    const char *name = cblas_dsbmv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dsbmv_routine, row_major);
    char ul = 'U';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_uplo(uplo, &ul))
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    else if (row_major)
        compat_dsbmv(ul == 'U' ? 'L' : 'U', n, k, alpha, a, lda, x, incx, beta, y, incy);
    else
        compat_dsbmv(ul, n, k, alpha, a, lda, x, incx, beta, y, incy);
    compat_cblas_leave(previous);
}
