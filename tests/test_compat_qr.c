/* test_compat_qr — the Fortran-ABI QR symbols (dgeqrf_, dorgqr_, dormqr_, dgelqf_, dorglq_,
 * dormlq_, dgels_): every bad-argument number of reference LAPACK 3.11's routines, LWORK's
 * included, reported to this program's xerbla_ (as xlintstd's own) with the routine's name, INFO
 * = -i and nothing written, WORK neither; the workspace query (LWORK = -1) writing WORK(1) alone,
 * reference's optimal size and at least the least LWORK; the least LWORK enough, in a WORK of
 * exactly that many elements; results bit for bit those of the native routines, and the
 * factorization and least squares residuals under LAPACK's threshold; quick returns and NULL
 * arrays. */
#define _GNU_SOURCE
#include "testutil.h"
#include "xerbla_hooks.h"

#include <float.h>
#include <math.h>

/* The Fortran ABI (LP64), as a Fortran caller sees it: no header declares it. */
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info);
void dgelqf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dorglq_(const int *m, const int *n, const int *k, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info);
void dormlq_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info);

#define SENTINEL 1234.5
/* Reference ILAENV's block size for all seven, in their optimal sizes. */
#define REFERENCE_NB 32

/* ---- one call of any of the seven --------------------------------------------------------------
 */

typedef enum routine { GEQRF, ORGQR, ORMQR, GELQF, ORGLQ, ORMLQ, GELS } routine;

static const char *const routine_names[] = {
    [GEQRF] = "DGEQRF", [ORGQR] = "DORGQR", [ORMQR] = "DORMQR", [GELQF] = "DGELQF",
    [ORGLQ] = "DORGLQ", [ORMLQ] = "DORMLQ", [GELS] = "DGELS ",
};

/* A call's scalar arguments; those a routine lacks are ignored. */
typedef struct qr_call {
    routine r;
    char side, trans; /* ORMQR, ORMLQ: SIDE and TRANS; GELS: TRANS */
    int m, n;
    int k;   /* ORGQR, ORGLQ, ORMQR, ORMLQ: K; GELS: NRHS */
    int lda; /* LDA */
    int ldc; /* ORMQR, ORMLQ: LDC; GELS: LDB */
    int lwork;
} qr_call;

static void call(const qr_call *q, double *a, double *tau, double *c, double *work, int *info)
{
    switch (q->r) {
    case GEQRF:
        dgeqrf_(&q->m, &q->n, a, &q->lda, tau, work, &q->lwork, info);
        break;
    case ORGQR:
        dorgqr_(&q->m, &q->n, &q->k, a, &q->lda, tau, work, &q->lwork, info);
        break;
    case ORMQR:
        dormqr_(&q->side, &q->trans, &q->m, &q->n, &q->k, a, &q->lda, tau, c, &q->ldc, work,
                &q->lwork, info);
        break;
    case GELQF:
        dgelqf_(&q->m, &q->n, a, &q->lda, tau, work, &q->lwork, info);
        break;
    case ORGLQ:
        dorglq_(&q->m, &q->n, &q->k, a, &q->lda, tau, work, &q->lwork, info);
        break;
    case ORMLQ:
        dormlq_(&q->side, &q->trans, &q->m, &q->n, &q->k, a, &q->lda, tau, c, &q->ldc, work,
                &q->lwork, info);
        break;
    case GELS:
        dgels_(&q->trans, &q->m, &q->n, &q->k, a, &q->lda, c, &q->ldc, work, &q->lwork, info);
        break;
    }
}

/* The native routine on the same arguments (LWORK and WORK have no counterpart). */
static int call_native(const qr_call *q, double *a, double *tau, double *c)
{
    const tela_par par = tela_par_auto();
    switch (q->r) {
    case GEQRF:
        return tela_dgeqrf(par, q->m, q->n, a, q->lda, tau);
    case ORGQR:
        return tela_dorgqr(par, q->m, q->n, q->k, a, q->lda, tau);
    case ORMQR:
        return tela_dormqr(par, q->side, q->trans, q->m, q->n, q->k, a, q->lda, tau, c, q->ldc);
    case GELQF:
        return tela_dgelqf(par, q->m, q->n, a, q->lda, tau);
    case ORGLQ:
        return tela_dorglq(par, q->m, q->n, q->k, a, q->lda, tau);
    case ORMLQ:
        return tela_dormlq(par, q->side, q->trans, q->m, q->n, q->k, a, q->lda, tau, c, q->ldc);
    case GELS:
        return tela_dgels(par, q->trans, q->m, q->n, q->k, a, q->lda, c, q->ldc);
    }
    return 0;
}

static int min_int(int a, int b)
{
    return a < b ? a : b;
}

static int max_int(int a, int b)
{
    return a > b ? a : b;
}

static bool is_left(char side)
{
    return side == 'L' || side == 'l';
}

/* Reference 3.11's least LWORK for q's (valid) arguments. */
static int least_lwork(const qr_call *q)
{
    const int mn = min_int(q->m, q->n);
    switch (q->r) {
    case GEQRF:
        return q->m > 0 ? max_int(1, q->n) : 1;
    case GELQF:
    case ORGLQ:
        return max_int(1, q->m);
    case ORGQR:
        return max_int(1, q->n);
    case ORMQR:
    case ORMLQ:
        return max_int(1, is_left(q->side) ? q->n : q->m);
    case GELS:
        return max_int(1, mn + max_int(mn, q->k));
    }
    return 1;
}

/* What the query answers: reference 3.11's optimal LWORK (ILAENV's 32 as NB), never below the
 * least (3.11's DGELQF says M * NB, 0 for M = 0: tela says 32 there). */
