/* worker.c — the worker thread: wait for a wake, run a region, repeat.
 *
 * A worker owns its three wait words, so once it has arrived at a region's
 * final barrier it touches no team or pool memory again: the team can be
 * released and the worker handed to another pool at once. */
#include "par/par.h"

#include <stdlib.h>
#include <string.h>

static _Thread_local par_worker *self_worker;

par_worker *par_worker_self(void)
{
    return self_worker;
}

static void *worker_main(void *arg)
{
    par_worker *self = arg;
    self_worker = self;
#if defined(__linux__)
    if (self->thread_name)
        pthread_setname_np(pthread_self(), self->thread_name);
#endif
    if (self->start_hook)
        self->start_hook(self->index, self->start_hook_arg);
    if (self->started)
        (void)par_word_bump(self->started);

    unsigned spin = par_spin_polls();
    /* 0 is the value at spawn: a wake that came before this thread ran is
     * not lost. */
    uint32_t seen = 0;
    /* Where our waker last ran; a spin on its CPU would only delay it. */
    _Atomic int waker_cpu = -1;
    for (;;) {
        seen = par_word_wait_change(&self->wake.word, seen, spin, &waker_cpu);
        /* acquire (in the wait): command, team and rank were written before
         * the bump that woke us. */
        if (atomic_load_explicit(&self->command, memory_order_relaxed) == PAR_CMD_RETIRE)
            break;
        int cpu = -1;
        spin = par_region_member(self, &cpu);
        atomic_store_explicit(&waker_cpu, cpu, memory_order_relaxed);
    }
    if (self->detach_on_retire)
        free(self);
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
    free(worker);
}
