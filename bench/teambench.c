/* teambench.c — tela-teambench: tela's thread team against libgomp, one scenario per run.
 *
 * A section is one fork/join in which every member busy-waits the section's work on the clock;
 * a call is a run of sections. The tela side runs each section as one
 * tela_parallel(tela_par_team(team), w, ...) and the libgomp side (teambench_omp.c, the only
 * file built with -fopenmp) as one `#pragma omp parallel num_threads(w)` region, with the same
 * body code (teambench_clock.h), in the same process, in interleaved rounds with a settle sleep
 * before each side so the other runtime's spinning workers have gone quiet. Scenarios:
 * sections (calls of 200 sections of 5, 20, 50 us), gaps (wake latency and idle CPU burn after
 * idle gaps), acquire (held team, held pool, fresh pool with its phases). Output: a table of
 * medians over rounds (min-max) and tela/libgomp ratios, CSV, and CELL lines for bench-ab.sh.
 * Only tela.h is used here. */
#include "bench_median.h"
#include "tela.h"
#include "tela_bench_common.h"
#include "teambench_load.h"
#include "teambench_omp.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* Widest width accepted on the command line; a typo such as 20000 should not start threads. */
#define MAX_WIDTH 1024
/* Most widths one run takes (--widths). */
#define MAX_WIDTHS 16
/* Most cells a scenario has (gaps has the most: 22). */
#define MAX_CELLS 48
/* Default pause before each side's round (and each tela arm of acquire), ms: both runtimes
 * let idle workers spin for a while (tela ~1-2 ms by default, libgomp longer) before they
 * sleep; without it the side measured second shares the CPUs with the other's spinners. */
#define DEFAULT_SETTLE_MS 30
/* Untimed empty regions per side when a width starts: threads created, code and pages warm. */
#define WARM_UP_REGIONS 2000
/* Untimed pool and team cycles when a width starts (acquire): the reserve holds its workers. */
#define WARM_UP_CYCLES 50

/* sections: fork/joins per call, and the busy work of each section, us per member. */
#define SECTIONS_PER_CALL 200
#define SECTION_WORKS     3
static const int section_work_us[SECTION_WORKS] = {5, 20, 50};
/* sections: untimed sections (of the smallest work) that start each side's round. */
#define SECTIONS_PRIMING 20

/* gaps: one call of GAP_CALL_SECTIONS sections of GAP_WORK_US after each idle gap. */
#define GAP_CALL_SECTIONS 50
#define GAP_WORK_US       20
#define GAP_COUNT         3
static const struct gap_info {
    const char *label; /* part of the cell name */
    int64_t ns;        /* idle time before the call */
} gap_infos[GAP_COUNT] = {{"100us", 100000}, {"1ms", 1000000}, {"10ms", 10000000}};
/* gaps: a longer idle gap after the last call of a round, for the idle CPU burn only. */
#define IDLE_BURN_GAP_NS    100000000LL
#define IDLE_BURN_GAP_LABEL "100ms"

enum scenario { SCENARIO_SECTIONS, SCENARIO_GAPS, SCENARIO_ACQUIRE, SCENARIO_COUNT };

static const struct scenario_info {
    const char *name;  /* --scenario value, first part of a CELL key, CSV column */
    int rounds, calls; /* defaults: each width takes about 20-60 s on 2 CPUs */
    int quick_rounds;  /* --quick: a smoke test, a few seconds */
    int quick_calls;   /* --quick */
} scenario_infos[SCENARIO_COUNT] = {
    [SCENARIO_SECTIONS] = {"sections", 100, 5, 3, 2},
    [SCENARIO_GAPS] = {"gaps", 40, 3, 3, 2},
    [SCENARIO_ACQUIRE] = {"acquire", 200, 200, 3, 20},
};

enum side { SIDE_TELA, SIDE_OMP, SIDE_COUNT };
static const char *const side_names[SIDE_COUNT] = {[SIDE_TELA] = "tela", [SIDE_OMP] = "omp"};

enum gap_mode { GAP_SLEEP, GAP_SPIN, GAP_MODE_COUNT };
static const char *const gap_mode_names[GAP_MODE_COUNT] = {
    [GAP_SLEEP] = "sleep", [GAP_SPIN] = "spin"};

/* acquire: the arms of the tela side, and the phases of a call timed in them. */
enum arm { ARM_HELD_TEAM, ARM_HELD_POOL, ARM_FRESH_POOL, ARM_COUNT };
static const char *const arm_names[ARM_COUNT] = {
    [ARM_HELD_TEAM] = "held_team", [ARM_HELD_POOL] = "held_pool", [ARM_FRESH_POOL] = "fresh_pool"};
enum phase {
    PHASE_BUILD,
    PHASE_ACQUIRE,
    PHASE_CALL,
    PHASE_RELEASE,
    PHASE_DESTROY,
    PHASE_TOTAL,
    PHASE_COUNT
};
static const char *const phase_names[PHASE_COUNT] = {
    [PHASE_BUILD] = "build",     [PHASE_ACQUIRE] = "acquire", [PHASE_CALL] = "call",
    [PHASE_RELEASE] = "release", [PHASE_DESTROY] = "destroy", [PHASE_TOTAL] = "total"};
/* Which phases each arm times. */
static const unsigned char arm_times[ARM_COUNT][PHASE_COUNT] = {
    [ARM_HELD_TEAM] = {[PHASE_CALL] = 1},
    [ARM_HELD_POOL] =
        {[PHASE_ACQUIRE] = 1, [PHASE_CALL] = 1, [PHASE_RELEASE] = 1, [PHASE_TOTAL] = 1},
    [ARM_FRESH_POOL] = {[PHASE_BUILD] = 1,
                        [PHASE_ACQUIRE] = 1,
                        [PHASE_CALL] = 1,
                        [PHASE_RELEASE] = 1,
                        [PHASE_DESTROY] = 1,
                        [PHASE_TOTAL] = 1},
};
/* The cell of each arm that libgomp's hot team is compared with: what the caller pays. */
static const enum phase arm_total_phase[ARM_COUNT] = {
    [ARM_HELD_TEAM] = PHASE_CALL, [ARM_HELD_POOL] = PHASE_TOTAL, [ARM_FRESH_POOL] = PHASE_TOTAL};

