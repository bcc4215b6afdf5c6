/* driver.c — the blocked loops around the micro-kernel (serial, and the
 * per-member part of the parallel GEMM), the small-matrix path and the
 * BLAS rules for beta.
 *
 * Tiles are anchored at C's origin: a member's share is a range of whole
 * mr-row and nr-column tiles, so every element of C is computed by the same
 * kernel call, in the same order, whatever the width (bitwise equal). */
#include "gemm/gemm.h"
#include "par/engine.h"

void gemm_scale_c(double *c, ptrdiff_t ldc, ptrdiff_t m, ptrdiff_t n, double beta)
{
    for (ptrdiff_t j = 0; j < n; j++) {
        double *cj = c + j * ldc;
        if (beta == 0.0) {
            for (ptrdiff_t i = 0; i < m; i++)
                cj[i] = 0.0;
        } else if (beta != 1.0) {
            for (ptrdiff_t i = 0; i < m; i++)
                cj[i] *= beta;
        }
    }
}

/* The run of rows [*from, *to) of column j of a block of rows rows (at (i0, j0) of C) inside
 * part: one run, whatever the part. */
static void rows_in_part(gemm_part part, int rows, ptrdiff_t i0, ptrdiff_t j0, int j, int *from,
                         int *to)
{
    const ptrdiff_t diagonal = j0 + j - i0; /* the column's diagonal row in the block */
    *from = 0;
    *to = rows;
    if (part == GEMM_LOWER && diagonal > 0)
        *from = diagonal < rows ? (int)diagonal : rows;
    else if (part == GEMM_UPPER && diagonal + 1 < rows)
        *to = diagonal + 1 > 0 ? (int)(diagonal + 1) : 0;
}

void gemm_combine_part(double *c, ptrdiff_t ldc, const double *t, ptrdiff_t ldt, int rows, int cols,
                       double beta, gemm_part part, ptrdiff_t i0, ptrdiff_t j0)
{
    /* Each column's elements inside part are one run of rows: combined by
     * gemm_combine's rule in loops without a test per element (syrk's
     * diagonal tiles took 6% of potrf 256 with one). */
    for (int j = 0; j < cols; j++) {
        int from, to;
        rows_in_part(part, rows, i0, j0, j, &from, &to);
        double *cj = c + j * ldc;
        const double *tj = t + j * ldt;
        if (beta == 0.0)
            for (int i = from; i < to; i++)
                cj[i] = tj[i];
        else if (beta == 1.0)
            for (int i = from; i < to; i++)
                cj[i] += tj[i];
        else
            for (int i = from; i < to; i++)
                gemm_combine(cj + i, tj[i], beta);
    }
}

void gemm_edge_tile(const gemm_kernel *kr, int kc, const double *a, const double *b, double *c,
                    ptrdiff_t ldc, int rows, int cols, double beta, gemm_part part, ptrdiff_t i0,
                    ptrdiff_t j0)
{
    if (kr->edge) {
        uint16_t masks[GEMM_NR_MAX];
        for (int j = 0; j < cols; j++) {
            int from, to;
            rows_in_part(part, rows, i0, j0, j, &from, &to);
            masks[j] = (uint16_t)((1u << to) - (1u << from));
        }
        kr->edge(kc, a, b, c, ldc, beta, cols, masks);
        return;
    }
    double tile[GEMM_MR_MAX * GEMM_NR_MAX] __attribute__((aligned(64)));
    kr->ukernel(kc, a, b, tile, kr->mr, 0.0);
    gemm_combine_part(c, ldc, tile, kr->mr, rows, cols, beta, part, i0, j0);
}

/* Where a tile of rows [i0, i0 + rows) and columns [j0, j0 + cols) stands
 * against pr->part: 0 outside, 1 wholly inside, 2 across the diagonal. */
static int tile_in_part(gemm_part part, ptrdiff_t i0, int rows, ptrdiff_t j0, int cols)
{
    if (part == GEMM_ALL)
        return 1;
    const ptrdiff_t i1 = i0 + rows - 1, j1 = j0 + cols - 1;
    if (part == GEMM_LOWER)
        return i1 < j0 ? 0 : i0 >= j1 ? 1 : 2;
    return i0 > j1 ? 0 : i1 <= j0 ? 1 : 2;
}

/* Prefetch steps per kernel call that spread pf's lines evenly over calls kernel calls of kc
 * steps each (0: nothing to ask for). */
static int prefetch_every(const gemm_prefetch *pf, long calls, int kc)
{
    if (!pf || pf->runs_left < 0 || calls <= 0)
        return 0;
    const ptrdiff_t lines = (pf->runs_left + 1) * ((pf->seg + 63) / 64 + 1);
    const ptrdiff_t per_call = (lines + calls - 1) / calls;
    return per_call >= kc ? 1 : (int)(kc / per_call);
}

/* Whether a tile of C is asked for before its kernel call: where the part of C one k block
 * sweeps (all of m by the B block's columns) is larger than L2, each tile comes back from memory
 * and its loads at the call's end stall it; asked for first, its lines arrive over the call's
 * kc steps (dgemm 1024-2048 1.01-1.08x on Zen 5). Where C stays cached (2000 x 64 x 2000,
 * 1 MB), the requests only crowd the ones for the next block: 0.97x (docs/gemm.md). */
