/* pack_sym.c — a symmetric matrix stored in one triangle, packed as the whole matrix (dsymm's
 * packers), or copied whole for the paths that read operands in place.
 *
 * S(i, j) is op(X)(i, j) on and below the diagonal and op(X)(j, i) above it (gemm.h). A block of
 * S wholly on one side of the diagonal is a block of op(X) or of op(X)^T, which the kernel's own
 * packer packs at its speed; a block across it is cut micro-panel by micro-panel into those two
 * parts and the few elements between them, so the other triangle of X is never read. */
#include "gemm/gemm.h"

/* op(X)^T: the same memory read the other way. */
static gemm_operand flipped(const gemm_operand *x)
{
    gemm_operand y = *x;
    y.trans = !x->trans;
    return y;
}

static double sym_at(const gemm_operand *s, ptrdiff_t i, ptrdiff_t j)
{
    return i >= j ? gemm_at(s, i, j) : gemm_at(s, j, i);
}

static ptrdiff_t clamp(ptrdiff_t x, ptrdiff_t low, ptrdiff_t high)
{
    return x < low ? low : x > high ? high : x;
}

void gemm_pack_a_sym(const gemm_operand *s, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                     double alpha, int mr, double *restrict out)
{
    const gemm_kernel *kr = gemm_kernel_get();
    const gemm_operand t = flipped(s);
    if (i0 >= p0 + kc - 1) { /* every row at or below every column's diagonal element */
        kr->pack_a(s, i0, mc, p0, kc, alpha, mr, out);
        return;
    }
    if (i0 + mc <= p0) { /* every row above it */
        kr->pack_a(&t, i0, mc, p0, kc, alpha, mr, out);
        return;
    }
    /* A micro-panel's layout is column after column (mr values each), so a range of its
     * columns packed alone lands in place. Rows [top, top + rows): columns p <= top are below
     * the diagonal for all of them, columns p >= top + rows above it for all. */
    for (int r = 0; r < mc; r += mr) {
        const int rows = mc - r < mr ? mc - r : mr;
        const ptrdiff_t top = i0 + r;
        double *panel = out + (ptrdiff_t)r * kc;
        const int below = (int)clamp(top + 1 - p0, 0, kc);
        const int above = (int)clamp(top + rows - p0, below, kc);
        if (below > 0)
            kr->pack_a(s, top, rows, p0, below, alpha, mr, panel);
        for (int p = below; p < above; p++)
            for (int i = 0; i < mr; i++)
                panel[(ptrdiff_t)p * mr + i] = i < rows ? alpha * sym_at(s, top + i, p0 + p) : 0.0;
        if (above < kc)
            kr->pack_a(&t, top, rows, p0 + above, kc - above, alpha, mr,
                       panel + (ptrdiff_t)above * mr);
    }
}

void gemm_pack_b_sym(const gemm_operand *s, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                     int first_panel, int last_panel, int nr, double *restrict out)
{
    if (first_panel >= last_panel)
        return;
    const gemm_kernel *kr = gemm_kernel_get();
    const gemm_operand t = flipped(s);
    const ptrdiff_t col_from = j0 + (ptrdiff_t)first_panel * nr;
    const ptrdiff_t col_to =
        j0 + ((ptrdiff_t)last_panel * nr < n_block ? (ptrdiff_t)last_panel * nr : n_block);
    if (p0 >= col_to - 1) { /* every row at or below every column's diagonal element */
        kr->pack_b(s, p0, kc, j0, n_block, first_panel, last_panel, nr, out);
        return;
    }
    if (p0 + kc <= col_from) { /* every row above it */
        kr->pack_b(&t, p0, kc, j0, n_block, first_panel, last_panel, nr, out);
        return;
    }
    /* A panel's layout is row after row (nr values each): a range of its rows packed alone
     * lands in place. Columns [c0, c0 + cols): rows p < c0 are above the diagonal for all of
     * them, rows p >= c0 + cols - 1 below it for all. */
    for (int jp = first_panel; jp < last_panel; jp++) {
        const int cols = n_block - jp * nr < nr ? n_block - jp * nr : nr;
        const ptrdiff_t c0 = j0 + (ptrdiff_t)jp * nr;
        double *panel = out + (ptrdiff_t)jp * nr * kc;
        const int above = (int)clamp(c0 - p0, 0, kc);
        const int below = (int)clamp(c0 + cols - 1 - p0, above, kc);
        if (above > 0)
            kr->pack_b(&t, p0, above, c0, cols, 0, 1, nr, panel);
        for (int p = above; p < below; p++)
            for (int j = 0; j < nr; j++)
                panel[(ptrdiff_t)p * nr + j] = j < cols ? sym_at(s, p0 + p, c0 + j) : 0.0;
        if (below < kc)
            kr->pack_b(s, p0 + below, kc - below, c0, cols, 0, 1, nr,
                       panel + (ptrdiff_t)below * nr);
    }
}

