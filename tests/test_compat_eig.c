/* test_compat_eig — the Fortran-ABI symmetric eigen symbols (dsyevd_, dsyev_, dsyevr_, dsygvd_,
 * dsygst_, dsytrd_, dorgtr_, dormtr_, dstedc_, dsteqr_, dsterf_, dstein_): every bad-argument
 * number of reference LAPACK 3.11's routines, LWORK's and LIWORK's included, reported to this
 * program's xerbla_ with the routine's name, INFO = -i and nothing written; the workspace queries
 * (LWORK = -1 or LIWORK = -1) writing WORK(1) and IWORK(1) alone, 3.11's sizes, the same as
 * OpenBLAS's (0.3.21, LAPACK 3.11's drivers) loaded apart; at N = 32768 and 40000 the true sizes
 * past INT_MAX where LP64 arithmetic overflows (NumPy #25564), and INT_MAX the largest LWORK
 * asked for; WORK(1) and IWORK(1) after a call as OpenBLAS leaves them; results bit for bit the
 * native routines', eigenvalues within n eps ||A|| of OpenBLAS's, vectors by LAPACK's residual
 * ratios, each symbol called with exactly its least LWORK and LIWORK. About 0.1 s in Release. */
#define _GNU_SOURCE
#include "testlapack.h"
#include "xerbla_hooks.h"

/* The Fortran ABI (LP64), as a Fortran caller sees it: no header declares it. */
void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info);
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info);
void dsyevr_(const char *jobz, const char *range, const char *uplo, const int *n, double *a,
             const int *lda, const double *vl, const double *vu, const int *il, const int *iu,
             const double *abstol, int *m, double *w, double *z, const int *ldz, int *isuppz,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info);
void dsygvd_(const int *itype, const char *jobz, const char *uplo, const int *n, double *a,
             const int *lda, double *b, const int *ldb, double *w, double *work, const int *lwork,
             int *iwork, const int *liwork, int *info);
void dsygst_(const int *itype, const char *uplo, const int *n, double *a, const int *lda,
             const double *b, const int *ldb, int *info);
void dsytrd_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e,
             double *tau, double *work, const int *lwork, int *info);
void dorgtr_(const char *uplo, const int *n, double *a, const int *lda, const double *tau,
             double *work, const int *lwork, int *info);
void dormtr_(const char *side, const char *uplo, const char *trans, const int *m, const int *n,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info);
void dstedc_(const char *compz, const int *n, double *d, double *e, double *z, const int *ldz,
             double *work, const int *lwork, int *iwork, const int *liwork, int *info);
void dsteqr_(const char *compz, const int *n, double *d, double *e, double *z, const int *ldz,
             double *work, int *info);
void dsterf_(const int *n, double *d, double *e, int *info);
void dstein_(const int *n, const double *d, const double *e, const int *m, const double *w,
             const int *iblock, const int *isplit, double *z, const int *ldz, double *work,
             int *iwork, int *ifail, int *info);

#define SENTINEL  1234.5
#define ISENTINEL (-777)

/* ---- one call of any of the eleven ------------------------------------------------------------
 */

typedef enum routine {
    SYEVD,
    SYEV,
    SYEVR,
    SYGVD,
    SYGST,
    SYTRD,
    ORGTR,
    ORMTR,
    STEDC,
    STEQR,
    STERF,
    ROUTINES
} routine;

static const char *const routine_names[ROUTINES] = {
    [SYEVD] = "DSYEVD", [SYEV] = "DSYEV ",  [SYEVR] = "DSYEVR", [SYGVD] = "DSYGVD",
    [SYGST] = "DSYGST", [SYTRD] = "DSYTRD", [ORGTR] = "DORGTR", [ORMTR] = "DORMTR",
    [STEDC] = "DSTEDC", [STEQR] = "DSTEQR", [STERF] = "DSTERF",
};

/* A call's scalar arguments; those a routine lacks are ignored. */
typedef struct eig_call {
    routine r;
    char jobz, range, uplo;    /* JOBZ, RANGE, UPLO */
    char side, trans, compz;   /* DORMTR's SIDE and TRANS; DSTEDC's and DSTEQR's COMPZ */
    int itype, m, n, lda, ldb; /* ldb: DSYGVD's, DSYGST's LDB, DORMTR's LDC, the LDZ of the rest */
    double vl, vu;
    int il, iu;
    int lwork, liwork;
} eig_call;

/* The arrays of a call, in the roles each routine gives them: a (A), b (B; DORMTR's C; the
 * tridiagonal's E), w (W; D; DORMTR's and DORGTR's TAU), z (Z; DSYTRD's TAU). */
typedef struct arrays {
    double *a, *b, *w, *z, *work;
    int *iwork, *isuppz, *m;
} arrays;

static void call(const eig_call *c, const arrays *x, int *info)
{
    const double abstol = 0.0;
    switch (c->r) {
    case SYEVD:
        dsyevd_(&c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, x->iwork,
                &c->liwork, info);
        break;
    case SYEV:
        dsyev_(&c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, info);
        break;
    case SYEVR:
        dsyevr_(&c->jobz, &c->range, &c->uplo, &c->n, x->a, &c->lda, &c->vl, &c->vu, &c->il, &c->iu,
                &abstol, x->m, x->w, x->z, &c->ldb, x->isuppz, x->work, &c->lwork, x->iwork,
                &c->liwork, info);
        break;
    case SYGVD:
        dsygvd_(&c->itype, &c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->b, &c->ldb, x->w, x->work,
                &c->lwork, x->iwork, &c->liwork, info);
        break;
    case SYGST:
        dsygst_(&c->itype, &c->uplo, &c->n, x->a, &c->lda, x->b, &c->ldb, info);
        break;
    case SYTRD:
        dsytrd_(&c->uplo, &c->n, x->a, &c->lda, x->w, x->b, x->z, x->work, &c->lwork, info);
        break;
    case ORGTR:
        dorgtr_(&c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, info);
        break;
    case ORMTR:
        dormtr_(&c->side, &c->uplo, &c->trans, &c->m, &c->n, x->a, &c->lda, x->w, x->b, &c->ldb,
                x->work, &c->lwork, info);
        break;
    case STEDC:
        dstedc_(&c->compz, &c->n, x->w, x->b, x->z, &c->ldb, x->work, &c->lwork, x->iwork,
                &c->liwork, info);
        break;
    case STEQR:
        dsteqr_(&c->compz, &c->n, x->w, x->b, x->z, &c->ldb, x->work, info);
        break;
    case STERF:
        dsterf_(&c->n, x->w, x->b, info);
        break;
    case ROUTINES:
        break;
    }
}

/* The native routine on the same arguments (no WORK, IWORK; M and ISUPPZ as tela_int). */
static int call_native(const eig_call *c, const arrays *x, tela_int *m, tela_int *isuppz)
{
    const tela_par par = tela_par_auto();
    switch (c->r) {
    case SYEVD:
        return tela_dsyevd(par, c->jobz, c->uplo, c->n, x->a, c->lda, x->w);
    case SYEV:
        return tela_dsyev(par, c->jobz, c->uplo, c->n, x->a, c->lda, x->w);
    case SYEVR:
        return tela_dsyevr(par, c->jobz, c->range, c->uplo, c->n, x->a, c->lda, c->vl, c->vu, c->il,
                           c->iu, 0.0, m, x->w, x->z, c->ldb, isuppz);
    case SYGVD:
        return tela_dsygvd(par, c->itype, c->jobz, c->uplo, c->n, x->a, c->lda, x->b, c->ldb, x->w);
    case SYGST:
        return tela_dsygst(par, c->itype, c->uplo, c->n, x->a, c->lda, x->b, c->ldb);
    case SYTRD:
        return tela_dsytrd(par, c->uplo, c->n, x->a, c->lda, x->w, x->b, x->z);
    case ORGTR:
        return tela_dorgtr(par, c->uplo, c->n, x->a, c->lda, x->w);
    case ORMTR:
        return tela_dormtr(par, c->side, c->uplo, c->trans, c->m, c->n, x->a, c->lda, x->w, x->b,
                           c->ldb);
    case STEDC:
        return tela_dstedc(par, c->compz, c->n, x->w, x->b, x->z, c->ldb);
    case STEQR:
        return tela_dsteqr(par, c->compz, c->n, x->w, x->b, x->z, c->ldb);
    case STERF:
        return tela_dsterf(par, c->n, x->w, x->b);
    case ROUTINES:
        break;
    }
    return 0;
}

static void describe(const eig_call *c, char *what, size_t size)
{
    snprintf(what, size,
             "%s jobz=%c range=%c uplo=%c side=%c trans=%c compz=%c itype=%d m=%d n=%d lda=%d "
             "ldb/ldc/ldz=%d vl=%g vu=%g il=%d iu=%d lwork=%d liwork=%d",
             routine_names[c->r], c->jobz ? c->jobz : '-', c->range ? c->range : '-',
             c->uplo ? c->uplo : '-', c->side ? c->side : '-', c->trans ? c->trans : '-',
             c->compz ? c->compz : '-', c->itype, c->m, c->n, c->lda, c->ldb, c->vl, c->vu, c->il,
             c->iu, c->lwork, c->liwork);
}

/* ---- OpenBLAS's routines (gfortran's hidden lengths last) --------------------------------- */

typedef void (*ob_syevd_fn)(const char *, const char *, const int *, double *, const int *,
                            double *, double *, const int *, int *, const int *, int *, size_t,
                            size_t);
typedef void (*ob_syev_fn)(const char *, const char *, const int *, double *, const int *, double *,
                           double *, const int *, int *, size_t, size_t);
typedef void (*ob_syevr_fn)(const char *, const char *, const char *, const int *, double *,
                            const int *, const double *, const double *, const int *, const int *,
                            const double *, int *, double *, double *, const int *, int *, double *,
                            const int *, int *, const int *, int *, size_t, size_t, size_t);
typedef void (*ob_sygvd_fn)(const int *, const char *, const char *, const int *, double *,
                            const int *, double *, const int *, double *, double *, const int *,
                            int *, const int *, int *, size_t, size_t);
