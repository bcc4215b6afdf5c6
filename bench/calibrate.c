/* calibrate.c — tela-calibrate: measures the dispatch cost table the gate reads, and reports
 * how a TELA_TRACE file's regions fared against the gate's choices.
 *
 * The table (par_costs, written with par_costs_write) holds, per route (team, pool, outside)
 * and width, the time per section of back-to-back sections with an empty body and with a
 * 10 us busy-wait share per member, plus two serial rates. Every cell (route x width) gets a
 * pool built for it, warm-up sections, then both timed runs; cells are interleaved round by
 * round and each follows a settle sleep, so drift and other cells' spinning workers hit all
 * alike. It links the static library and includes par/par.h for the table's type and file
 * format; nothing here changes how tela runs. */
#include "bench_median.h"
#include "peak.h"
#include "tela.h"
#include "par/par.h"
#include "teambench_clock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROGRAM "tela-calibrate"

/* Busy-wait of every member in a share section, ns: about what a member's part of a region
 * that just pays takes, so share_ns includes the skew between members that real work has. */
#define SHARE_NS 10000
/* Defaults: rounds per cell and sections per timed run (about 20 s on 2 CPUs). */
#define DEFAULT_ROUNDS   15
#define DEFAULT_SECTIONS 200
/* --quick (the smoke test): a few short rounds; the numbers are rough. */
#define QUICK_ROUNDS   3
#define QUICK_SECTIONS 40
/* Sleep before each cell, ms: idle workers of the previous cell spin about 4 ms
 * (PAR_SPIN_NS_DEFAULT) before they sleep; the cell measured next must not share the CPUs
 * with them. */
#define DEFAULT_SETTLE_MS 20
#define QUICK_SETTLE_MS   5
/* A timed run stops early once it has taken this long (and has MIN_TIMED_SECTIONS): an
 * oversubscribed section can wait a scheduler time slice (ms) for a member. */
#define RUN_BUDGET_NS      50000000LL
#define MIN_TIMED_SECTIONS 8
/* The clock is read every this many sections to check the budget, so reading it adds
 * under 1% to an empty section. */
#define BUDGET_CHECK_EVERY 8
/* Default oversubscribed widths: up to this many members, more than the CPUs. */
#define DEFAULT_MAX_OVERSUBSCRIBED 8
/* Widths --widths and --max-oversubscribed accept: the table's dense range. */
#define MAX_WIDTH PAR_COST_DENSE_WIDTHS
/* Default widths: every width up to this one, then a step that doubles with each doubling
 * of the width (8 widths per octave), so a 256-CPU machine stays within the table. */
#define DENSE_DEFAULT_WIDTHS 16

static const char *const route_names[TELA_ROUTE_COUNT] = {
    [TELA_ROUTE_TEAM] = "team", [TELA_ROUTE_POOL] = "pool", [TELA_ROUTE_OUTSIDE] = "outside"};

enum body_kind { BODY_EMPTY, BODY_SHARE, BODY_COUNT };

struct width_plan {
    int width;
    bool oversubscribed; /* more members than the CPUs this process may use */
};

struct settings {
    int widths[PAR_COST_MAX_POINTS]; /* --widths as given; 0 entries: the default set */
    int width_count;
    int max_oversubscribed; /* oversubscribed widths run from CPUs+1 to this */
    int rounds;             /* 0 until set */
    int quick;
    const char *output;      /* -o FILE, or NULL: the per-user cache */
    const char *check_path;  /* --check FILE */
    const char *report_path; /* --report TRACE */
};

