/* testlapack.h — what test_lu and test_chol share: random matrices with 53-bit entries (no
 * ties in practice, so pivot choices are well defined), padding rows filled with a sentinel
 * bit pattern and checked bitwise, the residual ratios of LAPACK's test programs (dget01,
 * dget02, dpot01, dpot02: normalised by eps = dlamch('Epsilon') = 2^-53, to stay under 30),
 * and OpenBLAS loaded apart from tela as the reference implementation.
 *
 * OpenBLAS and libtela export the same names (dgetrf_, dpotrf_, ...), so OpenBLAS is never
 * linked: it is loaded at run time with dlmopen(LM_ID_NEWLM) into a link-map namespace of its
 * own, and dladdr checks that each routine compared really lives in OpenBLAS's file and not in
 * tela's. OPENBLAS_NUM_THREADS=1 keeps it serial (deterministic, and no threads that sanitizers
 * cannot see). */
#ifndef TELA_TESTLAPACK_H
#define TELA_TESTLAPACK_H

#include "testutil.h"

#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <strings.h>
#include <sys/stat.h>

/* LAPACK's test threshold and its eps (relative machine precision, rounding). */
#define TL_THRESHOLD 30.0
#define TL_EPS       (DBL_EPSILON / 2)

/* ---- random numbers ----------------------------------------------------------------------
 * splitmix64: entries carry 53 random bits, so two entries of a column tie with probability
 * ~2^-50 and the pivot order is the same for every correct implementation. */
static uint64_t tl_rng_state = 0x2545f4914f6cdd1dULL;

static inline void tl_seed(uint64_t seed)
{
    tl_rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
}

static inline uint64_t tl_next(void)
{
    uint64_t z = (tl_rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform in [-1, 1), never exactly zero. */
static inline double tl_uniform(void)
{
    for (;;) {
        double x = (double)(tl_next() >> 11) * 0x1p-52 - 1.0;
        if (x != 0.0)
            return x;
    }
}

/* Uniform integer in [0, bound). */
static inline tela_int tl_below(tela_int bound)
{
    return (tela_int)(tl_next() % (uint64_t)bound);
}

/* ---- storage ------------------------------------------------------------------------------ */

/* count doubles (at least one, so that an empty matrix still has an address). */
static inline double *tl_alloc(tela_int count)
{
    double *x = malloc(sizeof(double) * (size_t)(count > 0 ? count : 1));
    assert_non_null(x);
    return x;
}

static inline tela_int *tl_alloc_ipiv(tela_int count)
{
    tela_int *p = malloc(sizeof(tela_int) * (size_t)(count > 0 ? count : 1));
    assert_non_null(p);
    return p;
}

static inline double *tl_copy(const double *x, tela_int count)
{
    double *y = tl_alloc(count);
    memcpy(y, x, sizeof(double) * (size_t)(count > 0 ? count : 0));
    return y;
}

/* The padding rows hold a quiet NaN with a payload: read into arithmetic it poisons a
 * residual; written or moved, its bits change. */
static const uint64_t tl_sentinel_bits = 0x7ff8dead0000beefULL;

static inline double tl_sentinel(void)
{
    double s;
    memcpy(&s, &tl_sentinel_bits, sizeof s);
    return s;
}

static inline bool tl_is_sentinel(const double *x)
{
    uint64_t bits;
    memcpy(&bits, x, sizeof bits);
    return bits == tl_sentinel_bits;
}

/* An lda x n array: the m x n matrix random, rows m..lda-1 the sentinel. */
static inline double *tl_random_matrix(tela_int m, tela_int n, tela_int lda)
{
    double *a = tl_alloc(lda * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < lda; i++)
            a[i + j * lda] = i < m ? tl_uniform() : tl_sentinel();
    return a;
}

/* Fails unless rows m..lda-1 of the n columns still hold the sentinel. */
static inline void tl_expect_padding(const char *what, const double *a, tela_int m, tela_int n,
                                     tela_int lda)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = m; i < lda; i++)
            if (!tl_is_sentinel(&a[i + j * lda]))
                fail_msg("%s: padding element (%td, %td) of lda = %td (m = %td) was written", what,
                         i, j, lda, m);
}