struct settings {
    enum scenario scenario;
    int widths[MAX_WIDTHS]; /* --widths, in the order given */
    int width_count;
    int rounds;                   /* interleaved rounds per width; 0 until set */
    int calls;                    /* calls per cell per round; 0 until set */
    int load_procs, load_percent; /* --load K:P; K = 0: no load */
    int run_side[SIDE_COUNT];     /* --side: which sides run */
    int gap_mode[GAP_MODE_COUNT]; /* --gap-mode: how the caller idles a gap */
    int work_us;                  /* acquire: busy us per member in the call's one section */
    int prologue_us;              /* gaps: serial busy us of the caller before each call's
                                     first section (a kernel's checks and packing) */
    int prewake;                  /* gaps: tela wakes its members before the prologue */
    int settle_ms;                /* --settle-ms */
    int quick;                    /* --quick: smoke-test rounds and calls */
    int emit_cells;               /* --emit-cells: CELL lines for bench-ab.sh */
    int csv_stdout;               /* --format csv-stdout */
    const char *csv_path;         /* --csv FILE, or NULL */
};

enum unit { UNIT_US, UNIT_CPU };
static const char *const unit_names[] = {[UNIT_US] = "us", [UNIT_CPU] = "cpu_s_per_s"};
static const char *const unit_labels[] = {[UNIT_US] = "us", [UNIT_CPU] = "cpu s/s"};

/* A row of the results: one quantity measured by one or both sides. */
struct cell {
    char name[32];  /* table row, CSV cell and CELL key, e.g. "sleep1ms-first" */
    enum unit unit; /* us, or CPU seconds per second of gap */
    unsigned sides; /* bit (1u << side) for every side that measures it */
};

/* The cells of the scenario run, and where each measured value goes (-1: not measured). */
struct plan {
    struct cell cells[MAX_CELLS];
    int count;
    int section_call[SECTION_WORKS], section_overhead[SECTION_WORKS];
    int nogap_first, nogap_call;
    int gap_first[GAP_MODE_COUNT][GAP_COUNT], gap_call[GAP_MODE_COUNT][GAP_COUNT];
    int gap_burn[GAP_MODE_COUNT][GAP_COUNT];
    int idle_burn[GAP_MODE_COUNT];
    int acquire[ARM_COUNT][PHASE_COUNT];
};

/* Everything the rounds of one width use. */
struct run {
    const struct settings *settings;
    const struct plan *plan;
    int width;
    tela_pool *pool;      /* held for the whole width */
    tela_team *team;      /* acquired once from pool: sections, gaps, acquire's held_team */
    tela_pool *held_pool; /* acquire's held_pool arm: a team is leased from it per call */
    clockid_t tela_clocks[MAX_WIDTH]; /* CPU clocks of the team's members 1..w-1 */
    int tela_clock_count;
    clockid_t omp_clocks[MAX_WIDTH]; /* CPU clocks of libgomp's threads 1..w-1 */
    int omp_clock_count;
    int tela_granted, omp_granted; /* widths the warm-up regions really ran */
    long tela_narrow, omp_narrow;  /* timed regions narrower than asked (should stay 0) */
    double *scratch;               /* per-call values of one cell, calls * PHASE_COUNT */
};

/* Index of (width index, cell, side) in the results; samples hold rounds values per index. */
static size_t slot(int width_index, int cell, enum side side)
{
    return ((size_t)width_index * MAX_CELLS + (size_t)cell) * SIDE_COUNT + (size_t)side;
}

struct summary {
    double median, min, max; /* over the rounds' values */
    int valid;               /* 0: this side does not measure this cell */
};

static struct tb_load load; /* --load processes; stopped on every exit path */

static void stop_load(void)
{
    int gone = tb_load_stop(&load);
    if (gone)
        fprintf(stderr,
                "tela-teambench: WARNING: %d load process(es) had stopped before the end "
                "(lifetime too short): part of the run was measured without the load\n",
                gone);
}

static void fail(const char *what)
{
    fprintf(stderr, "tela-teambench: %s\n", what);
    stop_load();
    exit(1);
}

static double ns_to_us(int64_t ns)
{
    return (double)ns * 1e-3;
}

static void settle(const struct run *run)
{
    tb_sleep_until_ns(tb_now_ns() + (int64_t)run->settings->settle_ms * 1000000);
}

/* ---- the plan: the cells of a scenario ---------------------------------------------------- */

static int add_cell(struct plan *plan, enum unit unit, unsigned sides, const char *format,
                    const char *a, const char *b)
{
    if (plan->count >= MAX_CELLS)
        fail("internal error: too many cells");
    struct cell *cell = &plan->cells[plan->count];
    snprintf(cell->name, sizeof cell->name, format, a, b);
    cell->unit = unit;
    cell->sides = sides;
    return plan->count++;
}

static void make_plan(const struct settings *settings, struct plan *plan)
{
    const unsigned both = 1u << SIDE_TELA | 1u << SIDE_OMP;
    memset(plan, 0, sizeof *plan);
    memset(plan->gap_first, -1, sizeof plan->gap_first);
    memset(plan->gap_call, -1, sizeof plan->gap_call);
    memset(plan->gap_burn, -1, sizeof plan->gap_burn);
    memset(plan->idle_burn, -1, sizeof plan->idle_burn);
    memset(plan->acquire, -1, sizeof plan->acquire);
    char work[16];
    switch (settings->scenario) {
    case SCENARIO_SECTIONS:
        for (int k = 0; k < SECTION_WORKS; k++) {
            snprintf(work, sizeof work, "%dus", section_work_us[k]);
            plan->section_call[k] = add_cell(plan, UNIT_US, both, "%s-%s", work, "call");
            plan->section_overhead[k] = add_cell(plan, UNIT_US, both, "%s-%s", work, "overhead");
        }
        break;
    case SCENARIO_GAPS:
        plan->nogap_first = add_cell(plan, UNIT_US, both, "%s-%s", "nogap", "first");
        plan->nogap_call = add_cell(plan, UNIT_US, both, "%s-%s", "nogap", "call");
        for (int m = 0; m < GAP_MODE_COUNT; m++) {
            if (!settings->gap_mode[m])
                continue;
            for (int g = 0; g < GAP_COUNT; g++) {
                char gap[32];
                snprintf(gap, sizeof gap, "%s%s", gap_mode_names[m], gap_infos[g].label);
                plan->gap_first[m][g] = add_cell(plan, UNIT_US, both, "%s-%s", gap, "first");
                plan->gap_call[m][g] = add_cell(plan, UNIT_US, both, "%s-%s", gap, "call");
                plan->gap_burn[m][g] = add_cell(plan, UNIT_CPU, both, "%s-%s", gap, "burn");
            }
        }
        for (int m = 0; m < GAP_MODE_COUNT; m++) {
            if (settings->gap_mode[m])
                plan->idle_burn[m] = add_cell(plan, UNIT_CPU, both, "%s" IDLE_BURN_GAP_LABEL "-%s",
                                              gap_mode_names[m], "burn");
        }
        break;
    case SCENARIO_ACQUIRE:
        for (int a = 0; a < ARM_COUNT; a++) {
            for (int p = 0; p < PHASE_COUNT; p++) {
                if (!arm_times[a][p])
                    continue;
                unsigned sides = p == (int)arm_total_phase[a] ? both : 1u << SIDE_TELA;
                plan->acquire[a][p] =
                    add_cell(plan, UNIT_US, sides, "%s-%s", arm_names[a], phase_names[p]);
            }
        }
        break;
    case SCENARIO_COUNT:
        break;
    }
}

