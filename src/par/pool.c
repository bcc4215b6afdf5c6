/* pool.c — building and destroying pools.
 *
 * A default pool borrows its workers from the reserve (spawning only what is
 * missing) and returns them on destroy; a pool with custom thread settings
 * spawns its own and joins them. Destroying a pool that still has a team
 * leased is deferred to that team's release, so it can be called from a
 * region running on the pool without waiting for itself. */
#include "par/par.h"

#include <stdlib.h>
#include <string.h>

static void pool_free(tela_pool *pool)
{
    for (int i = 0; i < pool->width; i++) {
        if (pool->slots[i]) {
            par_workspace_retire(pool->slots[i]->workspace, pool->slots[i]->workspace_size);
            free(pool->slots[i]);
        }
    }
    tela_team *t = pool->overflow_all;
    while (t) {
        tela_team *next = t->next_overflow;
        par_workspace_retire(t->workspace, t->workspace_size);
        free(t);
        t = next;
    }
    pthread_mutex_destroy(&pool->overflow_lock);
    free(pool->slots);
    free((void *)pool->slot_used);
    free((void *)pool->free_mask);
    free(pool->workers);
    free(pool->thread_name);
    if (!pool->keep_struct)
        free(pool);
}

/* Gives the workers away: to the reserve, or to pthread_join when the pool
 * is dedicated. Every worker has left its region loop: no team is leased,
 * and a worker touches only its own words after its final arrival. */
static void pool_release_workers(tela_pool *pool)
{
    if (pool->dedicated) {
        for (int i = 0; i < pool->nworkers; i++)
            par_worker_retire(pool->workers[i]);
    } else {
        par_reserve_give(pool->workers, pool->nworkers);
    }
    pool->nworkers = 0;
}

void par_pool_finish_if_idle(tela_pool *pool)
{
    if (!atomic_load(&pool->destroy_pending) || atomic_load(&pool->leases) != 0)
        return;
    if (atomic_exchange(&pool->finished, 1))
        return;
    /* A reader of the default pool may still be on its way to lease: empty
     * the free masks first so it finds no worker, then sees destroy_pending. */
    for (int i = 0; i < pool->mask_words; i++)
        atomic_store(&pool->free_mask[i], 0);
    pool_release_workers(pool);
    /* The default pool's struct outlives this (keep_struct): a reader that
     * loaded the pointer still reads destroy_pending and leases. */
    pool_free(pool);
}

static int pool_spawn_dedicated(tela_pool *pool, size_t stack_size, void (*hook)(int, void *),
                                void *hook_arg)
{
    int n = 0;
    for (; n < pool->nworkers; n++) {
        pool->workers[n] =
            par_worker_spawn(stack_size, pool->thread_name, hook, hook_arg, n, &pool->started);
        if (!pool->workers[n])
            break;
    }
    /* Start hooks have run and thread_name was read once this returns, so
     * the caller may rely on its hook's effects. The word lives in the pool,
     * which outlives the workers' last touch of it (they are joined). */
    uint32_t seen;
    while ((seen = atomic_load(&pool->started.value)) != (uint32_t)n)
        par_word_wait_change(&pool->started, seen, par_spin_polls(), NULL);
    return n;
}

static int pool_take_default(tela_pool *pool)
{
    int reused = par_reserve_take(pool->workers, pool->nworkers);
    /* A reused worker gets our CPU set, as a thread we spawned would. */
    par_affinity_copy_to(pool->workers, reused);
    int n = reused;
    for (; n < pool->nworkers; n++) {
        pool->workers[n] = par_worker_spawn(0, NULL, NULL, NULL, n, NULL);
        if (!pool->workers[n])
            break;
    }
    for (int i = 0; i < n; i++)
        pool->workers[i]->index = i;
    return n;
}

tela_pool *par_pool_create(const tela_pool_opts *opts, bool keep_struct)
{
    par_reserve_init_once();
    int width = (opts && opts->width > 0) ? opts->width : par_cpu_count();
    tela_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->width = width;
    pool->nworkers = width - 1;
    pool->keep_struct = keep_struct;
    pool->fork_generation = par_fork_generation();
    pool->dedicated = opts && (opts->thread_name || opts->stack_size || opts->start_hook);
    pool->mask_words = (pool->nworkers + 63) / 64;
    if (pool->mask_words == 0)
        pool->mask_words = 1;
    pthread_mutex_init(&pool->overflow_lock, NULL);
    pool->workers = calloc((size_t)width, sizeof(par_worker *));
    pool->free_mask = calloc((size_t)pool->mask_words, sizeof *pool->free_mask);
    pool->slots = calloc((size_t)width, sizeof(tela_team *));
    pool->slot_used = calloc((size_t)width, sizeof *pool->slot_used);
    if (opts && opts->thread_name) {
        pool->thread_name = calloc(16, 1);
        if (pool->thread_name)
            strncpy(pool->thread_name, opts->thread_name, 15);
    }
    if (!pool->workers || !pool->free_mask || !pool->slots || !pool->slot_used ||
        (opts && opts->thread_name && !pool->thread_name)) {
        pool->keep_struct = false;
        pool_free(pool);
        return NULL;
    }

    par_reserve_note_width(width);
    int got = pool->dedicated && opts ? pool_spawn_dedicated(pool, opts->stack_size,
                                                             opts->start_hook, opts->start_hook_arg)
                                      : pool_take_default(pool);
    if (got < pool->nworkers) {
        pool->nworkers = got;
        pool_release_workers(pool);
        pool->keep_struct = false;
        pool_free(pool);
        return NULL;
    }
    for (int i = 0; i < pool->nworkers; i++)
        atomic_fetch_or(&pool->free_mask[i / 64], UINT64_C(1) << (i % 64));
    return pool;
}

tela_pool *tela_pool_create(const tela_pool_opts *opts)
{
    if (opts && opts->width < 0) {
        par_error(TELA_EINVAL, "tela_pool_create", "width must be >= 0 (0 = default)");
        return NULL;
    }
    tela_pool *pool = par_pool_create(opts, false);
    if (!pool)
        par_error(TELA_ENOMEM, "tela_pool_create", "could not allocate the pool or its threads");
    return pool;
}

void tela_pool_destroy(tela_pool *pool)
{
    if (!pool)
        return;
    if (pool->fork_generation != par_fork_generation()) {
        /* Built before a fork: its threads do not exist in this process.
         * Free the memory; the worker structs are unreachable garbage. */
        if (!atomic_exchange(&pool->finished, 1)) {
            for (int i = 0; i < pool->nworkers; i++)
                par_worker_free(pool->workers[i]);
            pool->nworkers = 0;
            pool_free(pool);
        }
        return;
    }
    if (atomic_exchange(&pool->destroy_pending, 1)) {
        par_error(TELA_ESTATE, "tela_pool_destroy", "pool destroyed twice");
        return;
    }
    par_pool_finish_if_idle(pool);
}

int tela_pool_width(const tela_pool *pool)
{
    if (!pool) {
        par_error(TELA_EINVAL, "tela_pool_width", "pool is NULL");
        return -1;
    }
    return pool->width;
}