static double optimal_lwork(const qr_call *q)
{
    const int mn = min_int(q->m, q->n);
    switch (q->r) {
    case GEQRF:
        return mn == 0 ? 1.0 : (double)q->n * REFERENCE_NB;
    case GELQF:
    case ORGLQ:
        return (double)max_int(1, q->m) * REFERENCE_NB;
    case ORGQR:
        return (double)max_int(1, q->n) * REFERENCE_NB;
    case ORMQR:
    case ORMLQ:
        return (double)least_lwork(q) * REFERENCE_NB + 65 * 64; /* 3.11's TSIZE */
    case GELS:
        return fmax(1.0, mn + (double)max_int(mn, q->k) * REFERENCE_NB);
    }
    return 1.0;
}

/* Whether reference's call returns before any work with WORK(1) = 1 (DGELS: its B zeroed,
 * WORK(1) the optimal size). */
static bool quick_return(const qr_call *q)
{
    switch (q->r) {
    case GEQRF:
    case GELQF:
        return q->m == 0 || q->n == 0;
    case ORGQR:
        return q->n == 0;
    case ORGLQ:
        return q->m == 0;
    case ORMQR:
    case ORMLQ:
        return q->m == 0 || q->n == 0 || q->k == 0;
    case GELS:
        return false;
    }
    return false;
}

static void describe(const qr_call *q, char *what, size_t size)
{
    snprintf(what, size, "%s side=%c trans=%c m=%d n=%d k/nrhs=%d lda=%d ldc/ldb=%d lwork=%d",
             routine_names[q->r], q->side ? q->side : '-', q->trans ? q->trans : '-', q->m, q->n,
             q->k, q->lda, q->ldc, q->lwork);
}

/* ---- argument errors --------------------------------------------------------------------------
 */

typedef struct bad_call {
    int number; /* the argument reference LAPACK rejects first */
    qr_call call;
} bad_call;

static void expect_report(const bad_call *bc)
{
    enum { LEN = 64 };
    double a[LEN], tau[LEN], c[LEN], work[LEN];
    for (int i = 0; i < LEN; i++)
        a[i] = tau[i] = c[i] = work[i] = SENTINEL;
    memset(&hooks, 0, sizeof hooks);
    int info = 99;
    call(&bc->call, a, tau, c, work, &info);
    char what[128];
    describe(&bc->call, what, sizeof what);
    const char *name = routine_names[bc->call.r];
    if (hooks.xerbla != 1)
        fail_msg("%s: xerbla_ called %d times (expected once)", what, hooks.xerbla);
    /* As gfortran passes it: LAPACK's six characters, blank-padded, and the hidden length. */
    if (hooks.srname_len != 6 || strcmp(hooks.srname, name) != 0)
        fail_msg("%s: xerbla_ got \"%s\" (length %zu), expected \"%s\"", what, hooks.srname,
                 hooks.srname_len, name);
    if (hooks.info != bc->number || info != -bc->number)
        fail_msg("%s: xerbla_ got %d and INFO = %d, expected %d and %d", what, hooks.info, info,
                 bc->number, -bc->number);
    for (int i = 0; i < LEN; i++)
        if (a[i] != SENTINEL || tau[i] != SENTINEL || c[i] != SENTINEL || work[i] != SENTINEL)
            fail_msg("%s: element %d of A, TAU, C or WORK written by a call with a bad argument",
                     what, i);
    /* The program's hook won: tela's fallback, which reports to tela's handler, never ran. */
    assert_int_equal(hooks.tela_handler_calls, 0);
}

static void expect_reports(const bad_call *cases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        expect_report(&cases[i]);
}

#define EXPECT_REPORTS(cases) expect_reports((cases), sizeof(cases) / sizeof((cases)[0]))

/* Reference LAPACK 3.11, each number alone at its boundary (the error-exit calls of xlintstd's
 * derrqr, derrlq and derrls among them) and with every later argument bad too, the first in
 * reference's order winning; LWORK = -1 (a query) checks the others all the same. */
