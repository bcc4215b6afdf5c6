/* probe.c — tela-probe, the acquire probe: what getting a team costs a kernel call, process by
 * process.
 *
 * A cost of acquiring threads can hit a whole process and not its neighbour: where the
 * scheduler put the workers when the process started, whether the reserve had them, which CPU
 * a woken worker lands on. A benchmark that runs every arm in one process, or averages over
 * processes, hides that. So each measurement here is its own process (this program run again
 * with --child, by posix_spawn), which calls one kernel many times in one arm and reports the
 * time of every call; the parent takes each process's median per call and shows, per arm, the
 * spread of those medians over the processes and how many are slow (median above
 * --slow-factor x the arm's best process): "slow mode (2/6)" is a constant extra cost that
 * some whole processes pay.
 *
 * Kernels: gemm<N> (tela_dgemm N x N x N, C = A B) and chol<N> (tela_dpotrf 'L' on an SPD
 * matrix, the input restored before each call outside the timed part). Arms: held (one team
 * for all calls), team_per_call (pool held, team acquired and released around each call),
 * scoped_team_per_call (tela_with_team per call), fresh_pool (pool built and destroyed around
 * each call), auto (tela_par_auto(), the default pool; TELA_NUM_THREADS is set to the width).
 * The processes run one at a time, arms interleaved (process i starts its round at arm
 * i mod arms), so drift in the machine's load falls on every arm alike. Only tela.h is used. */
#include "bench_median.h"
#include "tela.h"
#include "teambench_clock.h"
#include "teambench_load.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Widest --width accepted; a typo such as 20000 should not start threads. */
#define MAX_WIDTH 1024
/* Most kernels in --kernels, processes per arm, calls per process. */
#define MAX_KERNELS 8
#define MAX_PROCS   1000
#define MAX_CALLS   100000
/* Largest n of a kernel (chol 16384 is 2 GiB per matrix). */
#define MAX_N 16384
/* Default processes per arm and kernel, calls per process, slow factor and child timeout. */
#define DEFAULT_PROCS       6
#define DEFAULT_GEMM_CALLS  50
#define DEFAULT_CHOL_CALLS  5
#define DEFAULT_SLOW_FACTOR 1.5
#define DEFAULT_TIMEOUT_S   600
/* Other processes using more than this share of the CPUs while a kernel's processes ran get a
 * warning, if those ran for at least MIN_USAGE_WINDOW_S CPU-seconds (ticks are 10 ms). */
#define BUSY_MACHINE_FRACTION 0.05
#define MIN_USAGE_WINDOW_S    1.0
/* A child's result line:
 * "RESULT first_ns spawned moves faults min_width hash count t_1 ... t_count". */
#define RESULT_TAG "RESULT"

enum kernel_kind { KERNEL_GEMM, KERNEL_CHOL };

struct kernel {
    enum kernel_kind kind;
    int n;         /* the matrix size */
    int calls;     /* timed calls per process (after one warm-up call) */
    char name[32]; /* as given, without the calls: "gemm128" */
};

enum arm { ARM_HELD, ARM_TEAM_PER_CALL, ARM_SCOPED, ARM_FRESH_POOL, ARM_AUTO, ARM_COUNT };
static const char *const arm_names[ARM_COUNT] = {
    [ARM_HELD] = "held",
    [ARM_TEAM_PER_CALL] = "team_per_call",
    [ARM_SCOPED] = "scoped_team_per_call",
    [ARM_FRESH_POOL] = "fresh_pool",
    [ARM_AUTO] = "auto",
};

static const char *arm_name(enum arm arm)
{
    return arm >= 0 && arm < ARM_COUNT ? arm_names[arm] : "(no arm)";
}

struct settings {
    struct kernel kernels[MAX_KERNELS]; /* --kernels */
    int kernel_count;
    enum arm arms[ARM_COUNT]; /* --arms, in the order given */
    int arm_count;
    int procs;                    /* --procs: processes per arm and kernel */
    int width;                    /* --width */
    int load_procs, load_percent; /* --load K:P; K = 0: no load */
    double slow_factor;           /* --slow-factor */
    int timeout_s;                /* --timeout: longest a child may run */
    const char *csv_path;         /* --csv FILE, or NULL */
};

/* What one child process reports. */
struct process_result {
    int ok;                  /* 0: the child failed or timed out */
    double median_ms;        /* median per call over the timed calls */
    double min_ms, max_ms;   /* fastest and slowest timed call */
    double first_ms;         /* the warm-up call (the first of the process, arm's procedure) */
    long spawned;            /* workers spawned during the timed calls */
    long moves;              /* workers that left their waker's CPU during the timed calls */
    double faults_per_call;  /* page faults (minor) per timed call */
    int min_width;           /* narrowest team width granted in a call */
    unsigned long long hash; /* of the last call's output */
    double wall_s;           /* the child's life, spawn to exit */
    double others_s;         /* CPU time other processes used meanwhile (machine-wide) */
};

