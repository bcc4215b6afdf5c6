/* wait.c — how members wait: a bounded spin of polls, then sleep.
 *
 * Spinning buys wake latency with CPU; the count of polls bounds it (a count,
 * not a clock, so it costs no timer reads). After the spin the waiter sleeps
 * on a futex (Linux) or a condition variable (elsewhere); never sched_yield. */
#include "par/par.h"

#include <limits.h>
#include <time.h>
#include <sched.h>
#include <stdlib.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

#if defined(__linux__)
static void word_sleep(par_word *word, uint32_t seen)
{
    /* Returns at once if the word no longer holds seen: no lost wake-up. */
    syscall(SYS_futex, &word->value, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void word_wake_all(par_word *word)
{
    syscall(SYS_futex, &word->value, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
#else
/* Off Linux: a small table of mutex/condition pairs, hashed by address.
 * Sleeping is the slow path; sharing a pair only costs spurious wake-ups. */
#define PARK_BUCKETS 64
static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
} park[PARK_BUCKETS];
static pthread_once_t park_once = PTHREAD_ONCE_INIT;

static void park_init(void)
{
    for (int i = 0; i < PARK_BUCKETS; i++) {
        pthread_mutex_init(&park[i].lock, NULL);
        pthread_cond_init(&park[i].cond, NULL);
    }
}

static unsigned park_bucket(par_word *word)
{
    return (unsigned)(((uintptr_t)word / PAR_CACHE_LINE) % PARK_BUCKETS);
}

static void word_sleep(par_word *word, uint32_t seen)
{
    pthread_once(&park_once, park_init);
    unsigned b = park_bucket(word);
    pthread_mutex_lock(&park[b].lock);
    if (atomic_load(&word->value) == seen)
        pthread_cond_wait(&park[b].cond, &park[b].lock);
    pthread_mutex_unlock(&park[b].lock);
}

static void word_wake_all(par_word *word)
{
    pthread_once(&park_once, park_init);
    unsigned b = park_bucket(word);
    pthread_mutex_lock(&park[b].lock);
    pthread_cond_broadcast(&park[b].cond);
    pthread_mutex_unlock(&park[b].lock);
}
#endif

/* Polls between two looks at the peer's CPU (sched_getcpu reads the rseq
 * area, a few ns, but the spin should stay a tight load loop). */
#define PEER_CHECK_POLLS 16

int par_current_cpu(void)
{
#if defined(__linux__)
    return sched_getcpu();
#else
    return -1;
#endif
}

static inline bool peer_on_our_cpu(const _Atomic int *peer_cpu)
{
    if (!peer_cpu)
        return false;
    int peer = atomic_load_explicit(peer_cpu, memory_order_relaxed);
    /* cppcheck-suppress incorrectLogicOperator ; it takes the -1 of builds without sched_getcpu */
    return peer >= 0 && peer == par_current_cpu();
}

/* Up to spin_polls polls until the word differs from value (a wait for a
 * change) or equals it (a wait for equality), stopping early when the peer
 * runs on our CPU or, every load_every polls, when the machine runs more
 * threads than it has CPUs (load_every is at least PAR_SPIN_POLLS_MIN:
 * short spins never look). Returns the last value read. poll_ns times this
 * same loop, so a budget in ns turns into the polls it takes. */
static uint32_t spin_loop(par_word *word, uint32_t value, bool until_equal, unsigned spin_polls,
                          const _Atomic int *peer_cpu, unsigned load_every)
{
    unsigned load_check = load_every;
    for (unsigned i = 0; i < spin_polls; i++) {
        /* acquire: what the storer wrote before its store is visible. */
        uint32_t v = atomic_load_explicit(&word->value, memory_order_acquire);
        if ((v == value) == until_equal)
            return v;
        if (i % PEER_CHECK_POLLS == PEER_CHECK_POLLS - 1 && peer_on_our_cpu(peer_cpu))
            break;
        if (i == load_check) {
            if (par_machine_oversubscribed())
                break;
            load_check += load_every;
        }
        cpu_relax();
    }
    return atomic_load_explicit(&word->value, memory_order_acquire);
}

static _Atomic unsigned spin_polls_setting, load_check_setting;
static pthread_once_t spin_once = PTHREAD_ONCE_INIT;

/* The default budget is a time (PAR_SPIN_NS_DEFAULT) turned into polls once, at start-up, since
 * a pause's length differs several-fold between CPUs. The spin loop itself never reads a clock.
 * What is timed is that loop with its load and peer checks, never the pause alone (docs/team.md,
 * "Waiting"). */
static double poll_ns(void)
{
    /* The fastest of several samples: a core waking from idle runs its first pauses slowly, and
     * a preempted sample is long, both of which would shorten the budget (docs/team.md,
     * "Waiting"). */
    enum { SAMPLES = 8, SAMPLE_POLLS = 2048 };
    par_word still = {0};
    /* A CPU no thread runs on: each peer check reads ours, as a spin does. */
    const _Atomic int nowhere = INT_MAX;
    double per_poll = 1e9;
    for (int s = 0; s < SAMPLES; s++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        (void)spin_loop(&still, 0, false, SAMPLE_POLLS, &nowhere, UINT_MAX);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
        if (ns / SAMPLE_POLLS < per_poll)
            per_poll = ns / SAMPLE_POLLS;
    }
    return per_poll < 1.0 ? 1.0 : per_poll; /* no pause instruction: a load loop */
}

static unsigned polls_for(double ns, double per_poll)
{
    double polls = ns / per_poll;
    if (polls < PAR_SPIN_POLLS_MIN)
        polls = PAR_SPIN_POLLS_MIN;
    if (polls > PAR_SPIN_POLLS_MAX)
        polls = PAR_SPIN_POLLS_MAX;
    return (unsigned)polls;
}

static void spin_polls_init(void)
{
    /* Opens the load's file now, outside any region (spin_loop reads it). */
    (void)par_runnable_threads();
    const double per_poll = poll_ns();
    atomic_store_explicit(&load_check_setting, polls_for(PAR_LOAD_CHECK_NS, per_poll),
                          memory_order_relaxed);
    unsigned polls = polls_for(PAR_SPIN_NS_DEFAULT, per_poll);
    const char *env = getenv("TELA_SPIN_POLLS");
    if (env && *env) {
        char *end;
        unsigned long v = strtoul(env, &end, 10);
        if (*end == '\0' && v <= UINT_MAX / 2)
            polls = (unsigned)v;
    }
    atomic_store_explicit(&spin_polls_setting, polls, memory_order_relaxed);
}

unsigned par_spin_polls(void)
{
    pthread_once(&spin_once, spin_polls_init);
    return atomic_load_explicit(&spin_polls_setting, memory_order_relaxed);
}

unsigned par_load_check_polls(void)
{
    pthread_once(&spin_once, spin_polls_init);
    return atomic_load_explicit(&load_check_setting, memory_order_relaxed);
}

/* A worker's count in par_workers_awake around a sleep: out before it,
 * back after it unless its waker counted it already (region.c). Reads of
 * the count are a heuristic's: a worker woken twice at once may count
 * twice until its next sleep, which evens it out. */
static void worker_falls_asleep(const par_worker *self)
{
    if (self)
        atomic_fetch_sub_explicit(&par_workers_awake, 1, memory_order_relaxed);
}

static void worker_wakes(par_worker *self)
{
    if (self && !atomic_exchange_explicit(&self->awake_counted, false, memory_order_relaxed))
        atomic_fetch_add_explicit(&par_workers_awake, 1, memory_order_relaxed);
}

/* Sleeps until the word leaves seen. The sleepers count and the value are
 * both seq_cst so that a store either sees our count or we see its value
 * (the store side does the mirror image in word_wake_if_sleepers). */
static uint32_t sleep_while_equal(par_word *word, uint32_t seen)
{
    par_worker *self = par_worker_self();
    worker_falls_asleep(self);
    atomic_fetch_add(&word->sleepers, 1);
    uint32_t v;
    while ((v = atomic_load(&word->value)) == seen)
        word_sleep(word, seen);
    atomic_fetch_sub(&word->sleepers, 1);
    worker_wakes(self);
    return v;
}

void par_publish_cpu(_Atomic int *cpu)
{
    int now = par_current_cpu();
    if (atomic_load_explicit(cpu, memory_order_relaxed) != now)
        atomic_store_explicit(cpu, now, memory_order_relaxed);
}

/* One futex sleep while the word holds seen; returns the value after it
 * (still seen after a nudge or a spurious wake). */
static uint32_t sleep_once(par_word *word, uint32_t seen)
{
    par_worker *self = par_worker_self();
    worker_falls_asleep(self);
    atomic_fetch_add(&word->sleepers, 1);
    if (atomic_load(&word->value) == seen)
        word_sleep(word, seen);
    atomic_fetch_sub(&word->sleepers, 1);
    worker_wakes(self);
    return atomic_load_explicit(&word->value, memory_order_acquire);
}

uint32_t par_word_wait_change_once(par_word *word, uint32_t old, unsigned spin_polls,
                                   const _Atomic int *peer_cpu)
{
    uint32_t v = spin_loop(word, old, false, spin_polls, peer_cpu, par_load_check_polls());
    return v != old ? v : sleep_once(word, old);
}

uint32_t par_word_wait_change(par_word *word, uint32_t old, unsigned spin_polls,
                              const _Atomic int *peer_cpu)
{
    /* A wake that leaves the word unchanged is a nudge (tela_team_prewake):
     * the next change is near, so spin for it again. Each spin needs a new
     * wake from outside, so this loop does not busy-wait unbounded. */
    uint32_t v;
    while ((v = par_word_wait_change_once(word, old, spin_polls, peer_cpu)) == old)
        ;
    return v;
}

void par_word_wait_equal(par_word *word, uint32_t want, unsigned spin_polls,
                         const _Atomic int *peer_cpu)
{
    uint32_t v = spin_loop(word, want, true, spin_polls, peer_cpu, par_load_check_polls());
    /* Sleep until the value moves from v, then look again: the word can
     * pass through other values before reaching want. */
    while (v != want)
        v = sleep_while_equal(word, v);
}

static bool word_wake_if_sleepers(par_word *word)
{
    if (atomic_load(&word->sleepers) == 0)
        return false;
    word_wake_all(word);
    return true;
}

bool par_word_nudge(par_word *word)
{
    return word_wake_if_sleepers(word);
}

void par_word_store(par_word *word, uint32_t value)
{
    atomic_store(&word->value, value);
    (void)word_wake_if_sleepers(word);
}

bool par_word_bump(par_word *word)
{
    atomic_fetch_add(&word->value, 1);
    return word_wake_if_sleepers(word);
}
