/* t_factor.c — the T factor of a block of reflectors already stored (LAPACK's dlarft, forward
 * and by columns), for orgqr and ormqr, which get V and tau but not T: the products V^T V come
 * from one syrk, only the k x k recurrence is scalar. */
#include "level1/level1.h"
#include "qr/qr.h"

void qr_build_t(tela_par par, tela_int m, tela_int k, const double *v, tela_int ldv,
                const double *tau, double *t, tela_int ldt)
{
    /* S = V^T V in T's upper triangle: the part of V below its unit triangle by syrk, the
     * triangle's own part (rows j .. k of columns i < j) by dots. */
    if (m > k) {
        tela_dsyrk(par, 'U', 'T', k, m - k, 1.0, v + k, ldv, 0.0, t, ldt);
    } else {
        for (tela_int j = 0; j < k; j++)
            for (tela_int i = 0; i < j; i++)
                t[i + j * ldt] = 0.0;
    }
    for (tela_int j = 1; j < k; j++) {
        const double *vj = v + j + j * ldv;
        for (tela_int i = 0; i < j; i++) {
            const double *vi = v + j + i * ldv;
            t[i + j * ldt] += vi[0] + level1_dot(k - j - 1, vi + 1, vj + 1);
        }
    }
    qr_t_recurrence(k, tau, t, ldt);
}

void qr_t_recurrence(tela_int k, const double *tau, double *t, tela_int ldt)
{
    for (tela_int j = 0; j < k; j++) {
        double *tj = t + j * ldt;
        if (tau[j] == 0.0) {
            for (tela_int i = 0; i < j; i++)
                tj[i] = 0.0;
        } else {
            for (tela_int i = 0; i < j; i++)
                tj[i] *= -tau[j];
            for (tela_int i = 0; i < j; i++) { /* T(0:j, j) = T(0:j, 0:j) T(0:j, j) */
                double s = 0.0;
                for (tela_int p = i; p < j; p++)
                    s += t[i + p * ldt] * tj[p];
                tj[i] = s;
            }
        }
        tj[j] = tau[j];
    }
}