/* All CPUs' non-idle time so far (/proc/stat, steal excluded), s; NaN if unreadable. */
static double machine_busy_s(void)
{
    FILE *stat = fopen("/proc/stat", "r");
    if (!stat)
        return NAN;
    unsigned long long user, nice, system, idle, iowait, irq, softirq;
    double busy = NAN;
    if (fscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
               &iowait, &irq, &softirq) == 7)
        busy = (double)(user + nice + system + irq + softirq) / (double)sysconf(_SC_CLK_TCK);
    fclose(stat);
    return busy;
}

static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cpus_available(void)
{
    cpu_set_t mask;
    return sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
}

/* ---- the child: one kernel, one arm, many calls --------------------------------------------- */

/* xorshift64*, mapped to [-1, 1): the same inputs in every process. */
static double next_uniform(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

/* The inputs and output of one kernel in a child. */
struct work {
    const struct kernel *kernel;
    double *a, *b, *c; /* gemm: C = A B; chol: a is the input, c the matrix factored */
};

static double *alloc_matrix(int n)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static int work_init(struct work *w, const struct kernel *k)
{
    memset(w, 0, sizeof *w);
    w->kernel = k;
    const size_t n = (size_t)k->n;
    uint64_t state = 0x243F6A8885A308D3ULL ^ (uint64_t)k->n;
    w->a = alloc_matrix(k->n);
    w->c = alloc_matrix(k->n);
    w->b = k->kind == KERNEL_GEMM ? alloc_matrix(k->n) : NULL;
    if (!w->a || !w->c || (k->kind == KERNEL_GEMM && !w->b))
        return -1;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < n; i++) {
            double u = next_uniform(&state);
            /* chol: diagonally dominant, so positive definite; the upper triangle (not read)
             * holds random values too. */
            w->a[i + j * n] = k->kind == KERNEL_CHOL && i == j ? (double)n + fabs(u) : u;
        }
    }
    if (w->b) {
        for (size_t i = 0; i < n * n; i++)
            w->b[i] = next_uniform(&state);
    }
    memcpy(w->c, w->a, n * n * sizeof(double));
    return 0;
}

/* Before each call, outside the timed part: chol factors in place, so its input comes back. */
static void work_restore(struct work *w)
{
    if (w->kernel->kind == KERNEL_CHOL) {
        const size_t n = (size_t)w->kernel->n;
        memcpy(w->c, w->a, n * n * sizeof(double));
    }
}

static int work_call(struct work *w, tela_par par)
{
    const tela_int n = w->kernel->n;
    if (w->kernel->kind == KERNEL_GEMM)
        return tela_dgemm(par, 'N', 'N', n, n, n, 1.0, w->a, n, w->b, n, 0.0, w->c, n);
    return tela_dpotrf(par, 'L', n, w->c, n);
}

/* FNV-1a over the output's bytes: equal results in every process and arm, bit for bit. */
static unsigned long long work_hash(const struct work *w)
{
    const size_t n = (size_t)w->kernel->n;
    const unsigned char *bytes = (const unsigned char *)w->c;
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n * n * sizeof(double); i++)
        h = (h ^ bytes[i]) * 0x100000001b3ULL;
    return h;
}

/* The arm's state in a child. */
struct arm_run {
    enum arm arm;
    int width;
    tela_pool *pool; /* held, team_per_call, scoped: built once */
    tela_team *team; /* held: acquired once */
    struct work *work;
    int status;    /* the last call's info or tela status */
    int min_width; /* narrowest team granted */
};

static void note_width(struct arm_run *r, int width)
{
    r->min_width = width < r->min_width ? width : r->min_width;
}

/* tela_with_team's callback (scoped arm). */
static void scoped_call(tela_team *team, void *arg)
{
    struct arm_run *r = arg;
    note_width(r, tela_team_width(team));
    r->status = work_call(r->work, tela_par_team(team));
}

/* One call with the arm's procedure: everything here is timed. Returns 0 or -1. */
static int arm_call(struct arm_run *r)
{
    tela_pool *pool = r->pool;
    tela_team *team = NULL;
    switch (r->arm) {
    case ARM_HELD:
        r->status = work_call(r->work, tela_par_team(r->team));
        return r->status ? -1 : 0;
    case ARM_SCOPED: {
        int status = tela_with_team(r->pool, r->width, scoped_call, r);
        return status || r->status ? -1 : 0;
    }
    case ARM_AUTO:
        r->status = work_call(r->work, tela_par_auto());
        return r->status ? -1 : 0;
    case ARM_FRESH_POOL:
    case ARM_TEAM_PER_CALL:
        if (r->arm == ARM_FRESH_POOL)
            pool = tela_pool_create(&(tela_pool_opts){.width = r->width});
        if (!pool)
            return -1;
        team = tela_team_acquire(pool, r->width);
        if (team) {
            note_width(r, tela_team_width(team));
            r->status = work_call(r->work, tela_par_team(team));
            tela_team_release(team);
        }
        if (r->arm == ARM_FRESH_POOL)
            tela_pool_destroy(pool);
        return team && r->status == 0 ? 0 : -1;
    case ARM_COUNT:
        break;
    }
    return -1;
}

