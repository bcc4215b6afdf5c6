/* tela_bench_problem.c — inputs, calls and result comparison for tela-bench. Inputs come from a
 * fixed-seed generator, so every run and both sides see the same numbers; the triangle a
 * routine must not read holds values too, so reading it shows up as a disagreement. */
#include "tela_bench_problem.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const tb_routine_names[TB_ROUTINE_COUNT] = {
    [TB_GEMM] = "gemm", [TB_TRSM] = "trsm", [TB_TRMM] = "trmm", [TB_SYRK] = "syrk"};
const char *const tb_side_names[TB_SIDE_COUNT] = {[TB_TELA] = "tela", [TB_OPENBLAS] = "openblas"};
const char *const tb_side_labels[TB_SIDE_COUNT] = {[TB_TELA] = "tela", [TB_OPENBLAS] = "OpenBLAS"};

/* Arrays are 64-byte aligned, as a caller that cares about speed would allocate them. */
#define TB_ALIGNMENT 64

/* xorshift64*: small, fast, and the same sequence on every platform. */
static double next_uniform(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    /* The top 53 bits as a double in [0, 1), then mapped to [-1, 1). */
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static double *alloc_matrix(int n)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    bytes = (bytes + TB_ALIGNMENT - 1) / TB_ALIGNMENT * TB_ALIGNMENT;
    return aligned_alloc(TB_ALIGNMENT, bytes);
}

static void fill_uniform(double *x, size_t count, uint64_t *state)
{
    for (size_t i = 0; i < count; i++)
        x[i] = next_uniform(state);
}

/* A = M D M^{-1} in the lower triangle of a (the upper one keeps its random values): M unit
 * lower triangular with entries uniform/n below the diagonal (well conditioned), D = diag(+-1)
 * at random. A is lower triangular with diagonal D, and A A = M D D M^{-1} = I, so A is its own
 * inverse and a run of trsm or trmm calls on one B alternates between B and A B. The O(n^3)
 * build is plain loops: it runs once per size, before anything is timed. */
static int make_involution(double *a, int n, uint64_t *state)
{
    const size_t nn = (size_t)n;
    double *m = alloc_matrix(n), *w = alloc_matrix(n);
    if (!m || !w) {
        free(m);
        free(w);
        return -1;
    }
    for (size_t j = 0; j < nn; j++) {
        for (size_t i = 0; i < nn; i++)
            m[i + j * nn] = i > j ? next_uniform(state) / n : i == j ? 1.0 : 0.0;
    }
    /* W = M^{-1}, column by column by forward substitution (unit lower triangular too). */
    for (size_t j = 0; j < nn; j++) {
        double *wj = w + j * nn;
        for (size_t i = 0; i < nn; i++)
            wj[i] = i == j ? 1.0 : 0.0;
        for (size_t k = j; k < nn; k++) {
            const double x = wj[k], *mk = m + k * nn;
            for (size_t i = k + 1; i < nn; i++)
                wj[i] -= mk[i] * x;
        }
    }
    /* W = D W: a random sign per row. */
    for (size_t i = 0; i < nn; i++) {
        if (next_uniform(state) < 0.0) {
            for (size_t j = 0; j <= i; j++)
                w[i + j * nn] = -w[i + j * nn];
        }
    }
    /* A = M W, lower triangle only: both factors are lower triangular. */
    for (size_t j = 0; j < nn; j++) {
        double *aj = a + j * nn;
        for (size_t i = j; i < nn; i++)
            aj[i] = 0.0;
        for (size_t k = j; k < nn; k++) {
            const double x = w[k + j * nn], *mk = m + k * nn;
            for (size_t i = k; i < nn; i++)
                aj[i] += mk[i] * x;
        }
    }
    free(m);
    free(w);
    return 0;
}

int tb_problem_init(struct tb_problem *p, enum tb_routine routine, char transa, char transb, int n)
{
    memset(p, 0, sizeof *p);
    p->routine = routine;
    p->transa = transa;
    p->transb = transb;
    p->n = n;
    const double n3 = (double)n * (double)n * (double)n;
    p->flops = routine == TB_GEMM ? 2.0 * n3 : n3;

    /* A seed per routine and size: every run, and both sides, see the same inputs. */
    uint64_t state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)routine << 32 | (uint64_t)n);
    const size_t count = (size_t)n * (size_t)n;
    p->a = alloc_matrix(n);
    p->b = routine == TB_SYRK ? NULL : alloc_matrix(n);
    p->c = routine == TB_GEMM || routine == TB_SYRK ? alloc_matrix(n) : NULL;
    if (!p->a || (routine != TB_SYRK && !p->b) ||
        ((routine == TB_GEMM || routine == TB_SYRK) && !p->c)) {
        tb_problem_free(p);
        return -1;
    }
    fill_uniform(p->a, count, &state);
    if (p->b)
        fill_uniform(p->b, count, &state);
    if (p->c)
        fill_uniform(p->c, count, &state);
    if ((routine == TB_TRSM || routine == TB_TRMM) && make_involution(p->a, n, &state) != 0) {
        tb_problem_free(p);
        return -1;
    }
    return 0;
}

