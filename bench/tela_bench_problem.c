/* tela_bench_problem.c — inputs, calls and result checks for tela-bench. Inputs come from a
 * fixed-seed generator, so every run and both sides see the same numbers; the triangle a
 * routine must not read holds values too, so reading it shows up as a disagreement. The LAPACK
 * routines are checked by residuals (two correct factorizations may pick different pivots or
 * round differently), computed with OpenBLAS's BLAS, never with tela's. */
#include "tela_bench_problem.h"
#include "tela_bench_eig.h"
#include "tela_bench_qr.h"
#include "tela_bench_vector.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const tb_routine_names[TB_ROUTINE_COUNT] = {
    [TB_GEMM] = "gemm",   [TB_TRSM] = "trsm",     [TB_TRMM] = "trmm",       [TB_SYRK] = "syrk",
    [TB_SYMM] = "symm",   [TB_SYR2K] = "syr2k",   [TB_GETRF] = "getrf",     [TB_GETRS] = "getrs",
    [TB_POTRF] = "potrf", [TB_POTRS] = "potrs",   [TB_GESV] = "gesv",       [TB_POSV] = "posv",
    [TB_GEQRF] = "geqrf", [TB_GEQRF4] = "geqrf4", [TB_GEQRF16] = "geqrf16", [TB_TSQR] = "tsqr",
    [TB_GELQF] = "gelqf", [TB_ORGQR] = "orgqr",   [TB_ORMQR] = "ormqr",     [TB_QR] = "qr",
    [TB_GELS] = "gels",   [TB_GELS4] = "gels4",   [TB_SYEVD] = "syevd",     [TB_SYEVDN] = "syevdn",
    [TB_SYEVR] = "syevr", [TB_SYEVRI] = "syevri", [TB_SYEV] = "syev",       [TB_SYGVD] = "sygvd",
    [TB_DOT] = "dot",     [TB_AXPY] = "axpy",     [TB_NRM2] = "nrm2",       [TB_GEMV] = "gemv",
    [TB_SYMV] = "symv",   [TB_GER] = "ger",       [TB_TRSV] = "trsv"};
const char *const tb_side_names[TB_SIDE_COUNT] = {[TB_TELA] = "tela", [TB_OPENBLAS] = "openblas"};
const char *const tb_side_labels[TB_SIDE_COUNT] = {[TB_TELA] = "tela", [TB_OPENBLAS] = "OpenBLAS"};

/* A number per routine for its inputs' seed, fixed apart from the enumeration's order so that a
 * routine added to it leaves every other routine's inputs as they were. */
static const unsigned seed_ids[TB_ROUTINE_COUNT] = {
    [TB_GEMM] = 0,    [TB_TRSM] = 1,     [TB_TRMM] = 2,    [TB_SYRK] = 3,   [TB_GETRF] = 4,
    [TB_GETRS] = 5,   [TB_POTRF] = 6,    [TB_POTRS] = 7,   [TB_GESV] = 8,   [TB_POSV] = 9,
    [TB_SYMM] = 10,   [TB_SYR2K] = 11,   [TB_DOT] = 12,    [TB_AXPY] = 13,  [TB_NRM2] = 14,
    [TB_GEMV] = 15,   [TB_SYMV] = 16,    [TB_GER] = 17,    [TB_TRSV] = 18,  [TB_GEQRF] = 19,
    [TB_GEQRF4] = 20, [TB_GEQRF16] = 21, [TB_TSQR] = 22,   [TB_GELQF] = 23, [TB_ORGQR] = 24,
    [TB_ORMQR] = 25,  [TB_QR] = 26,      [TB_GELS] = 27,   [TB_GELS4] = 28, [TB_SYEVD] = 29,
    [TB_SYEVDN] = 30, [TB_SYEVR] = 31,   [TB_SYEVRI] = 32, [TB_SYEV] = 33,  [TB_SYGVD] = 34};

