/* test_reuse — the process-wide reserve of worker threads: pools with default
 * settings reuse the workers of destroyed pools (same threads, no spawn), live
 * pools never share a worker, the reserve stays within its cap, and dedicated
 * pools (name, stack size, start hook) own their threads and join them. */
#define _GNU_SOURCE
#include "testutil.h"

/* Runs a full-width reporting region on pool and returns its worker ids. */
static int pool_worker_tids(tela_pool *pool, pid_t *out)
{
    int width = tela_pool_width(pool);
    struct tu_members m;
    int used = tu_collect_members(tela_par_pool(pool), width, &m);
    assert_int_equal(used, width);
    TU_ASSERT_NO_FAILURES();
    return tu_worker_tids(&m, used, out);
}

/* Must run first in this program: the reserve then holds exactly the workers
 * of the first pool, so the next pools must get those very threads back. */
static void test_destroyed_pool_workers_are_reused(void **state)
{
    (void)state;
    pid_t first[TU_MAX_WIDTH], again[TU_MAX_WIDTH];
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    int n_first = pool_worker_tids(pool, first);
    assert_int_equal(n_first, 3);
    assert_true(tu_tids_distinct(first, n_first));
    assert_false(tu_tid_in(tu_gettid(), first, n_first));
    tela_pool_destroy(pool);

    long spawned = tela_spawned_workers();
    tela_stats before = tu_stats();

    /* Same width: the same three threads, none started. */
    pool = tu_pool_of_width(4);
    assert_non_null(pool);
    int n = pool_worker_tids(pool, again);
    assert_int_equal(tela_spawned_workers(), spawned);
    assert_true(tu_tids_same_set(again, n, first, n_first));
    tela_pool_destroy(pool);

    /* Smaller widths: a subset of them, none started. */
    for (int width = 1; width <= 3; width++) {
        pool = tu_pool_of_width(width);
        assert_non_null(pool);
        n = pool_worker_tids(pool, again);
        assert_int_equal(n, width - 1);
        assert_int_equal(tela_spawned_workers(), spawned);
        assert_true(tu_tids_subset(again, n, first, n_first));
        tela_pool_destroy(pool);
    }

    tela_stats after = tu_stats();
    assert_int_equal(after.spawned_workers, spawned);
    assert_int_equal(after.reused_workers - before.reused_workers, 3 + 0 + 1 + 2);
}

/* Building a pool per call, as some callers do, starts no thread after the
 * first one. */
static void test_pool_per_call_spawns_nothing(void **state)
{
    (void)state;
    tela_pool *warm = tu_pool_of_width(4);
    assert_non_null(warm);
    tela_pool_destroy(warm);
    long spawned = tela_spawned_workers();
    int calls = tu_iters(300, 30);
    for (int i = 0; i < calls; i++) {
        int width = 2 + i % 3;
        tela_pool *pool = tu_pool_of_width(width);
        assert_non_null(pool);
        assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 5), width);
        tela_pool_destroy(pool);
    }
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(tela_spawned_workers(), spawned);
}

struct pool_runner {
    tela_pool *pool;
    const pid_t *workers; /* the pool's worker ids */
    int n_workers;
    int regions;
};

/* Runs regions on one pool, checking each region's workers are that pool's. */
static void *run_on_pool(void *arg)
{
    struct pool_runner *run = arg;
    int width = tela_pool_width(run->pool);
    for (int k = 0; k < run->regions; k++) {
        struct tu_members m;
        int used = tu_collect_members(tela_par_pool(run->pool), width, &m);
        TU_CHECK(used == width);
        pid_t tids[TU_MAX_WIDTH];
        int n = tu_worker_tids(&m, used, tids);
        TU_CHECK(tu_tids_subset(tids, n, run->workers, run->n_workers));
    }
    return NULL;
}