static void test_argument_errors(void **state)
{
    (void)state;
    /* DGEQRF: M 1, N 2, LDA 4 (MAX(1, M)), LWORK 7 (>= 1, and >= N when M > 0). */
    static const bad_call geqrf[] = {
        {1, {GEQRF, 0, 0, -1, 0, 0, 1, 0, 1}}, {1, {GEQRF, 0, 0, -1, -1, 0, 0, 0, 0}},
        {2, {GEQRF, 0, 0, 0, -1, 0, 1, 0, 1}}, {2, {GEQRF, 0, 0, 2, -1, 0, 1, 0, -1}},
        {4, {GEQRF, 0, 0, 2, 1, 0, 1, 0, 1}},  {4, {GEQRF, 0, 0, 0, 0, 0, 0, 0, 0}},
        {4, {GEQRF, 0, 0, 3, 2, 0, 2, 0, -1}}, {7, {GEQRF, 0, 0, 1, 2, 0, 1, 0, 1}},
        {7, {GEQRF, 0, 0, 4, 3, 0, 4, 0, 2}},  {7, {GEQRF, 0, 0, 0, 0, 0, 1, 0, 0}},
        {7, {GEQRF, 0, 0, 0, 5, 0, 1, 0, 0}},  /* M = 0: LWORK >= 1 still */
        {7, {GEQRF, 0, 0, 1, 1, 0, 1, 0, -2}}, /* not a query */
    };
    EXPECT_REPORTS(geqrf);
    /* DGELQF 3.11: LWORK 7 against MAX(1, M) even for N = 0. */
    static const bad_call gelqf[] = {
        {1, {GELQF, 0, 0, -1, 0, 0, 1, 0, 1}}, {1, {GELQF, 0, 0, -1, -1, 0, 0, 0, 0}},
        {2, {GELQF, 0, 0, 0, -1, 0, 1, 0, 1}}, {2, {GELQF, 0, 0, 3, -1, 0, 2, 0, -1}},
        {4, {GELQF, 0, 0, 2, 1, 0, 1, 0, 2}},  {4, {GELQF, 0, 0, 0, 0, 0, 0, 0, 0}},
        {7, {GELQF, 0, 0, 2, 1, 0, 2, 0, 1}},  {7, {GELQF, 0, 0, 2, 0, 0, 2, 0, 1}},
        {7, {GELQF, 0, 0, 0, 0, 0, 1, 0, 0}},  {7, {GELQF, 0, 0, 1, 1, 0, 1, 0, -2}},
    };
    EXPECT_REPORTS(gelqf);
    /* DORGQR: M 1, N 2 (0 <= N <= M), K 3 (0 <= K <= N), LDA 5, LWORK 8 (MAX(1, N)). */
    static const bad_call orgqr[] = {
        {1, {ORGQR, 0, 0, -1, 0, 0, 1, 0, 1}}, {1, {ORGQR, 0, 0, -1, -1, -1, 0, 0, 0}},
        {2, {ORGQR, 0, 0, 0, -1, 0, 1, 0, 1}}, {2, {ORGQR, 0, 0, 1, 2, 0, 1, 0, 2}},
        {2, {ORGQR, 0, 0, 1, 2, 3, 0, 0, 0}},  {3, {ORGQR, 0, 0, 0, 0, -1, 1, 0, 1}},
        {3, {ORGQR, 0, 0, 1, 1, 2, 1, 0, 1}},  {3, {ORGQR, 0, 0, 3, 2, 3, 1, 0, -1}},
        {5, {ORGQR, 0, 0, 2, 1, 0, 1, 0, 1}},  {5, {ORGQR, 0, 0, 0, 0, 0, 0, 0, 0}},
        {8, {ORGQR, 0, 0, 2, 2, 0, 2, 0, 1}},  {8, {ORGQR, 0, 0, 0, 0, 0, 1, 0, 0}},
        {8, {ORGQR, 0, 0, 3, 2, 2, 3, 0, -2}},
    };
    EXPECT_REPORTS(orgqr);
    /* DORGLQ: M 1, N 2 (N >= M), K 3 (0 <= K <= M), LDA 5, LWORK 8 (MAX(1, M)). */
    static const bad_call orglq[] = {
        {1, {ORGLQ, 0, 0, -1, 0, 0, 1, 0, 1}}, {1, {ORGLQ, 0, 0, -1, -2, -1, 0, 0, 0}},
        {2, {ORGLQ, 0, 0, 0, -1, 0, 1, 0, 1}}, {2, {ORGLQ, 0, 0, 2, 1, 0, 2, 0, 2}},
        {3, {ORGLQ, 0, 0, 0, 0, -1, 1, 0, 1}}, {3, {ORGLQ, 0, 0, 1, 1, 2, 1, 0, 1}},
        {3, {ORGLQ, 0, 0, 2, 3, 3, 1, 0, 0}},  {5, {ORGLQ, 0, 0, 2, 2, 0, 1, 0, 2}},
        {5, {ORGLQ, 0, 0, 0, 0, 0, 0, 0, 0}},  {8, {ORGLQ, 0, 0, 2, 2, 0, 2, 0, 1}},
        {8, {ORGLQ, 0, 0, 0, 0, 0, 1, 0, 0}},  {8, {ORGLQ, 0, 0, 2, 3, 2, 2, 0, -2}},
    };
    EXPECT_REPORTS(orglq);
    /* DORMQR and DORMLQ: SIDE 1, TRANS 2 ('N' or 'T': 'C' is bad), M 3, N 4, K 5 (<= NQ, M for
     * 'L', N for 'R'), LDA 7, LDC 10, LWORK 12 (MAX(1, N) for 'L', MAX(1, M) for 'R'). The
     * checks both share (LDA apart). */
    static const bad_call multiply[] = {
        {1, {ORMQR, '/', 'N', 0, 0, 0, 1, 1, 1}},  {1, {ORMQR, 'X', 'C', -1, -1, -1, 0, 0, 0}},
        {1, {ORMQR, 'T', 'N', 2, 2, 1, 2, 2, 2}},  {2, {ORMQR, 'L', '/', 0, 0, 0, 1, 1, 1}},
        {2, {ORMQR, 'r', 'C', 0, 0, 0, 1, 1, 1}},  {2, {ORMQR, 'l', 'c', -1, 0, 0, 0, 0, 0}},
        {3, {ORMQR, 'L', 'N', -1, 0, 0, 1, 1, 1}}, {3, {ORMQR, 'R', 't', -1, -1, -1, 0, 0, 0}},
        {4, {ORMQR, 'L', 'N', 0, -1, 0, 1, 1, 1}}, {4, {ORMQR, 'r', 'T', 2, -1, 3, 0, 0, -1}},
        {5, {ORMQR, 'L', 'N', 0, 0, -1, 1, 1, 1}}, {5, {ORMQR, 'L', 'T', 0, 1, 1, 1, 1, 1}},
        {5, {ORMQR, 'R', 'N', 1, 0, 1, 1, 1, 1}},  {5, {ORMQR, 'l', 'n', 2, 3, 3, 0, 0, 0}},
        {10, {ORMQR, 'L', 'N', 2, 1, 0, 2, 1, 1}}, {10, {ORMQR, 'R', 'T', 3, 0, 0, 1, 2, 0}},
        {12, {ORMQR, 'L', 'N', 1, 2, 0, 1, 1, 1}}, {12, {ORMQR, 'R', 'N', 2, 1, 0, 1, 2, 1}},
        {12, {ORMQR, 'L', 'T', 0, 0, 0, 1, 1, 0}}, {12, {ORMQR, 'R', 't', 3, 4, 2, 4, 3, -2}},
    };
    for (routine r = ORMQR; r <= ORMLQ; r += ORMLQ - ORMQR) {
        for (size_t i = 0; i < sizeof multiply / sizeof multiply[0]; i++) {
            bad_call bc = multiply[i];
            bc.call.r = r;
            expect_report(&bc);
        }
    }
    /* LDA 7: DORMQR's A is NQ x K (LDA >= MAX(1, NQ)), DORMLQ's K x NQ (LDA >= MAX(1, K)). */
    static const bad_call lda[] = {
        {7, {ORMQR, 'L', 'N', 2, 1, 0, 1, 2, 1}},  {7, {ORMQR, 'R', 'N', 1, 2, 0, 1, 1, 1}},
        {7, {ORMQR, 'L', 'T', 3, 1, 1, 2, 0, 0}},  {7, {ORMQR, 'R', 't', 0, 0, 0, 0, 0, 0}},
        {7, {ORMLQ, 'L', 'N', 2, 0, 2, 1, 2, 1}},  {7, {ORMLQ, 'R', 'N', 0, 2, 2, 1, 1, 2}},
        {7, {ORMLQ, 'l', 'T', 3, 3, 3, 2, 0, 0}},  {7, {ORMLQ, 'L', 'n', 0, 0, 0, 0, 0, 0}},
        {10, {ORMLQ, 'L', 'N', 3, 1, 1, 1, 2, 1}}, /* LDA >= K = 1 passes, as DORMQR's would not */
    };
    EXPECT_REPORTS(lda);
    /* DGELS: TRANS 1 ('N' or 'T'), M 2, N 3, NRHS 4, LDA 6 (MAX(1, M)), LDB 8 (MAX(1, M, N)),
     * LWORK 10 (MAX(1, MN + MAX(MN, NRHS))). */
    static const bad_call gels[] = {
        {1, {GELS, 0, '/', 0, 0, 0, 1, 1, 1}},     {1, {GELS, 0, 'C', -1, -1, -1, 0, 0, 0}},
        {1, {GELS, 0, 'c', 2, 2, 1, 2, 2, 8}},     {2, {GELS, 0, 'N', -1, 0, 0, 1, 1, 1}},
        {2, {GELS, 0, 't', -1, -1, -1, 0, 0, -1}}, {3, {GELS, 0, 'N', 0, -1, 0, 1, 1, 1}},
        {4, {GELS, 0, 'T', 0, 0, -1, 1, 1, 1}},    {4, {GELS, 0, 'n', 2, 2, -1, 0, 0, 0}},
        {6, {GELS, 0, 'N', 2, 0, 0, 1, 2, 2}},     {6, {GELS, 0, 'T', 0, 0, 0, 0, 0, 0}},
        {8, {GELS, 0, 'N', 2, 0, 0, 2, 1, 2}},     {8, {GELS, 0, 'N', 0, 2, 0, 1, 1, 2}},
        {8, {GELS, 0, 'T', 2, 3, 1, 2, 2, -1}},    {10, {GELS, 0, 'N', 1, 1, 0, 1, 1, 1}},
        {10, {GELS, 0, 'T', 2, 3, 4, 2, 3, 5}},    {10, {GELS, 0, 'N', 0, 0, 0, 1, 1, 0}},
        {10, {GELS, 0, 't', 3, 2, 1, 3, 3, -2}},
    };
    EXPECT_REPORTS(gels);
}