int tb_routine_is_lapack(enum tb_routine routine)
{
    return routine >= TB_GETRF && routine <= TB_SYGVD;
}

int tb_routine_rows(enum tb_routine routine, int n, int tsqr_rows)
{
    switch (routine) {
    case TB_GEQRF4:
    case TB_GELS4:
        return 4 * n;
    case TB_GEQRF16:
        return 16 * n;
    case TB_TSQR:
        return tsqr_rows;
    default:
        return n;
    }
}

int tb_routine_is_memory_bound(enum tb_routine routine)
{
    return routine >= TB_DOT && routine < TB_ROUTINE_COUNT;
}

int tb_routine_has_rhs(enum tb_routine routine)
{
    return routine == TB_GETRS || routine == TB_POTRS || routine == TB_GESV || routine == TB_POSV ||
           tb_routine_is_gels(routine);
}

int tb_routine_has_uplo(enum tb_routine routine)
{
    return routine == TB_POTRF || routine == TB_POTRS || routine == TB_POSV;
}

static double *alloc_matrix(int n)
{
    return tb_alloc_doubles(n, n);
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
            m[i + j * nn] = i > j ? tb_next_uniform(state) / n : i == j ? 1.0 : 0.0;
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
        if (tb_next_uniform(state) < 0.0) {
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

/* A symmetric positive definite matrix in either triangle of a: entries uniform in [-1, 1) off
 * the diagonal, n + |u| on it (strictly diagonally dominant, so positive definite and well
 * conditioned). The two triangles hold independent values: the one the routine is told (uplo)
 * stands for the matrix, the other it must neither read nor write. */
static void make_spd(double *a, int n, uint64_t *state)
{
    const size_t nn = (size_t)n;
    for (size_t j = 0; j < nn; j++) {
        for (size_t i = 0; i < nn; i++) {
            double u = tb_next_uniform(state);
            a[i + j * nn] = i == j ? (double)n + fabs(u) : u;
        }
    }
}

/* The flops of one call, as LAPACK's timing programs count them to leading order. */
static double routine_flops(enum tb_routine routine, int n, int nrhs)
{
    const double n3 = (double)n * (double)n * (double)n;
    const double solve = 2.0 * (double)n * (double)n * (double)nrhs;
    switch (routine) {
    case TB_GEMM:
    case TB_SYMM:
    case TB_SYR2K:
        return 2.0 * n3;
    case TB_TRSM:
    case TB_TRMM:
    case TB_SYRK:
        return n3;
    case TB_GETRF:
        return 2.0 / 3.0 * n3;
    case TB_POTRF:
        return n3 / 3.0;
    case TB_GETRS:
    case TB_POTRS:
        return solve;
    case TB_GESV:
        return 2.0 / 3.0 * n3 + solve;
    case TB_POSV:
        return n3 / 3.0 + solve;
    default: /* the memory-bound routines, tb_vector_problem_init; the QR family, tb_qr_flops */
        break;
    }
    return 0.0;
}

/* getrs, potrs: the reference factors of p->a, computed once by OpenBLAS. */
static int make_reference_factors(struct tb_problem *p, const struct tb_openblas *ob)
{
    const int n = p->n;
    const size_t nn = (size_t)n;
    p->factors = alloc_matrix(n);
    if (!p->factors)
        return -1;
    memcpy(p->factors, p->a, nn * nn * sizeof(double));
    int info = 0;
    if (p->routine == TB_GETRS) {
        p->pivots = tb_alloc_bytes(nn * sizeof *p->pivots);
        p->pivots_lp64 = tb_alloc_bytes(nn * sizeof *p->pivots_lp64);
        if (!p->pivots || !p->pivots_lp64)
            return -1;
        ob->dgetrf(&n, &n, p->factors, &n, p->pivots_lp64, &info);
        for (size_t i = 0; i < nn; i++)
            p->pivots[i] = p->pivots_lp64[i];
    } else {
        const char uplo[2] = {p->uplo, '\0'};
        ob->dpotrf(uplo, &n, p->factors, &n, &info, 1);
    }
    return info == 0 ? 0 : -1;
}

int tb_problem_init(struct tb_problem *p, enum tb_routine routine, char transa, char transb,
                    char uplo, int m, int n, int nrhs, const struct tb_openblas *ob)
{
    memset(p, 0, sizeof *p);
    p->routine = routine;
    p->transa = transa;
    p->transb = transb;
    p->uplo = tb_routine_has_uplo(routine) ? uplo : 'L';
    p->m = tb_routine_is_qr(routine) ? m : n;
    p->n = n;
    p->nrhs = tb_routine_has_rhs(routine) ? nrhs : routine == TB_ORMQR ? n : 0;
    p->flops = routine_flops(routine, n, p->nrhs);

    /* A seed per routine and size: every run, and both sides, see the same inputs. */
    uint64_t state = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)seed_ids[routine] << 32 | (uint64_t)n);
    if (tb_routine_is_qr(routine)) {
        if (tb_qr_problem_init(p, &state, ob) != 0) {
            tb_problem_free(p);
            return -1;
        }
        return 0;
    }
    if (tb_routine_is_eig(routine)) {
        if (tb_eig_problem_init(p, &state, ob) != 0) {
            tb_problem_free(p);
            return -1;
        }
        return 0;
    }
    if (tb_routine_is_memory_bound(routine)) {
        if (tb_vector_problem_init(p, &state) != 0) {
            tb_problem_free(p);
            return -1;
        }
        return 0;
    }
    const size_t count = (size_t)n * (size_t)n;
    const int lapack = tb_routine_is_lapack(routine);
    const int has_b = lapack ? p->nrhs > 0 : routine != TB_SYRK;
    const int has_c =
        routine == TB_GEMM || routine == TB_SYRK || routine == TB_SYMM || routine == TB_SYR2K;
    p->a = tb_alloc_operand(n, n);
    p->b = has_b ? tb_alloc_operand(n, lapack ? p->nrhs : n) : NULL;
    p->c = has_c ? tb_alloc_operand(n, n) : NULL;
    if (!p->a || (has_b && !p->b) || (has_c && !p->c)) {
        tb_problem_free(p);
        return -1;
    }
    if (tb_routine_has_uplo(routine))
        make_spd(p->a, n, &state);
    else
        tb_fill_uniform(p->a, count, &state);
    if (p->b)
        tb_fill_uniform(p->b, (size_t)n * (size_t)(lapack ? p->nrhs : n), &state);
    if (p->c)
        tb_fill_uniform(p->c, count, &state);
    if ((routine == TB_TRSM || routine == TB_TRMM) && make_involution(p->a, n, &state) != 0) {
        tb_problem_free(p);
        return -1;
    }
    if ((routine == TB_GETRS || routine == TB_POTRS) && make_reference_factors(p, ob) != 0) {
        tb_problem_free(p);
        return -1;
    }
    return 0;
}

