/* reserve.c — the process-wide set of idle workers, and fork handling.
 *
 * Pools with default settings take their workers from here and give them
 * back on destroy, so a pool built per call spawns no thread. The reserve
 * keeps at most max(CPUs the process may use, widest pool built so far)
 * idle workers; surplus ones are joined outside the lock. Its lock is taken
 * only when pools are built or destroyed, never on a region's path. */
#include "par/par.h"

#include <stdlib.h>

_Atomic long par_stat_spawned;
_Atomic long par_stat_unpacked;
_Atomic long par_stat_reused;
_Atomic long par_stat_joined;

static struct {
    pthread_mutex_t lock;
    par_worker *idle; /* stack of idle workers, linked through next */
    long idle_count;
    long cap;             /* most idle workers kept */
    par_worker *all;      /* every live worker, for tela_get_stats */
    long retired_regions; /* regions_run of workers already gone */
} reserve = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, NULL, 0};

/* A forked child has no worker threads: everything from before the fork that
 * names a thread is dead there. Pools compare their generation with this. */
static _Atomic unsigned fork_generation;
static pthread_once_t reserve_once = PTHREAD_ONCE_INIT;

static void before_fork(void)
{
    pthread_mutex_lock(&reserve.lock);
}

static void after_fork_parent(void)
{
    pthread_mutex_unlock(&reserve.lock);
}

static void after_fork_child(void)
{
    /* The idle workers' threads do not exist in the child; their structs are
     * ours to free since no thread can touch them. */
    par_worker *w = reserve.idle;
    while (w) {
        par_worker *next = w->next;
        par_worker_free(w);
        w = next;
    }
    reserve.idle = NULL;
    reserve.idle_count = 0;
    /* Workers held by pools are unreachable now; the registry forgets them. */
    reserve.all = NULL;
    reserve.retired_regions = 0;
    atomic_store(&par_stat_spawned, 0);
    atomic_store(&par_stat_reused, 0);
    atomic_store(&par_stat_joined, 0);
    atomic_store(&par_stat_unpacked, 0);
    atomic_store(&par_workers_awake, 0); /* no worker runs in the child */
    atomic_fetch_add(&fork_generation, 1);
    pthread_mutex_init(&reserve.lock, NULL);
}

static void reserve_init(void)
{
    reserve.cap = par_cpu_count();
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

void par_reserve_init_once(void)
{
    pthread_once(&reserve_once, reserve_init);
}

unsigned par_fork_generation(void)
{
    return atomic_load_explicit(&fork_generation, memory_order_relaxed);
}

void par_reserve_note_width(int width)
{
    par_reserve_init_once();
    pthread_mutex_lock(&reserve.lock);
    if (width > reserve.cap)
        reserve.cap = width;
    pthread_mutex_unlock(&reserve.lock);
}

int par_reserve_take(par_worker **out, int count)
{
    par_reserve_init_once();
    int taken = 0;
    pthread_mutex_lock(&reserve.lock);
    while (taken < count && reserve.idle) {
        par_worker *w = reserve.idle;
        reserve.idle = w->next;
        reserve.idle_count--;
        w->next = NULL;
        out[taken++] = w;
    }
    pthread_mutex_unlock(&reserve.lock);
    atomic_fetch_add(&par_stat_reused, taken);
    return taken;
}

void par_reserve_give(par_worker **workers, int count)
{
    par_reserve_init_once();
    par_worker *surplus = NULL;
    pthread_mutex_lock(&reserve.lock);
    for (int i = 0; i < count; i++) {
        par_worker *w = workers[i];
        if (reserve.idle_count < reserve.cap) {
            w->next = reserve.idle;
            reserve.idle = w;
            reserve.idle_count++;
        } else {
            w->next = surplus;
            surplus = w;
        }
    }
    pthread_mutex_unlock(&reserve.lock);
    /* Joining waits for a thread to exit: never under the lock. */
    while (surplus) {
        par_worker *next = surplus->next;
        par_worker_retire(surplus);
        surplus = next;
    }
}

void par_registry_add(par_worker *worker)
{
    par_reserve_init_once();
    pthread_mutex_lock(&reserve.lock);
    worker->all_prev = NULL;
    worker->all_next = reserve.all;
    if (reserve.all)
        reserve.all->all_prev = worker;
    reserve.all = worker;
    pthread_mutex_unlock(&reserve.lock);
}

void par_registry_remove(par_worker *worker)
{
    pthread_mutex_lock(&reserve.lock);
    if (worker->all_prev)
        worker->all_prev->all_next = worker->all_next;
    else
        reserve.all = worker->all_next;
    if (worker->all_next)
        worker->all_next->all_prev = worker->all_prev;
    reserve.retired_regions += atomic_load_explicit(&worker->regions_run, memory_order_relaxed);
    pthread_mutex_unlock(&reserve.lock);
}

void tela_get_stats(tela_stats *stats)
{
    if (!stats) {
        par_error(TELA_EINVAL, "tela_get_stats", "stats is NULL");
        return;
    }
    par_reserve_init_once();
    pthread_mutex_lock(&reserve.lock);
    stats->reserve_idle = reserve.idle_count;
    stats->reserve_cap = reserve.cap;
    long regions = reserve.retired_regions;
    for (par_worker *w = reserve.all; w; w = w->all_next)
        regions += atomic_load_explicit(&w->regions_run, memory_order_relaxed);
    pthread_mutex_unlock(&reserve.lock);
    stats->region_wakeups = regions;
    stats->spawned_workers = atomic_load(&par_stat_spawned);
    stats->reused_workers = atomic_load(&par_stat_reused);
    stats->joined_workers = atomic_load(&par_stat_joined);
    stats->cpu_moves = atomic_load(&par_stat_unpacked);
}