/* ---- the workspace query ------------------------------------------------------------------------
 */

/* Valid arguments, the workspace's least size and the optimal one around their boundaries: empty
 * matrices, one row or column, either orientation, either side. */
static const qr_call queried[] = {
    {GEQRF, 0, 0, 0, 0, 0, 1, 0, -1},     {GEQRF, 0, 0, 0, 5, 0, 1, 0, -1},
    {GEQRF, 0, 0, 5, 0, 0, 5, 0, -1},     {GEQRF, 0, 0, 1, 7, 0, 1, 0, -1},
    {GEQRF, 0, 0, 90, 70, 0, 91, 0, -1},  {GELQF, 0, 0, 0, 0, 0, 1, 0, -1},
    {GELQF, 0, 0, 0, 5, 0, 1, 0, -1},     {GELQF, 0, 0, 5, 0, 0, 5, 0, -1},
    {GELQF, 0, 0, 70, 90, 0, 70, 0, -1},  {ORGQR, 0, 0, 0, 0, 0, 1, 0, -1},
    {ORGQR, 0, 0, 9, 4, 2, 9, 0, -1},     {ORGQR, 0, 0, 3, 3, 3, 3, 0, -1},
    {ORGLQ, 0, 0, 0, 0, 0, 1, 0, -1},     {ORGLQ, 0, 0, 4, 9, 2, 4, 0, -1},
    {ORMQR, 'L', 'N', 0, 0, 0, 1, 1, -1}, {ORMQR, 'L', 'T', 9, 4, 3, 9, 9, -1},
    {ORMQR, 'R', 'N', 4, 9, 3, 9, 4, -1}, {ORMQR, 'r', 't', 0, 5, 2, 5, 1, -1},
    {ORMLQ, 'L', 'N', 9, 4, 3, 3, 9, -1}, {ORMLQ, 'R', 'T', 4, 9, 3, 3, 4, -1},
    {ORMLQ, 'l', 'n', 5, 0, 2, 2, 5, -1}, {GELS, 0, 'N', 0, 0, 0, 1, 1, -1},
    {GELS, 0, 'N', 0, 0, 3, 1, 1, -1},    {GELS, 0, 'T', 9, 4, 2, 9, 9, -1},
    {GELS, 0, 'N', 4, 9, 12, 4, 9, -1},   {GELS, 0, 't', 7, 7, 1, 7, 7, -1},
};

/* LWORK = -1: INFO = 0, WORK(1) the optimal size (an integer, at least the least LWORK), every
 * other element of every array as it was. */
