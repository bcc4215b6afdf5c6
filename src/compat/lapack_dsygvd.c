/* lapack_dsygvd.c — dsygvd_ and dsygst_, the Fortran-ABI dsygvd and dsygst: reference's checks
 * (DSYGVD: ITYPE 1 as 1, 2 or 3, JOBZ 2, UPLO 3, N 4, LDA 6, LDB 8, LWORK 11, LIWORK 13; DSYGST:
 * ITYPE 1, UPLO 2, N 3, LDA 5, LDB 7; reported as "DSYGVD", "DSYGST"), DSYGVD's workspace query,
 * then tela_dsygvd or tela_dsygst on the default width. tela_dsygvd takes its workspace from
 * tela's scratch: WORK and IWORK only report sizes. */
#include "compat/compat.h"

void dsygvd_(const int *itype, const char *jobz, const char *uplo, const int *n, double *a,
             const int *lda, double *b, const int *ldb, double *w, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info)
{
    bool vectors;
    const bool query = *lwork == -1 || *liwork == -1;
    const bool jobz_ok = compat_is_jobz(*jobz, &vectors);
    /* DSYEVD's least sizes; the query says them, not DSYEVD's optimal ones (3.11). */
    const compat_eig_sizes sizes = compat_syevd_sizes(vectors, *n);
    *info = 0;
    if (*itype < 1 || *itype > 3)
        *info = -1;
    else if (!jobz_ok)
        *info = -2;
    else if (!compat_is_uplo(*uplo))
        *info = -3;
    else if (*n < 0)
        *info = -4;
    else if (*lda < compat_at_least_one(*n))
        *info = -6;
    else if (*ldb < compat_at_least_one(*n))
        *info = -8;
    else if (!query && compat_work_short(*lwork, sizes.lwork_least))
        *info = -11;
    else if (!query && compat_work_short(*liwork, sizes.liwork_least))
        *info = -13;
    if (*info != 0) {
        compat_xerbla("DSYGVD", -*info);
        return;
    }
    if (!work || !iwork) {
        *info = !work ? -10 : -12;
        return;
    }
    double optimal = sizes.lwork_least;
    if (!query) {
        /* A NULL A -5, B -7 or W -9 (N > 0) writes nothing. Past B's Cholesky factorization
         * (INFO <= N) reference raises WORK(1) to what its DSYEVD said, its optimal size. */
        *info = tela_dsygvd(tela_par_auto(), *itype, *jobz, *uplo, *n, a, *lda, b, *ldb, w);
        if (*info < 0)
            return;
        if (*info <= *n)
            optimal = sizes.lwork_optimal; /* never below the least */
    }
    work[0] = optimal;
    iwork[0] = compat_iwork_size(sizes.liwork_least);
}

void dsygst_(const int *itype, const char *uplo, const int *n, double *a, const int *lda,
             const double *b, const int *ldb, int *info)
{
    *info = 0;
    if (*itype < 1 || *itype > 3)
        *info = -1;
    else if (!compat_is_uplo(*uplo))
        *info = -2;
    else if (*n < 0)
        *info = -3;
    else if (*lda < compat_at_least_one(*n))
        *info = -5;
    else if (*ldb < compat_at_least_one(*n))
        *info = -7;
    if (*info != 0) {
        compat_xerbla("DSYGST", -*info);
        return;
    }
    /* N = 0 returns 0; a NULL A -4 or B -6 writes nothing. */
    *info = tela_dsygst(tela_par_auto(), *itype, *uplo, *n, a, *lda, b, *ldb);
}
