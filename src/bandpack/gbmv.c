/* gbmv.c — tela_dgbmv: y = alpha op(A) x + beta y, A m x n with kl sub- and ku super-diagonals in
 * BLAS's band storage (element (i, j) at a[ku + i - j + j lda]).
 *
 * Column j's band is one contiguous run. op = N adds alpha x_j times the run to y: members own
 * blocks of GBMV_ROWS rows of y and take, of every column meeting their rows, the part inside
 * them. Row i then receives the same multiply-adds in the same column order at any width (one
 * fused or unfused operation per element, whatever run it is part of), so the split changes no
 * bit. op = T makes y_j the dot product of run j with x: members own columns, and each dot is
 * done whole by one member, so again no bit depends on the width. */
#include "bandpack/bandpack.h"
#include "par/engine.h"

/* Rows of y per block for op = N: members' boundaries fall on whole blocks, 2 KiB of y, so with
 * unit increments no cache line of y is written by two members. */
#define GBMV_ROWS 256

typedef struct gbmv_job {
    const bp_segments *seg;
    bool trans;
    tela_int m, n, kl, ku;
    double alpha, beta;
    const double *a;
    tela_int lda;
    const double *x; /* element 0 */
    tela_int incx;
    double *y; /* element 0 */
    tela_int incy;
} gbmv_job;

/* op = N on rows [s, e) of y: every column whose band meets them, in column order. */
static void gbmv_rows(const gbmv_job *jb, tela_int s, tela_int e)
{
    bp_scale(e - s, jb->beta, jb->y + s * jb->incy, jb->incy);
    if (jb->alpha == 0.0)
        return;
    const tela_int j_from = s > jb->kl ? s - jb->kl : 0;
    const tela_int j_to = jb->n - e > jb->ku ? e + jb->ku : jb->n;
    for (tela_int j = j_from; j < j_to; j++) {
        const tela_int lo = j - jb->ku > s ? j - jb->ku : s;
        const tela_int hi = e - j > jb->kl ? j + jb->kl + 1 : e;
        /* Reference forms alpha x_j for every column, zero or not (no skip in dgbmv). */
        const double t = jb->alpha * jb->x[j * jb->incx];
        if (lo < hi)
            jb->seg->axpy(hi - lo, t, jb->a + (jb->ku + lo - j + j * jb->lda),
                          jb->y + lo * jb->incy, jb->incy);
    }
}

/* op = T on columns [c0, c1): y_j gets alpha times the dot product of band j with x. */
static void gbmv_columns(const gbmv_job *jb, tela_int c0, tela_int c1)
{
    bp_scale(c1 - c0, jb->beta, jb->y + c0 * jb->incy, jb->incy);
    if (jb->alpha == 0.0)
        return;
    for (tela_int j = c0; j < c1; j++) {
        const tela_int lo = j > jb->ku ? j - jb->ku : 0;
        const tela_int hi = jb->m - j > jb->kl ? j + jb->kl + 1 : jb->m;
        double temp = 0.0;
        if (lo < hi)
            temp = jb->seg->dot(hi - lo, jb->a + (jb->ku + lo - j + j * jb->lda),
                                jb->x + lo * jb->incx, jb->incx);
        /* Also for an empty band: alpha = Inf or NaN makes y_j NaN there, as in reference. */
        jb->y[j * jb->incy] += jb->alpha * temp;
    }
}

static void gbmv_body(tela_member *self, void *arg)
{
    const gbmv_job *jb = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    if (jb->trans) {
        gbmv_columns(jb, jb->n * r / w, jb->n * (r + 1) / w);
    } else {
        const tela_int blocks = (jb->m + GBMV_ROWS - 1) / GBMV_ROWS;
        const tela_int s = blocks * r / w * GBMV_ROWS, e = blocks * (r + 1) / w * GBMV_ROWS;
        gbmv_rows(jb, s, e < jb->m ? e : jb->m);
    }
}

static void gbmv_serial(const gbmv_job *jb)
{
    if (jb->trans)
        gbmv_columns(jb, 0, jb->n);
    else
        gbmv_rows(jb, 0, jb->m);
}

int tela_dgbmv(tela_par par, char trans, tela_int m, tela_int n, tela_int kl, tela_int ku,
               double alpha, const double *a, tela_int lda, const double *x, tela_int incx,
               double beta, double *y, tela_int incy)
{
    bool t;
    if (!bp_trans(trans, &t))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (kl < 0)
        return -4;
    if (ku < 0)
        return -5;
    if (lda < 1 || lda - 1 - kl < ku) /* lda < kl + ku + 1, without overflow */
        return -8;
    if (incx == 0)
        return -10;
    if (incy == 0)
        return -13;
    if (m == 0 || n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !a)
        return -7;
    if (alpha != 0.0 && !x)
        return -9;
    if (!y)
        return -12;
    const tela_int len_x = t ? m : n, len_y = t ? n : m;
    gbmv_job jb = {.seg = bp_segments_get(),
                   .trans = t,
                   .m = m,
                   .n = n,
                   .kl = kl,
                   .ku = ku,
                   .alpha = alpha,
                   .beta = beta,
                   .a = a,
                   .lda = lda,
                   .x = x + bp_first(len_x, incx),
                   .incx = incx,
                   .y = y + bp_first(len_y, incy),
                   .incy = incy};

    /* Elements moved: the band (columns that meet a row, times the band's height), x, y twice. */
    const tela_int cols = n - m > ku ? m + ku : n;
    const tela_int height = kl + ku + 1 < m ? kl + ku + 1 : m;
    const double elements = (double)cols * (double)height + (double)len_x + 2.0 * (double)len_y;
    const tela_int units = t ? n : (m + GBMV_ROWS - 1) / GBMV_ROWS;
    if (par.kind == TELA_PAR_SEQ || alpha == 0.0 || units < 2 ||
        elements < BP_PARALLEL_MIN_ELEMENTS ||
        tela_parallel_gated(tela_par_limit(par, units < 4096 ? (int)units : 4096), "dgbmv",
                            par_stream_estimate_ns(elements), 1, gbmv_body, &jb) < 0)
        gbmv_serial(&jb);
    return 0;
}