static void test_workspace_query(void **state)
{
    (void)state;
    enum { LEN = 1024 };
    double *a = malloc(sizeof(double) * LEN), *tau = malloc(sizeof(double) * LEN);
    double *c = malloc(sizeof(double) * LEN), work[8];
    assert_non_null(a);
    assert_non_null(tau);
    assert_non_null(c);
    for (size_t q = 0; q < sizeof queried / sizeof queried[0]; q++) {
        for (int i = 0; i < LEN; i++)
            a[i] = tau[i] = c[i] = SENTINEL;
        for (int i = 0; i < 8; i++)
            work[i] = SENTINEL;
        char what[128];
        describe(&queried[q], what, sizeof what);
        int info = 99;
        call(&queried[q], a, tau, c, work, &info);
        if (info != 0)
            fail_msg("%s: INFO = %d for a query", what, info);
        const double least = least_lwork(&queried[q]), optimal = optimal_lwork(&queried[q]);
        if (!(work[0] >= least) || work[0] != floor(work[0]) || work[0] != optimal)
            fail_msg("%s: the query says %g, expected %g (the least LWORK is %g)", what, work[0],
                     optimal, least);
        for (int i = 1; i < 8; i++)
            if (work[i] != SENTINEL)
                fail_msg("%s: WORK(%d) written by a query", what, i + 1);
        for (int i = 0; i < LEN; i++)
            if (a[i] != SENTINEL || tau[i] != SENTINEL || c[i] != SENTINEL)
                fail_msg("%s: element %d of A, TAU, C or B written by a query", what, i);
    }
    free(a), free(tau), free(c);
    expect_no_reports();
}

/* ---- results against the native routines ---------------------------------------------------- */

/* The arrays of one call: A (lda x columns), TAU, C or B (ldc x columns). */
typedef struct operands {
    double *a, *tau, *c;
    size_t a_len, tau_len, c_len;
} operands;

static double *copy_of(const double *x, size_t len)
{
    double *y = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(y);
    memcpy(y, x, sizeof(double) * len);
    return y;
}

static operands copy_operands(const operands *o)
{
    return (operands){copy_of(o->a, o->a_len),
                      copy_of(o->tau, o->tau_len),
                      copy_of(o->c, o->c_len),
                      o->a_len,
                      o->tau_len,
                      o->c_len};
}

static void free_operands(operands *o)
{
    free(o->a), free(o->tau), free(o->c);
}

/* Runs q (lwork as given, WORK of exactly max(lwork, 1) elements so a sanitizer sees any write
 * past it) on o and the native routine on a copy: the same INFO, the same bits in every array,
 * WORK(1) what reference leaves there. Returns INFO. */
static int compare_with_native(const qr_call *q, const operands *o)
{
    operands want = copy_operands(o);
    const int work_len = max_int(q->lwork, 1);
    double *work = malloc(sizeof(double) * (size_t)work_len);
    assert_non_null(work);
    for (int i = 0; i < work_len; i++)
        work[i] = SENTINEL;
    int info = 99;
    call(q, o->a, o->tau, o->c, work, &info);
    const int want_info = call_native(q, want.a, want.tau, want.c);
    char what[128];
    describe(q, what, sizeof what);
    if (info != want_info)
        fail_msg("%s: INFO = %d, the native routine returned %d", what, info, want_info);
    tu_expect_same(what, o->a, want.a, o->a_len);
    tu_expect_same(what, o->tau, want.tau, o->tau_len);
    tu_expect_same(what, o->c, want.c, o->c_len);
    const double after = quick_return(q) ? 1.0 : optimal_lwork(q);
    if (work[0] != after)
        fail_msg("%s: WORK(1) = %g after the call, expected %g", what, work[0], after);
    for (int i = 1; i < work_len; i++)
        if (work[i] != SENTINEL)
            fail_msg("%s: WORK(%d) written", what, i + 1);
    free(work);
    free_operands(&want);
    return info;
}

/* Random operands for q: A with LDA rows, NaN below its used rows (never read) and a TAU of
 * reflector scalars made by the native factorization when the routine reads reflectors. */
static operands make_operands(const qr_call *q, unsigned seed)
{
    operands o = {NULL, NULL, NULL, 0, 0, 0};
    const bool left = is_left(q->side);
    int a_rows, a_cols, c_cols = 0;
    switch (q->r) {
    case GEQRF:
    case GELQF:
    case ORGQR:
    case ORGLQ:
        a_rows = q->m, a_cols = q->n;
        break;
    case ORMQR:
        a_rows = left ? q->m : q->n, a_cols = q->k, c_cols = q->n;
        break;
    case ORMLQ:
        a_rows = q->k, a_cols = left ? q->m : q->n, c_cols = q->n;
        break;
    case GELS:
    default:
        a_rows = q->m, a_cols = q->n, c_cols = q->k;
        break;
    }
    o.a_len = (size_t)q->lda * (size_t)a_cols;
    o.a = malloc(sizeof(double) * (o.a_len ? o.a_len : 1));
    assert_non_null(o.a);
    for (int j = 0; j < a_cols; j++)
        for (int i = 0; i < q->lda; i++)
            o.a[i + (size_t)j * q->lda] = i < a_rows ? tu_uniform(&seed) : NAN;
    o.tau_len = (size_t)max_int(min_int(a_rows, a_cols), 1);
    o.tau = tu_random_array(o.tau_len, seed + 1);
    /* The reflectors an ORG or ORM routine reads: those the factorization made. */
    const tela_par par = tela_par_auto();
    if (q->r == ORGQR || q->r == ORMQR)
        assert_int_equal(tela_dgeqrf(par, a_rows, a_cols, o.a, q->lda, o.tau), 0);
    if (q->r == ORGLQ || q->r == ORMLQ)
        assert_int_equal(tela_dgelqf(par, a_rows, a_cols, o.a, q->lda, o.tau), 0);
    o.c_len = (size_t)q->ldc * (size_t)c_cols;
    o.c = tu_random_array(o.c_len, seed + 2);
    return o;
}