static bool tile_c_from_memory(const gemm_problem *pr, int n_block)
{
    const gemm_kernel *kr = pr->kernel;
    const double l2 = kr->l2 > 0 ? (double)kr->l2 : 2.5 * kr->mc * kr->kc * (double)sizeof(double);
    return (double)pr->m * n_block * (double)sizeof(double) > l2;
}

/* Every line of the tile's columns: mr rows not on a line boundary (C as malloc and NumPy hand
 * out large arrays, 16 bytes past one) span one line more. */
static void prefetch_c_tile(const double *c, ptrdiff_t ldc, int mr, int nr)
{
    for (int j = 0; j < nr; j++) {
        const double *col = c + j * ldc;
        for (int i = 0; i < mr; i += 8)
            __builtin_prefetch(col + i);
        __builtin_prefetch(col + mr - 1);
    }
}

/* The steps [*from, *to) of the k block at p0 (kc deep) that a tile of the band's rows [i0, i0 +
 * rows) sums (gemm_band), relative to the block, and (beta: NULL for none) the beta of its call:
 * 0 in the block where its first step lies. False when the block holds none of its steps. */
static bool band_steps(const gemm_problem *pr, ptrdiff_t i0, int rows, ptrdiff_t p0, int kc,
                       int *from, int *to, double *beta)
{
    const gemm_band *band = pr->band;
    const ptrdiff_t first = band->lower ? 0 : i0 - band->at;
    const ptrdiff_t last = band->lower ? i0 - band->at + rows : pr->k;
    const ptrdiff_t lo = first > p0 ? first : p0, hi = last < p0 + kc ? last : p0 + kc;
    if (lo >= hi)
        return false;
    *from = (int)(lo - p0);
    *to = (int)(hi - p0);
    if (beta)
        *beta = first >= p0 ? 0.0 : 1.0;
    return true;
}

/* A tile of the band's rows: its steps only (band_steps), A and B from their first. */
static void band_tile(const gemm_problem *pr, ptrdiff_t i0, int rows, int cols, ptrdiff_t p0,
                      int kc, const double *a, const double *b, double *c)
{
    const gemm_kernel *kr = pr->kernel;
    int from, to;
    double beta;
    if (!band_steps(pr, i0, rows, p0, kc, &from, &to, &beta))
        return;
    a += (ptrdiff_t)from * kr->mr;
    b += (ptrdiff_t)from * kr->nr;
    if (rows == kr->mr && cols == kr->nr)
        kr->ukernel(to - from, a, b, c, pr->ldc, beta);
    else
        gemm_edge_tile(kr, to - from, a, b, c, pr->ldc, rows, cols, beta, GEMM_ALL, 0, 0);
}

static bool in_band(const gemm_problem *pr, ptrdiff_t i0)
{
    return pr->band && i0 >= pr->band->at && i0 < pr->band->at + pr->k;
}

static void compute_rows(const gemm_problem *pr, ptrdiff_t j0, int n_block, ptrdiff_t p0, int kc,
                         double beta, const double *b_packed, const double *a_packed, ptrdiff_t ic,
                         int mc, int jp_from, int jp_to, gemm_prefetch *pf)
{
    const gemm_kernel *kr = pr->kernel;
    const int mr = kr->mr, nr = kr->nr;
    const bool tile_c = tile_c_from_memory(pr, n_block);
    const bool spread = kr->spread_requests; /* set only with ukernel_prefetch */
    const int tiles = (mc + mr - 1) / mr;
    gemm_requests rq = {pf, 0, NULL, NULL, 0};
    if (kr->ukernel_prefetch)
        rq.every = prefetch_every(pf, (long)(jp_to - jp_from) * tiles, kc);
    /* The next B panel's lines shared out over this panel's tiles, each tile its own run. */
    const int panel_lines = (int)(((ptrdiff_t)nr * kc * (ptrdiff_t)sizeof(double) + 63) / 64);
    const int share = (panel_lines + tiles - 1) / tiles;
    for (int jp = jp_from; jp < jp_to; jp++) {
        int cols = n_block - jp * nr < nr ? n_block - jp * nr : nr;
        const double *b = b_packed + (ptrdiff_t)jp * nr * kc;
        const ptrdiff_t col = j0 + (ptrdiff_t)jp * nr;
        const bool b_next = spread && jp + 1 < jp_to;
        for (int ir = 0; ir < mc; ir += mr) {
            int rows = mc - ir < mr ? mc - ir : mr;
            const double *a = a_packed + (ptrdiff_t)ir * kc;
            double *c = pr->c + ic + ir + col * pr->ldc;
            if (in_band(pr, ic + ir)) {
                band_tile(pr, ic + ir, rows, cols, p0, kc, a, b, c);
                continue;
            }
            const int where = tile_in_part(pr->part, ic + ir, rows, col, cols);
            if (where == 1 && rows == mr && cols == nr) {
                if (tile_c && !spread)
                    prefetch_c_tile(c, pr->ldc, mr, nr);
                if ((rq.every || spread) && kr->ukernel_prefetch) {
                    const int before = ir / mr * share;
                    rq.c = tile_c && spread ? c : NULL;
                    rq.b_next =
                        b_next && before < panel_lines
                            ? (const char *)(b + (ptrdiff_t)nr * kc) + (ptrdiff_t)before * 64
                            : NULL;
                    rq.b_lines = panel_lines - before < share ? panel_lines - before : share;
                    kr->ukernel_prefetch(kc, a, b, c, pr->ldc, beta, &rq);
                } else {
                    kr->ukernel(kc, a, b, c, pr->ldc, beta);
                }
            } else if (where) {
                gemm_edge_tile(kr, kc, a, b, c, pr->ldc, rows, cols, beta, pr->part, ic + ir, col);
            }
        }
    }
}