typedef void (*ob_sygst_fn)(const int *, const char *, const int *, double *, const int *,
                            const double *, const int *, int *, size_t);
typedef void (*ob_sytrd_fn)(const char *, const int *, double *, const int *, double *, double *,
                            double *, double *, const int *, int *, size_t);
typedef void (*ob_orgtr_fn)(const char *, const int *, double *, const int *, const double *,
                            double *, const int *, int *, size_t);
typedef void (*ob_ormtr_fn)(const char *, const char *, const char *, const int *, const int *,
                            const double *, const int *, const double *, double *, const int *,
                            double *, const int *, int *, size_t, size_t, size_t);
typedef void (*ob_stedc_fn)(const char *, const int *, double *, double *, double *, const int *,
                            double *, const int *, int *, const int *, int *, size_t);
typedef void (*ob_steqr_fn)(const char *, const int *, double *, double *, double *, const int *,
                            double *, int *, size_t);
typedef void (*ob_sterf_fn)(const int *, double *, double *, int *);

static struct ob_eig {
    ob_syevd_fn syevd;
    ob_syev_fn syev;
    ob_syevr_fn syevr;
    ob_sygvd_fn sygvd;
    ob_sygst_fn sygst;
    ob_sytrd_fn sytrd;
    ob_orgtr_fn orgtr;
    ob_ormtr_fn ormtr;
    ob_stedc_fn stedc;
    ob_steqr_fn steqr;
    ob_sterf_fn sterf;
} obe;

/* OpenBLAS's routines, each checked to live in OpenBLAS's file; NULL when OpenBLAS is not
 * available (tl_ob_why says why). */
static const struct ob_eig *ob_eig(void)
{
    const struct tl_openblas *ob = tl_openblas();
    if (!ob)
        return NULL;
    if (obe.sterf)
        return &obe;
    const struct {
        const char *name;
        void *fn;
    } symbols[] = {{"dsyevd_", &obe.syevd}, {"dsyev_", &obe.syev},   {"dsyevr_", &obe.syevr},
                   {"dsygvd_", &obe.sygvd}, {"dsygst_", &obe.sygst}, {"dsytrd_", &obe.sytrd},
                   {"dorgtr_", &obe.orgtr}, {"dormtr_", &obe.ormtr}, {"dstedc_", &obe.stedc},
                   {"dsteqr_", &obe.steqr}, {"dsterf_", &obe.sterf}};
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *address = tl_symbol(ob->handle, symbols[i].name, symbols[i].fn);
        char file[PATH_MAX];
        if (!address || !tl_file_of(address, file, sizeof file) || !tl_same_file(file, ob->file))
            fail_msg("%s is missing from OpenBLAS or not in %s", symbols[i].name, ob->file);
    }
    return &obe;
}

/* NOLINTBEGIN(bugprone-macro-parentheses): q is the name it declares */
#define OB_EIG_OR_SKIP(q)                                                                          \
    const struct ob_eig *q = ob_eig();                                                             \
    if (!q) {                                                                                      \
        printf("SKIPPED: %s\n", tl_ob_why);                                                        \
        skip();                                                                                    \
    }
/* NOLINTEND(bugprone-macro-parentheses) */

/* c on OpenBLAS's routine. */
static void call_openblas(const struct ob_eig *ob, const eig_call *c, const arrays *x, int *info)
{
    const double abstol = 0.0;
    switch (c->r) {
    case SYEVD:
        ob->syevd(&c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, x->iwork,
                  &c->liwork, info, 1, 1);
        break;
    case SYEV:
        ob->syev(&c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, info, 1, 1);
        break;
    case SYEVR:
        ob->syevr(&c->jobz, &c->range, &c->uplo, &c->n, x->a, &c->lda, &c->vl, &c->vu, &c->il,
                  &c->iu, &abstol, x->m, x->w, x->z, &c->ldb, x->isuppz, x->work, &c->lwork,
                  x->iwork, &c->liwork, info, 1, 1, 1);
        break;
    case SYGVD:
        ob->sygvd(&c->itype, &c->jobz, &c->uplo, &c->n, x->a, &c->lda, x->b, &c->ldb, x->w, x->work,
                  &c->lwork, x->iwork, &c->liwork, info, 1, 1);
        break;
    case SYGST:
        ob->sygst(&c->itype, &c->uplo, &c->n, x->a, &c->lda, x->b, &c->ldb, info, 1);
        break;
    case SYTRD:
        ob->sytrd(&c->uplo, &c->n, x->a, &c->lda, x->w, x->b, x->z, x->work, &c->lwork, info, 1);
        break;
    case ORGTR:
        ob->orgtr(&c->uplo, &c->n, x->a, &c->lda, x->w, x->work, &c->lwork, info, 1);
        break;
    case ORMTR:
        ob->ormtr(&c->side, &c->uplo, &c->trans, &c->m, &c->n, x->a, &c->lda, x->w, x->b, &c->ldb,
                  x->work, &c->lwork, info, 1, 1, 1);
        break;
    case STEDC:
        ob->stedc(&c->compz, &c->n, x->w, x->b, x->z, &c->ldb, x->work, &c->lwork, x->iwork,
                  &c->liwork, info, 1);
        break;
    case STEQR:
        ob->steqr(&c->compz, &c->n, x->w, x->b, x->z, &c->ldb, x->work, info, 1);
        break;
    case STERF:
        ob->sterf(&c->n, x->w, x->b, info);
        break;
    case ROUTINES:
        break;
    }
}

/* ---- 3.11's sizes, derived again here -------------------------------------------------------
 * Exact integers in 64 bits (the tests' orders keep them far below 2^53). */

static int64_t at_least_one(int64_t x)
{
    return x > 1 ? x : 1;
}

/* ceil(log2(n)), n >= 2: DSTEDC's LGN. */
static int64_t levels(int64_t n)
{
    int64_t l = 0;
    while (((int64_t)1 << l) < n)
        l++;
    return l;
}

/* The least LWORK and LIWORK of c's valid arguments (1 where there is none), and what the query
 * answers. */
static void sizes_of(const eig_call *c, int64_t *lwork, int64_t *liwork, int64_t *optimal)
{
    const int64_t n = c->n, nb = 32;
    const bool v = c->jobz == 'V' || c->jobz == 'v';
    *lwork = *liwork = *optimal = 1;
    switch (c->r) {
    case SYEVD:
    case SYGVD:
        if (n > 1) {
            *lwork = v ? 1 + 6 * n + 2 * n * n : 2 * n + 1;
            *liwork = v ? 3 + 5 * n : 1;
        }
        /* DSYGVD's query says the least LWORK, DSYEVD's its blocked optimum */
        *optimal = n > 1 && c->r == SYEVD && (2 + nb) * n > *lwork ? (2 + nb) * n : *lwork;
        break;
    case SYEV:
        *lwork = at_least_one(3 * n - 1);
        *optimal = at_least_one((nb + 2) * n);
        break;
    case SYEVR:
        *lwork = at_least_one(26 * n);
        *liwork = at_least_one(10 * n);
        *optimal = (nb + 1) * n > *lwork ? (nb + 1) * n : *lwork;
        break;
    case SYTRD:
        *optimal = at_least_one(n * nb); /* 3.11: 0 for N = 0 (tela: 1) */
        break;
    case ORGTR:
        *lwork = at_least_one(n - 1);
        *optimal = *lwork * nb;
        break;
    case ORMTR: {
        const bool left = c->side == 'L' || c->side == 'l';
        *lwork = at_least_one(left ? n : c->m);
        *optimal = *lwork * nb;
        break;
    }
    case STEDC: {
        const char compz = c->compz;
        const int kind = compz == 'N' || compz == 'n' ? 0 : compz == 'V' || compz == 'v' ? 1 : 2;
        if (n > 1 && kind > 0) {
            if (n <= 25) {
                *lwork = 2 * (n - 1);
            } else if (kind == 1) {
                *lwork = 1 + 3 * n + 2 * n * levels(n) + 4 * n * n;
                *liwork = 6 + 6 * n + 5 * n * levels(n);
            } else {
                *lwork = 1 + 4 * n + n * n;
                *liwork = 3 + 5 * n;
            }
        }
        *optimal = *lwork;
        break;
    }
    case STEQR: /* no LWORK, but 2 N - 2 rotations in WORK (reference's, OpenBLAS's) */
        *lwork = *optimal = at_least_one(2 * n - 2);
        break;
    default:
        break;
    }
}

static bool has_lwork(routine r)
{
    return r != SYGST && r != STEQR && r != STERF;
}

static bool has_liwork(routine r)
{
    return r == SYEVD || r == SYEVR || r == SYGVD || r == STEDC;
}

/* ---- arrays with sentinels ------------------------------------------------------------------ */

enum { LEN = 4096 };

static arrays sentinel_arrays(void)
{
    arrays x = {0};
    double **d[] = {&x.a, &x.b, &x.w, &x.z, &x.work};
    for (size_t k = 0; k < sizeof d / sizeof d[0]; k++) {
        *d[k] = malloc(sizeof(double) * LEN);
        assert_non_null(*d[k]);
        for (int i = 0; i < LEN; i++)
            (*d[k])[i] = SENTINEL;
    }
    int **p[] = {&x.iwork, &x.isuppz, &x.m};
    for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
        *p[k] = malloc(sizeof(int) * LEN);
        assert_non_null(*p[k]);
        for (int i = 0; i < LEN; i++)
            (*p[k])[i] = ISENTINEL;
    }
    return x;
}

static void free_arrays(arrays *x)
{
    free(x->a), free(x->b), free(x->w), free(x->z), free(x->work);
    free(x->iwork), free(x->isuppz), free(x->m);
}

