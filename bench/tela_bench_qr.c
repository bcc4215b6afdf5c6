/* tela_bench_qr.c — the QR family of tela-bench (tela_bench_qr.h): geqrf on square, 4n x n,
 * 16n x n and tall-skinny A, gelqf, orgqr, ormqr, NumPy's qr path and gels, against OpenBLAS's
 * dgeqrf_ ... dgels_ (reference LAPACK on OpenBLAS's BLAS) with the workspace its lwork = -1
 * query asks for, allocated once per problem. Each side is checked by the residuals LAPACK's
 * tests use, computed with OpenBLAS's routines, and the two sides against each other. */
#include "tela_bench_qr.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Added to the diagonal of a square A, times sqrt(n). Uniform entries in [-1, 1) give
 * ||U||_2 near 1.15 sqrt(n), so sigma_min(A) >= 0.85 sqrt(n) and kappa_2(A) <= 4, where a
 * random square matrix has kappa near n: R, Q and X, which the two sides must agree on, move by
 * kappa times the rounding. Without the shift the agreement read up to 0.6 at n <= 2048 (qr's
 * Q), with it 0.03; a call does the same work whatever the values. A tall A (m >= 4n) is well
 * conditioned as it is (kappa about 3 at m = 4n). */
#define SQUARE_DIAGONAL_SHIFT 2.0

/* ---- flops, as LAPACK counts them (its dopla), k reflectors ------------------------------- */

/* geqrf of m x n: 2mn^2 - 2n^3/3 for m >= n, 2nm^2 - 2m^3/3 else (gelqf of m x n: geqrf of
 * n x m). */
static double geqrf_flops(double m, double n)
{
    return m >= n ? 2.0 * m * n * n - 2.0 * n * n * n / 3.0
                  : 2.0 * n * m * m - 2.0 * m * m * m / 3.0;
}

/* orgqr: the m x n Q from k reflectors. */
static double orgqr_flops(double m, double n, double k)
{
    return 4.0 * m * n * k - 2.0 * (m + n) * k * k + 4.0 * k * k * k / 3.0;
}

/* ormqr from the left on an m x n C. */
static double ormqr_flops(double m, double n, double k)
{
    return 4.0 * m * n * k - 2.0 * n * k * k;
}

static double qr_flops(enum tb_routine routine, int rows, int cols, int rhs)
{
    const double m = rows, n = cols, nrhs = rhs;
    switch (routine) {
    case TB_GEQRF:
    case TB_GEQRF4:
    case TB_GEQRF16:
    case TB_TSQR:
        return geqrf_flops(m, n);
    case TB_GELQF:
        return geqrf_flops(n, m);
    case TB_ORGQR:
        return orgqr_flops(m, n, n);
    case TB_ORMQR:
        return ormqr_flops(m, nrhs, n);
    case TB_QR:
        return geqrf_flops(m, n) + orgqr_flops(m, n, n);
    case TB_GELS:
    case TB_GELS4: /* geqrf, Q^T B, the triangular solve */
        return geqrf_flops(m, n) + ormqr_flops(m, nrhs, n) + n * n * nrhs;
    default:
        return 0.0;
    }
}

/* ---- OpenBLAS's workspace ------------------------------------------------------------------- */

/* The length a query returned in work[0] (at least 1), or -1 if it reported an error. */
static int queried(double length, int info)
{
    return info != 0 ? -1 : length < 1.0 ? 1 : (int)length;
}

/* dgeqrf_'s or dgelqf_'s optimal lwork for m x n. */
static int factor_lwork(tb_dgeqrf_fn factor, int m, int n, double *a)
{
    double length = 0.0, tau = 0.0;
    int query = -1, info = 0;
    factor(&m, &n, a, &m, &tau, &length, &query, &info);
    return queried(length, info);
}

static int orgqr_lwork(const struct tb_openblas *ob, int m, int n, int k, double *a)
{
    double length = 0.0, tau = 0.0;
    int query = -1, info = 0;
    ob->dorgqr(&m, &n, &k, a, &m, &tau, &length, &query, &info);
    return queried(length, info);
}

/* dormqr_'s or dormlq_'s optimal lwork. */
static int multiply_lwork(tb_dormqr_fn multiply, const char *side, const char *trans, int m, int n,
                          int k, const double *a, int lda, const double *tau, double *c, int ldc)
{
    double length = 0.0;
    int query = -1, info = 0;
    multiply(side, trans, &m, &n, &k, a, &lda, tau, c, &ldc, &length, &query, &info, 1, 1);
    return queried(length, info);
}

