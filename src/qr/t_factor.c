/* t_factor.c — the T factor of a block of reflectors already stored (LAPACK's dlarft, forward
 * and by columns), for orgqr and ormqr, which get V and tau but not T: the products V^T V come
 * from one trmm and one syrk, then dlarft's k x k recurrence. */
#include "qr/qr.h"

void qr_build_t(tela_par par, tela_int m, tela_int k, const double *v, tela_int ldv,
                const double *tau, double *t, tela_int ldt)
{
    /* S = V^T V in T's upper triangle. The part of V's own unit lower k x k triangle V1 by one
     * trmm, S = X V1 with X = V1^T written into t: the strict upper triangle's k (k - 1) / 2
     * dots, a call each, took a third of orgqr 64 on one thread. The rows below by syrk, added. T's
     * lower triangle, which trmm fills too, is never read. */
    for (tela_int j = 0; j < k; j++) {
        for (tela_int i = 0; i < j; i++)
            t[i + j * ldt] = v[j + i * ldv];
        t[j + j * ldt] = 1.0;
        for (tela_int i = j + 1; i < k; i++)
            t[i + j * ldt] = 0.0;
    }
    tela_dtrmm(par, 'R', 'L', 'N', 'U', k, k, 1.0, v, ldv, t, ldt);
    if (m > k)
        tela_dsyrk(par, 'U', 'T', k, m - k, 1.0, v + k, ldv, 1.0, t, ldt);
    qr_t_recurrence(k, tau, t, ldt);
}

/* The column recurrence on the first k columns. */
static void recurrence_by_columns(tela_int k, const double *tau, double *t, tela_int ldt)
{
    for (tela_int j = 0; j < k; j++) {
        double *tj = t + j * ldt;
        if (tau[j] == 0.0) {
            for (tela_int i = 0; i < j; i++)
                tj[i] = 0.0;
        } else {
            /* T(0:j, j) = T(0:j, 0:j) w, w = -tau(j) T(0:j, j), in place by T's columns: column
             * p's axpy reads w(p) before anything writes it; the axpys run down T's contiguous
             * columns and vectorize, where a dot per row strode across them. */
            for (tela_int p = 0; p < j; p++) {
                const double wp = -tau[j] * tj[p];
                const double *tp = t + p * ldt;
                for (tela_int i = 0; i < p; i++)
                    tj[i] += tp[i] * wp;
                tj[p] = 0.0 + tp[p] * wp; /* 0.0 + as a sum's first term: +0, not -0 */
            }
        }
        tj[j] = tau[j];
    }
}

/* Columns the recurrence takes by columns; more are halved. */
#define QR_T_LEAF 16

void qr_t_recurrence(tela_int k, const double *tau, double *t, tela_int ldt)
{
    /* Recursively, as LAPACK 3.12's dlarft: T1 and T2 of the two halves, then T12 = -T1 S12 T2
     * (S12 = V1^T V2, in T12's place) by two trmms. The column recurrence's k^3 / 6 steps, one
     * short axpy each, took a third of orgqr 64 (15 of 44 us); a zero tau's zero column of T2
     * zeroes T12's column as the recurrence does. Serial: the triangles are small. */
    if (k <= QR_T_LEAF) {
        recurrence_by_columns(k, tau, t, ldt);
        return;
    }
    const tela_int k1 = k / 2, k2 = k - k1;
    double *t22 = t + k1 + k1 * ldt, *t12 = t + k1 * ldt;
    qr_t_recurrence(k1, tau, t, ldt);
    qr_t_recurrence(k2, tau + k1, t22, ldt);
    tela_dtrmm(tela_par_seq(), 'R', 'U', 'N', 'N', k1, k2, 1.0, t22, ldt, t12, ldt);
    tela_dtrmm(tela_par_seq(), 'L', 'U', 'N', 'N', k1, k2, -1.0, t, ldt, t12, ldt);
}