/* The first element written, skipping WORK(1) and IWORK(1) when allowed; -1 if none. */
static int first_written(const arrays *x, bool sizes_allowed, const char **which)
{
    const double *d[] = {x->a, x->b, x->w, x->z, x->work};
    static const char *const dnames[] = {"A", "B/C/E", "W/D/TAU", "Z/TAU", "WORK"};
    for (int k = 0; k < 5; k++)
        for (int i = k == 4 && sizes_allowed ? 1 : 0; i < LEN; i++)
            if (d[k][i] != SENTINEL) {
                *which = dnames[k];
                return i;
            }
    const int *p[] = {x->iwork, x->isuppz, x->m};
    static const char *const pnames[] = {"IWORK", "ISUPPZ", "M"};
    for (int k = 0; k < 3; k++)
        for (int i = k == 0 && sizes_allowed ? 1 : 0; i < LEN; i++)
            if (p[k][i] != ISENTINEL) {
                *which = pnames[k];
                return i;
            }
    return -1;
}

/* ---- argument errors ------------------------------------------------------------------------ */

typedef struct bad_call {
    int number; /* the argument reference LAPACK rejects first */
    eig_call call;
} bad_call;

static void expect_report(const bad_call *bc)
{
    arrays x = sentinel_arrays();
    memset(&hooks, 0, sizeof hooks);
    int info = 99;
    call(&bc->call, &x, &info);
    char what[256];
    describe(&bc->call, what, sizeof what);
    const char *name = routine_names[bc->call.r];
    if (hooks.xerbla != 1)
        fail_msg("%s: xerbla_ called %d times (expected once)", what, hooks.xerbla);
    if (hooks.srname_len != 6 || strcmp(hooks.srname, name) != 0)
        fail_msg("%s: xerbla_ got \"%s\" (length %zu), expected \"%s\"", what, hooks.srname,
                 hooks.srname_len, name);
    if (hooks.info != bc->number || info != -bc->number)
        fail_msg("%s: xerbla_ got %d and INFO = %d, expected %d and %d", what, hooks.info, info,
                 bc->number, -bc->number);
    const char *which = NULL;
    const int i = first_written(&x, false, &which);
    if (i >= 0)
        fail_msg("%s: element %d of %s written by a call with a bad argument", what, i, which);
    assert_int_equal(hooks.tela_handler_calls, 0);
    memset(&hooks, 0, sizeof hooks); /* this report was expected */
    free_arrays(&x);
}

static void expect_reports(const bad_call *cases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        expect_report(&cases[i]);
}

#define EXPECT_REPORTS(cases) expect_reports((cases), sizeof(cases) / sizeof((cases)[0]))

/* Reference LAPACK 3.11, each number alone at its boundary and with later arguments bad too
 * (the first in reference's order wins); a query (LWORK = -1) checks the others all the same. */
