/* scratch.c — the one owner of memory used inside regions: each thread's kept buffers, a
 * team's workspace and its carving per member. Kernel families declare their needs here and
 * name nothing of par's insides; par reserves them where allocation is allowed (a worker's start,
 * a caller before each region), since no tela call inside a region body allocates. */
#include "par/par.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

/* Larger requests are allocated per call and not kept: a thread should not hold more than one
 * big kernel's worth for good. */
#define SCRATCH_KEEP_BYTES ((size_t)16 << 20)

/* What every thread keeps per slot, the largest declaration so far (bytes), and a count of
 * declarations that threads compare with the one they last reserved for. Relaxed: a thread that
 * misses a declaration racing with its reserve gets it at its next one. */
static _Atomic size_t declared_bytes[PAR_SCRATCH_SLOTS];
static _Atomic unsigned declared_generation = 1;

typedef struct kept_buffer {
    void *p;
    size_t size; /* bytes */
} kept_buffer;

typedef struct thread_scratch {
    kept_buffer slot[PAR_SCRATCH_SLOTS];
} thread_scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
/* The generation of the declarations this thread reserved for (0: none yet). */
static _Thread_local unsigned reserved_generation;

static void thread_scratch_free(void *p)
{
    thread_scratch *s = p;
    for (int i = 0; i < PAR_SCRATCH_SLOTS; i++)
        free(s->slot[i].p);
    free(s);
}

static void scratch_key_init(void)
{
    pthread_key_create(&scratch_key, thread_scratch_free);
}

static size_t whole_lines(size_t bytes)
{
    return (bytes + PAR_CACHE_LINE - 1) / PAR_CACHE_LINE * PAR_CACHE_LINE;
}

void par_scratch_declare(par_scratch_slot slot, size_t bytes)
{
    assert(slot >= 0 && slot < PAR_SCRATCH_SLOTS);
    if (bytes > SCRATCH_KEEP_BYTES)
        bytes = SCRATCH_KEEP_BYTES;
    size_t have = atomic_load_explicit(&declared_bytes[slot], memory_order_relaxed);
    while (have < bytes &&
           !atomic_compare_exchange_weak_explicit(&declared_bytes[slot], &have, bytes,
                                                  memory_order_relaxed, memory_order_relaxed)) {}
    if (have < bytes)
        atomic_fetch_add_explicit(&declared_generation, 1, memory_order_relaxed);
}

void *par_scratch_thread(par_scratch_slot slot, size_t bytes, bool *owned)
{
    assert(slot >= 0 && slot < PAR_SCRATCH_SLOTS);
    *owned = false;
    /* Never less than declared: so a reserve never replaces a buffer handed out for a region. */
    const size_t floor = atomic_load_explicit(&declared_bytes[slot], memory_order_relaxed);
    if (bytes < floor)
        bytes = floor;
    pthread_once(&scratch_once, scratch_key_init);
    thread_scratch *all = pthread_getspecific(scratch_key);
    kept_buffer *kept = all ? &all->slot[slot] : NULL;
    if (kept && kept->size >= bytes)
        return kept->p;
    if (par_current_member())
        return NULL;
    bytes = whole_lines(bytes ? bytes : 1);
    if (bytes > SCRATCH_KEEP_BYTES) {
        *owned = true;
        return aligned_alloc(PAR_CACHE_LINE, bytes);
    }
    if (!all) {
        all = calloc(1, sizeof *all);
        if (!all || pthread_setspecific(scratch_key, all) != 0) {
            free(all);
            return NULL;
        }
        kept = &all->slot[slot];
    }
    void *p = aligned_alloc(PAR_CACHE_LINE, bytes);
    if (!p)
        return NULL;
    free(kept->p);
    kept->p = p;
    kept->size = bytes;
    return p;
}

bool par_scratch_reserve(void)
{
    /* It runs before every region: one relaxed load when nothing new was declared. */
    const unsigned generation = atomic_load_explicit(&declared_generation, memory_order_relaxed);
    if (generation == reserved_generation || par_current_member())
        return true;
    bool ok = true, owned;
    for (int slot = 0; slot < PAR_SCRATCH_SLOTS; slot++)
        if (atomic_load_explicit(&declared_bytes[slot], memory_order_relaxed) > 0)
            ok = par_scratch_thread((par_scratch_slot)slot, 0, &owned) != NULL && ok;
    if (ok)
        reserved_generation = generation;
    return ok;
}

