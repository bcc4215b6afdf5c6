/* test_compat_unbuffered — compat_getrf_unbuffered and compat_getrs_unbuffered, the LU paths the
 * LAPACK symbols take only out of memory or past COMPAT_PIVOTS_KEPT pivots in a region (no test can
 * afford that size), called directly, outside and inside a region, against the native routines. */
#define _GNU_SOURCE
#include "testutil.h"

#include "compat/compat.h"

#include <float.h>
#include <math.h>

/* ---- reports ---------------------------------------------------------------------------------
 * Every call here is valid: any report to tela's handler (from any thread) is a failure. */

static atomic_int reports;

static void count_report(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
    atomic_fetch_add(&reports, 1);
}

static int watch_reports(void **state)
{
    (void)state;
    atomic_store(&reports, 0);
    tela_set_error_handler(count_report, NULL);
    return 0;
}

/* ---- matrices ------------------------------------------------------------------------------- */

static double *new_array(size_t len)
{
    double *x = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(x);
    return x;
}

/* max |(P A - L U)(i, j)| / (max(m, n) max |A| eps), LAPACK's DGET01 ratio in the max norm; P
 * from int pivots. */
static double lu_residual(int m, int n, const double *a0, const double *f, int lda, const int *ipiv)
{
    const int mn = m < n ? m : n;
    double *pa = new_array((size_t)lda * n);
    memcpy(pa, a0, sizeof(double) * (size_t)lda * n);
    for (int i = 0; i < mn; i++) { /* P A: the interchanges in order */
        const int p = ipiv[i] - 1;
        for (int j = 0; j < n && p != i; j++) {
            const double t = pa[i + (size_t)j * lda];
            pa[i + (size_t)j * lda] = pa[p + (size_t)j * lda];
            pa[p + (size_t)j * lda] = t;
        }
    }
    double worst = 0, norm = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            long double s = 0;
            const int kmax = i < j ? i : j;
            for (int k = 0; k <= kmax && k < mn; k++) {
                const double l = k == i ? 1.0 : f[i + (size_t)k * lda];
                s += (long double)l * f[k + (size_t)j * lda];
            }
            const double d = fabs((double)(s - pa[i + (size_t)j * lda]));
            worst = d > worst ? d : worst;
            norm = fabs(a0[i + (size_t)j * lda]) > norm ? fabs(a0[i + (size_t)j * lda]) : norm;
        }
    }
    free(pa);
    return worst / ((double)(m > n ? m : n) * norm * DBL_EPSILON);
}

/* ---- the cases -------------------------------------------------------------------------------
 * Every shape spans more than one COMPAT_PIVOTS_STACK-column panel, the last narrower. */

typedef struct lu_case {
    int m, n;
    int zero_column; /* zeroed first, or -1 */
} lu_case;

static const lu_case cases[] = {
    {300, 300, -1},  {600, 260, -1}, /* tall: rows below the last panel */
    {260, 600, -1},                  /* wide: columns right of it */
    {300, 300, 100}, /* a zero pivot in the first panel: a later one must not replace its INFO */
    {300, 300, 280}, /* in the second: INFO counts the first panel's columns */
    {260, 600, 400}, /* a zero column right of the last pivot: no zero pivot */
};
enum { CASES = sizeof cases / sizeof cases[0], NRHS = 3 };

static const char transes[] = "NTc";
enum { TRANSES = sizeof transes - 1 };

/* One case run once: compat_getrf_unbuffered and tela_dgetrf on copies of a0 (lda m + 3, the
 * padding to be left alone), then, for a nonsingular square one, compat_getrs_unbuffered and
 * tela_dgetrs with those factors on copies of b0 (ldb n + 1), each trans. */
typedef struct lu_run {
    const lu_case *c;
    int lda, ldb;
    double *a0, *a, *native;
    int *ipiv;
    tela_int *native_ipiv, *wide; /* wide: ipiv as tela_int */
    int info, native_info;
    bool solves;
    double *b0, *b[TRANSES], *native_b[TRANSES];
    int native_solve_status[TRANSES];
} lu_run;

static size_t a_len(const lu_run *r)
{
    return (size_t)r->lda * r->c->n;
}

static size_t b_len(const lu_run *r)
{
    return (size_t)r->ldb * NRHS;
}

