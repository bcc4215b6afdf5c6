/* symmetric.c — y = alpha A x + beta y for A symmetric in band (dsbmv) or packed (dspmv)
 * storage, reading the stored triangle once: each off-diagonal run of column j is added to y
 * (times alpha x_j, for the other triangle) and dotted with x (for y_j) in one pass.
 *
 * Rows are cut into blocks whose length depends on n alone (sym_rows_log2), and a column's run into
 * its parts in each block; y_j's dot product is the sum of those parts' dot products, in block
 * order, and y_j is finished (diagonal and dot product added) after every part of another column
 * has been added to it. A member owns blocks of rows: it adds every column's part in its rows to
 * y there, in the serial walk's column order, keeps each part's dot product, and after a barrier
 * finishes its own y_j from the parts of column j. The serial walk computes the same parts in the
 * same order without keeping them, so each y_i gets the same operations in the same order at
 * every width. A is read once either way.
 *
 * The column order: lower, first to last (row i's other parts come from columns before i, so
 * y_i is finished at column i); upper, steps of SYM_STEP columns from the last step to the first,
 * each step's columns first to last, its y_j finished at the step's end (row i's other parts
 * come from columns after i: later steps, then i's own). Long packed columns are then mostly read
 * forwards, which the hardware prefetchers follow better than a walk from the last column down. */
#include "bandpack/bandpack.h"
#include "par/engine.h"

/* Rows per block: at least SYM_ROWS_MIN, so a band narrower than that meets at most two blocks
 * per column; at most SYM_BLOCKS_MAX blocks, so a packed column splits into few runs (each costs
 * a call and a 16-term sum) and the partial sums stay small. A power of two, so members' rows of
 * y are whole cache lines. */
#define SYM_ROWS_MIN   256
#define SYM_BLOCKS_MAX 64
/* Columns per step of the upper walk: their y_j wait for the step's end on the stack. */
#define SYM_STEP 256

typedef struct sym_job {
    const bp_segments *seg;
    bp_shape s;
    double alpha, beta;
    const double *x; /* element 0 */
    tela_int incx;
    double *y; /* element 0 */
    tela_int incy;
    tela_int rows; /* per block: 1 << shift */
    int shift;
    tela_int blocks;  /* ceil(n / rows) */
    tela_int stride;  /* doubles of partials per block (rows + off-diagonals, rounded to 8) */
    double *partials; /* per block, a dot product per column meeting it (parallel path only) */
} sym_job;

/* log2 of the rows per block: a power of two, so the walks find a row's block by a shift. */
static int sym_rows_log2(tela_int n)
{
    int log2 = 0;
    while (((tela_int)1 << log2) < SYM_ROWS_MIN || ((tela_int)SYM_BLOCKS_MAX << log2) < n)
        log2++;
    return log2;
}

/* The first column whose off-diagonal run meets block b (partials are indexed from it). */
static tela_int sym_first_column(const sym_job *jb, tela_int b)
{
    const tela_int s = b * jb->rows;
    if (jb->s.upper)
        return s + 1;
    return s > jb->s.k ? s - jb->s.k : 0;
}

/* y_j's last step, one expression for both paths: y_j + alpha x_j a_jj + alpha (A's off-diagonal
 * part of row j) . x, reference's order of terms. */
static double sym_finish(double yj, double t1, double ajj, double alpha, double temp2)
{
    return yj + t1 * ajj + alpha * temp2;
}

/* The part of column j in rows [lo, hi) added to y (times t1); returns its dot product with x. */
static double sym_part(const sym_job *jb, tela_int j, tela_int lo, tela_int hi, double t1)
{
    return jb->seg->axpy_dot(hi - lo, t1, jb->s.a + bp_index(&jb->s, lo, j), jb->x + lo * jb->incx,
                             jb->incx, jb->y + lo * jb->incy, jb->incy);
}

/* Column j's parts in the rows [r0, r1) (whole blocks), one per block its off-diagonal run meets
 * there, added to y. With keep, each part's dot product with x is kept in partials for its block;
 * else they are summed in block order and the sum returned. */
static double sym_column_parts(const sym_job *jb, tela_int j, double t1, tela_int r0, tela_int r1,
                               bool keep)
{
    tela_int lo, hi;
    bp_off_diagonal(&jb->s, j, &lo, &hi);
    lo = lo > r0 ? lo : r0;
    hi = hi < r1 ? hi : r1;
    double temp2 = 0.0;
    for (tela_int c = lo >> jb->shift; lo < hi && c <= (hi - 1) >> jb->shift; c++) {
        const tela_int c_lo = c * jb->rows > lo ? c * jb->rows : lo;
        const tela_int c_hi = (c + 1) * jb->rows < hi ? (c + 1) * jb->rows : hi;
        const double part = sym_part(jb, j, c_lo, c_hi, t1);
        if (keep)
            jb->partials[c * jb->stride + (j - sym_first_column(jb, c))] = part;
        else
            temp2 += part;
    }
    return temp2;
}

static void sym_finish_column(const sym_job *jb, tela_int j, double t1, double temp2)
{
    double *yj = jb->y + j * jb->incy;
    *yj = sym_finish(*yj, t1, jb->s.a[bp_index(&jb->s, j, j)], jb->alpha, temp2);
}

/* ---- the serial walk ---- */

