/* policy.c — execution policies (tela_par), thread settings, the default
 * pool and tela_parallel, which turns a policy into a team and a width.
 *
 * Limits combine as a minimum: the width asked for, the policy's limit, the
 * thread-local setting (when set), and the pool's or team's width; the
 * process default applies to TELA_PAR_AUTO. Under TELA_PAR_AUTO a call from
 * inside a region, or from inside an OpenMP parallel region, runs serially. */
#include "par/par.h"

#include <stdlib.h>
#include <time.h>

/* Looked up weakly: tela needs no OpenMP, but sees the caller's. */
extern int omp_in_parallel(void) __attribute__((weak));

static _Atomic int process_width;
static pthread_once_t width_once = PTHREAD_ONCE_INIT;
static _Thread_local int local_width;

/* The first number of a variable like OMP_NUM_THREADS ("4,2" -> 4). */
static int env_width(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || (*end != '\0' && *end != ',') || v < 1 || v > 65536)
        return 0;
    return (int)v;
}

static void width_init(void)
{
    int w = env_width("TELA_NUM_THREADS");
    if (!w)
        w = env_width("OMP_NUM_THREADS");
    if (!w)
        w = par_cpu_count();
    atomic_store(&process_width, w);
}

void tela_set_num_threads(int width)
{
    pthread_once(&width_once, width_init);
    if (width < 1) {
        par_error(TELA_EINVAL, "tela_set_num_threads", "width must be >= 1");
        return;
    }
    atomic_store(&process_width, width);
}

int tela_get_num_threads(void)
{
    return par_default_width();
}

int tela_set_num_threads_local(int width)
{
    if (width < 0)
        return par_error(TELA_EINVAL, "tela_set_num_threads_local", "width must be >= 0");
    int previous = local_width;
    local_width = width;
    return previous;
}

int par_default_width(void)
{
    if (local_width > 0)
        return local_width;
    pthread_once(&width_once, width_init);
    return atomic_load_explicit(&process_width, memory_order_relaxed);
}

tela_par tela_par_seq(void)
{
    return (tela_par){TELA_PAR_SEQ, 0, NULL, NULL};
}

tela_par tela_par_auto(void)
{
    return (tela_par){TELA_PAR_AUTO, 0, NULL, NULL};
}

tela_par tela_par_pool(tela_pool *pool)
{
    return (tela_par){TELA_PAR_POOL, 0, pool, NULL};
}

tela_par tela_par_team(tela_team *team)
{
    return (tela_par){TELA_PAR_TEAM, 0, NULL, team};
}

tela_par tela_par_limit(tela_par par, int max_width)
{
    if (max_width < 1) {
        par_error(TELA_EINVAL, "tela_par_limit", "max_width must be >= 1");
        return par;
    }
    par.max_width = max_width;
    return par;
}

/* ---- the default pool ----
 * Built on first use as wide as the widest auto call so far. When a wider
 * one is needed it is replaced; the old one is destroyed (deferred while
 * leased) but its struct is kept, because a racing caller may have loaded
 * the pointer: it sees destroy_pending and retries. */
static _Atomic(tela_pool *) default_pool;
static pthread_mutex_t default_pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* Replaced default pools: their structs stay reachable here (a few hundred
 * bytes each, one per widening) instead of leaking. */
static tela_pool *retired_default_pools;

static void default_pool_before_fork(void)
{
    pthread_mutex_lock(&default_pool_lock);
}

