/* test_idle — idle workers sleep instead of spinning: shortly after a region,
 * a worker's CPU clock must stand still, on a live pool and in the reserve.
 * Registered twice: with TELA_SPIN_POLLS unset and with TELA_SPIN_POLLS=0
 * (argument --expect-nospin), where every wait goes straight to sleep. */
#define _GNU_SOURCE
#include "testutil.h"

/* Time after the last region before measuring, and the measured span. */
#define SETTLE_MS 100
#define SPAN_MS   200
/* A spinning worker would burn about SPAN_MS; a sleeping one nothing. */
#define MAX_IDLE_CPU_NS (5 * 1000000LL)

static int64_t cpu_ns_of_clock(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return -1;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The kernel's per-thread CPU clock of a thread of this process by id (what
 * pthread_getcpuclockid builds from the pthread's tid). */
static clockid_t cpu_clock_of_tid(pid_t tid)
{
    return (clockid_t)(((~(unsigned)tid) << 3) | 6u); /* per-thread, sched clock */
}

/* Measures windows of SPAN_MS until no worker's clock moved by more than
 * MAX_IDLE_CPU_NS in one, at most 3: a worker whose bounded spin was delayed
 * by a loaded machine finishes it in the first window, one that spins or
 * polls for good fails all three. A clock that cannot be read (its thread
 * exited) counts as still only if allow_gone. */
static void expect_clocks_still(const clockid_t *clocks, int n, bool allow_gone, const char *what)
{
    for (int window = 1;; window++) {
        int64_t before[TU_MAX_WIDTH], after[TU_MAX_WIDTH];
        for (int i = 0; i < n; i++)
            before[i] = cpu_ns_of_clock(clocks[i]);
        tu_sleep_ms(SPAN_MS);
        for (int i = 0; i < n; i++)
            after[i] = cpu_ns_of_clock(clocks[i]);
        int busy = -1;
        for (int i = 0; i < n; i++) {
            if (before[i] < 0 || after[i] < 0) {
                if (!allow_gone)
                    fail_msg("%s: the CPU clock of worker %d cannot be read", what, i + 1);
                continue;
            }
            if (after[i] - before[i] > MAX_IDLE_CPU_NS)
                busy = i;
        }
        if (busy < 0)
            return;
        if (window == 3)
            fail_msg("%s: worker %d used %.1f ms of CPU in %d ms of idleness (window %d)", what,
                     busy + 1, (double)(after[busy] - before[busy]) / 1e6, SPAN_MS, window);
    }
}

/* Busy first (many sections, so the workers are in their wait loops), then
 * idle: each worker's own CPU clock must stand still. */
static void expect_pool_workers_sleep(int width)
{
    tela_pool *pool = tu_pool_of_width(width);
    assert_non_null(pool);
    for (int k = 0; k < 20; k++)
        assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 20), width);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_pool(pool), width, &m), width);
    TU_ASSERT_NO_FAILURES();

    tu_sleep_ms(SETTLE_MS);
    clockid_t clocks[TU_MAX_WIDTH];
    for (int r = 1; r < width; r++)
        assert_int_equal(pthread_getcpuclockid(m.self[r], &clocks[r - 1]), 0);
    expect_clocks_still(clocks, width - 1, false, "live pool");

    /* They still wake for the next region. */
    assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 20), width);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

static void test_live_pool_workers_sleep_width_2(void **state)
{
    (void)state;
    expect_pool_workers_sleep(2);
}

static void test_live_pool_workers_sleep_width_4(void **state)
{
    (void)state;
    expect_pool_workers_sleep(4);
}

/* Workers given back to the reserve by a destroyed pool sleep too. */
static void test_reserve_workers_sleep(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    for (int k = 0; k < 20; k++)
        assert_int_equal(tu_run_sections(tela_par_pool(pool), 4, 20), 4);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_pool(pool), 4, &m), 4);
    TU_ASSERT_NO_FAILURES();
    pid_t tids[TU_MAX_WIDTH];
    int n = tu_worker_tids(&m, 4, tids);
    tela_pool_destroy(pool);

    tu_sleep_ms(SETTLE_MS);
    clockid_t clocks[TU_MAX_WIDTH];
    int alive = 0;
    for (int i = 0; i < n; i++) {
        clocks[i] = cpu_clock_of_tid(tids[i]);
        alive += cpu_ns_of_clock(clocks[i]) >= 0;
    }
    /* The reserve keeps as many as the widest pool so far needs: all here. */
    assert_int_equal(alive, n);
    expect_clocks_still(clocks, n, true, "reserve");
}