/* The workspace one call of p needs on OpenBLAS's side; -1 on an error. */
static int openblas_lwork(const struct tb_problem *p, const struct tb_openblas *ob)
{
    const int m = p->m, n = p->n, nrhs = p->nrhs;
    switch (p->routine) {
    case TB_GEQRF:
    case TB_GEQRF4:
    case TB_GEQRF16:
    case TB_TSQR:
        return factor_lwork(ob->dgeqrf, m, n, p->a);
    case TB_GELQF:
        return factor_lwork(ob->dgelqf, m, n, p->a);
    case TB_ORGQR:
        return orgqr_lwork(ob, m, n, n, p->factors);
    case TB_ORMQR:
        return multiply_lwork(ob->dormqr, "L", "T", m, nrhs, n, p->factors, m, p->tau, p->b, m);
    case TB_QR: {
        const int factor = factor_lwork(ob->dgeqrf, m, n, p->a);
        const int generate = orgqr_lwork(ob, m, n, n, p->a);
        return factor < 0 || generate < 0 ? -1 : factor > generate ? factor : generate;
    }
    case TB_GELS:
    case TB_GELS4: {
        double length = 0.0;
        int query = -1, info = 0;
        ob->dgels("N", &m, &n, &nrhs, p->a, &m, p->b, &m, &length, &query, &info, 1);
        return queried(length, info);
    }
    default:
        return -1;
    }
}

/* orgqr, ormqr: the reflectors of A and their scalars, computed once by OpenBLAS's dgeqrf, so
 * both sides start from the same ones and the figure is the routine's alone. */
static int make_reference_reflectors(struct tb_problem *p, const struct tb_openblas *ob)
{
    int m = p->m, n = p->n;
    p->factors = tb_alloc_doubles(m, n);
    p->tau = tb_alloc_doubles(n, 1);
    if (!p->factors || !p->tau)
        return -1;
    memcpy(p->factors, p->a, (size_t)m * (size_t)n * sizeof(double));
    int lwork = factor_lwork(ob->dgeqrf, m, n, p->factors), info = -1;
    double *work = lwork > 0 ? tb_alloc_doubles(lwork, 1) : NULL;
    if (work)
        ob->dgeqrf(&m, &n, p->factors, &m, p->tau, work, &lwork, &info);
    free(work);
    return info == 0 ? 0 : -1;
}

int tb_qr_problem_init(struct tb_problem *p, uint64_t *state, const struct tb_openblas *ob)
{
    const enum tb_routine r = p->routine;
    const int m = p->m, n = p->n;
    p->flops = qr_flops(r, m, n, p->nrhs);
    const int has_b = r == TB_ORMQR || tb_routine_is_gels(r);
    p->a = tb_alloc_operand(m, n);
    p->b = has_b ? tb_alloc_operand(m, p->nrhs) : NULL;
    if (!p->a || (has_b && !p->b))
        return -1;
    tb_fill_uniform(p->a, (size_t)m * (size_t)n, state);
    if (m == n) {
        const double shift = SQUARE_DIAGONAL_SHIFT * sqrt((double)n);
        for (size_t i = 0; i < (size_t)n; i++)
            p->a[i + i * (size_t)m] += shift;
    }
    if (p->b)
        tb_fill_uniform(p->b, (size_t)m * (size_t)p->nrhs, state);
    if ((r == TB_ORGQR || r == TB_ORMQR) && make_reference_reflectors(p, ob) != 0)
        return -1;
    p->lwork = openblas_lwork(p, ob);
    return p->lwork > 0 ? 0 : -1;
}

/* ---- one side's buffers ------------------------------------------------------------------- */

/* The routines that write tau (orgqr and ormqr read the problem's; gels keeps its own). */
static int writes_tau(enum tb_routine r)
{
    return r == TB_GEQRF || r == TB_GEQRF4 || r == TB_GEQRF16 || r == TB_TSQR || r == TB_GELQF ||
           r == TB_QR;
}

