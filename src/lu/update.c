/* update.c — one panel's update of ranges of getrf's trailing columns:
 * the interchanges, then per block of columns the top rows packed as the
 * GEMM's B panels, solved there with the panel's unit lower L11 (lanes =
 * columns: no transposes), written back as U12, and the rows below updated
 * by the GEMM from those same packed panels. A step is prepared once (L11
 * copied, the coupling and perhaps all of L21 packed) for all its ranges. */
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

/* Triangles of order b >= LU_SPLIT_MIN are solved in two halves, the
 * coupling of the lower half to the upper one by the micro-kernel (k = h),
 * only the halves' triangles by the row-by-row solve. */
#define LU_SPLIT_MIN 64

static int split_at(const gemm_kernel *kr, tela_int b)
{
    return b >= LU_SPLIT_MIN ? (int)(b / 2 / kr->mr * kr->mr) : 0;
}

/* -L11's rows [h, b) x columns [0, h), packed as the kernel's A. */
static size_t coupling_len(const gemm_kernel *kr, tela_int b)
{
    const int h = split_at(kr, b);
    const size_t rows = (size_t)gemm_panels_of((int)(b - h), kr->mr) * (size_t)kr->mr;
    return h ? (rows * (size_t)h + 7) / 8 * 8 : 0;
}

/* L21 (rows x b) packed whole as the kernel's A. */
static size_t l21_len(const gemm_kernel *kr, tela_int rows, tela_int b)
{
    const size_t padded = (size_t)gemm_panels_of((int)rows, kr->mr) * (size_t)kr->mr;
    return rows > 0 ? (padded * (size_t)b + 7) / 8 * 8 : 0;
}

size_t lu_step_len(const gemm_kernel *kr, tela_int l21_rows, tela_int nb)
{
    return copy_len(nb) + coupling_len(kr, nb) + l21_len(kr, l21_rows, nb);
}

size_t lu_update_buffer_len(const gemm_kernel *kr, tela_int n, tela_int nb)
{
    const int nc = (int)(n < kr->nc ? n : kr->nc);
    return lu_step_len(kr, 0, nb) + gemm_b_buffer_len(kr, nc, (int)nb) +
           (size_t)kr->mc * (size_t)nb;
}

void lu_step_prepare(lu_step *step, const gemm_kernel *kr, double *a, tela_int lda, tela_int m,
                     tela_int k0, tela_int b, const tela_int *ipiv, double *space, bool whole_l21)
{
    const double *l11 = a + k0 + k0 * lda;
    *step = (lu_step){kr, a, lda, m, k0, b, ipiv, l11, lda, NULL, split_at(kr, b), NULL};
    if (!space)
        return;
    const tela_int ld = copy_ld(b);
    for (tela_int p = 0; p + 1 < b; p++)
        for (tela_int i = p + 1; i < b; i++)
            space[i + p * ld] = l11[i + p * lda];
    step->l = space;
    step->l_col = ld;
    double *coupling = space + copy_len(b), *l21 = coupling + coupling_len(kr, b);
    if (step->h) {
        const gemm_operand op = {l11, lda, false};
        kr->pack_a(&op, step->h, (int)(b - step->h), 0, step->h, -1.0, kr->mr, coupling);
        step->coupling = coupling;
    }
    const tela_int rows = m - k0 - b;
    if (!whole_l21 || rows <= 0)
        return;
    const gemm_operand op = {l11 + b, lda, false};
    for (tela_int ic = 0; ic < rows; ic += kr->mc) {
        const int mc = (int)(rows - ic < kr->mc ? rows - ic : kr->mc);
        kr->pack_a(&op, ic, mc, 0, (int)b, -1.0, kr->mr, l21 + ic * b);
    }
    step->l21 = l21;
}

static void write_back(const double *panel, int nr, int p_from, int p_to, int width, double *u,
                       tela_int lda)
{
    for (int j = 0; j < width; j++) {
        double *col = u + (ptrdiff_t)j * lda;
        for (int p = p_from; p < p_to; p++)
            col[p] = panel[(ptrdiff_t)p * nr + j];
    }
}

/* One nr panel of U12 (width columns at u): rows [0, h) packed and solved,
 * rows [h, k) updated from them in place by the micro-kernel, then packed
 * and solved; each half written back. */
