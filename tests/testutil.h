/* testutil.h — helpers shared by tela's cmocka test programs.
 * Checks made on worker threads are recorded here and asserted later on the
 * main thread (cmocka's assertions longjmp and must stay on the main thread);
 * the rest are thread-id sets, /proc probes, bounded waits and iteration scaling. */
#ifndef TELA_TESTUTIL_H
#define TELA_TESTUTIL_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before any include"
#endif

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tela.h"

/* ---- the machine's load ------------------------------------------------------
 * ctest runs tests side by side: the load they put on the machine would
 * narrow the regions these tests mean to run wide (src/par/load.c). Off
 * unless the environment says otherwise (test_load turns it on). */
__attribute__((constructor)) static void tu_load_aware_off(void)
{
    setenv("TELA_LOAD_AWARE", "0", 0);
}

/* ---- sanitizer detection ---------------------------------------------------
 * GCC defines __SANITIZE_*__, clang answers __has_feature. */
#if defined(__SANITIZE_THREAD__)
#define TU_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TU_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_ASAN 1
#endif
#endif
#ifndef TU_TSAN
#define TU_TSAN 0
#endif
#ifndef TU_ASAN
#define TU_ASAN 0
#endif
#define TU_SANITIZED (TU_TSAN || TU_ASAN)

/* Iteration counts are written for Release; TSan runs about 10x slower and
 * ASan about 2-3x. The thread-team tests spend much of their time waiting,
 * which sanitizers do not slow down, so a smaller cut keeps them meaningful
 * and still fast; never below a count that still exercises the path (min). */
static inline int tu_iters(int release_count, int min_count)
{
    int n = release_count;
    if (TU_TSAN)
        n = release_count / 4;
    else if (TU_ASAN)
        n = release_count / 2;
    return n < min_count ? min_count : n;
}

/* Widest team any test builds (the arrays below are sized by it). */
#define TU_MAX_WIDTH 64

/* ---- failures recorded off the main thread --------------------------------- */
static atomic_int tu_fail_count;
static atomic_int tu_fail_msg_taken;
static char tu_fail_msg[512];

static void tu_record_failure(const char *file, int line, const char *what)
{
    atomic_fetch_add(&tu_fail_count, 1);
    /* Only the first failure keeps its message: later ones are usually echoes. */
    if (atomic_exchange(&tu_fail_msg_taken, 1) == 0)
        snprintf(tu_fail_msg, sizeof tu_fail_msg, "%s:%d: check failed: %s", file, line, what);
}

/* Usable on any thread, inside region bodies included (it never allocates
 * unless it fails). */