int tb_qr_state_init(const struct tb_problem *p, struct tb_state *s)
{
    const enum tb_routine r = p->routine;
    const int m = p->m, n = p->n, k = m < n ? m : n;
    const int has_matrix = r != TB_ORMQR, has_rhs = p->b != NULL, has_tau = writes_tau(r);
    s->matrix = has_matrix ? tb_alloc_operand(m, n) : NULL;
    s->rhs = has_rhs ? tb_alloc_operand(m, p->nrhs) : NULL;
    s->tau = has_tau ? tb_alloc_doubles(k, 1) : NULL;
    s->triangle = r == TB_QR ? tb_alloc_doubles(n, n) : NULL;
    s->work = tb_alloc_doubles(p->lwork, 1);
    if ((has_matrix && !s->matrix) || (has_rhs && !s->rhs) || (has_tau && !s->tau) ||
        (r == TB_QR && !s->triangle) || !s->work)
        return -1;
    return 0;
}

void tb_qr_state_reset(const struct tb_problem *p, struct tb_state *s)
{
    const size_t m = (size_t)p->m;
    if (s->matrix)
        memcpy(s->matrix, p->routine == TB_ORGQR ? p->factors : p->a,
               m * (size_t)p->n * sizeof(double));
    if (s->rhs)
        memcpy(s->rhs, p->b, m * (size_t)p->nrhs * sizeof(double));
}

/* ---- calls -------------------------------------------------------------------------------- */

/* R, the upper triangle of the first n rows of the factored m x n a (m >= n), into the n x n
 * r with zeros below its diagonal: what NumPy's qr does between geqrf and orgqr (numpy.triu of
 * the rows). Both sides run this same loop inside their timed call. */
static void copy_r(int m, int n, const double *a, double *r)
{
    for (size_t j = 0; j < (size_t)n; j++) {
        for (size_t i = 0; i < (size_t)n; i++)
            r[i + j * (size_t)n] = i <= j ? a[i + j * (size_t)m] : 0.0;
    }
}

int tb_qr_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s)
{
    const tela_int m = p->m, n = p->n, nrhs = p->nrhs;
    switch (p->routine) {
    case TB_GEQRF:
    case TB_GEQRF4:
    case TB_GEQRF16:
    case TB_TSQR:
        return tela_dgeqrf(par, m, n, s->matrix, m, s->tau);
    case TB_GELQF:
        return tela_dgelqf(par, m, n, s->matrix, m, s->tau);
    case TB_ORGQR:
        return tela_dorgqr(par, m, n, n, s->matrix, m, p->tau);
    case TB_ORMQR:
        return tela_dormqr(par, 'L', 'T', m, nrhs, n, p->factors, m, p->tau, s->rhs, m);
    case TB_QR: {
        int info = tela_dgeqrf(par, m, n, s->matrix, m, s->tau);
        if (info != 0)
            return info;
        copy_r(p->m, p->n, s->matrix, s->triangle);
        return tela_dorgqr(par, m, n, n, s->matrix, m, s->tau);
    }
    case TB_GELS:
    case TB_GELS4:
        return tela_dgels(par, 'N', m, n, nrhs, s->matrix, m, s->rhs, m);
    default:
        return -1;
    }
}

int tb_qr_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                        struct tb_state *s)
{
    const int m = p->m, n = p->n, nrhs = p->nrhs, lwork = p->lwork;
    int info = 0;
    switch (p->routine) {
    case TB_GEQRF:
    case TB_GEQRF4:
    case TB_GEQRF16:
    case TB_TSQR:
        ob->dgeqrf(&m, &n, s->matrix, &m, s->tau, s->work, &lwork, &info);
        break;
    case TB_GELQF:
        ob->dgelqf(&m, &n, s->matrix, &m, s->tau, s->work, &lwork, &info);
        break;
    case TB_ORGQR:
        ob->dorgqr(&m, &n, &n, s->matrix, &m, p->tau, s->work, &lwork, &info);
        break;
    case TB_ORMQR:
        ob->dormqr("L", "T", &m, &nrhs, &n, p->factors, &m, p->tau, s->rhs, &m, s->work, &lwork,
                   &info, 1, 1);
        break;
    case TB_QR:
        ob->dgeqrf(&m, &n, s->matrix, &m, s->tau, s->work, &lwork, &info);
        if (info != 0)
            break;
        copy_r(m, n, s->matrix, s->triangle);
        ob->dorgqr(&m, &n, &n, s->matrix, &m, s->tau, s->work, &lwork, &info);
        break;
    case TB_GELS:
    case TB_GELS4:
        ob->dgels("N", &m, &n, &nrhs, s->matrix, &m, s->rhs, &m, s->work, &lwork, &info, 1);
        break;
    default:
        info = -1;
        break;
    }
    return info;
}

