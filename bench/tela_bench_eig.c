/* tela_bench_eig.c — the symmetric eigen family of tela-bench (tela_bench_eig.h): dsyevd with and
 * without vectors, dsyevr on the whole spectrum and on its lowest tenth, dsyev and dsygvd,
 * against OpenBLAS's drivers (reference LAPACK on OpenBLAS's BLAS) with the workspace its
 * lwork = liwork = -1 query asks for, allocated once per problem; each side's result checked by
 * LAPACK's residuals (products with OpenBLAS's BLAS), the eigenvalues against each other. Also
 * the per-phase timing of dsyevd (--eig-phases). */
#include "tela_bench_eig.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- flops and shapes ---------------------------------------------------------------------- */

int tb_eig_upper_index(int n)
{
    return n / 10 > 1 ? n / 10 : 1;
}

double tb_eig_flops(enum tb_routine routine, int size)
{
    const double n = size, n3 = n * n * n, k = tb_eig_upper_index(size);
    switch (routine) {
    case TB_SYEVD:
    case TB_SYEVR:
    case TB_SYEV:
        return 4.0 * n3;
    case TB_SYEVDN:
        return 4.0 / 3.0 * n3;
    case TB_SYEVRI:
        return 4.0 / 3.0 * n3 + 2.0 * n * n * k;
    case TB_SYGVD:
        return 19.0 / 3.0 * n3;
    default:
        return 0.0;
    }
}

const char *tb_eig_flops_formula(enum tb_routine routine)
{
    switch (routine) {
    case TB_SYEVD:
    case TB_SYEVR:
    case TB_SYEV:
        return "4n^3";
    case TB_SYEVDN:
        return "4/3 n^3";
    case TB_SYEVRI:
        return "4/3 n^3 + 2n^2 k, k = n/10";
    case TB_SYGVD:
        return "19/3 n^3";
    default:
        return "";
    }
}

int tb_eig_has_vectors(enum tb_routine routine)
{
    return routine != TB_SYEVDN;
}

static int is_syevr(enum tb_routine routine)
{
    return routine == TB_SYEVR || routine == TB_SYEVRI;
}

/* The eigenvalues a call must find: n, or syevri's iu. */
static int expected_count(const struct tb_problem *p)
{
    return p->routine == TB_SYEVRI ? tb_eig_upper_index(p->n) : p->n;
}

/* ---- inputs and OpenBLAS's workspace -------------------------------------------------------- */

/* The length a query returned (at least 1), or -1 if it reported an error. */
static int queried(double length, int info)
{
    return info != 0 ? -1 : length < 1.0 ? 1 : (int)length;
}

/* OpenBLAS's workspace lengths for one call of p; 0, or -1 on an error. Nothing is read but the
 * arguments: a query touches no array. */
static int query_workspace(struct tb_problem *p, const struct tb_openblas *ob)
{
    const int n = p->n, one = 1, query = -1, il = 1, iu = tb_eig_upper_index(p->n);
    const char *jobz = tb_eig_has_vectors(p->routine) ? "V" : "N";
    const double zero = 0.0;
    double length = 0.0, w = 0.0;
    int ilength = 1, info = 0, m = 0, support[2];
    switch (p->routine) {
    case TB_SYEVD:
    case TB_SYEVDN:
        ob->dsyevd(jobz, "L", &n, p->a, &n, &w, &length, &query, &ilength, &query, &info, 1, 1);
        break;
    case TB_SYEVR:
    case TB_SYEVRI:
        ob->dsyevr("V", p->routine == TB_SYEVR ? "A" : "I", "L", &n, p->a, &n, &zero, &zero, &il,
                   &iu, &zero, &m, &w, p->a, &n, support, &length, &query, &ilength, &query, &info,
                   1, 1, 1);
        break;
    case TB_SYEV:
        ob->dsyev("V", "L", &n, p->a, &n, &w, &length, &query, &info, 1, 1);
        break;
    case TB_SYGVD:
        ob->dsygvd(&one, "V", "L", &n, p->a, &n, p->b, &n, &w, &length, &query, &ilength, &query,
                   &info, 1, 1);
        break;
    default:
        return -1;
    }
    p->lwork = queried(length, info);
    p->liwork = ilength < 1 ? 1 : ilength;
    return p->lwork > 0 ? 0 : -1;
}