/* Shapes around tela's block sizes (one recursive panel up to 64 reflectors, blocks of 64 past),
 * both orientations, leading dimensions beyond the least. */
static const int factor_shapes[][2] = {{1, 1},   {1, 6},    {6, 1},    {5, 3},     {3, 5}, {64, 64},
                                       {65, 65}, {150, 70}, {70, 150}, {130, 129}, {0, 3}, {3, 0}};

static void test_factor_results(void **state)
{
    (void)state;
    unsigned seed = 1;
    for (size_t s = 0; s < sizeof factor_shapes / sizeof factor_shapes[0]; s++) {
        const int m = factor_shapes[s][0], n = factor_shapes[s][1];
        for (routine r = GEQRF; r <= GELQF; r += GELQF - GEQRF) {
            qr_call q = {r, 0, 0, m, n, 0, m + 2, 0, 0};
            /* at the least LWORK, one above and at the optimal size */
            const int sizes[] = {least_lwork(&q), least_lwork(&q) + 1, (int)optimal_lwork(&q)};
            for (int w = 0; w < 3; w++) {
                q.lwork = sizes[w];
                operands o = make_operands(&q, seed++);
                compare_with_native(&q, &o);
                free_operands(&o);
            }
        }
    }
    expect_no_reports();
}

static void test_generate_results(void **state)
{
    (void)state;
    unsigned seed = 100;
    /* ORGQR: m >= n >= k; ORGLQ: n >= m >= k (the transposed shapes). */
    static const int shapes[][3] = {{1, 1, 1},     {6, 1, 0},    {6, 4, 4},     {6, 4, 2},
                                    {64, 64, 64},  {65, 65, 65}, {150, 70, 70}, {150, 70, 33},
                                    {130, 129, 0}, {0, 0, 0},    {4, 0, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        const qr_call calls[] = {{ORGQR, 0, 0, m, n, k, m + 1, 0, 0},
                                 {ORGLQ, 0, 0, n, m, k, n + 3, 0, 0}};
        for (int c = 0; c < 2; c++) {
            qr_call q = calls[c];
            const int sizes[] = {least_lwork(&q), (int)optimal_lwork(&q)};
            for (int w = 0; w < 2; w++) {
                q.lwork = sizes[w];
                operands o = make_operands(&q, seed++);
                compare_with_native(&q, &o);
                free_operands(&o);
            }
        }
    }
    expect_no_reports();
}

static void test_multiply_results(void **state)
{
    (void)state;
    unsigned seed = 200;
    /* C's m x n, the reflectors' k (at most the side's order). */
    static const int shapes[][3] = {{1, 1, 1},    {5, 3, 2},     {3, 5, 3},     {70, 65, 65},
                                    {65, 70, 64}, {150, 20, 70}, {20, 150, 20}, {0, 4, 0},
                                    {4, 0, 3},    {9, 9, 0}};
    static const char sides[] = "LRlr", transes[] = "NTnt";
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int m = shapes[s][0], n = shapes[s][1];
        for (int side = 0; side < 4; side++) {
            const bool left = is_left(sides[side]);
            const int nq = left ? m : n, k = min_int(shapes[s][2], nq);
            for (int t = 0; t < 4; t++) {
                /* both sides and both transposes in each case, lowercase for half the calls */
                if ((side < 2) != (t < 2))
                    continue;
                const qr_call calls[] = {
                    {ORMQR, sides[side], transes[t], m, n, k, nq + 2, m + 1, 0},
                    {ORMLQ, sides[side], transes[t], m, n, k, k + 2, m + 1, 0}};
                for (int c = 0; c < 2; c++) {
                    qr_call q = calls[c];
                    q.lwork = least_lwork(&q) + (int)(seed % 3); /* the least or just above */
                    operands o = make_operands(&q, seed++);
                    compare_with_native(&q, &o);
                    free_operands(&o);
                }
            }
        }
    }
    expect_no_reports();
}

/* ||op(A)^T (B - op(A) X)|| / (max(m, n) ||A|| (||A|| ||X|| + ||B||) eps), max norms: the normal
 * equations of an overdetermined op(A) X = B, which the least squares solution satisfies. a, b
 * the inputs; x the solution in dgels's B (its first n rows for 'N', m for 'T'). */
static double normal_equations_ratio(bool trans, int m, int n, int nrhs, const double *a, int lda,
                                     const double *b, int ldb, const double *x, int ldx)
{
    const int rows = trans ? n : m, cols = trans ? m : n; /* op(A) is rows x cols */
    double worst = 0, a_norm = 0, x_norm = 0, b_norm = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            a_norm = fmax(a_norm, fabs(a[i + (size_t)j * lda]));
    double *r = malloc(sizeof(double) * (size_t)rows);
    assert_non_null(r);
    for (int c = 0; c < nrhs; c++) {
        for (int i = 0; i < cols; i++)
            x_norm = fmax(x_norm, fabs(x[i + (size_t)c * ldx]));
        for (int i = 0; i < rows; i++) {
            b_norm = fmax(b_norm, fabs(b[i + (size_t)c * ldb]));
            long double s = b[i + (size_t)c * ldb];
            for (int p = 0; p < cols; p++)
                s -= (long double)(trans ? a[p + (size_t)i * lda] : a[i + (size_t)p * lda]) *
                     x[p + (size_t)c * ldx];
            r[i] = (double)s;
        }
        for (int p = 0; p < cols; p++) {
            long double s = 0;
            for (int i = 0; i < rows; i++)
                s += (long double)(trans ? a[p + (size_t)i * lda] : a[i + (size_t)p * lda]) * r[i];
            worst = fmax(worst, fabs((double)s));
        }
    }
    free(r);
    return worst / (max_int(m, n) * a_norm * (a_norm * x_norm + b_norm) * DBL_EPSILON);
}

