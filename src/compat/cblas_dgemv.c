/* cblas_dgemv.c — cblas_dgemv on tela, reporting errors as reference CBLAS does.
 *
 * Layout and TransA are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dgemv it calls. Row-major A is the column-major A^T:
 * that call flips the transpose (Trans and ConjTrans become 'N', NoTrans 'T') and swaps M with
 * N, and its errors carry the swapped call's numbers: the routine's table swaps them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dgemv_routine = {
    .name = "cblas_dgemv",
    /* Row-major: M is reported at N's place (4), N at M's (3), as in reference cblas_xerbla. */
    .row_major_swaps = {{3, 4}, {0, 0}},
};

void cblas_dgemv(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx, double beta, double *y,
                 int incy)
{
    const char *name = cblas_dgemv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dgemv_routine, row_major);
    char ta = 'N';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_trans(trans, &ta))
        cblas_xerbla(2, name, "Illegal TransA setting, %d\n", (int)trans);
    else if (row_major)
        compat_dgemv(compat_is_notrans(ta) ? 'T' : 'N', n, m, alpha, a, lda, x, incx, beta, y,
                     incy);
    else
        compat_dgemv(ta, m, n, alpha, a, lda, x, incx, beta, y, incy);
    compat_cblas_leave(previous);
}
