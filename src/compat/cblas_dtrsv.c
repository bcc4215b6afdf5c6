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
    const char *name = cblas_dtrsv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dtrsv_routine, row_major);
    char ul = 'U', ta = 'N', di = 'N';
    if (!row_major && layout != CblasColMajor) {
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    } else if (!compat_cblas_uplo(uplo, &ul)) {
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    } else if (!compat_cblas_trans(trans, &ta)) {
        cblas_xerbla(3, name, "Illegal TransA setting, %d\n", (int)trans);
    } else if (!compat_cblas_diag(diag, &di)) {
        cblas_xerbla(4, name, "Illegal Diag setting, %d\n", (int)diag);
    } else if (row_major) {
        compat_dtrsv(ul == 'U' ? 'L' : 'U', compat_is_notrans(ta) ? 'T' : 'N', di, n, a, lda, x,
                     incx);
    } else {
        compat_dtrsv(ul, ta, di, n, a, lda, x, incx);
    }
    compat_cblas_leave(previous);
}
