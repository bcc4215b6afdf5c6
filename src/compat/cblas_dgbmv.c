/* cblas_dgbmv.c — cblas_dgbmv on tela, reporting errors as reference CBLAS does.
 *
 * Layout and TransA are checked here (cblas_xerbla 1, 2); the rest by the Fortran-ABI core, as
 * reference CBLAS leaves them to the Fortran dgbmv it calls. A row-major band is the column-major
 * band of A^T, whose sub- and super-diagonals trade places: the call flips trans (Trans and
 * ConjTrans become 'N', NoTrans 'T') and swaps M with N and KL with KU, so its errors carry the
 * swapped call's numbers; the routine's table says how to swap them back. */
#include "compat/compat.h"

static const compat_cblas_routine cblas_dgbmv_routine = {
    .name = "cblas_dgbmv",
    /* Row-major: M is reported at N's place (4), N at M's (3); KL at KU's (6), KU at KL's (5),
     * as in reference cblas_xerbla. */
    .row_major_swaps = {{3, 4}, {5, 6}},
};

void cblas_dgbmv(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, int m, int n, int kl, int ku,
                 double alpha, const double *a, int lda, const double *x, int incx, double beta,
                 double *y, int incy)
{
    const char *name = cblas_dgbmv_routine.name;
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(&cblas_dgbmv_routine, row_major);
    char ta = 'N';
    if (!row_major && layout != CblasColMajor)
        cblas_xerbla(1, name, "Illegal layout setting, %d\n", (int)layout);
    else if (!compat_cblas_trans(trans, &ta))
        cblas_xerbla(2, name, "Illegal TransA setting, %d\n", (int)trans);
    else if (row_major)
        compat_dgbmv(compat_is_notrans(ta) ? 'T' : 'N', n, m, ku, kl, alpha, a, lda, x, incx, beta,
                     y, incy);
    else
        compat_dgbmv(ta, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);
    compat_cblas_leave(previous);
}
