/* lapack_dstein.c — dstein_, the Fortran-ABI dstein: reference DSTEIN's checks (N 1, M 4, LDZ 9,
 * then per value IBLOCK 6 before W 5, reported as "DSTEIN"), then tela_dstein on the default
 * width, which adds its own on what reference reads unchecked (blocks and splits in range: 6
 * and 7, also reported; NULL arrays: their numbers, not reported). WORK and IWORK are not used:
 * tela's inverse iteration takes its workspace from tela's scratch.
 *
 * IBLOCK, ISPLIT and IFAIL are LP64 ints, tela_int in tela_dstein: they go through one tela_int
 * buffer (compat.h's pivot buffer) of 2 M + (IBLOCK(M)'s block count) entries. */
#include "compat/compat.h"

void dstein_(const int *n, const double *d, const double *e, const int *m, const double *w,
             const int *iblock, const int *isplit, double *z, const int *ldz, const double *work,
             const int *iwork, int *ifail, int *info)
{
    *info = 0;
    if (*n < 0)
        *info = -1;
    else if (*m < 0 || *m > *n)
        *info = -4;
    else if (*ldz < compat_at_least_one(*n))
        *info = -9;
    if (*info != 0) {
        compat_xerbla("DSTEIN", -*info);
        return;
    }
    if (*m == 0)
        return;
    if (!iblock || !work || !iwork) {
        *info = !iblock ? -6 : !work ? -10 : -11;
        return;
    }
    /* A last block outside 1 .. N is tela_dstein's -6: no ISPLIT is read for it. */
    const int last = iblock[*m - 1], blocks = last >= 1 && last <= *n ? last : 0;
    if (blocks > 0 && !isplit) {
        *info = -7;
        return;
    }
    const size_t count = 2 * (size_t)*m + (size_t)blocks;
    compat_pivots buffer;
    tela_int *ints = compat_pivots_get(&buffer, count);
    if (!ints) {
        /* No room inside a region (beyond COMPAT_PIVOTS_KEPT): IBLOCK's number, no report,
         * nothing written. */
        *info = -6;
        return;
    }
    tela_int *blocks_of = ints, *failed = ints + *m, *ends = failed + *m;
    for (int j = 0; j < *m; j++)
        blocks_of[j] = iblock[j];
    for (int b = 0; b < blocks; b++)
        ends[b] = isplit[b];
    *info = tela_dstein(tela_par_auto(), *n, d, e, *m, w, blocks_of, ends, z, *ldz,
                        ifail ? failed : NULL);
    if (*info >= 0) {
        for (int j = 0; ifail && j < *m; j++)
            ifail[j] = (int)failed[j];
    } else if ((*info == -5 && w) || *info == -6 || (*info == -7 && isplit)) {
        /* Out of order or out of range; a NULL D, E, W or Z is not reported. */
        compat_xerbla("DSTEIN", -*info);
    }
    compat_pivots_release(&buffer);
}