void gemm_compute_rows(const gemm_problem *pr, ptrdiff_t j0, int n_block, int kc, double beta,
                       const double *b_packed, const double *a_packed, ptrdiff_t ic, int mc,
                       int jp_from, int jp_to)
{
    compute_rows(pr, j0, n_block, 0, kc, beta, b_packed, a_packed, ic, mc, jp_from, jp_to, NULL);
}

void gemm_rows_reached(const gemm_problem *pr, ptrdiff_t j0, int n_block, int jp_from, int jp_to,
                       ptrdiff_t *m_from, ptrdiff_t *m_to)
{
    const int mr = pr->kernel->mr, nr = pr->kernel->nr;
    const ptrdiff_t col_from = j0 + (ptrdiff_t)jp_from * nr;
    const ptrdiff_t col_to = j0 + ((ptrdiff_t)jp_to * nr < n_block ? jp_to * nr : n_block);
    if (pr->part == GEMM_LOWER && *m_from < col_from / mr * mr)
        *m_from = col_from / mr * mr;
    if (pr->part == GEMM_UPPER && *m_to > col_to)
        *m_to = col_to;
}

/* A band tile's micro-panel (rows [i0, i0 + rows), packed at panel over steps [p0, p0 + kc)):
 * each row's entries beyond its triangle made zero where the tile sums them (the tile's
 * diagonal block), its diagonal alpha where unit. Those entries of A are not referenced by BLAS's
 * rules (they may hold anything, NaN included): packed as they were, they are overwritten here
 * before any use. */
static void mask_band_panel(const gemm_problem *pr, ptrdiff_t i0, int rows, ptrdiff_t p0, int kc,
                            double *panel)
{
    const gemm_band *band = pr->band;
    const int mr = pr->kernel->mr;
    const ptrdiff_t tile = i0 - band->at; /* the diagonal step of its first row */
    for (int l = 0; l < rows; l++) {
        const ptrdiff_t row = tile + l;
        const ptrdiff_t lo = band->lower ? row + 1 : tile, hi = band->lower ? tile + rows : row;
        for (ptrdiff_t p = lo > p0 ? lo : p0; p < hi && p < p0 + kc; p++)
            panel[(p - p0) * mr + l] = 0.0;
        if (band->unit && row >= p0 && row < p0 + kc)
            panel[(row - p0) * mr + l] = pr->alpha;
    }
}

/* gemm_pack_a_of where a band is: rows outside it whole, each micro-panel of the band over the
 * steps its tile sums only (about half of the band's square), then masked. */
static void pack_a_band(const gemm_problem *pr, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                        double *out)
{
    const gemm_kernel *kr = pr->kernel;
    const int mr = kr->mr;
    const ptrdiff_t band_from = pr->band->at, band_to = pr->band->at + pr->k;
    for (int r = 0; r < mc;) {
        const ptrdiff_t row = i0 + r;
        double *panel = out + (ptrdiff_t)r * kc;
        if (row >= band_from && row < band_to) {
            const int rows = mc - r < mr ? mc - r : mr;
            int from, to;
            if (band_steps(pr, row, rows, p0, kc, &from, &to, NULL)) {
                kr->pack_a(&pr->a, row, rows, p0 + from, to - from, pr->alpha, mr,
                           panel + (ptrdiff_t)from * mr);
                mask_band_panel(pr, row, rows, p0, kc, panel);
            }
            r += rows;
        } else {
            const ptrdiff_t end = row < band_from && band_from < i0 + mc ? band_from : i0 + mc;
            kr->pack_a(&pr->a, row, (int)(end - row), p0, kc, pr->alpha, mr, panel);
            r = (int)(end - i0);
        }
    }
}

