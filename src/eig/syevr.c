/* syevr.c — tela_dsyevr: LAPACK's dsyevr. A scaled into dsyevr's safe range and reduced to
 * tridiagonal form; every eigenvalue by the QL/QR iteration (values) or divide and conquer
 * (vectors), a subset by bisection and inverse iteration; vectors taken back through Q. */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* isuppz[2j], isuppz[2j + 1]: the first and last nonzero row (1-based) of column j; 0, 0 for a
 * zero column (which no computed vector is). */
static void supports(tela_int n, tela_int m, const double *z, tela_int ldz, tela_int *isuppz)
{
    for (tela_int j = 0; j < m; j++) {
        const double *col = z + (size_t)j * (size_t)ldz;
        tela_int first = 0, last = n - 1;
        while (first < n && col[first] == 0.0)
            first++;
        while (last > first && col[last] == 0.0)
            last--;
        isuppz[2 * j] = first < n ? first + 1 : 0;
        isuppz[2 * j + 1] = first < n ? last + 1 : 0;
    }
}

/* A holds a NaN or an infinity: no eigenvalue can be trusted, so every value asked for by
 * index (all of them for 'A') and its vector come out NaN, none for a value range, and the
 * driver reports info = 1 (dsyevr's "internal error") instead of leaving them out silently. */
static int not_finite(bool vectors, eig_range range, tela_int n, tela_int il, tela_int iu,
                      tela_int *m, double *w, double *z, tela_int ldz, tela_int *isuppz)
{
    *m = range == EIG_RANGE_ALL ? n : range == EIG_RANGE_INDICES ? iu - il + 1 : 0;
    for (tela_int j = 0; j < *m; j++) {
        w[j] = NAN;
        if (!vectors)
            continue;
        for (tela_int i = 0; i < n; i++)
            z[i + (size_t)j * (size_t)ldz] = NAN;
        isuppz[2 * j] = 1;
        isuppz[2 * j + 1] = n;
    }
    return 1;
}

/* subset's workspace: bisection's, the values in block order with their blocks, the blocks'
 * ends, the sort's two index arrays and the columns, then inverse iteration's. */
static size_t subset_len(tela_par par, tela_int n)
{
    const size_t nn = (size_t)n;
    return eig_stebz_len(n) + eig_ints(eig_stebz_ilen(n)) + nn + eig_ints(6 * nn) +
           eig_stein_len(par, n, n) + eig_ints(eig_stein_ilen(par, n, n));
}

/* The eigenvalues in range of the tridiagonal (d, e) by bisection, ascending in w, and with
 * vectors their tridiagonal eigenvectors by inverse iteration in z's first *m columns. work
 * holds subset_len(par, n) doubles. Returns how many vectors did not converge if any did,
 * else bisection's info. */
static tela_int subset(tela_par par, bool vectors, eig_range range, tela_int n, double vl,
                       double vu, tela_int il, tela_int iu, double abstol, const double *d,
                       const double *e, tela_int *m, double *w, double *z, tela_int ldz,
                       double *work)
{
    const size_t nn = (size_t)n;
    double *bwork = work;
    tela_int *biwork = (tela_int *)(void *)(bwork + eig_stebz_len(n));
    double *values = (double *)(void *)biwork + eig_ints(eig_stebz_ilen(n));
    tela_int *block = (tela_int *)(void *)(values + nn), *split = block + nn, *order = split + nn,
             *tmp = order + nn, *column = tmp + nn;
    double *swork = (double *)(void *)block + eig_ints(6 * nn);
    tela_int *siwork = (tela_int *)(void *)(swork + eig_stein_len(par, n, n));

    tela_int found, nsplit;
    tela_int info = eig_stebz(par, range, n, vl, vu, il, iu, abstol, d, e, &found, &nsplit, values,
                              block, split, bwork, biwork);
    /* Bisection lists the values block by block; the output is ascending (ties keep the
     * block order), each vector written straight to its value's column. */
    eig_sort_order(found, values, order, tmp);
    for (tela_int k = 0; k < found; k++) {
        w[k] = values[order[k]];
        column[order[k]] = k;
    }
    if (vectors && found > 0) {
        const tela_int failed = eig_stein(par, n, d, e, found, values, block, split, column, z, ldz,
                                          swork, siwork, NULL);
        if (failed > 0)
            info = failed; /* dsyevr's info from dstein */
    }
    *m = found;
    return info;
}

/* Where the outputs go beyond LAPACK's (its contract otherwise, checks in 3.11's order, then
 * NULLs that would be used as -(their position)):
 * - isuppz is set for every jobz 'V' result (LAPACK only for range 'A' and the full 'I'): the
 *   first and last nonzero row of each returned column, 1-based; so it must not be NULL then.
 * - A NaN vl or vu with range 'V' is argument 8's error (LAPACK's check lets it through).
 * - A holding a NaN or an infinity gives info = 1, with NaN values (and vectors) for the
 *   eigenvalues asked by index, none for a value range.
 * - info > 0 from bisection (dstebz's 1, 2 or 4) is kept when inverse iteration converges
 *   (dsyevr overwrites it with dstein's 0), and every value found is scaled back (dsyevr scales
 *   only info - 1 of them when dstein fails). */