/* ---- norms and residuals ------------------------------------------------------------------ */

/* Largest column sum of |a| over the m x n matrix. */
static inline double tl_norm1(tela_int m, tela_int n, const double *a, tela_int lda)
{
    double best = 0;
    for (tela_int j = 0; j < n; j++) {
        double s = 0;
        for (tela_int i = 0; i < m; i++)
            s += fabs(a[i + j * lda]);
        if (s > best || isnan(s))
            best = s;
    }
    return best;
}

/* Largest row sum of |a|: the 1-norm of a^T. */
static inline double tl_norm_inf(tela_int m, tela_int n, const double *a, tela_int lda)
{
    double best = 0;
    for (tela_int i = 0; i < m; i++) {
        double s = 0;
        for (tela_int j = 0; j < n; j++)
            s += fabs(a[i + j * lda]);
        if (s > best || isnan(s))
            best = s;
    }
    return best;
}

/* ||r||_1 / (n ||a||_1 eps), LAPACK's convention when a is zero (0 if r is, else 1/eps). */
static inline double tl_ratio(double rnorm, double anorm, tela_int n)
{
    if (isnan(rnorm) || isnan(anorm))
        return NAN;
    if (anorm <= 0)
        return rnorm <= 0 ? 0.0 : 1.0 / TL_EPS;
    return rnorm / ((double)(n > 0 ? n : 1) * anorm * TL_EPS);
}

/* dget02: max over columns j of ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 n eps), with
 * op(A) n x n, b0 the right-hand sides the solver was given and x its answer. */
static inline double tl_solve_ratio(bool trans, tela_int n, tela_int nrhs, const double *a,
                                    tela_int lda, const double *x, tela_int ldx, const double *b0,
                                    tela_int ldb)
{
    const double anorm = trans ? tl_norm_inf(n, n, a, lda) : tl_norm1(n, n, a, lda);
    double worst = 0;
    double *r = tl_alloc(n);
    for (tela_int j = 0; j < nrhs; j++) {
        for (tela_int i = 0; i < n; i++)
            r[i] = b0[i + j * ldb];
        for (tela_int k = 0; k < n; k++) {
            const double xk = x[k + j * ldx];
            if (trans) {
                double s = 0; /* row k of op(A) = column k of A */
                for (tela_int i = 0; i < n; i++)
                    s += a[i + k * lda] * x[i + j * ldx];
                r[k] -= s;
            } else {
                for (tela_int i = 0; i < n; i++)
                    r[i] -= a[i + k * lda] * xk;
            }
        }
        double rnorm = 0, xnorm = 0;
        for (tela_int i = 0; i < n; i++) {
            rnorm += fabs(r[i]);
            xnorm += fabs(x[i + j * ldx]);
        }
        double ratio =
            !(xnorm > 0) ? (isnan(xnorm) ? NAN : 1.0 / TL_EPS) : tl_ratio(rnorm / xnorm, anorm, n);
        if (!(ratio <= worst))
            worst = ratio; /* NaN sticks */
    }
    free(r);
    return worst;
}

/* ---- OpenBLAS, loaded apart --------------------------------------------------------------- */

/* LAPACK's Fortran ABI with LP64 integers (Debian's and most distributions' OpenBLAS); the
 * trailing size_t is gfortran's hidden length of a character argument. */
typedef void (*tl_dgetrf_fn)(const int *m, const int *n, double *a, const int *lda, int *ipiv,
                             int *info);
typedef void (*tl_dpotrf_fn)(const char *uplo, const int *n, double *a, const int *lda, int *info,
                             size_t uplo_len);

struct tl_openblas {
    void *handle;        /* from dlmopen(LM_ID_NEWLM, ...) */
    long namespace_id;   /* its link-map namespace: never the program's own (0) */
    char file[PATH_MAX]; /* the file dgetrf_ and dpotrf_ came from, links resolved */
    tl_dgetrf_fn dgetrf;
    tl_dpotrf_fn dpotrf;
};