/* Keeps the compiler from dropping or merging the stores to p before this point. */
static void clobber_memory(const void *p)
{
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* Fewer decimals as times grow, as tela-teambench prints them. */
static const char *format_us(double ns, char *text, size_t size)
{
    double us = ns * 1e-3;
    snprintf(text, size, "%.*f", us < 10.0 ? 2 : us < 1000.0 ? 1 : 0, us);
    return text;
}

/* ---- the sections ------------------------------------------------------------------------- */

static void empty_body(tela_member *self, void *arg)
{
    (void)self;
    (void)arg;
}

static void share_body(tela_member *self, void *arg)
{
    (void)self;
    (void)arg;
    tb_spin_ns(SHARE_NS);
}

static const tela_body bodies[BODY_COUNT] = {[BODY_EMPTY] = empty_body, [BODY_SHARE] = share_body};

/* One route at one width, set up for one round's measurement. */
struct cell {
    tela_route route;
    int width;
    tela_pool *pool; /* team and pool routes: built for the cell */
    tela_team *team; /* team route: acquired once, held through the cell */
    tela_par par;    /* what each section is started with */
};

/* Builds what the route needs; false if tela could not (reported by its error handler). */
static bool cell_open(struct cell *cell, tela_route route, int width)
{
    memset(cell, 0, sizeof *cell);
    cell->route = route;
    cell->width = width;
    switch (route) {
    case TELA_ROUTE_TEAM:
        cell->pool = tela_pool_create(&(tela_pool_opts){.width = width});
        cell->team = cell->pool ? tela_team_acquire(cell->pool, width) : NULL;
        cell->par = tela_par_team(cell->team);
        return cell->team != NULL;
    case TELA_ROUTE_POOL:
        cell->pool = tela_pool_create(&(tela_pool_opts){.width = width});
        cell->par = tela_par_pool(cell->pool);
        return cell->pool != NULL;
    case TELA_ROUTE_OUTSIDE:
        /* The default pool grows to the widest width asked so far and leases narrower teams
         * from it; the main thread is never one of its workers. */
        tela_set_num_threads(width);
        cell->par = tela_par_auto();
        return true;
    case TELA_ROUTE_COUNT:
        break;
    }
    return false;
}

static void cell_close(struct cell *cell)
{
    if (cell->team)
        tela_team_release(cell->team);
    tela_pool_destroy(cell->pool);
    memset(cell, 0, sizeof *cell);
}

/* Time per section of a run of back-to-back sections, ns. It stops early once RUN_BUDGET_NS
 * is spent (after MIN_TIMED_SECTIONS); *narrow counts sections that ran narrower than the
 * cell's width. */
static double time_sections(const struct cell *cell, enum body_kind kind, int sections,
                            long *narrow)
{
    const tela_body body = bodies[kind];
    int done = 0;
    int64_t start = tb_now_ns(), end = start;
    while (done < sections) {
        *narrow += tela_parallel(cell->par, cell->width, body, NULL) != cell->width;
        done++;
        if (done % BUDGET_CHECK_EVERY == 0 || done == sections) {
            end = tb_now_ns();
            if (done >= MIN_TIMED_SECTIONS && end - start > RUN_BUDGET_NS)
                break;
        }
    }
    return (double)(end - start) / done;
}

/* ---- the measurement ---------------------------------------------------------------------- */

/* What every (route, width) measured: per-section ns per body and round. */
struct measurement {
    const struct width_plan *plan;
    int width_count;
    int rounds, sections, settle_ms;
    double *samples;        /* see sample_at */
    long *narrow;           /* [route][width]: sections narrower than asked */
    unsigned char *failed;  /* [route][width]: tela could not build the cell */
    long spawned_in_rounds; /* workers started during the timed rounds */
    double rate_gemm_ns_per_flop, rate_copy_ns_per_element;
    struct fma_peak peak; /* one thread's, for the gemm rate's share; NAN if it could not run */
};

static size_t cell_index(const struct measurement *m, int route, int w)
{
    return (size_t)route * (size_t)m->width_count + (size_t)w;
}

static double *sample_at(const struct measurement *m, int route, int w, enum body_kind kind,
                         int round)
{
    size_t index = (cell_index(m, route, w) * BODY_COUNT + (size_t)kind) * (size_t)m->rounds;
    return &m->samples[index + (size_t)round];
}

/* One cell: settle, build, warm up, time empty then share sections; round < 0: warm-up
 * only (the first pass, which also spawns the threads). */
static void run_cell(struct measurement *m, int route, int w, int round)
{
    const int width = m->plan[w].width;
    const size_t index = cell_index(m, route, w);
    tb_sleep_until_ns(tb_now_ns() + (int64_t)m->settle_ms * 1000000);
    struct cell cell;
    if (!cell_open(&cell, (tela_route)route, width)) {
        m->failed[index] = 1;
        cell_close(&cell);
        return;
    }
    /* Warm-up: the members are spinning and the code is hot when the timed runs start, as
     * in a run of regions; tela's first region after the settle would pay a futex wake.
     * Only the timed sections must run at the full width. */
    long narrow = 0, warm_up_narrow = 0;
    time_sections(&cell, BODY_EMPTY, m->sections / 4 + 2, &warm_up_narrow);
    time_sections(&cell, BODY_SHARE, 2, &warm_up_narrow);
    if (round >= 0) {
        for (int k = 0; k < BODY_COUNT; k++)
            *sample_at(m, route, w, (enum body_kind)k, round) =
                time_sections(&cell, (enum body_kind)k, m->sections, &narrow);
    }
    m->narrow[index] += narrow;
    cell_close(&cell);
}

static void measure_sections(struct measurement *m, bool show_progress)
{
    const int cells = m->width_count * TELA_ROUTE_COUNT;
    /* The widest width first, so the default pool is built once at its final width. */
    for (int w = m->width_count - 1; w >= 0; w--) {
        for (int r = 0; r < TELA_ROUTE_COUNT; r++)
            run_cell(m, r, w, -1);
    }
    tela_stats before, after;
    tela_get_stats(&before);
    for (int round = 0; round < m->rounds; round++) {
        /* Each round starts one cell further on: the cells' places in a round rotate. */
        for (int k = 0; k < cells; k++) {
            int c = (k + round) % cells;
            run_cell(m, c % TELA_ROUTE_COUNT, c / TELA_ROUTE_COUNT, round);
        }
        if (show_progress)
            fprintf(stderr, "\r  sections: round %d/%d", round + 1, m->rounds);
    }
    tela_get_stats(&after);
    m->spawned_in_rounds = after.spawned_workers - before.spawned_workers;
    if (show_progress)
        fprintf(stderr, "\r%40s\r", "");
}

/* ---- serial rates ------------------------------------------------------------------------- */

/* Order of the timed square GEMM: past the small path, A and B blocks packed as in any
 * mid-size call (2 x 256^3 = 33.6 Mflop, ~0.4 ms). */
#define GEMM_N 256
/* GEMMs per timed run. */
#define GEMM_REPS 4
/* Doubles per copy (32 KiB, L1/L2 resident), copies per timed run (about 1 ms). */
#define COPY_N    4096
#define COPY_REPS 2048
/* Timed runs of each rate; the fastest is the rate (the others met interrupts or a
 * neighbour on the core). */
#define RATE_RUNS       15
#define QUICK_RATE_RUNS 3
/* Untimed work before a rate's runs, ns: the core leaves its idle clock (seen here: the
 * first runs up to 25% slower) and the data is in cache. */
#define RATE_WARM_UP_NS       50000000LL
#define QUICK_RATE_WARM_UP_NS 5000000LL

/* Best ns per flop of tela's own serial dgemm (the micro-kernel cpuid chose, with its
 * packing): what the gate multiplies a GEMM's flops by. -1 if memory is short. */
static double measure_gemm_rate(int runs, int64_t warm_up_ns)
{
    const size_t n2 = (size_t)GEMM_N * GEMM_N;
    double *a = malloc(3 * n2 * sizeof *a);
    if (!a)
        return -1;
    double *b = a + n2, *c = b + n2;
    for (size_t i = 0; i < n2; i++) {
        a[i] = 1.0 / (double)(i % 97 + 1);
        b[i] = 1.0 / (double)(i % 89 + 2);
        c[i] = 0.0;
    }
    const double flops = 2.0 * GEMM_N * GEMM_N * GEMM_N * GEMM_REPS;
    const tela_par seq = tela_par_seq();
    double best = INFINITY;
    for (int64_t end = tb_now_ns() + warm_up_ns; tb_now_ns() < end;) {
        tela_dgemm(seq, 'N', 'N', GEMM_N, GEMM_N, GEMM_N, 1.0, a, GEMM_N, b, GEMM_N, 0.0, c,
                   GEMM_N);
        clobber_memory(c);
    }
    for (int run = 0; run < runs; run++) {
        int64_t start = tb_now_ns();
        for (int rep = 0; rep < GEMM_REPS; rep++) {
            tela_dgemm(seq, 'N', 'N', GEMM_N, GEMM_N, GEMM_N, 1.0, a, GEMM_N, b, GEMM_N, 0.0, c,
                       GEMM_N);
            clobber_memory(c);
        }
        double ns = (double)(tb_now_ns() - start);
        if (ns < best)
            best = ns;
    }
    free(a);
    return best / flops;
}

/* Best ns per element of an L1/L2-resident copy; -1 if memory is short. */
static double measure_copy_rate(int runs, int64_t warm_up_ns)
{
    double *src = malloc(2 * (size_t)COPY_N * sizeof *src);
    if (!src)
        return -1;
    double *dst = src + COPY_N;
    for (int i = 0; i < COPY_N; i++)
        src[i] = dst[i] = (double)i;
    double best = INFINITY;
    for (int64_t end = tb_now_ns() + warm_up_ns; tb_now_ns() < end;) {
        memcpy(dst, src, COPY_N * sizeof *src);
        clobber_memory(dst);
    }
    for (int run = 0; run < runs; run++) {
        int64_t start = tb_now_ns();
        for (int rep = 0; rep < COPY_REPS; rep++) {
            memcpy(dst, src, COPY_N * sizeof *src);
            clobber_memory(dst);
        }
        double ns = (double)(tb_now_ns() - start);
        if (ns < best)
            best = ns;
    }
    free(src);
    return best / ((double)COPY_N * COPY_REPS);
}

/* ---- the table ---------------------------------------------------------------------------- */

/* Medians over the rounds into a table; points that ran narrow or failed are left out. */
static void build_table(const struct measurement *m, par_costs *costs)
{
    memset(costs, 0, sizeof *costs);
    par_cpu_identity(costs->cpu_model, sizeof costs->cpu_model, &costs->cpus);
    costs->ns_per_flop = m->rate_gemm_ns_per_flop;
    costs->copy_ns_per_element = m->rate_copy_ns_per_element;
    double *buffer = malloc((size_t)m->rounds * sizeof *buffer);
    if (!buffer)
        return;
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        for (int w = 0; w < m->width_count; w++) {
            const size_t index = cell_index(m, r, w);
            if (m->failed[index] || m->narrow[index])
                continue;
            double median[BODY_COUNT];
            for (int k = 0; k < BODY_COUNT; k++) {
                memcpy(buffer, sample_at(m, r, w, (enum body_kind)k, 0),
                       (size_t)m->rounds * sizeof *buffer);
                median[k] = median_of(buffer, m->rounds);
            }
            /* Clamped: a negative cost would read as "not measured" in the file. */
            double share = median[BODY_SHARE] - SHARE_NS;
            costs->points[r][costs->count[r]++] = (par_cost_point){
                .width = m->plan[w].width,
                .empty_ns = median[BODY_EMPTY],
                .share_ns = share > 0 ? share : 0,
                .oversubscribed = m->plan[w].oversubscribed,
            };
        }
    }
    free(buffer);
}