void gemm_pack_a_of(const gemm_problem *pr, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc, double *out)
{
    if (pr->band) {
        pack_a_band(pr, i0, mc, p0, kc, out);
        return;
    }
    const gemm_kernel *kr = pr->kernel;
    const gemm_pair *pair = pr->pair;
    const ptrdiff_t split = pair ? pair->split : pr->k;
    if (p0 + kc <= split || p0 >= split) {
        const bool second = p0 >= split;
        kr->pack_a(second ? &pair->a2 : &pr->a, i0, mc, second ? p0 - split : p0, kc, pr->alpha,
                   kr->mr, out);
        return;
    }
    /* Across the split: a micro-panel at a time (pack_a puts micro-panels kc apart, its own
     * kc), its first steps from a, the rest from a2. */
    const int first = (int)(split - p0), mr = kr->mr;
    for (int r = 0; r < mc; r += mr) {
        const int rows = mc - r < mr ? mc - r : mr;
        double *panel = out + (ptrdiff_t)r * kc;
        kr->pack_a(&pr->a, i0 + r, rows, p0, first, pr->alpha, mr, panel);
        kr->pack_a(&pair->a2, i0 + r, rows, 0, kc - first, pr->alpha, mr,
                   panel + (ptrdiff_t)first * mr);
    }
}

void gemm_pack_b_of(const gemm_problem *pr, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                    int first_panel, int last_panel, double *out)
{
    const gemm_kernel *kr = pr->kernel;
    const gemm_pair *pair = pr->pair;
    const ptrdiff_t split = pair ? pair->split : pr->k;
    const int nr = kr->nr;
    if (p0 + kc <= split || p0 >= split) {
        const bool second = p0 >= split;
        kr->pack_b(second ? &pair->b2 : &pr->b, second ? p0 - split : p0, kc, j0, n_block,
                   first_panel, last_panel, nr, out);
        return;
    }
    /* A panel at a time: pack_b puts panel jp at jp * nr * (its kc), so each call is given the
     * origin that lands its panel at jp * nr * kc, then nr * first further for b2's steps. */
    const int first = (int)(split - p0), rest = kc - first;
    for (int jp = first_panel; jp < last_panel; jp++) {
        double *panel = out + (ptrdiff_t)jp * nr * kc;
        kr->pack_b(&pr->b, p0, first, j0, n_block, jp, jp + 1, nr,
                   panel - (ptrdiff_t)jp * nr * first);
        kr->pack_b(&pair->b2, 0, rest, j0, n_block, jp, jp + 1, nr,
                   panel + (ptrdiff_t)nr * first - (ptrdiff_t)jp * nr * rest);
    }
}

/* Rows [ic, ic + mc) of op(A) packed into a_buf for the k block at p0. When op(B) is op(A)^T,
 * the micro-panels whose rows are columns of the B block's panels [jp_from, jp_to) (this
 * member's own: packed by it, or by its grid column before the barrier) are copied from
 * there, in cache, instead of being read from A again: the same values times alpha, the same
 * bits. syrk packed as much as a GEMM of twice its flops (docs/gemm.md). */
static void pack_a_rows(const gemm_problem *pr, ptrdiff_t j0, int n_block, int jp_from, int jp_to,
                        const double *b_packed, ptrdiff_t ic, int mc, ptrdiff_t p0, int kc,
                        double *a_buf)
{
    const gemm_kernel *kr = pr->kernel;
    const int mr = kr->mr, nr = kr->nr;
    int t_from = 0, t_to = 0; /* micro-panels copied from B */
    if (pr->b_is_a_transposed && kr->pack_a_from_b) {
        const ptrdiff_t lo = j0 + (ptrdiff_t)jp_from * nr;
        const ptrdiff_t hi =
            j0 + ((ptrdiff_t)jp_to * nr < n_block ? (ptrdiff_t)jp_to * nr : n_block);
        const int tiles = (mc + mr - 1) / mr;
        t_from = ic >= lo ? 0 : (int)((lo - ic + mr - 1) / mr);
        t_to = ic + mc <= hi ? tiles : hi > ic ? (int)((hi - ic) / mr) : 0;
    }
    if (t_from >= t_to) {
        gemm_pack_a_of(pr, ic, mc, p0, kc, a_buf);
        return;
    }
    const int copied_from = t_from * mr, copied_to = t_to * mr < mc ? t_to * mr : mc;
    if (copied_from > 0)
        gemm_pack_a_of(pr, ic, copied_from, p0, kc, a_buf);
    kr->pack_a_from_b(b_packed, kc, ic + copied_from - j0, copied_to - copied_from, pr->alpha,
                      a_buf + (ptrdiff_t)copied_from * kc);
    if (copied_to < mc)
        gemm_pack_a_of(pr, ic + copied_to, mc - copied_to, p0, kc,
                       a_buf + (ptrdiff_t)copied_to * kc);
}

/* The region of op(x) rows [i0, i0 + rows) x columns [j0, j0 + cols) as runs of memory: rows
 * [i0, i0 + mc) of op(A) over steps [p0, p0 + kc), or steps [p0, p0 + kc) of op(B) over its
 * columns [j0, j0 + nb). */
static void prefetch_region(const gemm_operand *x, ptrdiff_t i0, int rows, ptrdiff_t j0, int cols,
                            gemm_prefetch *pf)
{
    const double *origin = x->trans ? x->p + j0 + i0 * x->ld : x->p + i0 + j0 * x->ld;
    pf->run = (const char *)origin;
    pf->seg = (ptrdiff_t)sizeof(double) * (x->trans ? cols : rows);
    pf->ld = (ptrdiff_t)sizeof(double) * x->ld;
    pf->runs_left = (x->trans ? rows : cols) - 1;
    pf->line = pf->run - ((uintptr_t)pf->run & 63);
    pf->end = pf->run + pf->seg - 1;
}