void tb_problem_free(struct tb_problem *p)
{
    free(p->a);
    free(p->b);
    free(p->c);
    p->a = p->b = p->c = NULL;
}

size_t tb_problem_output_size(const struct tb_problem *p)
{
    return (size_t)p->n * (size_t)p->n;
}

const double *tb_problem_output_start(const struct tb_problem *p)
{
    return p->c ? p->c : p->b;
}

int tb_call_tela(const struct tb_problem *p, tela_par par, double *out)
{
    const tela_int n = p->n;
    switch (p->routine) {
    case TB_GEMM:
        return tela_dgemm(par, p->transa, p->transb, n, n, n, 1.0, p->a, n, p->b, n, 1.0, out, n);
    case TB_TRSM:
        return tela_dtrsm(par, 'L', 'L', 'N', 'N', n, n, 1.0, p->a, n, out, n);
    case TB_TRMM:
        return tela_dtrmm(par, 'L', 'L', 'N', 'N', n, n, 1.0, p->a, n, out, n);
    case TB_SYRK:
        return tela_dsyrk(par, 'L', 'N', n, n, 1.0, p->a, n, 1.0, out, n);
    case TB_ROUTINE_COUNT:
        break;
    }
    return -1;
}

static int cblas_trans(char trans)
{
    return trans == 'N' ? TB_CBLAS_NO_TRANS : TB_CBLAS_TRANS;
}

void tb_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob, double *out)
{
    const int n = p->n;
    switch (p->routine) {
    case TB_GEMM:
        ob->dgemm(TB_CBLAS_COL_MAJOR, cblas_trans(p->transa), cblas_trans(p->transb), n, n, n, 1.0,
                  p->a, n, p->b, n, 1.0, out, n);
        break;
    case TB_TRSM:
        ob->dtrsm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS,
                  TB_CBLAS_NON_UNIT, n, n, 1.0, p->a, n, out, n);
        break;
    case TB_TRMM:
        ob->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS,
                  TB_CBLAS_NON_UNIT, n, n, 1.0, p->a, n, out, n);
        break;
    case TB_SYRK:
        ob->dsyrk(TB_CBLAS_COL_MAJOR, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS, n, n, 1.0, p->a, n, 1.0,
                  out, n);
        break;
    case TB_ROUTINE_COUNT:
        break;
    }
}

/* Largest |x| over the matrix, or over its lower triangle (the part of A trsm and trmm read). */
static double max_abs(const double *x, int n, int lower_only)
{
    double most = 0.0;
    for (int j = 0; j < n; j++) {
        for (int i = lower_only ? j : 0; i < n; i++)
            most = fmax(most, fabs(x[i + (size_t)j * (size_t)n]));
    }
    return most;
}

double tb_problem_difference(const struct tb_problem *p, const double *x, const double *y)
{
    const int n = p->n;
    const int lower_only = p->routine == TB_SYRK; /* syrk writes only the lower triangle */
    double diff = 0.0;
    for (int j = 0; j < n; j++) {
        for (int i = lower_only ? j : 0; i < n; i++) {
            size_t at = i + (size_t)j * (size_t)n;
            double d = fabs(x[at] - y[at]);
            if (isnan(d))
                return NAN;
            diff = fmax(diff, d);
        }
    }
    const int triangular_a = p->routine == TB_TRSM || p->routine == TB_TRMM;
    double scale = max_abs(p->a, n, triangular_a);
    switch (p->routine) {
    case TB_GEMM:
    case TB_TRMM:
        scale *= max_abs(p->b, n, 0);
        break;
    case TB_TRSM:
        scale *= max_abs(y, n, 0);
        break;
    case TB_SYRK:
        scale *= scale;
        break;
    case TB_ROUTINE_COUNT:
        break;
    }
    return diff / ((double)n * DBL_EPSILON * scale);
}