/* ---- the tela side -------------------------------------------------------------------------- */

struct spin_job {
    int64_t work_ns; /* busy-wait of every member */
};

static void spin_body(tela_member *self, void *arg)
{
    (void)self;
    const struct spin_job *job = arg;
    tb_spin_ns(job->work_ns);
}

/* One call on team: sections fork/joins of the run's width, each member busy-waiting work_ns.
 * Returns the call's ns as seen by the caller; *first_ns (if not NULL) gets the time from the
 * call's start to the end of the first section. Mirrors tb_omp_call. */
static int64_t tela_call(struct run *run, tela_team *team, int sections, int64_t work_ns,
                         int64_t *first_ns)
{
    struct spin_job job = {work_ns};
    const tela_par par = tela_par_team(team);
    long narrow = 0;
    int64_t start = tb_now_ns(), first = start;
    for (int i = 0; i < sections; i++) {
        narrow += tela_parallel(par, run->width, spin_body, &job) != run->width;
        if (i == 0)
            first = tb_now_ns();
    }
    int64_t end = tb_now_ns();
    if (first_ns)
        *first_ns = first - start;
    run->tela_narrow += narrow;
    return end - start;
}

struct clock_job {
    clockid_t *clocks; /* slot rank-1 for members 1..w-1 */
    int failed[MAX_WIDTH];
};

static void record_clock_body(tela_member *self, void *arg)
{
    struct clock_job *job = arg;
    int rank = tela_rank(self);
    if (rank > 0) /* each member writes its own slot; the region's join publishes them */
        job->failed[rank] = pthread_getcpuclockid(pthread_self(), &job->clocks[rank - 1]) != 0;
}

/* The CPU clocks of the held team's members 1..w-1 (their threads stay while it is held). */
static int tela_worker_clocks(struct run *run)
{
    static struct clock_job job;
    memset(&job, 0, sizeof job);
    job.clocks = run->tela_clocks;
    int used = tela_parallel(tela_par_team(run->team), run->width, record_clock_body, &job);
    for (int r = 1; r < used; r++) {
        if (job.failed[r])
            return -1;
    }
    return used - 1;
}

/* One call on a team leased for it from the held pool; t[phase] gets the phases' us. */
static void held_pool_cycle(struct run *run, int64_t work_ns, double t[PHASE_COUNT])
{
    int64_t t0 = tb_now_ns();
    tela_team *team = tela_team_acquire(run->held_pool, run->width);
    int64_t t1 = tb_now_ns();
    if (!team)
        fail("tela_team_acquire on the held pool failed");
    tela_call(run, team, 1, work_ns, NULL);
    int64_t t2 = tb_now_ns();
    tela_team_release(team);
    int64_t t3 = tb_now_ns();
    t[PHASE_ACQUIRE] = ns_to_us(t1 - t0);
    t[PHASE_CALL] = ns_to_us(t2 - t1);
    t[PHASE_RELEASE] = ns_to_us(t3 - t2);
    t[PHASE_TOTAL] = ns_to_us(t3 - t0);
}

/* One call on a pool built for it: build, acquire, call, release, destroy. */
static void fresh_pool_cycle(struct run *run, int64_t work_ns, double t[PHASE_COUNT])
{
    tela_pool_opts opts = {0};
    opts.width = run->width;
    int64_t t0 = tb_now_ns();
    tela_pool *pool = tela_pool_create(&opts);
    int64_t t1 = tb_now_ns();
    tela_team *team = pool ? tela_team_acquire(pool, run->width) : NULL;
    int64_t t2 = tb_now_ns();
    if (!team)
        fail("tela_pool_create or tela_team_acquire failed in the fresh_pool arm");
    tela_call(run, team, 1, work_ns, NULL);
    int64_t t3 = tb_now_ns();
    tela_team_release(team);
    int64_t t4 = tb_now_ns();
    tela_pool_destroy(pool);
    int64_t t5 = tb_now_ns();
    t[PHASE_BUILD] = ns_to_us(t1 - t0);
    t[PHASE_ACQUIRE] = ns_to_us(t2 - t1);
    t[PHASE_CALL] = ns_to_us(t3 - t2);
    t[PHASE_RELEASE] = ns_to_us(t4 - t3);
    t[PHASE_DESTROY] = ns_to_us(t5 - t4);
    t[PHASE_TOTAL] = ns_to_us(t5 - t0);
}

/* ---- the scenarios, side by side ------------------------------------------------------------ */

/* One call of either side (see tela_call and tb_omp_call). A timed gaps call (first_ns
 * wanted) starts with the caller's serial prologue, if any, counted in both times. */
static int64_t side_call(struct run *run, enum side side, int sections, int64_t work_ns,
                         int64_t *first_ns)
{
    int64_t prologue_ns = 0;
    if (first_ns && run->settings->prologue_us > 0) {
        int64_t start = tb_now_ns();
        if (side == SIDE_TELA && run->settings->prewake)
            tela_team_prewake(run->team, run->width);
        tb_spin_ns((int64_t)run->settings->prologue_us * 1000);
        prologue_ns = tb_now_ns() - start;
    }
    int64_t call_ns = side == SIDE_TELA
                          ? tela_call(run, run->team, sections, work_ns, first_ns)
                          : tb_omp_call(run->width, sections, work_ns, first_ns, &run->omp_narrow);
    if (first_ns)
        *first_ns += prologue_ns;
    return call_ns + prologue_ns;
}

static int64_t cpu_sum_ns(const clockid_t *clocks, int count)
{
    int64_t sum = 0;
    for (int i = 0; i < count; i++) {
        struct timespec ts;
        if (clock_gettime(clocks[i], &ts) == 0)
            sum += (int64_t)ts.tv_sec * TB_NS_PER_S + ts.tv_nsec;
    }
    return sum;
}

/* The caller idles gap_ns, sleeping or spinning; returns the CPU seconds the side's other
 * members (clocks) used per second of the gap. */
static double idle_gap(int64_t gap_ns, enum gap_mode mode, const clockid_t *clocks, int count)
{
    int64_t start = tb_now_ns();
    int64_t cpu_start = cpu_sum_ns(clocks, count);
    if (mode == GAP_SLEEP)
        tb_sleep_until_ns(start + gap_ns);
    else
        tb_spin_until_ns(start + gap_ns);
    int64_t cpu_end = cpu_sum_ns(clocks, count);
    int64_t end = tb_now_ns();
    return (double)(cpu_end - cpu_start) / (double)(end - start);
}