/* The file (links resolved) holding the code at address; false if dladdr cannot tell. */
static inline bool tl_file_of(const void *address, char *file, size_t size)
{
    Dl_info info;
    char resolved[PATH_MAX];
    if (!dladdr(address, &info) || !info.dli_fname || !realpath(info.dli_fname, resolved))
        return false;
    snprintf(file, size, "%s", resolved);
    return true;
}

static inline bool tl_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* dlsym into a function pointer: the address travels as bytes (ISO C has no conversion from
 * void * to a function pointer). Returns the address, NULL if absent. */
static inline void *tl_symbol(void *handle, const char *name, void *function_pointer)
{
    void *address = dlsym(handle, name);
    if (address)
        memcpy(function_pointer, &address, sizeof address);
    return address;
}

static struct tl_openblas tl_ob;
static int tl_ob_state; /* 0 not tried, 1 loaded, -1 not available (tl_ob_why says why) */
static char tl_ob_why[PATH_MAX + 256];

/* Loads OpenBLAS once (TELA_TEST_OPENBLAS names a file, else the usual places, the pthreads
 * build first) and checks where its routines live. Returns NULL when it is not available;
 * the caller skips (tl_ob_why says why). A library that loads but whose routines are not its
 * own, or are tela's, is a failure, not a skip. */
static inline const struct tl_openblas *tl_openblas(void)
{
    if (tl_ob_state)
        return tl_ob_state > 0 ? &tl_ob : NULL;
    tl_ob_state = -1;
    static const char *const candidates[] = {
        "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0", /* Debian, Ubuntu */
        "libopenblasp.so.0",                                           /* Fedora: pthreads */
        "libopenblas.so.0", "libopenblas.so"};
    /* Read by OpenBLAS's constructor, in the namespace's own libc (given this environment). */
    setenv("OPENBLAS_NUM_THREADS", "1", 1);
    const char *path = getenv("TELA_TEST_OPENBLAS");
    char errors[1024] = "";
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0] && !tl_ob.handle; i++) {
        const char *name = path && *path ? path : candidates[i];
        tl_ob.handle = dlmopen(LM_ID_NEWLM, name, RTLD_NOW | RTLD_LOCAL);
        if (!tl_ob.handle) {
            const char *e = dlerror();
            size_t used = strlen(errors);
            snprintf(errors + used, sizeof errors - used, "%s%s", used ? "; " : "", e ? e : name);
        }
        if (path && *path)
            break;
    }
    if (!tl_ob.handle) {
        snprintf(tl_ob_why, sizeof tl_ob_why, "OpenBLAS could not be loaded (%s)", errors);
        return NULL;
    }
    void *getrf = tl_symbol(tl_ob.handle, "dgetrf_", &tl_ob.dgetrf);
    void *potrf = tl_symbol(tl_ob.handle, "dpotrf_", &tl_ob.dpotrf);
    void *own = dlsym(tl_ob.handle, "openblas_get_config");
    if (!getrf || !potrf || !own) {
        snprintf(tl_ob_why, sizeof tl_ob_why,
                 "the library loaded lacks dgetrf_, dpotrf_ or openblas_get_config");
        return NULL;
    }
    Lmid_t lmid = LM_ID_BASE;
    assert_int_equal(dlinfo(tl_ob.handle, RTLD_DI_LMID, &lmid), 0);
    tl_ob.namespace_id = (long)lmid;
    char own_file[PATH_MAX], getrf_file[PATH_MAX], potrf_file[PATH_MAX], tela_file[PATH_MAX];
    int (*tela_getrf)(tela_par, tela_int, tela_int, double *, tela_int, tela_int *) = tela_dgetrf;
    void *tela_address;
    memcpy(&tela_address, &tela_getrf, sizeof tela_address);
    assert_true(tl_file_of(own, own_file, sizeof own_file));
    assert_true(tl_file_of(getrf, getrf_file, sizeof getrf_file));
    assert_true(tl_file_of(potrf, potrf_file, sizeof potrf_file));
    assert_true(tl_file_of(tela_address, tela_file, sizeof tela_file));
    if (lmid == LM_ID_BASE)
        fail_msg("OpenBLAS was loaded into the program's own namespace");
    if (!tl_same_file(getrf_file, own_file) || !tl_same_file(potrf_file, own_file))
        fail_msg("dgetrf_ (%s) or dpotrf_ (%s) is not OpenBLAS's (%s)", getrf_file, potrf_file,
                 own_file);
    if (tl_same_file(getrf_file, tela_file))
        fail_msg("dgetrf_ resolved to tela's own file %s", tela_file);
    snprintf(tl_ob.file, sizeof tl_ob.file, "%s", getrf_file);
    printf("OpenBLAS: dgetrf_ and dpotrf_ from %s (link-map namespace %ld); tela from %s\n",
           tl_ob.file, tl_ob.namespace_id, tela_file);
    tl_ob_state = 1;
    return &tl_ob;
}