static void prepare(lu_run *r, const lu_case *c, unsigned seed)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->lda = c->m + 3;
    r->ldb = c->n + 1;
    const int mn = c->m < c->n ? c->m : c->n;
    r->a0 = tu_random_array(a_len(r), seed);
    if (c->zero_column >= 0)
        for (int i = 0; i < c->m; i++)
            r->a0[i + (size_t)c->zero_column * r->lda] = 0.0;
    r->a = new_array(a_len(r));
    r->native = new_array(a_len(r));
    r->ipiv = malloc(sizeof(int) * (size_t)(mn > 0 ? mn : 1)); /* malloc(0) may return NULL */
    r->native_ipiv = malloc(sizeof(tela_int) * (size_t)mn);
    r->wide = malloc(sizeof(tela_int) * (size_t)mn);
    assert_non_null(r->ipiv);
    assert_non_null(r->native_ipiv);
    assert_non_null(r->wide);
    r->solves = c->m == c->n && c->zero_column < 0;
    if (r->solves) {
        r->b0 = tu_random_array(b_len(r), seed + 1000);
        for (int t = 0; t < TRANSES; t++) {
            r->b[t] = new_array(b_len(r));
            r->native_b[t] = new_array(b_len(r));
        }
    }
}

/* Runs on any thread: nothing here asserts. */
static void run(lu_run *r, tela_par par)
{
    const int m = r->c->m, n = r->c->n, mn = m < n ? m : n;
    memcpy(r->a, r->a0, sizeof(double) * a_len(r));
    memcpy(r->native, r->a0, sizeof(double) * a_len(r));
    r->info = compat_getrf_unbuffered(par, m, n, r->a, r->lda, r->ipiv);
    r->native_info = tela_dgetrf(par, m, n, r->native, r->lda, r->native_ipiv);
    if (!r->solves)
        return;
    for (int i = 0; i < mn; i++)
        r->wide[i] = r->ipiv[i];
    for (int t = 0; t < TRANSES; t++) {
        memcpy(r->b[t], r->b0, sizeof(double) * b_len(r));
        memcpy(r->native_b[t], r->b0, sizeof(double) * b_len(r));
        compat_getrs_unbuffered(par, transes[t], n, NRHS, r->a, r->lda, r->ipiv, r->b[t], r->ldb);
        r->native_solve_status[t] =
            tela_dgetrs(par, transes[t], n, NRHS, r->a, r->lda, r->wide, r->native_b[t], r->ldb);
    }
}

static void check(const lu_run *r, const char *where)
{
    const lu_case *c = r->c;
    const int mn = c->m < c->n ? c->m : c->n;
    char what[96];
    snprintf(what, sizeof what, "%d x %d (zero column %d) %s", c->m, c->n, c->zero_column, where);
    if (r->info != r->native_info)
        fail_msg("%s: INFO = %d, tela_dgetrf returned %d", what, r->info, r->native_info);
    /* A zeroed column stays exactly zero through the elimination (every update adds multiples
     * of its zeros), so its pivot is the first zero one. */
    const int want_info = c->zero_column >= 0 && c->zero_column < mn ? c->zero_column + 1 : 0;
    if (r->info != want_info)
        fail_msg("%s: INFO = %d, expected %d", what, r->info, want_info);
    /* The same pivots: the factors differ only in rounding, too little to change a choice. */
    for (int i = 0; i < mn; i++)
        if (r->ipiv[i] != r->native_ipiv[i])
            fail_msg("%s: ipiv(%d) = %d, tela_dgetrf gave %td", what, i + 1, r->ipiv[i],
                     r->native_ipiv[i]);
    const double ratio = lu_residual(c->m, c->n, r->a0, r->a, r->lda, r->ipiv);
    if (!(ratio < 30.0))
        fail_msg("%s: residual ratio %g (LAPACK's threshold 30)", what, ratio);
    for (int j = 0; j < c->n; j++)
        tu_expect_same("padding rows", r->a + c->m + (size_t)j * r->lda,
                       r->a0 + c->m + (size_t)j * r->lda, (size_t)(r->lda - c->m));
    if (!r->solves)
        return;
    for (int t = 0; t < TRANSES; t++) {
        snprintf(what, sizeof what, "getrs %c n=%d %s", transes[t], c->n, where);
        assert_int_equal(r->native_solve_status[t], 0);
        tu_expect_same(what, r->b[t], r->native_b[t], b_len(r));
    }
}

