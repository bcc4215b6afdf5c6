/* support.c — what the eigen routines share besides their kernels: the flags they accept, the
 * scratch block a call works in, and LAPACK's scaling of a matrix whose norm lies outside the
 * range where the reduction neither overflows nor loses its small entries. */
#include "eig/eig.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>

/* Every thread keeps what the drivers and the routines under them need up to this order,
 * declared when the library is loaded: a call nested in a region body (where nothing is
 * allocated) up to it finds its workspace and computes the bits it computes outside. */
#define EIG_KEPT_ORDER 128

__attribute__((constructor)) static void declare_scratch(void)
{
    const size_t n = EIG_KEPT_ORDER;
    par_scratch_declare(PAR_SCRATCH_DRIVER, (n * n + 32 * n) * sizeof(double));
    par_scratch_declare(PAR_SCRATCH_ROUTINE, (2 * n * n + 64 * n) * sizeof(double));
}

double *eig_scratch(tela_par par, size_t doubles, bool *owned)
{
    *owned = false;
    return par_scratch_region(par, PAR_SCRATCH_ROUTINE, (doubles ? doubles : 1) * sizeof(double),
                              owned);
}

double *eig_driver_scratch(tela_par par, size_t doubles, bool *owned)
{
    *owned = false;
    return par_scratch_region(par, PAR_SCRATCH_DRIVER, (doubles ? doubles : 1) * sizeof(double),
                              owned);
}

int eig_no_memory(const char *where)
{
    par_error(TELA_ENOMEM, where, "no workspace: out of memory, or nested in a region");
    return TELA_EIG_NO_MEMORY;
}

int eig_tridiagonal_args(char compz, tela_int n, double *d, double *e, double *z, tela_int ldz,
                         bool *identity)
{
    const bool none = compz == 'N' || compz == 'n';
    *identity = compz == 'I' || compz == 'i';
    if (!none && !*identity && compz != 'V' && compz != 'v')
        return -1;
    if (n < 0)
        return -2;
    if (ldz < 1 || (!none && ldz < (n > 1 ? n : 1)))
        return -6;
    if (n == 0)
        return EIG_ARGS_DONE;
    if (!d)
        return -3;
    if (n > 1 && !e)
        return -4;
    if (none)
        return EIG_ARGS_VALUES;
    if (!z)
        return -5;
    if (n == 1) {
        if (*identity)
            z[0] = 1.0;
        return EIG_ARGS_DONE;
    }
    return EIG_ARGS_GO;
}

int eig_driver_args(char jobz, char uplo, tela_int n, double *a, tela_int lda, double *w,
                    bool *vectors, bool *lower)
{
    if (!eig_jobz(jobz, vectors))
        return -1;
    if (!eig_uplo(uplo, lower))
        return -2;
    if (n < 0)
        return -3;
    if (lda < (n > 1 ? n : 1))
        return -5;
    if (n == 0)
        return EIG_ARGS_DONE;
    if (!a)
        return -4;
    if (!w)
        return -6;
    if (n == 1) {
        w[0] = a[0];
        if (*vectors)
            a[0] = 1.0;
        return EIG_ARGS_DONE;
    }
    return EIG_ARGS_GO;
}

bool eig_uplo(char c, bool *lower)
{
    *lower = c == 'L' || c == 'l';
    return *lower || c == 'U' || c == 'u';
}

bool eig_jobz(char c, bool *vectors)
{
    *vectors = c == 'V' || c == 'v';
    return *vectors || c == 'N' || c == 'n';
}

double eig_max_abs(bool lower, tela_int n, const double *a, tela_int lda)
{
    double norm = 0.0;
    for (tela_int j = 0; j < n; j++) {
        const double *col = a + (size_t)j * (size_t)lda;
        const tela_int from = lower ? j : 0, to = lower ? n : j + 1;
        for (tela_int i = from; i < to; i++) {
            const double x = fabs(col[i]);
            if (x > norm || isnan(x))
                norm = x; /* a NaN stays: no entry compares above it */
            if (isnan(norm))
                return norm;
        }
    }
    return norm;
}

double eig_scale_triangle(bool lower, tela_int n, double *a, tela_int lda)
{
    /* dsyevd's bounds: sqrt of the smallest safe number over eps, and of its inverse. */
    const double smlnum = DBL_MIN / DBL_EPSILON, bignum = 1.0 / smlnum; /* eps = 'Precision' */
    const double rmin = sqrt(smlnum), rmax = sqrt(bignum);
    const double norm = eig_max_abs(lower, n, a, lda);
    double sigma = 1.0;
    if (norm > 0.0 && norm < rmin)
        sigma = rmin / norm;
    else if (norm > rmax)
        sigma = rmax / norm;
    if (sigma == 1.0)
        return sigma;
    for (tela_int j = 0; j < n; j++) {
        double *col = a + (size_t)j * (size_t)lda;
        const tela_int from = lower ? j : 0, to = lower ? n : j + 1;
        for (tela_int i = from; i < to; i++)
            col[i] *= sigma;
    }
    return sigma;
}