int tb_eig_problem_init(struct tb_problem *p, uint64_t *state, const struct tb_openblas *ob)
{
    const int n = p->n;
    const size_t nn = (size_t)n;
    p->flops = tb_eig_flops(p->routine, n);
    p->a = tb_alloc_operand(n, n);
    p->b = p->routine == TB_SYGVD ? tb_alloc_operand(n, n) : NULL;
    if (!p->a || (p->routine == TB_SYGVD && !p->b))
        return -1;
    /* Both triangles random and independent: the lower one is the matrix, a routine that read
     * the upper one would fail the check. */
    tb_fill_uniform(p->a, nn * nn, state);
    if (p->b) {
        /* Diagonally dominant (n + |u| on the diagonal, as potrf's input): positive definite and
         * well conditioned, so the pencil's eigenvalues are as well defined as A's. */
        for (size_t j = 0; j < nn; j++) {
            for (size_t i = 0; i < nn; i++) {
                const double u = tb_next_uniform(state);
                p->b[i + j * nn] = i == j ? (double)n + fabs(u) : u;
            }
        }
    }
    return query_workspace(p, ob);
}

/* ---- one side's buffers ------------------------------------------------------------------- */

int tb_eig_state_init(const struct tb_problem *p, struct tb_state *s)
{
    const int n = p->n, syevr = is_syevr(p->routine);
    const size_t pairs = 2 * (size_t)n;
    s->matrix = tb_alloc_operand(n, n);
    s->values = tb_alloc_doubles(n, 1);
    s->work = tb_alloc_doubles(p->lwork, 1);
    s->iwork = tb_alloc_bytes((size_t)p->liwork * sizeof *s->iwork);
    s->vectors = syevr ? tb_alloc_doubles(n, n) : NULL;
    s->support = syevr ? tb_alloc_bytes(pairs * sizeof *s->support) : NULL;
    s->support_lp64 = syevr ? tb_alloc_bytes(pairs * sizeof *s->support_lp64) : NULL;
    s->rhs = p->routine == TB_SYGVD ? tb_alloc_operand(n, n) : NULL;
    if (!s->matrix || !s->values || !s->work || !s->iwork ||
        (syevr && (!s->vectors || !s->support || !s->support_lp64)) ||
        (p->routine == TB_SYGVD && !s->rhs))
        return -1;
    return 0;
}

void tb_eig_state_reset(const struct tb_problem *p, struct tb_state *s)
{
    const size_t bytes = (size_t)p->n * (size_t)p->n * sizeof(double);
    memcpy(s->matrix, p->a, bytes);
    if (s->rhs)
        memcpy(s->rhs, p->b, bytes);
    s->found = -1;
}

/* ---- calls -------------------------------------------------------------------------------- */

int tb_eig_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s)
{
    const tela_int n = p->n;
    switch (p->routine) {
    case TB_SYEVD:
    case TB_SYEVDN:
        return tela_dsyevd(par, tb_eig_has_vectors(p->routine) ? 'V' : 'N', 'L', n, s->matrix, n,
                           s->values);
    case TB_SYEVR:
    case TB_SYEVRI: {
        tela_int m = -1;
        const int info = tela_dsyevr(par, 'V', p->routine == TB_SYEVR ? 'A' : 'I', 'L', n,
                                     s->matrix, n, 0.0, 0.0, 1, tb_eig_upper_index(p->n), 0.0, &m,
                                     s->values, s->vectors, n, s->support);
        s->found = (int)m;
        return info;
    }
    case TB_SYEV:
        return tela_dsyev(par, 'V', 'L', n, s->matrix, n, s->values);
    case TB_SYGVD:
        return tela_dsygvd(par, 1, 'V', 'L', n, s->matrix, n, s->rhs, n, s->values);
    default:
        return -1;
    }
}

int tb_eig_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                         struct tb_state *s)
{
    const int n = p->n, lwork = p->lwork, liwork = p->liwork, one = 1, il = 1;
    const int iu = tb_eig_upper_index(p->n);
    const double zero = 0.0;
    int info = 0;
    switch (p->routine) {
    case TB_SYEVD:
    case TB_SYEVDN:
        ob->dsyevd(tb_eig_has_vectors(p->routine) ? "V" : "N", "L", &n, s->matrix, &n, s->values,
                   s->work, &lwork, s->iwork, &liwork, &info, 1, 1);
        break;
    case TB_SYEVR:
    case TB_SYEVRI:
        ob->dsyevr("V", p->routine == TB_SYEVR ? "A" : "I", "L", &n, s->matrix, &n, &zero, &zero,
                   &il, &iu, &zero, &s->found, s->values, s->vectors, &n, s->support_lp64, s->work,
                   &lwork, s->iwork, &liwork, &info, 1, 1, 1);
        break;
    case TB_SYEV:
        ob->dsyev("V", "L", &n, s->matrix, &n, s->values, s->work, &lwork, &info, 1, 1);
        break;
    case TB_SYGVD:
        ob->dsygvd(&one, "V", "L", &n, s->matrix, &n, s->rhs, &n, s->values, s->work, &lwork,
                   s->iwork, &liwork, &info, 1, 1);
        break;
    default:
        info = -1;
        break;
    }
    return info;
}

