/* getrf.c — tela_dgetrf: recursive LU with partial pivoting (LAPACK's
 * dgetrf2 order): factor the left half, swap and solve the right half's top
 * (trsm), update its bottom (one tela_dgemm: the bulk of the flops and of
 * the parallelism), factor that, swap the left half. Larger matrices go
 * by panels in one region (blocked.c), with this for the panels. */
#include "gemm/level3.h"
#include "lu/lu.h"
#include "par/engine.h"

/* Panels at most this wide are factored column by column (panel.c). */
#define LU_BASE 8

tela_int lu_factor_recursive(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                             tela_int *ipiv)
{
    const tela_int mn = m < n ? m : n;
    if (mn <= LU_BASE)
        return lu_panel(par, m, n, a, lda, ipiv);
    const tela_int n1 = level3_first_half(mn), n2 = n - n1;
    double *a12 = a + n1 * lda, *a21 = a + n1, *a22 = a + n1 + n1 * lda;
    tela_int info = lu_factor_recursive(par, m, n1, a, lda, ipiv);
    lu_swap_rows(par, n2, a12, lda, 0, n1, ipiv);
    tela_dtrsm(par, 'L', 'L', 'N', 'U', n1, n2, 1.0, a, lda, a12, lda);
    tela_dgemm(par, 'N', 'N', m - n1, n2, n1, -1.0, a21, lda, a12, lda, 1.0, a22, lda);
    const tela_int info2 = lu_factor_recursive(par, m - n1, n2, a22, lda, ipiv + n1);
    if (info == 0 && info2 > 0)
        info = info2 + n1;
    for (tela_int i = n1; i < mn; i++)
        ipiv[i] += n1;
    lu_swap_rows(par, n1, a, lda, n1, mn, ipiv);
    return info;
}

int tela_dgetrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, tela_int *ipiv)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (lda < (m > 1 ? m : 1))
        return -4;
    if (m == 0 || n == 0)
        return 0;
    if (!a)
        return -3;
    if (!ipiv)
        return -5;
    const tela_int mn = m < n ? m : n;
    if (mn >= LU_BLOCKED_MIN)
        return (int)lu_factor_blocked(par, m, n, a, lda, ipiv);
    /* The recursion's largest regions: the top update and the first panel. */
    const tela_int n1 = level3_first_half(mn);
    const double update_ns =
        2.0 * (double)(m - n1) * (double)(n - n1) * (double)n1 * par_rate_ns_per_flop();
    const double panel_ns = lu_panel_estimate_ns(m, n < LU_BASE ? n : LU_BASE);
    if (!par_may_split(par, update_ns > panel_ns ? update_ns : panel_ns))
        par = tela_par_seq();
    return (int)lu_factor_recursive(par, m, n, a, lda, ipiv);
}
