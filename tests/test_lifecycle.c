/* test_lifecycle — pools and teams over their lifetime and under misuse: destroy
 * from a pool's own worker and while another thread holds a team (both deferred,
 * neither hangs), bad arguments reported through the error handler, fork() with
 * live pools, and many caller threads using the default pool or a pool per call. */
#define _GNU_SOURCE
#include <semaphore.h>

#include "testutil.h"

#if TU_TSAN
/* TSan kills a child that starts threads after a multi-threaded fork unless
 * told otherwise; the fork test does exactly that on purpose. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
    return "die_after_fork=0";
}
#endif

/* Puts the width settings and the error handler back after each test, so a
 * failed one (cmocka leaves at the failing assertion) does not leak them. */
static int initial_num_threads;

static int restore_settings(void **state)
{
    (void)state;
    tela_set_num_threads_local(0);
    tela_set_num_threads(initial_num_threads);
    tela_set_error_handler(NULL, NULL);
    tu_reset_failures();
    return 0;
}

/* Waits for sem at most timeout_ms; false on timeout. */
static bool sem_wait_ms(sem_t *sem, int timeout_ms)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    while (sem_timedwait(sem, &deadline) != 0)
        if (errno != EINTR)
            return false;
    return true;
}

static tela_pool *named_pool(int width, const char *name)
{
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = width;
    opts.thread_name = name;
    return tela_pool_create(&opts);
}

/* ---- destroy from a worker of the same pool ---------------------------------- */
struct self_destroy {
    tela_pool *pool;
    int destroyer_rank;
    atomic_int destroy_returned;
    struct tu_sections sections;
};

/* The destroying member goes on with the region: barriers still work, since
 * the pool only goes away when the team is released. */
static void self_destroy_body(tela_member *self, void *arg)
{
    struct self_destroy *sd = arg;
    if (tela_rank(self) == sd->destroyer_rank) {
        tela_pool_destroy(sd->pool);
        atomic_store(&sd->destroy_returned, 1);
    }
    tu_sections_body(self, &sd->sections);
}

static int run_self_destroy(tela_par par, tela_pool *pool, int width, int destroyer_rank)
{
    struct self_destroy sd;
    memset(&sd, 0, sizeof sd);
    sd.pool = pool;
    sd.destroyer_rank = destroyer_rank;
    tu_sections_init(&sd.sections, 20);
    int used = tela_parallel(par, width, self_destroy_body, &sd);
    tu_sections_verify(&sd.sections, used);
    TU_CHECK(atomic_load(&sd.destroy_returned) == 1);
    return used;
}

struct idle_at_least {
    long idle;
};

static bool reserve_reached(void *arg)
{
    return tu_stats().reserve_idle >= ((struct idle_at_least *)arg)->idle;
}

static void test_destroy_from_own_worker(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    long idle_while_pool_lives = tu_stats().reserve_idle;
    assert_int_equal(run_self_destroy(tela_par_pool(pool), pool, 4, 1), 4);
    TU_ASSERT_NO_FAILURES();

    /* The pool went away at the release that ended the call: its three
     * workers are back in the reserve and the next pool reuses them. */
    struct idle_at_least want = {idle_while_pool_lives + 3};
    assert_true(tu_wait_until(reserve_reached, &want, 2000));
    long spawned = tela_spawned_workers();
    pool = tu_pool_of_width(4);
    assert_non_null(pool);
    assert_int_equal(tu_run_sections(tela_par_pool(pool), 4, 20), 4);
    assert_int_equal(tela_spawned_workers(), spawned);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(pool);
}