void tb_problem_free(struct tb_problem *p)
{
    tb_free_operand(p->a);
    tb_free_operand(p->b);
    tb_free_operand(p->c);
    free(p->factors);
    free(p->tau);
    free(p->pivots);
    free(p->pivots_lp64);
    tb_free_operand(p->x);
    tb_free_operand(p->y);
    p->a = p->b = p->c = p->factors = p->tau = p->x = p->y = NULL;
    p->pivots = NULL;
    p->pivots_lp64 = NULL;
}

/* ---- one side's buffers ------------------------------------------------------------------- */

int tb_state_init(const struct tb_problem *p, struct tb_state *s)
{
    memset(s, 0, sizeof *s);
    if (tb_routine_is_memory_bound(p->routine) || tb_routine_is_qr(p->routine) ||
        tb_routine_is_eig(p->routine)) {
        const int made = tb_routine_is_qr(p->routine)    ? tb_qr_state_init(p, s)
                         : tb_routine_is_eig(p->routine) ? tb_eig_state_init(p, s)
                                                         : tb_vector_state_init(p, s);
        if (made != 0) {
            tb_state_free(s);
            return -1;
        }
        tb_state_reset(p, s);
        return 0;
    }
    const enum tb_routine r = p->routine;
    const size_t n = (size_t)p->n;
    const int has_matrix = r != TB_GETRS && r != TB_POTRS;
    const int has_pivots = r == TB_GETRF || r == TB_GESV;
    s->matrix = has_matrix ? tb_alloc_operand(p->n, p->n) : NULL;
    s->rhs = p->nrhs > 0 ? tb_alloc_operand(p->n, p->nrhs) : NULL;
    s->pivots = has_pivots ? tb_alloc_bytes(n * sizeof *s->pivots) : NULL;
    s->pivots_lp64 = has_pivots ? tb_alloc_bytes(n * sizeof *s->pivots_lp64) : NULL;
    if ((has_matrix && !s->matrix) || (p->nrhs > 0 && !s->rhs) ||
        (has_pivots && (!s->pivots || !s->pivots_lp64))) {
        tb_state_free(s);
        return -1;
    }
    if (has_pivots) {
        for (size_t i = 0; i < n; i++)
            s->pivots[i] = s->pivots_lp64[i] = 0;
    }
    tb_state_reset(p, s);
    return 0;
}

