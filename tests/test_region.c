/* test_region — parallel regions and barriers: correctness of sections at widths
 * 1 to 16 (oversubscribed on small machines), sub-teams that wake only their
 * members, the execution policies (seq, limit, pool, auto and the width settings),
 * nested regions, and the caller's floating-point environment on every member. */
#define _GNU_SOURCE
#include <fenv.h>
#include <float.h>

#include "testutil.h"

#if defined(__x86_64__) || defined(__i386__)
#include <pmmintrin.h>
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#else
#define HAVE_MXCSR 0
#endif

/* The process default width as the program started, and a teardown that
 * puts every per-thread setting back, so one failed test (cmocka leaves it
 * at the failing assertion) does not change the widths the next one sees. */
static int initial_num_threads;

static int restore_settings(void **state)
{
    (void)state;
    tela_set_num_threads_local(0);
    tela_set_num_threads(initial_num_threads);
    fesetround(FE_TONEAREST);
#if HAVE_MXCSR
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_OFF);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_OFF);
#endif
    tu_reset_failures();
    return 0;
}

static const int region_widths[] = {1, 2, 4, 8, 16};

/* Thousands of sections per width: a barrier that lets a member run ahead
 * must be caught, and that race only shows up with many tries. */
static void test_barrier_sections_at_each_width(void **state)
{
    (void)state;
    int regions = tu_iters(40, 4);
    int sections = tu_iters(250, 40);
    for (size_t i = 0; i < sizeof region_widths / sizeof region_widths[0]; i++) {
        int width = region_widths[i];
        tela_pool *pool = tu_pool_of_width(width);
        assert_non_null(pool);
        assert_int_equal(tela_pool_width(pool), width);
        for (int k = 0; k < regions; k++) {
            int used = tu_run_sections(tela_par_pool(pool), width, sections);
            assert_int_equal(used, width);
            TU_ASSERT_NO_FAILURES();
        }
        tela_pool_destroy(pool);
    }
}

/* width <= 0 asks for as wide as the policy allows. */
static void test_width_zero_means_policy_width(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    assert_int_equal(tu_run_sections(tela_par_pool(pool), 0, 10), 4);
    assert_int_equal(tu_run_sections(tela_par_pool(pool), -3, 10), 4);
    assert_int_equal(tu_run_sections(tela_par_pool(pool), 3, 10), 3);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

struct wake_count {
    atomic_int runs[TU_MAX_WIDTH];
};

static void count_and_barrier_body(tela_member *self, void *arg)
{
    struct wake_count *c = arg;
    int rank = tela_rank(self);
    TU_CHECK(rank >= 0 && rank < TU_MAX_WIDTH);
    if (rank < 0 || rank >= TU_MAX_WIDTH)
        return;
    atomic_fetch_add(&c->runs[rank], 1);
    /* A sub-team barrier that waited for the whole team would hang here. */
    tela_barrier(self);
    tela_barrier(self);
}

/* On a held team of 8, a region of width w runs ranks 0..w-1 and wakes
 * exactly w-1 workers: the others stay asleep. */
static void test_subteam_runs_and_wakes_only_its_members(void **state)
{
    (void)state;
    const int team_width = 8;
    int regions = tu_iters(200, 30);
    tela_pool *pool = tu_pool_of_width(team_width);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, team_width);
    assert_non_null(team);
    assert_int_equal(tela_team_width(team), team_width);
    for (int w = 1; w <= team_width; w++) {
        struct wake_count c;
        memset(&c, 0, sizeof c);
        tela_stats before = tu_stats();
        for (int k = 0; k < regions; k++)
            assert_int_equal(tela_parallel(tela_par_team(team), w, count_and_barrier_body, &c), w);
        tela_stats after = tu_stats();
        TU_ASSERT_NO_FAILURES();
        for (int r = 0; r < TU_MAX_WIDTH; r++)
            assert_int_equal(atomic_load(&c.runs[r]), r < w ? regions : 0);
        assert_int_equal(after.region_wakeups - before.region_wakeups, (long)regions * (w - 1));
        /* Sections still check out on the same sub-team. */
        assert_int_equal(tu_run_sections(tela_par_team(team), w, 20), w);
        TU_ASSERT_NO_FAILURES();
    }
    assert_int_equal(tela_team_release(team), TELA_OK);
    tela_pool_destroy(pool);
}

/* The caller is member 0: same pthread in rank 0, under every policy. */
static void test_caller_is_member_zero(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_pool(pool), 4, &m), 4);
    assert_true(pthread_equal(m.self[0], pthread_self()));
    assert_int_equal(m.tid[0], tu_gettid());
    for (int r = 1; r < 4; r++) {
        assert_false(pthread_equal(m.self[r], pthread_self()));
        assert_int_not_equal(m.tid[r], tu_gettid());
    }
    pid_t workers[3];
    assert_int_equal(tu_worker_tids(&m, 4, workers), 3);
    assert_true(tu_tids_distinct(workers, 3));
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

