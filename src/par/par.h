/* par.h — internal interface of src/par, tela's thread team.
 *
 * Threads are par_workers. Idle ones sit in a process-wide reserve; a pool
 * owns some while it lives; a team leases some of a pool's for one caller;
 * a region runs a body on members 0..w-1 of a team. All waiting goes through
 * par_word: a bounded spin of polls, then a futex. */
#ifndef TELA_PAR_H
#define TELA_PAR_H

#include "par/engine.h"
#include "tela.h"

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Fan-out of the wake and barrier trees: up to this many children per
 * member. Widths up to PAR_FANOUT + 1 are flat (member 0 handles everyone),
 * which is fastest at small widths; wider teams get a tree so no single
 * word or member serialises everybody. */
#define PAR_FANOUT 4

/* How long a waiter spins before sleeping, unless TELA_SPIN_POLLS sets a
 * count of polls (a load and a pause each). libgomp spins ~5.8 ms here
 * (measured); 4 ms keeps our idle burn below its at every gap while
 * covering gaps up to 4 ms without a sleep (a woken thread costs 20 us to
 * 1.3 ms on these VMs, docs/team.md). */
#define PAR_SPIN_NS_DEFAULT 4.0e6
#define PAR_SPIN_POLLS_MIN  1000u
#define PAR_SPIN_POLLS_MAX  50000000u
/* Polls in barrier waits of an oversubscribed team (width > CPUs): spinning
 * there steals the CPU from the member we are waiting for. */
#define PAR_SPIN_POLLS_OVERSUBSCRIBED 50
/* Polls a member spins for a child it had to wake from sleep, until that
 * child first arrives. Measured here: the scheduler may put the woken thread
 * on the waker's CPU, where it runs only once the waker stops spinning, so
 * a full spin made the first region after a 10 ms gap cost the whole spin
 * (1.8 ms) instead of the wake latency (~15 us). */
#define PAR_SPIN_POLLS_AFTER_WAKE 50
/* A spin that has lasted this long looks at the machine's load (one pread
 * of /proc/loadavg, ~3 us), and again as often, and ends when the machine
 * runs more threads than it has CPUs (and one): the member it waits for
 * may be queued behind another process on another CPU, and the spin keeps
 * ours from taking it. Looking oftener costs barrier waits on a quiet
 * machine (docs/team.md). */
#define PAR_LOAD_CHECK_NS 500.0e3

/* ---- waiting (wait.c) ---- */

/* A 32-bit word that members wait on. sleepers counts waiters inside the
 * futex so a store only pays the wake system call when someone sleeps. */
typedef struct par_word {
    _Atomic uint32_t value;
    _Atomic uint32_t sleepers;
} par_word;

/* Waits until word != old, spinning spin_polls polls first; returns it.
 * peer_cpu, if not NULL, is where the thread that will change the word last
 * said it runs: if that is our CPU, spinning only keeps it from running, so
 * the waiter sleeps at once. (Measured here: Linux often leaves a woken
 * worker on its waker's CPU for milliseconds while the other CPU idles.) */
uint32_t par_word_wait_change(par_word *word, uint32_t old, unsigned spin_polls,
                              const _Atomic int *peer_cpu);
/* One spin and at most one sleep: returns old itself if the sleep ended
 * without a change (a nudge, par_word_nudge, or a spurious wake). */
uint32_t par_word_wait_change_once(par_word *word, uint32_t old, unsigned spin_polls,
                                   const _Atomic int *peer_cpu);
/* Waits until word == want; peer_cpu as above. */
void par_word_wait_equal(par_word *word, uint32_t want, unsigned spin_polls,
                         const _Atomic int *peer_cpu);
/* The CPU the calling thread runs on, -1 where unknown. */
int par_current_cpu(void);
/* Publishes the calling thread's CPU in *cpu (stores only on change). */
void par_publish_cpu(_Atomic int *cpu);
/* Wakes the word's sleepers without changing it: they spin again (a
 * pre-wake). True if there were any. */
bool par_word_nudge(par_word *word);
/* Stores value (release) and wakes sleepers. */
void par_word_store(par_word *word, uint32_t value);
/* Adds one (release) and wakes sleepers; true if one was asleep. */
bool par_word_bump(par_word *word);

unsigned par_spin_polls(void);
/* Polls between two looks at the machine's load in a long spin. */
unsigned par_load_check_polls(void);

/* ---- the machine's load (load.c) ---- */

/* Threads runnable on the whole machine now, the caller included
 * (/proc/loadavg); -1 where unknown. */
int par_runnable_threads(void);
/* False when TELA_LOAD_AWARE=0: no region is narrowed and no spin cut
 * short for the machine's load. */
bool par_load_aware(void);
/* More runnable threads than online CPUs and one (false where unknown, or
 * when not load-aware). */
