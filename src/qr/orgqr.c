/* orgqr.c — tela_dorgqr: Q's first n columns from geqrf's reflectors, blocks from the last to
 * the first: each block's T is rebuilt from V (syrk), the block is applied to the columns
 * already formed right of it, and its own columns are E - V (T V1^T) by one GEMM. */
#include "level1/level1.h"
#include "par/engine.h"
#include "qr/qr.h"

/* Reflectors a block: 16 up to k = 128, else geqrf's blocks up to 64. Each block's T costs about
 * m ib^2 flops and its triangles' products grow with ib too; at k = 64 one block of 64 made orgqr
 * 1.7x slower than blocks of 16 (docs/qr.md). */
static tela_int generate_block_size(tela_int m, tela_int k)
{
    const tela_int nb = qr_block_size(m, k), most = k <= 128 ? 16 : 64;
    return nb < most ? nb : most;
}

size_t qr_generate_len(tela_int m, tela_int n, tela_int k)
{
    const size_t nb = (size_t)generate_block_size(m, k > 0 ? k : 1);
    return nb * nb + qr_apply_block_len(true, m, n, (tela_int)nb) + (size_t)m * nb;
}

void qr_form_q(tela_par par, tela_int rows, tela_int k, const double *v, tela_int ldv,
               const double *t, tela_int ldt, double *q, tela_int ldq, double *x)
{
    for (tela_int j = 0; j < k; j++) /* X = V1^T, unit upper */
        for (tela_int i = 0; i < k; i++)
            x[i + j * k] = i < j ? v[j + i * ldv] : i == j ? 1.0 : 0.0;
    tela_dtrmm(par, 'L', 'U', 'N', 'N', k, k, 1.0, t, ldt, x, k);
    if (rows > k)
        tela_dgemm(par, 'N', 'N', rows - k, k, k, -1.0, v + k, ldv, x, k, 0.0, q + k, ldq);
    tela_dtrmm(par, 'L', 'L', 'N', 'U', k, k, -1.0, v, ldv, x, k);
    for (tela_int j = 0; j < k; j++) {
        level1_copy(k, x + j * k, q + j * ldq);
        q[j + j * ldq] += 1.0;
    }
}

/* Columns [i, i + ib) of Q, over V's own columns: V copied out first. */
static void form_block(tela_par par, tela_int rows, tela_int ib, double *a, tela_int lda,
                       const double *t, tela_int ldt, double *v, double *x)
{
    for (tela_int j = 0; j < ib; j++)
        level1_copy(rows - j - 1, a + j + 1 + j * lda, v + j + 1 + j * rows);
    qr_form_q(par, rows, ib, v, rows, t, ldt, a, lda, x);
}

void qr_generate(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                 const double *tau, double *work)
{
    /* Columns past the reflectors start as the identity's. */
    for (tela_int j = k; j < n; j++) {
        double *col = a + (size_t)j * (size_t)lda;
        for (tela_int i = 0; i < m; i++)
            col[i] = 0.0;
        col[j] = 1.0;
    }
    if (k == 0)
        return;
    const tela_int nb = generate_block_size(m, k);
    double *t = work, *w = t + (size_t)nb * (size_t)nb;
    double *v = w + qr_apply_block_len(true, m, n, nb);
    for (tela_int i = (k - 1) / nb * nb; i >= 0; i -= nb) {
        const tela_int ib = k - i < nb ? k - i : nb;
        double *block = a + i + (size_t)i * (size_t)lda;
        qr_build_t(par, m - i, ib, block, lda, tau + i, t, nb);
        if (i + ib < n)
            qr_apply_block(par, true, false, m - i, n - i - ib, ib, block, lda, t, nb,
                           block + (size_t)ib * (size_t)lda, lda, w);
        form_block(par, m - i, ib, block, lda, t, nb, v, w);
        for (tela_int j = i; j < i + ib; j++)
            for (tela_int r = 0; r < i; r++)
                a[r + (size_t)j * (size_t)lda] = 0.0;
    }
}

/* dorg2r: without scratch, each reflector in turn from the last, on the columns right of it. */
static void generate_by_columns(tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                                const double *tau)
{
    for (tela_int j = k; j < n; j++) {
        double *col = a + (size_t)j * (size_t)lda;
        for (tela_int i = 0; i < m; i++)
            col[i] = 0.0;
        col[j] = 1.0;
    }
    for (tela_int i = k - 1; i >= 0; i--) {
        double *v = a + i + (size_t)i * (size_t)lda;
        qr_apply_reflector(m - i, n - i - 1, v, 1, tau[i], v + lda, lda);
        for (tela_int r = 1; r < m - i; r++)
            v[r] *= -tau[i];
        v[0] = 1.0 - tau[i];
        for (tela_int r = 0; r < i; r++)
            a[r + (size_t)i * (size_t)lda] = 0.0;
    }
}

int tela_dorgqr(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                const double *tau)
{
    if (m < 0)
        return -1;
    if (n < 0 || n > m)
        return -2;
    if (k < 0 || k > n)
        return -3;
    if (lda < (m > 1 ? m : 1))
        return -5;
    if (n == 0)
        return 0;
    if (!a)
        return -4;
    if (k > 0 && !tau)
        return -6;
    bool owned;
    double *work = qr_scratch(par, qr_generate_len(m, n, k), &owned);
    if (!work) {
        generate_by_columns(m, n, k, a, lda, tau);
        return 0;
    }
    qr_generate(par, m, n, k, a, lda, tau, work);
    par_scratch_release(work, owned);
    return 0;
}