static void test_gels_results(void **state)
{
    (void)state;
    unsigned seed = 300;
    static const int shapes[][3] = {{1, 1, 1},    {5, 3, 1},    {3, 5, 2}, {70, 65, 3}, {65, 70, 1},
                                    {150, 70, 4}, {70, 150, 2}, {0, 3, 2}, {3, 0, 1},   {4, 4, 0}};
    static const char transes[] = "NTnt";
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const int m = shapes[s][0], n = shapes[s][1], nrhs = shapes[s][2];
        for (int t = 0; t < 4; t++) {
            for (int singular = 0; singular < 2; singular++) {
                if (singular && (min_int(m, n) < 2 || nrhs == 0)) /* no solve at all */
                    continue;
                qr_call q = {GELS, 0, transes[t], m, n, nrhs, m + 1, max_int(m, n) + 2, 0};
                q.lwork = least_lwork(&q) + (t < 2 ? 0 : 7);
                operands o = make_operands(&q, seed++);
                /* A zero column of a tall A, a zero row of a wide one: a zero on R's (L's)
                 * diagonal, INFO > 0 and no solution */
                const int zeroed = min_int(m, n) / 2;
                for (int i = 0; singular && i < (m >= n ? m : n); i++)
                    o.a[m >= n ? i + (size_t)zeroed * q.lda : zeroed + (size_t)i * q.lda] = 0.0;
                const double *a0 = copy_of(o.a, o.a_len), *b0 = copy_of(o.c, o.c_len);
                const int info = compare_with_native(&q, &o);
                if (singular && info <= 0)
                    fail_msg("dgels_ %c %d x %d with a zero %s: INFO = %d", transes[t], m, n,
                             m >= n ? "column" : "row", info);
                /* the solution itself, where there is one to an overdetermined system */
                const bool trans = t % 2 == 1, over = trans ? n > m : m > n;
                if (!singular && over && min_int(m, n) > 0 && nrhs > 0) {
                    const double ratio =
                        normal_equations_ratio(trans, m, n, nrhs, a0, q.lda, b0, q.ldc, o.c, q.ldc);
                    if (!(ratio < 30.0))
                        fail_msg("dgels_ %c %d x %d: normal equations ratio %g (threshold 30)",
                                 transes[t], m, n, ratio);
                }
                free((void *)a0), free((void *)b0);
                free_operands(&o);
            }
        }
    }
    expect_no_reports();
}

/* ||A - Q R|| / (m ||A|| eps) with Q from dorgqr_, R from dgeqrf_ (and the LQ twin), max norms:
 * the Fortran symbols, each called with the least LWORK, compose into the factorization. */
static void test_factorization_residuals(void **state)
{
    (void)state;
    enum { M = 120, N = 70, LDA = M + 1 };
    for (int lq = 0; lq < 2; lq++) {
        const int rows = lq ? N : M, cols = lq ? M : N, lda = lq ? N + 2 : LDA;
        const int k = min_int(rows, cols), lwork = max_int(rows, cols);
        double *a0 = tu_random_array((size_t)lda * cols, 400 + lq);
        double *f = copy_of(a0, (size_t)lda * cols), *tau = malloc(sizeof(double) * k);
        double *work = malloc(sizeof(double) * (size_t)lwork);
        assert_non_null(tau);
        assert_non_null(work);
        int info = 99;
        if (lq)
            dgelqf_(&rows, &cols, f, &lda, tau, work, &rows, &info);
        else
            dgeqrf_(&rows, &cols, f, &lda, tau, work, &cols, &info);
        assert_int_equal(info, 0);
        double *q = copy_of(f, (size_t)lda * cols);
        if (lq)
            dorglq_(&k, &cols, &k, q, &lda, tau, work, &k, &info);
        else
            dorgqr_(&rows, &k, &k, q, &lda, tau, work, &k, &info);
        assert_int_equal(info, 0);
        double worst = 0, a_norm = 0;
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                long double s = 0;
                for (int p = 0; p < k; p++) {
                    /* QR: Q(i, p) R(p, j), p <= j; LQ: L(i, p) Q(p, j), p <= i */
                    if (lq ? p <= i : p <= j)
                        s += lq ? (long double)f[i + (size_t)p * lda] * q[p + (size_t)j * lda]
                                : (long double)q[i + (size_t)p * lda] * f[p + (size_t)j * lda];
                }
                const double x = a0[i + (size_t)j * lda];
                worst = fmax(worst, fabs((double)(s - x)));
                a_norm = fmax(a_norm, fabs(x));
            }
        }
        const double ratio = worst / (max_int(rows, cols) * a_norm * DBL_EPSILON);
        if (!(ratio < 30.0))
            fail_msg("%s: ||A - product|| ratio %g (threshold 30)", lq ? "LQ" : "QR", ratio);
        free(a0), free(f), free(tau), free(work), free(q);
    }
    expect_no_reports();
}

/* ---- quick returns and NULL arrays ----------------------------------------------------------- */

/* Reference's quick returns: INFO = 0, WORK(1) = 1 (DGELS: its optimal size, B's MAX(M, N) x
 * NRHS block zeroed), nothing else written. A NULL array that would be used, WORK included
 * (reference would crash), gives its -i, no report, nothing written. */