/* --child KERNEL ARM WIDTH: one warm-up call, then the timed calls; prints the result line. */
static int child_main(const struct kernel *kernel, enum arm arm, int width)
{
    struct work work;
    if (work_init(&work, kernel) != 0) {
        fprintf(stderr, "tela-probe: child: out of memory\n");
        return 1;
    }
    struct arm_run run = {.arm = arm, .width = width, .work = &work, .min_width = width};
    if (arm == ARM_HELD || arm == ARM_TEAM_PER_CALL || arm == ARM_SCOPED) {
        run.pool = tela_pool_create(&(tela_pool_opts){.width = width});
        if (!run.pool) {
            fprintf(stderr, "tela-probe: child: tela_pool_create(%d) failed\n", width);
            return 1;
        }
    }
    if (arm == ARM_HELD) {
        run.team = tela_team_acquire(run.pool, width);
        if (!run.team) {
            fprintf(stderr, "tela-probe: child: tela_team_acquire(%d) failed\n", width);
            return 1;
        }
        note_width(&run, tela_team_width(run.team));
    }
    if (arm == ARM_AUTO)
        note_width(&run, tela_get_num_threads());

    int64_t *times = calloc((size_t)kernel->calls, sizeof *times);
    if (!times)
        return 1;
    /* The warm-up call: the arm's procedure, timed apart. */
    work_restore(&work);
    int64_t start = tb_now_ns();
    int failed = arm_call(&run) != 0;
    const int64_t first_ns = tb_now_ns() - start;
    tela_stats before, after;
    struct rusage usage_before, usage_after;
    tela_get_stats(&before);
    getrusage(RUSAGE_SELF, &usage_before);
    for (int c = 0; c < kernel->calls && !failed; c++) {
        work_restore(&work);
        start = tb_now_ns();
        failed = arm_call(&run) != 0;
        times[c] = tb_now_ns() - start;
    }
    tela_get_stats(&after);
    getrusage(RUSAGE_SELF, &usage_after);
    if (failed) {
        fprintf(stderr, "tela-probe: child: %s in arm %s failed (status %d)\n", kernel->name,
                arm_name(arm), run.status);
        free(times);
        return 1;
    }
    const long spawned = after.spawned_workers - before.spawned_workers;
    const long moves = after.cpu_moves - before.cpu_moves;
    const long faults = usage_after.ru_minflt - usage_before.ru_minflt;
    printf("%s %lld %ld %ld %ld %d %016llx %d", RESULT_TAG, (long long)first_ns, spawned, moves,
           faults, run.min_width, work_hash(&work), kernel->calls);
    for (int c = 0; c < kernel->calls; c++)
        printf(" %lld", (long long)times[c]);
    printf("\n");
    if (run.team)
        tela_team_release(run.team);
    tela_pool_destroy(run.pool);
    free(times);
    free(work.a);
    free(work.b);
    free(work.c);
    return fflush(stdout) == 0 ? 0 : 1;
}

/* ---- the parent: spawn, collect, summarise --------------------------------------------------- */

static struct tb_load load; /* --load processes; stopped on every exit path */

static void stop_load(void)
{
    int gone = tb_load_stop(&load);
    if (gone)
        fprintf(stderr,
                "tela-probe: WARNING: %d load process(es) had stopped before the end (lifetime "
                "too short): part of the run was measured without the load\n",
                gone);
}

static int parse_result(const char *text, const struct kernel *kernel, struct process_result *r)
{
    const char *line = strstr(text, RESULT_TAG " ");
    if (!line)
        return -1;
    char *end;
    const char *at = line + strlen(RESULT_TAG);
    long long first = strtoll(at, &end, 10);
    long spawned = strtol(end, &end, 10), moves = strtol(end, &end, 10);
    long faults = strtol(end, &end, 10);
    int min_width = (int)strtol(end, &end, 10);
    unsigned long long hash = strtoull(end, &end, 16);
    long count = strtol(end, &end, 10);
    if (count != kernel->calls || count < 1)
        return -1;
    double *ms = malloc((size_t)count * sizeof *ms);
    if (!ms)
        return -1;
    for (long c = 0; c < count; c++) {
        char *next;
        long long ns = strtoll(end, &next, 10);
        if (next == end) {
            free(ms);
            return -1;
        }
        ms[c] = (double)ns * 1e-6;
        end = next;
    }
    r->min_ms = r->max_ms = ms[0];
    for (long c = 1; c < count; c++) {
        r->min_ms = fmin(r->min_ms, ms[c]);
        r->max_ms = fmax(r->max_ms, ms[c]);
    }
    r->median_ms = median_of(ms, (int)count);
    r->first_ms = (double)first * 1e-6;
    r->spawned = spawned;
    r->moves = moves;
    r->faults_per_call = (double)faults / (double)count;
    r->min_width = min_width;
    r->hash = hash;
    r->ok = 1;
    free(ms);
    return 0;
}