void gemm_prefetch_rows(const gemm_problem *pr, ptrdiff_t i0, int rows, ptrdiff_t p0, int kc,
                        gemm_prefetch *pf)
{
    prefetch_region(&pr->a, i0, rows, p0, kc, pf);
}

void gemm_compute_block_then(const gemm_problem *pr, ptrdiff_t j0, int n_block, ptrdiff_t p0,
                             int kc, const double *b_packed, ptrdiff_t m_from, ptrdiff_t m_to,
                             int jp_from, int jp_to, double *a_buf, gemm_prefetch *after)
{
    const gemm_kernel *kr = pr->kernel;
    /* beta applies once, with the first k block; later blocks accumulate. */
    const double beta = p0 == 0 ? pr->beta : 1.0;
    gemm_rows_reached(pr, j0, n_block, jp_from, jp_to, &m_from, &m_to);
    /* With the next block's source asked for while this one is computed, both must fit L2
     * beside B's panels and C: blocks of half the A block's rows (2000 x 64 x 2000 on Zen 5,
     * with 192 rows 1.11x, with 96 1.17-1.21x, with 64 1.19x the packing loops). Rows fewer
     * than a whole A block stay one block: halved, 512^3 on two members lost 2% (docs/gemm.md).
     * Where the kernel also asks for the next B panel and C (spread_requests: Intel), the halved
     * blocks stream B's panels twice as often, which pays only while an A block serves few
     * columns: on the Xeon (model 207) 2000 x n x 2000 with n = 192 / 400 1.05x / 1.02x asking,
     * n = 800 0.98x; without, 2000^3 1.019x, 3072^3 1.023x, 2000 x 2000 x 64 1.049x (one
     * thread), 2048^3 1.017x (two). */
    const int served = (jp_to - jp_from) * kr->nr < n_block ? (jp_to - jp_from) * kr->nr : n_block;
    const bool ask = kr->ukernel_prefetch && !pr->pair && m_to - m_from >= kr->mc &&
                     (!kr->spread_requests || served <= kr->mc);
    const int step = ask ? gemm_block_rows_of(kr, m_to - m_from, kr->mc / 2)
                         : gemm_block_rows(kr, m_to - m_from);
    for (ptrdiff_t ic = m_from; ic < m_to; ic += step) {
        const int mc = (int)(m_to - ic < step ? m_to - ic : step);
        pack_a_rows(pr, j0, n_block, jp_from, jp_to, b_packed, ic, mc, p0, kc, a_buf);
        gemm_prefetch next, *pf = after;
        const ptrdiff_t next_ic = ic + mc;
        if (ask && next_ic < m_to) {
            prefetch_region(&pr->a, next_ic, (int)(m_to - next_ic < step ? m_to - next_ic : step),
                            p0, kc, &next);
            pf = &next;
        }
        compute_rows(pr, j0, n_block, p0, kc, beta, b_packed, a_buf, ic, mc, jp_from, jp_to, pf);
    }
}

void gemm_compute_block(const gemm_problem *pr, ptrdiff_t j0, int n_block, ptrdiff_t p0, int kc,
                        const double *b_packed, ptrdiff_t m_from, ptrdiff_t m_to, int jp_from,
                        int jp_to, double *a_buf)
{
    gemm_compute_block_then(pr, j0, n_block, p0, kc, b_packed, m_from, m_to, jp_from, jp_to, a_buf,
                            NULL);
}

/* Whether the unpacked path's re-read operand, k columns ld doubles apart, has them all in one
 * set of a 4 KiB-way L1 (ld a multiple of 512): then it ran 4-5% behind packing on Zen 5
 * (256 x 256 x 64 and 512 x 256 x 32 at lda 512; 62 against 82 GFLOP/s in its first form). Spread
 * over 2, 4 or 8 sets (lda 256, 128, 192) it beats packing: 1.09-1.10x on one thread, 1.12-1.25x
 * on two, at 128-256 (docs/gemm.md). */
static bool columns_in_one_l1_set(ptrdiff_t ld, ptrdiff_t k)
{
    return k > 8 && ld * (ptrdiff_t)sizeof(double) % 4096 == 0;
}

double gemm_unpacked_reread_max(const gemm_kernel *kr)
{
    const double half =
        kr->l2 > 0 ? (double)kr->l2 / 2.0 / (double)sizeof(double) : GEMM_UNPACKED_A_MAX;
    return kr->unpacked_narrow_tiles ? half / 2.0 : half;
}