/* ---- checks: residuals, as LAPACK's tests measure them (1-norms, eps = 2^-52) -------------- */

/* The error value of the residual functions: out of memory, or OpenBLAS reported an error. */
#define FAILED (-1.0)

/* C = op(Q) C (side "L") or C op(Q) ("R") with OpenBLAS's dormqr_ or dormlq_, its workspace
 * queried and allocated here. Returns 0, or -1 out of memory or on an error. */
static int apply_q(tb_dormqr_fn multiply, const char *side, const char *trans, int m, int n, int k,
                   const double *a, int lda, const double *tau, double *c, int ldc)
{
    int lwork = multiply_lwork(multiply, side, trans, m, n, k, a, lda, tau, c, ldc), info = -1;
    double *work = lwork > 0 ? tb_alloc_doubles(lwork, 1) : NULL;
    if (work)
        multiply(side, trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, &info, 1, 1);
    free(work);
    return info == 0 ? 0 : -1;
}

/* A copy of the m x n matrix x (leading dimension m); NULL out of memory. */
static double *copy_of(const double *x, int m, int n)
{
    double *copy = tb_alloc_doubles(m, n);
    if (copy)
        memcpy(copy, x, (size_t)m * (size_t)n * sizeof(double));
    return copy;
}

/* ||[R; 0] - Q^T A|| / (m ||A|| eps), LAPACK's dqrt01 measure, for the factored m x n f
 * (m >= n) and tau of p->a. */
static double qr_residual(const struct tb_problem *p, const struct tb_openblas *ob, const double *f,
                          const double *tau)
{
    const int m = p->m, n = p->n;
    double *w = copy_of(p->a, m, n);
    if (!w || apply_q(ob->dormqr, "L", "T", m, n, n, f, m, tau, w, m) != 0) {
        free(w);
        return FAILED;
    }
    for (size_t j = 0; j < (size_t)n; j++) {
        for (size_t i = 0; i <= j; i++)
            w[i + j * (size_t)m] -= f[i + j * (size_t)m];
    }
    double residual = tb_norm1(w, m, n, m) / ((double)m * tb_norm1(p->a, m, n, m) * DBL_EPSILON);
    free(w);
    return residual;
}

/* ||[L 0] - A Q^T|| / (n ||A|| eps), LAPACK's dlqt01 measure, for the factored m x n f
 * (m <= n) and tau of p->a. */
static double lq_residual(const struct tb_problem *p, const struct tb_openblas *ob, const double *f,
                          const double *tau)
{
    const int m = p->m, n = p->n;
    double *w = copy_of(p->a, m, n);
    if (!w || apply_q(ob->dormlq, "R", "T", m, n, m, f, m, tau, w, m) != 0) {
        free(w);
        return FAILED;
    }
    for (size_t j = 0; j < (size_t)m; j++) {
        for (size_t i = j; i < (size_t)m; i++)
            w[i + j * (size_t)m] -= f[i + j * (size_t)m];
    }
    double residual = tb_norm1(w, m, n, m) / ((double)n * tb_norm1(p->a, m, n, m) * DBL_EPSILON);
    free(w);
    return residual;
}

/* ||I - Q^T Q|| / (m eps) for the m x n q with orthonormal columns (dqrt01's second measure). */
static double orthogonality(const struct tb_problem *p, const struct tb_openblas *ob,
                            const double *q)
{
    const int m = p->m, n = p->n;
    double *c = tb_alloc_doubles(n, n);
    if (!c)
        return FAILED;
    for (size_t j = 0; j < (size_t)n; j++) {
        for (size_t i = 0; i < (size_t)n; i++)
            c[i + j * (size_t)n] = i == j ? 1.0 : 0.0;
    }
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_TRANS, TB_CBLAS_NO_TRANS, n, n, m, -1.0, q, m, q, m, 1.0,
              c, n);
    double residual = tb_norm1(c, n, n, n) / ((double)m * DBL_EPSILON);
    free(c);
    return residual;
}

