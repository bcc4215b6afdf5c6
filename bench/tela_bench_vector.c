/* tela_bench_vector.c — the memory-bound problems of tela-bench (tela_bench_vector.h): level-1
 * dot, axpy, nrm2 on vectors of length n, level-2 gemv, symv, ger, trsv on an n x n matrix. Their
 * figure is GB/s of the bytes a call must move at least, so each problem states that count
 * beside its flops. Calls chain on one buffer, as level 3's do, and each problem is built so
 * that a long chain stays finite and near its start: axpy and ger alternate alpha's sign, trsv's
 * matrix is its own inverse, gemv and symv add A x to y once per call (a linear growth, far from
 * overflow after any number of calls a batch makes). */
#include "tela_bench_vector.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* alpha of axpy and ger: +1 on even calls since the reset, -1 on odd ones, so a chain of calls
 * returns, up to rounding, to where it started every second call. */
static double alternating_alpha(const struct tb_state *s)
{
    return s->calls % 2 ? -1.0 : 1.0;
}

/* Whether index i of trsv's matrix is a sink (see make_trsv_involution): a bit of a hash of the
 * index and a seed, so the role needs no storage. */
static int is_sink(uint64_t seed, size_t i)
{
    return (int)(((seed ^ (uint64_t)i) * 0x9E3779B97F4A7C15ULL) >> 63);
}

/* trsv's A, lower triangular with A A = I, built in O(n^2): each index is at random a source
 * (diagonal +1, nothing left of the diagonal in its row) or a sink (diagonal -1, uniform entries
 * under the sources to its left). With D the diagonal and N the rest, D N + N D = 0 (N_ij is
 * nonzero only where D_ii = -D_jj) and N N = 0 (a column with entries belongs to a source, whose
 * row is empty), so A A = D D = I: chained calls alternate between x and A x. The routine does
 * the same work whatever the entries' values. The upper triangle holds random values that a
 * routine reading it would turn into a disagreement. */
static void make_trsv_involution(double *a, int n, uint64_t *state)
{
    const uint64_t seed = *state;
    const size_t nn = (size_t)n;
    for (size_t j = 0; j < nn; j++) {
        const int source_j = !is_sink(seed, j);
        for (size_t i = 0; i < nn; i++) {
            double *at = &a[i + j * nn];
            if (i < j)
                *at = tb_next_uniform(state);
            else if (i == j)
                *at = is_sink(seed, i) ? -1.0 : 1.0;
            else
                *at = source_j && is_sink(seed, i) ? tb_next_uniform(state) : 0.0;
        }
    }
}

int tb_vector_problem_init(struct tb_problem *p, uint64_t *state)
{
    const enum tb_routine r = p->routine;
    const int n = p->n;
    const double dn = (double)n, square = dn * dn, triangle = dn * (dn + 1.0) / 2.0;
    const int has_matrix = !tb_routine_is_vector(r);
    const int has_y = r != TB_NRM2 && r != TB_TRSV;
    p->x = tb_alloc_operand(n, 1);
    p->y = has_y ? tb_alloc_operand(n, 1) : NULL;
    p->a = has_matrix ? tb_alloc_operand(n, n) : NULL;
    if (!p->x || (has_y && !p->y) || (has_matrix && !p->a))
        return -1;
    if (r == TB_TRSV)
        make_trsv_involution(p->a, n, state);
    else if (has_matrix)
        tb_fill_uniform(p->a, (size_t)n * (size_t)n, state);
    tb_fill_uniform(p->x, (size_t)n, state);
    if (p->y)
        tb_fill_uniform(p->y, (size_t)n, state);
    /* bytes: 8 per element read, 8 per element written, each once. */
    switch (r) {
    case TB_DOT:
        p->flops = 2.0 * dn;
        p->bytes = 16.0 * dn; /* x, y */
        break;
    case TB_AXPY:
        p->flops = 2.0 * dn;
        p->bytes = 24.0 * dn; /* x, y read and written */
        break;
    case TB_NRM2:
        p->flops = 2.0 * dn;
        p->bytes = 8.0 * dn;
        break;
    case TB_GEMV:
        p->flops = 2.0 * square;
        p->bytes = 8.0 * (square + 3.0 * dn); /* A, x, y read and written */
        break;
    case TB_SYMV:
        p->flops = 2.0 * square;
        p->bytes = 8.0 * (triangle + 3.0 * dn); /* one pass over the lower triangle */
        break;
    case TB_GER:
        p->flops = 2.0 * square;
        p->bytes = 8.0 * (2.0 * square + 2.0 * dn); /* A read and written, x, y */
        break;
    case TB_TRSV:
        p->flops = square;
        p->bytes = 8.0 * (triangle + 2.0 * dn); /* the triangle, x read and written */
        break;
    default:
        return -1;
    }
    return 0;
}

int tb_vector_state_init(const struct tb_problem *p, struct tb_state *s)
{
    const enum tb_routine r = p->routine;
    if (r == TB_AXPY || r == TB_GEMV || r == TB_SYMV || r == TB_TRSV) {
        s->vector = tb_alloc_operand(p->n, 1);
        return s->vector ? 0 : -1;
    }
    if (r == TB_GER) {
        s->matrix = tb_alloc_operand(p->n, p->n);
        return s->matrix ? 0 : -1;
    }
    return 0;
}

