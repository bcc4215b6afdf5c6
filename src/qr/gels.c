/* gels.c — tela_dgels: least squares (m >= n) and minimum norm (m < n) solutions of op(A) X = B
 * by QR or LQ, as LAPACK's dgels: A and B scaled into the safe range first when their largest
 * element is tiny or huge, a zero on the triangle's diagonal reported instead of divided by. */
#include "par/engine.h"
#include "qr/qr.h"

#include <float.h>
#include <math.h>

/* Right-hand sides up to which a least-squares solve (m >= n, trans N) applies Q^T to B one
 * reflector at a time, as LAPACK's dorm2r, and its dgeqrf builds no T: a T and a blocked product
 * cost more than the few columns they serve. On the Xeon (model 207), one thread, pairs against
 * the blocked way: nrhs 1 at 16-128 square 1.03-1.30x, 1024 x 256 1.06x; nrhs 4 at 64-256
 * 1.06-1.28x; nrhs 8 at 64 1.07x but 512 x 128 0.96x, nrhs 16 0.94-0.98x. */
#define GELS_REFLECTORS_NRHS 4

/* The largest |a(i, j)|, a NaN if there is one (LAPACK's dlange 'M'). */
static double largest(tela_int m, tela_int n, const double *a, tela_int lda)
{
    double value = 0.0;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++) {
            const double v = fabs(a[i + (size_t)j * (size_t)lda]);
            if (value < v || isnan(v))
                value = v;
        }
    return value;
}

static void multiply(tela_int m, tela_int n, double s, double *a, tela_int lda)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            a[i + (size_t)j * (size_t)lda] *= s;
}

void qr_rescale(double from, double to, tela_int m, tela_int n, double *a, tela_int lda)
{
    const double small = DBL_MIN, big = 1.0 / DBL_MIN;
    for (bool done = false; !done;) {
        const double from_small = from * small;
        double mul;
        if (from_small == from) { /* from is infinite */
            mul = to / from;
            done = true;
        } else {
            const double to_big = to / big;
            if (to_big == to) { /* to is zero or infinite */
                mul = to;
                done = true;
                from = 1.0;
            } else if (fabs(from_small) > fabs(to) && to != 0.0) {
                mul = small;
                from = from_small;
            } else if (fabs(to_big) > fabs(from)) {
                mul = big;
                to = to_big;
            } else {
                mul = to / from;
                done = true;
                if (mul == 1.0)
                    return;
            }
        }
        multiply(m, n, mul, a, lda);
    }
}

/* LAPACK's safe range for dgels: dlamch('S') / dlamch('P') and its inverse. */
#define GELS_SMALL (DBL_MIN / DBL_EPSILON)
#define GELS_BIG   (1.0 / GELS_SMALL)

/* Scales x into the safe range when its largest element (norm) lies outside it; returns the
 * bound it was scaled to, or 0 when x was left alone (a zero or NaN norm included). */
static double into_safe_range(double norm, tela_int rows, tela_int cols, double *x, tela_int ld)
{
    const double to = norm > 0.0 && norm < GELS_SMALL ? GELS_SMALL
                      : norm > GELS_BIG               ? GELS_BIG
                                                      : 0.0;
    if (to != 0.0)
        qr_rescale(norm, to, rows, cols, x, ld);
    return to;
}

static void zero_rows(tela_int from, tela_int to, tela_int nrhs, double *b, tela_int ldb)
{
    for (tela_int j = 0; j < nrhs; j++)
        for (tela_int i = from; i < to; i++)
            b[i + (size_t)j * (size_t)ldb] = 0.0;
}

/* LAPACK's dtrtrs: op(T) X = B for the n x n triangle of a, or the first zero on its diagonal
 * (1-based) with B untouched. */
static tela_int solve_triangle(tela_par par, char uplo, char trans, tela_int n, tela_int nrhs,
                               const double *a, tela_int lda, double *b, tela_int ldb)
{
    for (tela_int i = 0; i < n; i++)
        if (a[i + (size_t)i * (size_t)lda] == 0.0)
            return i + 1;
    tela_dtrsm(par, 'L', uplo, trans, 'N', n, nrhs, 1.0, a, lda, b, ldb);
    return 0;
}

