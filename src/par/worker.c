/* worker.c — the worker thread: wait for a wake, run a region, repeat.
 *
 * A worker owns its three wait words, so once it has arrived at a region's
 * final barrier it touches no team or pool memory again: the team can be
 * released and the worker handed to another pool at once. */
#include "par/par.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Thread_local par_worker *self_worker;

par_worker *par_worker_self(void)
{
    return self_worker;
}

/* On this project's VMs (docs/team.md) a worker woken from sleep lands on
 * its waker's CPU, and the two then stay there: the worker, seeing its
 * waker on its CPU, sleeps instead of spinning, so every later wake packs
 * it again and the two take turns while the other CPU idles (an empty
 * region costs ~5 us instead of ~1, a 20 us one twice its time). Moving off
 * costs 0.1-1.3 ms, so a worker moves after that much time spent packed in
 * a stream of regions (each within PACKED_GAP_NS of the last); the time
 * needed doubles after each move, so a scheduler that keeps packing us
 * costs a bounded share. A pre-wake (tela_team_prewake) says a region is
 * near: a worker it finds packed moves at once, while its caller works. */
#define PACKED_MOVE_FIRST_NS 3.0e5 /* packed time in a stream before a move */
#define PACKED_MOVE_MOST_NS  1.0e8 /* the most asked for after repeated moves */
#define PACKED_GAP_NS        1.0e6 /* regions further apart break a stream */
enum { PACKED_MIN_REGIONS = 4 };   /* and at least this many packed regions */

typedef struct packing {
    int regions;          /* packed regions in the current streak */
    double start_ns;      /* end of its first packed region */
    double last_ns;       /* end of its last packed region */
    double move_after_ns; /* streak length at which we move */
} packing;

void par_worker_move_off(par_worker *self, int here)
{
    /* While we move, our waker must not take our old CPU for ours: it
     * would sleep waiting for us, and our wake would pull it to our new
     * CPU (packing us again). */
    atomic_store_explicit(&self->cpu, -1, memory_order_relaxed);
    if (par_affinity_leave_cpu(here))
        atomic_fetch_add_explicit(&par_stat_unpacked, 1, memory_order_relaxed);
    par_publish_cpu(&self->cpu);
}

/* Called after each region; the clock is read only when packed, where the
 * region already paid two system calls. */
static void packing_after_region(par_worker *self, packing *p, int waker_cpu, bool oversubscribed)
{
    int here = par_current_cpu();
    if (oversubscribed || here < 0 || here != waker_cpu) {
        p->regions = 0;
        return;
    }
    double now = par_monotonic_ns();
    if (now - p->last_ns > PACKED_GAP_NS)
        p->move_after_ns = PACKED_MOVE_FIRST_NS; /* a quiet spell: start afresh */
    if (p->regions == 0 || now - p->last_ns > PACKED_GAP_NS) {
        p->regions = 0;
        p->start_ns = now;
    }
    p->last_ns = now;
    if (++p->regions < PACKED_MIN_REGIONS || now - p->start_ns < p->move_after_ns)
        return;
    p->regions = 0;
    if (p->move_after_ns < PACKED_MOVE_MOST_NS)
        p->move_after_ns *= 2;
    par_worker_move_off(self, here);
}

/* Woken without a region: a pre-wake. */
static void packing_after_prewake(par_worker *self, int waker_cpu)
{
    int here = par_current_cpu();
    if (here >= 0 && here == waker_cpu)
        par_worker_move_off(self, here);
}

static void *worker_main(void *arg)
{
    par_worker *self = arg;
    self_worker = self;
    atomic_fetch_add_explicit(&par_workers_awake, 1, memory_order_relaxed);
    par_placement_init_self(self);
#if defined(__linux__)
    if (self->thread_name)
        pthread_setname_np(pthread_self(), self->thread_name);
#endif
    if (self->start_hook)
        self->start_hook(self->index, self->start_hook_arg);
    (void)par_scratch_reserve();
    if (self->started)
        (void)par_word_bump(self->started);

    unsigned spin = par_spin_polls();
    /* 0 is the value at spawn: a wake that came before this thread ran is
     * not lost. */
    uint32_t seen = 0;
    /* Where our waker last ran; a spin on its CPU would only delay it. */
    _Atomic int waker_cpu = -1;
    packing packed = {0, 0.0, 0.0, PACKED_MOVE_FIRST_NS};
    for (;;) {
        uint32_t now_seen = par_word_wait_change_once(&self->wake.word, seen, spin, &waker_cpu);
        if (now_seen == seen) {
            if (spin > PAR_SPIN_POLLS_OVERSUBSCRIBED)
                packing_after_prewake(self, atomic_load_explicit(&waker_cpu, memory_order_relaxed));
            continue;
        }
        seen = now_seen;
        /* acquire (in the wait): command, team and rank were written before
         * the bump that woke us. */
        if (atomic_load_explicit(&self->command, memory_order_relaxed) == PAR_CMD_RETIRE)
            break;
        int cpu = -1;
        spin = par_region_member(self, &cpu);
        atomic_store_explicit(&waker_cpu, cpu, memory_order_relaxed);
        packing_after_region(self, &packed, cpu, spin == PAR_SPIN_POLLS_OVERSUBSCRIBED);
    }
    atomic_fetch_sub_explicit(&par_workers_awake, 1, memory_order_relaxed);
    if (self->detach_on_retire)
        par_worker_free(self);
    return NULL;
}

par_worker *par_worker_spawn(size_t stack_size, const char *thread_name,
                             void (*start_hook)(int, void *), void *start_hook_arg, int index,
                             par_word *started)
{
    par_worker *w = aligned_alloc(PAR_CACHE_LINE, sizeof(par_worker));
    if (!w)
        return NULL;
    memset(w, 0, sizeof *w);
    atomic_init(&w->stat_fd, -1);
    atomic_init(&w->command, PAR_CMD_REGION);
    w->index = index;
    w->thread_name = thread_name;
    w->start_hook = start_hook;
    w->start_hook_arg = start_hook_arg;
    w->started = started;

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (stack_size)
        pthread_attr_setstacksize(&attr, stack_size);
    int rc = pthread_create(&w->thread, &attr, worker_main, w);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(w);
        return NULL;
    }
    atomic_fetch_add(&par_stat_spawned, 1);
    par_registry_add(w);
    return w;
}

void par_worker_retire(par_worker *worker)
{
    bool is_self = pthread_equal(worker->thread, pthread_self());
    par_registry_remove(worker);
    worker->detach_on_retire = is_self;
    atomic_store_explicit(&worker->command, PAR_CMD_RETIRE, memory_order_relaxed);
    /* The bump is a release: the worker sees the command after waking. */
    (void)par_word_bump(&worker->wake.word);
    if (is_self) {
        /* We are that worker (a pool destroyed from its own thread): it exits
         * when this call returns to its loop, and frees itself. */
        pthread_detach(worker->thread);
        return;
    }
    pthread_join(worker->thread, NULL);
    atomic_fetch_add(&par_stat_joined, 1);
    par_worker_free(worker);
}

void par_worker_free(par_worker *worker)
{
    par_placement_close(worker);
    free(worker);
}