static void test_live_pools_have_disjoint_workers(void **state)
{
    (void)state;
    tela_pool *a = tu_pool_of_width(4);
    tela_pool *b = tu_pool_of_width(4);
    assert_non_null(a);
    assert_non_null(b);
    pid_t ta[TU_MAX_WIDTH], tb[TU_MAX_WIDTH];
    int na = pool_worker_tids(a, ta);
    int nb = pool_worker_tids(b, tb);
    assert_int_equal(na, 3);
    assert_int_equal(nb, 3);
    assert_true(tu_tids_disjoint(ta, na, tb, nb));
    assert_false(tu_tid_in(tu_gettid(), ta, na));
    assert_false(tu_tid_in(tu_gettid(), tb, nb));

    /* Both pools busy at once: each region still runs on its own pool's threads. */
    int regions = tu_iters(300, 30);
    struct pool_runner ra = {a, ta, na, regions}, rb = {b, tb, nb, regions};
    pthread_t other;
    assert_int_equal(pthread_create(&other, NULL, run_on_pool, &ra), 0);
    run_on_pool(&rb);
    assert_int_equal(pthread_join(other, NULL), 0);
    TU_ASSERT_NO_FAILURES();

    tela_pool_destroy(a);
    tela_pool_destroy(b);
}

static void expect_reserve_within_cap(void)
{
    tela_stats s = tu_stats();
    assert_true(s.reserve_cap >= 1);
    assert_true(s.reserve_idle >= 0);
    if (s.reserve_idle > s.reserve_cap)
        fail_msg("reserve holds %ld idle workers, cap %ld", s.reserve_idle, s.reserve_cap);
}

static void test_reserve_never_exceeds_cap(void **state)
{
    (void)state;
    static const int orders[][4] = {{2, 4, 8, 16}, {16, 8, 4, 2}, {8, 2, 16, 4}, {4, 16, 2, 8}};
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        /* One after the other. */
        for (int i = 0; i < 4; i++) {
            tela_pool *pool = tu_pool_of_width(orders[o][i]);
            assert_non_null(pool);
            assert_int_equal(tu_run_sections(tela_par_pool(pool), 0, 3), orders[o][i]);
            expect_reserve_within_cap();
            tela_pool_destroy(pool);
            expect_reserve_within_cap();
        }
        /* All four alive, then destroyed in the same order: 26 workers come
         * back at once and the surplus must be joined. */
        tela_pool *pools[4];
        for (int i = 0; i < 4; i++) {
            pools[i] = tu_pool_of_width(orders[o][i]);
            assert_non_null(pools[i]);
            expect_reserve_within_cap();
        }
        for (int i = 0; i < 4; i++)
            assert_int_equal(tu_run_sections(tela_par_pool(pools[i]), 0, 3), orders[o][i]);
        tela_stats before = tu_stats();
        for (int i = 0; i < 4; i++) {
            tela_pool_destroy(pools[i]);
            expect_reserve_within_cap();
        }
        tela_stats after = tu_stats();
        long returned = 1 + 3 + 7 + 15;
        long kept_at_most = after.reserve_cap - before.reserve_idle;
        if (after.joined_workers - before.joined_workers < returned - kept_at_most)
            fail_msg("%ld workers came back, reserve keeps at most %ld more, but only %ld joined",
                     returned, kept_at_most, after.joined_workers - before.joined_workers);
    }
    TU_ASSERT_NO_FAILURES();

    /* The widest pool so far raises the cap: a pool of 16 built again after
     * one was destroyed starts no thread. */
    tela_stats s = tu_stats();
    assert_true(s.reserve_cap >= 15);
    tela_pool *wide = tu_pool_of_width(16);
    assert_non_null(wide);
    tela_pool_destroy(wide);
    long spawned = tela_spawned_workers();
    wide = tu_pool_of_width(16);
    assert_non_null(wide);
    assert_int_equal(tu_run_sections(tela_par_pool(wide), 16, 10), 16);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(tela_spawned_workers(), spawned);
    tela_pool_destroy(wide);
    expect_reserve_within_cap();
}