static void test_argument_errors(void **state)
{
    (void)state;
    /* DSYEVD: JOBZ 1, UPLO 2, N 3, LDA 5, LWORK 8, LIWORK 10 (N = 2: 21 and 13 with vectors, 5
     * and 1 without; 1 and 1 for N <= 1). */
    static const bad_call syevd[] = {
        {1, {SYEVD, .jobz = 'X', .uplo = 'L', .n = 2, .lda = 2, .lwork = 21, .liwork = 13}},
        {1, {SYEVD, .jobz = 'I', .uplo = '/', .n = -1, .lda = 0, .lwork = -1, .liwork = -1}},
        {2, {SYEVD, .jobz = 'v', .uplo = 'X', .n = 2, .lda = 2, .lwork = 21, .liwork = 13}},
        {2, {SYEVD, .jobz = 'n', .uplo = 'N', .n = -1, .lda = 0, .lwork = -1, .liwork = 0}},
        {3, {SYEVD, .jobz = 'V', .uplo = 'u', .n = -1, .lda = 1, .lwork = 1, .liwork = 1}},
        {5, {SYEVD, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 1, .lwork = 21, .liwork = 13}},
        {5, {SYEVD, .jobz = 'N', .uplo = 'U', .n = 0, .lda = 0, .lwork = -1, .liwork = 0}},
        {8, {SYEVD, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .lwork = 20, .liwork = 13}},
        {8, {SYEVD, .jobz = 'N', .uplo = 'L', .n = 2, .lda = 2, .lwork = 4, .liwork = 0}},
        {8, {SYEVD, .jobz = 'N', .uplo = 'L', .n = 0, .lda = 1, .lwork = 0, .liwork = 1}},
        {8, {SYEVD, .jobz = 'V', .uplo = 'L', .n = 1, .lda = 1, .lwork = -2, .liwork = 1}},
        {10, {SYEVD, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .lwork = 21, .liwork = 12}},
        {10, {SYEVD, .jobz = 'N', .uplo = 'U', .n = 3, .lda = 3, .lwork = 7, .liwork = 0}},
        {10, {SYEVD, .jobz = 'V', .uplo = 'U', .n = 0, .lda = 1, .lwork = 1, .liwork = -2}},
    };
    EXPECT_REPORTS(syevd);
    /* DSYEV: JOBZ 1, UPLO 2, N 3, LDA 5, LWORK 8 (MAX(1, 3 N - 1): 2 for N = 1). */
    static const bad_call syev[] = {
        {1, {SYEV, .jobz = 'X', .uplo = 'L', .n = 2, .lda = 2, .lwork = 5}},
        {2, {SYEV, .jobz = 'N', .uplo = 'x', .n = -1, .lda = 0, .lwork = 0}},
        {3, {SYEV, .jobz = 'V', .uplo = 'L', .n = -1, .lda = 1, .lwork = -1}},
        {5, {SYEV, .jobz = 'V', .uplo = 'L', .n = 3, .lda = 2, .lwork = 8}},
        {8, {SYEV, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .lwork = 4}},
        {8, {SYEV, .jobz = 'n', .uplo = 'u', .n = 1, .lda = 1, .lwork = 1}},
        {8, {SYEV, .jobz = 'N', .uplo = 'U', .n = 0, .lda = 1, .lwork = 0}},
    };
    EXPECT_REPORTS(syev);
    /* DSYEVR: JOBZ 1, RANGE 2, UPLO 3, N 4, LDA 6, VU 8 (> VL when N > 0), IL 9 (1..MAX(1, N)),
     * IU 10 (MIN(N, IL)..N), LDZ 15 (>= 1, N with vectors), LWORK 18 (MAX(1, 26 N)), LIWORK 20
     * (MAX(1, 10 N)); IL and IU only for RANGE 'I', VL and VU for 'V'. A NaN VL or VU is
     * number 8 too (tela_dsyevr refuses it). */
    static const bad_call syevr[] = {
        {1,
         {SYEVR, .jobz = 'X', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 52,
          .liwork = 20}},
        {2,
         {SYEVR, .jobz = 'V', .range = 'X', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 52,
          .liwork = 20}},
        {2,
         {SYEVR, .jobz = 'n', .range = 'N', .uplo = 'Q', .n = -1, .lda = 0, .ldb = 0, .lwork = -1,
          .liwork = -1}},
        {3,
         {SYEVR, .jobz = 'V', .range = 'a', .uplo = 'X', .n = 2, .lda = 2, .ldb = 2, .lwork = 52,
          .liwork = 20}},
        {4,
         {SYEVR, .jobz = 'V', .range = 'v', .uplo = 'U', .n = -1, .lda = 1, .ldb = 1, .lwork = 1,
          .liwork = 1}},
        {6,
         {SYEVR, .jobz = 'N', .range = 'A', .uplo = 'U', .n = 3, .lda = 2, .ldb = 1, .lwork = 78,
          .liwork = 30}},
        {8,
         {SYEVR, .jobz = 'V', .range = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .vl = 1.0,
          .vu = 1.0, .lwork = 52, .liwork = 20}},
        {8,
         {SYEVR, .jobz = 'N', .range = 'v', .uplo = 'L', .n = 1, .lda = 1, .ldb = 0, .vl = 2.0,
          .vu = -2.0, .lwork = 0, .liwork = 0}},
        {8, /* reference lets a NaN bound through */
         {SYEVR, .jobz = 'V', .range = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .vl = NAN,
          .vu = 1.0, .lwork = 52, .liwork = 20}},
        {8,
         {SYEVR, .jobz = 'N', .range = 'V', .uplo = 'U', .n = 3, .lda = 3, .ldb = 1, .vl = 0.0,
          .vu = NAN, .lwork = 78, .liwork = 30}},
        {9,
         {SYEVR, .jobz = 'V', .range = 'I', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .il = 0,
          .iu = 1, .lwork = 52, .liwork = 20}},
        {9,
         {SYEVR, .jobz = 'V', .range = 'i', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .il = 3,
          .iu = 2, .lwork = 52, .liwork = 20}},
        {9,
         {SYEVR, .jobz = 'N', .range = 'I', .uplo = 'L', .n = 0, .lda = 1, .ldb = 1, .il = 2,
          .iu = 0, .lwork = 1, .liwork = 1}},
        {10,
         {SYEVR, .jobz = 'V', .range = 'I', .uplo = 'L', .n = 3, .lda = 3, .ldb = 3, .il = 2,
          .iu = 1, .lwork = 78, .liwork = 30}},
        {10,
         {SYEVR, .jobz = 'V', .range = 'I', .uplo = 'U', .n = 3, .lda = 3, .ldb = 3, .il = 1,
          .iu = 4, .lwork = 78, .liwork = 30}},
        {10,
         {SYEVR, .jobz = 'N', .range = 'I', .uplo = 'U', .n = 0, .lda = 1, .ldb = 1, .il = 1,
          .iu = 1, .lwork = 1, .liwork = 1}},
        {15,
         {SYEVR, .jobz = 'N', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 0, .lwork = 52,
          .liwork = 20}},
        {15,
         {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 1, .lwork = -1,
          .liwork = -1}},
        {18,
         {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 51,
          .liwork = 20}},
        {18,
         {SYEVR, .jobz = 'N', .range = 'I', .uplo = 'L', .n = 0, .lda = 1, .ldb = 1, .il = 1,
          .iu = 0, .lwork = 0, .liwork = 1}},
        {20,
         {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 52,
          .liwork = 19}},
    };
    EXPECT_REPORTS(syevr);
    /* DSYGVD: ITYPE 1, JOBZ 2, UPLO 3, N 4, LDA 6, LDB 8, LWORK 11, LIWORK 13 (DSYEVD's). */
    static const bad_call sygvd[] = {
        {1,
         {SYGVD, .itype = 0, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 21,
          .liwork = 13}},
        {1, {SYGVD, .itype = 4, .jobz = 'X', .uplo = 'X', .n = -1, .lwork = -1, .liwork = -1}},
        {2,
         {SYGVD, .itype = 3, .jobz = 'X', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 21,
          .liwork = 13}},
        {3,
         {SYGVD, .itype = 1, .jobz = 'V', .uplo = 'X', .n = 2, .lda = 2, .ldb = 2, .lwork = 21,
          .liwork = 13}},
        {4,
         {SYGVD, .itype = 2, .jobz = 'N', .uplo = 'U', .n = -1, .lda = 1, .ldb = 1, .lwork = 1,
          .liwork = 1}},
        {6,
         {SYGVD, .itype = 1, .jobz = 'V', .uplo = 'l', .n = 2, .lda = 1, .ldb = 1, .lwork = 21,
          .liwork = 13}},
        {8,
         {SYGVD, .itype = 1, .jobz = 'v', .uplo = 'u', .n = 2, .lda = 2, .ldb = 1, .lwork = 21,
          .liwork = 13}},
        {8,
         {SYGVD, .itype = 1, .jobz = 'N', .uplo = 'u', .n = 0, .lda = 1, .ldb = 0, .lwork = 0,
          .liwork = 0}},
        {11,
         {SYGVD, .itype = 2, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 20,
          .liwork = 13}},
        {11,
         {SYGVD, .itype = 3, .jobz = 'N', .uplo = 'L', .n = 1, .lda = 1, .ldb = 1, .lwork = 0,
          .liwork = 1}},
        {13,
         {SYGVD, .itype = 3, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 21,
          .liwork = 12}},
    };
    EXPECT_REPORTS(sygvd);
    /* DSYGST: ITYPE 1, UPLO 2, N 3, LDA 5, LDB 7. */
    static const bad_call sygst[] = {
        {1, {SYGST, .itype = 0, .uplo = 'L', .n = 2, .lda = 2, .ldb = 2}},
        {1, {SYGST, .itype = 4, .uplo = 'X', .n = -1}},
        {2, {SYGST, .itype = 1, .uplo = 'X', .n = 2, .lda = 2, .ldb = 2}},
        {3, {SYGST, .itype = 2, .uplo = 'u', .n = -1, .lda = 1, .ldb = 1}},
        {5, {SYGST, .itype = 3, .uplo = 'L', .n = 2, .lda = 1, .ldb = 1}},
        {7, {SYGST, .itype = 3, .uplo = 'l', .n = 2, .lda = 2, .ldb = 1}},
        {7, {SYGST, .itype = 1, .uplo = 'U', .n = 0, .lda = 1, .ldb = 0}},
    };
    EXPECT_REPORTS(sygst);
    /* DSYTRD: UPLO 1, N 2, LDA 4, LWORK 9 (>= 1). */
    static const bad_call sytrd[] = {
        {1, {SYTRD, .uplo = 'X', .n = 2, .lda = 2, .lwork = 1}},
        {2, {SYTRD, .uplo = 'L', .n = -1, .lda = 0, .lwork = 0}},
        {4, {SYTRD, .uplo = 'u', .n = 3, .lda = 2, .lwork = -1}},
        {9, {SYTRD, .uplo = 'L', .n = 2, .lda = 2, .lwork = 0}},
        {9, {SYTRD, .uplo = 'U', .n = 0, .lda = 1, .lwork = -2}},
    };
    EXPECT_REPORTS(sytrd);
    /* DORGTR: UPLO 1, N 2, LDA 4, LWORK 7 (MAX(1, N - 1)). */
    static const bad_call orgtr[] = {
        {1, {ORGTR, .uplo = 'X', .n = 2, .lda = 2, .lwork = 1}},
        {2, {ORGTR, .uplo = 'L', .n = -1, .lda = 0, .lwork = 0}},
        {4, {ORGTR, .uplo = 'u', .n = 3, .lda = 2, .lwork = 2}},
        {7, {ORGTR, .uplo = 'L', .n = 3, .lda = 3, .lwork = 1}},
        {7, {ORGTR, .uplo = 'U', .n = 0, .lda = 1, .lwork = 0}},
    };
    EXPECT_REPORTS(orgtr);
    /* DORMTR: SIDE 1, UPLO 2, TRANS 3 ('N' or 'T'), M 4, N 5, LDA 7 (Q's order: M for 'L', N for
     * 'R'), LDC 10 (M), LWORK 12 (MAX(1, N) for 'L', MAX(1, M) for 'R'). */
    static const bad_call ormtr[] = {
        {1,
         {ORMTR, .side = 'X', .uplo = 'L', .trans = 'N', .m = 2, .n = 2, .lda = 2, .ldb = 2,
          .lwork = 2}},
        {2, {ORMTR, .side = 'L', .uplo = 'X', .trans = 'C', .m = -1, .n = -1, .lwork = -1}},
        {3,
         {ORMTR, .side = 'r', .uplo = 'u', .trans = 'C', .m = 2, .n = 2, .lda = 2, .ldb = 2,
          .lwork = 2}},
        {4,
         {ORMTR, .side = 'L', .uplo = 'L', .trans = 't', .m = -1, .n = 2, .lda = 1, .ldb = 1,
          .lwork = 2}},
        {5,
         {ORMTR, .side = 'R', .uplo = 'L', .trans = 'N', .m = 2, .n = -1, .lda = 1, .ldb = 2,
          .lwork = 2}},
        {7,
         {ORMTR, .side = 'L', .uplo = 'U', .trans = 'N', .m = 3, .n = 1, .lda = 2, .ldb = 3,
          .lwork = 1}},
        {7,
         {ORMTR, .side = 'R', .uplo = 'L', .trans = 'T', .m = 1, .n = 3, .lda = 2, .ldb = 1,
          .lwork = 1}},
        {10,
         {ORMTR, .side = 'L', .uplo = 'L', .trans = 'N', .m = 3, .n = 1, .lda = 3, .ldb = 2,
          .lwork = 1}},
        {12,
         {ORMTR, .side = 'L', .uplo = 'L', .trans = 'N', .m = 2, .n = 3, .lda = 2, .ldb = 2,
          .lwork = 2}},
        {12,
         {ORMTR, .side = 'R', .uplo = 'U', .trans = 'T', .m = 3, .n = 2, .lda = 2, .ldb = 3,
          .lwork = 2}},
        {12,
         {ORMTR, .side = 'l', .uplo = 'l', .trans = 'n', .m = 0, .n = 0, .lda = 1, .ldb = 1,
          .lwork = 0}},
    };
    EXPECT_REPORTS(ormtr);
    /* DSTEDC: COMPZ 1, N 2, LDZ 6 (>= 1, N with vectors), LWORK 8, LIWORK 10 (N = 30: 1021 and
     * 153 for 'I', 3991 and 936 for 'V'; 2 (N - 1) and 1 up to 25; 1 and 1 for 'N'). DSTEQR's
     * first three are the same. */
    static const bad_call stedc[] = {
        {1, {STEDC, .compz = 'X', .n = 2, .ldb = 2, .lwork = 2, .liwork = 1}},
        {2, {STEDC, .compz = 'i', .n = -1, .ldb = 0, .lwork = -1, .liwork = -1}},
        {6, {STEDC, .compz = 'N', .n = 2, .ldb = 0, .lwork = 1, .liwork = 1}},
        {6, {STEDC, .compz = 'V', .n = 2, .ldb = 1, .lwork = 2, .liwork = 1}},
        {8, {STEDC, .compz = 'I', .n = 2, .ldb = 2, .lwork = 1, .liwork = 1}},
        {8, {STEDC, .compz = 'I', .n = 30, .ldb = 30, .lwork = 1020, .liwork = 153}},
        {8, {STEDC, .compz = 'V', .n = 30, .ldb = 30, .lwork = 3990, .liwork = 936}},
        {8, {STEDC, .compz = 'N', .n = 30, .ldb = 1, .lwork = 0, .liwork = 1}},
        {10, {STEDC, .compz = 'I', .n = 30, .ldb = 30, .lwork = 1021, .liwork = 152}},
        {10, {STEDC, .compz = 'v', .n = 30, .ldb = 30, .lwork = 3991, .liwork = 935}},
        {10, {STEDC, .compz = 'n', .n = 0, .ldb = 1, .lwork = 1, .liwork = 0}},
        {1, {STEQR, .compz = 'X', .n = 2, .ldb = 2}},
        {2, {STEQR, .compz = 'I', .n = -1, .ldb = 0}},
        {6, {STEQR, .compz = 'N', .n = 2, .ldb = 0}},
        {6, {STEQR, .compz = 'v', .n = 3, .ldb = 2}},
        {1, {STERF, .n = -1}},
    };
    EXPECT_REPORTS(stedc);
}

/* ---- the workspace queries ---------------------------------------------------------------- */

/* Valid arguments around the sizes' boundaries, LWORK = -1 (and, in half of them where there is
 * one, LWORK too small and LIWORK = -1: a query all the same). */
