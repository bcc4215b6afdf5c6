/* lapack_dsyevd.c — dsyevd_, the Fortran-ABI dsyevd: reference DSYEVD's checks (JOBZ 1, UPLO 2,
 * N 3, LDA 5, LWORK 8, LIWORK 10, reported as "DSYEVD"), its workspace query, then tela_dsyevd on
 * the default width; and the size helpers the eigen symbols share. tela_dsyevd takes its
 * workspace from tela's scratch: WORK and IWORK only report sizes. */
#include "compat/compat.h"

#include <limits.h>

bool compat_is_jobz(char c, bool *vectors)
{
    *vectors = c == 'V' || c == 'v';
    return *vectors || c == 'N' || c == 'n';
}

bool compat_work_short(int lwork, double least)
{
    return lwork < (least < INT_MAX ? least : (double)INT_MAX);
}

int compat_iwork_size(double size)
{
    return size < INT_MAX ? (int)size : INT_MAX;
}

compat_eig_sizes compat_syevd_sizes(bool vectors, int n)
{
    if (n <= 1)
        return (compat_eig_sizes){1.0, 1.0, 1.0};
    const double order = n;
    /* Vectors: T's eigenvectors (N^2) and the back-transformation's copy (N^2) beside DSTEDC's
     * own; values: E and TAU. The optimal one is DSYTRD's blocked need. */
    const double least = vectors ? 1.0 + 6.0 * order + 2.0 * order * order : 2.0 * order + 1.0;
    const double blocked = (2.0 + COMPAT_EIG_BLOCK) * order;
    return (compat_eig_sizes){least, least > blocked ? least : blocked,
                              vectors ? 3.0 + 5.0 * order : 1.0};
}

void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info)
{
    bool vectors;
    const bool query = *lwork == -1 || *liwork == -1;
    const bool jobz_ok = compat_is_jobz(*jobz, &vectors);
    const compat_eig_sizes sizes = compat_syevd_sizes(vectors, *n);
    *info = 0;
    if (!jobz_ok)
        *info = -1;
    else if (!compat_is_uplo(*uplo))
        *info = -2;
    else if (*n < 0)
        *info = -3;
    else if (*lda < compat_at_least_one(*n))
        *info = -5;
    else if (!query && compat_work_short(*lwork, sizes.lwork_least))
        *info = -8;
    else if (!query && compat_work_short(*liwork, sizes.liwork_least))
        *info = -10;
    if (*info != 0) {
        compat_xerbla("DSYEVD", -*info);
        return;
    }
    if (!work || !iwork) {
        *info = !work ? -7 : -9;
        return;
    }
    if (!query) {
        /* A NULL A -4 or W -6 (N > 0), writing nothing; INFO > 0 (DSTEDC did not converge)
         * leaves the sizes as reference does, and so does N <= 1. */
        *info = tela_dsyevd(tela_par_auto(), *jobz, *uplo, *n, a, *lda, w);
        if (*info < 0)
            return;
    }
    work[0] = sizes.lwork_optimal;
    iwork[0] = compat_iwork_size(sizes.liwork_least);
}
