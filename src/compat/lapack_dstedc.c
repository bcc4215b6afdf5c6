/* lapack_dstedc.c — the Fortran-ABI tridiagonal solvers: dstedc_ (reference DSTEDC's checks:
 * COMPZ 1, N 2, LDZ 6, LWORK 8, LIWORK 10, reported as "DSTEDC"; its workspace query), dsteqr_
 * (COMPZ 1, N 2, LDZ 6, "DSTEQR") and dsterf_ (N 1, "DSTERF"), then tela_dstedc, tela_dsteqr or
 * tela_dsterf on the default width. Those take their workspace from tela's scratch: WORK and
 * IWORK only report sizes (dsteqr_'s WORK is not touched at all). */
#include "compat/compat.h"

/* COMPZ: 'N', 'I' or 'V' (either case); -1 for anything else, else 0, 1 ('V'), 2 ('I') as
 * reference's ICOMPZ. */
static int compz_kind(char compz)
{
    switch (compz) {
    case 'N':
    case 'n':
        return 0;
    case 'V':
    case 'v':
        return 1;
    case 'I':
    case 'i':
        return 2;
    default:
        return -1;
    }
}

/* Reference's first checks of both: COMPZ 1, N 2, LDZ 6 (at least 1, and N with vectors). */
static int tridiagonal_info(int kind, int n, int ldz)
{
    if (kind < 0)
        return -1;
    if (n < 0)
        return -2;
    if (ldz < 1 || (kind > 0 && ldz < compat_at_least_one(n)))
        return -6;
    return 0;
}

/* 3.11's DSTEDC sizes (the least ones are also the query's): with vectors beyond SMLSIZ, the
 * merges' workspace over LGN = ceil(log2 N) levels; below it, DSTEQR's. */
static compat_eig_sizes stedc_sizes(int kind, int n)
{
    if (n <= 1 || kind == 0)
        return (compat_eig_sizes){1.0, 1.0, 1.0};
    const double order = n;
    if (n <= COMPAT_EIG_SMALL)
        return (compat_eig_sizes){2.0 * (order - 1.0), 2.0 * (order - 1.0), 1.0};
    int levels = 0;
    while (levels < 31 && (1L << levels) < n)
        levels++;
    double least, ileast;
    if (kind == 1) { /* 'V': Z = Q T's vectors, kept beside */
        least = 1.0 + 3.0 * order + 2.0 * order * levels + 4.0 * order * order;
        ileast = 6.0 + 6.0 * order + 5.0 * order * levels;
    } else {
        least = 1.0 + 4.0 * order + order * order;
        ileast = 3.0 + 5.0 * order;
    }
    return (compat_eig_sizes){least, least, ileast};
}

void dstedc_(const char *compz, const int *n, double *d, double *e, double *z, const int *ldz,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info)
{
    const int kind = compz_kind(*compz);
    const bool query = *lwork == -1 || *liwork == -1;
    const compat_eig_sizes sizes = stedc_sizes(kind, *n);
    *info = tridiagonal_info(kind, *n, *ldz);
    if (*info == 0 && !query && compat_work_short(*lwork, sizes.lwork_least))
        *info = -8;
    else if (*info == 0 && !query && compat_work_short(*liwork, sizes.liwork_least))
        *info = -10;
    if (*info != 0) {
        compat_xerbla("DSTEDC", -*info);
        return;
    }
    if (!work || !iwork) {
        *info = !work ? -7 : -9;
        return;
    }
    if (!query) {
        /* A NULL D -3, E -4 (N > 1) or Z -5 (vectors) writes nothing; INFO > 0 (a merge did not
         * converge) leaves the sizes, as reference does. */
        *info = tela_dstedc(tela_par_auto(), *compz, *n, d, e, z, *ldz);
        if (*info < 0)
            return;
    }
    work[0] = sizes.lwork_optimal;
    iwork[0] = compat_iwork_size(sizes.liwork_least);
}

void dsteqr_(const char *compz, const int *n, double *d, double *e, double *z, const int *ldz,
             double *work, int *info)
{
    (void)work; /* reference's 2 N - 2 rotations: tela keeps them in its scratch */
    *info = tridiagonal_info(compz_kind(*compz), *n, *ldz);
    if (*info != 0) {
        compat_xerbla("DSTEQR", -*info);
        return;
    }
    *info = tela_dsteqr(tela_par_auto(), *compz, *n, d, e, z, *ldz);
}

void dsterf_(const int *n, double *d, double *e, int *info)
{
    *info = *n < 0 ? -1 : 0;
    if (*info != 0) {
        compat_xerbla("DSTERF", -*info);
        return;
    }
    *info = tela_dsterf(tela_par_auto(), *n, d, e);
}