static void test_par_seq_runs_on_caller_alone(void **state)
{
    (void)state;
    tela_par seq = tela_par_seq();
    assert_int_equal(seq.kind, TELA_PAR_SEQ);
    struct tu_members m;
    assert_int_equal(tu_collect_members(seq, 4, &m), 1);
    assert_true(pthread_equal(m.self[0], pthread_self()));
    assert_int_equal(tu_collect_members(seq, 0, &m), 1);
    assert_int_equal(tu_run_sections(seq, 8, 50), 1);
    TU_ASSERT_NO_FAILURES();
}

static void test_par_limit_caps_width(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(8);
    assert_non_null(pool);
    tela_par limited = tela_par_limit(tela_par_pool(pool), 3);
    assert_int_equal(limited.max_width, 3);
    assert_int_equal(tu_run_sections(limited, 0, 20), 3);
    assert_int_equal(tu_run_sections(limited, 8, 20), 3);
    assert_int_equal(tu_run_sections(limited, 2, 20), 2);
    assert_int_equal(tu_run_sections(tela_par_limit(tela_par_pool(pool), 1), 8, 20), 1);

    tela_team *team = tela_team_acquire(pool, 8);
    assert_non_null(team);
    assert_int_equal(tu_run_sections(tela_par_limit(tela_par_team(team), 5), 0, 20), 5);
    assert_int_equal(tu_run_sections(tela_par_team(team), 0, 20), 8);
    assert_int_equal(tela_team_release(team), TELA_OK);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

/* tela_par_pool leases a team for the call and gives it back: a team of the
 * full width can be acquired after it; while such a team is held, a call
 * through the pool runs narrower (here: on the caller alone). */
static void test_par_pool_leases_per_call(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    tela_par par = tela_par_pool(pool);
    assert_int_equal(par.kind, TELA_PAR_POOL);
    assert_ptr_equal(par.pool, pool);
    for (int k = 0; k < 10; k++)
        assert_int_equal(tu_run_sections(par, 4, 10), 4);

    tela_team *team = tela_team_acquire(pool, 4);
    assert_non_null(team);
    assert_int_equal(tela_team_width(team), 4);
    struct tu_members m;
    assert_int_equal(tu_collect_members(par, 4, &m), 1);
    assert_true(pthread_equal(m.self[0], pthread_self()));
    assert_int_equal(tela_team_release(team), TELA_OK);

    assert_int_equal(tu_run_sections(par, 4, 10), 4);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

static void test_par_auto_follows_num_threads(void **state)
{
    (void)state;
    int original = tela_get_num_threads();
    assert_true(original >= 1);
    tela_par par = tela_par_auto();
    assert_int_equal(par.kind, TELA_PAR_AUTO);

    tela_set_num_threads(3);
    assert_int_equal(tela_get_num_threads(), 3);
    assert_int_equal(tu_run_sections(par, 0, 20), 3);
    assert_int_equal(tu_run_sections(par, 2, 20), 2);

    /* Oversubscribed on a 2-core machine: the user asked for it. */
    tela_set_num_threads(4);
    assert_int_equal(tu_run_sections(par, 0, 20), 4);

    /* The thread-local setting overrides the process one for this thread. */
    assert_int_equal(tela_set_num_threads_local(2), 0);
    assert_int_equal(tela_get_num_threads(), 2);
    assert_int_equal(tu_run_sections(par, 0, 20), 2);
    assert_int_equal(tela_set_num_threads_local(3), 2);
    assert_int_equal(tu_run_sections(par, 0, 20), 3);
    assert_int_equal(tela_set_num_threads_local(-1), -1); /* ignored */
    assert_int_equal(tela_get_num_threads(), 3);
    assert_int_equal(tela_set_num_threads_local(0), 3); /* back to the process default */
    assert_int_equal(tela_get_num_threads(), 4);
    assert_int_equal(tu_run_sections(par, 0, 20), 4);
    assert_int_equal(tela_set_num_threads_local(0), 0);

    tela_set_num_threads(1);
    assert_int_equal(tu_run_sections(par, 0, 20), 1);
    assert_int_equal(tu_run_sections(tela_par_limit(par, 2), 0, 20), 1);
    tela_set_num_threads(4);
    assert_int_equal(tu_run_sections(tela_par_limit(par, 2), 0, 20), 2);

    tela_set_num_threads(original);
    assert_int_equal(tela_get_num_threads(), original);
    TU_ASSERT_NO_FAILURES();
}

/* The process default (tela_set_num_threads) is the width of tela_par_auto
 * only: a pool or team the caller names runs at its own width. The
 * thread-local setting is this thread's limit on every route. */
static void test_num_threads_settings_and_explicit_pools(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    tela_set_num_threads(2);
    int on_pool_default_2 = tu_run_sections(tela_par_pool(pool), 4, 10);
    tela_team *team = tela_team_acquire(pool, 4);
    assert_non_null(team);
    int on_team_default_2 = tu_run_sections(tela_par_team(team), 0, 10);

    int previous_local = tela_set_num_threads_local(1);
    int on_auto_local_1 = tu_run_sections(tela_par_auto(), 0, 10);
    int on_team_local_1 = tu_run_sections(tela_par_team(team), 0, 10);
    int local_back = tela_set_num_threads_local(3);
    int on_team_local_3 = tu_run_sections(tela_par_team(team), 0, 10);
    assert_int_equal(tela_team_release(team), TELA_OK);
    int on_pool_local_3 = tu_run_sections(tela_par_pool(pool), 4, 10);
    tela_set_num_threads_local(0);
    int on_pool_reset = tu_run_sections(tela_par_pool(pool), 0, 10);
    tela_pool_destroy(pool);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(on_pool_default_2, 4);
    assert_int_equal(on_team_default_2, 4);
    assert_int_equal(previous_local, 0);
    assert_int_equal(local_back, 1);
    assert_int_equal(on_auto_local_1, 1);
    assert_int_equal(on_team_local_1, 1);
    assert_int_equal(on_team_local_3, 3);
    assert_int_equal(on_pool_local_3, 3);
    assert_int_equal(on_pool_reset, 4);
}

struct nested_ctx {
    atomic_int outer_runs;
    atomic_int inner_runs;
};

struct nested_inner {
    struct nested_ctx *ctx;
    pthread_t outer_thread;
};

static void nested_inner_body(tela_member *self, void *arg)
{
    struct nested_inner *in = arg;
    TU_CHECK(tela_rank(self) == 0);
    TU_CHECK(tela_width(self) == 1);
    TU_CHECK(pthread_equal(pthread_self(), in->outer_thread));
    tela_barrier(self); /* a barrier of one returns at once */
    atomic_fetch_add(&in->ctx->inner_runs, 1);
}

static void nested_outer_body(tela_member *self, void *arg)
{
    struct nested_ctx *ctx = arg;
    atomic_fetch_add(&ctx->outer_runs, 1);
    struct nested_inner in = {ctx, pthread_self()};
    /* Under auto, a region inside a region runs on the member alone. */
    TU_CHECK(tela_parallel(tela_par_auto(), 0, nested_inner_body, &in) == 1);
    TU_CHECK(tela_parallel(tela_par_auto(), 4, nested_inner_body, &in) == 1);
    tela_barrier(self);
}

static void test_nested_region_under_auto_runs_serially(void **state)
{
    (void)state;
    int original = tela_get_num_threads();
    tela_set_num_threads(4);
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);

    struct nested_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 4, nested_outer_body, &ctx), 4);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(atomic_load(&ctx.outer_runs), 4);
    assert_int_equal(atomic_load(&ctx.inner_runs), 8);

    /* Same from a region on the default pool itself. */
    memset(&ctx, 0, sizeof ctx);
    assert_int_equal(tela_parallel(tela_par_auto(), 4, nested_outer_body, &ctx), 4);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(atomic_load(&ctx.outer_runs), 4);
    assert_int_equal(atomic_load(&ctx.inner_runs), 8);

    /* And the default pool still runs wide after the nested calls. */
    assert_int_equal(tu_run_sections(tela_par_auto(), 0, 20), 4);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
    tela_set_num_threads(original);
}

