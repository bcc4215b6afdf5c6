/* rank_packed.c — tela_dspr (A = alpha x x^T + A) and tela_dspr2 (A = alpha (x y^T + y x^T) + A)
 * on the packed triangle of A: each column's run updated by one rank-1 or rank-2 segment loop.
 *
 * Every element is updated once, by the loop over its own column's run, so members owning whole
 * columns change no bit whatever the split; the split only balances the runs' lengths (a packed
 * column's length grows or shrinks linearly, so the cuts follow a square root). Reference's skip
 * is kept: a column whose x_j (dspr) or x_j and y_j (dspr2) are zero is left as it is, NaN and
 * Inf in alpha or the other vector included. */
#include "bandpack/bandpack.h"
#include "par/engine.h"

#include <math.h>

typedef struct rank_job {
    const bp_segments *seg;
    bool upper, two;
    tela_int n;
    double alpha;
    const double *x; /* element 0 */
    tela_int incx;
    const double *y; /* element 0 (dspr2) */
    tela_int incy;
    double *ap;
} rank_job;

static void rank_columns(const rank_job *jb, tela_int c0, tela_int c1)
{
    const bp_shape s = bp_packed(jb->ap, jb->n, jb->upper);
    for (tela_int j = c0; j < c1; j++) {
        /* The column with its diagonal: rows [0, j] above it, [j, n) below. */
        const tela_int lo = jb->upper ? 0 : j, hi = jb->upper ? j + 1 : jb->n;
        double *a = jb->ap + bp_index(&s, lo, j);
        const double xj = jb->x[j * jb->incx];
        if (!jb->two) {
            if (xj != 0.0)
                jb->seg->rank1(hi - lo, a, jb->x + lo * jb->incx, jb->incx, jb->alpha * xj);
            continue;
        }
        const double yj = jb->y[j * jb->incy];
        if (xj != 0.0 || yj != 0.0)
            jb->seg->rank2(hi - lo, a, jb->x + lo * jb->incx, jb->incx, jb->alpha * yj,
                           jb->y + lo * jb->incy, jb->incy, jb->alpha * xj);
    }
}

/* Member r's first column of w: equal shares of the triangle's elements. */
static tela_int rank_cut(const rank_job *jb, tela_int r, tela_int w)
{
    if (r <= 0)
        return 0;
    if (r >= w)
        return jb->n;
    /* Upper: columns [0, c) hold about c^2 / 2 elements; lower: the mirror image. */
    const double share = jb->upper ? (double)r / (double)w : (double)(w - r) / (double)w;
    tela_int c = (tela_int)((double)jb->n * sqrt(share) + 0.5);
    c = c < 0 ? 0 : c > jb->n ? jb->n : c;
    return jb->upper ? c : jb->n - c;
}

static void rank_body(tela_member *self, void *arg)
{
    const rank_job *jb = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    rank_columns(jb, rank_cut(jb, r, w), rank_cut(jb, r + 1, w));
}

static void rank_update(tela_par par, const char *name, rank_job *jb)
{
    const double n = (double)jb->n;
    /* Elements moved: the triangle read and written, the vectors read. */
    const double elements = n * (n + 1) + (jb->two ? 2.0 : 1.0) * n;
    if (par.kind == TELA_PAR_SEQ || jb->n < 2 || elements < BP_PARALLEL_MIN_ELEMENTS ||
        tela_parallel_gated(tela_par_limit(par, jb->n < 4096 ? (int)jb->n : 4096), name,
                            par_stream_estimate_ns(elements), 1, rank_body, jb) < 0)
        rank_columns(jb, 0, jb->n);
}

int tela_dspr(tela_par par, char uplo, tela_int n, double alpha, const double *x, tela_int incx,
              double *ap)
{
    bool upper;
    if (!bp_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -5;
    if (n == 0 || alpha == 0.0)
        return 0;
    if (!x)
        return -4;
    if (!ap)
        return -6;
    rank_job jb = {.seg = bp_segments_get(),
                   .upper = upper,
                   .two = false,
                   .n = n,
                   .alpha = alpha,
                   .x = x + bp_first(n, incx),
                   .incx = incx,
                   .ap = ap};
    rank_update(par, "dspr", &jb);
    return 0;
}

int tela_dspr2(tela_par par, char uplo, tela_int n, double alpha, const double *x, tela_int incx,
               const double *y, tela_int incy, double *ap)
{
    bool upper;
    if (!bp_uplo(uplo, &upper))
        return -1;
    if (n < 0)
        return -2;
    if (incx == 0)
        return -5;
    if (incy == 0)
        return -7;
    if (n == 0 || alpha == 0.0)
        return 0;
    if (!x)
        return -4;
    if (!y)
        return -6;
    if (!ap)
        return -8;
    rank_job jb = {.seg = bp_segments_get(),
                   .upper = upper,
                   .two = true,
                   .n = n,
                   .alpha = alpha,
                   .x = x + bp_first(n, incx),
                   .incx = incx,
                   .y = y + bp_first(n, incy),
                   .incy = incy,
                   .ap = ap};
    rank_update(par, "dspr2", &jb);
    return 0;
}