void tb_state_reset(const struct tb_problem *p, struct tb_state *s)
{
    if (tb_routine_is_memory_bound(p->routine)) {
        tb_vector_state_reset(p, s);
        return;
    }
    if (tb_routine_is_qr(p->routine)) {
        tb_qr_state_reset(p, s);
        return;
    }
    if (tb_routine_is_eig(p->routine)) {
        tb_eig_state_reset(p, s);
        return;
    }
    const size_t n = (size_t)p->n;
    if (s->matrix) {
        const double *start = tb_routine_is_lapack(p->routine) ? p->a : p->c ? p->c : p->b;
        memcpy(s->matrix, start, n * n * sizeof(double));
    }
    if (s->rhs)
        memcpy(s->rhs, p->b, n * (size_t)p->nrhs * sizeof(double));
}

void tb_state_free(struct tb_state *s)
{
    tb_free_operand(s->matrix);
    tb_free_operand(s->rhs);
    free(s->tau);
    free(s->triangle);
    free(s->work);
    free(s->pivots);
    free(s->pivots_lp64);
    tb_free_operand(s->vector);
    free(s->iwork);
    free(s->values);
    free(s->vectors);
    free(s->support);
    free(s->support_lp64);
    memset(s, 0, sizeof *s);
}

/* ---- calls -------------------------------------------------------------------------------- */

int tb_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s)
{
    if (tb_routine_is_memory_bound(p->routine))
        return tb_vector_call_tela(p, par, s);
    if (tb_routine_is_qr(p->routine))
        return tb_qr_call_tela(p, par, s);
    if (tb_routine_is_eig(p->routine))
        return tb_eig_call_tela(p, par, s);
    const tela_int n = p->n, nrhs = p->nrhs;
    double *out = s->matrix;
    switch (p->routine) {
    case TB_GEMM:
        return tela_dgemm(par, p->transa, p->transb, n, n, n, 1.0, p->a, n, p->b, n, 1.0, out, n);
    case TB_TRSM:
        return tela_dtrsm(par, 'L', 'L', 'N', 'N', n, n, 1.0, p->a, n, out, n);
    case TB_TRMM:
        return tela_dtrmm(par, 'L', 'L', 'N', 'N', n, n, 1.0, p->a, n, out, n);
    case TB_SYRK:
        return tela_dsyrk(par, 'L', 'N', n, n, 1.0, p->a, n, 1.0, out, n);
    case TB_SYMM:
        return tela_dsymm(par, 'L', 'L', n, n, 1.0, p->a, n, p->b, n, 1.0, out, n);
    case TB_SYR2K:
        return tela_dsyr2k(par, 'L', 'N', n, n, 1.0, p->a, n, p->b, n, 1.0, out, n);
    case TB_GETRF:
        return tela_dgetrf(par, n, n, out, n, s->pivots);
    case TB_GETRS:
        return tela_dgetrs(par, 'N', n, nrhs, p->factors, n, p->pivots, s->rhs, n);
    case TB_GESV:
        return tela_dgesv(par, n, nrhs, out, n, s->pivots, s->rhs, n);
    case TB_POTRF:
        return tela_dpotrf(par, p->uplo, n, out, n);
    case TB_POTRS:
        return tela_dpotrs(par, p->uplo, n, nrhs, p->factors, n, s->rhs, n);
    case TB_POSV:
        return tela_dposv(par, p->uplo, n, nrhs, out, n, s->rhs, n);
    default:
        break;
    }
    return -1;
}