static void test_destroy_dedicated_pool_from_own_worker(void **state)
{
    (void)state;
    tela_pool *pool = named_pool(4, "telaself");
    assert_non_null(pool);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_pool(pool), 4, &m), 4);
    pid_t tids[TU_MAX_WIDTH];
    int n = tu_worker_tids(&m, 4, tids);
    tela_stats before = tu_stats();

    assert_int_equal(run_self_destroy(tela_par_pool(pool), pool, 4, 1), 4);
    TU_ASSERT_NO_FAILURES();
    if (!tu_wait_tasks_gone(tids, n, 2000))
        fail_msg("%s", "workers of a pool destroyed from its own worker still exist after 2 s");
    assert_int_equal(tu_stats().joined_workers - before.joined_workers, 3);
}

struct team_self_destroy {
    tela_pool *pool;
    int used_first, used_after;
};

static void destroy_inside_team(tela_team *team, void *arg)
{
    struct team_self_destroy *t = arg;
    t->used_first = run_self_destroy(tela_par_team(team), t->pool, 4, 2);
    /* The team stays usable until tela_with_team releases it. */
    t->used_after = tu_run_sections(tela_par_team(team), 4, 20);
}

static void test_destroy_from_worker_inside_with_team(void **state)
{
    (void)state;
    tela_pool *pool = named_pool(4, "telawith");
    assert_non_null(pool);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_pool(pool), 4, &m), 4);
    pid_t tids[TU_MAX_WIDTH];
    int n = tu_worker_tids(&m, 4, tids);

    struct team_self_destroy t = {pool, 0, 0};
    assert_int_equal(tela_with_team(pool, 4, destroy_inside_team, &t), TELA_OK);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(t.used_first, 4);
    assert_int_equal(t.used_after, 4);
    assert_true(tu_wait_tasks_gone(tids, n, 2000));
}

/* ---- destroy while another thread holds a team --------------------------------- */
struct lessee {
    tela_pool *pool;
    sem_t leased, destroyed;
    bool destroy_signal_seen;
    int team_width, regions_ok, release_status;
    pid_t workers[TU_MAX_WIDTH];
    int n_workers;
};

static void *hold_team_across_destroy(void *arg)
{
    struct lessee *l = arg;
    tela_team *team = tela_team_acquire(l->pool, 4);
    if (!team) {
        sem_post(&l->leased);
        return NULL;
    }
    l->team_width = tela_team_width(team);
    struct tu_members m;
    int used = tu_collect_members(tela_par_team(team), 4, &m);
    l->n_workers = tu_worker_tids(&m, used, l->workers);
    sem_post(&l->leased);

    /* A destroy that waited for this release would never post: bounded. */
    l->destroy_signal_seen = sem_wait_ms(&l->destroyed, 10000);
    for (int k = 0; k < 50; k++)
        l->regions_ok += tu_run_sections(tela_par_team(team), 4, 5) == 4;
    l->release_status = tela_team_release(team);
    return NULL;
}

static void test_destroy_while_team_leased_is_deferred(void **state)
{
    (void)state;
    struct lessee l;
    memset(&l, 0, sizeof l);
    l.pool = named_pool(4, "teladefer");
    assert_non_null(l.pool);
    sem_init(&l.leased, 0, 0);
    sem_init(&l.destroyed, 0, 0);
    tela_stats before = tu_stats();

    pthread_t holder;
    assert_int_equal(pthread_create(&holder, NULL, hold_team_across_destroy, &l), 0);
    assert_true(sem_wait_ms(&l.leased, 10000));
    assert_int_equal(l.team_width, 4);
    assert_int_equal(l.n_workers, 3);

    int64_t start = tu_now_ns();
    tela_pool_destroy(l.pool);
    int64_t took = tu_now_ns() - start;
    /* Deferred: the leased workers are still there. */
    for (int i = 0; i < l.n_workers; i++)
        assert_true(tu_task_exists(l.workers[i]));
    sem_post(&l.destroyed);
    assert_int_equal(pthread_join(holder, NULL), 0);
    TU_ASSERT_NO_FAILURES();

    if (took > 1000000000)
        fail_msg("tela_pool_destroy waited %lld ms for a leased team", (long long)(took / 1000000));
    assert_true(l.destroy_signal_seen);
    assert_int_equal(l.regions_ok, 50);
    assert_int_equal(l.release_status, TELA_OK);
    /* The release carried out the destroy. */
    if (!tu_wait_tasks_gone(l.workers, l.n_workers, 2000))
        fail_msg("%s", "the release of the last team did not destroy the pool");
    assert_int_equal(tu_stats().joined_workers - before.joined_workers, 3);
    sem_destroy(&l.leased);
    sem_destroy(&l.destroyed);
}

