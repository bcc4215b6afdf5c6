/* test_placement — the wake-placement probe (src/par/placement.c) reports
 * the CPU the kernel has a worker on: pinned threads, running or asleep,
 * and a thread name that looks like the stat file's own punctuation.
 * Links the static library to reach the internal probe. */
#define _GNU_SOURCE
#include "testutil.h"

#include "par/par.h"

#include <sched.h>

struct pinned {
    par_worker worker;
    int cpu;
    const char *name;
    _Atomic int ready;
    _Atomic int stop;
    bool sleep_instead;
};

static void *pinned_main(void *arg)
{
    struct pinned *p = arg;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(p->cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return NULL;
    if (p->name)
        pthread_setname_np(pthread_self(), p->name);
    par_placement_init_self(&p->worker);
    atomic_store(&p->ready, 1);
    while (!atomic_load(&p->stop)) {
        if (p->sleep_instead) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static void expect_probe_on_each_cpu(bool sleep_instead, const char *name)
{
    cpu_set_t allowed;
    assert_int_equal(sched_getaffinity(0, sizeof allowed, &allowed), 0);
    int checked = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && checked < 4; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        struct pinned p;
        memset(&p, 0, sizeof p);
        atomic_init(&p.worker.stat_fd, -1);
        p.cpu = cpu;
        p.name = name;
        p.sleep_instead = sleep_instead;
        pthread_t thread;
        assert_int_equal(pthread_create(&thread, NULL, pinned_main, &p), 0);
        while (!atomic_load(&p.ready))
            sched_yield();
        for (int i = 0; i < 20; i++)
            assert_int_equal(par_placement_cpu(&p.worker), cpu);
        atomic_store(&p.stop, 1);
        pthread_join(thread, NULL);
        par_placement_close(&p.worker);
        assert_int_equal(atomic_load(&p.worker.stat_fd), -1);
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
    return cmocka_run_group_tests(tests, NULL, NULL);
}
