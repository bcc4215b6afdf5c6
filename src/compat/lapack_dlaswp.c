/* lapack_dlaswp.c — dlaswp_, the Fortran-ABI dlaswp: row interchanges with int pivots.
 *
 * Reference DLASWP checks nothing and reports nothing, so neither does this: compat_laswp
 * (pivots.c) converts the pivots in stack-sized chunks for tela_dlaswp on the default width. */
#include "compat/compat.h"

void dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2, const int *ipiv,
             const int *incx)
{
    compat_laswp(tela_par_auto(), *n, a, *lda, *k1, *k2, ipiv, *incx);
}