static const eig_call queried[] = {
    {SYEVD, .jobz = 'V', .uplo = 'L', .n = 0, .lda = 1},
    {SYEVD, .jobz = 'V', .uplo = 'U', .n = 1, .lda = 1},
    {SYEVD, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2},
    {SYEVD, .jobz = 'N', .uplo = 'L', .n = 2, .lda = 5},
    {SYEVD, .jobz = 'n', .uplo = 'u', .n = 100, .lda = 100},
    {SYEVD, .jobz = 'v', .uplo = 'l', .n = 1000, .lda = 1000},
    {SYEV, .jobz = 'V', .uplo = 'L', .n = 0, .lda = 1},
    {SYEV, .jobz = 'N', .uplo = 'U', .n = 1, .lda = 1},
    {SYEV, .jobz = 'V', .uplo = 'L', .n = 70, .lda = 70},
    {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = 0, .lda = 1, .ldb = 1},
    {SYEVR, .jobz = 'V', .range = 'V', .uplo = 'L', .n = 0, .lda = 1, .ldb = 1, .vl = 1, .vu = 1},
    {SYEVR, .jobz = 'N', .range = 'I', .uplo = 'U', .n = 1, .lda = 1, .ldb = 1, .il = 1, .iu = 1},
    {SYEVR, .jobz = 'V', .range = 'I', .uplo = 'L', .n = 50, .lda = 50, .ldb = 50, .il = 3,
     .iu = 9},
    {SYEVR, .jobz = 'N', .range = 'A', .uplo = 'L', .n = 50, .lda = 50, .ldb = 1, .il = -5,
     .iu = -9},
    {SYGVD, .itype = 1, .jobz = 'V', .uplo = 'L', .n = 0, .lda = 1, .ldb = 1},
    {SYGVD, .itype = 2, .jobz = 'N', .uplo = 'U', .n = 1, .lda = 1, .ldb = 1},
    {SYGVD, .itype = 3, .jobz = 'V', .uplo = 'L', .n = 40, .lda = 40, .ldb = 40},
    {SYGVD, .itype = 1, .jobz = 'N', .uplo = 'L', .n = 40, .lda = 40, .ldb = 40},
    {SYTRD, .uplo = 'L', .n = 0, .lda = 1},
    {SYTRD, .uplo = 'U', .n = 1, .lda = 1},
    {SYTRD, .uplo = 'L', .n = 90, .lda = 90},
    {ORGTR, .uplo = 'L', .n = 0, .lda = 1},
    {ORGTR, .uplo = 'U', .n = 2, .lda = 2},
    {ORGTR, .uplo = 'L', .n = 90, .lda = 90},
    {ORMTR, .side = 'L', .uplo = 'L', .trans = 'N', .m = 0, .n = 0, .lda = 1, .ldb = 1},
    {ORMTR, .side = 'L', .uplo = 'U', .trans = 'T', .m = 9, .n = 4, .lda = 9, .ldb = 9},
    {ORMTR, .side = 'R', .uplo = 'L', .trans = 'n', .m = 4, .n = 9, .lda = 9, .ldb = 4},
    {STEDC, .compz = 'N', .n = 40, .ldb = 1},
    {STEDC, .compz = 'I', .n = 1, .ldb = 1},
    {STEDC, .compz = 'I', .n = 25, .ldb = 25},
    {STEDC, .compz = 'I', .n = 26, .ldb = 26},
    {STEDC, .compz = 'V', .n = 26, .ldb = 26},
    {STEDC, .compz = 'v', .n = 64, .ldb = 64},
    {STEDC, .compz = 'V', .n = 65, .ldb = 65},
    {STEDC, .compz = 'i', .n = 1000, .ldb = 1000},
};

/* Queries c on tela (and on OpenBLAS if ob): INFO 0, WORK(1) and IWORK(1) the expected sizes,
 * nothing else written. Returns tela's WORK(1); *iwork1 its IWORK(1). */
static double query(const eig_call *c, int *iwork1)
{
    arrays x = sentinel_arrays();
    int info = 99;
    call(c, &x, &info);
    char what[256];
    describe(c, what, sizeof what);
    if (info != 0)
        fail_msg("%s: INFO = %d for a query", what, info);
    const char *which = NULL;
    const int i = first_written(&x, true, &which);
    if (i >= 0)
        fail_msg("%s: element %d of %s written by a query", what, i, which);
    const double work1 = x.work[0];
    *iwork1 = x.iwork[0];
    if (!has_liwork(c->r) && *iwork1 != ISENTINEL)
        fail_msg("%s: IWORK(1) written", what);
    free_arrays(&x);
    return work1;
}

static void test_workspace_queries(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    if (!ob)
        printf("OpenBLAS not available (%s): 3.11's formulas only\n", tl_ob_why);
    for (size_t q = 0; q < sizeof queried / sizeof queried[0]; q++) {
        for (int form = 0; form < (has_liwork(queried[q].r) ? 2 : 1); form++) {
            eig_call c = queried[q];
            c.lwork = form ? 0 : -1; /* LWORK below the least with LIWORK = -1 still queries */
            c.liwork = form ? -1 : 0;
            char what[256];
            describe(&c, what, sizeof what);
            int64_t least, ileast, optimal;
            sizes_of(&c, &least, &ileast, &optimal);
            int iwork1;
            const double work1 = query(&c, &iwork1);
            if (work1 != (double)optimal || work1 < (double)least)
                fail_msg("%s: the query says %.17g, expected %lld (the least LWORK is %lld)", what,
                         work1, (long long)optimal, (long long)least);
            if (has_liwork(c.r) && iwork1 != ileast)
                fail_msg("%s: IWORK(1) = %d, expected %lld", what, iwork1, (long long)ileast);
            if (!ob)
                continue;
            /* OpenBLAS's answer, from LAPACK 3.11's code: the same numbers, DSYTRD's N = 0 apart
             * (3.11 says 0, which is no valid LWORK) */
            arrays y = sentinel_arrays();
            int info = 99;
            call_openblas(ob, &c, &y, &info);
            assert_int_equal(info, 0);
            const double want = c.r == SYTRD && c.n == 0 ? 1.0 : y.work[0];
            if (work1 != want || (has_liwork(c.r) && iwork1 != y.iwork[0]))
                fail_msg("%s: tela says %.17g and %d, OpenBLAS %.17g and %d", what, work1, iwork1,
                         y.work[0], y.iwork[0]);
            free_arrays(&y);
        }
    }
    expect_no_reports();
}

/* At N = 32768 and 40000 reference's LP64 sizes overflow (OpenBLAS's DSYEVD says 1360000 for
 * vectors at 40000, its DSYGVD a negative number): tela's WORK(1) holds the true size, past
 * INT_MAX. No LP64 LWORK reaches it, so INT_MAX is the least asked: INT_MAX - 1 is -8, INT_MAX
 * passes on to the LIWORK check. Nothing here touches the (absent) matrices. */
static void test_sizes_past_int_max(void **state)
{
    (void)state;
    static const int orders[] = {32768, 40000};
    for (int o = 0; o < 2; o++) {
        const int n = orders[o];
        const eig_call calls[] = {
            {SYEVD, .jobz = 'V', .uplo = 'L', .n = n, .lda = n},
            {SYGVD, .itype = 1, .jobz = 'V', .uplo = 'U', .n = n, .lda = n, .ldb = n},
            {STEDC, .compz = 'V', .n = n, .ldb = n},
        };
        for (int k = 0; k < 3; k++) {
            eig_call c = calls[k];
            c.lwork = -1;
            int64_t least, ileast, optimal;
            sizes_of(&c, &least, &ileast, &optimal);
            char what[256];
            describe(&c, what, sizeof what);
            int iwork1;
            const double work1 = query(&c, &iwork1);
            printf("%s: WORK(1) = %.17g, IWORK(1) = %d\n", what, work1, iwork1);
            if (!(work1 > INT_MAX) || work1 != (double)optimal || iwork1 != ileast)
                fail_msg("%s: the query says %.17g and %d, expected %lld (> INT_MAX) and %lld",
                         what, work1, iwork1, (long long)optimal, (long long)ileast);
            const int lwork_number = c.r == SYGVD ? 11 : 8;
            bad_call bc = {lwork_number, c};
            bc.call.lwork = INT_MAX - 1;
            bc.call.liwork = (int)ileast;
            expect_report(&bc);
            bc.number = lwork_number + 2; /* LIWORK's */
            bc.call.lwork = INT_MAX;
            bc.call.liwork = (int)ileast - 1;
            expect_report(&bc);
        }
        /* Without vectors, and DSTEDC's 'I', the sizes fit an int: exact all the same. */
        const eig_call small[] = {
            {SYEVD, .jobz = 'N', .uplo = 'L', .n = n, .lda = n, .lwork = -1},
            {STEDC, .compz = 'I', .n = n, .ldb = n, .lwork = -1},
            {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = n, .lda = n, .ldb = n,
             .lwork = -1},
            {SYEV, .jobz = 'V', .uplo = 'L', .n = n, .lda = n, .lwork = -1},
        };
        for (int k = 0; k < 4; k++) {
            int64_t least, ileast, optimal;
            sizes_of(&small[k], &least, &ileast, &optimal);
            int iwork1;
            const double work1 = query(&small[k], &iwork1);
            char what[256];
            describe(&small[k], what, sizeof what);
            if (work1 != (double)optimal || (has_liwork(small[k].r) && iwork1 != ileast))
                fail_msg("%s: the query says %.17g and %d, expected %lld and %lld", what, work1,
                         iwork1, (long long)optimal, (long long)ileast);
        }
    }
    expect_no_reports();
}

/* ---- results -------------------------------------------------------------------------------- */

/* Random operands for c (N = c->n, at most 60): A symmetric with NaN beyond its rows (never
 * read); B symmetric positive definite (DSYGVD) or the Cholesky factor of one (DSYGST, the upper
 * or lower triangle as UPLO says); DORMTR's C random; DORGTR's and DORMTR's reflectors by
 * tela_dsytrd; a tridiagonal's D and E random. Arrays hold LEN elements. */