static void release(lu_run *r)
{
    free(r->a0), free(r->a), free(r->native), free(r->ipiv), free(r->native_ipiv), free(r->wide);
    if (r->solves) {
        free(r->b0);
        for (int t = 0; t < TRANSES; t++)
            free(r->b[t]), free(r->native_b[t]);
    }
}

/* ---- tests ------------------------------------------------------------------------------------
 */

/* On the default width, as after a failed allocation outside a region. */
static void test_outside_a_region(void **state)
{
    (void)state;
    for (int i = 0; i < CASES; i++) {
        lu_run r;
        prepare(&r, &cases[i], 10 + (unsigned)i);
        run(&r, tela_par_auto());
        check(&r, "outside a region");
        release(&r);
    }
    assert_int_equal(atomic_load(&reports), 0);
}

/* Each member of a width-2 region on its own data, as the symbols run them there: nested, so
 * serial, and allocating nothing. */
static void cases_body(tela_member *self, void *arg)
{
    lu_run *runs = (lu_run *)arg + (size_t)tela_rank(self) * CASES;
    for (int i = 0; i < CASES; i++)
        run(&runs[i], tela_par_auto());
}

static void test_inside_a_region(void **state)
{
    (void)state;
    lu_run *runs = calloc((size_t)2 * CASES, sizeof *runs);
    assert_non_null(runs);
    for (int k = 0; k < 2 * CASES; k++)
        prepare(&runs[k], &cases[k % CASES], 100 + (unsigned)k);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 2, cases_body, runs), 2);
    tela_pool_destroy(pool);
    for (int k = 0; k < 2 * CASES; k++) {
        check(&runs[k], k < CASES ? "in member 0" : "in member 1");
        release(&runs[k]);
    }
    free(runs);
    assert_int_equal(atomic_load(&reports), 0);
}

/* Where these paths begin: inside a region every member finds room for COMPAT_PIVOTS_KEPT
 * pivots in its kept block, so the symbols are the native routines up to there, and a worker
 * finds none for one more (it never runs outside a region, where its block could grow). */
typedef struct room {
    bool stack_used, kept_found, over_refused;
} room;

static void room_body(tela_member *self, void *arg)
{
    room *r = (room *)arg + tela_rank(self);
    compat_pivots pivots;
    tela_int *p = compat_pivots_get(&pivots, COMPAT_PIVOTS_STACK);
    r->stack_used = p == pivots.stack;
    compat_pivots_release(&pivots);
    p = compat_pivots_get(&pivots, COMPAT_PIVOTS_KEPT);
    r->kept_found = p && p == pivots.block && !pivots.owned;
    if (p) /* all of it is there (the sanitizers see a short block) */
        p[0] = p[COMPAT_PIVOTS_KEPT - 1] = 1;
    compat_pivots_release(&pivots);
    p = compat_pivots_get(&pivots, COMPAT_PIVOTS_KEPT + 1);
    r->over_refused = !p;
    compat_pivots_release(&pivots);
}

static void test_pivot_room(void **state)
{
    (void)state;
    room rooms[2];
    memset(rooms, 0, sizeof rooms);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 2, room_body, rooms), 2);
    tela_pool_destroy(pool);
    for (int r = 0; r < 2; r++) {
        assert_true(rooms[r].stack_used);
        assert_true(rooms[r].kept_found);
    }
    assert_true(rooms[1].over_refused);
    /* Outside a region any count finds room: there the symbols never take these paths short
     * of memory. */
    compat_pivots pivots;
    tela_int *p = compat_pivots_get(&pivots, (tela_int)4 * COMPAT_PIVOTS_KEPT);
    assert_non_null(p);
    p[0] = p[4 * COMPAT_PIVOTS_KEPT - 1] = 1;
    compat_pivots_release(&pivots);
    assert_int_equal(atomic_load(&reports), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_outside_a_region, watch_reports),
        cmocka_unit_test_setup(test_inside_a_region, watch_reports),
        cmocka_unit_test_setup(test_pivot_room, watch_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