/* A dedicated pool: its own threads, named, joined by destroy. */
static void expect_dedicated_named(const char *name, const char *expected_comm)
{
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = 4;
    opts.thread_name = name;
    long spawned = tela_spawned_workers();
    tela_stats before = tu_stats();
    tela_pool *pool = tela_pool_create(&opts);
    assert_non_null(pool);
    assert_int_equal(tela_pool_width(pool), 4);

    pid_t tids[TU_MAX_WIDTH];
    int n = pool_worker_tids(pool, tids);
    assert_int_equal(n, 3);
    /* Its threads are its own: started for it, not taken from the reserve. */
    assert_int_equal(tela_spawned_workers(), spawned + 3);
    for (int i = 0; i < n; i++) {
        char comm[64];
        assert_true(tu_task_comm(tids[i], comm, sizeof comm));
        assert_string_equal(comm, expected_comm);
    }

    tela_pool_destroy(pool);
    if (!tu_wait_tasks_gone(tids, n, 2000))
        fail_msg("threads of a destroyed dedicated pool still exist after 2 s");
    tela_stats after = tu_stats();
    assert_int_equal(after.joined_workers - before.joined_workers, 3);
    /* None of them went to the reserve. */
    assert_int_equal(after.reserve_idle, before.reserve_idle);
}

struct workspace_churn {
    int index;
    int pools;
};

/* Pools built and destroyed per call, each team's workspace (of varying
 * sizes) filled and read back before its pool goes: two teams never get the
 * same block, and no block is used after it is freed (the sanitizers watch
 * the spare passed between pools). */
static void *churn_workspaces(void *arg)
{
    const struct workspace_churn *c = arg;
    for (int i = 0; i < c->pools; i++) {
        tela_pool *pool = tu_pool_of_width(2);
        tela_team *team = pool ? tela_team_acquire(pool, 2) : NULL;
        TU_CHECK(team != NULL);
        if (!team) {
            tela_pool_destroy(pool);
            continue;
        }
        const size_t bytes = (size_t)(1 + (i * 7 + c->index) % 5) << 16;
        const unsigned char mark = (unsigned char)(c->index * 16 + i % 16);
        unsigned char *ws = tela_team_workspace(team, bytes);
        TU_CHECK(ws != NULL);
        if (ws) {
            memset(ws, mark, bytes);
            sched_yield();
            size_t wrong = 0;
            for (size_t k = 0; k < bytes; k += 61)
                wrong += ws[k] != mark;
            TU_CHECK(wrong == 0);
        }
        tela_team_release(team);
        tela_pool_destroy(pool);
    }
    return NULL;
}