/* Rows [r0, r1) of columns [c0, c1) of S into out (S(i, j) at out[i + (j - c0) * ld]). The
 * stored triangle is X's lower one (untransposed) or upper one, its columns contiguous: rows of
 * it are copied in place, the others mirrored by the transposer from X's rows [c0, c1), and
 * rows within [c0, c1) (the diagonal block) element by element. */
static void expand_rows(const gemm_kernel *kr, const gemm_operand *s, ptrdiff_t r0, ptrdiff_t r1,
                        ptrdiff_t c0, ptrdiff_t c1, double *out, ptrdiff_t ld)
{
    const bool lower = !s->trans;
    const double *x = s->p;
    const ptrdiff_t ldx = s->ld;
    const ptrdiff_t before = r1 < c0 ? r1 : c0, after = r0 > c1 ? r0 : c1;
    for (ptrdiff_t j = c0; j < c1; j++)
        for (ptrdiff_t i = r0 > c0 ? r0 : c0; i < (r1 < c1 ? r1 : c1); i++)
            out[i + (j - c0) * ld] = sym_at(s, i, j);
    /* Rows before the columns lie in the upper triangle, rows after them in the lower. */
    const ptrdiff_t copy_from = lower ? after : r0, copy_to = lower ? r1 : before;
    for (ptrdiff_t j = c0; j < c1; j++)
        for (ptrdiff_t i = copy_from; i < copy_to; i++)
            out[i + (j - c0) * ld] = x[i + j * ldx];
    const ptrdiff_t mirror_from = lower ? r0 : after, mirror_to = lower ? before : r1;
    if (mirror_from < mirror_to)
        kr->transpose(x + c0 + mirror_from * ldx, ldx, c1 - c0, mirror_to - mirror_from,
                      out + mirror_from, ld);
}

/* Strips of the diagonal block this many columns wide: the transposer's blocks. */
#define SYM_STRIP 8

void gemm_sym_expand_columns(const gemm_kernel *kr, const gemm_operand *s, ptrdiff_t order,
                             ptrdiff_t c0, ptrdiff_t c1, double *out, ptrdiff_t ld)
{
    /* The rows outside the columns' own block for all of them at once (one transposer call reads
     * a run of lines of each mirrored column); the block in strips, each with only its own
     * diagonal block element by element. In strips of 8 columns throughout, dsymm's right side
     * of 16 x 700 ran 0.85x (the transposer then read a line of each column per strip), and the
     * whole block element by element made the right side of 64 x 64 on two members 0.86x one. */
    expand_rows(kr, s, 0, c0, c0, c1, out, ld);
    expand_rows(kr, s, c1, order, c0, c1, out, ld);
    for (ptrdiff_t j0 = c0; j0 < c1; j0 += SYM_STRIP) {
        const ptrdiff_t w = c1 - j0 < SYM_STRIP ? c1 - j0 : SYM_STRIP;
        expand_rows(kr, s, c0, c1, j0, j0 + w, out + (j0 - c0) * ld, ld);
    }
}

void gemm_sym_expand(const gemm_kernel *kr, const gemm_operand *s, ptrdiff_t order, double *full,
                     ptrdiff_t ld)
{
    gemm_sym_expand_columns(kr, s, order, 0, order, full, ld);
}