/* Regions with barriers at several widths, each after a pause long enough
 * for the workers to be asleep: the wake-up path, and in the no-spin run the
 * pure sleep/wake protocol. */
static void test_regions_work_after_sleeping(void **state)
{
    (void)state;
    static const int widths[] = {2, 4, 8};
    int rounds = tu_iters(100, 20);
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        int width = widths[i];
        tela_pool *pool = tu_pool_of_width(width);
        assert_non_null(pool);
        for (int k = 0; k < rounds; k++)
            assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 20), width);
        for (int k = 0; k < 5; k++) {
            tu_sleep_ms(20);
            assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 20), width);
        }
        TU_ASSERT_NO_FAILURES();
        tela_pool_destroy(pool);
    }
}

/* tela_team_prewake wakes a sleeping member without a region: with a spin
 * budget it then spins (its CPU clock runs for milliseconds), without one it
 * sleeps again; either way the next region runs normally. The caller and
 * its one worker run on two different CPUs: a worker woken onto its
 * caller's CPU (the kernel may do that) sleeps again at once by design,
 * which is not what is tested here. */
static void test_prewake_wakes_sleepers(void **state)
{
    (void)state;
    const char *polls = getenv("TELA_SPIN_POLLS");
    bool spins = !(polls && strcmp(polls, "0") == 0);
    cpu_set_t saved;
    int worker_cpu;
    tela_pool *pool = tu_pool_pinned_pair(&saved, &worker_cpu);
    if (!pool && worker_cpu < 0)
        skip(); /* one CPU: the worker would share the caller's */
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    assert_int_equal(tela_team_width(team), 2);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_team(team), 2, &m), 2);
    TU_ASSERT_NO_FAILURES();
    clockid_t clock;
    assert_int_equal(pthread_getcpuclockid(m.self[1], &clock), 0);

    tu_sleep_ms(SETTLE_MS);
    expect_clocks_still(&clock, 1, false, "before the pre-wake");
    int64_t before = cpu_ns_of_clock(clock);
    assert_int_equal(tela_team_prewake(team, 2), 1); /* it was asleep */
    tu_sleep_ms(50);
    int64_t used = cpu_ns_of_clock(clock) - before;
    if (spins && used < 500000)
        fail_msg("a pre-woken worker used only %.3f ms of CPU: it did not spin", used / 1e6);
    if (!spins && used > MAX_IDLE_CPU_NS)
        fail_msg("with TELA_SPIN_POLLS=0 a pre-woken worker used %.3f ms of CPU", used / 1e6);
    expect_clocks_still(&clock, 1, false, "after the pre-wake's spin");

    assert_int_equal(tu_run_sections(tela_par_team(team), 2, 20), 2);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(tela_team_prewake(team, 1), 0); /* width 1: nobody to wake */
    assert_int_equal(tela_team_prewake(NULL, 2), TELA_EINVAL);
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(sched_setaffinity(0, sizeof saved, &saved), 0);
}

int main(int argc, char **argv)
{
    /* The no-spin registration must really run without spinning: refuse to
     * pass if the environment did not reach us. */
    if (argc > 1 && strcmp(argv[1], "--expect-nospin") == 0) {
        const char *polls = getenv("TELA_SPIN_POLLS");
        if (!polls || strcmp(polls, "0") != 0) {
            fprintf(stderr, "test_idle: --expect-nospin but TELA_SPIN_POLLS is %s\n",
                    polls ? polls : "unset");
            return 1;
        }
        printf("TELA_SPIN_POLLS=0: workers never spin\n");
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_live_pool_workers_sleep_width_2),
        cmocka_unit_test(test_live_pool_workers_sleep_width_4),
        cmocka_unit_test(test_reserve_workers_sleep),
        cmocka_unit_test(test_regions_work_after_sleeping),
        cmocka_unit_test(test_prewake_wakes_sleepers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