/* ---- two teams of one pool ------------------------------------------------------- */
struct second_lessee {
    tela_pool *pool;
    sem_t ready, go;
    int width;
    pid_t workers[TU_MAX_WIDTH];
    int n_workers;
    int regions_ok, regions;
};

static void *lease_the_rest(void *arg)
{
    struct second_lessee *s = arg;
    tela_team *team = tela_team_acquire(s->pool, 8);
    s->width = team ? tela_team_width(team) : -1;
    if (team) {
        struct tu_members m;
        int used = tu_collect_members(tela_par_team(team), 0, &m);
        s->n_workers = tu_worker_tids(&m, used, s->workers);
    }
    sem_post(&s->ready);
    if (!team)
        return NULL;
    sem_wait_ms(&s->go, 10000);
    for (int k = 0; k < s->regions; k++)
        s->regions_ok += tu_run_sections(tela_par_team(team), 0, 5) == s->width;
    TU_CHECK(tela_team_release(team) == TELA_OK);
    return NULL;
}

/* Teams of one pool held by two threads get disjoint workers; the second
 * gets what the first left (narrower), and both run at the same time. */
static void test_two_teams_of_one_pool_share_no_worker(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(8);
    assert_non_null(pool);
    tela_team *mine = tela_team_acquire(pool, 4);
    assert_non_null(mine);
    assert_int_equal(tela_team_width(mine), 4);
    struct tu_members m;
    assert_int_equal(tu_collect_members(tela_par_team(mine), 0, &m), 4);
    pid_t my_workers[TU_MAX_WIDTH];
    int n_mine = tu_worker_tids(&m, 4, my_workers);

    struct second_lessee s;
    memset(&s, 0, sizeof s);
    s.pool = pool;
    s.regions = tu_iters(300, 30);
    sem_init(&s.ready, 0, 0);
    sem_init(&s.go, 0, 0);
    pthread_t other;
    assert_int_equal(pthread_create(&other, NULL, lease_the_rest, &s), 0);
    assert_true(sem_wait_ms(&s.ready, 10000));
    sem_post(&s.go);
    int mine_ok = 0;
    for (int k = 0; k < s.regions; k++)
        mine_ok += tu_run_sections(tela_par_team(mine), 0, 5) == 4;
    assert_int_equal(pthread_join(other, NULL), 0);
    TU_ASSERT_NO_FAILURES();

    assert_int_equal(s.width, 5); /* the 4 free workers and its caller */
    assert_int_equal(s.n_workers, 4);
    assert_true(tu_tids_disjoint(my_workers, n_mine, s.workers, s.n_workers));
    assert_int_equal(mine_ok, s.regions);
    assert_int_equal(s.regions_ok, s.regions);
    assert_int_equal(tela_team_release(mine), TELA_OK);
    /* Both leases are back: the full width is available again. */
    tela_team *all = tela_team_acquire(pool, 8);
    assert_non_null(all);
    assert_int_equal(tela_team_width(all), 8);
    assert_int_equal(tela_team_release(all), TELA_OK);
    sem_destroy(&s.ready);
    sem_destroy(&s.go);
    tela_pool_destroy(pool);
}

/* ---- bad arguments ----------------------------------------------------------------- */
struct error_log {
    atomic_int calls;
    int last_status;
    bool where_ok, message_ok, context_ok;
    char last_where[128];
};

static struct error_log error_log;