static void sym_serial(const sym_job *jb)
{
    const tela_int n = jb->s.n;
    bp_scale(n, jb->beta, jb->y, jb->incy);
    if (!jb->s.upper) {
        for (tela_int j = 0; j < n; j++) {
            const double t1 = jb->alpha * jb->x[j * jb->incx];
            sym_finish_column(jb, j, t1, sym_column_parts(jb, j, t1, 0, n, false));
        }
        return;
    }
    double temp2[SYM_STEP];
    for (tela_int q = (n - 1) / SYM_STEP; q >= 0; q--) {
        const tela_int c0 = q * SYM_STEP, c1 = c0 + SYM_STEP < n ? c0 + SYM_STEP : n;
        for (tela_int j = c0; j < c1; j++)
            temp2[j - c0] = sym_column_parts(jb, j, jb->alpha * jb->x[j * jb->incx], 0, n, false);
        for (tela_int j = c0; j < c1; j++)
            sym_finish_column(jb, j, jb->alpha * jb->x[j * jb->incx], temp2[j - c0]);
    }
}

/* ---- the parallel path ---- */

/* A member's rows [r0, r1) (whole blocks): scaled by beta, then every column's parts in them, in
 * the serial walk's column order, their dot products kept. A column's parts in the member's
 * blocks are one run of it, read as the serial walk reads it. */
static void sym_member_parts(const sym_job *jb, tela_int r0, tela_int r1)
{
    const tela_int n = jb->s.n, k = jb->s.k < n ? jb->s.k : n;
    bp_scale(r1 - r0, jb->beta, jb->y + r0 * jb->incy, jb->incy);
    if (jb->s.upper) {
        /* Columns [r0 + 1, last) meet the rows, in steps from the last. */
        const tela_int first = r0 + 1, last = n - r1 > k ? r1 + k : n;
        for (tela_int q = (last - 1) / SYM_STEP; q >= first / SYM_STEP; q--) {
            const tela_int c0 = q * SYM_STEP > first ? q * SYM_STEP : first;
            const tela_int c1 = (q + 1) * SYM_STEP < last ? (q + 1) * SYM_STEP : last;
            for (tela_int j = c0; j < c1; j++)
                sym_column_parts(jb, j, jb->alpha * jb->x[j * jb->incx], r0, r1, true);
        }
    } else {
        /* Columns [first, r1 - 1) meet the rows. */
        for (tela_int j = r0 > k ? r0 - k : 0; j < r1 - 1; j++)
            sym_column_parts(jb, j, jb->alpha * jb->x[j * jb->incx], r0, r1, true);
    }
}

/* Block b's y_j: the kept parts of column j summed in block order, as the serial walk sums
 * them. */
static void sym_block_finish(const sym_job *jb, tela_int b)
{
    const tela_int n = jb->s.n;
    const tela_int s = b * jb->rows, e = s + jb->rows < n ? s + jb->rows : n;
    for (tela_int j = s; j < e; j++) {
        tela_int lo, hi;
        bp_off_diagonal(&jb->s, j, &lo, &hi);
        double temp2 = 0.0;
        if (lo < hi)
            for (tela_int c = lo >> jb->shift; c <= (hi - 1) >> jb->shift; c++)
                temp2 += jb->partials[c * jb->stride + (j - sym_first_column(jb, c))];
        sym_finish_column(jb, j, jb->alpha * jb->x[j * jb->incx], temp2);
    }
}

static void sym_body(tela_member *self, void *arg)
{
    const sym_job *jb = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    const tela_int b0 = jb->blocks * r / w, b1 = jb->blocks * (r + 1) / w;
    const tela_int r1 = b1 << jb->shift;
    sym_member_parts(jb, b0 << jb->shift, r1 < jb->s.n ? r1 : jb->s.n);
    /* Every block's parts are kept before any y_j is finished from them. */
    tela_barrier(self);
    for (tela_int b = b0; b < b1; b++)
        sym_block_finish(jb, b);
}

void bp_symmetric_product(tela_par par, const char *name, const bp_shape *s, double alpha,
                          const double *x, tela_int incx, double beta, double *y, tela_int incy)
{
    const tela_int n = s->n, k = s->k < n ? s->k : n - 1;
    if (alpha == 0.0) {
        bp_scale(n, beta, y, incy);
        return;
    }
    sym_job jb = {.seg = bp_segments_get(),
                  .s = *s,
                  .alpha = alpha,
                  .beta = beta,
                  .x = x,
                  .incx = incx,
                  .y = y,
                  .incy = incy,
                  .shift = sym_rows_log2(n)};
    jb.rows = (tela_int)1 << jb.shift;
    jb.blocks = (n + jb.rows - 1) >> jb.shift;
    jb.stride = (jb.rows + k + 7) / 8 * 8;
    /* Elements moved: the stored triangle, x, y twice. */
    const double stored = (double)(k + 1) * (double)n - (double)k * (double)(k + 1) / 2;
    const double elements = stored + 3.0 * (double)n;
    if (par.kind == TELA_PAR_SEQ || jb.blocks < 2 || elements < BP_PARALLEL_MIN_ELEMENTS) {
        sym_serial(&jb);
        return;
    }
    bool owned;
    const size_t bytes = (size_t)jb.blocks * (size_t)jb.stride * sizeof(double);
    jb.partials = par_scratch_region(par, PAR_SCRATCH_PACK, bytes, &owned);
    if (!jb.partials) { /* no memory (or inside a region): the serial walk, the same bits */
        sym_serial(&jb);
        return;
    }
    const int limit = jb.blocks < SYM_BLOCKS_MAX ? (int)jb.blocks : SYM_BLOCKS_MAX;
    const int used = tela_parallel_gated(tela_par_limit(par, limit), name,
                                         par_stream_estimate_ns(elements), 2, sym_body, &jb);
    par_scratch_release(jb.partials, owned);
    if (used < 0) { /* a bad policy (reported): nothing was computed */
        jb.partials = NULL;
        sym_serial(&jb);
    }
}