static int cblas_trans(char trans)
{
    return trans == 'N' ? TB_CBLAS_NO_TRANS : TB_CBLAS_TRANS;
}

int tb_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob, struct tb_state *s)
{
    if (tb_routine_is_memory_bound(p->routine))
        return tb_vector_call_openblas(p, ob, s);
    if (tb_routine_is_qr(p->routine))
        return tb_qr_call_openblas(p, ob, s);
    if (tb_routine_is_eig(p->routine))
        return tb_eig_call_openblas(p, ob, s);
    const int n = p->n, nrhs = p->nrhs;
    const double one = 1.0;
    double *out = s->matrix;
    int info = 0;
    const char uplo[2] = {p->uplo, '\0'};
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
    case TB_SYMM:
        ob->dsymm("L", "L", &n, &n, &one, p->a, &n, p->b, &n, &one, out, &n, 1, 1);
        break;
    case TB_SYR2K:
        ob->dsyr2k("L", "N", &n, &n, &one, p->a, &n, p->b, &n, &one, out, &n, 1, 1);
        break;
    case TB_GETRF:
        ob->dgetrf(&n, &n, out, &n, s->pivots_lp64, &info);
        break;
    case TB_GETRS:
        ob->dgetrs("N", &n, &nrhs, p->factors, &n, p->pivots_lp64, s->rhs, &n, &info, 1);
        break;
    case TB_GESV:
        ob->dgesv(&n, &nrhs, out, &n, s->pivots_lp64, s->rhs, &n, &info);
        break;
    case TB_POTRF:
        ob->dpotrf(uplo, &n, out, &n, &info, 1);
        break;
    case TB_POTRS:
        ob->dpotrs(uplo, &n, &nrhs, p->factors, &n, s->rhs, &n, &info, 1);
        break;
    case TB_POSV:
        ob->dposv(uplo, &n, &nrhs, out, &n, s->rhs, &n, &info, 1);
        break;
    default:
        break;
    }
    return info;
}

/* ---- checks: level 3 ---------------------------------------------------------------------- */

static double level3_difference(const struct tb_problem *p, const double *x, const double *y)
{
    const int n = p->n;
    /* syrk and syr2k write only the lower triangle */
    const int lower_only = p->routine == TB_SYRK || p->routine == TB_SYR2K;
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
    const int triangular_a =
        p->routine == TB_TRSM || p->routine == TB_TRMM || p->routine == TB_SYMM;
    double scale = tb_max_abs(p->a, n, triangular_a);
    switch (p->routine) {
    case TB_GEMM:
    case TB_TRMM:
    case TB_SYMM:
    case TB_SYR2K:
        scale *= tb_max_abs(p->b, n, 0);
        break;
    case TB_TRSM:
        scale *= tb_max_abs(y, n, 0);
        break;
    case TB_SYRK:
        scale *= scale;
        break;
    default:
        break;
    }
    return diff / ((double)n * DBL_EPSILON * scale);
}

/* ---- checks: LAPACK residuals ------------------------------------------------------------- */