static void fill_operands(const eig_call *c, const arrays *x, unsigned seed)
{
    tl_seed(seed);
    const int n = c->r == ORMTR ? ((c->side == 'L' || c->side == 'l') ? c->m : c->n) : c->n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < c->lda; i++)
            x->a[i + j * c->lda] = i <= j ? tl_uniform() : NAN;
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++)
            x->a[i + j * c->lda] = x->a[j + i * c->lda];
    if (c->r == SYGVD || c->r == SYGST) {
        for (int j = 0; j < c->n; j++)
            for (int i = 0; i < c->ldb; i++)
                x->b[i + j * c->ldb] =
                    i < c->n ? (i == j ? 2.0 + j % 3 : 0.05 * tl_uniform()) : NAN;
        for (int j = 0; j < c->n; j++)
            for (int i = j + 1; i < c->n; i++) {
                x->b[i + j * c->ldb] = x->b[j + i * c->ldb]; /* symmetric, diagonally dominant */
                if (c->r == SYGST)
                    x->b[(c->uplo == 'U' ? i + j * c->ldb : j + i * c->ldb)] = 0.0;
            }
    }
    if (c->r == ORMTR)
        for (int i = 0; i < LEN; i++)
            x->b[i] = tl_uniform();
    if (c->r == ORGTR || c->r == ORMTR) {
        double *d = tl_alloc(n), *e = tl_alloc(n);
        assert_int_equal(tela_dsytrd(tela_par_seq(), c->uplo, n, x->a, c->lda, d, e, x->w), 0);
        free(d), free(e);
    }
    if (c->r == STEDC || c->r == STEQR || c->r == STERF) {
        for (int i = 0; i < c->n; i++)
            x->w[i] = tl_uniform(), x->b[i] = tl_uniform();
        for (int i = 0; i < LEN && (c->compz == 'V' || c->compz == 'v'); i++)
            x->z[i] = 0.0;
        for (int i = 0; i < c->n && (c->compz == 'V' || c->compz == 'v'); i++)
            x->z[i + i * c->ldb] = 1.0; /* Z = I: the vectors of T itself */
    }
}

static arrays copy_arrays(const arrays *x)
{
    arrays y = sentinel_arrays();
    memcpy(y.a, x->a, sizeof(double) * LEN), memcpy(y.b, x->b, sizeof(double) * LEN);
    memcpy(y.w, x->w, sizeof(double) * LEN), memcpy(y.z, x->z, sizeof(double) * LEN);
    return y;
}

/* ||A Z - Z diag(w)|| / (n ||A|| eps) and ||I - Z^T Z|| / (n eps), max norms, for the k
 * vectors in z of the symmetric a (its full square). */
static void expect_eigenpairs(const char *what, int n, const double *a, int lda, const double *w,
                              const double *z, int ldz, int k)
{
    double a_norm = 0, residual = 0, orthogonal = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            a_norm = fmax(a_norm, fabs(a[i + j * lda]));
    for (int j = 0; j < k; j++) {
        for (int i = 0; i < n; i++) {
            long double s = -(long double)z[i + j * ldz] * w[j];
            for (int p = 0; p < n; p++)
                s += (long double)a[i + p * lda] * z[p + j * ldz];
            residual = fmax(residual, fabs((double)s));
        }
        for (int i = 0; i < k; i++) {
            long double s = i == j ? -1.0L : 0.0L;
            for (int p = 0; p < n; p++)
                s += (long double)z[p + i * ldz] * z[p + j * ldz];
            orthogonal = fmax(orthogonal, fabs((double)s));
        }
    }
    const double r1 = residual / (n * fmax(a_norm, DBL_MIN) * TL_EPS);
    const double r2 = orthogonal / (n * TL_EPS);
    if (!(r1 < TL_THRESHOLD) || !(r2 < TL_THRESHOLD))
        fail_msg("%s: residual ratio %g, orthogonality ratio %g (threshold %g)", what, r1, r2,
                 TL_THRESHOLD);
}

/* count eigenvalues within 4 n eps ||A||_1 of OpenBLAS's (scale: ||A||_1). */
static void expect_values(const char *what, int n, const double *got, const double *want, int count,
                          double scale)
{
    for (int i = 0; i < count; i++)
        if (!(fabs(got[i] - want[i]) <= 4.0 * n * TL_EPS * scale))
            fail_msg("%s: eigenvalue %d is %.17g, OpenBLAS says %.17g", what, i, got[i], want[i]);
}

/* got within 64 n eps max(1, max |want|) of want, a rows x cols block of leading dimension ld:
 * the same algorithm on the same operands (LAPACK's reflectors), another order of sums. */
static void expect_close(const char *what, const char *name, int n, const double *got,
                         const double *want, int rows, int cols, int ld)
{
    double scale = 1.0;
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            scale = fmax(scale, fabs(want[i + j * ld]));
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            if (!(fabs(got[i + j * ld] - want[i + j * ld]) <= 64.0 * n * TL_EPS * scale))
                fail_msg("%s: %s(%d, %d) is %.17g, OpenBLAS's %.17g", what, name, i + 1, j + 1,
                         got[i + j * ld], want[i + j * ld]);
}

/* Runs c (LWORK and LIWORK exactly the least, in a WORK and IWORK of that many elements) on
 * fresh operands, its native routine and OpenBLAS's on copies: the same INFO, tela's bits in
 * every array, WORK(1) and IWORK(1) as OpenBLAS leaves them, eigenvalues within n eps ||A|| of
 * OpenBLAS's. Returns the operands before and after (free both); *m DSYEVR's M. */
static void run_case(const struct ob_eig *ob, eig_call c, unsigned seed, arrays *before,
                     arrays *after, int *m)
{
    int64_t least, ileast, optimal;
    sizes_of(&c, &least, &ileast, &optimal);
    c.lwork = (int)least, c.liwork = (int)ileast;
    char what[256];
    describe(&c, what, sizeof what);
    arrays x = sentinel_arrays();
    fill_operands(&c, &x, seed);
    *before = copy_arrays(&x);
    arrays native = copy_arrays(&x), other = copy_arrays(&x);
    /* exactly the least workspace, so that a sanitizer sees any use beyond it */
    free(x.work), free(x.iwork);
    x.work = tl_alloc(least);
    x.iwork = malloc(sizeof(int) * (size_t)ileast);
    assert_non_null(x.iwork);
    for (int64_t i = 0; i < least; i++)
        x.work[i] = SENTINEL;
    for (int64_t i = 0; i < ileast; i++)
        x.iwork[i] = ISENTINEL;
    int info = 99;
    call(&c, &x, &info);
    tela_int native_m = -1, native_isuppz[2 * 64];
    for (int i = 0; i < 2 * 64; i++)
        native_isuppz[i] = ISENTINEL;
    const int want_info = call_native(&c, &native, &native_m, native_isuppz);
    if (info != want_info)
        fail_msg("%s: INFO = %d, the native routine returned %d", what, info, want_info);
    tu_expect_same(what, x.a, native.a, LEN);
    tu_expect_same(what, x.b, native.b, LEN);
    tu_expect_same(what, x.w, native.w, LEN);
    tu_expect_same(what, x.z, native.z, LEN);
    if (c.r == SYEVR) {
        if (*x.m != native_m)
            fail_msg("%s: M = %d, the native routine found %td", what, *x.m, native_m);
        for (int i = 0; i < 2 * 64; i++)
            if (x.isuppz[i] != (int)native_isuppz[i])
                fail_msg("%s: ISUPPZ(%d) = %d, the native routine's %td", what, i + 1, x.isuppz[i],
                         native_isuppz[i]);
    }
    *m = *x.m;
    if (ob) {
        /* OpenBLAS on its optimal workspace */
        int ob_info = 99;
        free(other.work), free(other.iwork);
        other.work = tl_alloc(optimal);
        other.iwork = malloc(sizeof(int) * (size_t)ileast);
        assert_non_null(other.iwork);
        eig_call oc = c;
        oc.lwork = (int)optimal;
        call_openblas(ob, &oc, &other, &ob_info);
        if (info != ob_info)
            fail_msg("%s: INFO = %d, OpenBLAS's %d", what, info, ob_info);
        if (has_lwork(c.r) && x.work[0] != other.work[0])
            fail_msg("%s: WORK(1) = %.17g after the call, OpenBLAS leaves %.17g", what, x.work[0],
                     other.work[0]);
        if (has_liwork(c.r) && x.iwork[0] != other.iwork[0])
            fail_msg("%s: IWORK(1) = %d after the call, OpenBLAS leaves %d", what, x.iwork[0],
                     other.iwork[0]);
        double scale = 0; /* ||A||_1, or ||T||_1 */
        for (int j = 0; j < c.n; j++) {
            double column = 0;
            for (int i = 0; i < c.n; i++)
                column += fabs(before->a[i + j * c.lda]);
            scale = fmax(scale, column);
        }
        if (c.r == STEDC || c.r == STEQR || c.r == STERF)
            for (int i = 0; i < c.n; i++)
                scale = fmax(scale, fabs(before->w[i]) + 2 * fabs(before->b[i]));
        if (c.r == SYGVD) /* B's eigenvalues lie in [0.5, 5.5]: the problem's scale is A's */
            scale *= 8;
        const bool values = c.r == SYEVD || c.r == SYEV || c.r == SYGVD || c.r == STEDC ||
                            c.r == STEQR || c.r == STERF || c.r == SYEVR;
        if (values && info == 0) {
            if (c.r == SYEVR && *x.m != *other.m)
                fail_msg("%s: M = %d, OpenBLAS found %d", what, *x.m, *other.m);
            expect_values(what, c.n, x.w, other.w, c.r == SYEVR ? *x.m : c.n, scale);
        }
        const int n = c.n;
        switch (c.r) {
        case SYGST:
        case ORGTR:
            expect_close(what, "A", n, x.a, other.a, n, n, c.lda);
            break;
        case SYTRD:
            expect_close(what, "A", n, x.a, other.a, n, n, c.lda);
            expect_close(what, "D", n, x.w, other.w, n, 1, 1);
            expect_close(what, "E", n, x.b, other.b, n - 1, 1, 1);
            expect_close(what, "TAU", n, x.z, other.z, n - 1, 1, 1);
            break;
        case ORMTR:
            expect_close(what, "C", n > c.m ? n : c.m, x.b, other.b, c.m, n, c.ldb);
            break;
        default:
            break;
        }
    }
    free_arrays(&native), free_arrays(&other);
    *after = x;
}