/* syrk's strips (part.c) read op(A)'s columns in place: off their 64-byte lines (as
 * NumPy's and glibc's large arrays sit, 16 bytes past a page) each 16-row column spans three
 * lines, not two. Packing copies them onto lines. Measured on the Xeon (model 207), one thread,
 * dsyrk L N with k = n, beta 1, 16 bytes off, strips against packing: 128 42.1 / 42.5 us, 144 51.7
 * / 53.6, 160 79.7 / 71.8, 192 150 / 126, 224 242 / 197; on their lines the strips won up to 176
 * and were level at 192. From op(A) of STRIPS_OFF_LINE_PACK elements, strips off their lines
 * pack instead, where packing computes the strips' bits: alpha +-1 and beta 0 or 1 (exact
 * scalings, so the same sums give the same results) and one k block; other scalings keep the
 * strips, so results never depend on where the arrays sit. Not syr2k's: packed, it sums both
 * products in one chain (gemm_pair), the strips in two. dpotrf 192-448 off the line ran
 * 1.04-1.09x faster in quiet spells, level in a slow one. */
#define STRIPS_OFF_LINE_PACK 24576.0

static bool strips_better_packed(const gemm_problem *pr, double reread)
{
    const bool off_line = (uintptr_t)pr->a.p % 64 != 0 || pr->a.ld % 8 != 0;
    const bool same_bits = (pr->alpha == 1.0 || pr->alpha == -1.0) &&
                           (pr->beta == 0.0 || pr->beta == 1.0) && pr->k <= pr->kernel->kc;
    return pr->part != GEMM_ALL && pr->b_is_a_transposed && reread >= STRIPS_OFF_LINE_PACK &&
           off_line && same_bits;
}

bool gemm_prefers_unpacked(const gemm_problem *pr)
{
    const ptrdiff_t m = pr->m, n = pr->n, k = pr->k;
    if (pr->kernel->packed_only)
        return false;
    if (gemm_is_small(m, n, k))
        return true;
    /* op(A) = A^T alone is read from a transposed copy: on the stack, or beyond it (all of C
     * only: a triangle's 8-column strips on the copy ran syrk L T 256 at 0.87x packing, 128 at
     * 1.03x) in the packing buffer; with op(B) = B^T too, C^T = B A is computed from both operands
     * in place. */
    const bool both = pr->a.trans && pr->b.trans;
    const bool narrow = pr->kernel->unpacked_narrow_tiles;
    if (!pr->kernel->unpacked_fast || (narrow && pr->a.trans && m * k > GEMM_SMALL_TRANSPOSE_MAX) ||
        (gemm_unpacked_copies_a(pr) && (pr->part != GEMM_ALL || m * k > GEMM_UNPACKED_A_MAX)))
        return false;
    /* The unpacked AVX-512 path re-reads A (m x k) once per 12 columns of C and B once per 16
     * rows (both transposed: B (n x k) once per 8 rows of C, A once per 24 columns). Measured on
     * Zen 5 against packing: it wins while the re-read operand stays in L1 whatever the other
     * side, or in half of L2 when the other side is at most 256 (square up to 256: 104 against
     * 99 GFLOP/s; 2000 x 16 x 16: 83 against 29; 384^3 loses; both transposed, 96-192:
     * 1.01-1.10x, 256 level). */
    const double reread = both ? (double)n * (double)k : (double)m * (double)k;
    const ptrdiff_t other = both ? m : n;
    /* The re-read operand's leading dimension: op(A) = A^T alone is read from its copy (m). */
    const ptrdiff_t reread_ld = both ? pr->b.ld : pr->a.trans ? m : pr->a.ld;
    if (other >= 64 && columns_in_one_l1_set(reread_ld, k))
        return false;
    /* op(A) = A: then half of L2 for A is the whole condition, whatever n, where B's part of a
     * tile is read as streams (op(B) = B: its columns) or stays in L1 (op(B) = B^T, k <= 256: k
     * rows of 12, each re-read by every 16 rows of A; at k = 1000-4000 a row a page, 0.80-0.89x).
     * Against packing, one thread: 16 x 4000 x 4000 NN 2.06x, 64 x 4000 x 1000 NN 1.28x,
     * 1000 x 1000 x 16 NN 1.13x and NT 1.22x, 256 x 2000 x 256 NN 1.11x and NT 1.04x. */
    /* The AVX2 path's 6-column tiles (narrow), TELA_ARCH=avx2 on the Xeon (model 207), against
     * packing: NN 96-192 1.20-1.61x, 224-256 level, 16 x 4000 x 4000 1.67x, 32 x 2000 x 2000
     * 1.36x, 512 x 512 x 64 1.21x, 2000 x 2000 x 32 1.07x, but 128 x 2000 x 256 0.94x and
     * 256 x 2000 x 256 0.95x; TN 128 on the copy 0.94x, TT 128 (A^T beyond the stack) packs. */
    const bool b_any_width = !both && (!pr->b.trans || k <= 256) && (!narrow || m <= 64 || k <= 64);
    /* A triangle is computed in strips of 8 columns (part.c): tiles of 4 + 4 columns on the AVX2
     * path, 8 accumulators for its 2 FMA ports: syrk L N 256 0.69x, syr2k 256 0.7x, 1000 x 32
     * 0.8x packing; 64 (A in L1) 2x. */
    const bool narrow_strips = narrow && pr->part != GEMM_ALL;
    if (strips_better_packed(pr, reread))
        return false;
    return reread <= 6144.0 || (!narrow_strips && reread <= gemm_unpacked_reread_max(pr->kernel) &&
                                (other <= 256 || b_any_width));
}