/* ---- floating-point environment ---------------------------------------------- */
struct fpenv_seen {
    int rounding[TU_MAX_WIDTH];
    int flush_zero[TU_MAX_WIDTH];
    int denormals_zero[TU_MAX_WIDTH];
    double third[TU_MAX_WIDTH];    /* 1/3 rounded in the member's mode */
    double half_min[TU_MAX_WIDTH]; /* DBL_MIN/2: zero under flush-to-zero */
};

__attribute__((noinline)) static double divide(double a, double b)
{
    volatile double x = a, y = b; /* keep the compiler from folding it */
    return x / y;
}

static void fpenv_body(tela_member *self, void *arg)
{
    struct fpenv_seen *seen = arg;
    int rank = tela_rank(self);
    seen->rounding[rank] = fegetround();
#if HAVE_MXCSR
    seen->flush_zero[rank] = (int)_MM_GET_FLUSH_ZERO_MODE();
    seen->denormals_zero[rank] = (int)_MM_GET_DENORMALS_ZERO_MODE();
#endif
    seen->third[rank] = divide(1.0, 3.0);
    seen->half_min[rank] = divide(DBL_MIN, 2.0);
    tela_barrier(self);
}

/* Runs the probe at width 4 and compares every member with the caller. */
static void expect_members_share_fpenv(tela_pool *pool, int rounding)
{
    struct fpenv_seen seen;
    memset(&seen, 0, sizeof seen);
    double third = divide(1.0, 3.0);
    double half_min = divide(DBL_MIN, 2.0);
#if HAVE_MXCSR
    int ftz = (int)_MM_GET_FLUSH_ZERO_MODE();
    int daz = (int)_MM_GET_DENORMALS_ZERO_MODE();
#endif
    int used = tela_parallel(tela_par_pool(pool), 4, fpenv_body, &seen);
    /* Put the default environment back before any assertion can leave. */
    fesetround(FE_TONEAREST);
#if HAVE_MXCSR
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_OFF);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_OFF);
#endif
    assert_int_equal(used, 4);
    for (int r = 0; r < used; r++) {
        assert_int_equal(seen.rounding[r], rounding);
        assert_memory_equal(&seen.third[r], &third, sizeof third);
        assert_memory_equal(&seen.half_min[r], &half_min, sizeof half_min);
#if HAVE_MXCSR
        assert_int_equal(seen.flush_zero[r], ftz);
        assert_int_equal(seen.denormals_zero[r], daz);
#endif
    }
}