static void sections_round(struct run *run, enum side side, double *out)
{
    const int calls = run->settings->calls;
    settle(run);
    side_call(run, side, SECTIONS_PRIMING, (int64_t)section_work_us[0] * 1000, NULL);
    for (int k = 0; k < SECTION_WORKS; k++) {
        const int64_t work_ns = (int64_t)section_work_us[k] * 1000;
        for (int c = 0; c < calls; c++)
            run->scratch[c] = ns_to_us(side_call(run, side, SECTIONS_PER_CALL, work_ns, NULL));
        double call_us = median_of(run->scratch, calls);
        out[run->plan->section_call[k]] = call_us;
        out[run->plan->section_overhead[k]] =
            call_us / SECTIONS_PER_CALL - (double)section_work_us[k];
    }
}

static void gaps_round(struct run *run, enum side side, double *out)
{
    const struct plan *plan = run->plan;
    const int calls = run->settings->calls;
    const int64_t work_ns = (int64_t)GAP_WORK_US * 1000;
    double *first = run->scratch, *whole = first + calls, *burn = whole + calls;
    settle(run);
    if (side == SIDE_OMP) {
        /* Read each round: should libgomp ever replace a thread, the clocks follow it. */
        run->omp_clock_count = tb_omp_worker_clocks(run->width, run->omp_clocks, MAX_WIDTH);
        if (run->omp_clock_count < 0)
            fail("could not read the CPU clocks of libgomp's threads");
    }
    const clockid_t *clocks = side == SIDE_TELA ? run->tela_clocks : run->omp_clocks;
    const int clock_count = side == SIDE_TELA ? run->tela_clock_count : run->omp_clock_count;

    side_call(run, side, GAP_CALL_SECTIONS, work_ns, NULL); /* the team is hot from here */
    for (int c = 0; c < calls; c++) {
        int64_t first_ns;
        whole[c] = ns_to_us(side_call(run, side, GAP_CALL_SECTIONS, work_ns, &first_ns));
        first[c] = ns_to_us(first_ns);
    }
    out[plan->nogap_first] = median_of(first, calls);
    out[plan->nogap_call] = median_of(whole, calls);

    for (int m = 0; m < GAP_MODE_COUNT; m++) {
        if (!run->settings->gap_mode[m])
            continue;
        for (int g = 0; g < GAP_COUNT; g++) {
            for (int c = 0; c < calls; c++) {
                int64_t first_ns;
                burn[c] = idle_gap(gap_infos[g].ns, (enum gap_mode)m, clocks, clock_count);
                whole[c] = ns_to_us(side_call(run, side, GAP_CALL_SECTIONS, work_ns, &first_ns));
                first[c] = ns_to_us(first_ns);
            }
            out[plan->gap_first[m][g]] = median_of(first, calls);
            out[plan->gap_call[m][g]] = median_of(whole, calls);
            out[plan->gap_burn[m][g]] = median_of(burn, calls);
        }
    }
    /* A long gap after one more call, per mode: one sample per round, for the burn only. */
    for (int m = 0; m < GAP_MODE_COUNT; m++) {
        if (!run->settings->gap_mode[m])
            continue;
        side_call(run, side, GAP_CALL_SECTIONS, work_ns, NULL);
        out[plan->idle_burn[m]] = idle_gap(IDLE_BURN_GAP_NS, (enum gap_mode)m, clocks, clock_count);
    }
}

/* Median over the round's calls of each phase an arm times; phases[p] holds calls values. */
static void store_phases(struct run *run, enum arm arm, double *phases[PHASE_COUNT], double *out)
{
    for (int p = 0; p < PHASE_COUNT; p++) {
        if (arm_times[arm][p])
            out[run->plan->acquire[arm][p]] = median_of(phases[p], run->settings->calls);
    }
}

static void acquire_round(struct run *run, enum side side, double *out)
{
    const int calls = run->settings->calls;
    const int64_t work_ns = (int64_t)run->settings->work_us * 1000;
    double *phases[PHASE_COUNT];
    for (int p = 0; p < PHASE_COUNT; p++)
        phases[p] = run->scratch + (size_t)p * (size_t)calls;
    double t[PHASE_COUNT];

    if (side == SIDE_OMP) {
        /* libgomp's counterpart of every arm: one region on its hot team per call. */
        settle(run);
        tb_omp_call(run->width, 1, work_ns, NULL, &run->omp_narrow);
        for (int c = 0; c < calls; c++)
            phases[PHASE_CALL][c] =
                ns_to_us(tb_omp_call(run->width, 1, work_ns, NULL, &run->omp_narrow));
        double hot = median_of(phases[PHASE_CALL], calls);
        for (int a = 0; a < ARM_COUNT; a++)
            out[run->plan->acquire[a][arm_total_phase[a]]] = hot;
        return;
    }

    settle(run);
    tela_call(run, run->team, 1, work_ns, NULL);
    for (int c = 0; c < calls; c++)
        phases[PHASE_CALL][c] = ns_to_us(tela_call(run, run->team, 1, work_ns, NULL));
    store_phases(run, ARM_HELD_TEAM, phases, out);

    settle(run);
    held_pool_cycle(run, work_ns, t);
    for (int c = 0; c < calls; c++) {
        held_pool_cycle(run, work_ns, t);
        for (int p = 0; p < PHASE_COUNT; p++)
            phases[p][c] = t[p];
    }
    store_phases(run, ARM_HELD_POOL, phases, out);

    settle(run);
    fresh_pool_cycle(run, work_ns, t);
    for (int c = 0; c < calls; c++) {
        fresh_pool_cycle(run, work_ns, t);
        for (int p = 0; p < PHASE_COUNT; p++)
            phases[p][c] = t[p];
    }
    store_phases(run, ARM_FRESH_POOL, phases, out);
}

static void run_side_round(struct run *run, enum side side, double *out)
{
    switch (run->settings->scenario) {
    case SCENARIO_SECTIONS:
        sections_round(run, side, out);
        break;
    case SCENARIO_GAPS:
        gaps_round(run, side, out);
        break;
    case SCENARIO_ACQUIRE:
        acquire_round(run, side, out);
        break;
    case SCENARIO_COUNT:
        break;
    }
}