/* Runs one child to its end (or kills it after the timeout) and parses its line. */
static void run_child(const char *self, const struct settings *settings,
                      const struct kernel *kernel, enum arm arm, struct process_result *result)
{
    memset(result, 0, sizeof *result);
    char kernel_arg[48], width_arg[16];
    snprintf(kernel_arg, sizeof kernel_arg, "%s:%d", kernel->name, kernel->calls);
    snprintf(width_arg, sizeof width_arg, "%d", settings->width);
    char *argv[] = {(char *)"tela-probe",  (char *)"--child", kernel_arg,
                    (char *)arm_name(arm), width_arg,         NULL};
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        perror("tela-probe: pipe");
        return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
    pid_t pid;
    const int64_t born = tb_now_ns();
    const double busy_before = machine_busy_s(), own_before = process_cpu_s();
    int spawned = posix_spawn(&pid, self, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fds[1]);
    if (spawned != 0) {
        fprintf(stderr, "tela-probe: posix_spawn %s: %s\n", self, strerror(spawned));
        close(pipe_fds[0]);
        return;
    }

    /* The child's output is one line of a few KB; read it to EOF, within the deadline. */
    size_t capacity = 4096, used = 0;
    char *text = malloc(capacity);
    const int64_t deadline = tb_now_ns() + (int64_t)settings->timeout_s * TB_NS_PER_S;
    int timed_out = 0;
    for (;;) {
        int64_t left_ms = (deadline - tb_now_ns()) / 1000000;
        if (left_ms <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pfd = {.fd = pipe_fds[0], .events = POLLIN};
        int ready = poll(&pfd, 1, left_ms > INT_MAX ? INT_MAX : (int)left_ms);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            timed_out = ready == 0;
            break;
        }
        if (text && used + 1024 > capacity) {
            char *bigger = realloc(text, capacity * 2);
            if (!bigger)
                free(text);
            text = bigger;
            capacity *= 2;
        }
        ssize_t got = text ? read(pipe_fds[0], text + used, capacity - used - 1) : -1;
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        used += (size_t)got;
    }
    close(pipe_fds[0]);
    if (timed_out) {
        fprintf(stderr, "tela-probe: %s %s: the child ran longer than %d s; killed\n", kernel->name,
                arm_name(arm), settings->timeout_s);
        kill(pid, SIGKILL);
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
    /* Everything the machine did meanwhile but this child and this process: other programs
     * (and the --load processes). /proc/stat counts in ticks (10 ms), so a short child's
     * share is coarse; the arms sum their processes. */
    const double child_cpu_s = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 +
                               (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec * 1e-6;
    const double others_s =
        machine_busy_s() - busy_before - child_cpu_s - (process_cpu_s() - own_before);
    const double wall_s = (double)(tb_now_ns() - born) * 1e-9;
    if (text) {
        text[used] = '\0';
        if (!timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
            parse_result(text, kernel, result) != 0)
            fprintf(stderr, "tela-probe: %s %s: unreadable child output\n", kernel->name,
                    arm_name(arm));
    }
    result->wall_s = wall_s;
    result->others_s = isnan(others_s) ? 0.0 : others_s; /* may be a tick below 0 */
    if (!timed_out && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        fprintf(stderr, "tela-probe: %s %s: the child %s %d\n", kernel->name, arm_name(arm),
                WIFSIGNALED(status) ? "was killed by signal" : "exited with status",
                WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    free(text);
}

/* Per arm over its processes. */
struct arm_summary {
    int ok;                  /* processes that reported */
    double median, min, max; /* of the processes' medians, ms */
    double first;            /* median of the processes' first calls, ms */
    int slow;                /* processes whose median > slow_factor x min */
    long spawned, moves;     /* summed over the processes' timed calls */
    double faults;           /* median over the processes of page faults per call */
    int min_width;           /* narrowest team any process got */
    double others;           /* share of all CPUs other processes used while these ran */
    double others_s, wall_s; /* its parts: CPU s of other processes, s of the children's lives */
};

static struct arm_summary summarise(const struct process_result *results, int procs,
                                    double slow_factor)
{
    struct arm_summary s = {
        .median = NAN, .min = NAN, .max = NAN, .first = NAN, .faults = NAN, .min_width = INT_MAX};
    double medians[MAX_PROCS], firsts[MAX_PROCS], faults[MAX_PROCS];
    for (int p = 0; p < procs; p++) {
        const struct process_result *r = &results[p];
        if (!r->ok)
            continue;
        medians[s.ok] = r->median_ms;
        firsts[s.ok] = r->first_ms;
        faults[s.ok] = r->faults_per_call;
        s.ok++;
        s.spawned += r->spawned;
        s.others_s += r->others_s;
        s.wall_s += r->wall_s;
        s.moves += r->moves;
        s.min_width = r->min_width < s.min_width ? r->min_width : s.min_width;
        s.min = isnan(s.min) || r->median_ms < s.min ? r->median_ms : s.min;
        s.max = isnan(s.max) || r->median_ms > s.max ? r->median_ms : s.max;
    }
    if (!s.ok)
        return s;
    for (int p = 0; p < procs; p++)
        s.slow += results[p].ok && results[p].median_ms > slow_factor * s.min;
    s.others =
        s.wall_s > 0.0 ? s.others_s / (s.wall_s * (double)sysconf(_SC_NPROCESSORS_ONLN)) : 0.0;
    s.others = s.others > 0.0 ? s.others : 0.0;
    s.median = median_of(medians, s.ok);
    s.first = median_of(firsts, s.ok);
    s.faults = median_of(faults, s.ok);
    return s;
}

static const char *format_ms(double ms, char *text, size_t size)
{
    if (isnan(ms))
        snprintf(text, size, "-");
    else
        snprintf(text, size, "%.*f", ms < 1.0 ? 4 : ms < 100.0 ? 2 : 1, ms);
    return text;
}

static void print_kernel_table(const struct settings *settings, const struct kernel *kernel,
                               struct process_result *const results[ARM_COUNT])
{
    if (kernel->kind == KERNEL_GEMM)
        printf("\n%s: tela_dgemm N,N %d x %d x %d (C = A B), %d timed calls per process after "
               "one warm-up call\n",
               kernel->name, kernel->n, kernel->n, kernel->n, kernel->calls);
    else
        printf("\n%s: tela_dpotrf L, n = %d, SPD input restored before each call (untimed), %d "
               "timed calls per process\n  after one warm-up call\n",
               kernel->name, kernel->n, kernel->calls);
    printf("  width %d, %d processes per arm; per process the median ms per call; per arm the "
           "median, min and max of\n  those; slow: processes whose median is above %.2g x the "
           "arm's best process\n",
           settings->width, settings->procs, settings->slow_factor);
    printf("%-21s | %9s | %9s | %9s | %6s | %-11s | %9s | %7s | %6s | %6s | %s\n", "arm",
           "median ms", "min ms", "max ms", "/held", "slow mode", "first ms", "spawned", "faults",
           "others", "process medians (ms)");
    struct arm_summary held = {.median = NAN};
    for (int i = 0; i < settings->arm_count; i++) {
        if (settings->arms[i] == ARM_HELD)
            held = summarise(results[ARM_HELD], settings->procs, settings->slow_factor);
    }
    unsigned long long hash = 0;
    int hashes = 0, differ = 0, narrow = 0;
    double others_s = 0.0, wall_s = 0.0;
    for (int i = 0; i < settings->arm_count; i++) {
        enum arm arm = settings->arms[i];
        struct arm_summary s = summarise(results[arm], settings->procs, settings->slow_factor);
        char median[24], min[24], max[24], first[24], ratio[16], slow[24];
        if (held.ok && s.ok)
            snprintf(ratio, sizeof ratio, "%.2f", s.median / held.median);
        else
            snprintf(ratio, sizeof ratio, "-");
        snprintf(slow, sizeof slow, "%s (%d/%d)", s.slow ? "SLOW" : "none", s.slow, s.ok);
        printf("%-21s | %9s | %9s | %9s | %6s | %-11s | %9s | %7ld | %6.0f | %5.0f%% |",
               arm_name(arm), format_ms(s.median, median, sizeof median),
               format_ms(s.min, min, sizeof min), format_ms(s.max, max, sizeof max), ratio, slow,
               format_ms(s.first, first, sizeof first), s.spawned, s.faults, 100.0 * s.others);
        others_s += s.others_s;
        wall_s += s.wall_s;
        for (int p = 0; p < settings->procs; p++) {
            const struct process_result *r = &results[arm][p];
            char value[24];
            printf(" %s%s", r->ok ? format_ms(r->median_ms, value, sizeof value) : "failed",
                   r->ok && r->median_ms > settings->slow_factor * s.min ? "*" : "");
            if (r->ok) {
                differ |= hashes && r->hash != hash;
                hash = r->hash;
                hashes++;
            }
        }
        printf("\n");
        if (s.ok && s.min_width < settings->width)
            narrow = 1;
    }
    printf("  results: %s over %d processes\n",
           differ ? "NOT bitwise identical" : "bitwise identical", hashes);
    /* Over all the kernel's processes: /proc/stat counts 10 ms ticks, so an arm of short
     * children (gemm128's live ~30 ms) reads a few percent either way; the sum is steadier. */
    const double cpu_s = wall_s * (double)sysconf(_SC_NPROCESSORS_ONLN);
    const double share = cpu_s > 0.0 && others_s > 0.0 ? others_s / cpu_s : 0.0;
    printf("  other processes%s used %.0f%% of the CPUs while this kernel's processes ran%s\n",
           settings->load_procs ? " (the --load ones included)" : "", 100.0 * share,
           cpu_s < MIN_USAGE_WINDOW_S      ? " (too short a time to tell: 10 ms ticks)"
           : share > BUSY_MACHINE_FRACTION ? ": NOT A QUIET MACHINE, times are unreliable and a "
                                             "slow mode may be theirs"
                                           : "");
    if (narrow)
        printf("  note: some calls ran on a team narrower than %d (another process or team held "
               "workers)\n",
               settings->width);
    fflush(stdout);
}

static int write_csv(const struct settings *settings, const struct kernel *kernel_list,
                     struct process_result *const *results)
{
    FILE *csv = fopen(settings->csv_path, "w");
    if (!csv)
        return -1;
    fprintf(csv, "kernel,arm,process,width,calls,median_ms,min_ms,max_ms,first_ms,spawned,"
                 "cpu_moves,faults_per_call,load\n");
    char load_text[32] = "";
    if (settings->load_procs)
        snprintf(load_text, sizeof load_text, "%d:%d", settings->load_procs,
                 settings->load_percent);
    for (int k = 0; k < settings->kernel_count; k++) {
        for (int i = 0; i < settings->arm_count; i++) {
            enum arm arm = settings->arms[i];
            for (int p = 0; p < settings->procs; p++) {
                const struct process_result *r = &results[k * ARM_COUNT + arm][p];
                if (!r->ok)
                    continue;
                fprintf(csv, "%s,%s,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%ld,%ld,%.1f,%s\n",
                        kernel_list[k].name, arm_name(arm), p, settings->width,
                        kernel_list[k].calls, r->median_ms, r->min_ms, r->max_ms, r->first_ms,
                        r->spawned, r->moves, r->faults_per_call, load_text);
            }
        }
    }
    return fclose(csv) == 0 ? 0 : -1;
}

/* ---- the command line ------------------------------------------------------------------------ */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tela-probe [options]\n"
            "  --kernels LIST    gemm<N>[:CALLS] and chol<N>[:CALLS] (default gemm128,chol2048;\n"
            "                    calls default to %d for gemm, %d for chol)\n"
            "  --arms LIST       held,team_per_call,scoped_team_per_call,fresh_pool,auto (default "
            "all)\n"
            "  --procs N         processes per arm and kernel (default %d)\n"
            "  --width W         team width (default: the CPUs in the affinity mask)\n"
            "  --load K:P        K background processes, each busy P%% of every 10 ms\n"
            "  --slow-factor F   a process is slow above F x its arm's best median (default "
            "%.1f)\n"
            "  --timeout S       longest a child process may run, s (default %d)\n"
            "  --csv FILE        write a row per process\n"
            "exit status: 0 ok, 1 a child failed or results differ, 2 bad arguments\n",
            DEFAULT_GEMM_CALLS, DEFAULT_CHOL_CALLS, DEFAULT_PROCS, DEFAULT_SLOW_FACTOR,
            DEFAULT_TIMEOUT_S);
}

static int parse_long(const char *option, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long value = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno || value < min || value > max) {
        fprintf(stderr, "tela-probe: %s needs an integer from %ld to %ld\n", option, min, max);
        return -1;
    }
    *out = value;
    return 0;
}

static int parse_int(const char *option, const char *text, int min, int max, int *out)
{
    long value;
    if (parse_long(option, text, min, max, &value))
        return -1;
    *out = (int)value;
    return 0;
}

/* gemm<N>[:CALLS] or chol<N>[:CALLS]. */
static int parse_kernel(const char *text, struct kernel *k)
{
    memset(k, 0, sizeof *k);
    char copy[64];
    if (strlen(text) >= sizeof copy)
        return -1;
    snprintf(copy, sizeof copy, "%s", text);
    char *colon = strchr(copy, ':');
    if (colon)
        *colon = '\0';
    const char *digits;
    if (!strncmp(copy, "gemm", 4)) {
        k->kind = KERNEL_GEMM;
        digits = copy + 4;
    } else if (!strncmp(copy, "chol", 4)) {
        k->kind = KERNEL_CHOL;
        digits = copy + 4;
    } else {
        return -1;
    }
    if (parse_int("kernel size", digits, 1, MAX_N, &k->n))
        return -1;
    k->calls = k->kind == KERNEL_GEMM ? DEFAULT_GEMM_CALLS : DEFAULT_CHOL_CALLS;
    if (colon && parse_int("kernel calls", colon + 1, 1, MAX_CALLS, &k->calls))
        return -1;
    snprintf(k->name, sizeof k->name, "%s%d", k->kind == KERNEL_GEMM ? "gemm" : "chol", k->n);
    return 0;
}

static int parse_kernels(const char *text, struct settings *settings)
{
    char buffer[512];
    if (!text || strlen(text) >= sizeof buffer)
        return -1;
    snprintf(buffer, sizeof buffer, "%s", text);
    settings->kernel_count = 0;
    char *saved = NULL;
    for (char *item = strtok_r(buffer, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) {
        if (settings->kernel_count == MAX_KERNELS ||
            parse_kernel(item, &settings->kernels[settings->kernel_count]) != 0) {
            fprintf(stderr,
                    "tela-probe: --kernels: '%s' is not gemm<N>[:CALLS] or "
                    "chol<N>[:CALLS] (at most %d kernels)\n",
                    item, MAX_KERNELS);
            return -1;
        }
        settings->kernel_count++;
    }
    return settings->kernel_count ? 0 : -1;
}

static int parse_arm(const char *text, enum arm *arm)
{
    for (int a = 0; a < ARM_COUNT; a++) {
        if (text && !strcmp(text, arm_names[a])) {
            *arm = (enum arm)a;
            return 0;
        }
    }
    return -1;
}

static int parse_arms(const char *text, struct settings *settings)
{
    char buffer[256];
    if (!text || strlen(text) >= sizeof buffer)
        return -1;
    snprintf(buffer, sizeof buffer, "%s", text);
    settings->arm_count = 0;
    char *saved = NULL;
    for (char *item = strtok_r(buffer, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) {
        enum arm arm = ARM_HELD;
        int repeated = 0;
        if (parse_arm(item, &arm) == 0) {
            for (int i = 0; i < settings->arm_count; i++)
                repeated |= settings->arms[i] == arm;
        }
        if (parse_arm(item, &arm) != 0 || repeated) {
            fprintf(stderr, "tela-probe: --arms: '%s' is not an arm (or is repeated)\n", item);
            return -1;
        }
        settings->arms[settings->arm_count++] = arm;
    }
    return settings->arm_count ? 0 : -1;
}

static int parse_load(const char *text, struct settings *settings)
{
    char procs[32];
    const char *colon = text ? strchr(text, ':') : NULL;
    if (!colon || (size_t)(colon - text) >= sizeof procs) {
        fprintf(stderr, "tela-probe: --load needs K:P, e.g. 2:50\n");
        return -1;
    }
    snprintf(procs, sizeof procs, "%.*s", (int)(colon - text), text);
    if (parse_int("--load K", procs, 0, TB_LOAD_MAX_PROCS, &settings->load_procs) ||
        parse_int("--load P", colon + 1, 0, 100, &settings->load_percent))
        return -1;
    return 0;
}

/* Returns 0 to run, 1 to exit successfully (--help), -1 on a bad command line. */
static int parse_arguments(int argc, char **argv, struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    parse_kernels("gemm128,chol2048", settings);
    for (int a = 0; a < ARM_COUNT; a++)
        settings->arms[a] = (enum arm)a;
    settings->arm_count = ARM_COUNT;
    settings->procs = DEFAULT_PROCS;
    settings->width = cpus_available();
    settings->slow_factor = DEFAULT_SLOW_FACTOR;
    settings->timeout_s = DEFAULT_TIMEOUT_S;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *option = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "--kernels")) {
            bad = parse_kernels(value, settings);
        } else if (!strcmp(option, "--arms")) {
            bad = parse_arms(value, settings);
        } else if (!strcmp(option, "--procs")) {
            bad = parse_int(option, value, 1, MAX_PROCS, &settings->procs);
        } else if (!strcmp(option, "--width")) {
            bad = parse_int(option, value, 1, MAX_WIDTH, &settings->width);
        } else if (!strcmp(option, "--load")) {
            bad = parse_load(value, settings);
        } else if (!strcmp(option, "--timeout")) {
            bad = parse_int(option, value, 1, 86400, &settings->timeout_s);
        } else if (!strcmp(option, "--slow-factor")) {
            char *end = NULL;
            settings->slow_factor = value ? strtod(value, &end) : 0.0;
            bad = !value || end == value || *end || !(settings->slow_factor > 1.0);
        } else if (!strcmp(option, "--csv")) {
            settings->csv_path = value;
            bad = !value;
        } else {
            fprintf(stderr, "tela-probe: unknown argument '%s'\n", option);
            bad = 1;
        }
        if (bad) {
            fprintf(stderr, "tela-probe: bad or missing value for %s\n", option);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

/* A rough upper bound of the run's seconds (1 GFLOP/s, 0.5 s per process), for the load
 * processes' lifetime. */
static double expected_seconds(const struct settings *settings)
{
    double total = 0.0;
    for (int k = 0; k < settings->kernel_count; k++) {
        const struct kernel *kernel = &settings->kernels[k];
        double n3 = (double)kernel->n * kernel->n * kernel->n;
        double call = (kernel->kind == KERNEL_GEMM ? 2.0 * n3 : n3 / 3.0) * 1e-9;
        total += settings->procs * settings->arm_count * (0.5 + (kernel->calls + 1) * call);
    }
    return total;
}

static void print_header(const struct settings *settings, double load_lifetime_s)
{
    char model[256] = "unknown";
    FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
    if (cpuinfo) {
        char line[512];
        while (fgets(line, sizeof line, cpuinfo)) {
            const char *value = strchr(line, ':');
            if (strncmp(line, "model name", 10) != 0 || !value)
                continue;
            value += 1 + strspn(value + 1, " \t");
            snprintf(model, sizeof model, "%.*s", (int)strcspn(value, "\n"), value);
            break;
        }
        fclose(cpuinfo);
    }
    printf("tela-probe: the acquire probe, one process per measurement\n");
    printf("  CPU: %s, %ld CPUs online, %d in this process's affinity mask\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), cpus_available());
    printf("  tela %s; width %d; %d processes per arm and kernel, run one at a time, arms "
           "interleaved\n",
           tela_version(), settings->width, settings->procs);
    printf("  arms: held = one team for all calls; team_per_call = pool held, "
           "tela_team_acquire/release around\n  each call; scoped_team_per_call = "
           "tela_with_team per call; fresh_pool = tela_pool_create, acquire,\n  call, release, "
           "tela_pool_destroy per call; auto = tela_par_auto() (TELA_NUM_THREADS=%d)\n",
           settings->width);
    printf("  timed per call: the arm's procedure (acquire, call, release, ...); each process "
           "makes one warm-up\n  call first (column first ms, not in the median), and reports "
           "the median of its timed calls;\n  spawned: workers started during the timed calls "
           "(all processes); faults: minor page faults per\n  timed call (median over the "
           "processes); others: share of all CPUs other processes used while\n  the arm's "
           "processes ran (/proc/stat minus the child's CPU time)\n");
    if (settings->load_procs)
        printf("  load: %d process(es), each busy %d%% of every 10 ms (they stop by themselves "
               "after %.0f s, or with tela-probe)\n",
               settings->load_procs, settings->load_percent, load_lifetime_s);
    else
        printf("  load: none\n");
    if (settings->width > cpus_available())
        printf("  WARNING: width %d on %d CPUs: oversubscribed\n", settings->width,
               cpus_available());
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "--child")) {
        struct kernel kernel;
        enum arm arm = ARM_HELD;
        int width;
        if (parse_kernel(argv[2], &kernel) || parse_arm(argv[3], &arm) ||
            parse_int("width", argv[4], 1, MAX_WIDTH, &width)) {
            fprintf(stderr, "tela-probe: bad --child arguments\n");
            return 2;
        }
        return child_main(&kernel, arm, width);
    }
    struct settings settings;
    int parsed = parse_arguments(argc, argv, &settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;

    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        fprintf(stderr, "tela-probe: cannot read /proc/self/exe: %s\n", strerror(errno));
        return 1;
    }
    self[length] = '\0';
    /* The auto arm's width: the default pool's, read by each child at its start. */
    char width_text[16];
    snprintf(width_text, sizeof width_text, "%d", settings.width);
    setenv("TELA_NUM_THREADS", width_text, 1);

    const double load_lifetime_s = 3.0 * expected_seconds(&settings) + 60.0;
    if (settings.load_procs &&
        tb_load_start(&load, settings.load_procs, settings.load_percent, load_lifetime_s) != 0) {
        fprintf(stderr, "tela-probe: could not start the load processes\n");
        return 1;
    }
    print_header(&settings, load_lifetime_s);

    const size_t slots = (size_t)settings.kernel_count * ARM_COUNT;
    struct process_result **results = calloc(slots, sizeof(struct process_result *));
    for (size_t i = 0; results && i < slots; i++) {
        results[i] = calloc((size_t)settings.procs, sizeof **results);
        if (!results[i]) {
            for (size_t k = 0; k < i; k++)
                free(results[k]);
            free(results);
            results = NULL;
        }
    }
    if (!results) {
        fprintf(stderr, "tela-probe: out of memory\n");
        stop_load();
        return 1;
    }
    const int show_progress = isatty(STDERR_FILENO);
    const int64_t start = tb_now_ns();
    int failures = 0;
    for (int k = 0; k < settings.kernel_count; k++) {
        const struct kernel *kernel = &settings.kernels[k];
        for (int p = 0; p < settings.procs; p++) {
            for (int i = 0; i < settings.arm_count; i++) {
                enum arm arm = settings.arms[(p + i) % settings.arm_count];
                if (show_progress)
                    fprintf(stderr, "\r  %s process %d/%d %-22s", kernel->name, p + 1,
                            settings.procs, arm_name(arm));
                struct process_result *r = &results[(size_t)k * ARM_COUNT + arm][p];
                run_child(self, &settings, kernel, arm, r);
                failures += !r->ok;
            }
        }
        if (show_progress)
            fprintf(stderr, "\r%60s\r", "");
        struct process_result *kernel_results[ARM_COUNT];
        for (int a = 0; a < ARM_COUNT; a++)
            kernel_results[a] = results[(size_t)k * ARM_COUNT + (size_t)a];
        print_kernel_table(&settings, kernel, kernel_results);
    }
    stop_load();

    /* Bitwise equality over every arm and process of a kernel, and the slow modes in one line. */
    int differ = 0, slow_arms = 0;
    for (int k = 0; k < settings.kernel_count; k++) {
        int seen = 0;
        unsigned long long hash = 0;
        for (int i = 0; i < settings.arm_count; i++) {
            enum arm arm = settings.arms[i];
            const struct process_result *rs = results[(size_t)k * ARM_COUNT + arm];
            struct arm_summary s = summarise(rs, settings.procs, settings.slow_factor);
            slow_arms += s.slow > 0;
            for (int p = 0; p < settings.procs; p++) {
                if (!rs[p].ok)
                    continue;
                differ |= seen && rs[p].hash != hash;
                hash = rs[p].hash;
                seen = 1;
            }
        }
    }
    printf("\nslow mode: %s; time: %.1f s\n",
           slow_arms ? "in some arms (SLOW above)" : "none in any arm",
           (double)(tb_now_ns() - start) * 1e-9);
    int status = failures || differ ? 1 : 0;
    if (failures)
        fprintf(stderr, "tela-probe: %d child process(es) failed\n", failures);
    if (differ)
        fprintf(stderr, "tela-probe: results differ between processes or arms\n");
    if (settings.csv_path) {
        if (write_csv(&settings, settings.kernels, results) != 0) {
            fprintf(stderr, "tela-probe: cannot write %s: %s\n", settings.csv_path,
                    strerror(errno));
            status = 1;
        } else {
            printf("CSV written to %s\n", settings.csv_path);
        }
    }
    for (size_t i = 0; i < slots; i++)
        free(results[i]);
    free(results);
    return status;
}