/* The point of route at width in costs, or NULL if it was skipped. */
static const par_cost_point *find_point(const par_costs *costs, int route, int width)
{
    for (int i = 0; i < costs->count[route]; i++) {
        if (costs->points[route][i].width == width)
            return &costs->points[route][i];
    }
    return NULL;
}

static void print_table(const struct measurement *m, const par_costs *costs)
{
    printf("\n%-5s", "width");
    for (int r = 0; r < TELA_ROUTE_COUNT; r++)
        printf(" | %-7s %6s %6s", route_names[r], "empty", "share");
    printf("\n%.5s", "-----");
    for (int r = 0; r < TELA_ROUTE_COUNT; r++)
        printf("-+-%.21s", "-----------------------------");
    printf("\n");
    for (int w = 0; w < m->width_count; w++) {
        printf("%5d", m->plan[w].width);
        for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
            const par_cost_point *p = find_point(costs, r, m->plan[w].width);
            char empty[24], share[24];
            if (p)
                printf(" | %-7s %6s %6s", "", format_us(p->empty_ns, empty, sizeof empty),
                       format_us(p->share_ns, share, sizeof share));
            else
                printf(" | %-7s %13s", "", "skipped");
        }
        printf("%s\n", m->plan[w].oversubscribed ? "  (oversubscribed)" : "");
    }
    printf("  us per section: empty = back-to-back sections with an empty body; share = with every "
           "member\n  busy-waiting %d us, minus those %d us; medians over %d rounds of up to %d "
           "sections\n",
           SHARE_NS / 1000, SHARE_NS / 1000, m->rounds, m->sections);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        for (int w = 0; w < m->width_count; w++) {
            const size_t index = cell_index(m, r, w);
            if (m->failed[index])
                printf("WARNING: %s at width %d: tela could not build the cell; point skipped\n",
                       route_names[r], m->plan[w].width);
            else if (m->narrow[index])
                printf("WARNING: %s at width %d: %ld sections ran narrower than %d; point "
                       "skipped\n",
                       route_names[r], m->plan[w].width, m->narrow[index], m->plan[w].width);
        }
    }
    if (m->spawned_in_rounds)
        printf("note: %ld worker thread(s) were spawned during the rounds (when a cell's pool was "
               "built,\n  before its warm-up: not timed)\n",
               m->spawned_in_rounds);
    printf("\nserial rates (best of several runs, one thread):\n");
    if (costs->ns_per_flop > 0)
        printf("  ns_per_flop         %.6g  (%.1f GFLOP/s, %.0f%% of the measured FMA peak %.1f; "
               "tela_dgemm serial, %d^3)\n",
               costs->ns_per_flop, 1.0 / costs->ns_per_flop,
               100.0 / costs->ns_per_flop / m->peak.gflops, m->peak.gflops, GEMM_N);
    else
        printf("  ns_per_flop         not measured\n");
    if (costs->copy_ns_per_element > 0)
        printf("  copy_ns_per_element %.6g  (copy of %d doubles)\n", costs->copy_ns_per_element,
               COPY_N);
    else
        printf("  copy_ns_per_element not measured\n");
}

