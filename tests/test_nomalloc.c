/* test_nomalloc — no heap allocation inside a region: this program interposes
 * the allocator (malloc and friends forward to glibc's __libc_* entry points)
 * and counts calls from any thread while a region is being measured. Without
 * a sanitizer only: ASan and TSan own the allocator themselves. */
#define _GNU_SOURCE
#include "testutil.h"

#if !TU_SANITIZED
#include <malloc.h>

/* glibc's own allocator, exported for exactly this purpose. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_memalign(size_t alignment, size_t size);

/* Set while a measured window is open; any thread's call then counts. */
static atomic_int counting;
static atomic_long alloc_calls;
static atomic_long free_calls;

static inline void count_alloc(void)
{
    if (atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&alloc_calls, 1, memory_order_relaxed);
}

void *malloc(size_t size)
{
    count_alloc();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    count_alloc();
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size)
{
    count_alloc();
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    if (ptr && atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add_explicit(&free_calls, 1, memory_order_relaxed);
    __libc_free(ptr);
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    count_alloc();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0)
        return EINVAL;
    void *ptr = __libc_memalign(alignment, size);
    if (!ptr)
        return ENOMEM;
    *out = ptr;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size)
{
    count_alloc();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size)
{
    count_alloc();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size)
{
    count_alloc();
    return __libc_memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size)
{
    count_alloc();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return __libc_memalign(page, (size + page - 1) / page * page);
}

static void start_counting(void)
{
    atomic_store(&alloc_calls, 0);
    atomic_store(&free_calls, 0);
    atomic_store(&counting, 1);
}

static void stop_counting(void)
{
    atomic_store(&counting, 0);
}

struct measured {
    struct tu_sections sections;
    tela_team *team;     /* for the workspace probe; NULL: none */
    bool open_window;    /* rank 0 opens and closes the counting window */
    int allocating_rank; /* this rank allocates once on purpose; -1: none */
};

static void nested_body(tela_member *self, void *arg)
{
    (void)arg;
    tela_barrier(self);
}

/* Barrier; rank 0 opens the window; barrier; the work (sections with
 * tela_rank, tela_width, tela_barrier, a nested region, the workspace probe);
 * barrier; rank 0 closes the window; barrier. Every member is inside the
 * window from the second barrier to the third. */
static void measured_body(tela_member *self, void *arg)
{
    struct measured *m = arg;
    int rank = tela_rank(self);
    tela_barrier(self);
    if (rank == 0 && m->open_window)
        start_counting();
    tela_barrier(self);

    tu_sections_body(self, &m->sections);
    /* Nested: runs serially on this member, still without allocating. */
    TU_CHECK(tela_parallel(tela_par_auto(), 0, nested_body, NULL) == 1);
    if (m->team)
        TU_CHECK(tela_team_workspace(m->team, 4096) == NULL);
    if (rank == m->allocating_rank) {
        void *volatile block = malloc(48);
        free(block);
    }

    tela_barrier(self);
    if (rank == 0 && m->open_window)
        stop_counting();
    tela_barrier(self);
}

static int run_measured(tela_par par, int width, tela_team *team, bool open_window,
                        int allocating_rank)
{
    struct measured m;
    memset(&m, 0, sizeof m);
    tu_sections_init(&m.sections, 10);
    m.team = team;
    m.open_window = open_window;
    m.allocating_rank = allocating_rank;
    int used = tela_parallel(par, width, measured_body, &m);
    tu_sections_verify(&m.sections, used);
    return used;
}

static void expect_no_allocations(const char *what, int width)
{
    long allocs = atomic_load(&alloc_calls), frees = atomic_load(&free_calls);
    if (allocs != 0 || frees != 0)
        fail_msg("%s at width %d: %ld allocations and %ld frees", what, width, allocs, frees);
}
#endif /* !TU_SANITIZED */

#define SKIP_IF_SANITIZED()                                                                        \
    do {                                                                                           \
        if (TU_SANITIZED)                                                                          \
            skip();                                                                                \
    } while (0)

/* The counter itself: an allocation on a worker inside the window is seen,
 * exactly once; so is an allocation made inside libtela. */
static void test_interposer_counts_allocations(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    run_measured(tela_par_pool(pool), 2, NULL, false, -1); /* warm up */
    assert_int_equal(run_measured(tela_par_pool(pool), 2, NULL, true, 1), 2);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(atomic_load(&alloc_calls), 1);
    assert_int_equal(atomic_load(&free_calls), 1);
    tela_pool_destroy(pool);

    /* Calls made by the library reach the interposer too (it is not only
     * this executable calling its own functions). */
    start_counting();
    pool = tu_pool_of_width(2);
    tela_team *team = pool ? tela_team_acquire(pool, 2) : NULL;
    void *ws = team ? tela_team_workspace(team, 1u << 16) : NULL;
    if (team)
        tela_team_release(team);
    tela_pool_destroy(pool);
    stop_counting();
    assert_non_null(ws);
    if (atomic_load(&alloc_calls) < 1)
        fail_msg("%s", "creating a pool, a team and its workspace made no call to malloc & co.: "
                       "the interposer does not see libtela's allocations");
#endif
}