/* ---- checks: residuals as LAPACK's tests measure them (1-norms, eps = 2^-52) ---------------- */

/* The error value of the residual functions: out of memory. */
#define FAILED (-1.0)

/* The symmetric matrix the lower triangle of x (n x n) stands for, in full; NULL out of
 * memory. */
static double *full_symmetric(const double *x, int n)
{
    const size_t nn = (size_t)n;
    double *full = tb_alloc_doubles(n, n);
    if (!full)
        return NULL;
    for (size_t j = 0; j < nn; j++) {
        for (size_t i = 0; i < nn; i++)
            full[i + j * nn] = i >= j ? x[i + j * nn] : x[j + i * nn];
    }
    return full;
}

/* t = Z diag(w) for the n x m z (leading dimension n); t is n x m. */
static void scale_columns(const double *z, const double *w, int n, int m, double *t)
{
    for (size_t j = 0; j < (size_t)m; j++) {
        for (size_t i = 0; i < (size_t)n; i++)
            t[i + j * (size_t)n] = w[j] * z[i + j * (size_t)n];
    }
}

/* ||A Z - Z diag(w)|| / (n ||A|| eps), LAPACK's dsyt21 first measure, Z n x m. */
static double eigen_residual(const struct tb_openblas *ob, const double *a, double a_norm, int n,
                             const double *z, const double *w, int m)
{
    double *r = tb_alloc_doubles(n, m);
    if (!r)
        return FAILED;
    scale_columns(z, w, n, m, r);
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_NO_TRANS, TB_CBLAS_NO_TRANS, n, m, n, 1.0, a, n, z, n,
              -1.0, r, n);
    const double residual = tb_norm1(r, n, m, n) / ((double)n * a_norm * DBL_EPSILON);
    free(r);
    return residual;
}

/* ||I - Z^T Z|| / (n eps), dsyt21's second measure, Z n x m. */
static double orthogonality(const struct tb_openblas *ob, const double *z, int n, int m)
{
    double *c = tb_alloc_doubles(m, m);
    if (!c)
        return FAILED;
    for (size_t j = 0; j < (size_t)m; j++) {
        for (size_t i = 0; i < (size_t)m; i++)
            c[i + j * (size_t)m] = i == j ? 1.0 : 0.0;
    }
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_TRANS, TB_CBLAS_NO_TRANS, m, m, n, -1.0, z, n, z, n, 1.0,
              c, m);
    const double residual = tb_norm1(c, m, m, m) / ((double)n * DBL_EPSILON);
    free(c);
    return residual;
}

/* ||A Z - B Z diag(w)|| / (n ||A|| ||Z|| eps), LAPACK's dsgt01 for itype 1, Z n x n. */
static double pencil_residual(const struct tb_openblas *ob, const double *a, double a_norm,
                              const double *b, int n, const double *z, const double *w)
{
    double *bz = tb_alloc_doubles(n, n), *r = tb_alloc_doubles(n, n);
    if (!bz || !r) {
        free(bz);
        free(r);
        return FAILED;
    }
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_NO_TRANS, TB_CBLAS_NO_TRANS, n, n, n, 1.0, b, n, z, n,
              0.0, bz, n);
    scale_columns(bz, w, n, n, r);
    ob->dgemm(TB_CBLAS_COL_MAJOR, TB_CBLAS_NO_TRANS, TB_CBLAS_NO_TRANS, n, n, n, 1.0, a, n, z, n,
              -1.0, r, n);
    const double residual =
        tb_norm1(r, n, n, n) / ((double)n * a_norm * tb_norm1(z, n, n, n) * DBL_EPSILON);
    free(bz);
    free(r);
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

/* max |x_i - y_i| / (n eps scale) over m values; NaN if any is NaN. */
static double values_agreement(const double *x, const double *y, int m, int n, double scale)
{
    double most = 0.0;
    for (int i = 0; i < m; i++) {
        const double d = fabs(x[i] - y[i]);
        if (isnan(d))
            return NAN;
        most = d > most ? d : most;
    }
    return most / ((double)n * DBL_EPSILON * scale);
}