/* Entry of a test that compares with OpenBLAS: its handle, or a cmocka skip with the reason. */
#define TL_OPENBLAS_OR_SKIP(ob)                                                                    \
    const struct tl_openblas *ob = tl_openblas();                                                  \
    if (!ob) {                                                                                     \
        printf("SKIPPED: %s\n", tl_ob_why);                                                        \
        skip();                                                                                    \
    }

/* ---- the policy of the numerical cases ------------------------------------------------------
 * Normally the caller's thread. With --wide (ctest's *_wide, which points TELA_COSTS at the
 * near-free dispatch fixture) a team of 2 held for the whole program: the gate then splits every
 * region (the panel, the row swaps, the triangular chunks, GEMM, SYRK) in the cases whose answer
 * is known beforehand: singular, NaN, rank-deficient, residuals. */
static bool tl_wide_mode;
static tela_pool *tl_wide_pool;
static tela_team *tl_wide_team;

static inline tela_par tl_par(void)
{
    return tl_wide_mode ? tela_par_team(tl_wide_team) : tela_par_seq();
}

/* Reads the command line; false (after a message) if --wide is asked without the fixture. */
static inline bool tl_setup(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--wide") != 0)
        return true;
    const char *costs = getenv("TELA_COSTS");
    if (!costs || !strstr(costs, "free-dispatch") || strcmp(tela_costs_source(), costs) != 0) {
        fprintf(stderr,
                "--wide needs TELA_COSTS=tests/fixtures/free-dispatch.costs in effect "
                "(TELA_COSTS %s, table from %s)\n",
                costs ? costs : "unset", tela_costs_source());
        return false;
    }
    tl_wide_pool = tu_pool_of_width(2);
    tl_wide_team = tl_wide_pool ? tela_team_acquire(tl_wide_pool, 2) : NULL;
    if (!tl_wide_team || tela_team_width(tl_wide_team) != 2) {
        fprintf(stderr, "--wide: no team of 2\n");
        return false;
    }
    tl_wide_mode = true;
    printf("wide: numerical cases on a held team of 2, every region split (costs: %s)\n", costs);
    return true;
}

static inline void tl_teardown(void)
{
    if (tl_wide_team)
        tela_team_release(tl_wide_team);
    tela_pool_destroy(tl_wide_pool);
}

/* ---- several callers at once, and calls from inside a region -------------------------------
 * Each job computes on its own matrices (buffers allocated beforehand: a region body should not
 * allocate) and compares with the serial result; run(job) returns the number of doubles that
 * differ bitwise and their largest relative difference, -1 for a wrong info. A result must not
 * depend on which thread computes it (DESIGN.md: "a result never depends on which thread
 * computed it"; tela.h: "bitwise the same at every width"). */
#define TL_CALLERS 4

struct tl_caller {
    long (*run)(struct tl_caller *job);
    void *job;    /* the test's own description of the case */
    tela_par par; /* the policy the job calls with */
    int runs;     /* how often it ran */
    long differ;  /* the last run's count of differing doubles, -1: wrong info */
    double worst; /* their largest relative difference */
};

