/* test_affinity — a worker takes the CPU set of the thread that builds its pool,
 * whether it was spawned for the pool or reused from the reserve: build pools
 * from threads pinned to one CPU, then another, then unpinned, and read every
 * member's mask from inside a region. Linux only. */
#define _GNU_SOURCE
#include "testutil.h"

#define POOL_WIDTH 3

struct pinned_run {
    int used;
    long spawned_before, spawned_after;
    pid_t workers[TU_MAX_WIDTH];
    int n_workers;
    cpu_set_t mask[TU_MAX_WIDTH]; /* as seen by each member inside the region */
    int mask_ok[TU_MAX_WIDTH];
};

static void read_mask_body(tela_member *self, void *arg)
{
    struct pinned_run *run = arg;
    int rank = tela_rank(self);
    if (rank < 0 || rank >= TU_MAX_WIDTH)
        return;
    run->workers[rank] = tu_gettid();
    CPU_ZERO(&run->mask[rank]);
    run->mask_ok[rank] = sched_getaffinity(0, sizeof(cpu_set_t), &run->mask[rank]) == 0;
    tela_barrier(self);
}

/* On its own thread (pinned as asked): build a pool with default settings,
 * run one region reading the masks, destroy it. */
static void *build_pool_and_read_masks(void *arg)
{
    struct pinned_run *run = arg;
    run->spawned_before = tela_spawned_workers();
    tela_pool *pool = tu_pool_of_width(POOL_WIDTH);
    if (!pool) {
        run->used = -100;
        return NULL;
    }
    run->spawned_after = tela_spawned_workers();
    run->used = tela_parallel(tela_par_pool(pool), POOL_WIDTH, read_mask_body, run);
    tela_pool_destroy(pool);
    return NULL;
}

/* pin NULL: the builder keeps the process's mask. */
static void run_from_thread(struct pinned_run *run, const cpu_set_t *pin)
{
    memset(run, 0, sizeof *run);
    pthread_attr_t attr;
    assert_int_equal(pthread_attr_init(&attr), 0);
    if (pin)
        assert_int_equal(pthread_attr_setaffinity_np(&attr, sizeof(cpu_set_t), pin), 0);
    pthread_t builder;
    assert_int_equal(pthread_create(&builder, &attr, build_pool_and_read_masks, run), 0);
    assert_int_equal(pthread_join(builder, NULL), 0);
    pthread_attr_destroy(&attr);
    assert_int_equal(run->used, POOL_WIDTH);
    run->n_workers = POOL_WIDTH - 1;
    memmove(run->workers, run->workers + 1, sizeof(pid_t) * (size_t)run->n_workers);
}

/* "0,3,5" — for failure messages. */
static const char *format_mask(const cpu_set_t *set, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE && len + 8 < size; cpu++)
        if (CPU_ISSET(cpu, set))
            len += (size_t)snprintf(buf + len, size - len, len ? ",%d" : "%d", cpu);
    return buf;
}

static void expect_masks(const struct pinned_run *run, const cpu_set_t *expected)
{
    for (int r = 0; r < run->used; r++) {
        assert_true(run->mask_ok[r]);
        if (!CPU_EQUAL(&run->mask[r], expected)) {
            char seen[256], want[256];
            fail_msg("member %d runs on CPUs {%s}, expected {%s}", r,
                     format_mask(&run->mask[r], seen, sizeof seen),
                     format_mask(expected, want, sizeof want));
        }
    }
}

/* The CPUs this process may use, and two of them (a, b). */
struct cpus {
    cpu_set_t all, only_a, only_b;
};

static bool two_cpus(struct cpus *c)
{
    CPU_ZERO(&c->all);
    if (sched_getaffinity(0, sizeof c->all, &c->all) != 0 || CPU_COUNT(&c->all) < 2)
        return false;
    int found = 0, a = -1, b = -1;
    for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++) {
        if (CPU_ISSET(cpu, &c->all)) {
            if (found++ == 0)
                a = cpu;
            else
                b = cpu;
        }
    }
    CPU_ZERO(&c->only_a);
    CPU_ZERO(&c->only_b);
    CPU_SET(a, &c->only_a);
    CPU_SET(b, &c->only_b);
    return true;
}

/* Spawned workers start with the builder's mask (as any new thread would);
 * reused ones must be given it. */
static void test_workers_take_builders_cpu_set(void **state)
{
    (void)state;
    struct cpus cpus;
    if (!two_cpus(&cpus))
        skip();

    struct pinned_run run;
    run_from_thread(&run, &cpus.only_a);
    expect_masks(&run, &cpus.only_a);
    pid_t first[TU_MAX_WIDTH];
    memcpy(first, run.workers, sizeof first);
    int n_first = run.n_workers;

    /* The same workers, now for a builder on the other CPU. */
    run_from_thread(&run, &cpus.only_b);
    assert_int_equal(run.spawned_after, run.spawned_before);
    assert_true(tu_tids_same_set(run.workers, run.n_workers, first, n_first));
    expect_masks(&run, &cpus.only_b);

    /* And back. */
    run_from_thread(&run, &cpus.only_a);
    assert_int_equal(run.spawned_after, run.spawned_before);
    assert_true(tu_tids_same_set(run.workers, run.n_workers, first, n_first));
    expect_masks(&run, &cpus.only_a);

    /* An unpinned builder gets workers on all its CPUs again. */
    run_from_thread(&run, NULL);
    assert_int_equal(run.spawned_after, run.spawned_before);
    assert_true(tu_tids_same_set(run.workers, run.n_workers, first, n_first));
    expect_masks(&run, &cpus.all);
}

/* The mask outlives the region: after a region the reused workers still
 * run where the builder does (checked by a second region on the same pool). */
struct hold_ctx {
    struct pinned_run first, second;
    long spawned_before, spawned_after;
};

static void *build_pool_two_regions(void *arg)
{
    struct hold_ctx *h = arg;
    h->spawned_before = tela_spawned_workers();
    tela_pool *pool = tu_pool_of_width(POOL_WIDTH);
    if (!pool)
        return NULL;
    h->spawned_after = tela_spawned_workers();
    h->first.used = tela_parallel(tela_par_pool(pool), POOL_WIDTH, read_mask_body, &h->first);
    tu_sleep_ms(20); /* let the workers go idle in between */
    h->second.used = tela_parallel(tela_par_pool(pool), POOL_WIDTH, read_mask_body, &h->second);
    tela_pool_destroy(pool);
    return NULL;
}

static void test_mask_holds_across_regions(void **state)
{
    (void)state;
    struct cpus cpus;
    if (!two_cpus(&cpus))
        skip();
    for (int round = 0; round < 4; round++) {
        const cpu_set_t *pin = round % 2 ? &cpus.only_a : &cpus.only_b;
        struct hold_ctx h;
        memset(&h, 0, sizeof h);
        pthread_attr_t attr;
        assert_int_equal(pthread_attr_init(&attr), 0);
        assert_int_equal(pthread_attr_setaffinity_np(&attr, sizeof(cpu_set_t), pin), 0);
        pthread_t builder;
        assert_int_equal(pthread_create(&builder, &attr, build_pool_two_regions, &h), 0);
        assert_int_equal(pthread_join(builder, NULL), 0);
        pthread_attr_destroy(&attr);
        assert_int_equal(h.spawned_after, h.spawned_before);
        assert_int_equal(h.first.used, POOL_WIDTH);
        assert_int_equal(h.second.used, POOL_WIDTH);
        expect_masks(&h.first, pin);
        expect_masks(&h.second, pin);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workers_take_builders_cpu_set),
        cmocka_unit_test(test_mask_holds_across_regions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
