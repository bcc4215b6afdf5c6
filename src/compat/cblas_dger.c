/* cblas_dger.c — cblas_dger on tela, reporting errors as reference CBLAS does.
 *
 * Layout is checked here (cblas_xerbla 1); the rest by the Fortran-ABI core, as reference CBLAS
 * leaves them to the Fortran dger it calls. Row-major A = alpha x y^T + A is the column-major
 * A^T = alpha y x^T + A^T: that call swaps x with y and M with N, and its errors carry the
 * swapped call's numbers: the routine's table swaps them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dger_routine = {
    .name = "cblas_dger",
    /* Row-major: M is reported at N's place (3), N at M's (2); incY at incX's (6), incX at
     * incY's (8), as in reference cblas_xerbla. */
    .row_major_swaps = {{2, 3}, {6, 8}},
};

void cblas_dger(CBLAS_ORDER layout, int m, int n, double alpha, const double *x, int incx,
                const double *y, int incy, double *a, int lda)
{
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dger_routine, row_major);
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, cblas_dger_routine.name, "Illegal layout setting, %d\n", (int)layout);
    else if (row_major)
        compat_dger(n, m, alpha, y, incy, x, incx, a, lda);
    else
        compat_dger(m, n, alpha, x, incx, y, incy, a, lda);
    compat_cblas_leave(previous);
}