static void solve_panel(const gemm_problem *pr, const lu_step *step, ptrdiff_t j0, int width,
                        double *u, double *panel)
{
    const gemm_kernel *kr = pr->kernel;
    const tela_int lda = step->lda, col = step->l_col;
    const int nr = kr->nr, k = (int)pr->k, h = step->h, top = h ? h : k;
    kr->pack_b(&pr->b, 0, top, j0, width, 0, 1, nr, panel);
    kr->unit_lower_panel(top, step->l, 1, col, nr, panel);
    write_back(panel, nr, 0, top, width, u, lda);
    if (!h)
        return;
    const gemm_operand l11 = {step->a + step->k0 + step->k0 * lda, lda, false};
    const int mr = kr->mr;
    /* One micro-panel of the coupling when none was packed: h <= 128 for
     * panels of up to 256 columns (blocked.c's are at most 128). */
    double own[GEMM_MR_MAX * 128] __attribute__((aligned(64)));
    for (int i = h; i < k; i += mr) {
        const int rows = k - i < mr ? k - i : mr;
        const double *a = step->coupling ? step->coupling + (ptrdiff_t)(i - h) * h : own;
        if (!step->coupling)
            kr->pack_a(&l11, i, rows, 0, h, -1.0, mr, own);
        if (rows == mr && width == nr)
            kr->ukernel(h, a, panel, u + i, lda, 1.0);
        else
            gemm_edge_tile(kr, h, a, panel, u + i, lda, rows, width, 1.0, GEMM_ALL, 0, 0);
    }
    const gemm_operand bottom = {u + h, lda, false};
    kr->pack_b(&bottom, 0, k - h, 0, width, 0, 1, nr, panel + (ptrdiff_t)h * nr);
    kr->unit_lower_panel(k - h, step->l + h + h * col, 1, col, nr, panel + (ptrdiff_t)h * nr);
    write_back(panel, nr, h, k, width, u, lda);
}

/* Columns [from, to) in blocks of `block`: U12 solved panel by panel where
 * the GEMM reads it, then C updated, from L21 packed whole or packed here
 * mc rows at a time into a_buf. The kernel's packing and tiles fix every
 * element's arithmetic; block and mc only change the order, so any block
 * gives the same bits. */
static void blocks(const lu_step *step, const gemm_kernel *kr, tela_int from, tela_int to,
                   int block, double *b_buf, double *a_buf)
{
    const tela_int lda = step->lda, k0 = step->k0, b = step->b;
    double *u = step->a + k0 + from * lda;
    const gemm_problem pr = {kr,
                             {step->a + k0 + b + k0 * lda, lda, false},
                             {u, lda, false},
                             u + b,
                             lda,
                             step->m - k0 - b,
                             to - from,
                             b,
                             -1.0,
                             1.0,
                             GEMM_ALL,
                             false,
                             NULL,
                             NULL};
    const int nr = kr->nr, k = (int)b;
    for (ptrdiff_t jc = 0; jc < pr.n; jc += block) {
        const int cols = (int)(pr.n - jc < block ? pr.n - jc : block);
        const int panels = gemm_panels_of(cols, nr);
        for (int jp = 0; jp < panels; jp++) {
            const ptrdiff_t j0 = jc + (ptrdiff_t)jp * nr;
            const int width = cols - jp * nr < nr ? cols - jp * nr : nr;
            solve_panel(&pr, step, j0, width, u + j0 * lda, b_buf + (ptrdiff_t)jp * nr * k);
        }
        if (!step->l21) {
            if (pr.m > 0)
                gemm_compute_block(&pr, jc, cols, 0, k, b_buf, 0, pr.m, 0, panels, a_buf);
            continue;
        }
        for (ptrdiff_t ic = 0; ic < pr.m; ic += kr->mc) {
            const int mc = (int)(pr.m - ic < kr->mc ? pr.m - ic : kr->mc);
            gemm_compute_rows(&pr, jc, cols, k, 1.0, b_buf, step->l21 + ic * k, ic, mc, 0, panels);
        }
    }
}

void lu_step_update(const lu_step *step, tela_int from, tela_int to, double *b_buf)
{
    if (from >= to)
        return;
    lu_swap_rows(tela_par_seq(), to - from, step->a + from * step->lda, step->lda, step->k0,
                 step->k0 + step->b, step->ipiv);
    blocks(step, step->kernel, from, to, (int)(to - from), b_buf, NULL);
}

void lu_update_columns(const gemm_kernel *kr, double *a, tela_int lda, tela_int m, tela_int k0,
                       tela_int b, tela_int from, tela_int to, const tela_int *ipiv, double *buf,
                       size_t buf_len)
{
    if (from >= to)
        return;
    lu_swap_rows(tela_par_seq(), to - from, a + from * lda, lda, k0, k0 + b, ipiv);
    lu_step step;
    if (buf && buf_len >= lu_update_buffer_len(kr, to - from, b)) {
        lu_step_prepare(&step, kr, a, lda, m, k0, b, ipiv, buf, false);
        const int nc = gemm_block_columns(kr, to - from);
        double *b_buf = buf + lu_step_len(kr, 0, b);
        blocks(&step, kr, from, to, nc, b_buf, b_buf + gemm_b_buffer_len(kr, nc, (int)b));
        return;
    }
    /* No buffer: only when a thread could not reserve what lu declares (out of memory; inside a
     * region nothing is allocated). One panel of columns at a time, L11 read in place, the
     * coupling and A packed a micro-panel at a time, on the stack (at most 44 KiB with nb =
     * 128); the same bits. */
    lu_step_prepare(&step, kr, a, lda, m, k0, b, ipiv, NULL, false);
    gemm_kernel narrow = *kr;
    narrow.mc = narrow.mr;
    double b_stack[(size_t)b * (size_t)kr->nr] __attribute__((aligned(64)));
    double a_stack[(size_t)b * (size_t)kr->mr] __attribute__((aligned(64)));
    blocks(&step, &narrow, from, to, kr->nr, b_stack, a_stack);
}