#define TU_CHECK(cond)                                                                             \
    do {                                                                                           \
        if (!(cond))                                                                               \
            tu_record_failure(__FILE__, __LINE__, #cond);                                          \
    } while (0)

static inline void tu_reset_failures(void)
{
    atomic_store(&tu_fail_count, 0);
    atomic_store(&tu_fail_msg_taken, 0);
    tu_fail_msg[0] = '\0';
}

/* Main thread only, after the threads that checked have been joined or the
 * region that checked has returned. */
#define TU_ASSERT_NO_FAILURES()                                                                    \
    do {                                                                                           \
        int tu_n_ = atomic_load(&tu_fail_count);                                                   \
        if (tu_n_ != 0) {                                                                          \
            char tu_copy_[sizeof tu_fail_msg];                                                     \
            snprintf(tu_copy_, sizeof tu_copy_, "%s", tu_fail_msg);                                \
            tu_reset_failures();                                                                   \
            fail_msg("%d failed check(s) off the main thread; first: %s", tu_n_, tu_copy_);        \
        }                                                                                          \
    } while (0)

/* ---- tests this environment cannot run ---------------------------------------
 * cmocka counts a skipped test as passed, and so would ctest. A test skipped
 * because of the machine (not the code) says why with tu_skip_env, and main
 * returns tu_exit_status: TU_EXIT_SKIPPED (the test's SKIP_RETURN_CODE, as
 * the peer suites use) when nothing failed but something could not run, so
 * ctest reports it skipped. Programs returning it need that property set. */
#define TU_EXIT_SKIPPED 77
static atomic_int tu_env_skips;

/* Main thread only: cmocka's skip longjmps out of the test. */
__attribute__((format(printf, 1, 2))) static inline void tu_skip_env(const char *why, ...)
{
    va_list ap;
    va_start(ap, why);
    print_message("skipped here: ");
    vprint_message(why, ap);
    print_message("\n");
    va_end(ap);
    atomic_fetch_add(&tu_env_skips, 1);
    skip();
}

static inline int tu_exit_status(int failed)
{
    return failed != 0 ? failed : atomic_load(&tu_env_skips) > 0 ? TU_EXIT_SKIPPED : 0;
}

/* Bit for bit (memcmp on doubles says the same, but reads as if it compared values). */
static inline bool tu_same_bits(double x, double y)
{
    uint64_t u, v;
    memcpy(&u, &x, sizeof u);
    memcpy(&v, &y, sizeof v);
    return u == v;
}

/* ---- random data -------------------------------------------------------------
 * A small LCG, the same on every platform, so a failing case can be rerun. Two steps a value,
 * 40 bits of it: with 16 (one step) every product and sum of the tests' sizes was exact, so two
 * paths that sum in different orders gave the same bits and a bitwise comparison could not tell
 * them apart. */
static inline double tu_uniform(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    const double high = (double)((*state >> 8) & 0xffff);
    *state = *state * 1103515245u + 12345u;
    const double low = (double)((*state >> 8) & 0xffffff);
    return (high + low / 16777216.0) / 65536.0 - 0.5;
}

/* len values of tu_uniform from seed (malloc'd, at least one element: free it). */
static inline double *tu_random_array(size_t len, unsigned seed)
{
    double *x = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(x);
    for (size_t i = 0; i < len; i++)
        x[i] = tu_uniform(&seed);
    return x;
}

/* got equals want bit for bit (NaN and the sign of zero included), else a failure naming the
 * first element that differs. */
static inline void tu_expect_same(const char *what, const double *got, const double *want,
                                  size_t len)
{
    for (size_t i = 0; i < len; i++) {
        uint64_t x, y;
        memcpy(&x, &got[i], sizeof x);
        memcpy(&y, &want[i], sizeof y);
        if (x != y)
            fail_msg("%s: element %zu is %.17g, expected %.17g", what, i, got[i], want[i]);
    }
}

/* ---- threads and time ------------------------------------------------------ */
static inline pid_t tu_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

static inline int64_t tu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void tu_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* Polls pred every millisecond until it holds or timeout_ms passed; returns
 * its last answer. Used where the library may finish work asynchronously
 * (a thread exiting after join, a hook running at worker start). */
static inline bool tu_wait_until(bool (*pred)(void *), void *arg, int timeout_ms)
{
    int64_t deadline = tu_now_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        if (pred(arg))
            return true;
        if (tu_now_ns() > deadline)
            return pred(arg);
        tu_sleep_ms(1);
    }
}

/* Waits for a child process at most timeout_ms; kills it on timeout.
 * Returns the wait status, or -1 on timeout. */
static inline int tu_waitpid_bounded(pid_t pid, int timeout_ms)
{
    int64_t deadline = tu_now_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        int status = 0;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return -1;
        if (tu_now_ns() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        tu_sleep_ms(5);
    }
}

/* ---- /proc probes for this process's threads ------------------------------- */
static inline bool tu_task_exists(pid_t tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d", (int)tid);
    return access(path, F_OK) == 0;
}

/* The thread's name as the kernel keeps it (comm), without the newline.
 * Returns false when the thread does not exist. */