/* One side's residual: NaN when it found another number of eigenvalues than asked for. */
static double side_residual(const struct tb_problem *p, const struct tb_openblas *ob,
                            const struct tb_state *s, const double *a, double a_norm,
                            const double *b)
{
    const int n = p->n, m = is_syevr(p->routine) ? s->found : n;
    if (m != expected_count(p))
        return NAN;
    const double *z = is_syevr(p->routine) ? s->vectors : s->matrix;
    if (p->routine == TB_SYGVD)
        return pencil_residual(ob, a, a_norm, b, n, z, s->values);
    return worse(eigen_residual(ob, a, a_norm, n, z, s->values, m), orthogonality(ob, z, n, m));
}

int tb_eig_check(const struct tb_problem *p, const struct tb_openblas *ob,
                 const struct tb_state *tela, const struct tb_state *openblas,
                 struct tb_check *check)
{
    const int n = p->n;
    double *a = full_symmetric(p->a, n);
    double *b = p->routine == TB_SYGVD ? full_symmetric(p->b, n) : NULL;
    if (!a || (p->routine == TB_SYGVD && !b)) {
        free(a);
        free(b);
        return -1;
    }
    const double a_norm = tb_norm1(a, n, n, n);
    const int vectors = tb_eig_has_vectors(p->routine);
    check->difference = vectors ? side_residual(p, ob, tela, a, a_norm, b) : NAN;
    check->reference = vectors ? side_residual(p, ob, openblas, a, a_norm, b) : NAN;
    const int m = expected_count(p);
    if (is_syevr(p->routine) && (tela->found != m || openblas->found != m)) {
        fprintf(stderr, "\ntela-bench: %s at n=%d: tela found %d eigenvalues, OpenBLAS %d, of %d\n",
                tb_routine_names[p->routine], n, tela->found, openblas->found, m);
        check->agreement = NAN;
    } else {
        /* The pencil's eigenvalues are those of inv(L) A inv(L^T), whose norm is the largest
         * |w|: their rounding scales with it, not with ||A||. */
        const double scale =
            p->routine == TB_SYGVD ? tb_max_abs_rect(openblas->values, n, 1, n) : a_norm;
        check->agreement = values_agreement(tela->values, openblas->values, m, n, scale);
    }
    free(a);
    free(b);
    return check->difference == FAILED || check->reference == FAILED ? -1 : 0;
}

/* ---- --eig-phases ---------------------------------------------------------------------------- */

const char *const tb_eig_phase_names[TB_EIG_PHASE_COUNT] = {
    [TB_EIG_SYTRD] = "dsytrd", [TB_EIG_STEDC] = "dstedc", [TB_EIG_ORMTR] = "dormtr"};

/* One side's buffers: A overwritten by the reflectors, the tridiagonal (d, e) and tau, the
 * values and off-diagonal dstedc works on (copies, since it destroys them), Z. */
struct phase_side {
    double *a, *d, *e, *tau, *w, *off, *z;
};

struct tb_eig_phases {
    int n;
    int lwork, liwork; /* OpenBLAS's, the largest of its three queries */
    double *input;     /* syevd's A: its lower triangle */
    struct phase_side side[TB_SIDE_COUNT];
    double *work;
    int *iwork;
};

void tb_eig_phases_free(struct tb_eig_phases *phases)
{
    if (!phases)
        return;
    free(phases->input);
    for (int k = 0; k < TB_SIDE_COUNT; k++) {
        struct phase_side *s = &phases->side[k];
        free(s->a);
        free(s->d);
        free(s->e);
        free(s->tau);
        free(s->w);
        free(s->off);
        free(s->z);
    }
    free(phases->work);
    free(phases->iwork);
    free(phases);
}

/* The larger of a and b, -1 if either is (an error). */
static int larger_length(int a, int b)
{
    return a < 0 || b < 0 ? -1 : a > b ? a : b;
}

/* OpenBLAS's workspace for the three phases at order n; 0, or -1 on an error. */
static int phase_workspace(struct tb_eig_phases *phases, const struct tb_openblas *ob)
{
    const int n = phases->n, query = -1;
    double length = 0.0, dummy = 0.0;
    int ilength = 1, info = 0;
    double *a = phases->input;
    ob->dsytrd("L", &n, a, &n, &dummy, &dummy, &dummy, &length, &query, &info, 1);
    int lwork = queried(length, info);
    ob->dstedc("I", &n, &dummy, &dummy, a, &n, &length, &query, &ilength, &query, &info, 1);
    lwork = larger_length(lwork, queried(length, info));
    phases->liwork = ilength < 1 ? 1 : ilength;
    ob->dormtr("L", "L", "N", &n, &n, a, &n, &dummy, a, &n, &length, &query, &info, 1, 1, 1);
    phases->lwork = larger_length(lwork, queried(length, info));
    return phases->lwork > 0 ? 0 : -1;
}