/* ||A - Q R|| / (m ||A|| eps) for the m x n q and the n x n upper triangular r (qr). */
static double product_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                               const double *q, const double *r)
{
    const int m = p->m, n = p->n;
    double *w = copy_of(q, m, n);
    if (!w)
        return FAILED;
    ob->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_RIGHT, TB_CBLAS_UPPER, TB_CBLAS_NO_TRANS,
              TB_CBLAS_NON_UNIT, m, n, 1.0, r, n, w, m);
    for (size_t at = 0; at < (size_t)m * (size_t)n; at++)
        w[at] -= p->a[at];
    double residual = tb_norm1(w, m, n, m) / ((double)m * tb_norm1(p->a, m, n, m) * DBL_EPSILON);
    free(w);
    return residual;
}

/* The worse of two residuals: FAILED over NaN over the larger. */
static double worse(double a, double b)
{
    if (a == FAILED || b == FAILED)
        return FAILED;
    if (isnan(a) || isnan(b))
        return NAN;
    return a > b ? a : b;
}

/* ormqr: ||Q Y - C|| / (m ||C|| eps) for Y = Q^T C, Q applied back with OpenBLAS's dormqr. */
static double multiply_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                                const double *y)
{
    const int m = p->m, n = p->n, nrhs = p->nrhs;
    double *w = copy_of(y, m, nrhs);
    if (!w || apply_q(ob->dormqr, "L", "N", m, nrhs, n, p->factors, m, p->tau, w, m) != 0) {
        free(w);
        return FAILED;
    }
    for (size_t at = 0; at < (size_t)m * (size_t)nrhs; at++)
        w[at] -= p->b[at];
    double residual =
        tb_norm1(w, m, nrhs, m) / ((double)m * tb_norm1(p->b, m, nrhs, m) * DBL_EPSILON);
    free(w);
    return residual;
}

/* gels, the solutions in the first n rows of x (leading dimension m): the largest over the
 * columns of ||A^T (b - A x)|| / (max(m, n) ||A|| (||A|| ||x|| + ||b||) eps). A^T r vanishes at
 * the least squares solution, square or tall; in floating point r carries an error of
 * m eps (|A| |x| + |b|), which A^T multiplies by ||A||. */
static double least_squares_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                                     const double *x)
{
    const int m = p->m, n = p->n, nrhs = p->nrhs;
    double *r = copy_of(p->b, m, nrhs), *t = tb_alloc_doubles(n, nrhs);
    if (!r || !t) {
        free(r);
        free(t);
        return FAILED;
    }
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_NO_TRANS, TB_CBLAS_NO_TRANS, m, nrhs, n, -1.0, p->a, m,
              x, m, 1.0, r, m);
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_TRANS, TB_CBLAS_NO_TRANS, n, nrhs, m, 1.0, p->a, m, r, m,
              0.0, t, n);
    const double a_norm = tb_norm1(p->a, m, n, m);
    double worst = 0.0;
    for (int j = 0; j < nrhs && !isnan(worst); j++) {
        const size_t at = (size_t)j * (size_t)m;
        const double scale = a_norm * tb_norm1(x + at, n, 1, m) + tb_norm1(p->b + at, m, 1, m);
        const double residual = tb_norm1(t + (size_t)j * (size_t)n, n, 1, n) /
                                ((double)(m > n ? m : n) * a_norm * scale * DBL_EPSILON);
        worst = isnan(residual) || residual > worst ? residual : worst;
    }
    free(r);
    free(t);
    return worst;
}

/* ---- checks: the two sides against each other ---------------------------------------------- */

/* The triangle of the rows x cols results x (tela's) and y (OpenBLAS's), leading dimension ld:
 * upper (R, i <= j) or lower (L, i >= j). signs[d] (d below min(rows, cols)) gets -1 where the
 * diagonal elements' signs differ, +1 elsewhere, and *differ their count; LAPACK's convention
 * (beta = -sign(alpha) ||x||) gives the same signs, a TSQR converted to Householder form may
 * not. Returns the largest |s x - y| with s the sign of the element's row (upper) or column
 * (lower), over (length eps max|y|); NaN if any element is NaN. */