/* Creates the directories above path (mkdir -p of its dirname), private to the user as the
 * XDG base directory specification asks. 0, or -1 with errno. */
static int make_parent_dirs(const char *path)
{
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        *slash = '/';
    }
    return 0;
}

/* ---- the widths --------------------------------------------------------------------------- */

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The widths to measure, rising and distinct: --widths (or the default set up to cpus), then
 * the oversubscribed ones from cpus + 1 to --max-oversubscribed. Returns their count, or -1
 * if there are more than the table holds. */
static int plan_widths(const struct settings *settings, int cpus,
                       struct width_plan plan[PAR_COST_MAX_POINTS])
{
    int widths[2 * PAR_COST_MAX_POINTS + MAX_WIDTH];
    int count = 0;
    if (settings->width_count > 0) {
        memcpy(widths, settings->widths, (size_t)settings->width_count * sizeof *widths);
        count = settings->width_count;
    } else {
        for (int w = 2; w <= cpus && w <= MAX_WIDTH;) {
            widths[count++] = w;
            int step = 1;
            while (w >= DENSE_DEFAULT_WIDTHS * step)
                step *= 2;
            w += step;
        }
        if (cpus >= 2 && cpus <= MAX_WIDTH && (count == 0 || widths[count - 1] != cpus))
            widths[count++] = cpus;
    }
    for (int w = cpus + 1; w <= settings->max_oversubscribed; w++)
        widths[count++] = w;
    qsort(widths, (size_t)count, sizeof *widths, compare_ints);
    int distinct = 0;
    for (int i = 0; i < count; i++) {
        if (distinct > 0 && plan[distinct - 1].width == widths[i])
            continue;
        if (distinct == PAR_COST_MAX_POINTS)
            return -1;
        plan[distinct].width = widths[i];
        plan[distinct].oversubscribed = widths[i] > cpus;
        distinct++;
    }
    return distinct;
}

/* ---- --report: the trace against the gate ------------------------------------------------- */

/* Estimate buckets: powers of two of the estimate in us, from 2^BUCKET_MIN (about 1 ns, and
 * everything below) up; BUCKET_NONE for estimate 0, which ungated tela_parallel calls trace. */
#define BUCKET_MIN  (-10)
#define BUCKET_MAX  40
#define BUCKET_NONE (BUCKET_MIN - 1)
/* Longest kernel name kept; a longer one makes its line malformed. */
#define KERNEL_NAME_MAX 63

/* Routes as the trace names them; "other" for a name this version does not know. */
enum trace_route {
    TRACE_TEAM,
    TRACE_POOL,
    TRACE_OUTSIDE,
    TRACE_SEQ,
    TRACE_OTHER,
    TRACE_ROUTE_COUNT
};
static const char *const trace_route_names[TRACE_ROUTE_COUNT] = {[TRACE_TEAM] = "team",
                                                                 [TRACE_POOL] = "pool",
                                                                 [TRACE_OUTSIDE] = "outside",
                                                                 [TRACE_SEQ] = "seq",
                                                                 [TRACE_OTHER] = "other"};

struct trace_group {
    char kernel[KERNEL_NAME_MAX + 1];
    int bucket; /* floor(log2(estimate in us)), clamped to BUCKET_MIN..BUCKET_MAX; or NONE */
    int rank;   /* position in the report's order */
};

struct trace_region {
    int group; /* index in the group array */
    int width;
    enum trace_route route;
    double estimate_ns, wall_ns;
};

struct trace {
    struct trace_group *groups;
    int group_count;
    size_t group_capacity;
    struct trace_region *regions;
    size_t region_count, region_capacity;
    long malformed;       /* lines that were not a region */
    long first_malformed; /* line number of the first, 0 if none */
};

/* Grows *array (of size bytes per element) to hold at least need; false if memory is short. */
static bool grow(void **array, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return true;
    size_t wanted = *capacity ? 2 * *capacity : 64;
    while (wanted < need)
        wanted *= 2;
    void *bigger = realloc(*array, wanted * size);
    if (!bigger)
        return false;
    *array = bigger;
    *capacity = wanted;
    return true;
}

static int bucket_of(double estimate_ns)
{
    if (estimate_ns <= 0)
        return BUCKET_NONE;
    double us = estimate_ns * 1e-3;
    if (!(us >= ldexp(1.0, BUCKET_MIN + 1)))
        return BUCKET_MIN;
    int bucket = (int)floor(log2(us));
    return bucket > BUCKET_MAX ? BUCKET_MAX : bucket;
}

