/* stedc.c — tela_dstedc, LAPACK's contract over eig_stedc: compz 'N' gives the values alone
 * (eig_sterf), 'I' the tridiagonal's vectors, 'V' Z times them (the vectors into scratch, then
 * one tela_dgemm). All workspace is one scratch block taken here. */
#include "eig/eig.h"
#include "par/engine.h"

#include <math.h>
#include <string.h>

int tela_dstedc(tela_par par, char compz, tela_int n, double *d, double *e, double *z, tela_int ldz)
{
    bool identity;
    const int args = eig_tridiagonal_args(compz, n, d, e, z, ldz, &identity);
    if (args < 0 || args == EIG_ARGS_DONE)
        return args < 0 ? args : 0;
    if (args == EIG_ARGS_VALUES)
        return (int)eig_sterf(n, d, e);
    /* Up to the leaf order QL/QR takes Z as it is, as dstedc does. */
    const bool multiply = !identity && n > EIG_DC_LEAF;
    const size_t len = eig_stedc_len(n), ilen = eig_stedc_ilen(n);
    const size_t q_len = multiply ? (size_t)n * (size_t)n : 0;
    bool owned;
    double *work = eig_scratch(par, q_len + len + ilen, &owned);
    if (!work)
        return eig_no_memory("tela_dstedc");
    /* tela_int and double have the same size and alignment on the targets tela builds for. */
    _Static_assert(sizeof(tela_int) == sizeof(double), "iwork carved from doubles");
    tela_int *iwork = (tela_int *)(void *)(work + q_len + len);
    tela_int info;
    if (identity) {
        info = eig_stedc(par, n, d, e, z, ldz, work, iwork);
    } else if (!multiply) {
        info = eig_steqr(false, n, d, e, z, ldz, work);
    } else {
        double *q = work, *product = work + q_len;
        info = eig_stedc(par, n, d, e, q, n, product, iwork);
        if (info == 0) {
            tela_dgemm(par, 'N', 'N', n, n, n, 1.0, z, ldz, q, n, 0.0, product, n);
            for (tela_int j = 0; j < n; j++)
                memcpy(z + j * ldz, product + j * n, sizeof(double) * (size_t)n);
        } else {
            /* No vectors to multiply by: none are given back as if valid. */
            for (tela_int j = 0; j < n; j++)
                for (tela_int i = 0; i < n; i++)
                    z[i + j * ldz] = NAN;
        }
    }
    par_scratch_release(work, owned);
    return (int)info;
}
