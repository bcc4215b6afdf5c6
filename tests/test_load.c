/* test_load — the machine's load narrows gated regions (src/par/load.c):
 * the rule's arithmetic, then load this process makes itself, more busy
 * threads than CPUs: the reading counts them, gated regions run on the
 * caller alone, tela_parallel's fixed width does not change, and an idle
 * worker stops spinning. Nothing asserted depends on what else the machine
 * runs: others' threads only add to ours. Run alone (RUN_SERIAL: it fills
 * every CPU); with --disabled (TELA_LOAD_AWARE=0) the same load narrows
 * nothing and the worker spins. */
#define _GNU_SOURCE
#include "testutil.h"

#include "par/par.h"

#ifndef TELA_FIXTURE_DIR
#error "TELA_FIXTURE_DIR must name tests/fixtures"
#endif
#define FREE_DISPATCH TELA_FIXTURE_DIR "/free-dispatch.costs"

static bool disabled;

/* ---- load this process makes itself ------------------------------------------
 * Busy threads, each pinned to one CPU of the caller's allowed set in turn:
 * a pinned thread never sits between two run queues (the load balancer's
 * moves), where /proc/loadavg's count would miss it. They are the only
 * load these tests rely on: others' threads can only add to it, so every
 * assertion below holds however busy the machine is. */

typedef struct busy_set {
    pthread_t *threads;
    int count; /* started */
    _Atomic int stop;
} busy_set;

/* At most one set at a time. The busy threads spin until stop: each test
 * using them stops them, and its teardown does if it failed first. */
static busy_set busy;

static void *busy_main(void *arg)
{
    const int cpu = (int)(intptr_t)arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    /* Unpinned it still loads the machine; the margin in busy_start covers
     * a count taken while it moves. */
    (void)sched_setaffinity(0, sizeof one, &one);
    volatile unsigned long sink = 0;
    /* relaxed: stop orders nothing, it only ends the loop. */
    while (!atomic_load_explicit(&busy.stop, memory_order_relaxed))
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i;
    return NULL;
}

/* Online CPUs and two busy threads, spread over the calling thread's
 * allowed CPUs. par_load_width narrows to the caller alone once the others
 * it counts reach the online CPUs: that count is the readings less the
 * caller and this process's awake workers, and an awake worker may be
 * missing from a reading (moving between run queues) while counted awake,
 * so online + 1 threads of ours always narrow; one more is the margin.
 * par_machine_oversubscribed needs more than online + 1 runnable: these
 * alone are. */
static void busy_start(void)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    assert_true(online >= 1);
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    const int count = (int)online + 2;
    busy.threads = calloc((size_t)count, sizeof *busy.threads);
    assert_non_null(busy.threads);
    atomic_store(&busy.stop, 0);
    int cpu = -1;
    for (int i = 0; i < count; i++) {
        do
            cpu = (cpu + 1) % CPU_SETSIZE;
        while (!CPU_ISSET(cpu, &allowed));
        /* NOLINTNEXTLINE(performance-no-int-to-ptr): the CPU's number is the thread's argument */
        const int rc = pthread_create(&busy.threads[i], NULL, busy_main, (void *)(intptr_t)cpu);
        if (rc != 0)
            fail_msg("busy thread %d of %d: pthread_create: %s", i + 1, count, strerror(rc));
        busy.count = i + 1;
    }
}

static void busy_stop_all(void)
{
    atomic_store(&busy.stop, 1);
    for (int i = 0; i < busy.count; i++)
        pthread_join(busy.threads[i], NULL);
    free(busy.threads);
    busy.threads = NULL;
    busy.count = 0;
}

static int busy_teardown(void **state)
{
    (void)state;
    busy_stop_all();
    return 0;
}

/* The reading counts every busy thread and the caller (it runs while it
 * reads); others only add. */
static bool reading_counts_ours(void *arg)
{
    (void)arg;
    return par_runnable_threads() >= busy.count + 1;
}

/* Waits, bounded, until a reading sees the busy threads: a thread just
 * created counts from its first enqueue, but one reading may still miss a
 * thread in flight. Fails with the last reading. */
static void expect_reading_counts_ours(void)
{
    if (!tu_wait_until(reading_counts_ours, NULL, 2000))
        fail_msg("/proc/loadavg counted %d runnable threads for 2 s; this process alone keeps "
                 "%d busy and runs one more",
                 par_runnable_threads(), busy.count);
}

static void count_body(tela_member *self, void *arg)
{
    (void)self;
    atomic_fetch_add((_Atomic int *)arg, 1);
}

/* Width of one gated region of a 100 us estimate: far above what the
 * free-dispatch table charges, so the gate alone would take every member. */
static int gated_width(tela_par par)
{
    _Atomic int ran = 0;
    const int w = tela_parallel_gated(par, "test_load", 1.0e5, 1, count_body, &ran);
    assert_int_equal(atomic_load(&ran), w);
    return w;
}

static void test_rule(void **state)
{
    (void)state;
    /* Nobody else, or one passer-by: the width stands, even above the
     * CPUs (our own team never counts against itself). */
    assert_int_equal(par_load_width_for(8, 0, 2), 8);
    assert_int_equal(par_load_width_for(8, -1, 2), 8);
    assert_int_equal(par_load_width_for(2, 1, 2), 2);
    /* Every CPU taken: the caller alone. */
    assert_int_equal(par_load_width_for(2, 2, 2), 1);
    assert_int_equal(par_load_width_for(2, 5, 2), 1);
    assert_int_equal(par_load_width_for(64, 70, 64), 1);
    /* Wide machines: the CPUs left and the one shared, never more than
     * asked. */
    assert_int_equal(par_load_width_for(64, 2, 64), 63);
    assert_int_equal(par_load_width_for(64, 10, 64), 55);
    assert_int_equal(par_load_width_for(16, 10, 64), 16);
    assert_int_equal(par_load_width_for(1, 10, 64), 1);
}