static void log_error(int status, const char *where, const char *message, void *context)
{
    atomic_fetch_add(&error_log.calls, 1);
    error_log.last_status = status;
    error_log.where_ok = where != NULL && where[0] != '\0';
    error_log.message_ok = message != NULL && message[0] != '\0';
    error_log.context_ok = context == &error_log;
    snprintf(error_log.last_where, sizeof error_log.last_where, "%s", where ? where : "(null)");
}

/* The last call reported exactly one error with this status. */
static void expect_reported(int calls_before, int status)
{
    assert_int_equal(atomic_load(&error_log.calls), calls_before + 1);
    assert_int_equal(error_log.last_status, status);
    assert_true(error_log.where_ok);
    assert_true(error_log.message_ok);
    assert_true(error_log.context_ok);
}

static void never_called_fn(tela_team *team, void *arg)
{
    (void)team;
    atomic_fetch_add((atomic_int *)arg, 1);
}

static void never_called_body(tela_member *self, void *arg)
{
    (void)self;
    atomic_fetch_add((atomic_int *)arg, 1);
}

static void test_bad_arguments_reach_error_handler(void **state)
{
    (void)state;
    memset(&error_log, 0, sizeof error_log);
    tela_error_handler original = tela_set_error_handler(log_error, &error_log);
    assert_ptr_equal(tela_set_error_handler(log_error, &error_log), log_error);
    atomic_int ran;
    atomic_init(&ran, 0);
    int calls;

    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = -1;
    calls = atomic_load(&error_log.calls);
    assert_null(tela_pool_create(&opts));
    expect_reported(calls, TELA_EINVAL);

    calls = atomic_load(&error_log.calls);
    assert_null(tela_team_acquire(NULL, 2));
    expect_reported(calls, TELA_EINVAL);

    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    static const int bad_widths[] = {0, -5, 3, 1000};
    for (size_t i = 0; i < sizeof bad_widths / sizeof bad_widths[0]; i++) {
        calls = atomic_load(&error_log.calls);
        assert_null(tela_team_acquire(pool, bad_widths[i]));
        expect_reported(calls, TELA_EINVAL);
    }

    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    assert_int_equal(tela_team_release(team), TELA_OK);
    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_team_release(team), TELA_ESTATE);
    expect_reported(calls, TELA_ESTATE);

    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_team_release(NULL), TELA_EINVAL);
    expect_reported(calls, TELA_EINVAL);

    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_with_team(pool, 2, NULL, NULL), TELA_EINVAL);
    expect_reported(calls, TELA_EINVAL);

    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_with_team(NULL, 2, never_called_fn, &ran), TELA_EINVAL);
    expect_reported(calls, TELA_EINVAL);

    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_parallel(tela_par_pool(pool), 2, NULL, NULL), TELA_EINVAL);
    expect_reported(calls, TELA_EINVAL);

    calls = atomic_load(&error_log.calls);
    assert_int_equal(tela_parallel(tela_par_seq(), 1, NULL, NULL), TELA_EINVAL);
    expect_reported(calls, TELA_EINVAL);

    /* A NULL pool in a policy is misuse too: reported, the body never runs. */
    calls = atomic_load(&error_log.calls);
    assert_true(tela_parallel(tela_par_pool(NULL), 2, never_called_body, &ran) < 0);
    assert_true(atomic_load(&error_log.calls) > calls);
    assert_int_equal(error_log.last_status, TELA_EINVAL);
    assert_int_equal(atomic_load(&ran), 0);

    /* Documented as ignored, not as an error. */
    calls = atomic_load(&error_log.calls);
    tela_pool_destroy(NULL);
    assert_int_equal(atomic_load(&error_log.calls), calls);
    assert_int_equal(tela_pool_width(NULL), -1);

    /* The pool is unharmed by all of it. */
    assert_int_equal(tu_run_sections(tela_par_pool(pool), 2, 20), 2);
    TU_ASSERT_NO_FAILURES();
    assert_int_equal(atomic_load(&ran), 0);
    tela_pool_destroy(pool);

    assert_ptr_equal(tela_set_error_handler(original, NULL), log_error);
}