static const char *bucket_label(int bucket, char *text, size_t size)
{
    double lo = ldexp(1.0, bucket), hi = ldexp(1.0, bucket + 1);
    if (bucket == BUCKET_NONE)
        snprintf(text, size, "no estimate");
    else if (bucket == BUCKET_MIN)
        snprintf(text, size, "<%g us", hi);
    else if (lo >= 1.0)
        snprintf(text, size, "%.0f-%.0f us", lo, hi);
    else
        snprintf(text, size, "%g-%g us", lo, hi);
    return text;
}

/* A finite number >= 0 filling the whole text. */
static bool parse_number(const char *text, double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*value) && *value >= 0;
}

/* Parses one line into *region (group set to -1) and kernel. Returns 1 for a region, 0 for a
 * blank or comment line, -1 for a malformed one. */
static int parse_trace_line(char *line, struct trace_region *region, char *kernel)
{
    bool have_kernel = false, have_estimate = false, have_width = false, have_wall = false;
    region->group = -1;
    region->route = TRACE_OTHER;
    int tokens = 0;
    char *saved = NULL;
    for (char *token = strtok_r(line, " \t\r\n", &saved); token;
         token = strtok_r(NULL, " \t\r\n", &saved)) {
        if (tokens++ == 0 && token[0] == '#')
            return 0;
        char *value = strchr(token, '=');
        if (!value)
            return -1;
        *value++ = '\0';
        if (!strcmp(token, "kernel")) {
            if (!*value || strlen(value) > KERNEL_NAME_MAX)
                return -1;
            snprintf(kernel, KERNEL_NAME_MAX + 1, "%s", value);
            have_kernel = true;
        } else if (!strcmp(token, "estimate_ns")) {
            have_estimate = parse_number(value, &region->estimate_ns);
            if (!have_estimate)
                return -1;
        } else if (!strcmp(token, "wall_ns")) {
            have_wall = parse_number(value, &region->wall_ns);
            if (!have_wall)
                return -1;
        } else if (!strcmp(token, "width")) {
            char *end;
            errno = 0;
            long width = strtol(value, &end, 10);
            if (end == value || *end != '\0' || errno || width < 1 || width > INT_MAX)
                return -1;
            region->width = (int)width;
            have_width = true;
        } else if (!strcmp(token, "route")) {
            region->route = TRACE_OTHER;
            for (int r = 0; r < TRACE_OTHER; r++) {
                if (!strcmp(value, trace_route_names[r]))
                    region->route = (enum trace_route)r;
            }
        }
        /* other keys (sections, allowed, ...) are not needed here */
    }
    if (tokens == 0)
        return 0;
    return have_kernel && have_estimate && have_width && have_wall ? 1 : -1;
}

static int find_group(struct trace *trace, const char *kernel, int bucket)
{
    for (int g = trace->group_count - 1; g >= 0; g--) {
        if (trace->groups[g].bucket == bucket && !strcmp(trace->groups[g].kernel, kernel))
            return g;
    }
    if (!grow((void **)&trace->groups, &trace->group_capacity, (size_t)trace->group_count + 1,
              sizeof *trace->groups))
        return -1;
    struct trace_group *group = &trace->groups[trace->group_count];
    snprintf(group->kernel, sizeof group->kernel, "%s", kernel);
    group->bucket = bucket;
    return trace->group_count++;
}

/* Reads the trace; 0, or -1 with a message. */
static int read_trace(const char *path, struct trace *trace)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, PROGRAM ": cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t line_size = 0;
    long number = 0;
    int status = 0;
    while (status == 0 && getline(&line, &line_size, file) >= 0) {
        number++;
        struct trace_region region;
        char kernel[KERNEL_NAME_MAX + 1];
        int parsed = parse_trace_line(line, &region, kernel);
        if (parsed < 0) {
            if (trace->malformed++ == 0)
                trace->first_malformed = number;
            continue;
        }
        if (parsed == 0)
            continue;
        region.group = find_group(trace, kernel, bucket_of(region.estimate_ns));
        if (region.group < 0 || !grow((void **)&trace->regions, &trace->region_capacity,
                                      trace->region_count + 1, sizeof *trace->regions)) {
            fprintf(stderr, PROGRAM ": out of memory reading %s\n", path);
            status = -1;
            break;
        }
        trace->regions[trace->region_count++] = region;
    }
    if (status == 0 && ferror(file)) {
        fprintf(stderr, PROGRAM ": error reading %s\n", path);
        status = -1;
    }
    free(line);
    fclose(file);
    return status;
}

/* qsort has no context argument; the report sorts one trace at a time. */
static const struct trace *sorting_trace;

/* Group indices by kernel name, then estimate bucket. */
static int compare_groups(const void *a, const void *b)
{
    const struct trace_group *x = &sorting_trace->groups[*(const int *)a];
    const struct trace_group *y = &sorting_trace->groups[*(const int *)b];
    int by_name = strcmp(x->kernel, y->kernel);
    return by_name ? by_name : (x->bucket > y->bucket) - (x->bucket < y->bucket);
}

static int compare_regions(const void *a, const void *b)
{
    const struct trace_region *x = a, *y = b;
    int rx = sorting_trace->groups[x->group].rank, ry = sorting_trace->groups[y->group].rank;
    if (rx != ry)
        return (rx > ry) - (rx < ry);
    if (x->width != y->width)
        return (x->width > y->width) - (x->width < y->width);
    return (x->wall_ns > y->wall_ns) - (x->wall_ns < y->wall_ns);
}

/* One chosen width of one group. */
struct report_row {
    int width;
    size_t count;
    unsigned routes; /* bit per trace_route seen */
    double median_wall_ns, median_estimate_ns;
};

