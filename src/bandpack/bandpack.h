/* bandpack.h — internal entry points of src/bandpack, the level-2 BLAS on band and packed
 * storage: dgbmv, dsbmv, dspmv, dspr, dspr2, dtbmv, dtbsv, dtpmv, dtpsv.
 *
 * A column of band or packed storage is one contiguous run, so every routine is a walk over
 * columns that hands runs ("segments") to a few loops: those loops are the only vectorised code,
 * built once per ISA from segments_body.h and chosen once (bp_segments_get). Symmetric and
 * triangular matrices, banded or packed, are one shape (bp_shape): packed is the band with
 * k = n - 1 off-diagonals at other addresses. */
#ifndef TELA_BANDPACK_H
#define TELA_BANDPACK_H

#include "tela.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- the loops over one segment (segments_*.c, select.c) ---------------------------------------
 * a is a contiguous run of a column; x and y are vectors addressed x[i * incx] (incx may be
 * negative: the pointer is then to the element the run starts with, and the run walks down).
 * An element written by axpy, rank1 or rank2 gets one multiply-add per term, fused (AVX2,
 * AVX-512) or not (generic) alike in every part of a loop, so its bits do not depend on the run
 * it is part of; a dot product's order of additions depends on len alone, never on addresses.
 * So a run gives the same bits wherever, and by whichever member, it is computed. */
typedef struct bp_segments {
    /* y[i incy] += t a[i], i < len. */
    void (*axpy)(tela_int len, double t, const double *a, double *y, tela_int incy);
    /* The sum of a[i] x[i incx], i < len, in sixteen running sums added in a fixed tree. */
    double (*dot)(tela_int len, const double *a, const double *x, tela_int incx);
    /* Both on one run: y += t a (as axpy) and returns a . x (as dot); y and x do not overlap. */
    double (*axpy_dot)(tela_int len, double t, const double *a, const double *x, tela_int incx,
                       double *y, tela_int incy);
    /* a[i] = a[i] + x[i incx] tx, i < len. */
    void (*rank1)(tela_int len, double *a, const double *x, tela_int incx, double tx);
    /* a[i] = a[i] + x[i incx] tx + y[i incy] ty, i < len. */
    void (*rank2)(tela_int len, double *a, const double *x, tela_int incx, double tx,
                  const double *y, tela_int incy, double ty);
} bp_segments;

extern const bp_segments bp_segments_generic;
extern const bp_segments bp_segments_avx2;
extern const bp_segments bp_segments_avx512;

/* The table of the ISA par_isa_chosen() names. */
const bp_segments *bp_segments_get(void);

/* ---- vectors and flags (vectors.c) ------------------------------------------------------------
 */

/* Offset of element 0 of a vector of n elements with increment inc (BLAS: the last stored one
 * when inc < 0); element i is then at offset + i inc. */
static inline tela_int bp_first(tela_int n, tela_int inc)
{
    return inc < 0 ? (n - 1) * -inc : 0;
}

/* y = beta y over n elements, reference's way: beta = 0 stores zeros (NaN in y included),
 * beta = 1 touches nothing. y points at element 0. */
void bp_scale(tela_int n, double beta, double *y, tela_int incy);

/* Reference LSAME on the first character, either case. False for anything else. */
bool bp_uplo(char c, bool *upper);
bool bp_trans(char c, bool *trans); /* 'N'; 'T' or 'C' (A is real) */
bool bp_diag(char c, bool *unit);

/* ---- shapes: symmetric and triangular, banded or packed ------------------------------------- */

typedef struct bp_shape {
    const double *a; /* band storage (lda >= k + 1) or packed storage */
    tela_int lda;    /* band: the leading dimension; 0 for packed */
    tela_int n;      /* order */
    tela_int k;      /* off-diagonals in the stored triangle (packed: n - 1) */
    bool upper;      /* which triangle is stored */
} bp_shape;

static inline bp_shape bp_band(const double *a, tela_int lda, tela_int n, tela_int k, bool upper)
{
    bp_shape s = {a, lda, n, k, upper};
    return s;
}

static inline bp_shape bp_packed(const double *ap, tela_int n, bool upper)
{
    bp_shape s = {ap, 0, n, n > 0 ? n - 1 : 0, upper};
    return s;
}

/* Where element (i, j) of the stored triangle is, i inside column j's stored rows. */
static inline tela_int bp_index(const bp_shape *s, tela_int i, tela_int j)
{
    if (s->lda > 0)
        return (s->upper ? s->k + i - j : i - j) + j * s->lda;
    return s->upper ? j * (j + 1) / 2 + i : j * (2 * s->n - j - 1) / 2 + i;
}

/* The rows [*lo, *hi) of column j's stored part off the diagonal: above it for upper, below it
 * for lower. Each is one contiguous run, starting at bp_index(s, *lo, j). */
static inline void bp_off_diagonal(const bp_shape *s, tela_int j, tela_int *lo, tela_int *hi)
{
    if (s->upper) {
        *lo = j > s->k ? j - s->k : 0;
        *hi = j;
    } else {
        *lo = j + 1;
        *hi = s->n - j > s->k ? j + s->k + 1 : s->n;
    }
}

/* ---- the drivers ------------------------------------------------------------------------------
 */

/* y = alpha A x + beta y, A symmetric of shape s, after the checks and quick returns of dsbmv and
 * dspmv (n > 0, not alpha = 0 with beta = 1); x and y point at element 0. Parallel through the
 * gate when it pays, bitwise the same at every width (symmetric.c). name labels the region. */
void bp_symmetric_product(tela_par par, const char *name, const bp_shape *s, double alpha,
                          const double *x, tela_int incx, double beta, double *y, tela_int incy);

/* x = op(A) x, A triangular of shape s (unit: its diagonal taken as ones, never read), as
 * reference dtbmv and dtpmv, zero skips included; x at element 0. Serial (triangular.c). */
void bp_triangular_multiply(const bp_shape *s, bool trans, bool unit, double *x, tela_int incx);
/* Solves op(A) x = b in place, as reference dtbsv and dtpsv. Serial (triangular.c). */
void bp_triangular_solve(const bp_shape *s, bool trans, bool unit, double *x, tela_int incx);

/* ---- work splits ---------------------------------------------------------------------------- */

/* Regions below this many elements moved are not offered to the gate: their dispatch is never
 * paid for, and the gate's own call is not free. */
#define BP_PARALLEL_MIN_ELEMENTS 4096

#endif /* TELA_BANDPACK_H */