static void test_drivers(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    enum { N = 40, LDA = N + 3 };
    unsigned seed = 1;
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        for (int v = 0; v < 2; v++) {
            const char jobz = v ? 'V' : 'N';
            const eig_call calls[] = {
                {SYEVD, .jobz = jobz, .uplo = uplo, .n = N, .lda = LDA},
                {SYEV, .jobz = jobz, .uplo = uplo, .n = N, .lda = LDA},
                {SYEVR, .jobz = jobz, .range = 'A', .uplo = uplo, .n = N, .lda = LDA, .ldb = N},
                {SYEVR, .jobz = jobz, .range = 'I', .uplo = uplo, .n = N, .lda = LDA, .ldb = N + 1,
                 .il = 5, .iu = 12},
                {SYEVR, .jobz = jobz, .range = 'V', .uplo = uplo, .n = N, .lda = LDA, .ldb = N,
                 .vl = -0.5, .vu = 0.75},
            };
            for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
                arrays before, after;
                int m;
                run_case(ob, calls[k], seed++, &before, &after, &m);
                char what[256];
                describe(&calls[k], what, sizeof what);
                if (calls[k].r != SYEVR)
                    m = N;
                if (v && calls[k].r == SYEVR)
                    expect_eigenpairs(what, N, before.a, LDA, after.w, after.z, calls[k].ldb, m);
                else if (v)
                    expect_eigenpairs(what, N, before.a, LDA, after.w, after.a, LDA, m);
                /* the supports, where DSYEVR computed them: 1 <= first <= last <= N, Z zero
                 * outside, nothing beyond 2 M written */
                for (int j = 0; calls[k].r == SYEVR && j < m && after.isuppz[0] != ISENTINEL; j++) {
                    const int lo = after.isuppz[2 * (ptrdiff_t)j],
                              hi = after.isuppz[2 * (ptrdiff_t)j + 1];
                    if (!(1 <= lo && lo <= hi && hi <= N))
                        fail_msg("%s: ISUPPZ of vector %d is %d..%d", what, j + 1, lo, hi);
                    for (int i = 0; i < N; i++)
                        if ((i + 1 < lo || i + 1 > hi) && after.z[i + j * calls[k].ldb] != 0.0)
                            fail_msg("%s: Z(%d, %d) nonzero outside its support", what, i + 1,
                                     j + 1);
                }
                for (int i = 2 * (m > 1 ? m : 1); calls[k].r == SYEVR && i < LEN; i++)
                    if (after.isuppz[i] != ISENTINEL)
                        fail_msg("%s: ISUPPZ(%d) written beyond 2 M", what, i + 1);
                free_arrays(&before), free_arrays(&after);
            }
        }
    }
    expect_no_reports();
}

/* DSYGVD's three problems, DSYGST, a B that is not positive definite (INFO = N + i: WORK(1) the
 * least size, as reference leaves it), and the quick returns N = 0 and 1. */
static void test_generalized(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    enum { N = 30, LDA = N + 2, LDB = N + 1 };
    unsigned seed = 100;
    for (int itype = 1; itype <= 3; itype++) {
        for (int u = 0; u < 2; u++) {
            const char uplo = u ? 'U' : 'L';
            const eig_call calls[] = {
                {SYGVD, .itype = itype, .jobz = 'V', .uplo = uplo, .n = N, .lda = LDA, .ldb = LDB},
                {SYGVD, .itype = itype, .jobz = 'N', .uplo = uplo, .n = N, .lda = LDA, .ldb = LDB},
                {SYGST, .itype = itype, .uplo = uplo, .n = N, .lda = LDA, .ldb = LDB},
                {SYGVD, .itype = itype, .jobz = 'V', .uplo = uplo, .n = 1, .lda = 1, .ldb = 1},
                {SYGVD, .itype = itype, .jobz = 'N', .uplo = uplo, .n = 0, .lda = 1, .ldb = 1},
            };
            for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
                arrays before, after;
                int m;
                run_case(ob, calls[k], seed++, &before, &after, &m);
                free_arrays(&before), free_arrays(&after);
            }
        }
    }
    /* B not positive definite from order 7: INFO = N + 7 */
    eig_call c = {SYGVD, .itype = 1, .jobz = 'V', .uplo = 'L', .n = N, .lda = LDA, .ldb = LDB};
    int64_t least, ileast, optimal;
    sizes_of(&c, &least, &ileast, &optimal);
    c.lwork = (int)optimal, c.liwork = (int)ileast;
    arrays x = sentinel_arrays();
    fill_operands(&c, &x, 7);
    x.b[6 + 6 * LDB] = -1.0;
    int info = 99;
    call(&c, &x, &info);
    assert_int_equal(info, N + 7);
    if (x.work[0] != (double)least || x.iwork[0] != ileast)
        fail_msg("dsygvd_ with INFO = N + 7: WORK(1) = %g, IWORK(1) = %d, expected %lld, %lld",
                 x.work[0], x.iwork[0], (long long)least, (long long)ileast);
    free_arrays(&x);
    expect_no_reports();
}

/* The reduction, Q and its product, and the tridiagonal solvers. ||A - Q T Q^T|| / (n ||A||
 * eps) and Q's orthogonality by dsytrd_ and dorgtr_; dormtr_ and the solvers against tela's
 * bits and OpenBLAS's values. */
static void test_reduction_and_tridiagonal(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    enum { N = 36, LDA = N + 2 };
    unsigned seed = 200;
    for (int u = 0; u < 2; u++) {
        const char uplo = u ? 'U' : 'L';
        const eig_call calls[] = {
            {SYTRD, .uplo = uplo, .n = N, .lda = LDA},
            {SYTRD, .uplo = uplo, .n = 0, .lda = 1},
            {ORGTR, .uplo = uplo, .n = N, .lda = LDA},
            {ORGTR, .uplo = uplo, .n = 1, .lda = 1},
            {ORMTR, .side = 'L', .uplo = uplo, .trans = 'N', .m = N, .n = 7, .lda = LDA, .ldb = N},
            {ORMTR, .side = 'R', .uplo = uplo, .trans = 'T', .m = 5, .n = N, .lda = LDA, .ldb = 6},
            {ORMTR, .side = 'L', .uplo = uplo, .trans = 'T', .m = 1, .n = 3, .lda = 1, .ldb = 1},
        };
        for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
            arrays before, after;
            int m;
            run_case(ob, calls[k], seed++, &before, &after, &m);
            free_arrays(&before), free_arrays(&after);
        }
        /* dsytrd_ then dorgtr_: A = Q T Q^T */
        eig_call c = {SYTRD, .uplo = uplo, .n = N, .lda = LDA, .lwork = 1};
        arrays x = sentinel_arrays();
        fill_operands(&c, &x, seed++);
        arrays a0 = copy_arrays(&x);
        int info = 99;
        call(&c, &x, &info);
        assert_int_equal(info, 0);
        double *d = tl_copy(x.w, N); /* DORGTR's TAU goes in W */
        const double *e = x.b;
        memcpy(x.w, x.z, sizeof(double) * N);
        c.r = ORGTR, c.lwork = N - 1;
        call(&c, &x, &info);
        assert_int_equal(info, 0);
        double worst = 0, a_norm = 0, orthogonal = 0;
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                long double s = 0, o = i == j ? -1.0L : 0.0L;
                for (int p = 0; p < N; p++) {
                    /* (Q T)(i, p) Q(j, p) */
                    long double qt = (long double)x.a[i + p * LDA] * d[p];
                    if (p > 0)
                        qt += (long double)x.a[i + (p - 1) * LDA] * e[p - 1];
                    if (p < N - 1)
                        qt += (long double)x.a[i + (p + 1) * LDA] * e[p];
                    s += qt * x.a[j + p * LDA];
                    o += (long double)x.a[p + i * LDA] * x.a[p + j * LDA];
                }
                worst = fmax(worst, fabs((double)(s - a0.a[i + j * LDA])));
                a_norm = fmax(a_norm, fabs(a0.a[i + j * LDA]));
                orthogonal = fmax(orthogonal, fabs((double)o));
            }
        if (!(worst / (N * a_norm * TL_EPS) < TL_THRESHOLD) ||
            !(orthogonal / (N * TL_EPS) < TL_THRESHOLD))
            fail_msg("dsytrd_ + dorgtr_ %c: ||A - Q T Q^T|| ratio %g, orthogonality %g", uplo,
                     worst / (N * a_norm * TL_EPS), orthogonal / (N * TL_EPS));
        free(d), free_arrays(&x), free_arrays(&a0);
    }
    /* the tridiagonal solvers, past DSTEDC's leaf (25) and below it */
    static const int orders[] = {0, 1, 20, 40};
    static const char compzs[] = "NIV";
    for (int o = 0; o < 4; o++) {
        const int n = orders[o];
        for (int k = 0; k < 3; k++) {
            const eig_call calls[] = {
                {STEDC, .compz = compzs[k], .n = n, .ldb = n + 1},
                {STEQR, .compz = compzs[k], .n = n, .ldb = n + 1},
            };
            for (int r = 0; r < 2; r++) {
                arrays before, after;
                int m;
                run_case(ob, calls[r], seed++, &before, &after, &m);
                if (k > 0 && n > 0) {
                    /* T's own vectors (Z = I on entry for 'V'): T Z = Z diag(D) */
                    double *t = tl_alloc((tela_int)n * n);
                    for (int j = 0; j < n; j++)
                        for (int i = 0; i < n; i++)
                            t[i + j * n] = i == j       ? before.w[i]
                                           : i == j + 1 ? before.b[j]
                                           : j == i + 1 ? before.b[i]
                                                        : 0.0;
                    char what[256];
                    describe(&calls[r], what, sizeof what);
                    expect_eigenpairs(what, n, t, n, after.w, after.z, n + 1, n);
                    free(t);
                }
                free_arrays(&before), free_arrays(&after);
            }
        }
        arrays before, after;
        int m;
        run_case(ob, (eig_call){STERF, .n = n}, seed++, &before, &after, &m);
        free_arrays(&before), free_arrays(&after);
    }
    expect_no_reports();
}