/* A destroyed pool's team leaves its workspace to the next team that needs
 * one: a caller that builds a pool per call (tela-probe's fresh_pool) finds
 * it grown, with nothing to allocate and no page to touch anew. */
static void test_fresh_pool_finds_the_last_workspace(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    enum { BIG = 1 << 20 };
    tela_pool *pool = tu_pool_of_width(2);
    tela_team *team = pool ? tela_team_acquire(pool, 2) : NULL;
    assert_non_null(team);
    unsigned char *ws = tela_team_workspace(team, BIG);
    assert_non_null(ws);
    memset(ws, 1, BIG);
    tela_team_release(team);
    tela_pool_destroy(pool);

    pool = tu_pool_of_width(2);
    team = pool ? tela_team_acquire(pool, 2) : NULL;
    assert_non_null(team);
    start_counting();
    unsigned char *again = tela_team_workspace(team, BIG / 2);
    stop_counting();
    assert_non_null(again);
    expect_no_allocations("a fresh pool's team asking for less workspace than the last one had", 2);
    memset(again, 2, BIG / 2);
    /* Larger than any spare: allocated (the smaller one given up). */
    start_counting();
    unsigned char *bigger = tela_team_workspace(team, (size_t)64 * BIG);
    stop_counting();
    assert_non_null(bigger);
    assert_int_equal(atomic_load(&alloc_calls), 1);
    bigger[(size_t)64 * BIG - 1] = 3;
    tela_team_release(team);
    tela_pool_destroy(pool);
#endif
}

static void test_regions_do_not_allocate(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    static const int widths[] = {2, 4, 8};
    int regions = tu_iters(200, 20);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        int width = widths[i];
        tela_pool *pool = tu_pool_of_width(width);
        assert_non_null(pool);

        /* A team per call (tela_par_pool): the body never allocates. */
        run_measured(tela_par_pool(pool), width, NULL, false, -1);
        for (int k = 0; k < regions; k++) {
            assert_int_equal(run_measured(tela_par_pool(pool), width, NULL, true, -1), width);
            expect_no_allocations("region body on tela_par_pool", width);
        }

        /* A held team: the body, and also the whole call (wake, barriers,
         * join) as seen from the caller. */
        tela_team *team = tela_team_acquire(pool, width);
        assert_non_null(team);
        run_measured(tela_par_team(team), width, team, false, -1);
        for (int k = 0; k < regions; k++) {
            assert_int_equal(run_measured(tela_par_team(team), width, team, true, -1), width);
            expect_no_allocations("region body on a held team", width);

            start_counting();
            int used = run_measured(tela_par_team(team), width, team, false, -1);
            stop_counting();
            assert_int_equal(used, width);
            expect_no_allocations("tela_parallel on a held team", width);
        }
        /* Sub-teams of the held team as well. */
        for (int w = 1; w < width; w++) {
            run_measured(tela_par_team(team), w, team, false, -1);
            start_counting();
            int used = run_measured(tela_par_team(team), w, team, false, -1);
            stop_counting();
            assert_int_equal(used, w);
            expect_no_allocations("tela_parallel on a sub-team", w);
        }
        TU_ASSERT_NO_FAILURES();
        assert_int_equal(tela_team_release(team), TELA_OK);
        tela_pool_destroy(pool);
    }
#endif
}

/* After a pause the workers sleep; waking them must not allocate either. */
static void test_wake_after_sleep_does_not_allocate(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 4);
    assert_non_null(team);
    run_measured(tela_par_team(team), 4, team, false, -1);
    for (int k = 0; k < 3; k++) {
        tu_sleep_ms(50);
        start_counting();
        int used = run_measured(tela_par_team(team), 4, team, false, -1);
        stop_counting();
        assert_int_equal(used, 4);
        expect_no_allocations("tela_parallel on a held team after 50 ms idle", 4);
    }
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(tela_team_release(team), TELA_OK);
    tela_pool_destroy(pool);
#endif
}

/* Kernels: a GEMM on a held team after its first call, a serial GEMM after
 * the thread's first, and serial GEMMs called from inside a region body
 * (each member its own) allocate nothing. */
#if !TU_SANITIZED
#define NESTED_N 96
struct nested_gemm {
    const double *a, *b;
    double c[TU_MAX_WIDTH][NESTED_N * NESTED_N];
    int info[TU_MAX_WIDTH];
};

static void nested_gemm_body(tela_member *self, void *arg)
{
    struct nested_gemm *job = arg;
    int r = tela_rank(self);
    job->info[r] = tela_dgemm(tela_par_seq(), 'N', 'T', NESTED_N, NESTED_N, NESTED_N, 1.0, job->a,
                              NESTED_N, job->b, NESTED_N, 0.0, job->c[r], NESTED_N);
}
#endif