int tela_dgels(tela_par par, char trans, tela_int m, tela_int n, tela_int nrhs, double *a,
               tela_int lda, double *b, tela_int ldb)
{
    bool transposed;
    if (!qr_trans(trans, &transposed))
        return -1;
    if (m < 0)
        return -2;
    if (n < 0)
        return -3;
    if (nrhs < 0)
        return -4;
    const tela_int rows = m > n ? m : n;
    if (lda < (m > 1 ? m : 1))
        return -6;
    if (ldb < (rows > 1 ? rows : 1))
        return -8;
    if (nrhs > 0 && !b)
        return -7;
    if (m == 0 || n == 0 || nrhs == 0) {
        zero_rows(0, rows, nrhs, b, ldb);
        return 0;
    }
    if (!a)
        return -5;

    const double a_norm = largest(m, n, a, lda);
    if (a_norm == 0.0) {
        zero_rows(0, rows, nrhs, b, ldb);
        return 0;
    }
    const double a_to = into_safe_range(a_norm, m, n, a, lda);
    const tela_int b_rows = transposed ? n : m;
    const double b_norm = largest(b_rows, nrhs, b, ldb);
    const double b_to = into_safe_range(b_norm, b_rows, nrhs, b, ldb);

    /* gels holds tau, and for m >= n geqrf's T factors (so that ormqr need not build them
     * again), through its calls in the CALL slot: the routines it calls take the ROUTINE slot
     * for themselves and give it back. */
    const tela_int k = m < n ? m : n;
    const bool by_reflectors = m >= n && !transposed && nrhs <= GELS_REFLECTORS_NRHS;
    const size_t t_len = m >= n && !by_reflectors ? (size_t)qr_block_size(m, n) * (size_t)k : 0;
    double tau_stack[256], *t = NULL;
    bool owned = false;
    double *tau =
        par_scratch_region(par, PAR_SCRATCH_CALL, ((size_t)k + t_len) * sizeof(double), &owned);
    if (tau && t_len)
        t = tau + k;
    else if (!tau && k <= 256)
        tau = tau_stack;
    else if (!tau)
        return par_error(TELA_ENOMEM, "tela_dgels", "no memory for tau");
    tela_int info = 0, solved_rows;
    if (m >= n) {
        /* t NULL (by_reflectors): geqrf keeps no T. */
        const double *t_kept = qr_geqrf(par, m, n, a, lda, tau, t) ? t : NULL;
        if (!transposed) {
            if (by_reflectors)
                qr_multiply_by_reflectors(true, true, m, nrhs, n, a, lda, tau, b, ldb);
            else
                qr_ormqr(par, true, true, m, nrhs, n, a, lda, tau, b, ldb, t_kept);
            info = solve_triangle(par, 'U', 'N', n, nrhs, a, lda, b, ldb);
            solved_rows = n;
        } else {
            info = solve_triangle(par, 'U', 'T', n, nrhs, a, lda, b, ldb);
            if (!info) {
                zero_rows(n, m, nrhs, b, ldb);
                qr_ormqr(par, true, false, m, nrhs, n, a, lda, tau, b, ldb, t_kept);
            }
            solved_rows = m;
        }
    } else {
        tela_dgelqf(par, m, n, a, lda, tau);
        if (!transposed) {
            info = solve_triangle(par, 'L', 'N', m, nrhs, a, lda, b, ldb);
            if (!info) {
                zero_rows(m, n, nrhs, b, ldb);
                tela_dormlq(par, 'L', 'T', n, nrhs, m, a, lda, tau, b, ldb);
            }
            solved_rows = n;
        } else {
            tela_dormlq(par, 'L', 'N', n, nrhs, m, a, lda, tau, b, ldb);
            info = solve_triangle(par, 'L', 'T', m, nrhs, a, lda, b, ldb);
            solved_rows = m;
        }
    }
    if (tau != tau_stack)
        par_scratch_release(tau, owned);
    if (info)
        return (int)info;
    if (a_to != 0.0)
        qr_rescale(a_norm, a_to, solved_rows, nrhs, b, ldb);
    if (b_to != 0.0)
        qr_rescale(b_to, b_norm, solved_rows, nrhs, b, ldb);
    return 0;
}