/* ---- fork ---------------------------------------------------------------------------- */
static int child_after_fork(void)
{
    tu_reset_failures();
    alarm(TU_SANITIZED ? 150 : 30); /* a hang becomes a signal the parent sees */
    tela_pool *pool = tu_pool_of_width(2);
    if (!pool) {
        fprintf(stderr, "child: tela_pool_create failed\n");
        return 2;
    }
    int ok = 0;
    for (int k = 0; k < 100; k++)
        ok += tu_run_sections(tela_par_pool(pool), 2, 10) == 2;
    tela_pool_destroy(pool);
    /* The child's own reserve serves the next pool. */
    long spawned = tela_spawned_workers();
    pool = tu_pool_of_width(2);
    int reused_width = pool ? tu_run_sections(tela_par_pool(pool), 2, 10) : -1;
    long spawned_after = tela_spawned_workers();
    tela_pool_destroy(pool);
    /* The default pool is rebuilt in the child too. */
    int auto_width = tu_run_sections(tela_par_auto(), 0, 10);

    int failures = atomic_load(&tu_fail_count);
    if (ok != 100 || auto_width != 2 || reused_width != 2 || spawned_after != spawned || failures) {
        fprintf(stderr,
                "child: %d/100 regions ok, auto width %d, reused width %d, spawned %ld -> %ld, "
                "%d failed checks (%s)\n",
                ok, auto_width, reused_width, spawned, spawned_after, failures, tu_fail_msg);
        return 1;
    }
    return 0;
}