static void test_kernels_do_not_allocate(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    enum { N = 300 };
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    double *c = malloc(sizeof(double) * N * N);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    for (int i = 0; i < N * N; i++) {
        a[i] = (double)(i % 17) - 8;
        b[i] = (double)(i % 13) - 6;
    }
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            start_counting();
        assert_int_equal(
            tela_dgemm(tela_par_team(team), 'N', 'N', N, N, N, 1.0, a, N, b, N, 0.0, c, N), 0);
        assert_int_equal(tela_dgemm(tela_par_seq(), 'T', 'N', N, N, N, 1.0, a, N, b, N, 1.0, c, N),
                         0);
        if (pass)
            stop_counting();
    }
    expect_no_allocations("tela_dgemm on a held team and serially, after the first call", 2);

    struct nested_gemm *job = calloc(1, sizeof *job);
    assert_non_null(job);
    job->a = a;
    job->b = b;
    start_counting();
    assert_int_equal(tela_parallel(tela_par_team(team), 2, nested_gemm_body, job), 2);
    stop_counting();
    expect_no_allocations("serial tela_dgemm inside a region body", 2);
    /* And the nested results are right: the two members agree with a
     * serial call made outside (exact here: small integers). */
    double *want = malloc(sizeof(double) * NESTED_N * NESTED_N);
    assert_non_null(want);
    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'T', NESTED_N, NESTED_N, NESTED_N, 1.0, a,
                                NESTED_N, b, NESTED_N, 0.0, want, NESTED_N),
                     0);
    for (int r = 0; r < 2; r++) {
        assert_int_equal(job->info[r], 0);
        assert_memory_equal(job->c[r], want, sizeof(double) * NESTED_N * NESTED_N);
    }
    free(want);
    free(job);
    assert_int_equal(tela_team_release(team), TELA_OK);
    tela_pool_destroy(pool);
    free(a);
    free(b);
    free(c);
#endif
}

/* The Fortran-ABI LAPACK symbols called from inside a region body with more pivots than they
 * convert on the stack (256): there they take their paths without a pivot buffer, and neither
 * they nor the kernels under them allocate. */
#if !TU_SANITIZED
#define NESTED_LU_N 300
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info);
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);
void dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2, const int *ipiv,
             const int *incx);

struct nested_lapack {
    const double *a0;
    double a[2][NESTED_LU_N * NESTED_LU_N], b[2][NESTED_LU_N * 3];
    int ipiv[2][NESTED_LU_N];
    int info[2][3];
};

static void nested_lapack_body(tela_member *self, void *arg)
{
    struct nested_lapack *job = arg;
    const int r = tela_rank(self), n = NESTED_LU_N, nrhs = 3, one = 1;
    double *a = job->a[r], *b = job->b[r];
    memcpy(a, job->a0, sizeof job->a[r]);
    dgetrf_(&n, &n, a, &n, job->ipiv[r], &job->info[r][0]);
    dgetrs_("T", &n, &nrhs, a, &n, job->ipiv[r], b, &n, &job->info[r][1]);
    dlaswp_(&nrhs, b, &n, &one, &n, job->ipiv[r], &one);
    memcpy(a, job->a0, sizeof job->a[r]);
    dgesv_(&n, &nrhs, a, &n, job->ipiv[r], b, &n, &job->info[r][2]);
}
#endif

static void test_lapack_dropins_do_not_allocate_in_a_region(void **state)
{
    (void)state;
    SKIP_IF_SANITIZED();
#if !TU_SANITIZED
    struct nested_lapack *job = calloc(1, sizeof *job);
    double *a0 = malloc(sizeof(double) * NESTED_LU_N * NESTED_LU_N);
    assert_non_null(job);
    assert_non_null(a0);
    for (int i = 0; i < NESTED_LU_N * NESTED_LU_N; i++)
        a0[i] = (double)((i * 7919) % 101) - 50 + (i % (NESTED_LU_N + 1) == 0 ? 400 : 0);
    job->a0 = a0;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    for (int pass = 0; pass < 2; pass++) {
        if (pass)
            start_counting();
        assert_int_equal(tela_parallel(tela_par_team(team), 2, nested_lapack_body, job), 2);
        if (pass)
            stop_counting();
    }
    expect_no_allocations("dgetrf_, dgetrs_, dlaswp_ and dgesv_ inside a region body", 2);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++)
            assert_int_equal(job->info[r][k], 0);
    assert_int_equal(tela_team_release(team), TELA_OK);
    tela_pool_destroy(pool);
    free(a0);
    free(job);
#endif
}

/* Whether tela reports the workspace request made inside a region or not, a
 * line on stderr per region would drown the output; this handler is silent
 * and does not allocate. */
static void quiet_handler(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
}

int main(void)
{
    tela_set_error_handler(quiet_handler, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interposer_counts_allocations),
        cmocka_unit_test(test_fresh_pool_finds_the_last_workspace),
        cmocka_unit_test(test_regions_do_not_allocate),
        cmocka_unit_test(test_wake_after_sleep_does_not_allocate),
        cmocka_unit_test(test_kernels_do_not_allocate),
        cmocka_unit_test(test_lapack_dropins_do_not_allocate_in_a_region),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