/* Builds the width's pools and team and warms both sides up (untimed). */
static void start_width(struct run *run)
{
    const struct settings *settings = run->settings;
    tela_pool_opts opts = {0};
    opts.width = run->width;
    run->pool = tela_pool_create(&opts);
    run->team = run->pool ? tela_team_acquire(run->pool, run->width) : NULL;
    if (!run->team)
        fail("could not get a tela team");
    if (settings->scenario == SCENARIO_ACQUIRE) {
        run->held_pool = tela_pool_create(&opts);
        if (!run->held_pool)
            fail("could not build the held pool");
    }
    if (settings->run_side[SIDE_TELA]) {
        tela_call(run, run->team, WARM_UP_REGIONS, 0, NULL);
        run->tela_narrow = 0;
        run->tela_granted =
            tela_parallel(tela_par_team(run->team), run->width, spin_body, &(struct spin_job){0});
        if (settings->scenario == SCENARIO_ACQUIRE) {
            double t[PHASE_COUNT];
            for (int i = 0; i < WARM_UP_CYCLES; i++) {
                held_pool_cycle(run, 0, t);
                fresh_pool_cycle(run, 0, t);
            }
            run->tela_narrow = 0;
        }
        run->tela_clock_count = tela_worker_clocks(run);
        if (run->tela_clock_count < 0)
            fail("could not read the CPU clocks of tela's workers");
    }
    if (settings->run_side[SIDE_OMP])
        run->omp_granted = tb_omp_warm_up(run->width, WARM_UP_REGIONS);
}

static void end_width(struct run *run)
{
    tela_team_release(run->team);
    tela_pool_destroy(run->pool);
    tela_pool_destroy(run->held_pool);
    run->team = NULL;
    run->pool = run->held_pool = NULL;
}

/* ---- reporting ------------------------------------------------------------------------------ */

/* Fewer decimals as times grow, so a 10 ms outlier does not widen every column. */
static const char *format_value(double value, enum unit unit, char *text, size_t size)
{
    int decimals = unit == UNIT_CPU ? 3 : value < 10.0 ? 2 : value < 1000.0 ? 1 : 0;
    snprintf(text, size, "%.*f", decimals, value);
    return text;
}

static const char *format_summary(struct summary s, enum unit unit, char *text, size_t size)
{
    char median[24], min[24], max[24];
    if (!s.valid)
        snprintf(text, size, "-");
    else
        snprintf(text, size, "%s (%s-%s)", format_value(s.median, unit, median, sizeof median),
                 format_value(s.min, unit, min, sizeof min),
                 format_value(s.max, unit, max, sizeof max));
    return text;
}

static const char *format_ratio(struct summary tela, struct summary omp, char *text, size_t size)
{
    if (tela.valid && omp.valid && omp.median > 0.0)
        snprintf(text, size, "%.2f", tela.median / omp.median);
    else
        snprintf(text, size, "-");
    return text;
}

/* Median and range of the rounds' values (NaN: not measured). */
static struct summary summarize(const double *values, int rounds, double *buffer)
{
    int count = 0;
    for (int r = 0; r < rounds; r++) {
        if (!isnan(values[r]))
            buffer[count++] = values[r];
    }
    if (count == 0)
        return (struct summary){0.0, 0.0, 0.0, 0};
    double median = median_of(buffer, count);
    return (struct summary){median, buffer[0], buffer[count - 1], 1};
}

static void print_legend(const struct settings *settings)
{
    switch (settings->scenario) {
    case SCENARIO_SECTIONS:
        printf("  Nus-call: us per call of %d sections of N us; Nus-overhead: us per section "
               "beyond its work (call/%d - N)\n",
               SECTIONS_PER_CALL, SECTIONS_PER_CALL);
        break;
    case SCENARIO_GAPS:
        printf("  each call: %d sections of %d us; <mode><gap>-first: from the call's start to "
               "the end of its first\n  section (wake latency); -call: the whole call; nogap: "
               "right after the previous call;\n  -burn: CPU s used by the side's members "
               "1..w-1 per s of the gap before the call (1.0 = one core\n  spinning the whole "
               "gap); sleep%s/spin%s-burn: one idle gap after the round's last call, burn "
               "only\n",
               GAP_CALL_SECTIONS, GAP_WORK_US, IDLE_BURN_GAP_LABEL, IDLE_BURN_GAP_LABEL);
        break;
    case SCENARIO_ACQUIRE:
        printf("  a call is one section of %d us (%s); held_team: one team acquired once, "
               "calls back to back;\n  held_pool: a pool held, a team acquired and released "
               "per call; fresh_pool: pool built and destroyed\n  per call (phases and total); "
               "libgomp: one region of its hot team per call, the same value\n  compared with "
               "each arm's total\n",
               settings->work_us, settings->work_us ? "busy work" : "an empty region");
        break;
    case SCENARIO_COUNT:
        break;
    }
}

static const char *load_text(const struct settings *settings, char *text, size_t size)
{
    if (settings->load_procs)
        snprintf(text, size, "%d:%d", settings->load_procs, settings->load_percent);
    else
        snprintf(text, size, "none");
    return text;
}

static void print_tables(const struct settings *settings, const struct plan *plan,
                         const struct summary *results, const struct run *runs)
{
    for (int w = 0; w < settings->width_count; w++) {
        printf("\n%s at width %d", scenario_infos[settings->scenario].name, settings->widths[w]);
        if (settings->run_side[SIDE_TELA])
            printf(", tela ran %d wide", runs[w].tela_granted);
        if (settings->run_side[SIDE_OMP])
            printf(", libgomp ran %d wide", runs[w].omp_granted);
        printf("\n%-18s %-7s | %-30s | %-30s | %s\n", "cell", "unit", "tela median (min-max)",
               "libgomp median (min-max)", "tela/libgomp");
        printf("%.26s-+-%.30s-+-%.30s-+-%.12s\n", "------------------------------",
               "------------------------------", "------------------------------", "------------");
        for (int c = 0; c < plan->count; c++) {
            const struct cell *cell = &plan->cells[c];
            const struct summary *r = &results[slot(w, c, SIDE_TELA)];
            char tela[96], omp[96], ratio[32];
            printf("%-18s %-7s | %-30s | %-30s | %s\n", cell->name, unit_labels[cell->unit],
                   format_summary(r[SIDE_TELA], cell->unit, tela, sizeof tela),
                   format_summary(r[SIDE_OMP], cell->unit, omp, sizeof omp),
                   format_ratio(r[SIDE_TELA], r[SIDE_OMP], ratio, sizeof ratio));
        }
        if (runs[w].tela_narrow)
            printf("WARNING: %ld timed tela regions ran narrower than %d\n", runs[w].tela_narrow,
                   settings->widths[w]);
        if (runs[w].omp_narrow)
            printf("WARNING: %ld timed libgomp regions ran narrower than %d\n", runs[w].omp_narrow,
                   settings->widths[w]);
    }
    print_legend(settings);
    printf("  medians over rounds of each round's median over its calls; (min-max) of the "
           "rounds' values; ratio < 1: tela is faster (or burns less)\n");

    if (settings->width_count < 2 || !settings->run_side[SIDE_TELA] ||
        !settings->run_side[SIDE_OMP])
        return;
    printf("\nsummary: tela/libgomp, ratio of medians\n%-18s", "cell");
    for (int w = 0; w < settings->width_count; w++)
        printf(" | w%-5d", settings->widths[w]);
    printf("\n");
    for (int c = 0; c < plan->count; c++) {
        if (plan->cells[c].sides != (1u << SIDE_TELA | 1u << SIDE_OMP))
            continue;
        printf("%-18s", plan->cells[c].name);
        for (int w = 0; w < settings->width_count; w++) {
            const struct summary *r = &results[slot(w, c, SIDE_TELA)];
            char ratio[32];
            printf(" | %-6s", format_ratio(r[SIDE_TELA], r[SIDE_OMP], ratio, sizeof ratio));
        }
        printf("\n");
    }
}

