/* lapack_dsyevr.c — dsyevr_, the Fortran-ABI dsyevr: reference DSYEVR's checks (JOBZ 1, RANGE 2,
 * UPLO 3, N 4, LDA 6, VU 8 above VL, IL 9, IU 10, LDZ 15, LWORK 18, LIWORK 20, reported as
 * "DSYEVR"), its workspace query, then tela_dsyevr on the default width. tela_dsyevr takes its
 * workspace from tela's scratch: WORK and IWORK only report sizes.
 *
 * M and ISUPPZ are LP64 ints here, tela_int there: M through a local, ISUPPZ (with vectors: tela
 * computes no supports without) through a tela_int buffer (on the stack or par's scratch,
 * compat.h's pivot buffer) of 2 MAX(1, N) entries, as many as any M allows. The buffer starts
 * filled with a value no support index takes, so exactly the entries tela wrote are copied back,
 * the first 2 MAX(1, M) at most. (tela sets the supports of every set of vectors; reference only
 * for all of them, leaving ISUPPZ alone for a subset.) */
#include "compat/compat.h"

#include <stdint.h>

/* No support index is negative. */
#define UNWRITTEN PTRDIFF_MIN

static bool is_range(char range)
{
    return range == 'A' || range == 'a' || range == 'V' || range == 'v' || range == 'I' ||
           range == 'i';
}

void dsyevr_(const char *jobz, const char *range, const char *uplo, const int *n, double *a,
             const int *lda, const double *vl, const double *vu, const int *il, const int *iu,
             const double *abstol, int *m, double *w, double *z, const int *ldz, int *isuppz,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info)
{
    bool vectors;
    const bool query = *lwork == -1 || *liwork == -1;
    const bool jobz_ok = compat_is_jobz(*jobz, &vectors);
    const bool values = *range == 'V' || *range == 'v', indices = *range == 'I' || *range == 'i';
    const double order = *n;
    /* MAX(1, 26 N) and MAX(1, 10 N): DSTEMR's and DSTEBZ's workspace beside T's copies. */
    const double least = *n > 0 ? 26.0 * order : 1.0, ileast = *n > 0 ? 10.0 * order : 1.0;
    *info = 0;
    if (!jobz_ok)
        *info = -1;
    else if (!is_range(*range))
        *info = -2;
    else if (!compat_is_uplo(*uplo))
        *info = -3;
    else if (*n < 0)
        *info = -4;
    else if (*lda < compat_at_least_one(*n))
        *info = -6;
    else if (values && *n > 0 && !(*vl < *vu))
        *info = -8; /* a NaN bound too: reference lets it through, tela_dsyevr refuses it */
    else if (indices && (*il < 1 || *il > compat_at_least_one(*n)))
        *info = -9;
    else if (indices && (*iu < (*n < *il ? *n : *il) || *iu > *n))
        *info = -10;
    else if (*ldz < 1 || (vectors && *ldz < *n))
        *info = -15;
    else if (!query && compat_work_short(*lwork, least))
        *info = -18;
    else if (!query && compat_work_short(*liwork, ileast))
        *info = -20;
    if (*info != 0) {
        compat_xerbla("DSYEVR", -*info);
        return;
    }
    /* Reference's MAX((NB + 1) N, LWMIN), NB the larger of DSYTRD's and DORMTR's block sizes. */
    const double blocked = (COMPAT_EIG_BLOCK + 1.0) * order;
    const double optimal = blocked > least ? blocked : least;
    if (!work || !iwork || !m) {
        *info = !work ? -17 : !iwork ? -19 : -12;
        return;
    }
    if (query) {
        work[0] = optimal;
        iwork[0] = compat_iwork_size(ileast);
        return;
    }
    compat_pivots buffer;
    const size_t count = 2 * (size_t)compat_at_least_one(*n);
    tela_int *supports = vectors && isuppz ? compat_pivots_get(&buffer, count) : NULL;
    if (vectors && isuppz && !supports) {
        /* No room for tela's supports inside a region (N > COMPAT_PIVOTS_KEPT / 2): ISUPPZ's
         * number, no report, nothing written. */
        *info = -16;
        return;
    }
    for (size_t i = 0; supports && i < count; i++)
        supports[i] = UNWRITTEN;
    tela_int found = 0;
    /* VL and VU are read for RANGE 'V' only, IL and IU for 'I' (as reference reads them). A NULL
     * A -5, W -13, Z -14 (vectors) or ISUPPZ -16 (vectors) writes nothing. */
    *info = tela_dsyevr(tela_par_auto(), *jobz, *range, *uplo, *n, a, *lda, values ? *vl : 0.0,
                        values ? *vu : 0.0, indices ? *il : 1, indices ? *iu : 0, *abstol, &found,
                        w, z, *ldz, supports);
    if (*info >= 0) {
        *m = (int)found;
        const size_t written = 2 * (size_t)(found > 1 ? found : 1);
        for (size_t i = 0; supports && i < written && i < count; i++)
            if (supports[i] != UNWRITTEN)
                isuppz[i] = (int)supports[i];
        /* Reference says 1 for N = 0 and 7 for N = 1 (their shortcuts), else the optimal size;
         * IWORK(1) the least LIWORK always. */
        work[0] = *n == 0 ? 1.0 : *n == 1 ? 7.0 : optimal;
        iwork[0] = compat_iwork_size(ileast);
    }
    if (supports)
        compat_pivots_release(&buffer);
}