/* The reading the gate and the spin use counts what this process runs. */
static void test_reading_counts_our_busy_threads(void **state)
{
    (void)state;
#if !defined(__linux__)
    tu_skip_env("no /proc/loadavg");
#endif
    busy_start();
    expect_reading_counts_ours();
    busy_stop_all();
}

static void test_busy_machine_narrows_gated_regions(void **state)
{
    (void)state;
#if !defined(__linux__)
    tu_skip_env("no /proc/loadavg");
#endif
    assert_int_equal(tela_costs_load(FREE_DISPATCH), TELA_OK);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par par = tela_par_team(team);

    busy_start();
    expect_reading_counts_ours();
    /* Readings stand 1 ms and a region narrows only when two see the load;
     * 2 ms apart each call takes a new one, so from the third call (the
     * second may pair with a reading from before) every one is narrowed. */
    enum { CALLS = 12 };
    int widths[CALLS];
    for (int i = 0; i < CALLS; i++) {
        widths[i] = gated_width(par);
        tu_sleep_ms(2);
    }
    /* A fixed width is the caller's to choose: the load does not touch it. */
    _Atomic int ran = 0;
    const int fixed = tela_parallel(par, 2, count_body, &ran);
    busy_stop_all();

    assert_int_equal(fixed, 2);
    assert_int_equal(atomic_load(&ran), 2);
    for (int i = 2; i < CALLS; i++)
        if (widths[i] != (disabled ? 2 : 1))
            fail_msg("gated region %d of %d ran at width %d under this process's own load (%s)",
                     i + 1, CALLS, widths[i],
                     disabled ? "TELA_LOAD_AWARE=0: 2 expected" : "1 expected");
    /* Back to width 2 once the load is gone is not asserted: that needs the
     * rest of the machine quiet, which this test does not control. */
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* A worker left idle spins 4 ms on a quiet machine; on a busy one it looks
 * at the load after 0.5 ms and sleeps. The caller and the worker on CPUs
 * of their own: a worker on its waker's CPU sleeps at once anyway. The busy
 * threads share the caller's CPU (busy_start spreads them over the calling
 * thread's allowed set, here that one CPU), so the worker's CPU is its own
 * and what it burns is its own choice. */
static void test_idle_worker_sleeps_on_busy_machine(void **state)
{
    (void)state;
    cpu_set_t saved;
    int worker_cpu;
    tela_pool *pool = tu_pool_pinned_pair(&saved, &worker_cpu);
    if (!pool && worker_cpu < 0)
        tu_skip_env("one CPU allowed: the worker would share the caller's");
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par par = tela_par_team(team);
    struct tu_members m;
    assert_int_equal(tu_collect_members(par, 2, &m), 2);
    TU_ASSERT_NO_FAILURES();
    clockid_t clock;
    assert_int_equal(pthread_getcpuclockid(m.self[1], &clock), 0);

    busy_start();
    expect_reading_counts_ours();
    enum { ROUNDS = 5 };
    double burned_ms[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        /* The worker's time from before the region: the caller shares its
         * CPU with the busy threads and may run again only after the
         * worker's whole spin, which a window opened once tela_parallel
         * returned would miss. The region itself costs the worker a wake
         * and an increment. */
        struct timespec t0, t1;
        clock_gettime(clock, &t0);
        _Atomic int ran = 0;
        assert_int_equal(tela_parallel(par, 2, count_body, &ran), 2);
        tu_sleep_ms(30);
        clock_gettime(clock, &t1);
        burned_ms[round] =
            (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    }
    busy_stop_all();
    /* The median: now and then the worker gets no CPU in time to spin. */
    for (int i = 0; i < ROUNDS; i++)
        for (int j = i + 1; j < ROUNDS; j++)
            if (burned_ms[j] < burned_ms[i]) {
                const double t = burned_ms[i];
                burned_ms[i] = burned_ms[j];
                burned_ms[j] = t;
            }
    const double median_ms = burned_ms[ROUNDS / 2];
    if (!disabled && median_ms > 2.0)
        fail_msg("an idle worker burned %.2f ms in 30 ms on a busy machine", median_ms);
    if (disabled && median_ms < 2.0)
        fail_msg("with TELA_LOAD_AWARE=0 an idle worker burned only %.2f ms: it did not spin",
                 median_ms);
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(sched_setaffinity(0, sizeof saved, &saved), 0);
}

int main(int argc, char **argv)
{
    disabled = argc > 1 && strcmp(argv[1], "--disabled") == 0;
    /* On unless --disabled: testutil.h turns it off for the other tests. */
    setenv("TELA_LOAD_AWARE", disabled ? "0" : "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test_teardown(test_reading_counts_our_busy_threads, busy_teardown),
        cmocka_unit_test_teardown(test_busy_machine_narrows_gated_regions, busy_teardown),
        cmocka_unit_test_teardown(test_idle_worker_sleeps_on_busy_machine, busy_teardown),
    };
    return tu_exit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