static void write_csv_rows(FILE *out, const struct settings *settings, const struct plan *plan,
                           const struct summary *results)
{
    char load_buf[32];
    load_text(settings, load_buf, sizeof load_buf);
    fprintf(out, "scenario,cell,width,side,median,min,max,unit,rounds,calls,load\n");
    for (int w = 0; w < settings->width_count; w++) {
        for (int c = 0; c < plan->count; c++) {
            for (int s = 0; s < SIDE_COUNT; s++) {
                struct summary r = results[slot(w, c, (enum side)s)];
                if (!r.valid)
                    continue;
                fprintf(out, "%s,%s,%d,%s,%.6f,%.6f,%.6f,%s,%d,%d,%s\n",
                        scenario_infos[settings->scenario].name, plan->cells[c].name,
                        settings->widths[w], side_names[s], r.median, r.min, r.max,
                        unit_names[plan->cells[c].unit], settings->rounds, settings->calls,
                        load_buf);
            }
        }
    }
}

static void emit_cells(const struct settings *settings, const struct plan *plan,
                       const struct summary *results)
{
    for (int w = 0; w < settings->width_count; w++) {
        for (int c = 0; c < plan->count; c++) {
            for (int s = 0; s < SIDE_COUNT; s++) {
                struct summary r = results[slot(w, c, (enum side)s)];
                if (r.valid)
                    printf("CELL %s/%s/w%d/%s %.6f\n", scenario_infos[settings->scenario].name,
                           plan->cells[c].name, settings->widths[w], side_names[s], r.median);
            }
        }
    }
}

/* ---- command line --------------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: tela-teambench --scenario sections|gaps|acquire [options]\n"
        "  Times tela's thread team and libgomp on the same scenario in one process, in\n"
        "  interleaved rounds; a section is one fork/join in which every member busy-waits\n"
        "  its work on the clock, a call is a run of sections.\n"
        "  --scenario S        sections: calls of %d sections of 5, 20, 50 us;\n"
        "                      gaps: one call of %d sections of %d us after idle gaps of 0,\n"
        "                      100 us, 1 ms, 10 ms: first-section time, call time, idle burn;\n"
        "                      acquire: held_team, held_pool, fresh_pool (with phases)\n"
        "  --widths LIST       comma-separated widths, the caller included (default 2)\n"
        "  --rounds N          interleaved rounds per width (default: sections %d, gaps %d,\n"
        "                      acquire %d)\n"
        "  --calls N           calls per cell per round, their median is the round's value\n"
        "                      (default: sections %d, gaps %d, acquire %d)\n"
        "  --quick             few rounds and calls (a smoke test); explicit values win\n"
        "  --load K:P          K background processes, each busy P%% of every 10 ms\n"
        "  --gap-mode M        gaps: how the caller idles: sleep, spin or both (default)\n"
        "  --work US           acquire: busy us of the call's one section (default 0: empty)\n"
        "  --prologue US       gaps: the caller busy-waits US before each call's first section\n"
        "                      (a kernel's serial start: checks, packing); counted in the times\n"
        "  --prewake           gaps: tela calls tela_team_prewake before that prologue\n"
        "  --settle-ms N       sleep before each side's round (default %d)\n"
        "  --side S            tela, omp or both (default both)\n"
        "  --format F          table (default) or csv-stdout (CSV on stdout, header on stderr)\n"
        "  --csv FILE          also write the results as CSV\n"
        "  --emit-cells        also print 'CELL <scenario>/<cell>/w<width>/<side> <median>'\n",
        SECTIONS_PER_CALL, GAP_CALL_SECTIONS, GAP_WORK_US, scenario_infos[SCENARIO_SECTIONS].rounds,
        scenario_infos[SCENARIO_GAPS].rounds, scenario_infos[SCENARIO_ACQUIRE].rounds,
        scenario_infos[SCENARIO_SECTIONS].calls, scenario_infos[SCENARIO_GAPS].calls,
        scenario_infos[SCENARIO_ACQUIRE].calls, DEFAULT_SETTLE_MS);
}

/* Parses a whole decimal number in [min, max]; -1 with a message otherwise. */
static int parse_int(const char *option, const char *text, int min, int max, int *value)
{
    char *end;
    errno = 0;
    long parsed = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || end == text || *end != '\0' || parsed < min || parsed > max) {
        fprintf(stderr, "tela-teambench: %s needs a number from %d to %d\n", option, min, max);
        return -1;
    }
    *value = (int)parsed;
    return 0;
}