/* The matrix the routine factors, in full: p->a itself for LU, the symmetric matrix its uplo
 * triangle stands for (copied into *owned) for Cholesky. NULL out of memory. */
static const double *full_matrix(const struct tb_problem *p, double **owned)
{
    *owned = NULL;
    if (p->routine == TB_GETRF || p->routine == TB_GETRS || p->routine == TB_GESV)
        return p->a;
    const size_t n = (size_t)p->n;
    double *s = alloc_matrix(p->n);
    if (!s)
        return NULL;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < n; i++)
            s[i + j * n] = (p->uplo == 'L' ? i >= j : i <= j) ? p->a[i + j * n] : p->a[j + i * n];
    }
    *owned = s;
    return s;
}

/* ||P A - L U|| / (n ||A|| eps) for the factors lu and pivots (1-based) of p->a. NaN for a
 * NaN anywhere or a pivot out of range; -1 out of memory. */
static double lu_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                          const double *lu, const int *pivots)
{
    const int n = p->n;
    const size_t nn = (size_t)n;
    for (size_t i = 0; i < nn; i++) {
        if (!pivots || pivots[i] < (int)i + 1 || pivots[i] > n)
            return NAN;
    }
    double *product = alloc_matrix(n), *pa = alloc_matrix(n);
    if (!product || !pa) {
        free(product);
        free(pa);
        return -1.0;
    }
    /* product = L U: U with zeros below the diagonal, times the unit lower L. */
    for (size_t j = 0; j < nn; j++) {
        for (size_t i = 0; i < nn; i++)
            product[i + j * nn] = i <= j ? lu[i + j * nn] : 0.0;
    }
    ob->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS, TB_CBLAS_UNIT,
              n, n, 1.0, lu, n, product, n);
    /* P A: the interchanges applied in order, as dlaswp does. */
    memcpy(pa, p->a, nn * nn * sizeof(double));
    for (size_t i = 0; i < nn; i++) {
        size_t other = (size_t)pivots[i] - 1;
        for (size_t j = 0; other != i && j < nn; j++) {
            double t = pa[i + j * nn];
            pa[i + j * nn] = pa[other + j * nn];
            pa[other + j * nn] = t;
        }
    }
    for (size_t k = 0; k < nn * nn; k++)
        pa[k] -= product[k];
    double residual = tb_norm1(pa, n, n, n) / ((double)n * tb_norm1(p->a, n, n, n) * DBL_EPSILON);
    free(product);
    free(pa);
    return residual;
}

/* ||A - L L^T|| / (n ||A|| eps) for the factor in the lower triangle of l; -1 out of memory. */
static double cholesky_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                                const double *l)
{
    const int n = p->n;
    const size_t nn = (size_t)n;
    double *owned;
    const double *a = full_matrix(p, &owned);
    double *product = alloc_matrix(n);
    if (!a || !product) {
        free(owned);
        free(product);
        return -1.0;
    }
    const int lower = p->uplo == 'L';
    for (size_t j = 0; j < nn; j++) {
        for (size_t i = 0; i < nn; i++)
            product[i + j * nn] = (lower ? i >= j : i <= j) ? l[i + j * nn] : 0.0;
    }
    /* product = L L^T, or U^T U. */
    if (lower)
        ob->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_RIGHT, TB_CBLAS_LOWER, TB_CBLAS_TRANS,
                  TB_CBLAS_NON_UNIT, n, n, 1.0, l, n, product, n);
    else
        ob->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_UPPER, TB_CBLAS_TRANS,
                  TB_CBLAS_NON_UNIT, n, n, 1.0, l, n, product, n);
    for (size_t k = 0; k < nn * nn; k++)
        product[k] = a[k] - product[k];
    double residual = tb_norm1(product, n, n, n) / ((double)n * tb_norm1(a, n, n, n) * DBL_EPSILON);
    free(owned);
    free(product);
    return residual;
}

