/* test_placement — the wake-placement probe (src/par/placement.c) reports
 * the CPU the kernel has a worker on: pinned threads, running or asleep,
 * and a thread name that looks like the stat file's own punctuation.
 * Links the static library to reach the internal probe.
 *
 * Every wait on the pinned thread is bounded and every way it can fail to
 * pin itself is reported: a thread that cannot pin fails the test within
 * seconds instead of leaving it to ctest's timeout. Only a CPU that left
 * this process's allowed set between choosing it and pinning to it (a
 * cpuset change, a CPU taken offline) is the environment's doing, and
 * skips (exit TU_EXIT_SKIPPED). */
#define _GNU_SOURCE
#include "testutil.h"

#include "par/par.h"

#include <sched.h>

/* How long the pinned thread may take to start and pin itself, and to
 * finish once told to stop: far above what a busy machine or TSan needs
 * (milliseconds), far below ctest's timeout. */
#define PIN_WAIT_MS  10000
#define JOIN_WAIT_MS 5000

/* The probe is read this often while the thread stays pinned. */
#define PROBES 20

enum pin_state {
    PIN_PENDING, /* not yet pinned */
    PIN_READY,   /* pinned and named: the probe may look */
    PIN_FAILED,  /* gave up: the fields below say why */
};

struct pinned {
    par_worker worker;
    int cpu;
    const char *name;
    bool sleep_instead;
    /* Written by the thread before it publishes PIN_FAILED (release), read
     * by the main thread after it sees it (acquire). */
    bool naming_failed; /* pthread_setname_np failed, else sched_setaffinity did */
    int failed_errno;
    bool cpu_still_allowed; /* the thread's allowed set held cpu after the failure */
    _Atomic int state;      /* enum pin_state */
    _Atomic int stop;
};

static void *pinned_main(void *arg)
{
    struct pinned *p = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(p->cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        p->failed_errno = errno;
        cpu_set_t allowed;
        p->cpu_still_allowed =
            sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_ISSET(p->cpu, &allowed);
        atomic_store_explicit(&p->state, PIN_FAILED, memory_order_release);
        return NULL;
    }
    if (p->name) {
        const int rc = pthread_setname_np(pthread_self(), p->name);
        if (rc != 0) {
            p->naming_failed = true;
            p->failed_errno = rc;
            atomic_store_explicit(&p->state, PIN_FAILED, memory_order_release);
            return NULL;
        }
    }
    par_placement_init_self(&p->worker);
    atomic_store_explicit(&p->state, PIN_READY, memory_order_release);
    while (!atomic_load(&p->stop)) {
        if (p->sleep_instead) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static bool pinned_settled(void *arg)
{
    const struct pinned *p = arg;
    return atomic_load_explicit(&p->state, memory_order_acquire) != PIN_PENDING;
}

/* Stops and joins the thread within JOIN_WAIT_MS; false if it is still
 * running (then p must stay allocated: the thread may yet touch it). */
static bool pinned_finish(struct pinned *p, pthread_t thread)
{
    atomic_store(&p->stop, 1);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += JOIN_WAIT_MS / 1000;
    if (pthread_timedjoin_np(thread, NULL, &deadline) != 0) {
        pthread_detach(thread);
        return false;
    }
    return true;
}

/* Pins a thread to cpu and reads the probe PROBES times while it stays
 * there. Asserts only after the thread is joined and its state freed, so
 * a failure never leaves it running on freed memory. */
static void expect_probe_on_cpu(int cpu, bool sleep_instead, const char *name)
{
    /* On the heap: a thread that never stops keeps it (leaked on that
     * failure) instead of writing into a returned stack frame. */
    struct pinned *p = calloc(1, sizeof *p);
    assert_non_null(p);
    atomic_init(&p->worker.stat_fd, -1);
    p->cpu = cpu;
    p->name = name;
    p->sleep_instead = sleep_instead;
    atomic_init(&p->state, PIN_PENDING);
    atomic_init(&p->stop, 0);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, pinned_main, p), 0);

    const bool settled = tu_wait_until(pinned_settled, p, PIN_WAIT_MS);
    const bool pinned = atomic_load_explicit(&p->state, memory_order_acquire) == PIN_READY;
    int seen[PROBES];
    for (int i = 0; i < PROBES; i++)
        seen[i] = pinned ? par_placement_cpu(&p->worker) : -1;
    if (!pinned_finish(p, thread))
        fail_msg("the thread for CPU %d (%s) did not stop in %d ms", cpu,
                 settled ? "pinned" : "not pinned in time", JOIN_WAIT_MS);
    par_placement_close(&p->worker);
    const int fd_after_close = atomic_load(&p->worker.stat_fd);
    const bool naming_failed = p->naming_failed;
    const int err = p->failed_errno;
    const bool still_allowed = p->cpu_still_allowed;
    free(p);

    if (!settled)
        fail_msg("the thread for CPU %d did not pin itself in %d ms", cpu, PIN_WAIT_MS);
    if (!pinned && naming_failed)
        fail_msg("pthread_setname_np(\"%s\"): %s", name, strerror(err));
    if (!pinned && err == EINVAL && !still_allowed)
        tu_skip_env("CPU %d left this process's allowed CPUs before a thread could be pinned to "
                    "it (sched_setaffinity: %s)",
                    cpu, strerror(err));
    if (!pinned)
        fail_msg("sched_setaffinity to CPU %d, %s in the thread's allowed set: %s", cpu,
                 still_allowed ? "still" : "no longer", strerror(err));
    for (int i = 0; i < PROBES; i++)
        if (seen[i] != cpu)
            fail_msg("probe %d of %d saw CPU %d for a thread pinned to CPU %d", i + 1, PROBES,
                     seen[i], cpu);
    assert_int_equal(fd_after_close, -1);
}

/* The probe on each of the first 4 CPUs this process may use. */
static void expect_probe_on_each_cpu(bool sleep_instead, const char *name)
{
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int checked = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && checked < 4; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        expect_probe_on_cpu(cpu, sleep_instead, name);
        checked++;
    }
    assert_true(checked >= 1);
}

static void test_probe_finds_running_thread(void **state)
{
    (void)state;
    expect_probe_on_each_cpu(false, NULL);
}

static void test_probe_finds_sleeping_thread(void **state)
{
    (void)state;
    expect_probe_on_each_cpu(true, NULL);
}

static void test_probe_survives_odd_thread_name(void **state)
{
    (void)state;
    /* The name sits between parentheses in the stat line: fields are
     * counted from the last ')'. 15 characters at most. */
    expect_probe_on_each_cpu(false, "x) 1 2 3) 4 5");
}

static void test_probe_unknown_thread(void **state)
{
    (void)state;
    par_worker w;
    memset(&w, 0, sizeof w);
    atomic_init(&w.stat_fd, -1);
    assert_int_equal(par_placement_cpu(&w), -1); /* no thread id yet */
    atomic_store(&w.tid, 999999999);
    assert_int_equal(par_placement_cpu(&w), -1); /* no such thread */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_finds_running_thread),
        cmocka_unit_test(test_probe_finds_sleeping_thread),
        cmocka_unit_test(test_probe_survives_odd_thread_name),
        cmocka_unit_test(test_probe_unknown_thread),
    };
    return tu_exit_status(cmocka_run_group_tests(tests, NULL, NULL));
}