void tb_vector_state_reset(const struct tb_problem *p, struct tb_state *s)
{
    const size_t n = (size_t)p->n;
    if (s->vector)
        memcpy(s->vector, p->routine == TB_TRSV ? p->x : p->y, n * sizeof(double));
    if (s->matrix)
        memcpy(s->matrix, p->a, n * n * sizeof(double));
    s->scalar = NAN;
    s->calls = 0;
}

int tb_vector_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s)
{
    const tela_int n = p->n;
    int info = 0;
    switch (p->routine) {
    case TB_DOT:
        s->scalar = tela_ddot(par, n, p->x, 1, p->y, 1);
        break;
    case TB_AXPY:
        tela_daxpy(par, n, alternating_alpha(s), p->x, 1, s->vector, 1);
        break;
    case TB_NRM2:
        s->scalar = tela_dnrm2(par, n, p->x, 1);
        break;
    case TB_GEMV:
        info = tela_dgemv(par, p->transa, n, n, 1.0, p->a, n, p->x, 1, 1.0, s->vector, 1);
        break;
    case TB_SYMV:
        info = tela_dsymv(par, 'L', n, 1.0, p->a, n, p->x, 1, 1.0, s->vector, 1);
        break;
    case TB_GER:
        info = tela_dger(par, n, n, alternating_alpha(s), p->x, 1, p->y, 1, s->matrix, n);
        break;
    case TB_TRSV:
        info = tela_dtrsv(par, 'L', 'N', 'N', n, p->a, n, s->vector, 1);
        break;
    default:
        info = -1;
        break;
    }
    s->calls++;
    return info;
}

int tb_vector_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                            struct tb_state *s)
{
    const int n = p->n, one = 1;
    const double unit = 1.0, alpha = alternating_alpha(s);
    const char trans[2] = {p->transa, '\0'};
    switch (p->routine) {
    case TB_DOT:
        s->scalar = ob->ddot(&n, p->x, &one, p->y, &one);
        break;
    case TB_AXPY:
        ob->daxpy(&n, &alpha, p->x, &one, s->vector, &one);
        break;
    case TB_NRM2:
        s->scalar = ob->dnrm2(&n, p->x, &one);
        break;
    case TB_GEMV:
        ob->dgemv(trans, &n, &n, &unit, p->a, &n, p->x, &one, &unit, s->vector, &one, 1);
        break;
    case TB_SYMV:
        ob->dsymv("L", &n, &unit, p->a, &n, p->x, &one, &unit, s->vector, &one, 1);
        break;
    case TB_GER:
        ob->dger(&n, &n, &alpha, p->x, &one, p->y, &one, s->matrix, &n);
        break;
    case TB_TRSV:
        ob->dtrsv("L", "N", "N", &n, p->a, &n, s->vector, &one, 1, 1, 1);
        break;
    default:
        return -1;
    }
    s->calls++;
    return 0;
}

/* max |x_i - y_i| over count elements; NaN if any difference is NaN. */
static double max_difference(const double *x, const double *y, size_t count)
{
    double most = 0.0;
    for (size_t i = 0; i < count; i++) {
        const double d = fabs(x[i] - y[i]);
        if (isnan(d))
            return NAN;
        most = fmax(most, d);
    }
    return most;
}

static double max_abs_vector(const double *x, int n)
{
    double most = 0.0;
    for (int i = 0; i < n; i++)
        most = fmax(most, fabs(x[i]));
    return most;
}

double tb_vector_difference(const struct tb_problem *p, const struct tb_state *tela,
                            const struct tb_state *openblas)
{
    const int n = p->n;
    const double eps = DBL_EPSILON, dn = (double)n;
    switch (p->routine) {
    case TB_DOT:
        return fabs(tela->scalar - openblas->scalar) /
               (dn * eps * max_abs_vector(p->x, n) * max_abs_vector(p->y, n));
    case TB_NRM2:
        return fabs(tela->scalar - openblas->scalar) / (dn * eps * max_abs_vector(p->x, n));
    case TB_AXPY:
        return max_difference(tela->vector, openblas->vector, (size_t)n) /
               (eps * (max_abs_vector(p->x, n) + max_abs_vector(p->y, n)));
    case TB_GEMV:
    case TB_SYMV:
        return max_difference(tela->vector, openblas->vector, (size_t)n) /
               (dn * eps * tb_max_abs(p->a, n, p->routine == TB_SYMV) * max_abs_vector(p->x, n));
    case TB_GER:
        return max_difference(tela->matrix, openblas->matrix, (size_t)n * (size_t)n) /
               (eps * (tb_max_abs(p->a, n, 0) + max_abs_vector(p->x, n) * max_abs_vector(p->y, n)));
    case TB_TRSV:
        return max_difference(tela->vector, openblas->vector, (size_t)n) /
               (dn * eps * tb_max_abs(p->a, n, 1) * max_abs_vector(openblas->vector, n));
    default:
        return NAN;
    }
}