static inline bool tu_task_comm(pid_t tid, char *name, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(name, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        name[strcspn(name, "\n")] = '\0';
    return ok;
}

struct tu_tid_list {
    const pid_t *tids;
    int count;
};

static bool tu_all_tasks_gone_pred(void *arg)
{
    const struct tu_tid_list *list = arg;
    for (int i = 0; i < list->count; i++)
        if (tu_task_exists(list->tids[i]))
            return false;
    return true;
}

/* True when none of the threads exists any more, waiting at most timeout_ms:
 * /proc may list a joined thread for a moment after pthread_join returns. */
static inline bool tu_wait_tasks_gone(const pid_t *tids, int count, int timeout_ms)
{
    struct tu_tid_list list = {tids, count};
    return tu_wait_until(tu_all_tasks_gone_pred, &list, timeout_ms);
}

/* ---- thread-id sets -------------------------------------------------------- */
static int tu_cmp_tid(const void *a, const void *b)
{
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return (x > y) - (x < y);
}

static inline void tu_sort_tids(pid_t *tids, int count)
{
    qsort(tids, (size_t)count, sizeof *tids, tu_cmp_tid);
}

static inline bool tu_tid_in(pid_t tid, const pid_t *set, int count)
{
    for (int i = 0; i < count; i++)
        if (set[i] == tid)
            return true;
    return false;
}

/* No thread id appears twice. */
static inline bool tu_tids_distinct(const pid_t *tids, int count)
{
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            if (tids[i] == tids[j])
                return false;
    return true;
}

/* Every id of a is in b. */
static inline bool tu_tids_subset(const pid_t *a, int na, const pid_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        if (!tu_tid_in(a[i], b, nb))
            return false;
    return true;
}

static inline bool tu_tids_same_set(const pid_t *a, int na, const pid_t *b, int nb)
{
    return na == nb && tu_tids_subset(a, na, b, nb) && tu_tids_subset(b, nb, a, na);
}

static inline bool tu_tids_disjoint(const pid_t *a, int na, const pid_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        if (tu_tid_in(a[i], b, nb))
            return false;
    return true;
}

/* ---- a region that reports who ran it --------------------------------------
 * Each member stores its kernel thread id and pthread handle by rank; rank 0
 * is the caller, ranks 1.. are the team's workers. */
struct tu_members {
    int width;                     /* tela_width seen by the members */
    atomic_int runs[TU_MAX_WIDTH]; /* how often each rank ran */
    pid_t tid[TU_MAX_WIDTH];
    pthread_t self[TU_MAX_WIDTH];
};

static void tu_members_body(tela_member *self, void *arg)
{
    struct tu_members *m = arg;
    int rank = tela_rank(self);
    int width = tela_width(self);
    TU_CHECK(rank >= 0 && rank < width && width <= TU_MAX_WIDTH);
    if (rank < 0 || rank >= TU_MAX_WIDTH)
        return;
    atomic_fetch_add(&m->runs[rank], 1);
    m->tid[rank] = tu_gettid();
    m->self[rank] = pthread_self();
    if (rank == 0)
        m->width = width;
}

/* Runs the reporting region at width under par; returns tela_parallel's
 * result and checks each rank below it ran exactly once. */
static inline int tu_collect_members(tela_par par, int width, struct tu_members *m)
{
    memset(m, 0, sizeof *m);
    int used = tela_parallel(par, width, tu_members_body, m);
    for (int r = 0; r < TU_MAX_WIDTH; r++)
        TU_CHECK(atomic_load(&m->runs[r]) == (used > 0 && r < used ? 1 : 0));
    if (used > 0)
        TU_CHECK(m->width == used);
    return used;
}

/* The worker thread ids of a region collected above (ranks 1..used-1). */
static inline int tu_worker_tids(const struct tu_members *m, int used, pid_t *out)
{
    for (int r = 1; r < used; r++)
        out[r - 1] = m->tid[r];
    return used > 1 ? used - 1 : 0;
}

/* ---- a region of barrier-separated sections ---------------------------------
 * In section s every member writes a value depending on (s, rank) into its
 * slot, waits at the barrier, then reads every other member's slot of section
 * s. A barrier that lets a member leave before all have written shows up as a
 * stale value. Slots alternate between two rows: a member can only write row
 * s%2 again in section s+2, after everyone passed barrier s+1, i.e. after
 * everyone finished reading section s. The slots are plain ints on purpose:
 * under TSan, a barrier without the right happens-before edge is a report. */
struct tu_sections {
    int sections;
    pthread_t caller;
    int slots[2][TU_MAX_WIDTH];
    int width_of[TU_MAX_WIDTH]; /* tela_width as seen by each rank */
    atomic_int runs[TU_MAX_WIDTH];
    atomic_int arrivals; /* members that reached a barrier, all sections */
};

static inline int tu_section_value(int section, int rank)
{
    return section * 977 + rank * 13 + 1;
}

/* The section loop alone, for bodies that wrap it. */
static inline void tu_sections_loop(tela_member *self, struct tu_sections *c)
{
    int rank = tela_rank(self);
    int width = tela_width(self);
    for (int s = 0; s < c->sections; s++) {
        c->slots[s & 1][rank] = tu_section_value(s, rank);
        atomic_fetch_add_explicit(&c->arrivals, 1, memory_order_relaxed);
        tela_barrier(self);
        int arrived = atomic_load_explicit(&c->arrivals, memory_order_relaxed);
        /* Everyone arrived at barrier s; nobody can be past barrier s+1. */
        TU_CHECK(arrived >= (s + 1) * width && arrived <= (s + 2) * width);
        for (int j = 0; j < width; j++)
            TU_CHECK(c->slots[s & 1][j] == tu_section_value(s, j));
    }
}

static void tu_sections_body(tela_member *self, void *arg)
{
    struct tu_sections *c = arg;
    int rank = tela_rank(self);
    int width = tela_width(self);
    TU_CHECK(width >= 1 && width <= TU_MAX_WIDTH && rank >= 0 && rank < width);
    if (width < 1 || width > TU_MAX_WIDTH || rank < 0 || rank >= width)
        return;
    atomic_fetch_add(&c->runs[rank], 1);
    c->width_of[rank] = width;
    if (rank == 0)
        TU_CHECK(pthread_equal(pthread_self(), c->caller));
    tu_sections_loop(self, c);
}

/* Prepares c for a region of `sections` sections run by this thread. */
static inline void tu_sections_init(struct tu_sections *c, int sections)
{
    memset(c, 0, sizeof *c);
    c->sections = sections;
    c->caller = pthread_self();
}

/* After the region returned `used`: each rank below it ran once, saw that
 * width and arrived at every barrier; no rank above it ran. */
static inline void tu_sections_verify(struct tu_sections *c, int used)
{
    TU_CHECK(used >= 1 && used <= TU_MAX_WIDTH);
    if (used < 1 || used > TU_MAX_WIDTH)
        return;
    for (int r = 0; r < TU_MAX_WIDTH; r++)
        TU_CHECK(atomic_load(&c->runs[r]) == (r < used ? 1 : 0));
    for (int r = 0; r < used; r++)
        TU_CHECK(c->width_of[r] == used);
    TU_CHECK(atomic_load(&c->arrivals) == used * c->sections);
}

/* Runs a checked region of sections; returns tela_parallel's result. */
static inline int tu_run_sections(tela_par par, int width, int sections)
{
    struct tu_sections c;
    tu_sections_init(&c, sections);
    int used = tela_parallel(par, width, tu_sections_body, &c);
    tu_sections_verify(&c, used);
    return used;
}

/* Pool with default settings (its workers come from the reserve). */
static inline tela_pool *tu_pool_of_width(int width)
{
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = width;
    return tela_pool_create(&opts);
}

static inline void tu_pin_worker_hook(int index, void *arg)
{
    (void)index;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(*(const int *)arg, &set);
    sched_setaffinity(0, sizeof set, &set);
}

/* A dedicated pool of width 2 whose worker runs on the second CPU of the
 * caller's affinity mask (*worker_cpu, which must outlive the pool's
 * start), the caller pinned to the first: members that never share a CPU.
 * *saved: the mask to restore. NULL, *worker_cpu -1, when the mask has
 * one CPU. */
static inline tela_pool *tu_pool_pinned_pair(cpu_set_t *saved, int *worker_cpu)
{
    int caller_cpu = -1;
    *worker_cpu = -1;
    if (sched_getaffinity(0, sizeof *saved, saved) != 0)
        return NULL;
    for (int cpu = 0; cpu < CPU_SETSIZE && *worker_cpu < 0; cpu++)
        if (CPU_ISSET(cpu, saved))
            *(caller_cpu < 0 ? &caller_cpu : worker_cpu) = cpu;
    if (*worker_cpu < 0)
        return NULL;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(caller_cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        return NULL;
    tela_pool_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.width = 2;
    opts.start_hook = tu_pin_worker_hook;
    opts.start_hook_arg = worker_cpu;
    return tela_pool_create(&opts);
}

static inline tela_stats tu_stats(void)
{
    tela_stats s;
    memset(&s, 0, sizeof s);
    tela_get_stats(&s);
    return s;
}

#endif /* TELA_TESTUTIL_H */