static void test_members_run_with_callers_fpenv(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    /* Workers first run in the default environment... */
    expect_members_share_fpenv(pool, FE_TONEAREST);

    /* ...then take the caller's rounding mode and flush/denormal bits... */
    assert_int_equal(fesetround(FE_UPWARD), 0);
#if HAVE_MXCSR
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#endif
    expect_members_share_fpenv(pool, FE_UPWARD);

    assert_int_equal(fesetround(FE_DOWNWARD), 0);
    expect_members_share_fpenv(pool, FE_DOWNWARD);

    /* ...and do not keep it once the caller went back to the default. */
    expect_members_share_fpenv(pool, FE_TONEAREST);
    tela_pool_destroy(pool);
}

/* ---- team workspace ------------------------------------------------------------ */
struct workspace_probe {
    tela_team *team;
    atomic_int non_null_inside;
};

static void workspace_body(tela_member *self, void *arg)
{
    struct workspace_probe *p = arg;
    (void)self;
    if (tela_team_workspace(p->team, 64) != NULL)
        atomic_fetch_add(&p->non_null_inside, 1);
}

static void test_team_workspace_outside_regions_only(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    unsigned char *ws = tela_team_workspace(team, 1000);
    assert_non_null(ws);
    assert_int_equal((uintptr_t)ws % 64, 0);
    memset(ws, 0xab, 1000);
    unsigned char *bigger = tela_team_workspace(team, 100000);
    assert_non_null(bigger);
    assert_int_equal((uintptr_t)bigger % 64, 0);
    memset(bigger, 0xcd, 100000);

    /* Asking from inside a region returns NULL (and must not allocate). */
    struct workspace_probe probe = {team, 0};
    assert_int_equal(tela_parallel(tela_par_team(team), 2, workspace_body, &probe), 2);
    assert_int_equal(atomic_load(&probe.non_null_inside), 0);
    assert_int_equal(tela_team_release(team), TELA_OK);
    tela_pool_destroy(pool);
}

int main(void)
{
    initial_num_threads = tela_get_num_threads();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_barrier_sections_at_each_width, restore_settings),
        cmocka_unit_test_teardown(test_width_zero_means_policy_width, restore_settings),
        cmocka_unit_test_teardown(test_subteam_runs_and_wakes_only_its_members, restore_settings),
        cmocka_unit_test_teardown(test_caller_is_member_zero, restore_settings),
        cmocka_unit_test_teardown(test_par_seq_runs_on_caller_alone, restore_settings),
        cmocka_unit_test_teardown(test_par_limit_caps_width, restore_settings),
        cmocka_unit_test_teardown(test_par_pool_leases_per_call, restore_settings),
        cmocka_unit_test_teardown(test_par_auto_follows_num_threads, restore_settings),
        cmocka_unit_test_teardown(test_num_threads_settings_and_explicit_pools, restore_settings),
        cmocka_unit_test_teardown(test_nested_region_under_auto_runs_serially, restore_settings),
        cmocka_unit_test_teardown(test_members_run_with_callers_fpenv, restore_settings),
        cmocka_unit_test_teardown(test_team_workspace_outside_regions_only, restore_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
