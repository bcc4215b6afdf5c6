/* panel.c — the recursive QR of a panel (Elmroth-Gustavson, the idea of LAPACK's dgeqrt3):
 * factor the left half, update the right half with its compact WY form through trmm and gemm,
 * factor the right half, join the two T factors. Only narrow leaves run column by column. */
#include "gemm/level3.h"
#include "level1/level1.h"
#include "qr/qr.h"

/* Columns a leaf factors one by one: below this the recursion's level-3 calls cost more in
 * calls than they save in passes over the panel. */
#define QR_LEAF 8

void qr_factor_columns(tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    const tela_int k = m < n ? m : n;
    for (tela_int j = 0; j < k; j++) {
        double *v = a + j + j * lda;
        qr_reflector(m - j, v, v + 1, 1, &tau[j]);
        if (tau[j] != 0.0)
            qr_apply_reflector(m - j, n - j - 1, v, 1, tau[j], v + lda, lda);
    }
}

/* dgeqr2 on n <= QR_LEAF columns, then T from V^T V by level 1's dots (for so few columns
 * faster than t_factor.c's syrk) and dlarft's recurrence. */
static void factor_leaf(tela_int m, tela_int n, double *a, tela_int lda, double *tau, double *t,
                        tela_int ldt, bool want_t)
{
    qr_factor_columns(m, n, a, lda, tau);
    if (!want_t)
        return;
    const level1_loops *loops = level1_loops_upto(m - 1);
    for (tela_int j = 1; j < n; j++) {
        const double *vj = a + j + j * lda; /* v_j: 1 at row j, then below */
        for (tela_int i = 0; i < j; i++) {
            const double *vi = a + j + i * lda;
            t[i + j * ldt] = vi[0] + level1_dot_by(loops, m - j - 1, vi + 1, vj + 1);
        }
    }
    qr_t_recurrence(n, tau, t, ldt);
}

void qr_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau, double *t,
              tela_int ldt, bool want_t)
{
    if (n <= QR_LEAF) {
        factor_leaf(m, n, a, lda, tau, t, ldt, want_t);
        return;
    }
    const tela_int n1 = level3_first_half(n), n2 = n - n1;
    double *a2 = a + n1 * lda;
    double *w = t + n1 * ldt; /* T's upper right block holds W = V1^T A2 meanwhile */
    qr_panel(par, m, n1, a, lda, tau, t, ldt, true); /* T1 updates the right half */

    /* A2 = (I - V1 T1 V1^T)^T A2 = A2 - V1 (T1^T (V1^T A2)) */
    for (tela_int j = 0; j < n2; j++)
        level1_copy(n1, a2 + j * lda, w + j * ldt);
    tela_dtrmm(par, 'L', 'L', 'T', 'U', n1, n2, 1.0, a, lda, w, ldt);
    tela_dgemm(par, 'T', 'N', n1, n2, m - n1, 1.0, a + n1, lda, a2 + n1, lda, 1.0, w, ldt);
    tela_dtrmm(par, 'L', 'U', 'T', 'N', n1, n2, 1.0, t, ldt, w, ldt);
    tela_dgemm(par, 'N', 'N', m - n1, n2, n1, -1.0, a + n1, lda, w, ldt, 1.0, a2 + n1, lda);
    tela_dtrmm(par, 'L', 'L', 'N', 'U', n1, n2, 1.0, a, lda, w, ldt);
    for (tela_int j = 0; j < n2; j++)
        level1_axpy(n1, -1.0, w + j * ldt, a2 + j * lda);

    double *t2 = t + n1 + n1 * ldt;
    qr_panel(par, m - n1, n2, a2 + n1, lda, tau + n1, t2, ldt, want_t);
    if (!want_t) /* a last panel's T, which nothing applies: a fifth of dgeqrf at n = 16-32 */
        return;

    /* T12 = -T1 (V1^T V2) T2, V2 starting at row n1 with its unit upper part at a2 + n1. */
    for (tela_int j = 0; j < n2; j++)
        for (tela_int i = 0; i < n1; i++)
            w[i + j * ldt] = a[n1 + j + i * lda];
    tela_dtrmm(par, 'R', 'L', 'N', 'U', n1, n2, 1.0, a2 + n1, lda, w, ldt);
    if (m > n)
        tela_dgemm(par, 'T', 'N', n1, n2, m - n, 1.0, a + n, lda, a2 + n, lda, 1.0, w, ldt);
    tela_dtrmm(par, 'L', 'U', 'N', 'N', n1, n2, -1.0, t, ldt, w, ldt);
    tela_dtrmm(par, 'R', 'U', 'N', 'N', n1, n2, 1.0, t2, ldt, w, ldt);
}