bool par_machine_oversubscribed(void);
/* width, or fewer when other threads than this process's tela threads keep
 * CPUs busy: the online CPUs they leave, one other tolerated, at least 1
 * (load.c). */
int par_load_width(int width);
/* par_load_width's rule for `others` runnable threads not ours on `online`
 * CPUs. */
int par_load_width_for(int width, int others, int online);
/* Worker threads of this process that are not asleep in a futex. */
extern _Atomic int par_workers_awake;

/* ---- floating-point environment (fpenv.c) ---- */

typedef struct par_fpenv {
    unsigned sse_csr;     /* MXCSR control bits (rounding, FTZ, DAZ, masks) */
    unsigned x87_control; /* x87 control word (precision, rounding, masks) */
    int rounding;         /* fegetround() off x86 */
} par_fpenv;

void par_fpenv_capture(par_fpenv *env);
/* Makes the calling thread's environment equal to env (cheap when it is). */
void par_fpenv_apply(const par_fpenv *env);

/* ---- workers (worker.c) ---- */

enum par_command { PAR_CMD_REGION = 0, PAR_CMD_RETIRE = 1 };

/* The region as a member needs it, copied into each woken member's wake
 * line by its parent, so a wake costs the member one cache line. */
typedef struct par_region_desc {
    tela_body body;
    void *arg;
    int width;
    uint32_t generation; /* barrier generation at region start */
    par_fpenv fpenv;
    float share_us; /* a member's estimated share of the work (gated regions), else 0 */
} par_region_desc;

/* The wake word with the region it starts, on one cache line. */
typedef struct par_wake_line {
    par_word word;          /* bumped by the member that wakes this one */
    par_region_desc region; /* written by that member before the bump */
} par_wake_line;

/* Each word a member spins on has its own cache line, so writes to one
 * never disturb a spinner on another (false sharing). */
/* The padding is the point: one cache line per spun-on word. */
typedef struct par_worker { // NOLINT(clang-analyzer-optin.performance.Padding)
    alignas(PAR_CACHE_LINE) par_wake_line wake;
    alignas(PAR_CACHE_LINE) par_word arrive; /* generation of the last barrier reached */
    _Atomic int cpu; /* CPU it last ran on, published beside arrive for its parent */
    alignas(PAR_CACHE_LINE) par_word release; /* generation its parent let it pass */
    alignas(PAR_CACHE_LINE) pthread_t thread;
    _Atomic int command; /* enum par_command, read after a wake */
    /* Its waker counted it in par_workers_awake when it woke it from sleep
     * (it is runnable from then, before it runs); it clears this on waking. */
    _Atomic bool awake_counted;
    struct tela_team *team;  /* team it serves; written only while idle */
    int rank;                /* its rank in that team */
    int index;               /* its index in the owning pool */
    bool detach_on_retire;   /* retired from its own thread: nobody joins it */
    struct par_worker *next; /* link in the reserve's idle stack */
    /* Set before the thread starts (dedicated pools). */
    const char *thread_name;
    void (*start_hook)(int, void *);
    void *start_hook_arg;
    par_word *started;        /* bumped once the start hook has run, if not NULL */
    _Atomic long regions_run; /* regions this worker was woken for; only it writes */
    /* The CPU set last given to it (a cpu_set_t's bytes; cpus.c checks the
     * size), so a pool built by a caller with the same set skips the
     * system call. Valid when cpus_given. */
    bool cpus_given;
    uint64_t cpus[16];
    _Atomic int tid;                        /* kernel thread id, set as the thread starts */
    _Atomic int stat_fd;                    /* its /proc stat file, opened on first need, else -1 */
    struct par_worker *all_prev, *all_next; /* registry of live workers (stats) */
} par_worker;

/* A member's share (us) from which a worker woken onto its parent's CPU
 * moves off before working: a move costs 0.1-1.3 ms here, a packed share
 * runs at half speed (docs/team.md). */
#define PAR_MOVE_SHARE_US 500.0f
/* Moves the calling worker off CPU here (its parent's), publishing -1 as
 * its CPU meanwhile so the parent spins rather than sleeps. */
void par_worker_move_off(par_worker *self, int here);

/* Frees a worker struct whose thread is gone (or never existed here). */
void par_worker_free(par_worker *worker);

/* ---- where a woken worker was queued (placement.c) ---- */

/* Records the calling worker's thread id for the probe. */
void par_placement_init_self(par_worker *self);
/* The CPU the kernel has w on (running or queued), -1 when unknown. */
int par_placement_cpu(par_worker *w);
/* Closes the probe's file. */
void par_placement_close(par_worker *w);