void *par_scratch_region(tela_par par, par_scratch_slot slot, size_t bytes, bool *owned)
{
    *owned = false;
    /* The team's workspace backs the PACK slot only: a routine's ROUTINE or CALL memory lives
     * through the kernels it calls, whose PACK memory under the same team is that workspace. */
    if (slot == PAR_SCRATCH_PACK && par.kind == TELA_PAR_TEAM && par.team)
        return tela_team_workspace(par.team, bytes);
    return par_scratch_thread(slot, bytes, owned);
}

void *par_scratch_members(tela_par par, int members, size_t bytes, size_t *stride, bool *owned)
{
    *stride = whole_lines(bytes);
    return par_scratch_region(par, PAR_SCRATCH_PACK, (size_t)members * *stride, owned);
}

void par_scratch_release(void *p, bool owned)
{
    if (owned)
        free(p);
}

/* ---- a team's workspace, and the spare one a destroyed pool's team leaves for the next team: a
 * caller that builds a pool per call then finds its workspace grown and touched, as it finds its
 * threads. ---- */
/* The largest workspace of the teams freed so far, its size in its first bytes while it is spare.
 * Only a thread that exchanged a block out of this slot reads or frees it, so no lock is needed
 * (fork-safe too). Without it a pool per call touches new pages every call (docs/team.md). */
static _Atomic(void *) spare_workspace;

static size_t spare_size(void *block)
{
    return *(size_t *)block;
}

void par_workspace_retire(void *block, size_t size)
{
    /* Puts the block in the slot and frees what was there, unless that was
     * larger: then that goes back in, and what comes out in exchange (ours,
     * or another thread's meanwhile) is compared in turn. The block put in
     * grows each pass, so the loop ends. */
    while (block) {
        *(size_t *)block = size;
        void *found = atomic_exchange(&spare_workspace, block);
        if (!found)
            return;
        const size_t found_size = spare_size(found);
        if (found_size <= size) {
            free(found);
            return;
        }
        block = found;
        size = found_size;
    }
}

/* The spare block if it holds at least bytes (*size set), else NULL. */
static void *workspace_take_spare(size_t bytes, size_t *size)
{
    void *block = atomic_exchange(&spare_workspace, NULL);
    if (!block)
        return NULL;
    const size_t found = spare_size(block);
    if (found < bytes) {
        par_workspace_retire(block, found);
        return NULL;
    }
    *size = found;
    return block;
}

void *tela_team_workspace(tela_team *team, size_t bytes)
{
    if (!team) {
        par_error(TELA_EINVAL, "tela_team_workspace", "team is NULL");
        return NULL;
    }
    /* Inside any region (a width-1 run on the team leaves it unmarked). */
    if (atomic_load(&team->running) || par_current_member()) {
        par_error(TELA_EBUSY, "tela_team_workspace",
                  "workspace is sized before a region starts, not inside it");
        return NULL;
    }
    if (bytes <= team->workspace_size && team->workspace)
        return team->workspace;
    /* Grown by at least half: a routine asks for ever larger ones as its steps grow (docs/team.md,
     * "Workspace"). */
    size_t want = bytes > team->workspace_size + team->workspace_size / 2
                      ? bytes
                      : team->workspace_size + team->workspace_size / 2;
    want = (want + PAR_CACHE_LINE - 1) / PAR_CACHE_LINE * PAR_CACHE_LINE;
    if (want == 0)
        want = PAR_CACHE_LINE;
    size_t size = want;
    void *p = workspace_take_spare(want, &size);
    if (!p)
        p = aligned_alloc(PAR_CACHE_LINE, want);
    if (!p) {
        par_error(TELA_ENOMEM, "tela_team_workspace", "out of memory");
        return NULL;
    }
    par_workspace_retire(team->workspace, team->workspace_size);
    team->workspace = p;
    team->workspace_size = size;
    return p;
}
