/* region.c — running a body on members 0..w-1 of a team, and barriers.
 *
 * Wake and barrier follow one tree of fan-out PAR_FANOUT over the ranks:
 * member r wakes and gathers ranks r*F+1 .. r*F+F. Up to F+1 members the
 * tree is flat (member 0 does all), beyond it no word is shared by more
 * than two members, so wake and barrier cost grows with log(width), not
 * with width. Members at or above w are never touched. */
#include "par/par.h"

#include <stddef.h>

static _Thread_local tela_member *current_member;

tela_member *par_current_member(void)
{
    return current_member;
}

/* Generations skip 0: 0 is what a freshly leased worker's words hold. */
static inline uint32_t next_generation(uint32_t g)
{
    return g + 1 == 0 ? 1 : g + 1;
}

static inline int first_child(int rank)
{
    return rank * PAR_FANOUT + 1;
}

/* Copies the region into each child's wake line and wakes it. Returns
 * which children were asleep (bit c - first child). */
static unsigned wake_children(tela_team *t, int rank, const par_region_desc *region)
{
    unsigned woken = 0;
    int first = first_child(rank);
    for (int c = first; c < first + PAR_FANOUT && c < region->width; c++) {
        par_worker *child = t->members[c];
        par_wake_line *line = &child->wake;
        /* The child read its previous copy before its last arrival, which
         * we (or our parent) observed: writing it now races with nothing. */
        line->region = *region;
        /* A sleeping child's CPU is stale until it runs again: -1 says so
         * (the bump below publishes the store). */
        if (atomic_load(&line->word.sleepers) != 0)
            atomic_store_explicit(&child->cpu, -1, memory_order_relaxed);
        if (par_word_bump(&line->word)) {
            woken |= 1u << (c - first);
            /* Runnable from now: ours, not another's, to load.c. */
            if (!atomic_exchange_explicit(&child->awake_counted, true, memory_order_relaxed))
                atomic_fetch_add_explicit(&par_workers_awake, 1, memory_order_relaxed);
        }
    }
    return woken;
}

/* How long to spin for a child we woke from sleep. If the kernel queued it
 * on our CPU, spinning keeps it off (sleep at once); on another CPU, a
 * halted vCPU is waking for it and sleeping would cost us the same wake
 * again at the end, so spin as usual. */
static unsigned spin_for_woken_child(par_worker *child, unsigned spin)
{
    int cpu = atomic_load_explicit(&child->cpu, memory_order_relaxed);
    if (cpu < 0)
        cpu = par_placement_cpu(child); /* not started yet: ask the kernel */
    if (cpu < 0)
        return PAR_SPIN_POLLS_AFTER_WAKE;
    return cpu == par_current_cpu() ? 0 : spin;
}

/* Waits until every child of m's rank has arrived at generation g. */
static void gather_children(tela_member *m, uint32_t g)
{
    tela_team *t = m->team;
    int first = first_child(m->rank);
    for (int c = first; c < first + PAR_FANOUT && c < m->width; c++) {
        par_worker *child = t->members[c];
        unsigned spin = t->barrier_spin;
        if (m->woken_children & (1u << (c - first)))
            spin = spin_for_woken_child(child, spin);
        par_word_wait_equal(&child->arrive, g, spin, &child->cpu);
    }
    /* Every child has run since its wake. */
    m->woken_children = 0;
}

/* Where the member that releases rank r runs (r > 0). */
static const _Atomic int *parent_cpu(const tela_team *t, int rank)
{
    int parent = (rank - 1) / PAR_FANOUT;
    return parent == 0 ? &t->leader_cpu : &t->members[parent]->cpu;
}

/* Publishes m's CPU where its parent or children look for it. */
static void publish_cpu(tela_member *m)
{
    tela_team *t = m->team;
    par_publish_cpu(m->rank == 0 ? &t->leader_cpu : &t->members[m->rank]->cpu);
}

void tela_barrier(tela_member *m)
{
    if (!m || m->width <= 1)
        return;
    tela_team *t = m->team;
    uint32_t g = next_generation(m->generation);
    m->generation = g;
    publish_cpu(m);
    gather_children(m, g);
    if (m->rank != 0) {
        par_worker *self = t->members[m->rank];
        par_word_store(&self->arrive, g);
        par_word_wait_equal(&self->release, g, t->barrier_spin, parent_cpu(t, m->rank));
    }
    int first = first_child(m->rank);
    for (int c = first; c < first + PAR_FANOUT && c < m->width; c++)
        par_word_store(&t->members[c]->release, g);
}

/* The end of a region: a barrier without the release half. A worker's
 * arrival here is its last access to team memory. */
static void join(tela_member *m)
{
    uint32_t g = next_generation(m->generation);
    m->generation = g;
    publish_cpu(m);
    gather_children(m, g);
    if (m->rank != 0)
        par_word_store(&m->team->members[m->rank]->arrive, g);
}

void par_region_run(tela_team *t, int width, tela_body body, void *arg, float share_us)
{
    par_region_desc region = {body, arg, width, t->generation, {0, 0, 0}, share_us};
    par_fpenv_capture(&region.fpenv);

    tela_member self = {t, 0, width, t->generation, 0};
    tela_member *outer = current_member;
    current_member = &self;
    par_publish_cpu(&t->leader_cpu);
    self.woken_children = wake_children(t, 0, &region);
    body(&self, arg);
    join(&self);
    current_member = outer;
    t->generation = self.generation;
}

void par_region_run_serial(tela_body body, void *arg)
{
    /* Still a region: a tela call from its body under AUTO stays serial. */
    tela_member self = {NULL, 0, 1, 0, 0};
    tela_member *outer = current_member;
    current_member = &self;
    body(&self, arg);
    current_member = outer;
}

unsigned par_region_member(par_worker *worker, int *waker_cpu)
{
    tela_team *t = worker->team;
    /* Our own line, written by our parent before the wake. */
    const par_region_desc *region = &worker->wake.region;
    tela_member self = {t, worker->rank, region->width, region->generation, 0};
    tela_body body = region->body;
    void *arg = region->arg;
    self.woken_children = wake_children(t, self.rank, region);
    par_fpenv_apply(&region->fpenv);
    /* Woken onto our parent's CPU for a long share: the two would take
     * turns for all of it, so leave first (the parent works meanwhile). */
    int here = par_current_cpu();
    if (region->share_us >= PAR_MOVE_SHARE_US && here >= 0 && t->width <= par_cpu_count() &&
        here == atomic_load_explicit(parent_cpu(t, self.rank), memory_order_relaxed))
        par_worker_move_off(worker, here);
    else
        par_publish_cpu(&worker->cpu);
    /* Only this worker writes the count: no locked add needed. */
    long runs = atomic_load_explicit(&worker->regions_run, memory_order_relaxed);
    atomic_store_explicit(&worker->regions_run, runs + 1, memory_order_relaxed);
    current_member = &self;
    body(&self, arg);
    current_member = NULL;
    unsigned idle_spin = t->barrier_spin;
    /* A snapshot: after the join the team is not ours to read. */
    *waker_cpu = atomic_load_explicit(parent_cpu(t, self.rank), memory_order_relaxed);
    join(&self);
    return idle_spin;
}

int tela_rank(const tela_member *self)
{
    return self ? self->rank : par_error(TELA_EINVAL, "tela_rank", "member is NULL");
}

int tela_width(const tela_member *self)
{
    return self ? self->width : par_error(TELA_EINVAL, "tela_width", "member is NULL");
}