static void test_quick_returns_and_nulls(void **state)
{
    (void)state;
    double a[16], tau[4], b[16], work[4];
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = SENTINEL;
    for (int i = 0; i < 4; i++)
        tau[i] = work[i] = SENTINEL;
    const int zero = 0, one = 1, two = 2, three = 3, four = 4, eight = 8;
    int info = 99;
    /* quick returns: WORK(1) = 1 each time */
    dgeqrf_(&zero, &two, NULL, &one, NULL, work, &one, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dgeqrf_(&two, &zero, a, &two, tau, work, &one, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dgelqf_(&two, &zero, a, &two, tau, work, &two, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dorgqr_(&two, &zero, &zero, a, &two, NULL, work, &one, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dorglq_(&zero, &two, &zero, NULL, &one, NULL, work, &one, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dormqr_("L", "N", &two, &two, &zero, a, &two, NULL, b, &two, work, &two, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    dormlq_("R", "T", &zero, &two, &one, a, &one, tau, NULL, &one, work, &one, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 1.0);
    work[0] = SENTINEL;
    for (int i = 0; i < 16; i++)
        if (a[i] != SENTINEL || b[i] != SENTINEL)
            fail_msg("element %d of A or C written by a quick return", i);
    for (int i = 0; i < 4; i++)
        assert_true(tau[i] == SENTINEL && work[i] == SENTINEL);

    /* DGELS with N = 0: B's 3 x 2 zeroed, WORK(1) reference's optimal size MAX(1, 0 + 2 * 32) */
    dgels_("N", &three, &zero, &two, a, &three, b, &four, work, &two, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 2.0 * REFERENCE_NB);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 4; i++)
            assert_true(b[i + 4 * j] == (i < 3 ? 0.0 : SENTINEL));
    for (int i = 0; i < 16; i++) {
        assert_true(a[i] == SENTINEL);
        b[i] = SENTINEL;
    }
    work[0] = SENTINEL;
    /* NRHS = 0: nothing to zero, B may be NULL */
    dgels_("T", &two, &two, &zero, a, &two, NULL, &two, work, &four, &info);
    assert_int_equal(info, 0);
    assert_true(work[0] == 2.0 + 2.0 * REFERENCE_NB);
    work[0] = SENTINEL;

    /* NULL arrays: the native routine's -i; a NULL WORK WORK's. */
    dgeqrf_(&two, &two, NULL, &two, tau, work, &two, &info);
    assert_int_equal(info, -3);
    dgeqrf_(&two, &two, a, &two, NULL, work, &two, &info);
    assert_int_equal(info, -5);
    dgeqrf_(&two, &two, a, &two, tau, NULL, &two, &info);
    assert_int_equal(info, -6);
    const int query = -1;
    dgeqrf_(&two, &two, a, &two, tau, NULL, &query, &info);
    assert_int_equal(info, -6);
    dgelqf_(&two, &two, NULL, &two, tau, work, &two, &info);
    assert_int_equal(info, -3);
    dgelqf_(&two, &two, a, &two, NULL, work, &two, &info);
    assert_int_equal(info, -5);
    dgelqf_(&two, &two, a, &two, tau, NULL, &query, &info);
    assert_int_equal(info, -6);
    dorgqr_(&two, &two, &one, NULL, &two, tau, work, &two, &info);
    assert_int_equal(info, -4);
    dorgqr_(&two, &two, &one, a, &two, NULL, work, &two, &info);
    assert_int_equal(info, -6);
    dorgqr_(&two, &two, &one, a, &two, tau, NULL, &two, &info);
    assert_int_equal(info, -7);
    dorglq_(&two, &two, &one, NULL, &two, tau, work, &two, &info);
    assert_int_equal(info, -4);
    dorglq_(&two, &two, &two, a, &two, NULL, work, &two, &info);
    assert_int_equal(info, -6);
    dorglq_(&two, &two, &one, a, &two, tau, NULL, &query, &info);
    assert_int_equal(info, -7);
    dormqr_("L", "T", &two, &two, &one, NULL, &two, tau, b, &two, work, &two, &info);
    assert_int_equal(info, -6);
    dormqr_("L", "T", &two, &two, &one, a, &two, NULL, b, &two, work, &two, &info);
    assert_int_equal(info, -8);
    dormqr_("L", "T", &two, &two, &one, a, &two, tau, NULL, &two, work, &two, &info);
    assert_int_equal(info, -9);
    dormqr_("L", "T", &two, &two, &one, a, &two, tau, b, &two, NULL, &two, &info);
    assert_int_equal(info, -11);
    dormlq_("R", "N", &two, &two, &two, NULL, &two, tau, b, &two, work, &two, &info);
    assert_int_equal(info, -6);
    dormlq_("R", "N", &two, &two, &two, a, &two, NULL, b, &two, work, &two, &info);
    assert_int_equal(info, -8);
    dormlq_("R", "N", &two, &two, &two, a, &two, tau, NULL, &two, work, &two, &info);
    assert_int_equal(info, -9);
    dormlq_("R", "N", &two, &two, &two, a, &two, tau, b, &two, NULL, &query, &info);
    assert_int_equal(info, -11);
    dgels_("N", &two, &two, &one, NULL, &two, b, &two, work, &four, &info);
    assert_int_equal(info, -5);
    dgels_("N", &two, &two, &one, a, &two, NULL, &two, work, &four, &info);
    assert_int_equal(info, -7);
    dgels_("T", &two, &two, &one, a, &two, b, &two, NULL, &eight, &info);
    assert_int_equal(info, -9);
    for (int i = 0; i < 16; i++)
        if (a[i] != SENTINEL || b[i] != SENTINEL)
            fail_msg("element %d of A or B written by a call with a NULL array", i);
    for (int i = 0; i < 4; i++)
        assert_true(tau[i] == SENTINEL && work[i] == SENTINEL);
    expect_no_reports();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_argument_errors, reset_hooks),
        cmocka_unit_test_setup(test_workspace_query, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns_and_nulls, reset_hooks),
        cmocka_unit_test_setup(test_factor_results, reset_hooks),
        cmocka_unit_test_setup(test_generate_results, reset_hooks),
        cmocka_unit_test_setup(test_multiply_results, reset_hooks),
        cmocka_unit_test_setup(test_gels_results, reset_hooks),
        cmocka_unit_test_setup(test_factorization_residuals, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
