/* syevd.c — tela_dsyevd: LAPACK's dsyevd. A scaled into the safe range, reduced to tridiagonal
 * form (tela_dsytrd), the tridiagonal solved by divide and conquer (vectors) or the QL/QR
 * iteration (values), and the vectors taken back through Q (tela_dormtr) into A. */
#include "eig/eig.h"
#include "par/engine.h"

#include <string.h>

int tela_dsyevd(tela_par par, char jobz, char uplo, tela_int n, double *a, tela_int lda, double *w)
{
    bool vectors, lower;
    const int args = eig_driver_args(jobz, uplo, n, a, lda, w, &vectors, &lower);
    if (args != EIG_ARGS_GO)
        return args < 0 ? args : 0;
    /* e and tau, then the tridiagonal's vectors, held through the routines called. */
    const size_t nn = (size_t)n * (size_t)n;
    bool owned;
    const size_t len = vectors ? 2 * (size_t)n + nn : (size_t)n + eig_reduce_values_len(lower, n);
    double *e = eig_driver_scratch(par, len, &owned);
    if (!e)
        return eig_no_memory("tela_dsyevd");
    double *tau = e + n, *z = tau + n;
    const double sigma = eig_scale_triangle(lower, n, a, lda);
    tela_int info;
    if (!vectors) {
        eig_reduce_values(par, lower, n, a, lda, w, e, tau);
        info = eig_sterf(n, w, e);
    } else {
        eig_sytrd(par, lower, n, a, lda, w, e, tau);
        info = tela_dstedc(par, 'I', n, w, e, z, n);
        if (info == 0 && !eig_ormtr(par, true, lower, false, n, n, a, lda, tau, z, n))
            info = eig_no_memory("tela_dsyevd");
        if (info == 0)
            for (tela_int j = 0; j < n; j++)
                memcpy(a + (size_t)j * (size_t)lda, z + (size_t)j * (size_t)n,
                       (size_t)n * sizeof *z);
    }
    if (sigma != 1.0) { /* as dsyevd: a multiply by 1 / sigma, not a division */
        const double inverse = 1.0 / sigma;
        for (tela_int j = 0; j < n; j++)
            w[j] *= inverse;
    }
    par_scratch_release(e, owned);
    return (int)info;
}
