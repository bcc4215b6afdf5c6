/* cblas_dsyr2k.c — cblas_dsyr2k on tela, reporting errors as reference CBLAS does.
 *
 * Layout, Uplo and Trans are checked here (cblas_xerbla 1, 2, 3); the rest by the Fortran-ABI
 * core, as reference CBLAS leaves them to the Fortran dsyr2k it calls. Row-major C is the
 * column-major C^T, whose uplo triangle is the other one, and A and B read column-major are
 * A^T and B^T: the call flips uplo and trans (Trans and ConjTrans become 'N', NoTrans 'T') and
 * keeps every other argument in its place, so its errors need no renumbering. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dsyr2k_routine = {
    .name = "cblas_dsyr2k",
    .row_major_swaps = {{0, 0}, {0, 0}}, /* nothing changes places (reference: no entry) */
};

void cblas_dsyr2k(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n, int k,
                  double alpha, const double *a, int lda, const double *b, int ldb, double beta,
                  double *c, int ldc)
{
    const char *name = cblas_dsyr2k_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dsyr2k_routine, row_major);
    char ul = 'U', tr = 'N';
    if (!row_major && layout != CblasColMajor) {
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    } else if (!compat_cblas_uplo(uplo, &ul)) {
        cblas_xerbla(2, name, "Illegal Uplo setting, %d\n", (int)uplo);
    } else if (!compat_cblas_trans(trans, &tr)) {
        cblas_xerbla(3, name, "Illegal Trans setting, %d\n", (int)trans);
    } else if (row_major) {
        compat_dsyr2k(ul == 'U' ? 'L' : 'U', compat_is_notrans(tr) ? 'T' : 'N', n, k, alpha, a, lda,
                      b, ldb, beta, c, ldc);
    } else {
        compat_dsyr2k(ul, tr, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }
    compat_cblas_leave(previous);
}