static void print_group(const struct trace_group *group, const struct report_row *rows,
                        int row_count, long *serial_flags, long *narrower_flags)
{
    const struct report_row *serial = rows[0].width == 1 ? &rows[0] : NULL;
    char bucket[32];
    bucket_label(group->bucket, bucket, sizeof bucket);
    for (int i = 0; i < row_count; i++) {
        const struct report_row *row = &rows[i];
        char routes[64] = "", wall[24], reference[24], flags[160] = "";
        for (int r = 0; r < TRACE_ROUTE_COUNT; r++) {
            if (row->routes & 1u << r)
                snprintf(routes + strlen(routes), sizeof routes - strlen(routes), "%s%s",
                         routes[0] ? "," : "", trace_route_names[r]);
        }
        if (row->width > 1) {
            /* Against width 1 of the group, else against the regions' own estimate (if
             * they have one). */
            double serial_ns = serial ? serial->median_wall_ns : row->median_estimate_ns;
            if (serial_ns > 0 && row->median_wall_ns > serial_ns) {
                snprintf(flags, sizeof flags, "SLOWER-THAN-SERIAL (%s %s us)",
                         serial ? "width 1" : "estimate",
                         format_us(serial_ns, reference, sizeof reference));
                ++*serial_flags;
            }
            /* The fastest narrower parallel width; width 1 is the flag above. */
            const struct report_row *best = NULL;
            for (int k = 0; k < i; k++) {
                if (rows[k].width > 1 && (!best || rows[k].median_wall_ns < best->median_wall_ns))
                    best = &rows[k];
            }
            if (best && best->median_wall_ns < row->median_wall_ns) {
                snprintf(flags + strlen(flags), sizeof flags - strlen(flags),
                         "%sSLOWER-THAN-NARROWER (width %d %s us)", flags[0] ? " " : "",
                         best->width, format_us(best->median_wall_ns, reference, sizeof reference));
                ++*narrower_flags;
            }
        }
        printf("%-16s %-14s %6d %8zu  %-18s %9s us%s%s\n", group->kernel, bucket, row->width,
               row->count, routes, format_us(row->median_wall_ns, wall, sizeof wall),
               flags[0] ? "  " : "", flags);
    }
}

static int run_report(const char *path)
{
    struct trace trace;
    memset(&trace, 0, sizeof trace);
    if (read_trace(path, &trace) != 0) {
        free(trace.groups);
        free(trace.regions);
        return 1;
    }
    printf(PROGRAM " --report %s: %zu regions in %d groups (kernel x estimate bucket)\n", path,
           trace.region_count, trace.group_count);
    if (trace.malformed)
        printf("malformed lines: %ld (skipped; the first is line %ld)\n", trace.malformed,
               trace.first_malformed);
    else
        printf("malformed lines: 0\n");

    int *order = calloc((size_t)trace.group_count + 1, sizeof *order);
    struct report_row *rows = calloc(trace.region_count + 1, sizeof *rows);
    double *estimates = calloc(trace.region_count + 1, sizeof *estimates);
    if (!order || !rows || !estimates) {
        fprintf(stderr, PROGRAM ": out of memory\n");
        free(order);
        free(rows);
        free(estimates);
        free(trace.groups);
        free(trace.regions);
        return 1;
    }
    sorting_trace = &trace;
    for (int g = 0; g < trace.group_count; g++)
        order[g] = g;
    if (trace.group_count > 0)
        qsort(order, (size_t)trace.group_count, sizeof *order, compare_groups);
    for (int g = 0; g < trace.group_count; g++)
        trace.groups[order[g]].rank = g;
    if (trace.region_count > 0)
        qsort(trace.regions, trace.region_count, sizeof *trace.regions, compare_regions);
    sorting_trace = NULL;

    long serial_flags = 0, narrower_flags = 0;
    if (trace.region_count > 0)
        printf("\n%-16s %-14s %6s %8s  %-18s %12s  %s\n", "kernel", "estimate", "width", "regions",
               "routes", "median wall", "flags");
    /* The regions are sorted by group, width, wall time: each run of one width is a row. */
    for (size_t start = 0; start < trace.region_count;) {
        const int group = trace.regions[start].group;
        int row_count = 0;
        size_t end = start;
        while (end < trace.region_count && trace.regions[end].group == group) {
            size_t run = end;
            struct report_row *row = &rows[row_count++];
            row->width = trace.regions[end].width;
            row->routes = 0;
            while (end < trace.region_count && trace.regions[end].group == group &&
                   trace.regions[end].width == row->width) {
                row->routes |= 1u << trace.regions[end].route;
                estimates[end - run] = trace.regions[end].estimate_ns;
                end++;
            }
            row->count = end - run;
            const struct trace_region *mid = &trace.regions[run + row->count / 2];
            row->median_wall_ns =
                row->count % 2 ? mid->wall_ns : 0.5 * (mid[-1].wall_ns + mid->wall_ns);
            row->median_estimate_ns = median_of(estimates, (int)row->count);
        }
        print_group(&trace.groups[group], rows, row_count, &serial_flags, &narrower_flags);
        start = end;
    }
    printf("\nrows flagged: %ld SLOWER-THAN-SERIAL, %ld SLOWER-THAN-NARROWER\n", serial_flags,
           narrower_flags);
    printf("  a row: the regions of one kernel and estimate bucket (a power of two of the "
           "estimate, in us)\n  that ran at one width; median wall = their median wall time. "
           "SLOWER-THAN-SERIAL: above the\n  median of the group's width-1 regions (without "
           "any: above the rows' median estimate, if not 0);\n  SLOWER-THAN-NARROWER: above the "
           "median of a narrower parallel width of the group\n");
    free(order);
    free(rows);
    free(estimates);
    free(trace.groups);
    free(trace.regions);
    return 0;
}

/* ---- --check: the library loads the file -------------------------------------------------- */

