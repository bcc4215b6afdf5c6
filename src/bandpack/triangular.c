/* triangular.c — x = op(A) x and op(A) x = b in place, A triangular in band (dtbmv, dtbsv) or
 * packed (dtpmv, dtpsv) storage: one walk over the columns, each off-diagonal run handed to the
 * segment loops (an axpy into x for op = N, a dot product with x for op = T).
 *
 * Serial: each column's step needs x as the steps before it left it (a solve's x_j is final only
 * after every earlier column; a multiply in place overwrites the x_i later columns read), so the
 * walk is a chain of short dependent steps that no split over members would shorten enough to pay
 * for its barriers. Reference's visible rules are kept: op = N skips column j when x_j is zero
 * (no NaN from its entries, no division by its diagonal), and a unit diagonal is never read. */
#include "bandpack/bandpack.h"

/* op = N: x_j times the off-diagonal run of column j added to x (negated for a solve). */
static void tri_column_axpy(const bp_segments *seg, const bp_shape *s, tela_int j, double t,
                            double *x, tela_int incx)
{
    tela_int lo, hi;
    bp_off_diagonal(s, j, &lo, &hi);
    if (lo < hi)
        seg->axpy(hi - lo, t, s->a + bp_index(s, lo, j), x + lo * incx, incx);
}

/* op = T: the off-diagonal run of column j dotted with x. */
static double tri_column_dot(const bp_segments *seg, const bp_shape *s, tela_int j, const double *x,
                             tela_int incx)
{
    tela_int lo, hi;
    bp_off_diagonal(s, j, &lo, &hi);
    return lo < hi ? seg->dot(hi - lo, s->a + bp_index(s, lo, j), x + lo * incx, incx) : 0.0;
}

/* Column j's step of x = A x: x_j's multiples go to the rows the walk has not reached. */
static void multiply_step(const bp_segments *seg, const bp_shape *s, bool unit, tela_int j,
                          double *x, tela_int incx)
{
    double *xj = x + j * incx;
    if (*xj == 0.0)
        return;
    tri_column_axpy(seg, s, j, *xj, x, incx);
    if (!unit)
        *xj *= s->a[bp_index(s, j, j)];
}

/* Column j's step of x = A^T x: x_j from the rows the walk has not reached. */
static void multiply_trans_step(const bp_segments *seg, const bp_shape *s, bool unit, tela_int j,
                                double *x, tela_int incx)
{
    double *xj = x + j * incx;
    double temp = unit ? *xj : *xj * s->a[bp_index(s, j, j)];
    *xj = temp + tri_column_dot(seg, s, j, x, incx);
}

void bp_triangular_multiply(const bp_shape *s, bool trans, bool unit, double *x, tela_int incx)
{
    const bp_segments *seg = bp_segments_get();
    const tela_int n = s->n;
    /* Walk so that what a step reads is still the input: op = N upper from the first column
     * (it writes the rows above), lower from the last; op = T the other way round. */
    const bool forward = s->upper != trans;
    for (tela_int q = 0; q < n; q++) {
        const tela_int j = forward ? q : n - 1 - q;
        if (trans)
            multiply_trans_step(seg, s, unit, j, x, incx);
        else
            multiply_step(seg, s, unit, j, x, incx);
    }
}

/* Column j's step of A x = b: x_j is final; its multiples leave the rows not yet solved. */
static void solve_step(const bp_segments *seg, const bp_shape *s, bool unit, tela_int j, double *x,
                       tela_int incx)
{
    double *xj = x + j * incx;
    if (*xj == 0.0)
        return;
    if (!unit)
        *xj /= s->a[bp_index(s, j, j)];
    tri_column_axpy(seg, s, j, -*xj, x, incx);
}

/* Column j's step of A^T x = b: x_j from the rows already solved. */
static void solve_trans_step(const bp_segments *seg, const bp_shape *s, bool unit, tela_int j,
                             double *x, tela_int incx)
{
    double *xj = x + j * incx;
    double temp = *xj - tri_column_dot(seg, s, j, x, incx);
    *xj = unit ? temp : temp / s->a[bp_index(s, j, j)];
}

void bp_triangular_solve(const bp_shape *s, bool trans, bool unit, double *x, tela_int incx)
{
    const bp_segments *seg = bp_segments_get();
    const tela_int n = s->n;
    /* op = N upper is back substitution (last column first), lower forward; op = T the reverse. */
    const bool forward = s->upper == trans;
    for (tela_int q = 0; q < n; q++) {
        const tela_int j = forward ? q : n - 1 - q;
        if (trans)
            solve_trans_step(seg, s, unit, j, x, incx);
        else
            solve_step(seg, s, unit, j, x, incx);
    }
}