static double triangle_agreement(const double *x, const double *y, int rows, int cols, int ld,
                                 int lower, int length, double *signs, int *differ)
{
    const int k = rows < cols ? rows : cols;
    *differ = 0;
    for (int d = 0; d < k; d++) {
        const size_t at = (size_t)d + (size_t)d * (size_t)ld;
        signs[d] = (x[at] < 0.0) != (y[at] < 0.0) ? -1.0 : 1.0;
        *differ += signs[d] < 0.0;
    }
    double most = 0.0, scale = 0.0;
    for (int j = 0; j < cols; j++) {
        const int first = lower ? j : 0, end = lower ? rows : (j + 1 < rows ? j + 1 : rows);
        for (int i = first; i < end; i++) {
            const size_t at = (size_t)i + (size_t)j * (size_t)ld;
            const double d = fabs(signs[lower ? j : i] * x[at] - y[at]);
            if (isnan(d) || isnan(y[at]))
                return NAN;
            most = d > most ? d : most;
            scale = fabs(y[at]) > scale ? fabs(y[at]) : scale;
        }
    }
    return most / ((double)length * DBL_EPSILON * scale);
}

/* The largest |s_j x_ij - y_ij| over rows x cols x and y (leading dimension ld), s_j = signs[j]
 * or 1 when signs is NULL, over (length eps max|y|); NaN if any element is NaN. */
static double matrix_agreement(const double *x, const double *y, int rows, int cols, int ld,
                               const double *signs, int length)
{
    double most = 0.0, scale = 0.0;
    for (int j = 0; j < cols; j++) {
        const double s = signs ? signs[j] : 1.0;
        for (int i = 0; i < rows; i++) {
            const size_t at = (size_t)i + (size_t)j * (size_t)ld;
            const double d = fabs(s * x[at] - y[at]);
            if (isnan(d) || isnan(y[at]))
                return NAN;
            most = d > most ? d : most;
            scale = fabs(y[at]) > scale ? fabs(y[at]) : scale;
        }
    }
    return most / ((double)length * DBL_EPSILON * scale);
}

/* The larger of two agreements, NaN if either is. */
static double larger(double a, double b)
{
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}

int tb_qr_check(const struct tb_problem *p, const struct tb_openblas *ob,
                const struct tb_state *tela, const struct tb_state *openblas,
                struct tb_check *check)
{
    const int m = p->m, n = p->n, nrhs = p->nrhs;
    double *signs = tb_alloc_doubles(m < n ? m : n, 1);
    if (!signs)
        return -1;
    const struct tb_state *side[2] = {tela, openblas};
    double residual[2] = {FAILED, FAILED};
    for (int k = 0; k < 2; k++) {
        const struct tb_state *s = side[k];
        switch (p->routine) {
        case TB_GELQF:
            residual[k] = lq_residual(p, ob, s->matrix, s->tau);
            break;
        case TB_ORGQR:
            residual[k] = orthogonality(p, ob, s->matrix);
            break;
        case TB_ORMQR:
            residual[k] = multiply_residual(p, ob, s->rhs);
            break;
        case TB_QR:
            residual[k] = worse(product_residual(p, ob, s->matrix, s->triangle),
                                orthogonality(p, ob, s->matrix));
            break;
        case TB_GELS:
        case TB_GELS4:
            residual[k] = least_squares_residual(p, ob, s->rhs);
            break;
        default: /* geqrf, geqrf4, geqrf16, tsqr */
            residual[k] = qr_residual(p, ob, s->matrix, s->tau);
            break;
        }
    }
    check->difference = residual[0];
    check->reference = residual[1];
    switch (p->routine) {
    case TB_GELQF:
        check->agreement = triangle_agreement(tela->matrix, openblas->matrix, m, m, m, 1, n, signs,
                                              &check->signs_differ);
        break;
    case TB_ORGQR:
        check->agreement = matrix_agreement(tela->matrix, openblas->matrix, m, n, m, NULL, m);
        break;
    case TB_ORMQR:
        check->agreement = matrix_agreement(tela->rhs, openblas->rhs, m, nrhs, m, NULL, m);
        break;
    case TB_QR: /* R up to its rows' signs, Q up to the same signs of its columns */
        check->agreement = triangle_agreement(tela->triangle, openblas->triangle, n, n, n, 0, m,
                                              signs, &check->signs_differ);
        check->agreement = larger(
            check->agreement, matrix_agreement(tela->matrix, openblas->matrix, m, n, m, signs, m));
        break;
    case TB_GELS:
    case TB_GELS4:
        check->agreement = matrix_agreement(tela->rhs, openblas->rhs, n, nrhs, m, NULL, m);
        break;
    default:
        check->agreement = triangle_agreement(tela->matrix, openblas->matrix, n, n, m, 0, m, signs,
                                              &check->signs_differ);
        break;
    }
    free(signs);
    return residual[0] == FAILED || residual[1] == FAILED ? -1 : 0;
}
