/* cblas_dtrsm.c — cblas_dtrsm on tela, reporting errors as reference CBLAS does.
 *
 * Layout and the four flags are checked by compat_cblas_triangular (cblas_xerbla 1 to 5), the
 * body cblas_dtrsm and cblas_dtrmm share; the rest by the Fortran-ABI core, as reference CBLAS
 * leaves them to the Fortran dtrsm it calls. Row-major op(A) X = B is the column-major
 * X^T op(A^T) = B^T, so that call flips side and uplo and swaps M with N, and its errors carry
 * the swapped call's numbers: the routine's table says how to swap them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dtrsm_routine = {
    .name = "cblas_dtrsm",
    /* Row-major: M is reported at N's place (7), N at M's (6), as in reference cblas_xerbla;
     * lda and ldb keep their places. */
    .row_major_swaps = {{6, 7}, {0, 0}},
};

void cblas_dtrsm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa,
                 CBLAS_DIAG diag, int m, int n, double alpha, const double *a, int lda, double *b,
                 int ldb)
{
    compat_cblas_triangular(&cblas_dtrsm_routine, compat_dtrsm, layout, side, uplo, transa, diag, m,
                            n, alpha, a, lda, b, ldb);
}
