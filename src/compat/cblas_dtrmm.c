/* cblas_dtrmm.c — cblas_dtrmm on tela, reporting errors as reference CBLAS does.
 *
 * Layout and the four flags are checked here (cblas_xerbla 1 to 5); the rest by the Fortran-ABI
 * core, as reference CBLAS leaves them to the Fortran dtrmm it calls. Row-major B = op(A) B is
 * the column-major B^T = B^T op(A^T), so that call flips side and uplo and swaps M with N, and
 * its errors carry the swapped call's numbers: the routine's table says how to swap them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dtrmm_routine = {
    .name = "cblas_dtrmm",
    /* Row-major: M is reported at N's place (7), N at M's (6), as in reference cblas_xerbla;
     * lda and ldb keep their places. */
    .row_major_swaps = {{6, 7}, {0, 0}},
};

void cblas_dtrmm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa,
                 CBLAS_DIAG diag, int m, int n, double alpha, const double *a, int lda, double *b,
                 int ldb)
{
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dtrmm_routine, row_major);
    char f[4]; /* side, uplo, transa, diag of the column-major call */
    if (compat_cblas_triangular_flags(cblas_dtrmm_routine.name, layout, side, uplo, transa, diag,
                                      f)) {
        if (row_major)
            compat_dtrmm(f[0], f[1], f[2], f[3], n, m, alpha, a, lda, b, ldb);
        else
            compat_dtrmm(f[0], f[1], f[2], f[3], m, n, alpha, a, lda, b, ldb);
    }
    compat_cblas_leave(previous);
}