/* Starts a worker thread; NULL when the system refuses a thread. */
par_worker *par_worker_spawn(size_t stack_size, const char *thread_name,
                             void (*start_hook)(int, void *), void *start_hook_arg, int index,
                             par_word *started);
/* Tells an idle worker to exit and joins it (or detaches it when it is the
 * calling thread), then frees it. */
void par_worker_retire(par_worker *worker);
/* The worker struct of the calling thread, NULL for non-workers. */
par_worker *par_worker_self(void);

/* ---- reserve (reserve.c) ---- */

/* Takes up to count idle workers into out[]; returns how many. */
int par_reserve_take(par_worker **out, int count);
/* Gives workers back; those above the cap are retired (joined outside the
 * reserve's lock). */
void par_reserve_give(par_worker **workers, int count);
/* Raises the cap to at least width (a pool that wide was built). */
void par_reserve_note_width(int width);
/* Bumped in a forked child: objects from before the fork are dead there. */
unsigned par_fork_generation(void);
void par_reserve_init_once(void);

extern _Atomic long par_stat_spawned;
extern _Atomic long par_stat_reused;
extern _Atomic long par_stat_joined;
extern _Atomic long par_stat_unpacked;
/* Adds and removes workers in the registry that tela_get_stats sums. */
void par_registry_add(par_worker *worker);
void par_registry_remove(par_worker *worker);

/* ---- pools and teams (pool.c, team.c) ---- */

struct tela_team {
    /* Member 0's CPU, for the members that wait on it (own line: it is
     * read by spinning children while member 0 works). */
    alignas(PAR_CACHE_LINE) _Atomic int leader_cpu;
    alignas(PAR_CACHE_LINE) _Atomic int running; /* a region runs on this team now */
    _Atomic int leased;                          /* 1 between acquire and release */
    uint32_t generation;                         /* last barrier generation; member 0 only */
    unsigned barrier_spin;                       /* spin polls of barrier waits in this team */
    int width;                                   /* members granted, caller included */
    int slot;                                    /* index in the pool's slot array, -1 overflow */
    struct tela_pool *pool;
    struct tela_team *next_overflow; /* overflow teams: list of all of them */
    struct tela_team *next_free;     /* overflow teams: free list */
    void *workspace;
    size_t workspace_size;
    par_worker *members[]; /* [pool width]; members[0] is unused (caller) */
};

struct tela_pool {
    int width;        /* members including the caller */
    int nworkers;     /* width - 1 */
    bool dedicated;   /* own threads, joined on destroy */
    bool keep_struct; /* the default pool: never freed (racing readers) */
    unsigned fork_generation;
    par_worker **workers;        /* [nworkers] */
    _Atomic uint64_t *free_mask; /* bit i: workers[i] is not leased */
    int mask_words;
    tela_team **slots;             /* [width] team structs, reused between leases */
    _Atomic int *slot_used;        /* [width] */
    pthread_mutex_t overflow_lock; /* guards overflow_free (rare path) */
    tela_team *overflow_free;
    tela_team *overflow_all;
    _Atomic int leases;             /* teams leased now */
    _Atomic int destroy_pending;    /* tela_pool_destroy was called */
    _Atomic int finished;           /* the destruction ran */
    char *thread_name;              /* copy of opts.thread_name, or NULL */
    par_word started;               /* dedicated workers whose start hook ran */
    struct tela_pool *next_retired; /* list of replaced default pools */
};

tela_pool *par_pool_create(const tela_pool_opts *opts, bool keep_struct);
/* Leases a team of up to width members (>= 1; the caller alone when no
 * worker is free). NULL if the pool is being destroyed or out of memory. */
tela_team *par_team_lease(tela_pool *pool, int width);
void par_team_unlease(tela_team *team);
/* Gives up a team's workspace (block of size bytes, NULL ignored): kept as
 * the process's spare when it is the largest given up so far, for the next
 * team that needs one (scratch.c), else freed. */
void par_workspace_retire(void *block, size_t size);
/* Destroys the pool if destruction is pending and no team is leased. */
void par_pool_finish_if_idle(tela_pool *pool);

/* ---- regions (region.c) ---- */

struct tela_member {
    tela_team *team; /* NULL in a serial region */
    int rank;
    int width;
    uint32_t generation;     /* barrier generation this member is at */
    unsigned woken_children; /* bit i: child i of this rank was woken from sleep */
};

/* Runs body on members 0..width-1 of team (width <= team width). */
void par_region_run(tela_team *team, int width, tela_body body, void *arg, float share_us);
/* The member the calling thread runs inside a region, else NULL. */
tela_member *par_current_member(void);
/* Entry of a worker woken for a region of its team. Returns the polls to
 * spin while idle next: short when the team is oversubscribed, where an
 * idle spinner takes the CPU from a member that has work. *waker_cpu gets
 * where the member that wakes this one last ran. */