static void test_pools_pass_on_their_workspace(void **state)
{
    (void)state;
    enum { THREADS = 4 };
    pthread_t threads[THREADS];
    struct workspace_churn churn[THREADS];
    for (int t = 0; t < THREADS; t++) {
        churn[t] = (struct workspace_churn){t, tu_iters(200, 30)};
        assert_int_equal(pthread_create(&threads[t], NULL, churn_workspaces, &churn[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    TU_ASSERT_NO_FAILURES();
}

static void test_dedicated_pool_named_threads_joined(void **state)
{
    (void)state;
    expect_dedicated_named("telatest", "telatest");
    /* The kernel keeps 15 characters of a name. */
    expect_dedicated_named("telatest-a-long-thread-name", "telatest-a-long");
}

struct stack_probe {
    size_t stack_size[TU_MAX_WIDTH];
    atomic_int deep_ok;
};

/* Uses a good part of the requested stack, so a smaller stack would crash. */
#define DEEP_STACK_BYTES (10u << 20)
__attribute__((noinline)) static int touch_stack(void)
{
    volatile unsigned char buf[DEEP_STACK_BYTES];
    for (size_t i = 0; i < sizeof buf; i += 4096)
        buf[i] = (unsigned char)i;
    buf[sizeof buf - 1] = 1;
    return buf[0] + buf[sizeof buf - 1];
}

static void stack_probe_body(tela_member *self, void *arg)
{
    struct stack_probe *p = arg;
    int rank = tela_rank(self);
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        size_t size = 0;
        pthread_attr_getstacksize(&attr, &size);
        p->stack_size[rank] = size;
        pthread_attr_destroy(&attr);
    }
    if (rank > 0 && touch_stack() == 1)
        atomic_fetch_add(&p->deep_ok, 1);
}

static void test_dedicated_pool_stack_size(void **state)
{
    (void)state;
    /* Bigger than the usual 8 MiB default, so getting it is not luck. */
    const size_t requested = 16u << 20;
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = 3;
    opts.stack_size = requested;
    long spawned = tela_spawned_workers();
    tela_pool *pool = tela_pool_create(&opts);
    assert_non_null(pool);
    struct stack_probe probe;
    memset(&probe, 0, sizeof probe);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 3, stack_probe_body, &probe), 3);
    assert_int_equal(atomic_load(&probe.deep_ok), 2);
    for (int r = 1; r < 3; r++) {
        /* glibc reports the size without the guard page, TLS alignment may
         * take a little off the top. */
        if (probe.stack_size[r] + (64u << 10) < requested ||
            probe.stack_size[r] > requested + (1u << 20))
            fail_msg("worker %d has a stack of %zu bytes, asked for %zu", r, probe.stack_size[r],
                     requested);
    }
    assert_int_equal(tela_spawned_workers(), spawned + 2);
    pid_t tids[TU_MAX_WIDTH];
    int n = pool_worker_tids(pool, tids);
    tela_pool_destroy(pool);
    assert_true(tu_wait_tasks_gone(tids, n, 2000));
}

struct hook_log {
    atomic_int calls;
    atomic_int bad_arg;
    int index[TU_MAX_WIDTH];
    pid_t tid[TU_MAX_WIDTH];
};

static struct hook_log hook_log;

static void record_start_hook(int worker_index, void *arg)
{
    if (arg != &hook_log)
        atomic_fetch_add(&hook_log.bad_arg, 1);
    int slot = atomic_fetch_add(&hook_log.calls, 1);
    if (slot < TU_MAX_WIDTH) {
        hook_log.index[slot] = worker_index;
        hook_log.tid[slot] = tu_gettid();
    }
}

static bool hook_calls_reached(void *arg)
{
    return atomic_load(&hook_log.calls) >= *(const int *)arg;
}

static void test_dedicated_pool_start_hook(void **state)
{
    (void)state;
    const int width = 6;
    memset(&hook_log, 0, sizeof hook_log);
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = width;
    opts.start_hook = record_start_hook;
    opts.start_hook_arg = &hook_log;
    tela_pool *pool = tela_pool_create(&opts);
    assert_non_null(pool);

    pid_t tids[TU_MAX_WIDTH];
    int n = pool_worker_tids(pool, tids);
    assert_int_equal(n, width - 1);
    int expected = width - 1;
    /* Every worker ran a region, so every worker has started; the bounded
     * wait covers a hook that runs on a worker after its start. */
    tu_wait_until(hook_calls_reached, &expected, 2000);
    /* More regions do not call it again. */
    for (int k = 0; k < 10; k++)
        assert_int_equal(tu_run_sections(tela_par_pool(pool), width, 3), width);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(atomic_load(&hook_log.calls), width - 1);
    assert_int_equal(atomic_load(&hook_log.bad_arg), 0);

    pid_t indices[TU_MAX_WIDTH]; /* ids or not, distinctness is the same check */
    for (int i = 0; i < width - 1; i++) {
        indices[i] = hook_log.index[i];
        assert_true(indices[i] >= 0 && indices[i] < width);
    }
    assert_true(tu_tids_distinct(indices, width - 1));
    /* Each hook ran on the worker it was for. */
    assert_true(tu_tids_same_set(hook_log.tid, width - 1, tids, n));

    tela_pool_destroy(pool);
    assert_true(tu_wait_tasks_gone(tids, n, 2000));
    assert_int_equal(atomic_load(&hook_log.calls), width - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_destroyed_pool_workers_are_reused),
        cmocka_unit_test(test_pool_per_call_spawns_nothing),
        cmocka_unit_test(test_live_pools_have_disjoint_workers),
        cmocka_unit_test(test_reserve_never_exceeds_cap),
        cmocka_unit_test(test_pools_pass_on_their_workspace),
        cmocka_unit_test(test_dedicated_pool_named_threads_joined),
        cmocka_unit_test(test_dedicated_pool_stack_size),
        cmocka_unit_test(test_dedicated_pool_start_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
