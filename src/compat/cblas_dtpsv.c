/* cblas_dtpsv.c — cblas_dtpsv on tela, reporting errors as reference CBLAS does.
 *
 * Layout, Uplo, TransA and Diag are checked here (cblas_xerbla 1 to 4); the rest by the
 * Fortran-ABI core, as reference CBLAS leaves them to the Fortran dtpsv it calls. A row-major
 * packed triangle is the column-major one of A^T, whose stored triangle is the other one: op(A) x =
 * b becomes the call with uplo flipped and the transpose flipped too (Trans and ConjTrans become
 * 'N', NoTrans 'T'), every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dtpsv_routine = {
    .name = "cblas_dtpsv",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dtpsv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n,
                 const double *ap, double *x, int incx)
{
    compat_cblas_call previous = compat_cblas_enter(&cblas_dtpsv_routine, layout == CblasRowMajor);
    char f[3]; /* uplo, trans, diag of the column-major call */
    if (compat_cblas_vector_triangle(cblas_dtpsv_routine.name, layout, uplo, trans, diag, f))
        compat_dtpsv(f[0], f[1], f[2], n, ap, x, incx);
    compat_cblas_leave(previous);
}