/* Counts the doubles of got that differ bitwise from want, the largest relative difference in
 * *worst. */
static inline long tl_count_differ(const double *got, const double *want, tela_int count,
                                   double *worst)
{
    long differ = 0;
    for (tela_int i = 0; i < count; i++)
        if (memcmp(&got[i], &want[i], sizeof got[i]) != 0) {
            differ++;
            double rel = fabs(got[i] - want[i]) / (fabs(want[i]) > 0 ? fabs(want[i]) : 1.0);
            *worst = rel > *worst || isnan(rel) ? rel : *worst;
        }
    return differ;
}

static void *tl_caller_thread(void *arg)
{
    struct tl_caller *c = arg;
    c->differ = c->run(c);
    c->runs++;
    return NULL;
}

static void tl_caller_body(tela_member *self, void *arg)
{
    struct tl_caller *c = (struct tl_caller *)arg + tela_rank(self);
    TU_CHECK(tela_rank(self) < TL_CALLERS);
    c->differ = c->run(c);
    c->runs++;
}

/* Four threads call at once through the default pool: each gets a team of its own or runs
 * narrower, never a deadlock, never other bits. Returns the number of callers that computed
 * other bits (printed), so that the caller frees its jobs before failing. */
static inline int tl_run_concurrent(struct tl_caller callers[TL_CALLERS])
{
    pthread_t threads[TL_CALLERS];
    for (int i = 0; i < TL_CALLERS; i++) {
        callers[i].par = tela_par_auto();
        callers[i].runs = 0;
        callers[i].worst = 0;
        assert_int_equal(pthread_create(&threads[i], NULL, tl_caller_thread, &callers[i]), 0);
    }
    for (int i = 0; i < TL_CALLERS; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    int bad = 0;
    for (int i = 0; i < TL_CALLERS; i++)
        if (callers[i].runs != 1 || callers[i].differ != 0) {
            printf("concurrent caller %d: ran %d times, %ld doubles differ from the serial "
                   "result (-1: a wrong info or other pivots), by up to %.3g relative\n",
                   i, callers[i].runs, callers[i].differ, callers[i].worst);
            bad++;
        }
    fflush(stdout);
    return bad;
}

/* Each member of a region of 4 calls through tela_par_auto: nested, so serial on that member;
 * the bits must be the serial call's on every member, the caller (rank 0) and the workers.
 * Returns the number of members that computed other bits (printed). */
static inline int tl_run_nested(struct tl_caller callers[TL_CALLERS])
{
    tela_pool *pool = tu_pool_of_width(TL_CALLERS);
    assert_non_null(pool);
    for (int i = 0; i < TL_CALLERS; i++) {
        callers[i].par = tela_par_auto();
        callers[i].runs = 0;
        callers[i].worst = 0;
    }
    const int used = tela_parallel(tela_par_pool(pool), TL_CALLERS, tl_caller_body, callers);
    tela_pool_destroy(pool);
    TU_ASSERT_NO_FAILURES();
    assert_true(used >= 1 && used <= TL_CALLERS);
    int bad = 0;
    for (int i = 0; i < TL_CALLERS; i++) {
        if (callers[i].runs != (i < used ? 1 : 0))
            fail_msg("region member %d of %d ran %d times", i, used, callers[i].runs);
        if (i < used && callers[i].differ < 0) {
            printf("region member %d of %d: a wrong info or other pivots\n", i, used);
            bad++;
        } else if (i < used && callers[i].differ > 0) {
            printf("region member %d of %d: %ld doubles differ from the serial call, by up to "
                   "%.3g relative\n",
                   i, used, callers[i].differ, callers[i].worst);
            bad++;
        }
    }
    fflush(stdout);
    return bad;
}

/* ---- widths -------------------------------------------------------------------------------
 * The policies a result must not depend on: the process default pool limited to w, and a team
 * of width w held by the caller (from its own pool). */
#define TL_WIDTH_COUNT 3
static const int tl_widths[TL_WIDTH_COUNT] = {1, 2, 8};

#endif /* TELA_TESTLAPACK_H */