static int parse_widths(const char *text, struct settings *settings)
{
    char buffer[256];
    if (!text || strlen(text) >= sizeof buffer) {
        fprintf(stderr, "tela-teambench: --widths needs a list such as 2,4,8\n");
        return -1;
    }
    snprintf(buffer, sizeof buffer, "%s", text);
    settings->width_count = 0;
    char *saved = NULL;
    for (char *item = strtok_r(buffer, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) {
        if (settings->width_count == MAX_WIDTHS) {
            fprintf(stderr, "tela-teambench: at most %d widths\n", MAX_WIDTHS);
            return -1;
        }
        if (parse_int("--widths", item, 1, MAX_WIDTH, &settings->widths[settings->width_count]))
            return -1;
        settings->width_count++;
    }
    if (settings->width_count == 0) {
        fprintf(stderr, "tela-teambench: --widths needs a list such as 2,4,8\n");
        return -1;
    }
    return 0;
}

static int parse_load(const char *text, struct settings *settings)
{
    char procs[32];
    const char *colon = text ? strchr(text, ':') : NULL;
    if (!colon || (size_t)(colon - text) >= sizeof procs) {
        fprintf(stderr, "tela-teambench: --load needs K:P, e.g. 2:50\n");
        return -1;
    }
    snprintf(procs, sizeof procs, "%.*s", (int)(colon - text), text);
    if (parse_int("--load K", procs, 0, TB_LOAD_MAX_PROCS, &settings->load_procs) ||
        parse_int("--load P", colon + 1, 0, 100, &settings->load_percent))
        return -1;
    return 0;
}

/* Returns 0 to run, 1 to exit successfully (--help), -1 on a bad command line. Later options
 * override earlier ones (bench-ab.sh appends its own). */
static int parse_arguments(int argc, char **argv, struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    settings->scenario = SCENARIO_COUNT;
    settings->widths[0] = 2;
    settings->width_count = 1;
    settings->run_side[SIDE_TELA] = settings->run_side[SIDE_OMP] = 1;
    settings->gap_mode[GAP_SLEEP] = settings->gap_mode[GAP_SPIN] = 1;
    settings->settle_ms = DEFAULT_SETTLE_MS;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1, bad = 0;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "--scenario")) {
            settings->scenario = SCENARIO_COUNT;
            for (int s = 0; s < SCENARIO_COUNT; s++) {
                if (value && !strcmp(value, scenario_infos[s].name))
                    settings->scenario = (enum scenario)s;
            }
            bad = settings->scenario == SCENARIO_COUNT;
        } else if (!strcmp(option, "--widths")) {
            if (parse_widths(value, settings))
                return -1;
        } else if (!strcmp(option, "--rounds")) {
            if (parse_int(option, value, 1, 1000000, &settings->rounds))
                return -1;
        } else if (!strcmp(option, "--calls")) {
            if (parse_int(option, value, 1, 1000000, &settings->calls))
                return -1;
        } else if (!strcmp(option, "--load")) {
            if (parse_load(value, settings))
                return -1;
        } else if (!strcmp(option, "--work")) {
            if (parse_int(option, value, 0, 1000000, &settings->work_us))
                return -1;
        } else if (!strcmp(option, "--settle-ms")) {
            if (parse_int(option, value, 0, 10000, &settings->settle_ms))
                return -1;
        } else if (!strcmp(option, "--gap-mode")) {
            int sleep = value && (!strcmp(value, "sleep") || !strcmp(value, "both"));
            int spin = value && (!strcmp(value, "spin") || !strcmp(value, "both"));
            settings->gap_mode[GAP_SLEEP] = sleep;
            settings->gap_mode[GAP_SPIN] = spin;
            bad = !sleep && !spin;
        } else if (!strcmp(option, "--side")) {
            int tela = value && (!strcmp(value, "tela") || !strcmp(value, "both"));
            int omp = value && (!strcmp(value, "omp") || !strcmp(value, "both"));
            settings->run_side[SIDE_TELA] = tela;
            settings->run_side[SIDE_OMP] = omp;
            bad = !tela && !omp;
        } else if (!strcmp(option, "--format")) {
            bad = !value || (strcmp(value, "table") != 0 && strcmp(value, "csv-stdout") != 0);
            settings->csv_stdout = value && !strcmp(value, "csv-stdout");
        } else if (!strcmp(option, "--csv")) {
            bad = !value;
            settings->csv_path = value;
        } else if (!strcmp(option, "--prologue")) {
            if (parse_int(option, value, 0, 1000000, &settings->prologue_us))
                return -1;
        } else if (!strcmp(option, "--prewake")) {
            settings->prewake = 1;
            takes_value = 0;
        } else if (!strcmp(option, "--quick")) {
            settings->quick = 1;
            takes_value = 0;
        } else if (!strcmp(option, "--emit-cells")) {
            settings->emit_cells = 1;
            takes_value = 0;
        } else {
            fprintf(stderr, "tela-teambench: unknown argument '%s'\n", option);
            usage(stderr);
            return -1;
        }
        if (bad) {
            fprintf(stderr, "tela-teambench: bad or missing value for %s\n", option);
            usage(stderr);
            return -1;
        }
        i += takes_value;
    }
    if (settings->scenario == SCENARIO_COUNT) {
        fprintf(stderr, "tela-teambench: --scenario sections|gaps|acquire is required\n");
        usage(stderr);
        return -1;
    }
    const struct scenario_info *info = &scenario_infos[settings->scenario];
    if (!settings->rounds)
        settings->rounds = settings->quick ? info->quick_rounds : info->rounds;
    if (!settings->calls)
        settings->calls = settings->quick ? info->quick_calls : info->calls;
    return 0;
}

/* A rough upper estimate of the run's seconds, for the load processes' lifetime. */
static double expected_seconds(const struct settings *settings)
{
    const double settle = settings->settle_ms * 1e-3, calls = settings->calls;
    int sides = settings->run_side[SIDE_TELA] + settings->run_side[SIDE_OMP];
    int modes = settings->gap_mode[GAP_SLEEP] + settings->gap_mode[GAP_SPIN];
    double side_round = 0.0;
    switch (settings->scenario) {
    case SCENARIO_SECTIONS:
        side_round = settle + calls * SECTIONS_PER_CALL * (5 + 20 + 50) * 1e-6;
        break;
    case SCENARIO_GAPS:
        side_round = settle +
                     (calls + 2.0) * (1 + 3 * modes) * GAP_CALL_SECTIONS * GAP_WORK_US * 1e-6 +
                     modes * (calls * (100e-6 + 1e-3 + 10e-3) + IDLE_BURN_GAP_NS * 1e-9);
        break;
    case SCENARIO_ACQUIRE:
        side_round = 3 * (settle + calls * (settings->work_us * 1e-6 + 100e-6));
        break;
    case SCENARIO_COUNT:
        break;
    }
    /* Twice the nominal round for slow sections (a VM, a sanitizer), plus warm-up. */
    return settings->width_count * (settings->rounds * sides * 2.0 * side_round + 2.0);
}