struct tb_eig_phases *tb_eig_phases_create(int n, const struct tb_openblas *ob)
{
    struct tb_eig_phases *phases = calloc(1, sizeof *phases);
    if (!phases)
        return NULL;
    phases->n = n;
    /* syevd's problem, so the phases' input is the one its table timed. */
    struct tb_problem p;
    if (tb_problem_init(&p, TB_SYEVD, 'N', 'N', 'L', n, n, 0, ob) != 0) {
        free(phases);
        return NULL;
    }
    phases->input = p.a;
    p.a = NULL;
    tb_problem_free(&p);
    int made = phase_workspace(phases, ob) == 0;
    for (int k = 0; k < TB_SIDE_COUNT && made; k++) {
        struct phase_side *s = &phases->side[k];
        s->a = tb_alloc_doubles(n, n);
        s->z = tb_alloc_doubles(n, n);
        s->d = tb_alloc_doubles(n, 1);
        s->e = tb_alloc_doubles(n, 1);
        s->tau = tb_alloc_doubles(n, 1);
        s->w = tb_alloc_doubles(n, 1);
        s->off = tb_alloc_doubles(n, 1);
        made = s->a && s->z && s->d && s->e && s->tau && s->w && s->off;
    }
    if (made) {
        phases->work = tb_alloc_doubles(phases->lwork, 1);
        phases->iwork = tb_alloc_bytes((size_t)phases->liwork * sizeof *phases->iwork);
        made = phases->work && phases->iwork;
    }
    if (!made) {
        tb_eig_phases_free(phases);
        return NULL;
    }
    return phases;
}

static int64_t phase_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int tb_eig_phases_run(struct tb_eig_phases *phases, enum tb_side side, tela_par par,
                      const struct tb_openblas *ob, int64_t ns[TB_EIG_PHASE_COUNT])
{
    const int n = phases->n, lwork = phases->lwork, liwork = phases->liwork;
    const tela_int tn = n;
    struct phase_side *s = &phases->side[side];
    const int tela = side == TB_TELA;
    int info = 0;
    memcpy(s->a, phases->input, (size_t)n * (size_t)n * sizeof(double));

    int64_t start = phase_clock_ns();
    if (tela)
        info = tela_dsytrd(par, 'L', tn, s->a, tn, s->d, s->e, s->tau);
    else
        ob->dsytrd("L", &n, s->a, &n, s->d, s->e, s->tau, phases->work, &lwork, &info, 1);
    ns[TB_EIG_SYTRD] = phase_clock_ns() - start;
    if (info != 0)
        return info;

    memcpy(s->w, s->d, (size_t)n * sizeof(double));
    memcpy(s->off, s->e, (size_t)(n > 1 ? n - 1 : 0) * sizeof(double));
    start = phase_clock_ns();
    if (tela)
        info = tela_dstedc(par, 'I', tn, s->w, s->off, s->z, tn);
    else
        ob->dstedc("I", &n, s->w, s->off, s->z, &n, phases->work, &lwork, phases->iwork, &liwork,
                   &info, 1);
    ns[TB_EIG_STEDC] = phase_clock_ns() - start;
    if (info != 0)
        return info;

    start = phase_clock_ns();
    if (tela)
        info = tela_dormtr(par, 'L', 'L', 'N', tn, tn, s->a, tn, s->tau, s->z, tn);
    else
        ob->dormtr("L", "L", "N", &n, &n, s->a, &n, s->tau, s->z, &n, phases->work, &lwork, &info,
                   1, 1, 1);
    ns[TB_EIG_ORMTR] = phase_clock_ns() - start;
    return info;
}

int tb_eig_phases_check(const struct tb_eig_phases *phases, const struct tb_openblas *ob,
                        double *residual, double *agreement)
{
    const int n = phases->n;
    double *a = full_symmetric(phases->input, n);
    if (!a)
        return -1;
    const double a_norm = tb_norm1(a, n, n, n);
    const struct phase_side *tela = &phases->side[TB_TELA];
    *residual = worse(eigen_residual(ob, a, a_norm, n, tela->z, tela->w, n),
                      orthogonality(ob, tela->z, n, n));
    *agreement = values_agreement(tela->w, phases->side[TB_OPENBLAS].w, n, n, a_norm);
    free(a);
    return *residual == FAILED ? -1 : 0;
}