/* Quick returns: N = 0 and 1 on each driver, WORK(1) and IWORK(1) as OpenBLAS leaves them. */
static void test_quick_returns(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    unsigned seed = 300;
    for (int n = 0; n <= 1; n++) {
        const eig_call calls[] = {
            {SYEVD, .jobz = 'V', .uplo = 'L', .n = n, .lda = 1},
            {SYEVD, .jobz = 'N', .uplo = 'U', .n = n, .lda = 1},
            {SYEV, .jobz = 'V', .uplo = 'L', .n = n, .lda = 1},
            {SYEV, .jobz = 'N', .uplo = 'U', .n = n, .lda = 1},
            {SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = n, .lda = 1, .ldb = 1},
            {SYEVR, .jobz = 'V', .range = 'V', .uplo = 'L', .n = n, .lda = 1, .ldb = 1, .vl = -0.25,
             .vu = 0.5},
            {SYEVR, .jobz = 'N', .range = 'I', .uplo = 'U', .n = n, .lda = 1, .ldb = 1, .il = 1,
             .iu = n},
        };
        for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
            arrays before, after;
            int m;
            run_case(ob, calls[k], seed++, &before, &after, &m);
            free_arrays(&before), free_arrays(&after);
        }
    }
    expect_no_reports();
}

/* dstein_: reference DSTEIN's bad arguments (N 1, M 4, LDZ 9, IBLOCK out of order 6, W out of
 * order within a block 5) and tela's (blocks past N 6, ISPLIT past N 7) reported as "DSTEIN"
 * with nothing written, NULL arrays (D 2, W 5, Z 8, WORK 10) by number alone; a good call the
 * bits of tela_dstein on the same input with IFAIL zeroed, on two blocks. */
static void test_dstein(void **state)
{
    (void)state;
    const double d[6] = {2, -1, 0.5, 3, 1, -2}, e[5] = {1, 0.25, 0, 0.5, 1.5};
    /* Blocks rows 1-3 and 4-6; values from tela_dsterf of each. */
    double w[6], t[3], f[2];
    for (ptrdiff_t b = 0; b < 2; b++) {
        memcpy(t, d + 3 * b, sizeof t);
        memcpy(f, e + 3 * b, sizeof f);
        assert_int_equal(tela_dsterf(tela_par_seq(), 3, t, f), 0);
        memcpy(w + 3 * b, t, sizeof t);
    }
    const int iblock[6] = {1, 1, 1, 2, 2, 2}, isplit[2] = {3, 6};
    const int unordered[6] = {1, 2, 1, 2, 2, 2}, past[6] = {1, 1, 1, 2, 2, 7}, far[2] = {3, 7};
    const double w_unordered[6] = {w[1], w[0], w[2], w[3], w[4], w[5]};
    const struct { // NOLINT(clang-analyzer-optin.performance.Padding): a test table
        int n, m, ldz;
        const int *iblock, *isplit;
        const double *d, *w;
        bool z, work;
        int want;
        bool reported;
    } cases[] = {
        {-1, 6, 6, iblock, isplit, d, w, true, true, -1, true},
        {6, -1, 6, iblock, isplit, d, w, true, true, -4, true},
        {6, 7, 6, iblock, isplit, d, w, true, true, -4, true},
        {6, 6, 5, iblock, isplit, d, w, true, true, -9, true},
        {6, 6, 6, unordered, isplit, d, w, true, true, -6, true},
        {6, 6, 6, iblock, isplit, d, w_unordered, true, true, -5, true},
        {6, 6, 6, past, isplit, d, w, true, true, -6, true},
        {6, 6, 6, iblock, far, d, w, true, true, -7, true},
        {6, 6, 6, iblock, isplit, NULL, w, true, true, -2, false},
        {6, 6, 6, iblock, isplit, d, NULL, true, true, -5, false},
        {6, 6, 6, iblock, isplit, d, w, false, true, -8, false},
        {6, 6, 6, iblock, isplit, d, w, true, false, -10, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double z[36], work[30];
        int iwork[6], ifail[6], info = 0;
        for (int i = 0; i < 36; i++)
            z[i] = SENTINEL;
        for (int i = 0; i < 6; i++)
            ifail[i] = ISENTINEL;
        memset(&hooks, 0, sizeof hooks);
        dstein_(&cases[c].n, cases[c].d, e, &cases[c].m, cases[c].w, cases[c].iblock,
                cases[c].isplit, cases[c].z ? z : NULL, &cases[c].ldz, cases[c].work ? work : NULL,
                iwork, ifail, &info);
        if (info != cases[c].want)
            fail_msg("dstein_ case %zu: INFO %d, want %d", c, info, cases[c].want);
        if (cases[c].reported &&
            (hooks.xerbla != 1 || strcmp(hooks.srname, "DSTEIN") != 0 || hooks.info != -info))
            fail_msg("dstein_ case %zu: xerbla %d calls, last %s %d", c, hooks.xerbla, hooks.srname,
                     hooks.info);
        if (!cases[c].reported && hooks.xerbla + hooks.tela_handler_calls != 0)
            fail_msg("dstein_ case %zu: reported", c);
        for (int i = 0; i < 36; i++)
            if (z[i] != SENTINEL)
                fail_msg("dstein_ case %zu: Z(%d) written", c, i);
        for (int i = 0; i < 6; i++)
            if (ifail[i] != ISENTINEL)
                fail_msg("dstein_ case %zu: IFAIL(%d) written", c, i);
    }
    /* A good call: tela_dstein's bits, IFAIL zeroed, WORK and IWORK untouched. */
    const int n = 6, ldz = 7;
    double z[42], z_native[42], work[30];
    int iwork[6], ifail[6], info = -1;
    for (int i = 0; i < 42; i++)
        z[i] = z_native[i] = SENTINEL;
    for (int i = 0; i < 30; i++)
        work[i] = SENTINEL;
    for (int i = 0; i < 6; i++)
        ifail[i] = iwork[i] = ISENTINEL;
    memset(&hooks, 0, sizeof hooks);
    dstein_(&n, d, e, &n, w, iblock, isplit, z, &ldz, work, iwork, ifail, &info);
    assert_int_equal(info, 0);
    const tela_int tblock[6] = {1, 1, 1, 2, 2, 2}, tsplit[2] = {3, 6};
    tela_int tfail[6];
    assert_int_equal(
        tela_dstein(tela_par_auto(), n, d, e, n, w, tblock, tsplit, z_native, ldz, tfail), 0);
    if (memcmp(z, z_native, sizeof z) != 0)
        fail_msg("dstein_: not tela_dstein's bits");
    for (int i = 0; i < 6; i++)
        if (ifail[i] != 0 || iwork[i] != ISENTINEL)
            fail_msg("dstein_: IFAIL(%d) = %d, IWORK(%d) = %d", i, ifail[i], i, iwork[i]);
    for (int i = 0; i < 30; i++)
        if (work[i] != SENTINEL)
            fail_msg("dstein_: WORK(%d) written", i);
    for (int j = 0; j < 6; j++) /* block 1's vectors zero in rows 4-6, block 2's in 1-3 */
        for (int i = j < 3 ? 3 : 0; i < (j < 3 ? 6 : 3); i++)
            if (z[i + j * ldz] != 0.0)
                fail_msg("dstein_: Z(%d, %d) = %g outside its block", i + 1, j + 1, z[i + j * ldz]);
    expect_no_reports();
}

/* A NULL WORK or IWORK (reference would crash) gives its number, no report, nothing written;
 * so does a NULL M of DSYEVR. */
static void test_null_workspace(void **state)
{
    (void)state;
    const struct {
        eig_call c;
        int null_work, null_iwork, null_m; /* the numbers */
    } cases[] = {
        {{SYEVD, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .lwork = -1, .liwork = -1}, 7, 9, 0},
        {{SYEV, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .lwork = 5}, 7, 0, 0},
        {{SYEVR, .jobz = 'V', .range = 'A', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = 52,
          .liwork = 20},
         17,
         19,
         12},
        {{SYGVD, .itype = 1, .jobz = 'V', .uplo = 'L', .n = 2, .lda = 2, .ldb = 2, .lwork = -1,
          .liwork = 13},
         10,
         12,
         0},
        {{SYTRD, .uplo = 'L', .n = 2, .lda = 2, .lwork = -1}, 8, 0, 0},
        {{ORGTR, .uplo = 'L', .n = 2, .lda = 2, .lwork = 1}, 6, 0, 0},
        {{ORMTR, .side = 'L', .uplo = 'L', .trans = 'N', .m = 2, .n = 2, .lda = 2, .ldb = 2,
          .lwork = -1},
         11,
         0,
         0},
        {{STEDC, .compz = 'I', .n = 2, .ldb = 2, .lwork = 2, .liwork = -1}, 7, 9, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int which = 0; which < 3; which++) {
            const int number = which == 0   ? cases[k].null_work
                               : which == 1 ? cases[k].null_iwork
                                            : cases[k].null_m;
            if (!number)
                continue;
            arrays x = sentinel_arrays();
            arrays held = x;
            if (which == 0)
                x.work = NULL;
            else if (which == 1)
                x.iwork = NULL;
            else
                x.m = NULL;
            int info = 99;
            call(&cases[k].c, &x, &info);
            char what[256];
            describe(&cases[k].c, what, sizeof what);
            if (info != -number)
                fail_msg("%s with a NULL %s: INFO = %d, expected %d", what,
                         which == 0   ? "WORK"
                         : which == 1 ? "IWORK"
                                      : "M",
                         info, -number);
            const char *name = NULL;
            const int i = first_written(&held, false, &name);
            if (i >= 0)
                fail_msg("%s: element %d of %s written", what, i, name);
            free_arrays(&held);
        }
    }
    expect_no_reports();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_argument_errors, reset_hooks),
        cmocka_unit_test_setup(test_workspace_queries, reset_hooks),
        cmocka_unit_test_setup(test_sizes_past_int_max, reset_hooks),
        cmocka_unit_test_setup(test_null_workspace, reset_hooks),
        cmocka_unit_test_setup(test_quick_returns, reset_hooks),
        cmocka_unit_test_setup(test_drivers, reset_hooks),
        cmocka_unit_test_setup(test_generalized, reset_hooks),
        cmocka_unit_test_setup(test_reduction_and_tridiagonal, reset_hooks),
        cmocka_unit_test_setup(test_dstein, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