unsigned par_region_member(par_worker *self, int *waker_cpu);

/* ---- policy and CPUs (policy.c, cpus.c) ---- */

/* CPUs the process may use: affinity mask, reduced by a cgroup quota. */
int par_cpu_count(void);
/* Gives workers the calling thread's CPU set, as if it had spawned them. */
void par_affinity_copy_to(par_worker **workers, int count);
/* Moves the calling thread off CPU cpu, where it runs, keeping its CPU set;
 * false when there is nowhere else to go. */
bool par_affinity_leave_cpu(int cpu);
/* Width limit of the calling thread for auto (thread-local or default). */
int par_default_width(void);

/* ---- cost table (costs.c; its text file: costs_file.c), gate (gate.c), trace (trace.c) ---- */

/* One measured width of one route: ns per section, empty and with 10 us
 * shares (cost = section time - share); < 0 where not measured. */
typedef struct par_cost_point {
    int width;
    double empty_ns, share_ns;
    bool oversubscribed; /* measured with more members than CPUs */
} par_cost_point;

#define PAR_COST_MAX_POINTS 128
/* Widths the active table precomputes (the gate reads an array); wider
 * requests use the fit directly. */
#define PAR_COST_DENSE_WIDTHS 1024

typedef struct par_costs {
    char cpu_model[128];                     /* as /proc/cpuinfo names it */
    int cpus;                                /* CPUs the measuring process could use */
    double ns_per_flop, copy_ns_per_element; /* serial rates; < 0 if unknown */
    int count[TELA_ROUTE_COUNT];
    par_cost_point points[TELA_ROUTE_COUNT][PAR_COST_MAX_POINTS]; /* by rising width */
} par_costs;

/* Reads a table; 0, or -1 with a one-line reason in why. Never a partial
 * result: a malformed or truncated file (no "end" line) is refused. */
int par_costs_read(const char *path, par_costs *out, char *why, size_t why_len);
/* Writes a table (to path.tmp, then renamed); 0 or -1. */
int par_costs_write(const par_costs *costs, const char *path);
/* The table compiled in (measured on a 64-core EPYC 7702P, see costs.c). */
void par_costs_builtin(par_costs *out);
/* Makes costs the active table (copied); source is for tela_costs_source. */
void par_costs_install(const par_costs *costs, const char *source);
/* The dispatch cost of one section: share_ns where measured, else empty_ns,
 * interpolated between measured widths; beyond them the fit. */
double par_cost_at(const par_costs *costs, tela_route route, int width);
/* This machine: CPU model string and the CPUs this process may use. */
void par_cpu_identity(char *model, size_t len, int *cpus);
/* The per-user cache file for this CPU ($XDG_CACHE_HOME or ~/.cache,
 * tela/costs-<model>-<cpus>.txt); 0, or -1 if no home is known. */
int par_costs_cache_path(char *buf, size_t len);
/* The gate against an explicit table (tests); tela_gate_width uses the
 * active one. */
int par_gate_width_with(const par_costs *costs, double estimate_ns, int sections, tela_route route,
                        int max_width);
/* The gate's scan: the widest w in 2..max_width with estimate_ns >= PAYS *
 * w * (cost(route, w) + (sections - 1) * cost(team, w)), else 1. The
 * cheapest costs (least at any width) bound the scan. gate.c. */
int par_gate_scan(double estimate_ns, int sections, tela_route route, int max_width,
                  double cheapest_route, double cheapest_team,
                  double (*cost)(const void *table, tela_route, int), const void *table);
/* Whether a region of estimate_ns could pay a second member on route at
 * any width (the gate's necessary condition, from the active table). */
bool par_gate_may_pay(tela_route route, double estimate_ns);

/* Trace (TELA_TRACE=FILE): true when on. One write(2) per line on an
 * O_APPEND file, formatted on the stack: no lock, no allocation. */
bool par_trace_on_slow(void);
/* The trace's file: -2 until TELA_TRACE is read, then the fd or -1. Read
 * inline so a region with tracing off pays one load and one branch. */
extern _Atomic int par_trace_fd;
static inline bool par_trace_on(void)
{
    int fd = atomic_load_explicit(&par_trace_fd, memory_order_relaxed);
    return fd == -2 ? par_trace_on_slow() : fd >= 0;
}
void par_trace_region(const char *name, double estimate_ns, int sections, tela_route route,
                      int allowed, int width, double wall_ns);
/* Reopens the trace at path (NULL: off); for tests. */
void par_trace_open(const char *path);

/* ---- errors (error.c) ---- */

/* Reports through the installed handler; returns status for convenience. */
int par_error(int status, const char *where, const char *message);

#endif /* TELA_PAR_H */