void gemm_small(const gemm_problem *pr)
{
    for (ptrdiff_t j = 0; j < pr->n; j++) {
        double *cj = pr->c + j * pr->ldc;
        gemm_scale_c(cj, pr->ldc, pr->m, 1, pr->beta);
        for (ptrdiff_t p = 0; p < pr->k; p++) {
            const double t = pr->alpha * gemm_at(&pr->b, p, j);
            if (!pr->a.trans) {
                const double *ap = pr->a.p + p * pr->a.ld;
                for (ptrdiff_t i = 0; i < pr->m; i++)
                    cj[i] += t * ap[i];
            } else {
                for (ptrdiff_t i = 0; i < pr->m; i++)
                    cj[i] += t * pr->a.p[p + i * pr->a.ld];
            }
        }
    }
}

int gemm_panels_of(int n_block, int nr)
{
    return (n_block + nr - 1) / nr;
}

/* n cut into as few blocks as most allows, of even size in whole units
 * (<= most: most is whole units). */
static int even_blocks(ptrdiff_t n, int most, int unit)
{
    if (n <= most)
        return (int)n;
    const ptrdiff_t blocks = (n + most - 1) / most;
    const ptrdiff_t even = (n + blocks - 1) / blocks;
    return (int)((even + unit - 1) / unit * unit);
}

/* even_blocks with most rounded down to whole units, at least one. */
static int even_blocks_at_most(ptrdiff_t n, int most, int unit)
{
    const int whole = most / unit * unit;
    return even_blocks(n, whole > unit ? whole : unit, unit);
}

int gemm_block_rows(const gemm_kernel *kr, ptrdiff_t m)
{
    return gemm_block_rows_of(kr, m, kr->mc);
}

int gemm_block_rows_of(const gemm_kernel *kr, ptrdiff_t m, int most)
{
    return even_blocks_at_most(m, most, kr->mr);
}

int gemm_block_columns(const gemm_kernel *kr, ptrdiff_t n)
{
    return even_blocks(n, kr->nc, kr->nr);
}

int gemm_block_columns_of(const gemm_kernel *kr, ptrdiff_t n, int most)
{
    return even_blocks_at_most(n, most, kr->nr);
}

int gemm_block_depth(const gemm_kernel *kr, ptrdiff_t k)
{
    return even_blocks(k, kr->kc, kr->kc % 8 == 0 ? 8 : 1);
}

size_t gemm_b_buffer_len(const gemm_kernel *kr, int nc, int kc)
{
    /* A multiple of 8 doubles, so what follows stays 64-byte aligned. */
    size_t len = (size_t)gemm_panels_of(nc, kr->nr) * kr->nr * kc;
    return (len + 7) / 8 * 8;
}

size_t gemm_serial_buffer_len(const gemm_kernel *kr, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k)
{
    (void)m; /* A is packed mc rows at a time */
    const int kc_max = (int)(k < kr->kc ? k : kr->kc);
    const int nc_max = (int)(n < kr->nc ? n : kr->nc);
    return gemm_b_buffer_len(kr, nc_max, kc_max) + (size_t)kr->mc * kc_max;
}

bool gemm_narrow_b(const gemm_problem *pr)
{
    /* One A block: each element of B is used m times, and packing B from memory took a third
     * of 64 x 2000 x 2000. Then B blocks of mc columns (the A block's size), so that the next
     * one's source fits L2 beside it and is asked for while it is computed (compute_block):
     * 1.06-1.11x at 64 x 2000 x 2000 and 100 x 10000 x 100 on Zen 5 (docs/gemm.md). */
    return pr->kernel->ukernel_prefetch && !pr->pair && pr->m <= pr->kernel->mc;
}

/* Columns of the widest B block the serial loops pack for pr: nc, or mc where gemm_narrow_b
 * (the narrow blocks' buffers, a third of the wide ones on Zen 5). */
static int widest_b_block(const gemm_problem *pr)
{
    const gemm_kernel *kr = pr->kernel;
    const int whole_mc = kr->mc / kr->nr * kr->nr;
    const int most = !gemm_narrow_b(pr) ? kr->nc : whole_mc > kr->nr ? whole_mc : kr->nr;
    return (int)(pr->n < most ? pr->n : most);
}

size_t gemm_problem_buffer_len(const gemm_problem *pr)
{
    const gemm_kernel *kr = pr->kernel;
    const int kc_max = (int)(pr->k < kr->kc ? pr->k : kr->kc);
    return gemm_b_buffer_len(kr, widest_b_block(pr), kc_max) + (size_t)kr->mc * kc_max;
}

