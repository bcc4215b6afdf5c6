/* stein.c — tela_dstein: LAPACK's dstein on tela's inverse iteration (invit.c). LAPACK's checks
 * in its order, the blocks and splits turned 0-based into par's scratch, ifail back 1-based.
 * Reference dstein's vectors lose orthogonality on tight clusters where this one keeps it
 * (docs/eig.md, "dstein"). */
#include "eig/eig.h"
#include "par/engine.h"

/* LAPACK's checks (n 1, m 4, ldz 9, then per value iblock 6 before w 5), tela's on what
 * LAPACK reads without checking (NULL arrays; blocks numbered 1 .. isplit's count, isplit's
 * ends increasing up to n: 6 and 7). */
static int stein_args(tela_int n, const double *d, const double *e, tela_int m, const double *w,
                      const tela_int *iblock, const tela_int *isplit, const double *z, tela_int ldz)
{
    if (n < 0)
        return -1;
    if (m < 0 || m > n)
        return -4;
    if (ldz < (n > 1 ? n : 1))
        return -9;
    if (m == 0)
        return 0;
    if (!iblock)
        return -6;
    if (!w)
        return -5;
    for (tela_int j = 1; j < m; j++) {
        if (iblock[j] < iblock[j - 1])
            return -6;
        if (iblock[j] == iblock[j - 1] && w[j] < w[j - 1])
            return -5;
    }
    if (iblock[0] < 1 || iblock[m - 1] > n)
        return -6;
    if (!isplit)
        return -7;
    for (tela_int b = 0; b < iblock[m - 1]; b++)
        if (isplit[b] < (b > 0 ? isplit[b - 1] + 1 : 1) || isplit[b] > n)
            return -7;
    if (!d)
        return -2;
    if (!e && n > 1)
        return -3;
    if (!z)
        return -8;
    return 0;
}

int tela_dstein(tela_par par, tela_int n, const double *d, const double *e, tela_int m,
                const double *w, const tela_int *iblock, const tela_int *isplit, double *z,
                tela_int ldz, tela_int *ifail)
{
    const int bad = stein_args(n, d, e, m, w, iblock, isplit, z, ldz);
    if (bad != 0 || m == 0)
        return bad;
    const tela_int blocks = iblock[m - 1];
    const size_t len = eig_stein_len(par, n, m), ilen = eig_stein_ilen(par, n, m);
    bool owned;
    double *work = eig_scratch(par, len + eig_ints(ilen + 3 * (size_t)m + (size_t)blocks), &owned);
    if (!work)
        return eig_no_memory("tela_dstein");
    tela_int *iwork = (tela_int *)(void *)(work + len);
    tela_int *block = iwork + ilen, *column = block + m, *failed = column + m;
    tela_int *split = failed + m;
    for (tela_int j = 0; j < m; j++) {
        block[j] = iblock[j] - 1;
        column[j] = j;
    }
    for (tela_int b = 0; b < blocks; b++)
        split[b] = isplit[b];
    const tela_int count =
        eig_stein(par, n, d, e, m, w, block, split, column, z, ldz, work, iwork, failed);
    for (tela_int j = 0; ifail && j < m; j++)
        ifail[j] = j < count ? failed[j] + 1 : 0;
    par_scratch_release(work, owned);
    return (int)count;
}