static void default_pool_after_fork(void)
{
    pthread_mutex_unlock(&default_pool_lock);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_init(void)
{
    pthread_atfork(default_pool_before_fork, default_pool_after_fork, default_pool_after_fork);
}

static tela_pool *default_pool_get(int width)
{
    tela_pool *p = atomic_load_explicit(&default_pool, memory_order_acquire);
    if (p && p->width >= width && p->fork_generation == par_fork_generation() &&
        !atomic_load_explicit(&p->destroy_pending, memory_order_relaxed))
        return p;
    pthread_once(&atfork_once, atfork_init);
    pthread_mutex_lock(&default_pool_lock);
    p = atomic_load(&default_pool);
    if (p && p->fork_generation != par_fork_generation()) {
        /* From before fork(): its threads are gone; keep only the struct. */
        p->next_retired = retired_default_pools;
        retired_default_pools = p;
        atomic_store(&default_pool, NULL);
        p = NULL;
    }
    if (!p || p->width < width || atomic_load(&p->destroy_pending)) {
        int new_width = p && p->width > width ? p->width : width;
        tela_pool_opts opts = {.width = new_width};
        tela_pool *fresh = par_pool_create(&opts, true);
        if (fresh) {
            if (p) {
                if (!atomic_exchange(&p->destroy_pending, 1))
                    par_pool_finish_if_idle(p);
                p->next_retired = retired_default_pools;
                retired_default_pools = p;
            }
            atomic_store(&default_pool, fresh);
            p = fresh;
        }
    }
    pthread_mutex_unlock(&default_pool_lock);
    return p;
}

/* ---- tela_parallel ---- */

static int min_limit(int a, int b)
{
    return b > 0 && b < a ? b : a;
}

bool par_may_split(tela_par par, double estimate_ns)
{
    if (par.max_width == 1)
        return false;
    switch (par.kind) {
    case TELA_PAR_TEAM:
        return !par.team || par_gate_may_pay(TELA_ROUTE_TEAM, estimate_ns);
    case TELA_PAR_POOL:
        return !par.pool || par_gate_may_pay(TELA_ROUTE_POOL, estimate_ns);
    case TELA_PAR_AUTO:
        return par_gate_may_pay(TELA_ROUTE_OUTSIDE, estimate_ns);
    default:
        return par.kind != TELA_PAR_SEQ; /* an unknown kind: let the region report it */
    }
}

static int run_on_leased(tela_pool *pool, int width, tela_body body, void *arg, float share_us)
{
    tela_team *t = par_team_lease(pool, width);
    if (!t) {
        par_region_run_serial(body, arg);
        return 1;
    }
    int used = t->width;
    if (used > 1)
        par_region_run(t, used, body, arg, share_us);
    else
        par_region_run_serial(body, arg);
    atomic_store_explicit(&t->leased, 0, memory_order_relaxed);
    par_team_unlease(t);
    return used;
}

static bool nested_in_parallel(void)
{
    if (par_current_member())
        return true;
    return omp_in_parallel && omp_in_parallel();
}

/* What a gated region tells the gate; NULL for tela_parallel's fixed width. */
typedef struct gate_request {
    const char *name;
    double estimate_ns;
    int sections;
} gate_request;

/* The width to run at: the limit itself, or what the gate allows within it
 * and the machine's load leaves CPUs for (load.c). */
static int choose_width(const gate_request *gate, tela_route route, int limit)
{
    if (!gate || limit <= 1)
        return limit;
    return par_load_width(tela_gate_width(gate->estimate_ns, gate->sections, route, limit));
}

/* A member's estimated share in us at width w (0: not gated). */
static float share_of(const gate_request *gate, int w)
{
    return gate && w > 0 && gate->estimate_ns > 0 ? (float)(gate->estimate_ns / w / 1e3) : 0.0f;
}

/* Runs the region as par and the limit allow. *route and *allowed say how
 * (route TELA_ROUTE_COUNT: serial by policy or nesting). */
static int run_region(tela_par par, int limit, const gate_request *gate, tela_body body, void *arg,
                      tela_route *route, int *allowed)
{
    static const char where[] = "tela_parallel";
    *route = TELA_ROUTE_COUNT;
    *allowed = 1;
    switch (par.kind) {
    case TELA_PAR_SEQ:
        break;
    case TELA_PAR_AUTO:
        limit = min_limit(limit, par_default_width());
        if (limit > 1 && !nested_in_parallel()) {
            *route = TELA_ROUTE_OUTSIDE;
            *allowed = limit;
            int w = choose_width(gate, TELA_ROUTE_OUTSIDE, limit);
            /* Only a width that pays builds or enters the default pool. A
             * pool replaced meanwhile refuses the lease: this call runs
             * serially, the next one finds the new pool. */
            tela_pool *pool = w > 1 ? default_pool_get(w) : NULL;
            if (pool)
                return run_on_leased(pool, w, body, arg, share_of(gate, w));
        }
        break;
    case TELA_PAR_POOL:
        if (!par.pool)
            return par_error(TELA_EINVAL, where, "policy names a NULL pool");
        if (par.pool->fork_generation != par_fork_generation() ||
            atomic_load(&par.pool->destroy_pending))
            return par_error(TELA_ESTATE, where, "pool is destroyed or from before fork()");
        limit = min_limit(limit, par.pool->width);
        *route = TELA_ROUTE_POOL;
        *allowed = limit;
        limit = choose_width(gate, TELA_ROUTE_POOL, limit);
        if (limit > 1)
            return run_on_leased(par.pool, limit, body, arg, share_of(gate, limit));
        break;
    case TELA_PAR_TEAM: {
        tela_team *t = par.team;
        if (!t)
            return par_error(TELA_EINVAL, where, "policy names a NULL team");
        if (!atomic_load_explicit(&t->leased, memory_order_relaxed) ||
            t->pool->fork_generation != par_fork_generation())
            return par_error(TELA_ESTATE, where, "team is released or from before fork()");
        limit = min_limit(limit, t->width);
        *route = TELA_ROUTE_TEAM;
        *allowed = limit;
        /* A narrower width runs on a sub-team: members above it stay parked.
         * Width 1 runs on the caller and leaves the team as it is: the
         * exchange below is a large part of a gated call that does not pay,
         * and a small getrf makes dozens of those (docs/team.md). */
        limit = choose_width(gate, TELA_ROUTE_TEAM, limit);
        if (limit <= 1)
            break;
        /* A region already running on this team (a nested call from its own
         * body) runs on the caller alone instead of waiting on itself. */
        if (atomic_exchange_explicit(&t->running, 1, memory_order_acquire)) {
            *route = TELA_ROUTE_COUNT;
            *allowed = 1;
            break;
        }
        par_region_run(t, limit, body, arg, share_of(gate, limit));
        atomic_store_explicit(&t->running, 0, memory_order_release);
        return limit;
    }
    default:
        return par_error(TELA_EINVAL, where, "unknown policy kind");
    }
    par_region_run_serial(body, arg);
    return 1;
}

int par_width_bound(tela_par par)
{
    int w;
    switch (par.kind) {
    case TELA_PAR_TEAM:
        w = par.team ? tela_team_width(par.team) : 1;
        break;
    case TELA_PAR_POOL:
        w = par.pool ? tela_pool_width(par.pool) : 1;
        break;
    case TELA_PAR_AUTO:
        /* Nested in a region (tela's or OpenMP's), auto runs serially: buffers for one. */
        w = nested_in_parallel() ? 1 : tela_get_num_threads();
        break;
    default:
        w = 1;
    }
    if (par.max_width > 0 && par.max_width < w)
        w = par.max_width;
    return w > 0 ? w : 1;
}

static int parallel(tela_par par, int width, const gate_request *gate, tela_body body, void *arg)
{
    if (!body)
        return par_error(TELA_EINVAL, gate ? "tela_parallel_gated" : "tela_parallel",
                         "body is NULL");
    int limit = width > 0 ? width : 1 << 30;
    limit = min_limit(limit, par.max_width);
    limit = min_limit(limit, local_width);
    tela_route route;
    int allowed;
    (void)par_scratch_reserve();
    if (!par_trace_on())
        return run_region(par, limit, gate, body, arg, &route, &allowed);
    double start = par_monotonic_ns();
    int used = run_region(par, limit, gate, body, arg, &route, &allowed);
    double wall = par_monotonic_ns() - start;
    if (used > 0)
        par_trace_region(gate ? gate->name : "tela_parallel", gate ? gate->estimate_ns : 0,
                         gate ? gate->sections : 0, route, allowed, used, wall);
    return used;
}

int tela_parallel(tela_par par, int width, tela_body body, void *arg)
{
    return parallel(par, width, NULL, body, arg);
}

int tela_parallel_gated(tela_par par, const char *name, double estimate_ns, int sections,
                        tela_body body, void *arg)
{
    gate_request gate = {name, estimate_ns, sections};
    return parallel(par, 0, &gate, body, arg);
}