static void test_fork_child_builds_pools(void **state)
{
    (void)state;
    int original = tela_get_num_threads();
    tela_set_num_threads(2);
    assert_int_equal(tu_run_sections(tela_par_auto(), 0, 10), 2);
    /* Live workers at fork time: a held pool and the default pool. */
    tela_pool *held = tu_pool_of_width(3);
    assert_non_null(held);
    assert_int_equal(tu_run_sections(tela_par_pool(held), 3, 10), 3);
    TU_ASSERT_NO_FAILURES();

    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(child_after_fork());

    int status = tu_waitpid_bounded(pid, TU_SANITIZED ? 200000 : 60000);
    assert_int_not_equal(status, -1);
    if (WIFSIGNALED(status))
        fail_msg("child died of signal %d (SIGALRM = hang)", WTERMSIG(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);

    /* The parent's pools are unaffected. */
    assert_int_equal(tu_run_sections(tela_par_pool(held), 3, 10), 3);
    assert_int_equal(tu_run_sections(tela_par_auto(), 0, 10), 2);
    TU_ASSERT_NO_FAILURES();
    tela_pool_destroy(held);
    tela_set_num_threads(original);
}

/* ---- many callers ---------------------------------------------------------------------- */
#define CALLERS 8

struct auto_caller {
    int index;
    int calls;
    int local_width;      /* 0: follows the process default */
    bool changes_default; /* calls tela_set_num_threads now and then */
    int widest_seen;
};

static void *call_default_pool(void *arg)
{
    struct auto_caller *c = arg;
    if (c->local_width)
        TU_CHECK(tela_set_num_threads_local(c->local_width) == 0);
    int limit = c->local_width ? c->local_width : 4;
    for (int k = 0; k < c->calls; k++) {
        if (c->changes_default && k % 100 == 0)
            tela_set_num_threads(2 + (k / 100) % 3);
        int used = tu_run_sections(tela_par_auto(), 0, 2);
        TU_CHECK(used >= 1 && used <= limit);
        if (used > c->widest_seen)
            c->widest_seen = used;
    }
    return NULL;
}

/* Callers of the default pool at once: each gets its own team or runs
 * narrower, never a worker of another team, never a deadlock. */
static void test_many_callers_on_default_pool(void **state)
{
    (void)state;
    int original = tela_get_num_threads();
    tela_set_num_threads(4);
    struct auto_caller callers[CALLERS];
    pthread_t threads[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        callers[i] = (struct auto_caller){
            .index = i,
            .calls = tu_iters(1000, 100),
            .local_width = i % 4 == 3 ? 0 : 2 + i % 3,
            .changes_default = i == 0 || i == 3,
        };
        assert_int_equal(pthread_create(&threads[i], NULL, call_default_pool, &callers[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    TU_ASSERT_NO_FAILURES();
    /* The default pool was not serial for everyone all the time. */
    int widest = 0;
    for (int i = 0; i < CALLERS; i++)
        widest = callers[i].widest_seen > widest ? callers[i].widest_seen : widest;
    assert_true(widest >= 2);

    tela_set_num_threads(original);
    assert_int_equal(tela_get_num_threads(), original);
    /* Quiet again: one caller gets the full width. */
    tela_set_num_threads(4);
    assert_int_equal(tu_run_sections(tela_par_auto(), 0, 10), 4);
    TU_ASSERT_NO_FAILURES();
    tela_set_num_threads(original);
}

struct pool_per_call {
    int index;
    int calls;
    int ok;
};

static void with_team_sections(tela_team *team, void *arg)
{
    int *width = arg;
    TU_CHECK(tela_team_width(team) == *width);
    TU_CHECK(tu_run_sections(tela_par_team(team), 0, 3) == *width);
}

static void *call_with_own_pool(void *arg)
{
    struct pool_per_call *c = arg;
    for (int k = 0; k < c->calls; k++) {
        int width = 2 + (c->index + k) % 3;
        tela_pool *pool = tu_pool_of_width(width);
        TU_CHECK(pool != NULL);
        if (!pool)
            continue;
        if (k % 2) {
            TU_CHECK(tela_with_team(pool, width, with_team_sections, &width) == TELA_OK);
        } else {
            tela_team *team = tela_team_acquire(pool, width);
            TU_CHECK(team != NULL && tela_team_width(team) == width);
            if (team) {
                TU_CHECK(tu_run_sections(tela_par_team(team), width, 3) == width);
                TU_CHECK(tela_team_release(team) == TELA_OK);
            }
        }
        tela_pool_destroy(pool);
        c->ok++;
    }
    return NULL;
}

static void test_many_callers_pool_per_call(void **state)
{
    (void)state;
    struct pool_per_call callers[CALLERS];
    pthread_t threads[CALLERS];
    for (int i = 0; i < CALLERS; i++) {
        callers[i] = (struct pool_per_call){.index = i, .calls = tu_iters(200, 25)};
        assert_int_equal(pthread_create(&threads[i], NULL, call_with_own_pool, &callers[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    TU_ASSERT_NO_FAILURES();
    for (int i = 0; i < CALLERS; i++)
        assert_int_equal(callers[i].ok, callers[i].calls);
    tela_stats s = tu_stats();
    assert_true(s.reserve_idle <= s.reserve_cap);
}

int main(void)
{
    initial_num_threads = tela_get_num_threads();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_destroy_from_own_worker, restore_settings),
        cmocka_unit_test_teardown(test_destroy_dedicated_pool_from_own_worker, restore_settings),
        cmocka_unit_test_teardown(test_destroy_from_worker_inside_with_team, restore_settings),
        cmocka_unit_test_teardown(test_destroy_while_team_leased_is_deferred, restore_settings),
        cmocka_unit_test_teardown(test_two_teams_of_one_pool_share_no_worker, restore_settings),
        cmocka_unit_test_teardown(test_bad_arguments_reach_error_handler, restore_settings),
        cmocka_unit_test_teardown(test_fork_child_builds_pools, restore_settings),
        cmocka_unit_test_teardown(test_many_callers_on_default_pool, restore_settings),
        cmocka_unit_test_teardown(test_many_callers_pool_per_call, restore_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