/* The largest over the columns of ||b - A x|| / (n ||A|| ||x|| eps); -1 out of memory. */
static double solve_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                             const double *x)
{
    const int n = p->n, nrhs = p->nrhs;
    const size_t nn = (size_t)n;
    double *owned;
    const double *a = full_matrix(p, &owned);
    double *r = tb_alloc_doubles(n, nrhs);
    if (!a || !r) {
        free(owned);
        free(r);
        return -1.0;
    }
    memcpy(r, p->b, nn * (size_t)nrhs * sizeof(double));
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_NO_TRANS, TB_CBLAS_NO_TRANS, n, nrhs, n, -1.0, a, n, x,
              n, 1.0, r, n);
    const double a_norm = tb_norm1(a, n, n, n);
    double worst = 0.0;
    for (int j = 0; j < nrhs && !isnan(worst); j++) {
        const size_t at = (size_t)j * nn;
        double x_norm = tb_norm1(x + at, n, 1, n);
        double residual = tb_norm1(r + at, n, 1, n) / ((double)n * a_norm * x_norm * DBL_EPSILON);
        worst = isnan(residual) || residual > worst ? residual : worst;
    }
    free(owned);
    free(r);
    return worst;
}

/* The residual of one side's result. */
static double lapack_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                              const struct tb_state *s, const int *pivots)
{
    switch (p->routine) {
    case TB_GETRF:
        return lu_residual(p, ob, s->matrix, pivots);
    case TB_POTRF:
        return cholesky_residual(p, ob, s->matrix);
    default:
        return solve_residual(p, ob, s->rhs);
    }
}

int tb_problem_check(const struct tb_problem *p, const struct tb_openblas *ob,
                     const struct tb_state *tela, const struct tb_state *openblas,
                     struct tb_check *check)
{
    check->reference = NAN;
    check->agreement = NAN;
    check->pivots_differ = -1;
    check->signs_differ = -1;
    check->other_triangle_written = 0;
    if (tb_routine_is_qr(p->routine))
        return tb_qr_check(p, ob, tela, openblas, check);
    if (tb_routine_is_eig(p->routine))
        return tb_eig_check(p, ob, tela, openblas, check);
    if (tb_routine_is_memory_bound(p->routine)) {
        check->difference = tb_vector_difference(p, tela, openblas);
        return 0;
    }
    if (!tb_routine_is_lapack(p->routine)) {
        check->difference = level3_difference(p, tela->matrix, openblas->matrix);
        return 0;
    }
    const size_t n = (size_t)p->n;
    int *tela_pivots = NULL;
    if (tela->pivots) {
        /* tela's pivots as ints, for the residual; a value beyond int is out of range anyway. */
        tela_pivots = malloc(n * sizeof *tela_pivots + 1);
        if (!tela_pivots)
            return -1;
        check->pivots_differ = 0;
        for (size_t i = 0; i < n; i++) {
            tela_int v = tela->pivots[i];
            tela_pivots[i] = v >= 1 && v <= p->n ? (int)v : 0;
            check->pivots_differ += v != openblas->pivots_lp64[i];
        }
    }
    check->difference = lapack_residual(p, ob, tela, tela_pivots);
    check->reference = lapack_residual(p, ob, openblas, openblas->pivots_lp64);
    free(tela_pivots);
    if (check->difference == -1.0 || check->reference == -1.0)
        return -1;
    if (p->routine == TB_POTRF || p->routine == TB_POSV) {
        for (size_t j = 0; j < n; j++) {
            for (size_t i = 0; i < n; i++) {
                if (p->uplo == 'L' ? i >= j : i <= j)
                    continue;
                /* Bit for bit: the values are copies, and no value is NaN or -0. */
                uint64_t was, now;
                memcpy(&was, &p->a[i + j * n], sizeof was);
                memcpy(&now, &tela->matrix[i + j * n], sizeof now);
                check->other_triangle_written |= was != now;
            }
        }
    }
    return 0;
}