static bool same_file(const char *a, const char *b)
{
    if (!strcmp(a, b))
        return true;
    char real_a[PATH_MAX], real_b[PATH_MAX];
    return realpath(a, real_a) && realpath(b, real_b) && !strcmp(real_a, real_b);
}

static int run_check(const char *path)
{
    int status = tela_costs_load(path);
    const char *source = tela_costs_source();
    if (status != TELA_OK) {
        fprintf(stderr, PROGRAM ": tela_costs_load(%s) failed: %d\n", path, status);
        return 1;
    }
    if (!source || !same_file(source, path)) {
        fprintf(stderr, PROGRAM ": %s loaded, but tela_costs_source() names '%s'\n", path,
                source ? source : "(null)");
        return 1;
    }
    printf(PROGRAM ": %s loads; tela_costs_source() = %s; team cost at width 2: %.0f ns\n", path,
           source, tela_dispatch_cost(TELA_ROUTE_TEAM, 2));
    return 0;
}

/* ---- command line ------------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " PROGRAM " [options]\n"
            "       " PROGRAM " --check FILE\n"
            "       " PROGRAM " --report TRACE\n"
            "  Measures the dispatch cost of a section on each route (team, pool, outside) at\n"
            "  each width, empty and with %d us shares, and two serial rates, and writes the\n"
            "  table tela's gate reads.\n"
            "  -o FILE                  where to write the table (default: the per-user cache,\n"
            "                           $XDG_CACHE_HOME or ~/.cache, tela/costs-<cpu>-<cpus>.txt)\n"
            "  --widths LIST            comma-separated widths >= 2 (default: 2 up to the CPUs\n"
            "                           this process may use; every one up to %d, then fewer)\n"
            "  --max-oversubscribed N   also widths from CPUs+1 to N, marked oversubscribed\n"
            "                           (default %d; 0: none)\n"
            "  --rounds N               interleaved rounds per cell (default %d)\n"
            "  --quick                  %d short rounds (a smoke test); --rounds wins\n"
            "  --check FILE             load FILE with tela_costs_load; exit 0 if it loads and\n"
            "                           tela_costs_source() names it\n"
            "  --report TRACE           summarise a TELA_TRACE file: per kernel, estimate bucket\n"
            "                           and width, regions and median wall time, with flags\n"
            "                           SLOWER-THAN-SERIAL and SLOWER-THAN-NARROWER\n"
            "  -h, --help               this text\n",
            SHARE_NS / 1000, DENSE_DEFAULT_WIDTHS, DEFAULT_MAX_OVERSUBSCRIBED, DEFAULT_ROUNDS,
            QUICK_ROUNDS);
}

/* Parses a whole decimal number in [min, max]; -1 with a message otherwise. */
static int parse_int(const char *option, const char *text, int min, int max, int *value)
{
    char *end;
    errno = 0;
    long parsed = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || end == text || *end != '\0' || parsed < min || parsed > max) {
        fprintf(stderr, PROGRAM ": %s needs a number from %d to %d\n", option, min, max);
        return -1;
    }
    *value = (int)parsed;
    return 0;
}

static int parse_widths(const char *text, struct settings *settings)
{
    char buffer[1024];
    if (!text || strlen(text) >= sizeof buffer) {
        fprintf(stderr, PROGRAM ": --widths needs a list such as 2,4,8\n");
        return -1;
    }
    snprintf(buffer, sizeof buffer, "%s", text);
    settings->width_count = 0;
    char *saved = NULL;
    for (char *item = strtok_r(buffer, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) {
        if (settings->width_count == PAR_COST_MAX_POINTS) {
            fprintf(stderr, PROGRAM ": at most %d widths\n", PAR_COST_MAX_POINTS);
            return -1;
        }
        if (parse_int("--widths", item, 2, MAX_WIDTH, &settings->widths[settings->width_count]))
            return -1;
        settings->width_count++;
    }
    if (settings->width_count == 0) {
        fprintf(stderr, PROGRAM ": --widths needs a list such as 2,4,8\n");
        return -1;
    }
    return 0;
}

/* Returns 0 to run, 1 to exit successfully (--help), -1 on a bad command line. */
static int parse_arguments(int argc, char **argv, struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    settings->max_oversubscribed = DEFAULT_MAX_OVERSUBSCRIBED;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "-o") || !strcmp(option, "--check") ||
                   !strcmp(option, "--report")) {
            if (!value || !*value) {
                fprintf(stderr, PROGRAM ": %s needs a file name\n", option);
                return -1;
            }
            const char **slot = option[1] == 'o'             ? &settings->output
                                : !strcmp(option, "--check") ? &settings->check_path
                                                             : &settings->report_path;
            *slot = value;
        } else if (!strcmp(option, "--widths")) {
            if (parse_widths(value, settings))
                return -1;
        } else if (!strcmp(option, "--max-oversubscribed")) {
            if (parse_int(option, value, 0, MAX_WIDTH, &settings->max_oversubscribed))
                return -1;
        } else if (!strcmp(option, "--rounds")) {
            if (parse_int(option, value, 1, 1000, &settings->rounds))
                return -1;
        } else if (!strcmp(option, "--quick")) {
            settings->quick = 1;
            takes_value = 0;
        } else {
            fprintf(stderr, PROGRAM ": unknown argument '%s'\n", option);
            usage(stderr);
            return -1;
        }
        i += takes_value;
    }
    if (settings->check_path && settings->report_path) {
        fprintf(stderr, PROGRAM ": --check and --report are separate runs\n");
        return -1;
    }
    if (!settings->rounds)
        settings->rounds = settings->quick ? QUICK_ROUNDS : DEFAULT_ROUNDS;
    return 0;
}

/* ---- main --------------------------------------------------------------------------------- */