static void print_header(FILE *out, const struct settings *settings, double load_lifetime_s)
{
    char cpu_model[256];
    tb_cpuinfo_value("model name", cpu_model, sizeof cpu_model);
    cpu_set_t mask;
    int affinity = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : -1;
    const char *spin_polls = getenv("TELA_SPIN_POLLS");
    fprintf(out, "tela-teambench: scenario %s, tela's thread team vs libgomp in one process\n",
            scenario_infos[settings->scenario].name);
    fprintf(out, "  CPU: %s, %ld CPUs online, %d in this process's affinity mask\n", cpu_model,
            sysconf(_SC_NPROCESSORS_ONLN), affinity);
    fprintf(out, "  widths");
    for (int w = 0; w < settings->width_count; w++)
        fprintf(out, "%s%d", w ? "," : " ", settings->widths[w]);
    fprintf(out, "; %d rounds; %d calls per cell per round; sides: %s\n", settings->rounds,
            settings->calls,
            !settings->run_side[SIDE_OMP]    ? "tela"
            : !settings->run_side[SIDE_TELA] ? "libgomp"
                                             : "tela and libgomp");
    fprintf(out, "  tela %s, TELA_SPIN_POLLS=%s\n", tela_version(),
            spin_polls ? spin_polls : "(unset: tela default)");
    if (settings->scenario == SCENARIO_GAPS && settings->prologue_us > 0)
        fprintf(out, "  each timed call starts with %d us of serial work by the caller%s\n",
                settings->prologue_us,
                settings->prewake ? "; tela pre-wakes its members before it" : "");
    fprintf(out, "  libgomp: %s\n", tb_omp_description());
    if (settings->load_procs)
        fprintf(out,
                "  load: %d process(es), each busy %d%% of every 10 ms (they stop by themselves "
                "after %.0f s, or with tela-teambench)\n",
                settings->load_procs, settings->load_percent, load_lifetime_s);
    else
        fprintf(out, "  load: none\n");
    fprintf(out, "  section = one fork/join, every member busy-waits its work on CLOCK_MONOTONIC: "
                 "tela_parallel(tela_par_team(team), w, ...)\n  per section on a held team vs one "
                 "`#pragma omp parallel num_threads(w)` per section; same body code\n");
    fprintf(out,
            "  rounds interleaved (tela first in even rounds, libgomp in odd), a %d ms settle "
            "sleep before each side's\n  round%s; times seen by the calling thread\n",
            settings->settle_ms,
            settings->scenario == SCENARIO_ACQUIRE ? " and each tela arm" : "");
    if (settings->scenario == SCENARIO_GAPS)
        fprintf(out, "  gaps: sleep = clock_nanosleep to an absolute deadline (timer slack 1 ns), "
                     "spin = busy-wait on the clock;\n  burn = thread CPU clocks "
                     "(pthread_getcpuclockid) of members 1..w-1 over the gap / the gap's length\n");
    fflush(out);
}

/* ---- main ----------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    struct settings settings;
    int parsed = parse_arguments(argc, argv, &settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (!tb_omp_available() && settings.run_side[SIDE_OMP]) {
        if (!settings.run_side[SIDE_TELA]) {
            fprintf(stderr, "tela-teambench: --side omp, but this build has no OpenMP\n");
            return 2;
        }
        settings.run_side[SIDE_OMP] = 0;
        fprintf(stderr, "tela-teambench: NOTE: built without OpenMP: only tela is measured\n");
    }
    /* Short sleeps must end when asked: the default 50 us slack would stretch a 100 us gap. */
    prctl(PR_SET_TIMERSLACK, 1UL);

    /* The load processes first, before any thread of either runtime exists. */
    const double load_lifetime_s = 3.0 * expected_seconds(&settings) + 60.0;
    if (settings.load_procs &&
        tb_load_start(&load, settings.load_procs, settings.load_percent, load_lifetime_s) != 0)
        fail("could not start the load processes");

    FILE *info_out = settings.csv_stdout ? stderr : stdout;
    print_header(info_out, &settings, load_lifetime_s);

    struct plan *plan = calloc(1, sizeof *plan);
    struct run *runs = calloc((size_t)settings.width_count, sizeof *runs);
    const size_t rounds = (size_t)settings.rounds;
    const size_t slots = slot(settings.width_count, 0, SIDE_TELA);
    double *samples = calloc(slots * rounds, sizeof *samples);
    struct summary *results = calloc(slots, sizeof *results);
    double *scratch = calloc((size_t)settings.calls * PHASE_COUNT + rounds, sizeof *scratch);
    if (!plan || !runs || !samples || !results || !scratch)
        fail("out of memory");
    make_plan(&settings, plan);
    for (size_t i = 0; i < slots * rounds; i++)
        samples[i] = NAN;

    tela_stats before, after;
    long spawned_in_rounds = 0;
    long moves_in_rounds = 0;
    const int show_progress = isatty(STDERR_FILENO);
    for (int w = 0; w < settings.width_count; w++) {
        struct run *run = &runs[w];
        run->settings = &settings;
        run->plan = plan;
        run->width = settings.widths[w];
        run->scratch = scratch;
        start_width(run);
        tela_get_stats(&before);
        for (int round = 0; round < settings.rounds; round++) {
            /* Alternate who goes first, so neither side always follows the other's activity. */
            enum side order[SIDE_COUNT] = {SIDE_TELA, SIDE_OMP};
            if (round % 2) {
                order[0] = SIDE_OMP;
                order[1] = SIDE_TELA;
            }
            for (int k = 0; k < SIDE_COUNT; k++) {
                enum side side = order[k];
                if (!settings.run_side[side])
                    continue;
                double out[MAX_CELLS];
                for (int c = 0; c < MAX_CELLS; c++)
                    out[c] = NAN;
                run_side_round(run, side, out);
                for (int c = 0; c < plan->count; c++)
                    samples[slot(w, c, side) * rounds + (size_t)round] = out[c];
            }
            if (show_progress)
                fprintf(stderr, "\r  width %d: round %d/%d", run->width, round + 1,
                        settings.rounds);
        }
        tela_get_stats(&after);
        spawned_in_rounds += after.spawned_workers - before.spawned_workers;
        moves_in_rounds += after.cpu_moves - before.cpu_moves;
        end_width(run);
    }
    if (show_progress)
        fprintf(stderr, "\r%50s\r", "");
    stop_load();

    for (int w = 0; w < settings.width_count; w++) {
        for (int c = 0; c < plan->count; c++) {
            for (int s = 0; s < SIDE_COUNT; s++) {
                size_t index = slot(w, c, (enum side)s);
                results[index] = summarize(&samples[index * rounds], settings.rounds, scratch);
            }
        }
    }

    if (settings.csv_stdout)
        write_csv_rows(stdout, &settings, plan, results);
    else
        print_tables(&settings, plan, results, runs);
    if (settings.run_side[SIDE_TELA])
        fprintf(info_out, "tela workers spawned during the timed rounds: %ld%s\n",
                spawned_in_rounds,
                spawned_in_rounds && settings.scenario == SCENARIO_ACQUIRE
                    ? " (fresh pools did not all reuse the reserve)"
                    : "");
    if (settings.run_side[SIDE_TELA])
        fprintf(info_out, "tela workers that left their waker's CPU during the rounds: %ld\n",
                moves_in_rounds);
    if (settings.emit_cells)
        emit_cells(&settings, plan, results);

    int status = 0;
    if (settings.csv_path) {
        FILE *csv = fopen(settings.csv_path, "w");
        if (csv)
            write_csv_rows(csv, &settings, plan, results);
        if (!csv || fclose(csv) != 0) {
            fprintf(stderr, "tela-teambench: cannot write %s: %s\n", settings.csv_path,
                    strerror(errno));
            status = 1;
        } else {
            fprintf(info_out, "results written to %s\n", settings.csv_path);
        }
    }
    free(scratch);
    free(results);
    free(samples);
    free(runs);
    free(plan);
    return status;
}