int tela_dsyevr(tela_par par, char jobz, char range, char uplo, tela_int n, double *a, tela_int lda,
                double vl, double vu, tela_int il, tela_int iu, double abstol, tela_int *m,
                double *w, double *z, tela_int ldz, tela_int *isuppz)
{
    bool vectors, lower;
    eig_range which;
    if (!eig_jobz(jobz, &vectors))
        return -1;
    if (!eig_range_flag(range, &which))
        return -2;
    if (!eig_uplo(uplo, &lower))
        return -3;
    if (n < 0)
        return -4;
    if (lda < (n > 1 ? n : 1))
        return -6;
    if (which == EIG_RANGE_VALUES) {
        if (n > 0 && !(vl < vu)) /* a NaN bound too: LAPACK would let it through */
            return -8;
    } else if (which == EIG_RANGE_INDICES) {
        if (il < 1 || il > (n > 1 ? n : 1))
            return -9;
        if (iu < (n < il ? n : il) || iu > n)
            return -10;
    }
    if (ldz < 1 || (vectors && ldz < n))
        return -15;
    if (n > 0 && !a)
        return -5;
    if (!m)
        return -12;
    if (n == 0) {
        *m = 0;
        return 0;
    }
    if (!w)
        return -13;
    if (vectors && !z)
        return -14;
    if (vectors && !isuppz)
        return -16;

    if (n == 1) {
        *m = 0;
        if (which != EIG_RANGE_VALUES || (vl < a[0] && vu >= a[0])) {
            *m = 1;
            w[0] = a[0];
        }
        if (vectors) {
            z[0] = 1.0;
            isuppz[0] = isuppz[1] = 1;
        }
        return 0;
    }

    /* dsyevr's bounds (tighter above than dsyevd's: 1 / safmin^(1/4), so squares of the
     * tridiagonal's entries in the Sturm counts cannot overflow). */
    const double smlnum = DBL_MIN / DBL_EPSILON, bignum = 1.0 / smlnum;
    const double rmin = sqrt(smlnum), rmax = fmin(sqrt(bignum), 1.0 / sqrt(sqrt(DBL_MIN)));
    const double anrm = eig_max_abs(lower, n, a, lda);
    if (!(anrm <= DBL_MAX))
        return not_finite(vectors, which, n, il, iu, m, w, z, ldz, isuppz);
    double sigma = 1.0, abstll = abstol, vll = vl, vuu = vu;
    if (anrm > 0.0 && anrm < rmin)
        sigma = rmin / anrm;
    else if (anrm > rmax)
        sigma = rmax / anrm;
    if (sigma != 1.0) {
        for (tela_int j = 0; j < n; j++) {
            double *col = a + (size_t)j * (size_t)lda;
            const tela_int from = lower ? j : 0, to = lower ? n : j + 1;
            for (tela_int i = from; i < to; i++)
                col[i] *= sigma;
        }
        if (abstol > 0.0)
            abstll = abstol * sigma;
        if (which == EIG_RANGE_VALUES) {
            vll = vl * sigma;
            vuu = vu * sigma;
        }
    }

    /* tau, d, e, and e's copy the QL/QR iteration or divide and conquer destroys, then the
     * subset's workspace: held through sytrd, dstedc and ormtr, which take their own. */
    const size_t nn = (size_t)n;
    bool owned;
    const size_t reduce = vectors ? 0 : eig_reduce_values_len(lower, n);
    const size_t len = 4 * nn + (subset_len(par, n) > reduce ? subset_len(par, n) : reduce);
    double *tau = eig_driver_scratch(par, len, &owned);
    if (!tau)
        return eig_no_memory("tela_dsyevr");
    double *d = tau + nn, *e = d + nn, *ee = e + nn, *work = ee + nn;
    if (vectors)
        eig_sytrd(par, lower, n, a, lda, d, e, tau);
    else /* work is free until the subset's search */
        eig_reduce_values(par, lower, n, a, lda, d, e, work);

    tela_int info = 1;
    if (which == EIG_RANGE_ALL || (which == EIG_RANGE_INDICES && il == 1 && iu == n)) {
        memcpy(w, d, nn * sizeof *w);
        memcpy(ee, e, (nn - 1) * sizeof *e);
        info = vectors ? tela_dstedc(par, 'I', n, w, ee, z, ldz) : eig_sterf(n, w, ee);
        if (info == 0)
            *m = n;
        /* else as dsyevr: bisection and inverse iteration try again */
    }
    if (info != 0)
        info = subset(par, vectors, which, n, vll, vuu, il, iu, abstll, d, e, m, w, z, ldz, work);
    if (vectors && *m > 0 && !eig_ormtr(par, true, lower, false, n, *m, a, lda, tau, z, ldz)) {
        par_scratch_release(tau, owned);
        return eig_no_memory("tela_dsyevr");
    }
    if (sigma != 1.0) { /* as dsyevr: a multiply by 1 / sigma */
        const double inverse = 1.0 / sigma;
        for (tela_int j = 0; j < *m; j++)
            w[j] *= inverse;
    }
    if (vectors)
        supports(n, *m, z, ldz, isuppz);
    par_scratch_release(tau, owned);
    return (int)info;
}