static int calibrate(const struct settings *settings)
{
    char model[256];
    int cpus = 0;
    par_cpu_identity(model, sizeof model, &cpus);

    char cache_path[PATH_MAX];
    const char *output = settings->output;
    if (!output) {
        if (par_costs_cache_path(cache_path, sizeof cache_path) != 0) {
            fprintf(stderr, PROGRAM ": no per-user cache directory is known (neither "
                                    "XDG_CACHE_HOME nor HOME); name a file with -o\n");
            return 1;
        }
        output = cache_path;
    }

    struct width_plan plan[PAR_COST_MAX_POINTS];
    int width_count = plan_widths(settings, cpus, plan);
    if (width_count < 0) {
        fprintf(stderr, PROGRAM ": more than %d widths; give fewer with --widths\n",
                PAR_COST_MAX_POINTS);
        return 2;
    }
    if (width_count == 0) {
        fprintf(stderr, PROGRAM ": no width to measure (%d CPU(s) and --max-oversubscribed %d)\n",
                cpus, settings->max_oversubscribed);
        return 2;
    }

    struct measurement m = {
        .plan = plan,
        .width_count = width_count,
        .rounds = settings->rounds,
        .sections = settings->quick ? QUICK_SECTIONS : DEFAULT_SECTIONS,
        .settle_ms = settings->quick ? QUICK_SETTLE_MS : DEFAULT_SETTLE_MS,
    };
    const size_t cells = (size_t)width_count * TELA_ROUTE_COUNT;
    m.samples = calloc(cells * BODY_COUNT * (size_t)m.rounds, sizeof *m.samples);
    m.narrow = calloc(cells, sizeof *m.narrow);
    m.failed = calloc(cells, sizeof *m.failed);
    if (!m.samples || !m.narrow || !m.failed) {
        fprintf(stderr, PROGRAM ": out of memory\n");
        free(m.samples);
        free(m.narrow);
        free(m.failed);
        return 1;
    }

    printf(PROGRAM ": dispatch costs of tela's thread team on this machine\n");
    printf("  CPU: %s, %d CPU(s) this process may use\n", model, cpus);
    printf("  widths");
    for (int w = 0; w < width_count; w++)
        printf("%s%d%s", w ? "," : " ", plan[w].width, plan[w].oversubscribed ? "*" : "");
    printf(" (* oversubscribed); %d rounds of %d sections per cell and body; a %d ms settle "
           "before each cell\n",
           m.rounds, m.sections, m.settle_ms);
    printf("  routes: team = tela_parallel(tela_par_team(team), w) on a held team; pool = "
           "tela_par_pool(pool), a team\n  leased per section; outside = tela_par_auto() from "
           "the main thread after tela_set_num_threads(w)\n");
    fflush(stdout);

    /* A traced section pays a write(2) (~3 us): the table must not include it. */
    const char *trace = getenv("TELA_TRACE");
    if (trace && *trace)
        printf("  note: TELA_TRACE is set; tracing is off while tela-calibrate measures\n");
    par_trace_open(NULL);

    const bool show_progress = isatty(STDERR_FILENO);
    const int rate_runs = settings->quick ? QUICK_RATE_RUNS : RATE_RUNS;
    const int64_t rate_warm_up_ns = settings->quick ? QUICK_RATE_WARM_UP_NS : RATE_WARM_UP_NS;
    if (show_progress)
        fprintf(stderr, "  serial rates...");
    m.rate_gemm_ns_per_flop = measure_gemm_rate(rate_runs, rate_warm_up_ns);
    m.rate_copy_ns_per_element = measure_copy_rate(rate_runs, rate_warm_up_ns);
    if (show_progress)
        fprintf(stderr, "\r%40s\r", "");
    measure_sections(&m, show_progress);
    /* After the sections, which it must not warm or slow down: only the report reads it. */
    if (fma_peak_measure(1, &m.peak) != 0)
        m.peak.gflops = NAN;

    par_costs *costs = malloc(sizeof *costs);
    if (!costs) {
        fprintf(stderr, PROGRAM ": out of memory\n");
        free(m.samples);
        free(m.narrow);
        free(m.failed);
        return 1;
    }
    build_table(&m, costs);
    print_table(&m, costs);

    int status = 0;
    int points = costs->count[TELA_ROUTE_TEAM] + costs->count[TELA_ROUTE_POOL] +
                 costs->count[TELA_ROUTE_OUTSIDE];
    char why[512];
    if (points == 0) {
        fprintf(stderr, PROGRAM ": no point was measured; nothing written\n");
        status = 1;
    } else if (!settings->output && make_parent_dirs(output) != 0) {
        fprintf(stderr, PROGRAM ": cannot create the directory of %s: %s\n", output,
                strerror(errno));
        status = 1;
    } else if (par_costs_write(costs, output) != 0) {
        fprintf(stderr, PROGRAM ": cannot write %s\n", output);
        status = 1;
    } else if (par_costs_read(output, costs, why, sizeof why) != 0) {
        /* Read back: a table the library refuses is worse than none. */
        fprintf(stderr, PROGRAM ": wrote %s, but it does not read back: %s\n", output, why);
        status = 1;
    } else {
        printf("\ntable written to %s\n", output);
        const char *env = getenv("TELA_COSTS");
        if (env && *env && !same_file(env, output))
            printf("note: TELA_COSTS=%s is set: tela reads that file, not this one\n", env);
    }
    free(costs);
    free(m.samples);
    free(m.narrow);
    free(m.failed);
    return status;
}

int main(int argc, char **argv)
{
    struct settings settings;
    int parsed = parse_arguments(argc, argv, &settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (settings.check_path)
        return run_check(settings.check_path);
    if (settings.report_path)
        return run_report(settings.report_path);
    return calibrate(&settings);
}