/* The blocked loops over a buffer of gemm_problem_buffer_len doubles. */
static void packed_loops(const gemm_problem *pr, double *buf)
{
    const gemm_kernel *kr = pr->kernel;
    const int kc_max = (int)(pr->k < kr->kc ? pr->k : kr->kc);
    double *b_buf = buf, *a_buf = buf + gemm_b_buffer_len(kr, widest_b_block(pr), kc_max);
    const bool narrow = gemm_narrow_b(pr);
    const int block =
        narrow ? gemm_block_columns_of(kr, pr->n, kr->mc) : gemm_block_columns(kr, pr->n);
    const int depth = gemm_block_depth(kr, pr->k);
    for (ptrdiff_t jc = 0; jc < pr->n; jc += block) {
        int nb = (int)(pr->n - jc < block ? pr->n - jc : block);
        for (ptrdiff_t pc = 0; pc < pr->k; pc += depth) {
            int kb = (int)(pr->k - pc < depth ? pr->k - pc : depth);
            gemm_pack_b_of(pr, pc, kb, jc, nb, 0, gemm_panels_of(nb, kr->nr), b_buf);
            gemm_prefetch next, *after = NULL;
            if (narrow) {
                /* The next block: deeper in k, else the next columns from the top. */
                const ptrdiff_t next_pc = pc + kb < pr->k ? pc + kb : 0;
                const ptrdiff_t next_jc = pc + kb < pr->k ? jc : jc + nb;
                if (next_jc < pr->n) {
                    const int next_kb = (int)(pr->k - next_pc < depth ? pr->k - next_pc : depth);
                    const int next_nb = (int)(pr->n - next_jc < block ? pr->n - next_jc : block);
                    prefetch_region(&pr->b, next_pc, next_kb, next_jc, next_nb, &next);
                    after = &next;
                }
            }
            gemm_compute_block_then(pr, jc, nb, pc, kb, b_buf, 0, pr->m, 0,
                                    gemm_panels_of(nb, kr->nr), a_buf, after);
        }
    }
}

/* Depth of the blocks packed_on_stack runs. */
#define GEMM_STACK_KC 64

/* The blocked loops with blocks of one tile, GEMM_STACK_KC deep, packed on the stack (16 KiB):
 * how a packed_only problem runs when no packing buffer can be had (out of memory), as it
 * cannot take the unpacked path. Another depth sums in another order: other bits, only then. */
static void packed_on_stack(const gemm_problem *pr)
{
    gemm_kernel tiny = *pr->kernel;
    tiny.mc = tiny.mr;
    tiny.nc = tiny.nr;
    tiny.kc = GEMM_STACK_KC;
    gemm_problem q = *pr;
    q.kernel = &tiny;
    double buf[GEMM_STACK_KC * (GEMM_MR_MAX + GEMM_NR_MAX)] __attribute__((aligned(64)));
    packed_loops(&q, buf);
}

void gemm_serial_in(const gemm_problem *pr, double *buf, size_t len)
{
    gemm_serial_on_path(pr, gemm_prefers_unpacked(pr), buf, len);
}

bool gemm_unpacked_copies_a(const gemm_problem *pr)
{
    return pr->a.trans && !pr->b.trans && pr->m * pr->k > GEMM_SMALL_TRANSPOSE_MAX;
}

gemm_problem gemm_with_a_copied(const gemm_problem *pr, double *at)
{
    pr->kernel->transpose(pr->a.p, pr->a.ld, pr->k, pr->m, at, pr->m);
    gemm_problem copy = *pr;
    copy.a = (gemm_operand){at, pr->m, false};
    return copy;
}

bool gemm_unpacked_columns_in(const gemm_problem *pr, ptrdiff_t j_from, ptrdiff_t j_to, double *buf,
                              size_t len)
{
    if (!gemm_unpacked_copies_a(pr)) {
        gemm_unpacked_columns(pr, j_from, j_to);
        return true;
    }
    const size_t need = (size_t)pr->m * (size_t)pr->k;
    if (buf && len < need)
        return false;
    bool owned = false;
    double *at = buf ? buf : par_scratch_thread(PAR_SCRATCH_PACK, need * sizeof(double), &owned);
    if (!at) { /* out of memory: A^T read in place, at every width alike */
        gemm_unpacked_columns(pr, j_from, j_to);
        return true;
    }
    const gemm_problem copy = gemm_with_a_copied(pr, at);
    gemm_unpacked_columns(&copy, j_from, j_to);
    par_scratch_release(at, owned);
    return true;
}

void gemm_serial_on_path(const gemm_problem *pr, bool unpacked, double *buf, size_t len)
{
    /* False only for a caller's buffer too small for A^T's copy: then packing into it. */
    if (unpacked && gemm_unpacked_columns_in(pr, 0, pr->n, buf, len))
        return;
    const size_t need = gemm_problem_buffer_len(pr);
    bool owned = false;
    if (!buf || len < need)
        buf = par_scratch_thread(PAR_SCRATCH_PACK, need * sizeof(double), &owned);
    if (!buf) {
        /* Only when out of memory (a thread keeps the largest serial need, par/scratch.c): the
         * path that packs nothing, or the least packing. */
        if (pr->kernel->packed_only)
            packed_on_stack(pr);
        else
            gemm_unpacked_columns(pr, 0, pr->n);
        return;
    }
    packed_loops(pr, buf);
    par_scratch_release(buf, owned);
}

void gemm_serial(const gemm_problem *pr)
{
    gemm_serial_in(pr, NULL, 0);
}
