/* cblas_dtrsv.c — cblas_dtrsv on tela, reporting errors as reference CBLAS does.
 *
 * Layout, Uplo, TransA and Diag are checked here (cblas_xerbla 1 to 4); the rest by the
 * Fortran-ABI core, as reference CBLAS leaves them to the Fortran dtrsv it calls. Row-major A is
 * the column-major A^T, triangular the other way: op(A) x = b with op(A) is the same with
 * op(A^T)^T, so that call flips uplo and the transpose (Trans and ConjTrans become 'N', NoTrans
 * 'T') and keeps every other argument in its place; its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dtrsv_routine = {
    .name = "cblas_dtrsv",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dtrsv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, int n,
                 const double *a, int lda, double *x, int incx)
{
    compat_cblas_call previous = compat_cblas_enter(&cblas_dtrsv_routine, layout == CblasRowMajor);
    char f[3]; /* uplo, trans, diag of the column-major call */
    if (compat_cblas_vector_triangle(cblas_dtrsv_routine.name, layout, uplo, trans, diag, f))
        compat_dtrsv(f[0], f[1], f[2], n, a, lda, x, incx);
    compat_cblas_leave(previous);
}
