/* test_load — the machine's load narrows gated regions (src/par/load.c):
 * the rule's arithmetic, then real busy threads taking every CPU: gated
 * regions run on the caller alone, tela_parallel's fixed width does not
 * change, and an idle worker stops spinning. Run alone (RUN_SERIAL); with
 * --disabled (TELA_LOAD_AWARE=0) the same load narrows nothing and the
 * worker spins. */
#define _GNU_SOURCE
#include "testutil.h"

#include "par/par.h"

#ifndef TELA_FIXTURE_DIR
#error "TELA_FIXTURE_DIR must name tests/fixtures"
#endif
#define FREE_DISPATCH TELA_FIXTURE_DIR "/free-dispatch.costs"

static bool disabled;

/* Each busy thread spins until stop, or for at most 10 s. */
#define BUSY_MAX_MS 10000
static _Atomic int busy_stop;

static void *busy_main(void *arg)
{
    (void)arg;
    const int64_t end = tu_now_ns() + (int64_t)BUSY_MAX_MS * 1000000;
    volatile unsigned long sink = 0;
    while (!atomic_load_explicit(&busy_stop, memory_order_relaxed) && tu_now_ns() < end)
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i;
    return NULL;
}

typedef struct busy_set {
    pthread_t threads[TU_MAX_WIDTH + 1];
    int count;
} busy_set;

/* One busy thread per online CPU and one more: more runnable threads than
 * CPUs and the one passer-by load.c tolerates, whatever else runs. */
static void busy_start(busy_set *b)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online <= 0 || online >= TU_MAX_WIDTH)
        skip(); /* cannot fill the machine */
    b->count = (int)online + 1;
    atomic_store(&busy_stop, 0);
    for (int i = 0; i < b->count; i++)
        assert_int_equal(pthread_create(&b->threads[i], NULL, busy_main, NULL), 0);
}

static void busy_stop_all(busy_set *b)
{
    atomic_store(&busy_stop, 1);
    for (int i = 0; i < b->count; i++)
        pthread_join(b->threads[i], NULL);
}

static bool oversubscribed_pred(void *arg)
{
    (void)arg;
    return par_runnable_threads() > sysconf(_SC_NPROCESSORS_ONLN) + 1;
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

static void test_runnable_count(void **state)
{
    (void)state;
#if defined(__linux__)
    /* We run, so at least one thread is runnable. */
    assert_true(par_runnable_threads() >= 1);
#else
    skip();
#endif
}

static void test_busy_machine_narrows_gated_regions(void **state)
{
    (void)state;
#if !defined(__linux__)
    skip();
#endif
    assert_int_equal(tela_costs_load(FREE_DISPATCH), TELA_OK);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par par = tela_par_team(team);

    busy_set busy;
    busy_start(&busy);
    assert_true(tu_wait_until(oversubscribed_pred, NULL, 2000));
    /* Readings stand 1 ms, and a region narrows only when two see the
     * load: from the third call 2 ms apart every one is narrowed. */
    int narrowed = 0, calls = 12;
    for (int i = 0; i < calls; i++) {
        const int w = gated_width(par);
        if (i >= 2 && w == 1)
            narrowed++;
        tu_sleep_ms(2);
    }
    /* A fixed width is the caller's to choose: the load does not touch it. */
    _Atomic int ran = 0;
    assert_int_equal(tela_parallel(par, 2, count_body, &ran), 2);
    assert_int_equal(atomic_load(&ran), 2);

    busy_stop_all(&busy);

    if (disabled) {
        assert_int_equal(narrowed, 0);
    } else {
        assert_int_equal(narrowed, calls - 2);
        /* Quiet again: regions run wide once two readings see it (other
         * processes may pass by: within 2 s). */
        bool wide = false;
        for (int i = 0; i < 1000 && !wide; i++) {
            wide = gated_width(par) == 2;
            tu_sleep_ms(2);
        }
        assert_true(wide);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* A worker left idle spins 4 ms on a quiet machine; on a busy one it looks
 * at the load after 0.5 ms and sleeps. The caller and the worker on CPUs
 * of their own: a worker on its waker's CPU sleeps at once anyway. */
static void test_idle_worker_sleeps_on_busy_machine(void **state)
{
    (void)state;
    cpu_set_t saved;
    int worker_cpu;
    tela_pool *pool = tu_pool_pinned_pair(&saved, &worker_cpu);
    if (!pool && worker_cpu < 0)
        skip();
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par par = tela_par_team(team);
    struct tu_members m;
    assert_int_equal(tu_collect_members(par, 2, &m), 2);
    clockid_t clock;
    assert_int_equal(pthread_getcpuclockid(m.self[1], &clock), 0);

    busy_set busy;
    busy_start(&busy);
    assert_true(tu_wait_until(oversubscribed_pred, NULL, 2000));
    enum { ROUNDS = 5 };
    double burned_ms[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        _Atomic int ran = 0;
        assert_int_equal(tela_parallel(par, 2, count_body, &ran), 2);
        struct timespec t0, t1;
        clock_gettime(clock, &t0);
        tu_sleep_ms(30);
        clock_gettime(clock, &t1);
        burned_ms[round] =
            (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    }
    busy_stop_all(&busy);
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
        cmocka_unit_test(test_runnable_count),
        cmocka_unit_test(test_busy_machine_narrows_gated_regions),
        cmocka_unit_test(test_idle_worker_sleeps_on_busy_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
