/* update.c — one panel's update of a range of getrf's trailing columns:
 * the interchanges, then per block of columns the top rows packed as the
 * GEMM's B panels, solved there with the panel's unit lower L11 (lanes =
 * columns: no transposes), written back as U12, and the rows below updated
 * by the GEMM from those same packed panels. */
#include "gemm/gemm.h"
#include "lu/lu.h"

/* L11 is copied for the solve with a leading dimension of an odd number of
 * cache lines: the rows it reads together (L(i..i+7, p), one line) then
 * spread over L1's sets. In place its columns are lda apart and, with a
 * power-of-two lda, all share one set. */
static tela_int copy_ld(tela_int nb)
{
    const tela_int lines = (nb + 7) / 8;
    return (lines % 2 ? lines : lines + 1) * 8;
}

static size_t copy_len(tela_int nb)
{
    return (size_t)copy_ld(nb) * (size_t)nb;
}

size_t lu_update_buffer_len(const gemm_kernel *kr, tela_int n, tela_int nb)
{
    const int nc = (int)(n < kr->nc ? n : kr->nc);
    return copy_len(nb) + gemm_b_buffer_len(kr, nc, (int)nb) + (size_t)kr->mc * (size_t)nb;
}

/* pr's columns in blocks of `block`: pack U12 (pr->b), solve, write back,
 * update C. pr->kernel's packing and tiles fix every element's arithmetic;
 * block and mc only change the order, so any block gives the same bits. */
static void blocks(const gemm_problem *pr, double *u, tela_int lda, const double *l,
                   ptrdiff_t l_row, ptrdiff_t l_col, int block, double *b_buf, double *a_buf)
{
    const gemm_kernel *kr = pr->kernel;
    const int nr = kr->nr, k = (int)pr->k;
    for (ptrdiff_t jc = 0; jc < pr->n; jc += block) {
        const int cols = (int)(pr->n - jc < block ? pr->n - jc : block);
        const int panels = gemm_panels_of(cols, nr);
        kr->pack_b(&pr->b, 0, k, jc, cols, 0, panels, nr, b_buf);
        for (int jp = 0; jp < panels; jp++) {
            double *panel = b_buf + (ptrdiff_t)jp * nr * k;
            kr->unit_lower_panel(k, l, l_row, l_col, nr, panel);
            const int width = cols - jp * nr < nr ? cols - jp * nr : nr;
            for (int j = 0; j < width; j++) {
                double *col = u + (jc + (ptrdiff_t)jp * nr + j) * lda;
                for (int p = 0; p < k; p++)
                    col[p] = panel[(ptrdiff_t)p * nr + j];
            }
        }
        if (pr->m > 0)
            gemm_compute_block(pr, jc, cols, 0, k, b_buf, 0, pr->m, 0, panels, a_buf);
    }
}

void lu_update_columns(const gemm_kernel *kr, double *a, tela_int lda, tela_int m, tela_int k0,
                       tela_int b, tela_int from, tela_int to, const tela_int *ipiv, double *buf,
                       size_t buf_len)
{
    if (from >= to)
        return;
    lu_swap_rows(tela_par_seq(), to - from, a + from * lda, lda, k0, k0 + b, ipiv);
    double *u = a + k0 + from * lda;
    const double *l11 = a + k0 + k0 * lda;
    gemm_problem pr = {kr,
                       {a + k0 + b + k0 * lda, lda, false},
                       {u, lda, false},
                       u + b,
                       lda,
                       m - k0 - b,
                       to - from,
                       b,
                       -1.0,
                       1.0,
                       GEMM_ALL};
    const int nc = (int)(pr.n < kr->nc ? pr.n : kr->nc);
    if (buf && buf_len >= lu_update_buffer_len(kr, pr.n, b)) {
        const tela_int ld = copy_ld(b);
        for (tela_int p = 0; p + 1 < b; p++)
            for (tela_int i = p + 1; i < b; i++)
                buf[i + p * ld] = l11[i + p * lda];
        double *b_buf = buf + copy_len(b);
        blocks(&pr, u, lda, buf, 1, ld, nc, b_buf, b_buf + gemm_b_buffer_len(kr, nc, (int)b));
        return;
    }
    /* No buffer (a call inside a region, where nothing is allocated): one
     * panel of columns at a time, L11 read in place and A packed a
     * micro-panel at a time, on the stack (at most 32 KiB with nb = 128). */
    gemm_kernel narrow = *kr;
    narrow.mc = narrow.mr;
    pr.kernel = &narrow;
    double b_stack[(size_t)b * (size_t)kr->nr] __attribute__((aligned(64)));
    double a_stack[(size_t)b * (size_t)kr->mr] __attribute__((aligned(64)));
    blocks(&pr, u, lda, l11, 1, lda, kr->nr, b_stack, a_stack);
}
