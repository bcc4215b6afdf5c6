/* syev.c — tela_dsyev: LAPACK's dsyev. A scaled into the safe range, reduced to tridiagonal
 * form (tela_dsytrd), then the values by the square-root-free QL/QR (eig_sterf) or, with
 * vectors, Q formed over A (tela_dorgtr) and multiplied by the implicit QL/QR's rotations
 * (eig_steqr). Slower than tela_dsyevd for vectors, but needs no n x n workspace. */
#include "eig/eig.h"
#include "par/engine.h"

int tela_dsyev(tela_par par, char jobz, char uplo, tela_int n, double *a, tela_int lda, double *w)
{
    bool vectors, lower;
    const int args = eig_driver_args(jobz, uplo, n, a, lda, w, &vectors, &lower);
    if (args != EIG_ARGS_GO)
        return args < 0 ? args : 0;
    /* e and tau, held through the routines called, which take scratch of their own. */
    bool owned;
    const size_t len = (size_t)n + (vectors ? (size_t)n : eig_reduce_values_len(lower, n));
    double *e = eig_driver_scratch(par, len, &owned);
    if (!e)
        return eig_no_memory("tela_dsyev");
    double *tau = e + n;
    const double sigma = eig_scale_triangle(lower, n, a, lda);
    int info;
    if (!vectors) {
        eig_reduce_values(par, lower, n, a, lda, w, e, tau);
        info = (int)eig_sterf(n, w, e);
    } else {
        eig_sytrd(par, lower, n, a, lda, w, e, tau);
        info = tela_dorgtr(par, lower ? 'L' : 'U', n, a, lda, tau);
        if (info == 0) {
            const tela_int steqr = eig_steqr_par(par, false, n, w, e, a, lda);
            info = steqr == TELA_EIG_NO_MEMORY ? eig_no_memory("tela_dsyev") : (int)steqr;
        }
    }
    if (sigma != 1.0 && info >= 0) {
        /* As dsyev: the values up to the first not converged, multiplied by 1 / sigma. */
        const double inverse = 1.0 / sigma;
        const tela_int count = info == 0 ? n : info - 1;
        for (tela_int j = 0; j < count; j++)
            w[j] *= inverse;
    }
    par_scratch_release(e, owned);
    return info;
}
