/* cblas_dsymm.c — cblas_dsymm on tela, reporting errors as reference CBLAS does.
 *
 * Layout, Side and Uplo are checked here (cblas_xerbla 1, 2, 3); the rest by the Fortran-ABI
 * core, as reference CBLAS leaves them to the Fortran dsymm it calls. Row-major C = A B is the
 * column-major C^T = B^T A (A symmetric, and its stored triangle read the other way round): the
 * call flips side and uplo and swaps M with N, and its errors carry the swapped call's numbers,
 * which the routine's table swaps back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dsymm_routine = {
    .name = "cblas_dsymm",
    /* Row-major: M is reported at N's place (5), N at M's (4), as in reference cblas_xerbla;
     * lda, ldb and ldc keep their places. */
    .row_major_swaps = {{4, 5}, {0, 0}},
};

void cblas_dsymm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, int m, int n, double alpha,
                 const double *a, int lda, const double *b, int ldb, double beta, double *c,
                 int ldc)
{
    const char *name = cblas_dsymm_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dsymm_routine, row_major);
    char sd = 'L', ul = 'U';
    if (!row_major && layout != CblasColMajor) {
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    } else if (!compat_cblas_side(side, &sd)) {
        cblas_xerbla(2, name, "Illegal Side setting, %d\n", (int)side);
    } else if (!compat_cblas_uplo(uplo, &ul)) {
        cblas_xerbla(3, name, "Illegal Uplo setting, %d\n", (int)uplo);
    } else if (row_major) {
        compat_dsymm(sd == 'L' ? 'R' : 'L', ul == 'U' ? 'L' : 'U', n, m, alpha, a, lda, b, ldb,
                     beta, c, ldc);
    } else {
        compat_dsymm(sd, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    compat_cblas_leave(previous);
}
