/* team.c — leasing a team of workers from a pool, and the team API.
 *
 * Leasing is lock-free: free workers are bits in the pool's masks, claimed
 * with compare-and-swap, and team structs come from a per-pool slot array
 * (a mutex guards only the overflow list, used when more teams than the
 * pool's width are out at once). A caller that finds no free worker gets a
 * team of width 1 and runs alone: never a wait, never a deadlock. */
#include "par/par.h"

#include <stdlib.h>
#include <string.h>

static tela_team *team_alloc(tela_pool *pool, int slot)
{
    size_t bytes = sizeof(tela_team) + (size_t)pool->width * sizeof(par_worker *);
    bytes = (bytes + PAR_CACHE_LINE - 1) / PAR_CACHE_LINE * PAR_CACHE_LINE;
    /* Aligned: the struct keeps leader_cpu on a line of its own. */
    tela_team *t = aligned_alloc(PAR_CACHE_LINE, bytes);
    if (t) {
        memset(t, 0, bytes);
        atomic_init(&t->leader_cpu, -1);
        t->pool = pool;
        t->slot = slot;
    }
    return t;
}

static tela_team *team_claim(tela_pool *pool)
{
    for (int i = 0; i < pool->width; i++) {
        int expected = 0;
        if (atomic_load_explicit(&pool->slot_used[i], memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong(&pool->slot_used[i], &expected, 1)) {
            if (!pool->slots[i])
                pool->slots[i] = team_alloc(pool, i);
            if (!pool->slots[i])
                atomic_store(&pool->slot_used[i], 0);
            return pool->slots[i];
        }
    }
    pthread_mutex_lock(&pool->overflow_lock);
    tela_team *t = pool->overflow_free;
    if (t) {
        pool->overflow_free = t->next_free;
    } else if ((t = team_alloc(pool, -1)) != NULL) {
        t->next_overflow = pool->overflow_all;
        pool->overflow_all = t;
    }
    pthread_mutex_unlock(&pool->overflow_lock);
    return t;
}

static void team_unclaim(tela_team *t)
{
    tela_pool *pool = t->pool;
    if (t->slot >= 0) {
        /* release: the next claimer sees this team's fields as we left them. */
        atomic_store_explicit(&pool->slot_used[t->slot], 0, memory_order_release);
        return;
    }
    pthread_mutex_lock(&pool->overflow_lock);
    t->next_free = pool->overflow_free;
    pool->overflow_free = t;
    pthread_mutex_unlock(&pool->overflow_lock);
}

/* Claims up to want free workers into t->members[1..]; returns how many. */
static int claim_workers(tela_pool *pool, tela_team *t, int want)
{
    int got = 0;
    for (int word = 0; word < pool->mask_words && got < want; word++) {
        uint64_t mask = atomic_load_explicit(&pool->free_mask[word], memory_order_relaxed);
        while (mask && got < want) {
            uint64_t take = 0, rest = mask;
            int n = 0;
            while (rest && got + n < want) {
                take |= rest & (~rest + 1);
                rest &= rest - 1;
                n++;
            }
            /* acquire: the previous lessee's use of these workers happened
             * before their bits were given back (release). */
            if (atomic_compare_exchange_weak_explicit(&pool->free_mask[word], &mask, mask & ~take,
                                                      memory_order_acq_rel, memory_order_relaxed)) {
                while (take) {
                    int bit = __builtin_ctzll(take);
                    take &= take - 1;
                    t->members[1 + got++] = pool->workers[word * 64 + bit];
                }
                break;
            }
        }
    }
    return got;
}

tela_team *par_team_lease(tela_pool *pool, int width)
{
    atomic_fetch_add(&pool->leases, 1);
    if (atomic_load(&pool->destroy_pending)) {
        atomic_fetch_sub(&pool->leases, 1);
        par_pool_finish_if_idle(pool);
        return NULL;
    }
    tela_team *t = team_claim(pool);
    if (!t) {
        atomic_fetch_sub(&pool->leases, 1);
        par_pool_finish_if_idle(pool);
        return NULL;
    }
    int got = claim_workers(pool, t, width - 1);
    t->width = 1 + got;
    for (int r = 1; r <= got; r++) {
        par_worker *w = t->members[r];
        /* The worker is idle: it reads these only after its next wake. */
        w->team = t;
        w->rank = r;
        atomic_store_explicit(&w->arrive.value, 0, memory_order_relaxed);
        atomic_store_explicit(&w->release.value, 0, memory_order_relaxed);
        atomic_store_explicit(&w->cpu, -1, memory_order_relaxed);
    }
    t->generation = 0;
    t->barrier_spin = t->width > par_cpu_count() ? PAR_SPIN_POLLS_OVERSUBSCRIBED : par_spin_polls();
    atomic_store_explicit(&t->running, 0, memory_order_relaxed);
    atomic_store(&t->leased, 1);
    return t;
}

void par_team_unlease(tela_team *t)
{
    tela_pool *pool = t->pool;
    for (int r = 1; r < t->width; r++) {
        int i = t->members[r]->index;
        /* release: pairs with the acquire of the next claim of this bit. */
        atomic_fetch_or_explicit(&pool->free_mask[i / 64], UINT64_C(1) << (i % 64),
                                 memory_order_release);
    }
    t->width = 1;
    team_unclaim(t);
    if (atomic_fetch_sub(&pool->leases, 1) == 1)
        par_pool_finish_if_idle(pool);
}

/* Checks of the public entries; on failure reports and returns the status. */
static int check_pool(const tela_pool *pool, const char *where)
{
    if (!pool)
        return par_error(TELA_EINVAL, where, "pool is NULL");
    if (pool->fork_generation != par_fork_generation())
        return par_error(TELA_ESTATE, where,
                         "pool was built before fork(); its threads do not exist here");
    if (atomic_load(&pool->destroy_pending))
        return par_error(TELA_ESTATE, where, "pool is being destroyed");
    return TELA_OK;
}

static tela_team *team_acquire(tela_pool *pool, int width, const char *where, int *status)
{
    *status = check_pool(pool, where);
    if (*status != TELA_OK)
        return NULL;
    if (width < 1 || width > pool->width) {
        *status = par_error(TELA_EINVAL, where, "width must be between 1 and the pool's width");
        return NULL;
    }
    tela_team *t = par_team_lease(pool, width);
    if (!t)
        *status = par_error(TELA_ENOMEM, where, "no team could be leased");
    return t;
}

tela_team *tela_team_acquire(tela_pool *pool, int width)
{
    int status;
    return team_acquire(pool, width, "tela_team_acquire", &status);
}

int tela_team_release(tela_team *team)
{
    if (!team)
        return par_error(TELA_EINVAL, "tela_team_release", "team is NULL");
    if (atomic_load(&team->running))
        return par_error(TELA_EBUSY, "tela_team_release", "a region is running on the team");
    int expected = 1;
    if (!atomic_compare_exchange_strong(&team->leased, &expected, 0))
        return par_error(TELA_ESTATE, "tela_team_release", "team is not leased (released twice?)");
    par_team_unlease(team);
    return TELA_OK;
}

int tela_team_width(const tela_team *team)
{
    if (!team)
        return par_error(TELA_EINVAL, "tela_team_width", "team is NULL");
    return team->width;
}

int tela_team_prewake(tela_team *team, int width)
{
    if (!team)
        return par_error(TELA_EINVAL, "tela_team_prewake", "team is NULL");
    if (width <= 0 || width > team->width)
        width = team->width;
    int woken = 0;
    for (int r = 1; r < width; r++)
        woken += par_word_nudge(&team->members[r]->wake.word);
    return woken;
}

int tela_with_team(tela_pool *pool, int width, void (*fn)(tela_team *, void *), void *arg)
{
    if (!fn)
        return par_error(TELA_EINVAL, "tela_with_team", "fn is NULL");
    int status;
    tela_team *t = team_acquire(pool, width, "tela_with_team", &status);
    if (!t)
        return status;
    fn(t, arg);
    return tela_team_release(t);
}
