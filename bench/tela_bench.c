/* tela_bench.c — tela-bench: tela's level-3, LU, Cholesky, QR, symmetric eigen and memory-bound
 * level-1 and level-2 kernels against OpenBLAS (loaded into a namespace of its own,
 * tela_bench_openblas.c) at the same thread counts in one process: each size checked (agreement of
 * the BLAS results, residuals of the LAPACK ones), then interleaved rounds; median GFLOP/s
 * (min-max), or GB/s for the memory-bound routines, tela/OpenBLAS and each side's share of the
 * measured FMA peak (of the measured read bandwidth) per size, CSV, an SVG plot. */
#include "bandwidth.h"
#include "bench_median.h"
#include "peak.h"
#include "tela.h"
#include "tela_bench_common.h"
#include "tela_bench_eig.h"
#include "tela_bench_inputs.h"
#include "tela_bench_openblas.h"
#include "tela_bench_plot.h"
#include "tela_bench_problem.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The name the command line's messages start with. */
#define PROGRAM "tela-bench"
/* Exit status when OpenBLAS cannot be loaded: ctest's SKIP_RETURN_CODE for the smoke test. */
#define EXIT_SKIPPED 77
/* Most entries in --sizes and --threads, and the widest thread count accepted (a typo such as
 * 200 should not start threads). */
#define MAX_SIZES         64
#define MAX_THREAD_COUNTS 8
#define MAX_THREADS       256
#define MAX_SIZE          16384     /* a matrix's order */
#define MAX_VECTOR_SIZE   100000000 /* a level-1 vector's length (800 MB) */
#define MAX_GELS_NRHS     4
/* Largest m x n of a QR routine's A, elements (4 GiB): the problem and each side hold one, the
 * check a few more. */
#define MAX_QR_ELEMENTS (1L << 29)
/* Largest bandwidth probe accepted (--bandwidth-mib), MiB. */
#define MAX_BANDWIDTH_MIB 65536
/* Rounds per size, and the default --quick uses (the demo). */
#define DEFAULT_ROUNDS 11
#define QUICK_ROUNDS   7
/* A round's timed batch lasts at least this long (ms): long enough that the clock's resolution
 * and a call's wake-up of sleeping workers are noise, short enough for many rounds. */
#define DEFAULT_BATCH_MS 5.0
/* Most calls in one batch. */
#define MAX_CALLS 1000000L
/* Largest check value accepted (tb_problem_check): level 3, values near 0.1 are usual for two
 * correct blockings; LAPACK residuals in units of n eps are usually below 0.1 too (LAPACK's own
 * tests accept 30). A wrong result is many orders of magnitude off. */
#define DEFAULT_TOLERANCE 10.0
/* The eigen family's bound is the tolerance times this (100 by default): MRRR's vectors (dsyevr)
 * are orthogonal to O(n eps) with a larger constant than a Householder product's, and OpenBLAS's
 * own dsyevr read 11.4 at n = 200 (LAPACK's tests accept 50). */
#define EIG_TOLERANCE_FACTOR 10.0
/* The longest wait for the other threads to go idle before a round (tb_settle). */
#define DEFAULT_SETTLE_MAX_MS 1000
/* Other processes using more than this fraction of the CPUs during a group get a warning. */
#define BUSY_MACHINE_FRACTION 0.05
/* Untimed calls for this long per side when a routine and thread count starts (OpenBLAS
 * creates its threads on first use, tela's pool wakes, pages and code get warm), at this size
 * or the largest one asked for if smaller (--warm-up-ms sets the time). */
#define DEFAULT_WARM_UP_MS  50
#define WARM_UP_SIZE        256
#define WARM_UP_VECTOR_SIZE 65536 /* level 1: as many elements as a 256 x 256 matrix */
/* Calls run for this long after the agreement check; the fastest of them sets the batch size
 * (a slow one is a wake-up or an interruption, not the call's time). */
#define CALIBRATION_NS 5000000LL

static const int default_sizes[] = {16, 32, 64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048};
/* The LAPACK routines' sizes without --sizes. */
static const int lapack_sizes[] = {64, 128, 256, 512, 1024, 2048};
/* --quick without --sizes: trsm, trmm and syrk at a few sizes only (gemm gets the full set),
 * getrf and potrf at two. */
static const int quick_sizes[] = {64, 256, 1024};
static const int quick_lapack_sizes[] = {256, 1024};
static const enum tb_routine quick_routines[] = {TB_GEMM, TB_TRSM,  TB_TRMM,
                                                 TB_SYRK, TB_GETRF, TB_POTRF};
/* The memory-bound routines' sizes, run only when named: level 1 from L1-cache-sized vectors to
 * ten times the last-level cache, level 2 from a matrix in L2 to one of 512 MiB; with --quick,
 * one size in a cache near the core, one in the last level, one in memory. */
static const int vector_sizes[] = {1000, 10000, 100000, 1000000, 10000000};
static const int level2_sizes[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192};
static const int quick_vector_sizes[] = {1000, 100000, 10000000};
static const int quick_level2_sizes[] = {256, 1024, 4096};
/* The QR family's sizes (n, the columns), run by --routines lapack or all or by name, never by
 * --quick: issue 26's ranges, the tall shapes capped where a call would pass several seconds
 * (geqrf4 at 2048 is 8192 x 2048, geqrf16 at 1024 16384 x 1024: 69 and 34 GFLOP), tsqr's n
 * the columns of a --tsqr-rows x n A. */
static const int qr_sizes[] = {256, 512, 1024, 2048, 4096};
static const int qr_tall4_sizes[] = {256, 512, 1024, 2048};
static const int qr_tall16_sizes[] = {256, 512, 1024};
static const int qr_q_sizes[] = {512, 1024, 2048, 4096}; /* orgqr, ormqr */
static const int tsqr_sizes[] = {16, 32, 64, 128};
/* The eigen family's sizes, run by --routines lapack or all or by name, never by --quick: issue
 * 27's small problems (never slower than OpenBLAS) and its targets from 512 on; 4096 (about 10 s
 * a call) only when asked for. --eig-phases without --sizes: its largest three. */
static const int eig_sizes[] = {16, 64, 256, 512, 1024, 2048};
static const int eig_phase_sizes[] = {512, 1024, 2048};
#define DEFAULT_TSQR_ROWS 100000
/* Right-hand sides of getrs, potrs, gesv and posv without --nrhs: a fixed count, as LAPACK's
 * timing programs use, so the solves' cost grows as n^2 (a trsm of n x 100). */
#define DEFAULT_NRHS 100
/* gels's right-hand sides without --gels-nrhs: 1 and n/8 (issue 26). A negative entry -k stands
 * for n/k, at least 1. */
static const int default_gels_nrhs[] = {1, -8};

/* Up to this order, a group of two or more threads also times tela serially in the same
 * rounds: issue 6 asks two threads to be no slower than one there, and the two groups run
 * minutes apart (the caller may even sit on another core), so only the same rounds compare.
 * Level 1: up to the elements of such a matrix. */
#define SCALING_MAX_N 128

struct settings {
    enum tb_routine routines[TB_ROUTINE_COUNT]; /* --routines, in the order given */
    int routine_count;
    char trans[TB_MAX_TRANS][2]; /* --trans for gemm: transa, transb */
    int trans_count;
    char gemv_trans[2]; /* gemv: the first letters of --trans, each once, in order */
    int gemv_trans_count;
    char uplo[2]; /* --uplo for potrf, potrs, posv: 'L', 'U' */
    int uplo_count;
    int threads[MAX_THREAD_COUNTS]; /* --threads, in the order given */
    int thread_count;
    int sizes[MAX_SIZES]; /* --sizes; size_count 0: the defaults */
    int size_count;
    int rounds;                   /* 0 until set */
    int nrhs;                     /* --nrhs: right-hand sides of getrs, potrs, gesv, posv */
    int gels_nrhs[MAX_GELS_NRHS]; /* --gels-nrhs: k > 0 stands for k, k < 0 for n/-k */
    int gels_nrhs_count;
    int tsqr_rows;         /* --tsqr-rows: m of tsqr */
    int warm_up_ms;        /* --warm-up-ms */
    double batch_ms;       /* --batch-ms */
    int settle_max_ms;     /* --settle-max-ms */
    double peak_gflops;    /* --peak-gflops: per core; 0 until given (then measured) */
    int bandwidth_mib;     /* --bandwidth-mib: the bandwidth probe's arrays, MiB in all */
    double tolerance;      /* --tolerance */
    int offset;            /* --offset: operands' bytes past a 64-byte line */
    int quick;             /* --quick */
    int eig_phases;        /* --eig-phases: syevd's three phases timed apart, after the groups */
    const char *csv_path;  /* --csv FILE, or NULL */
    const char *plot_path; /* --plot FILE, or NULL */
    const char *openblas;  /* --openblas PATH, or NULL: the usual places */
    const char *coretype;  /* --openblas-coretype NAME or auto; NULL: the best (tb_openblas_load) */
    int show_progress;     /* stderr is a terminal */
};

/* One routine (and gemm transpose pair) at one thread count: a table, a CSV block, a line per
 * side in the plot. */
struct group {
    enum tb_routine routine;
    char transa, transb; /* gemm; gemv transa; 'N' for the others */
    char uplo;           /* potrf, potrs, posv; 'L' for the others */
    int nrhs;            /* gels, gels4: its --gels-nrhs entry (k, or -k for n/k); 0 otherwise */
    int threads;
    int sizes[MAX_SIZES];
    int size_count;
    int done; /* sizes measured so far */
    struct tb_summary result[MAX_SIZES][TB_SIDE_COUNT];
    struct tb_summary serial[MAX_SIZES]; /* tela serially in the same rounds (SCALING_MAX_N) */
    int has_serial[MAX_SIZES];
    struct tb_check check[MAX_SIZES]; /* tb_problem_check of the checked calls */
    long calls[MAX_SIZES];            /* calls per timed batch */
    double bytes_per_flop[MAX_SIZES]; /* memory-bound: a call's bytes over its flops, which turns
                                         the GB/s of result into GFLOP/s; 0 otherwise */
    int tela_width;                   /* width of tela's team (1: tela_par_seq) */
    int openblas_threads;             /* what openblas_get_num_threads said after setting */
    double other_load;                /* CPU share other processes used while the group ran */
    double steal;                     /* CPU share the hypervisor took (steal time) meanwhile */
};

/* Everything the run shares. */
struct bench {
    struct settings settings;
    struct tb_openblas openblas;
    struct fma_peak peak[MAX_THREAD_COUNTS]; /* per entry of settings.threads; measured, or the
                                                given per-core peak times the thread count */
    struct fma_peak peak_per_core;           /* on one thread */
    struct memory_bandwidth bandwidth[MAX_THREAD_COUNTS]; /* per entry of settings.threads, when
                                                             has_memory_bound */
    struct memory_bandwidth bandwidth_one;                /* on one thread */
    int has_memory_bound;                                 /* the run has a memory-bound routine */
    struct group *groups;
    int group_count;
    long settle_timeouts; /* rounds started while other threads were still busy */
    int failed;           /* a disagreement or an error code from a call */
};

/* ---- the peak ------------------------------------------------------------------------------- */

/* The peak the percentages of a thread count are of; NAN for a count the run does not have. */
static double peak_gflops(const struct bench *bench, int threads)
{
    if (threads == 1)
        return bench->peak_per_core.gflops;
    for (int i = 0; i < bench->settings.thread_count; i++) {
        if (bench->settings.threads[i] == threads)
            return bench->peak[i].gflops;
    }
    return NAN;
}

/* The measured read bandwidth of a thread count, GB/s; NAN for a count the run does not have,
 * or when the run has no memory-bound routine (then it is not measured). */
static double read_bandwidth(const struct bench *bench, int threads)
{
    if (!bench->has_memory_bound)
        return NAN;
    if (threads == 1)
        return bench->bandwidth_one.read_gbs;
    for (int i = 0; i < bench->settings.thread_count; i++) {
        if (bench->settings.threads[i] == threads)
            return bench->bandwidth[i].read_gbs;
    }
    return NAN;
}

/* What a routine's percentages at a thread count are of: the FMA peak, GFLOP/s, or for the
 * memory-bound routines the read bandwidth, GB/s. */
static double reference_rate(const struct bench *bench, enum tb_routine routine, int threads)
{
    return tb_routine_is_memory_bound(routine) ? read_bandwidth(bench, threads)
                                               : peak_gflops(bench, threads);
}

/* The FMA peak on one thread and at every thread count of the run (peak.h), or what
 * --peak-gflops gave per core times the thread count. main runs it before OpenBLAS is loaded;
 * it still waits for other threads to settle. Returns 0, or -1 if a probe thread could not be
 * started. */
static int find_peaks(struct bench *bench)
{
    const struct settings *settings = &bench->settings;
    if (settings->peak_gflops > 0.0) {
        bench->peak_per_core = (struct fma_peak){"given", 1, settings->peak_gflops};
        for (int i = 0; i < settings->thread_count; i++)
            bench->peak[i] = (struct fma_peak){"given", settings->threads[i],
                                               settings->peak_gflops * settings->threads[i]};
        return 0;
    }
    if (settings->show_progress)
        fprintf(stderr, "\r  measuring the FMA peak");
    const int status =
        tb_measure_peaks(settings->threads, settings->thread_count, settings->settle_max_ms,
                         &bench->peak_per_core, bench->peak);
    if (settings->show_progress)
        fprintf(stderr, "\r%60s\r", "");
    return status;
}

/* The memory bandwidth (bandwidth.h) on one thread and at every thread count of the run, when
 * the run has memory-bound routines. main runs it before OpenBLAS is loaded, as find_peaks.
 * Returns 0, or -1 out of memory or if a probe thread could not be started. */
static int find_bandwidths(struct bench *bench)
{
    const struct settings *settings = &bench->settings;
    if (!bench->has_memory_bound)
        return 0;
    if (settings->show_progress)
        fprintf(stderr, "\r  measuring the memory bandwidth");
    tb_settle(settings->settle_max_ms);
    const size_t bytes = (size_t)settings->bandwidth_mib << 20;
    int status = memory_bandwidth_measure(1, bytes, &bench->bandwidth_one);
    for (int i = 0; i < settings->thread_count && status == 0; i++) {
        if (settings->threads[i] == 1)
            bench->bandwidth[i] = bench->bandwidth_one;
        else
            status = memory_bandwidth_measure(settings->threads[i], bytes, &bench->bandwidth[i]);
    }
    if (settings->show_progress)
        fprintf(stderr, "\r%60s\r", "");
    return status;
}

/* ---- one side, one call or a batch ---------------------------------------------------------- */

/* The execution policy and OpenBLAS of a group while it runs. */
struct sides {
    tela_par par;
    const struct tb_openblas *openblas;
};

static int call_side(const struct sides *sides, enum tb_side side, const struct tb_problem *p,
                     struct tb_state *state)
{
    return side == TB_TELA ? tb_call_tela(p, sides->par, state)
                           : tb_call_openblas(p, sides->openblas, state);
}

/* calls calls of one side on state; returns the ns they took, or -1 if a call returned an error
 * code (info). Level 3: the calls run back to back on the same output, timed together. LAPACK:
 * each call starts from the problem's inputs, copied in before it outside the timed part;
 * the time is the sum of the calls' own times. */
static int64_t run_calls(const struct sides *sides, enum tb_side side, const struct tb_problem *p,
                         struct tb_state *state, long calls)
{
    int errors = 0;
    int64_t elapsed = 0;
    if (tb_routine_is_lapack(p->routine)) {
        for (long c = 0; c < calls; c++) {
            tb_state_reset(p, state);
            int64_t start = tb_now_ns();
            errors |= call_side(sides, side, p, state) != 0;
            elapsed += tb_now_ns() - start;
        }
    } else {
        int64_t start = tb_now_ns();
        for (long c = 0; c < calls; c++)
            errors |= call_side(sides, side, p, state) != 0;
        elapsed = tb_now_ns() - start;
    }
    return errors ? -1 : elapsed;
}

/* ---- measuring ------------------------------------------------------------------------------ */

static const char *group_label(const struct group *g, char *text, size_t size);

static void progress(const struct bench *bench, const struct group *g, int n, const char *what)
{
    if (!bench->settings.show_progress)
        return;
    char label[32];
    fprintf(stderr, "\r  %s %dT n=%d %-24s", group_label(g, label, sizeof label), g->threads, n,
            what);
    fflush(stderr);
}

static void clear_progress(const struct bench *bench)
{
    if (bench->settings.show_progress)
        fprintf(stderr, "\r%60s\r", "");
}

/* The right-hand sides of a group's problem of order n: --nrhs for getrs ... posv, gels's own
 * entry (n/k at least 1). */
static int group_nrhs(const struct settings *settings, const struct group *g, int n)
{
    if (!tb_routine_is_gels(g->routine))
        return settings->nrhs;
    const int k = g->nrhs;
    if (k >= 0)
        return k;
    return n / -k > 1 ? n / -k : 1;
}

/* tb_problem_init for size n of group g. */
static int group_problem(const struct bench *bench, const struct group *g, int n,
                         struct tb_problem *p)
{
    const struct settings *settings = &bench->settings;
    return tb_problem_init(p, g->routine, g->transa, g->transb, g->uplo,
                           tb_routine_rows(g->routine, n, settings->tsqr_rows), n,
                           group_nrhs(settings, g, n), &bench->openblas);
}

/* Untimed calls of both sides for --warm-up-ms each. */
static int warm_up(struct bench *bench, const struct group *g, const struct sides *sides)
{
    int largest = 1;
    for (int i = 0; i < g->size_count; i++)
        largest = g->sizes[i] > largest ? g->sizes[i] : largest;
    const int most = tb_routine_is_vector(g->routine) ? WARM_UP_VECTOR_SIZE : WARM_UP_SIZE;
    const int n = largest < most ? largest : most;
    struct tb_problem p;
    if (group_problem(bench, g, n, &p) != 0)
        return -1;
    struct tb_state state;
    if (tb_state_init(&p, &state) != 0) {
        tb_problem_free(&p);
        return -1;
    }
    progress(bench, g, n, "warm-up");
    int status = 0;
    for (int side = 0; side < TB_SIDE_COUNT && status == 0; side++) {
        tb_state_reset(&p, &state);
        int64_t spent = 0;
        while (spent < (int64_t)bench->settings.warm_up_ms * 1000000LL && status == 0) {
            int64_t ns = run_calls(sides, (enum tb_side)side, &p, &state, 1);
            status = ns < 0 ? -1 : 0;
            spent += ns;
        }
    }
    tb_state_free(&state);
    tb_problem_free(&p);
    return status;
}

/* Measures size index of group g: the agreement check, the batch size, then the rounds. */
static int measure_size(struct bench *bench, struct group *g, int index, const struct sides *sides)
{
    const struct settings *settings = &bench->settings;
    const int n = g->sizes[index];
    struct tb_problem p;
    if (group_problem(bench, g, n, &p) != 0)
        return -1;
    struct tb_state out[TB_SIDE_COUNT];
    int made = 0;
    while (made < TB_SIDE_COUNT && tb_state_init(&p, &out[made]) == 0)
        made++;
    /* Slot TB_SIDE_COUNT: tela serially (groups of 2+ threads, n <= SCALING_MAX_N). */
    const int scaling =
        tb_routine_is_vector(g->routine) ? n <= SCALING_MAX_N * SCALING_MAX_N : n <= SCALING_MAX_N;
    const int slots = g->threads > 1 && scaling ? TB_SIDE_COUNT + 1 : TB_SIDE_COUNT;
    /* A call's work: its flops, or the bytes a memory-bound routine must move. */
    const double work = tb_routine_is_memory_bound(g->routine) ? p.bytes : p.flops;
    double *rates = calloc((size_t)settings->rounds * (TB_SIDE_COUNT + 1), sizeof *rates);
    int status = made == TB_SIDE_COUNT && rates ? 0 : -1;
    const struct sides serial = {tela_par_seq(), sides->openblas};

    /* The check: one call of each side from the same starting values. */
    int64_t per_call[TB_SIDE_COUNT] = {0, 0};
    progress(bench, g, n, "check");
    for (int side = 0; side < TB_SIDE_COUNT && status == 0; side++) {
        tb_state_reset(&p, &out[side]);
        per_call[side] = run_calls(sides, (enum tb_side)side, &p, &out[side], 1);
        if (per_call[side] < 0) {
            fprintf(stderr, "\ntela-bench: %s's %s returned an error at n=%d\n",
                    tb_side_labels[side], tb_routine_names[g->routine], n);
            bench->failed = 1;
            status = -1;
        }
    }
    if (status == 0 && tb_problem_check(&p, &bench->openblas, &out[TB_TELA], &out[TB_OPENBLAS],
                                        &g->check[index]) != 0)
        status = -1;

    /* The batch: enough calls that the faster side's batch lasts batch_ms. The checked call
     * ran cold (caches, buffers sized on first use), so unless it was far longer than a batch
     * the time per call comes from calls that follow it. */
    const int64_t batch_ns = (int64_t)(settings->batch_ms * 1e6);
    for (int side = 0; side < TB_SIDE_COUNT && status == 0; side++) {
        if (per_call[side] >= 4 * batch_ns)
            continue;
        int64_t spent = 0;
        while (spent < CALIBRATION_NS && status == 0) {
            int64_t ns = run_calls(sides, (enum tb_side)side, &p, &out[side], 1);
            status = ns < 0 ? -1 : 0;
            spent += ns;
            per_call[side] = spent == ns || ns < per_call[side] ? ns : per_call[side];
        }
    }
    int64_t fastest =
        per_call[TB_TELA] < per_call[TB_OPENBLAS] ? per_call[TB_TELA] : per_call[TB_OPENBLAS];
    long calls = fastest > 0 ? (long)((batch_ns + fastest - 1) / fastest) : MAX_CALLS;
    calls = calls < 1 ? 1 : calls > MAX_CALLS ? MAX_CALLS : calls;
    g->calls[index] = calls;

    for (int round = 0; round < settings->rounds && status == 0; round++) {
        char what[32];
        snprintf(what, sizeof what, "round %d/%d", round + 1, settings->rounds);
        progress(bench, g, n, what);
        /* Alternate who goes first, so neither side always runs right after the other. */
        for (int k = 0; k < slots && status == 0; k++) {
            const int slot = round % 2 ? slots - 1 - k : k;
            const struct sides *how = slot == TB_SIDE_COUNT ? &serial : sides;
            const enum tb_side side = slot == TB_SIDE_COUNT ? TB_TELA : (enum tb_side)slot;
            if (tb_settle(settings->settle_max_ms) != 0)
                bench->settle_timeouts++;
            /* Short calls: one untimed call first wakes this side's sleeping workers, so the
             * batch measures calls back to back, as a program making many of them sees. */
            if (calls > 1)
                status = run_calls(how, side, &p, &out[side], 1) < 0 ? -1 : 0;
            int64_t ns = status == 0 ? run_calls(how, side, &p, &out[side], calls) : -1;
            if (ns <= 0) {
                status = -1;
                break;
            }
            rates[(size_t)slot * (size_t)settings->rounds + (size_t)round] =
                work * (double)calls / (double)ns;
        }
    }
    if (status == 0) {
        for (int side = 0; side < TB_SIDE_COUNT; side++)
            g->result[index][side] =
                tb_summarize(rates + (size_t)side * (size_t)settings->rounds, settings->rounds);
        g->has_serial[index] = slots > TB_SIDE_COUNT;
        if (g->has_serial[index])
            g->serial[index] = tb_summarize(
                rates + (size_t)TB_SIDE_COUNT * (size_t)settings->rounds, settings->rounds);
        g->bytes_per_flop[index] = tb_routine_is_memory_bound(g->routine) ? p.bytes / p.flops : 0.0;
    }
    free(rates);
    for (int side = 0; side < made; side++)
        tb_state_free(&out[side]);
    tb_problem_free(&p);
    return status;
}

/* ---- reporting ------------------------------------------------------------------------------ */

static const char *group_label(const struct group *g, char *text, size_t size)
{
    if (g->routine == TB_GEMM)
        snprintf(text, size, "%s %c%c", tb_routine_names[g->routine], g->transa, g->transb);
    else if (g->routine == TB_GEMV)
        snprintf(text, size, "%s %c", tb_routine_names[g->routine], g->transa);
    else if (tb_routine_has_uplo(g->routine))
        snprintf(text, size, "%s %c", tb_routine_names[g->routine], g->uplo);
    else if (tb_routine_is_gels(g->routine) && g->nrhs < 0)
        snprintf(text, size, "%s nrhs=n/%d", tb_routine_names[g->routine], -g->nrhs);
    else if (tb_routine_is_gels(g->routine))
        snprintf(text, size, "%s nrhs=%d", tb_routine_names[g->routine], g->nrhs);
    else
        snprintf(text, size, "%s", tb_routine_names[g->routine]);
    return text;
}

/* 1 if the checked calls of size index of g fail the check: a level-3 difference or either
 * side's LAPACK residual above the tolerance (or NaN), the QR and eigen families' agreement
 * between the sides too (syevdn: that alone), or tela wrote the other triangle. The eigen
 * family's bound is EIG_TOLERANCE_FACTOR times the tolerance. */
static int check_fails(const struct group *g, int index, double tolerance)
{
    const struct tb_check *c = &g->check[index];
    if (tb_routine_is_eig(g->routine)) {
        tolerance *= EIG_TOLERANCE_FACTOR;
        return !(c->agreement <= tolerance) ||
               (tb_eig_has_vectors(g->routine) &&
                (!(c->difference <= tolerance) || !(c->reference <= tolerance)));
    }
    if (!(c->difference <= tolerance) || c->other_triangle_written)
        return 1;
    if (tb_routine_is_qr(g->routine) && !(c->agreement <= tolerance))
        return 1;
    return tb_routine_is_lapack(g->routine) && !(c->reference <= tolerance);
}

/* The check column of a table row. Level 3: the difference. LAPACK: tela's residual and
 * OpenBLAS's in parentheses, and for getrf and gesv whether the pivots were the same; the QR
 * family: the two sides' agreement, and for R (L) how many rows (columns) differ in sign. */
/* Appends to text (size bytes, used of them taken so far; used never passes size - 1). */
static void append(char *text, size_t size, size_t *used, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *text, size_t size, size_t *used, const char *format, ...)
{
    if (*used + 1 >= size)
        return;
    va_list args;
    va_start(args, format);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started on the line above */
    int written = vsnprintf(text + *used, size - *used, format, args);
    va_end(args);
    if (written > 0)
        *used = *used + (size_t)written < size ? *used + (size_t)written : size - 1;
}

/* A check value: three decimals, or three digits and an exponent when it is far off (a wrong
 * result's residual can have 40 digits). */
static const char *format_check_value(double value, char *text, size_t size)
{
    snprintf(text, size, fabs(value) < 1e6 ? "%.3f" : "%.3g", value);
    return text;
}

static const char *format_check(const struct group *g, int index, double tolerance, char *text,
                                size_t size)
{
    const struct tb_check *c = &g->check[index];
    char value[32];
    size_t used = 0;
    text[0] = '\0';
    const int values_only = tb_routine_is_eig(g->routine) && !tb_eig_has_vectors(g->routine);
    const double bound = tolerance * (tb_routine_is_eig(g->routine) ? EIG_TOLERANCE_FACTOR : 1.0);
    if (values_only)
        append(text, size, &used, "values only");
    else
        append(text, size, &used, "%s", format_check_value(c->difference, value, sizeof value));
    if (tb_routine_is_lapack(g->routine) && !values_only)
        append(text, size, &used, " (%s)", format_check_value(c->reference, value, sizeof value));
    if (tb_routine_is_qr(g->routine) || tb_routine_is_eig(g->routine))
        append(text, size, &used, ", agree %s",
               format_check_value(c->agreement, value, sizeof value));
    if (c->signs_differ > 0)
        append(text, size, &used, ", %d signs differ", c->signs_differ);
    if (c->pivots_differ == 0)
        append(text, size, &used, ", same pivots");
    else if (c->pivots_differ > 0)
        append(text, size, &used, ", %d pivots differ", c->pivots_differ);
    if (c->other_triangle_written)
        append(text, size, &used, ", %s TRIANGLE WRITTEN", g->uplo == 'L' ? "UPPER" : "LOWER");
    /* The QR and eigen families can fail on their agreement alone, with both residuals small. */
    if (check_fails(g, index, tolerance))
        append(text, size, &used, "  %s",
               !tb_routine_is_lapack(g->routine) || values_only  ? "DISAGREE"
               : c->difference <= bound && c->reference <= bound ? "DISAGREE"
                                                                 : "RESIDUAL TOO LARGE");
    return text;
}

/* gflops as a percentage of peak, "-" when either is missing. */
static const char *format_percent(double gflops, double peak, char *text, size_t size)
{
    if (isnan(gflops) || !(peak > 0.0))
        snprintf(text, size, "-");
    else
        snprintf(text, size, "%.1f", 100.0 * gflops / peak);
    return text;
}

/* The seconds a call of flops takes at gflops GFLOP/s. */
static double seconds_of(double flops, double gflops)
{
    return flops / gflops * 1e-9;
}

/* Seconds to three significant digits in fixed notation, as issue 27's tables give them. */
static const char *format_seconds(double seconds, char *text, size_t size)
{
    if (!(seconds > 0.0) || isinf(seconds)) {
        snprintf(text, size, "-");
        return text;
    }
    const int decimals = 2 - (int)floor(log10(seconds));
    snprintf(text, size, "%.*f", decimals < 0 ? 0 : decimals > 9 ? 9 : decimals, seconds);
    return text;
}

/* An eigen routine's summary as seconds per call: the median, and the range from the fastest
 * round (the highest rate) to the slowest. */
static const char *format_seconds_summary(struct tb_summary s, double flops, char *text,
                                          size_t size)
{
    char median[24], min[24], max[24];
    if (isnan(s.median))
        snprintf(text, size, "-");
    else
        snprintf(text, size, "%s (%s-%s)",
                 format_seconds(seconds_of(flops, s.median), median, sizeof median),
                 format_seconds(seconds_of(flops, s.max), min, sizeof min),
                 format_seconds(seconds_of(flops, s.min), max, sizeof max));
    return text;
}

/* What an eigen routine's table times. */
static const char *eig_description(enum tb_routine routine, char *text, size_t size)
{
    const char *call = "";
    switch (routine) {
    case TB_SYEVD:
        call = "dsyevd: A = Z diag(w) Z^T, jobz V";
        break;
    case TB_SYEVDN:
        call = "dsyevd: the eigenvalues w alone, jobz N";
        break;
    case TB_SYEVR:
        call = "dsyevr: range A, jobz V, abstol 0";
        break;
    case TB_SYEVRI:
        call = "dsyevr: range I, il = 1, iu = n/10 (at least 1), jobz V, abstol 0";
        break;
    case TB_SYEV:
        call = "dsyev: A = Z diag(w) Z^T by QL/QR, jobz V";
        break;
    case TB_SYGVD:
        call = "dsygvd: A Z = B Z diag(w), itype 1, jobz V, B symmetric positive definite";
        break;
    default:
        break;
    }
    snprintf(text, size,
             "%s; uplo L, A n x n\n  %% peak and the CSV's GFLOP/s at the conventional count "
             "%s;\n  tela/OpenBLAS: OpenBLAS's seconds over tela's (above 1: tela faster)",
             call, tb_eig_flops_formula(routine));
    return text;
}

/* The bytes a call of a memory-bound routine is counted to move (tb_problem's bytes). */
static const char *bytes_formula(enum tb_routine routine)
{
    switch (routine) {
    case TB_DOT:
        return "16n";
    case TB_AXPY:
        return "24n";
    case TB_NRM2:
        return "8n";
    case TB_GEMV:
        return "8(n^2 + 3n)";
    case TB_SYMV:
        return "8(n(n+1)/2 + 3n), one pass over the triangle";
    case TB_GER:
        return "8(2n^2 + 2n)";
    case TB_TRSV:
        return "8(n(n+1)/2 + 2n)";
    default:
        return "";
    }
}

/* What a QR routine's table times, its A's shape and its flop count (LAPACK's). */
static const char *qr_description(enum tb_routine routine, int tsqr_rows, char *text, size_t size)
{
    const char *geqrf_flops = "flops 2mn^2 - 2n^3/3 (LAPACK's count)";
    switch (routine) {
    case TB_GEQRF:
        snprintf(text, size, "A = QR, A n x n (m = n); %s", geqrf_flops);
        break;
    case TB_GEQRF4:
        snprintf(text, size, "A = QR, A 4n x n (m = 4n); %s", geqrf_flops);
        break;
    case TB_GEQRF16:
        snprintf(text, size, "A = QR, A 16n x n (m = 16n); %s", geqrf_flops);
        break;
    case TB_TSQR:
        snprintf(text, size, "A = QR, A %d x n (m = %d, --tsqr-rows); %s", tsqr_rows, tsqr_rows,
                 geqrf_flops);
        break;
    case TB_GELQF:
        snprintf(text, size, "A = LQ, A n x n; flops 4/3 n^3 (geqrf's count transposed)");
        break;
    case TB_ORGQR:
        snprintf(text, size,
                 "Q n x n (m = n, k = n) from reflectors OpenBLAS's dgeqrf made once;\n  flops "
                 "4mnk - 2(m+n)k^2 + 4k^3/3 = 4/3 n^3 (LAPACK's count)");
        break;
    case TB_ORMQR:
        snprintf(text, size,
                 "C = Q^T C (side L, trans T), C n x n, Q n x n from reflectors OpenBLAS's dgeqrf "
                 "made once;\n  flops 4mnk - 2nk^2 = 2n^3 (m = k = n, n columns; LAPACK's count)");
        break;
    case TB_QR:
        snprintf(text, size,
                 "NumPy's qr: geqrf, R copied out, orgqr; A n x n; flops geqrf's + orgqr's = "
                 "8/3 n^3");
        break;
    case TB_GELS:
    case TB_GELS4:
        snprintf(text, size,
                 "min ||B - A X|| (trans N), A %s x n, B m x nrhs; flops geqrf's + ormqr's (Q^T B) "
                 "+ trsm's:\n  2mn^2 - 2n^3/3 + 4mn nrhs - 2n^2 nrhs + n^2 nrhs",
                 routine == TB_GELS ? "n" : "4n");
        break;
    default:
        text[0] = '\0';
        break;
    }
    return text;
}

static void print_table(const struct bench *bench, const struct group *g)
{
    const struct settings *settings = &bench->settings;
    char label[32];
    group_label(g, label, sizeof label);
    const int memory_bound = tb_routine_is_memory_bound(g->routine);
    const int eig = tb_routine_is_eig(g->routine);
    const double peak = reference_rate(bench, g->routine, g->threads);
    const char *unit = memory_bound ? "GB/s" : "GFLOP/s",
               *percent = memory_bound ? "% read" : "% peak";
    if (eig)
        printf("\n%s, %d thread%s: seconds per call, median (min-max) over %d rounds; %% peak: of "
               "the %s peak, %.1f\n",
               label, g->threads, g->threads == 1 ? "" : "s", settings->rounds,
               settings->peak_gflops > 0.0 ? "given" : "measured FMA", peak);
    else if (memory_bound)
        printf("\n%s, %d thread%s: GB/s of the bytes a call must move, %s, median (min-max) over "
               "%d rounds;\n  %% read: of the measured read bandwidth, %.1f GB/s\n",
               label, g->threads, g->threads == 1 ? "" : "s", bytes_formula(g->routine),
               settings->rounds, peak);
    else
        printf("\n%s, %d thread%s: GFLOP/s, median (min-max) over %d rounds; %% peak: of the %s "
               "peak, %.1f\n",
               label, g->threads, g->threads == 1 ? "" : "s", settings->rounds,
               settings->peak_gflops > 0.0 ? "given" : "measured FMA", peak);
    if (g->threads == 1)
        printf("  tela: tela_par_seq(); OpenBLAS: openblas_set_num_threads(1)\n");
    else
        printf("  tela: tela_par_team(team), a held team of width %d; OpenBLAS: "
               "openblas_set_num_threads(%d), %d reported\n",
               g->tela_width, g->threads, g->openblas_threads);
    printf("  meanwhile other processes used %.0f%% of the CPUs, steal time %.0f%%%s\n",
           100.0 * g->other_load, 100.0 * g->steal,
           g->other_load + g->steal > BUSY_MACHINE_FRACTION ? ": NOT A QUIET MACHINE, times "
                                                              "are unreliable"
                                                            : "");
    if (tb_routine_is_qr(g->routine)) {
        char description[256];
        printf("  %s\n",
               qr_description(g->routine, settings->tsqr_rows, description, sizeof description));
    }
    if (eig) {
        char description[320];
        printf("  %s\n", eig_description(g->routine, description, sizeof description));
    }
    if (tb_routine_is_gels(g->routine) && g->nrhs < 0)
        printf("  nrhs = n/%d (at least 1); each call from the same inputs, copied in outside the "
               "timed part\n",
               -g->nrhs);
    else if (tb_routine_has_rhs(g->routine))
        printf("  nrhs = %d; each call from the same inputs, copied in outside the timed part\n",
               group_nrhs(settings, g, 0));
    else if (tb_routine_is_lapack(g->routine))
        printf("  each call from the same input, copied in outside the timed part\n");
    /* Level 1's n reaches eight digits. */
    const int n_width = tb_routine_is_vector(g->routine) ? 8 : 6;
    /* Seconds take more digits than GFLOP/s: 0.0000205 (0.0000201-0.0000210) at n = 16. */
    const int summary_width = eig ? 31 : 19;
    printf("%*s | %-*s | %6s | %-*s | %6s | %13s | %7s | %s\n", n_width, "n", summary_width,
           eig ? "tela s" : "tela", percent, summary_width, eig ? "OpenBLAS s" : "OpenBLAS",
           percent, "tela/OpenBLAS", "calls",
           tb_routine_is_qr(g->routine)       ? "residual: tela (OpenBLAS), agreement"
           : eig                              ? "residual: tela (OpenBLAS), eigenvalues' agreement"
           : tb_routine_is_lapack(g->routine) ? "residual: tela (OpenBLAS)"
                                              : "diff");
    for (int i = 0; i < g->done; i++) {
        char tela[80], openblas[80], tela_percent[16], openblas_percent[16], ratio[16], check[160];
        struct tb_summary t = g->result[i][TB_TELA], o = g->result[i][TB_OPENBLAS];
        const double flops = eig ? tb_eig_flops(g->routine, g->sizes[i]) : 0.0;
        if (o.median > 0.0)
            snprintf(ratio, sizeof ratio, "%.2f", t.median / o.median);
        else
            snprintf(ratio, sizeof ratio, "-");
        printf("%*d | %-*s | %6s | %-*s | %6s | %13s | %7ld | %s\n", n_width, g->sizes[i],
               summary_width,
               eig ? format_seconds_summary(t, flops, tela, sizeof tela)
                   : tb_format_summary(t, tela, sizeof tela),
               format_percent(t.median, peak, tela_percent, sizeof tela_percent), summary_width,
               eig ? format_seconds_summary(o, flops, openblas, sizeof openblas)
                   : tb_format_summary(o, openblas, sizeof openblas),
               format_percent(o.median, peak, openblas_percent, sizeof openblas_percent), ratio,
               g->calls[i], format_check(g, i, settings->tolerance, check, sizeof check));
    }
    for (int i = 0; i < g->done; i++) {
        if (!g->has_serial[i])
            continue;
        const struct tb_summary t = g->result[i][TB_TELA], one = g->serial[i];
        if (eig) {
            const double flops = tb_eig_flops(g->routine, g->sizes[i]);
            char many[24], single[24];
            printf("  n = %d, tela at %d threads against tela serially in the same rounds: %.2f "
                   "(%s / %s s)\n",
                   g->sizes[i], g->threads, t.median / one.median,
                   format_seconds(seconds_of(flops, t.median), many, sizeof many),
                   format_seconds(seconds_of(flops, one.median), single, sizeof single));
            continue;
        }
        printf("  n = %d, tela at %d threads against tela serially in the same rounds: %.2f "
               "(%.1f / %.1f %s)\n",
               g->sizes[i], g->threads, t.median / one.median, t.median, one.median, unit);
    }
    fflush(stdout);
}

/* One CSV row of size index of g. The GFLOP/s columns for every routine (a memory-bound
 * routine's GB/s turned into GFLOP/s by its flop count, an eigen routine's at its conventional
 * count) with their share of the FMA peak; for the memory-bound routines also the GB/s columns
 * with their share of the read bandwidth, empty for the others; then the rows m of the QR
 * family's A, empty for the others; last the eigen routines' seconds per call (median, the
 * fastest round's, the slowest's), empty for the others. */
static void write_csv_row(FILE *csv, const struct bench *bench, const struct group *g, int index,
                          const char *trans, const char *side, struct tb_summary s,
                          const char *nrhs, int threads)
{
    const int memory_bound = tb_routine_is_memory_bound(g->routine);
    const double to_gflops = memory_bound ? 1.0 / g->bytes_per_flop[index] : 1.0;
    const double peak = peak_gflops(bench, threads);
    fprintf(csv, "%s,%s,%d,%d,%s,%.3f,%.3f,%.3f,%d,%s,%.3f,%.2f", tb_routine_names[g->routine],
            trans, g->threads, g->sizes[index], side, s.median * to_gflops, s.min * to_gflops,
            s.max * to_gflops, bench->settings.rounds, nrhs, peak,
            100.0 * s.median * to_gflops / peak);
    if (memory_bound) {
        const double bandwidth = read_bandwidth(bench, threads);
        fprintf(csv, ",%.3f,%.3f,%.3f,%.3f,%.2f", s.median, s.min, s.max, bandwidth,
                100.0 * s.median / bandwidth);
    } else {
        fprintf(csv, ",,,,,");
    }
    if (tb_routine_is_qr(g->routine))
        fprintf(csv, ",%d",
                tb_routine_rows(g->routine, g->sizes[index], bench->settings.tsqr_rows));
    else
        fprintf(csv, ",");
    if (tb_routine_is_eig(g->routine)) {
        const double flops = tb_eig_flops(g->routine, g->sizes[index]);
        fprintf(csv, ",%.6g,%.6g,%.6g\n", seconds_of(flops, s.median), seconds_of(flops, s.max),
                seconds_of(flops, s.min));
    } else {
        fprintf(csv, ",,,\n");
    }
}

static int write_csv(const struct bench *bench, const char *path)
{
    FILE *csv = fopen(path, "w");
    if (!csv)
        return -1;
    fprintf(csv, "routine,trans,threads,n,side,gflops_median,gflops_min,gflops_max,rounds,nrhs,"
                 "peak_gflops,percent_of_peak,gbs_median,gbs_min,gbs_max,bandwidth_gbs,"
                 "percent_of_bandwidth,m,seconds_median,seconds_min,seconds_max\n");
    for (int k = 0; k < bench->group_count; k++) {
        const struct group *g = &bench->groups[k];
        /* The trans column: gemm's pair, gemv's letter, the triangle of potrf, potrs, posv, else
         * 'N'. */
        char trans[3] = {g->transa, g->transb, '\0'};
        if (g->routine != TB_GEMM)
            trans[1] = '\0';
        if (tb_routine_has_uplo(g->routine))
            trans[0] = g->uplo;
        for (int i = 0; i < g->done; i++) {
            /* The nrhs column: the solves' right-hand sides (gels's n/k at this n), ormqr's
             * columns of C; empty for the others. */
            char nrhs[16] = "";
            if (tb_routine_has_rhs(g->routine))
                snprintf(nrhs, sizeof nrhs, "%d", group_nrhs(&bench->settings, g, g->sizes[i]));
            else if (g->routine == TB_ORMQR)
                snprintf(nrhs, sizeof nrhs, "%d", g->sizes[i]);
            for (int side = 0; side < TB_SIDE_COUNT; side++)
                write_csv_row(csv, bench, g, i, trans, tb_side_names[side], g->result[i][side],
                              nrhs, g->threads);
            /* tela_serial ran on one thread: its shares are of the one-thread figures. */
            if (g->has_serial[i])
                write_csv_row(csv, bench, g, i, trans, "tela_serial", g->serial[i], nrhs, 1);
        }
    }
    return fclose(csv) == 0 ? 0 : -1;
}

/* A QR panel's x axis: n, and A's shape (gels: and nrhs). */
static void qr_x_label(const struct group *g, int tsqr_rows, char *text, size_t size)
{
    char rows[12];
    if (g->routine == TB_TSQR)
        snprintf(rows, sizeof rows, "%d", tsqr_rows);
    else if (g->routine == TB_GEQRF4 || g->routine == TB_GELS4)
        snprintf(rows, sizeof rows, "4n");
    else if (g->routine == TB_GEQRF16)
        snprintf(rows, sizeof rows, "16n");
    else
        snprintf(rows, sizeof rows, "n");
    if (tb_routine_is_gels(g->routine) && g->nrhs < 0)
        snprintf(text, size, "n (A %s x n, nrhs = n/%d; log scale)", rows, -g->nrhs);
    else if (tb_routine_is_gels(g->routine))
        snprintf(text, size, "n (A %s x n, nrhs = %d; log scale)", rows, g->nrhs);
    else
        snprintf(text, size, "n (A %s x n; log scale)", rows);
}

/* One panel per routine and variant (transpose pair, triangle, gels's nrhs), a series per side
 * and thread count. */
static int write_plot(const struct bench *bench, const char *path, const char *subtitle)
{
    const int groups = bench->group_count;
    /* At least one of each: calloc(0, ...) may return NULL, and no groups is an empty plot. */
    const size_t slots = groups > 0 ? (size_t)groups : 1;
    struct tb_plot_panel *panels = calloc(slots, sizeof *panels);
    struct tb_plot_series *series = calloc(slots * TB_SIDE_COUNT, sizeof *series);
    struct tb_plot_point *points = calloc(slots * TB_SIDE_COUNT * MAX_SIZES, sizeof *points);
    /* Each panel's dashed lines: the FMA peaks, or the read bandwidths for the memory-bound
     * routines. */
    const struct settings *settings = &bench->settings;
    struct tb_plot_peak peaks[MAX_THREAD_COUNTS], bandwidths[MAX_THREAD_COUNTS];
    for (int i = 0; i < settings->thread_count; i++) {
        peaks[i] = (struct tb_plot_peak){bench->peak[i].threads, bench->peak[i].gflops};
        bandwidths[i] = (struct tb_plot_peak){settings->threads[i], bench->bandwidth[i].read_gbs};
    }
    int status = -1;
    if (panels && series && points) {
        int panel_count = 0, series_count = 0;
        for (int k = 0; k < groups; k++) {
            const struct group *g = &bench->groups[k];
            char label[32];
            group_label(g, label, sizeof label);
            struct tb_plot_panel *panel = NULL;
            for (int p = 0; p < panel_count; p++) {
                if (!strcmp(panels[p].title, label))
                    panel = &panels[p];
            }
            if (!panel) {
                panel = &panels[panel_count++];
                snprintf(panel->title, sizeof panel->title, "%s", label);
                if (tb_routine_is_qr(g->routine))
                    qr_x_label(g, settings->tsqr_rows, panel->x_label, sizeof panel->x_label);
                else if (tb_routine_is_eig(g->routine))
                    snprintf(panel->x_label, sizeof panel->x_label, "n (GFLOP/s at %s; log scale)",
                             tb_eig_flops_formula(g->routine));
                else if (tb_routine_has_rhs(g->routine))
                    snprintf(panel->x_label, sizeof panel->x_label, "n (nrhs = %d; log scale)",
                             bench->settings.nrhs);
                else if (tb_routine_is_lapack(g->routine))
                    snprintf(panel->x_label, sizeof panel->x_label, "n (log scale)");
                else if (tb_routine_is_vector(g->routine))
                    snprintf(panel->x_label, sizeof panel->x_label, "n (vector length; log scale)");
                else if (tb_routine_is_memory_bound(g->routine))
                    snprintf(panel->x_label, sizeof panel->x_label, "n (A n x n; log scale)");
                else
                    snprintf(panel->x_label, sizeof panel->x_label, "n (m = n = k; log scale)");
                const int memory_bound = tb_routine_is_memory_bound(g->routine);
                panel->y_label = memory_bound ? "GB/s" : "GFLOP/s";
                panel->peaks = memory_bound ? bandwidths : peaks;
                panel->peak_count = settings->thread_count;
                panel->peak_label = memory_bound                  ? "measured read bandwidth"
                                    : settings->peak_gflops > 0.0 ? "given peak"
                                                                  : "measured FMA peak";
                panel->series = &series[series_count];
            }
            /* A group's series follow its panel's earlier ones: groups of one panel are
             * consecutive, since the thread counts are the innermost loop. */
            for (int side = 0; side < TB_SIDE_COUNT; side++) {
                struct tb_plot_series *s = &series[series_count];
                struct tb_plot_point *pts = &points[(size_t)series_count * MAX_SIZES];
                series_count++;
                panel->series_count++;
                s->side = (enum tb_side)side;
                s->threads = g->threads;
                s->count = g->done;
                s->points = pts;
                for (int i = 0; i < g->done; i++) {
                    struct tb_summary r = g->result[i][side];
                    pts[i] = (struct tb_plot_point){g->sizes[i], r.median, r.min, r.max};
                }
            }
        }
        status = tb_plot_write(path,
                               bench->has_memory_bound
                                   ? "tela vs OpenBLAS: GFLOP/s, GB/s for the memory-bound "
                                     "routines (double)"
                                   : "tela vs OpenBLAS: GFLOP/s (double)",
                               subtitle, panels, panel_count);
    }
    free(points);
    free(series);
    free(panels);
    return status;
}

/* ---- the header ------------------------------------------------------------------------------ */

/* Names the file of every compared routine. Returns -1 if a tela routine and its OpenBLAS
 * counterpart come from the same file: then the comparison would be of a library with itself. */
static int print_provenance(const struct bench *bench)
{
    const struct tb_openblas *ob = &bench->openblas;
    const struct {
        const char *tela_name, *openblas_name;
        tb_any_function tela, openblas;
    } routines[TB_ROUTINE_COUNT] = {
        [TB_GEMM] = {"tela_dgemm", "cblas_dgemm", (tb_any_function)tela_dgemm,
                     (tb_any_function)ob->dgemm},
        [TB_TRSM] = {"tela_dtrsm", "cblas_dtrsm", (tb_any_function)tela_dtrsm,
                     (tb_any_function)ob->dtrsm},
        [TB_TRMM] = {"tela_dtrmm", "cblas_dtrmm", (tb_any_function)tela_dtrmm,
                     (tb_any_function)ob->dtrmm},
        [TB_SYRK] = {"tela_dsyrk", "cblas_dsyrk", (tb_any_function)tela_dsyrk,
                     (tb_any_function)ob->dsyrk},
        [TB_SYMM] = {"tela_dsymm", "dsymm_", (tb_any_function)tela_dsymm,
                     (tb_any_function)ob->dsymm},
        [TB_SYR2K] = {"tela_dsyr2k", "dsyr2k_", (tb_any_function)tela_dsyr2k,
                      (tb_any_function)ob->dsyr2k},
        [TB_GETRF] = {"tela_dgetrf", "dgetrf_", (tb_any_function)tela_dgetrf,
                      (tb_any_function)ob->dgetrf},
        [TB_GETRS] = {"tela_dgetrs", "dgetrs_", (tb_any_function)tela_dgetrs,
                      (tb_any_function)ob->dgetrs},
        [TB_POTRF] = {"tela_dpotrf", "dpotrf_", (tb_any_function)tela_dpotrf,
                      (tb_any_function)ob->dpotrf},
        [TB_POTRS] = {"tela_dpotrs", "dpotrs_", (tb_any_function)tela_dpotrs,
                      (tb_any_function)ob->dpotrs},
        [TB_GESV] = {"tela_dgesv", "dgesv_", (tb_any_function)tela_dgesv,
                     (tb_any_function)ob->dgesv},
        [TB_POSV] = {"tela_dposv", "dposv_", (tb_any_function)tela_dposv,
                     (tb_any_function)ob->dposv},
        [TB_GEQRF] = {"tela_dgeqrf", "dgeqrf_", (tb_any_function)tela_dgeqrf,
                      (tb_any_function)ob->dgeqrf},
        [TB_GEQRF4] = {"tela_dgeqrf", "dgeqrf_", (tb_any_function)tela_dgeqrf,
                       (tb_any_function)ob->dgeqrf},
        [TB_GEQRF16] = {"tela_dgeqrf", "dgeqrf_", (tb_any_function)tela_dgeqrf,
                        (tb_any_function)ob->dgeqrf},
        [TB_TSQR] = {"tela_dgeqrf", "dgeqrf_", (tb_any_function)tela_dgeqrf,
                     (tb_any_function)ob->dgeqrf},
        [TB_GELQF] = {"tela_dgelqf", "dgelqf_", (tb_any_function)tela_dgelqf,
                      (tb_any_function)ob->dgelqf},
        [TB_ORGQR] = {"tela_dorgqr", "dorgqr_", (tb_any_function)tela_dorgqr,
                      (tb_any_function)ob->dorgqr},
        [TB_ORMQR] = {"tela_dormqr", "dormqr_", (tb_any_function)tela_dormqr,
                      (tb_any_function)ob->dormqr},
        /* qr calls geqrf too: both sides' come from the files named for geqrf. */
        [TB_QR] = {"tela_dorgqr", "dorgqr_", (tb_any_function)tela_dorgqr,
                   (tb_any_function)ob->dorgqr},
        [TB_GELS] = {"tela_dgels", "dgels_", (tb_any_function)tela_dgels,
                     (tb_any_function)ob->dgels},
        [TB_GELS4] = {"tela_dgels", "dgels_", (tb_any_function)tela_dgels,
                      (tb_any_function)ob->dgels},
        [TB_SYEVD] = {"tela_dsyevd", "dsyevd_", (tb_any_function)tela_dsyevd,
                      (tb_any_function)ob->dsyevd},
        [TB_SYEVDN] = {"tela_dsyevd", "dsyevd_", (tb_any_function)tela_dsyevd,
                       (tb_any_function)ob->dsyevd},
        [TB_SYEVR] = {"tela_dsyevr", "dsyevr_", (tb_any_function)tela_dsyevr,
                      (tb_any_function)ob->dsyevr},
        [TB_SYEVRI] = {"tela_dsyevr", "dsyevr_", (tb_any_function)tela_dsyevr,
                       (tb_any_function)ob->dsyevr},
        [TB_SYEV] = {"tela_dsyev", "dsyev_", (tb_any_function)tela_dsyev,
                     (tb_any_function)ob->dsyev},
        [TB_SYGVD] = {"tela_dsygvd", "dsygvd_", (tb_any_function)tela_dsygvd,
                      (tb_any_function)ob->dsygvd},
        [TB_DOT] = {"tela_ddot", "ddot_", (tb_any_function)tela_ddot, (tb_any_function)ob->ddot},
        [TB_AXPY] = {"tela_daxpy", "daxpy_", (tb_any_function)tela_daxpy,
                     (tb_any_function)ob->daxpy},
        [TB_NRM2] = {"tela_dnrm2", "dnrm2_", (tb_any_function)tela_dnrm2,
                     (tb_any_function)ob->dnrm2},
        [TB_GEMV] = {"tela_dgemv", "dgemv_", (tb_any_function)tela_dgemv,
                     (tb_any_function)ob->dgemv},
        [TB_SYMV] = {"tela_dsymv", "dsymv_", (tb_any_function)tela_dsymv,
                     (tb_any_function)ob->dsymv},
        [TB_GER] = {"tela_dger", "dger_", (tb_any_function)tela_dger, (tb_any_function)ob->dger},
        [TB_TRSV] = {"tela_dtrsv", "dtrsv_", (tb_any_function)tela_dtrsv,
                     (tb_any_function)ob->dtrsv},
    };
    /* --eig-phases: syevd's three phases. */
    const struct {
        const char *tela_name, *openblas_name;
        tb_any_function tela, openblas;
    } phases[TB_EIG_PHASE_COUNT] = {
        [TB_EIG_SYTRD] = {"tela_dsytrd", "dsytrd_", (tb_any_function)tela_dsytrd,
                          (tb_any_function)ob->dsytrd},
        [TB_EIG_STEDC] = {"tela_dstedc", "dstedc_", (tb_any_function)tela_dstedc,
                          (tb_any_function)ob->dstedc},
        [TB_EIG_ORMTR] = {"tela_dormtr", "dormtr_", (tb_any_function)tela_dormtr,
                          (tb_any_function)ob->dormtr},
    };
    const int phase_count = bench->settings.eig_phases ? TB_EIG_PHASE_COUNT : 0;
    int status = 0;
    printf("  routines compared, and the file each was found in (dladdr):\n");
    for (int i = 0; i < bench->settings.routine_count + phase_count; i++) {
        const int routine = i < bench->settings.routine_count;
        const enum tb_routine r = routine ? bench->settings.routines[i] : TB_GEMM;
        const int k = routine ? 0 : i - bench->settings.routine_count;
        const char *tela_name = routine ? routines[r].tela_name : phases[k].tela_name;
        const char *openblas_name = routine ? routines[r].openblas_name : phases[k].openblas_name;
        char tela_file[4096], openblas_file[4096];
        if (tb_function_file(routine ? routines[r].tela : phases[k].tela, tela_file,
                             sizeof tela_file) != 0)
            snprintf(tela_file, sizeof tela_file, "(unknown)");
        if (tb_function_file(routine ? routines[r].openblas : phases[k].openblas, openblas_file,
                             sizeof openblas_file) != 0)
            snprintf(openblas_file, sizeof openblas_file, "(unknown)");
        printf("    %-11s %s\n    %-11s %s\n", tela_name, tela_file, openblas_name, openblas_file);
        if (tb_same_file(tela_file, openblas_file) == 1) {
            fprintf(stderr,
                    "tela-bench: %s and %s both come from %s: that would compare a library "
                    "with itself\n",
                    tela_name, openblas_name, tela_file);
            status = -1;
        }
    }
    return status;
}

static void print_header(const struct bench *bench)
{
    const struct settings *settings = &bench->settings;
    const struct tb_openblas *ob = &bench->openblas;
    char model[256], family[32], cpu_model[32];
    tb_cpuinfo_value("model name", model, sizeof model);
    tb_cpuinfo_value("cpu family", family, sizeof family);
    tb_cpuinfo_value("model", cpu_model, sizeof cpu_model);
    const int cpus = tb_cpus_available();
    const char *coretype = getenv("OPENBLAS_CORETYPE"), *l2 = getenv("OPENBLAS_L2_SIZE");
    const char *core = ob->get_corename();
    const int parallel = ob->get_parallel ? ob->get_parallel() : -1;

    printf("tela-bench: tela's kernels against OpenBLAS, same problems and thread counts, one "
           "process\n");
    printf("  CPU: %s (family %s, model %s), %ld CPUs online, %d in this process's affinity "
           "mask\n",
           model, family, cpu_model, sysconf(_SC_NPROCESSORS_ONLN), cpus);
    const int peak_given = settings->peak_gflops > 0.0;
    printf("  %s: %.1f GFLOP/s per core%s", peak_given ? "given peak" : "measured FMA peak",
           bench->peak_per_core.gflops, peak_given ? " (--peak-gflops)" : "");
    for (int i = 0; i < settings->thread_count; i++) {
        if (bench->peak[i].threads > 1)
            printf(", %.1f on %d threads", bench->peak[i].gflops, bench->peak[i].threads);
    }
    printf("\n");
    if (!peak_given)
        printf("    (%s loop%s; the best 2 ms of 50 ms; or give it: --peak-gflops)\n",
               bench->peak_per_core.loop,
               settings->thread_count > 1 || settings->threads[0] > 1
                   ? ", on all threads at once and summed"
                   : "");
    for (int i = 0; !peak_given && i < settings->thread_count; i++) {
        if (bench->peak[i].threads > 1 &&
            tb_peak_is_low(&bench->peak[i], bench->peak_per_core.gflops))
            printf("    WARNING: the %d-thread peak read low in %d tries (the host gave these "
                   "threads fewer cores than CPUs); its %% peak column is too high\n",
                   bench->peak[i].threads, TB_PEAK_ATTEMPTS);
    }
    if (bench->has_memory_bound) {
        printf("  measured memory bandwidth: read %.1f GB/s on 1 thread",
               bench->bandwidth_one.read_gbs);
        for (int i = 0; i < settings->thread_count; i++) {
            if (bench->bandwidth[i].threads > 1)
                printf(", %.1f on %d threads", bench->bandwidth[i].read_gbs,
                       bench->bandwidth[i].threads);
        }
        printf("; triad %.1f", bench->bandwidth_one.triad_gbs);
        for (int i = 0; i < settings->thread_count; i++) {
            if (bench->bandwidth[i].threads > 1)
                printf(", %.1f", bench->bandwidth[i].triad_gbs);
        }
        printf("\n    (%s loops over %.0f MiB of arrays split among the threads, all at once; "
               "the best 5 ms\n    of 100 ms; read: a sum, 8 bytes per element; triad: a = b + "
               "s c, 24 bytes per element as\n    STREAM counts it; GB/s = 1e9 bytes/s)\n",
               bench->bandwidth_one.loop, (double)bench->bandwidth_one.bytes / (1 << 20));
    }
    printf("  tela %s, called through its native API (tela_dgemm(par, ...))\n", tela_version());
    char version[32], origin[256];
    printf("  OpenBLAS %s: %s, loaded with dlmopen into link-map namespace %ld\n",
           tb_openblas_version(ob, version, sizeof version), ob->path, ob->namespace_id);
    printf("    core: %s (%s); threading: %s\n", core,
           tb_openblas_core_origin(ob, origin, sizeof origin),
           parallel == 0   ? "serial build"
           : parallel == 1 ? "pthreads"
           : parallel == 2 ? "OpenMP"
                           : "unknown");
    printf("    config: %s\n", ob->get_config ? ob->get_config() : "(no openblas_get_config)");
    /* The environment's OPENBLAS_CORETYPE is only read with --openblas-coretype auto. */
    const int coretype_unused =
        coretype && ob->core_choice != TB_CORE_AUTO && strcasecmp(coretype, core) != 0;
    printf("    environment: OPENBLAS_CORETYPE=%s%s OPENBLAS_L2_SIZE=%s\n",
           coretype ? coretype : "(unset)",
           coretype_unused ? " (not used: --openblas-coretype auto would use it)" : "",
           l2 ? l2 : "(unset)");
    int level3 = 0, lapack = 0, memory = 0, qr = 0, eig = 0;
    for (int i = 0; i < settings->routine_count; i++) {
        const enum tb_routine r = settings->routines[i];
        lapack |= tb_routine_is_lapack(r) && !tb_routine_is_qr(r) && !tb_routine_is_eig(r);
        qr |= tb_routine_is_qr(r);
        eig |= tb_routine_is_eig(r);
        memory |= tb_routine_is_memory_bound(r);
        level3 |= !tb_routine_is_lapack(r) && !tb_routine_is_memory_bound(r);
    }
    printf("  problems: %s, column-major, lda = %s%s\n",
           qr ? "square (QR family: m x n)" : "square", qr ? "m" : "n", level3 ? ";" : "");
    if (level3)
        printf("  gemm C = op(A) op(B) + C; trsm B = A^-1 B and trmm B = A B (side L, lower, no "
               "transpose,\n  non-unit); syrk C = A A^T + C (lower); symm C = A B + C (side L, A "
               "symmetric in its lower\n  triangle); syr2k C = A B^T + B A^T + C (lower, trans "
               "N); flops 2n^3 (gemm, symm, syr2k),\n  n^3 (trsm, trmm, syrk)\n");
    if (memory)
        printf("  memory-bound, x and y of length n, A n x n: dot x^T y, axpy y = alpha x + y, "
               "nrm2 ||x||; gemv\n  y = op(A) x + y (op from --trans's first letters); symv y "
               "= A x + y (A symmetric, lower\n  triangle); ger A = alpha x y^T + A; trsv x = "
               "A^-1 x (lower, no transpose, non-unit, A A = I);\n  alpha of axpy and ger +1 "
               "and -1 in turn; the figure is GB/s of the bytes a call must move at\n  least "
               "(8 per element read or written, each once), %% read its share of the measured "
               "read\n  bandwidth; OpenBLAS through its Fortran entry points (ddot_, ...)\n");
    if (lapack)
        printf("  getrf A = P L U (A uniform in [-1, 1)), potrf A = L L^T or U^T U (A symmetric "
               "positive definite);\n  getrs, potrs: A X = B with factors computed once by "
               "OpenBLAS, B n x nrhs, nrhs = %d;\n  gesv, posv: factor and solve; flops "
               "2/3 n^3 (getrf), 1/3 n^3 (potrf), 2 n^2 nrhs (getrs,\n  potrs), their sums "
               "(gesv, posv); OpenBLAS through its Fortran entry points (dgetrf_, ...)\n",
               settings->nrhs);
    if (qr)
        printf("  QR family, A m x n uniform in [-1, 1) (2 sqrt(n) added to a square one's "
               "diagonal): geqrf m = n,\n  geqrf4 4n, geqrf16 16n, tsqr %d (--tsqr-rows); gelqf "
               "A = LQ; orgqr Q, ormqr C = Q^T C (side L,\n  C n x n) from reflectors "
               "OpenBLAS's dgeqrf made once; qr: geqrf, R copied out, orgqr (NumPy's\n  qr); "
               "gels min ||B - AX||, m = n (gels), 4n (gels4), B m x nrhs; flops as LAPACK "
               "counts\n  them (each table says which); OpenBLAS through dgeqrf_ ... dgels_ "
               "(reference LAPACK on its BLAS)\n  with the workspace its lwork = -1 query "
               "asks for, allocated once per size, outside the timing\n",
               settings->tsqr_rows);
    if (eig)
        printf("  eigen family, A n x n symmetric in its lower triangle (uplo L; uniform in [-1, "
               "1), the upper\n  triangle other values): syevd A = Z diag(w) Z^T (jobz V), syevdn "
               "values only, syevr range A,\n  syevri range I (the lowest n/10), syev, sygvd A Z = "
               "B Z diag(w) (itype 1, B SPD as potrf's);\n  the tables give seconds per call; "
               "%% peak and the CSV's GFLOP/s use a conventional count\n  (4n^3 with vectors, "
               "4/3 n^3 values only; each table says); OpenBLAS through dsyevd_ ...\n  dsygvd_ "
               "(reference LAPACK on its BLAS) with the workspace its lwork = liwork = -1 query "
               "asks for,\n  allocated once per size, outside the timing\n");
    if (settings->offset)
        printf("  operands %d bytes past a 64-byte line (--offset), for both libraries\n",
               settings->offset);
    else
        printf("  operands on 64-byte lines (--offset 0)\n");
    printf("  threads: 1 = tela_par_seq(); t > 1 = tela_par_team(team) on a team of width t "
           "held for the\n  routine (tela_pool_create + tela_team_acquire; tela's gate may run "
           "a call narrower);\n  OpenBLAS: openblas_set_num_threads(t)\n");
    printf("  timing: %d rounds per size, interleaved (tela first in even rounds, OpenBLAS in "
           "odd); each side's\n  round starts once the process's other threads are idle "
           "(OpenBLAS's spin ~0.13 s after a call;\n  the caller busy-waits meanwhile), then "
           "(short calls) one untimed call, then a batch of calls\n  lasting >= %.1f ms "
           "(column calls); GFLOP/s = flops x calls / batch time (GB/s: bytes)\n",
           settings->rounds, settings->batch_ms);
    if (lapack || qr || eig)
        printf("  LAPACK routines: every call starts from the same inputs (A, B), copied in "
               "before it outside the\n  timed part; the batch time is the sum of the calls' "
               "own times\n");
    if (level3)
        printf("  agreement (column diff): max |tela - OpenBLAS| / (n eps max|A| max|B|) "
               "(trsm: max|X| for max|B|,\n  syrk: max|A|^2) after one call from the same "
               "inputs; above %g is an error\n",
               settings->tolerance);
    if (memory)
        printf("  agreement, memory-bound (column diff): max |tela - OpenBLAS| / (k eps s), k "
               "the inner length,\n  s the operands' scale: dot n, max|x| max|y|; nrm2 n, "
               "max|x|; axpy 1, max|x| + max|y|; gemv, symv\n  n, max|A| max|x|; ger 1, max|A| + "
               "max|x| max|y|; trsv n, max|A| max|x| (x OpenBLAS's solution);\n  above %g is "
               "an error\n",
               settings->tolerance);
    if (lapack)
        printf("  residuals (LAPACK routines; 1-norms, eps = 2^-52): getrf ||PA - LU|| / (n ||A|| "
               "eps), potrf\n  ||A - LL^T|| (or U^T U) / (n ||A|| eps), solves max_j ||b_j - A "
               "x_j|| / (n "
               "||A|| ||x_j|| eps); each\n  side's, computed with OpenBLAS's BLAS; above %g is "
               "an error; getrf, gesv: whether both sides\n  chose the same pivots\n",
               settings->tolerance);
    if (qr)
        printf("  QR family: each side's residual as LAPACK's tests (m >= n): geqrf ||R - Q^T A|| "
               "/ (m ||A|| eps),\n  gelqf ||L - A Q^T|| / (n ||A|| eps), orgqr ||I - Q^T Q|| / "
               "(m eps), ormqr ||Q (Q^T C) - C|| /\n  (m ||C|| eps), qr the larger of ||A - QR|| "
               "/ (m ||A|| eps) and ||I - Q^T Q|| / (m eps), gels\n  max_j ||A^T (b_j - A "
               "x_j)|| / (m ||A|| (||A|| ||x_j|| + ||b_j||) eps); agreement: max |tela -\n  "
               "OpenBLAS| / (m eps max|OpenBLAS's|) over R (rows compared up to sign, a count "
               "where it\n  differs), L, Q, C or X; above %g is an error\n",
               settings->tolerance);
    if (eig)
        printf("  eigen family: each side's residual, the larger of ||A Z - Z diag(w)|| / (n ||A|| "
               "eps) and\n  ||I - Z^T Z|| / (n eps) (sygvd: ||A Z - B Z diag(w)|| / (n ||A|| "
               "||Z|| eps)); agreement of the\n  eigenvalues max |w - w_OpenBLAS| / (n eps "
               "||A||) (sygvd: n eps max|w|); above %g (--tolerance times %g) is an error\n",
               settings->tolerance * EIG_TOLERANCE_FACTOR, EIG_TOLERANCE_FACTOR);
    fflush(stdout);

    if (tb_core_isa(core) < tb_cpu_isa())
        fprintf(stderr,
                "tela-bench: WARNING: OpenBLAS runs its %s kernels (%s) on a CPU with %s: the "
                "comparison is\n  against these slower kernels, not OpenBLAS at its best on "
                "this CPU\n",
                core, origin, tb_isa_names[tb_cpu_isa()]);
    else if (ob->core_choice == TB_CORE_NAMED && strcasecmp(core, ob->core_named) != 0)
        fprintf(stderr, "tela-bench: WARNING: %s\n", origin);
    if (parallel == 0)
        fprintf(stderr, "tela-bench: WARNING: this OpenBLAS is a serial build: its columns at "
                        "t > 1 are one thread\n");
}

/* ---- the command line ----------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tela-bench [options]\n"
            "  --routines LIST   any of gemm,trsm,trmm,syrk,symm,syr2k (level3; also blas),\n"
            "                    getrf,getrs,potrf,potrs,gesv,posv and the QR family\n"
            "                    geqrf,geqrf4,geqrf16,tsqr,gelqf,orgqr,ormqr,qr,gels,gels4\n"
            "                    and the eigen family syevd,syevdn,syevr,syevri,syev,sygvd\n"
            "                    (lapack), and the memory-bound dot,axpy,nrm2,gemv,symv,ger,\n"
            "                    trsv (memory); all: level3 and lapack (default gemm;\n"
            "                    --quick: gemm, trsm, trmm, syrk, getrf, potrf)\n"
            "                    QR family, A m x n, n from --sizes: geqrf A = QR with m = n,\n"
            "                    geqrf4 m = 4n, geqrf16 m = 16n, tsqr m = --tsqr-rows; gelqf\n"
            "                    A = LQ (m = n); orgqr Q, ormqr C = Q^T C (side L, trans T,\n"
            "                    C n x n), both from reflectors OpenBLAS's dgeqrf made once\n"
            "                    (m = k = n); qr NumPy's qr (geqrf, R copied out, orgqr;\n"
            "                    m = n); gels min ||B - AX|| (trans N) with m = n, gels4\n"
            "                    m = 4n, B m x nrhs. Flops as LAPACK counts them: geqrf\n"
            "                    2mn^2 - 2n^3/3, gelqf the same transposed, orgqr 4mnk -\n"
            "                    2(m+n)k^2 + 4k^3/3, ormqr 4mnk - 2nk^2 (C m x n), qr\n"
            "                    geqrf + orgqr, gels geqrf + ormqr (Q^T B) + n^2 nrhs (trsm)\n"
            "                    Eigen family, A n x n symmetric (uplo L): syevd values and\n"
            "                    vectors (jobz V), syevdn values only, syevr range A, syevri\n"
            "                    range I (il = 1, iu = n/10), syev jobz V, sygvd itype 1 with\n"
            "                    B SPD; seconds per call, GFLOP/s at conventional counts\n"
            "                    (4n^3 with vectors, 4/3 n^3 values only, syevri 4/3 n^3 +\n"
            "                    2n^2 k, sygvd 19/3 n^3)\n"
            "  --trans LIST      gemm transposes: NN,NT,TN,TT or all (default NN); gemv takes\n"
            "                    their first letters, each once\n"
            "  --uplo LIST       triangles of potrf, potrs, posv: L, U or L,U (default L)\n"
            "  --threads LIST    thread counts, e.g. 1,2 (default 1 and the CPUs available)\n"
            "  --sizes LIST      n values, e.g. 16,64,256 (default 16 ... 2048 for level 3,\n"
            "                    64 ... 2048 for LAPACK, 64 ... 8192 for gemv, symv, ger,\n"
            "                    trsv, 1000 ... 10^7 for dot, axpy, nrm2; --quick: that for\n"
            "                    gemm, 64,256,1024 for the other level 3, 256,1024 for\n"
            "                    LAPACK, 256,1024,4096 and 1000,10^5,10^7 for memory-bound;\n"
            "                    QR family: 256 ... 4096 for geqrf, gelqf, qr, gels, 256 ...\n"
            "                    2048 for geqrf4, gels4, 256 ... 1024 for geqrf16, 512 ...\n"
            "                    4096 for orgqr, ormqr, 16,32,64,128 for tsqr; m n at most\n"
            "                    2^29; eigen family: 16,64,256,512,1024,2048)\n"
            "  --nrhs N          right-hand sides of getrs, potrs, gesv, posv (default %d)\n"
            "  --gels-nrhs LIST  right-hand sides of gels, gels4, a table each: counts or n/K\n"
            "                    (n/K at least 1; default 1,n/8)\n"
            "  --tsqr-rows M     rows of tsqr's A (default %d)\n"
            "  --rounds N        interleaved rounds per size (default %d; --quick: %d)\n"
            "  --quick           the demo's set (about a minute on 2 CPUs)\n"
            "  --eig-phases      also time syevd's phases apart (jobz V, uplo L): dsytrd,\n"
            "                    dstedc (compz I), dormtr, each side's on its own results;\n"
            "                    --sizes (default 512,1024,2048), --threads, --rounds; alone\n"
            "                    (no --routines) it runs nothing else\n"
            "  --batch-ms MS     least length of a timed batch (default %.0f)\n"
            "  --warm-up-ms MS   untimed calls per side before a routine's first size\n"
            "                    (default %d)\n"
            "  --peak-gflops G   double peak of one core, GFLOP/s, given instead of measured\n"
            "  --bandwidth-mib N arrays of the memory bandwidth probe, MiB in all (default %d)\n"
            "  --tolerance T     largest agreement difference accepted (default %g)\n"
            "  --offset BYTES    the operands (A, B, C, x, y and what a call updates) that\n"
            "                    many bytes past a 64-byte line, for both libraries: 0-56, a\n"
            "                    multiple of 8 (default 0; glibc's and NumPy's large arrays:\n"
            "                    16)\n"
            "  --settle-max-ms N longest wait for idle threads before a round (default %d)\n"
            "  --openblas PATH   the OpenBLAS to load (default: the pthreads build, found)\n"
            "  --openblas-coretype NAME\n"
            "                    OpenBLAS's kernel set (its OPENBLAS_CORETYPE), e.g. SkylakeX;\n"
            "                    auto: OpenBLAS's own choice, the environment as given\n"
            "                    (default: the best set of the best ISA the CPU and the build\n"
            "                    share, whatever the environment says)\n"
            "  --csv FILE        write rows routine,trans,threads,n,side,gflops_median,\n"
            "                    gflops_min,gflops_max,rounds,nrhs,peak_gflops,percent_of_peak,\n"
            "                    gbs_median,gbs_min,gbs_max,bandwidth_gbs,percent_of_bandwidth\n"
            "                    (the last five for the memory-bound routines only),m (rows of\n"
            "                    the QR family's A; empty for the others),seconds_median,\n"
            "                    seconds_min,seconds_max (per call, the eigen family only)\n"
            "  --plot FILE       write an SVG plot of GFLOP/s (GB/s) against n\n"
            "exit status: 0 ok, 1 error or disagreement, 2 bad arguments, %d OpenBLAS not "
            "found\n",
            DEFAULT_NRHS, DEFAULT_TSQR_ROWS, DEFAULT_ROUNDS, QUICK_ROUNDS, DEFAULT_BATCH_MS,
            DEFAULT_WARM_UP_MS, (int)(MEMORY_BANDWIDTH_DEFAULT_BYTES >> 20), DEFAULT_TOLERANCE,
            DEFAULT_SETTLE_MAX_MS, EXIT_SKIPPED);
}

/* Whether routine r belongs to the set a --routines item names: level3 (or blas, its older
 * name), lapack, memory, all (level3 and lapack: the memory-bound routines run only when
 * named); -1 if the item names no set. */
static int in_routine_set(const char *item, enum tb_routine r)
{
    const int lapack = tb_routine_is_lapack(r), memory = tb_routine_is_memory_bound(r);
    if (!strcasecmp(item, "level3") || !strcasecmp(item, "blas"))
        return !lapack && !memory;
    if (!strcasecmp(item, "lapack"))
        return lapack;
    if (!strcasecmp(item, "memory"))
        return memory;
    if (!strcasecmp(item, "all"))
        return !memory;
    return -1;
}

/* The routines and sets named, in order, each routine once. */
static int parse_routines(const char *text, struct settings *settings)
{
    char items[TB_ROUTINE_COUNT][32];
    int n = tb_split_list(PROGRAM, "--routines", text, items, TB_ROUTINE_COUNT);
    if (n < 0)
        return -1;
    int count = 0;
    for (int i = 0; i < n; i++) {
        int named = 0;
        for (int r = 0; r < TB_ROUTINE_COUNT; r++) {
            const int in_set = in_routine_set(items[i], (enum tb_routine)r);
            if (in_set == 0 || (in_set < 0 && strcasecmp(items[i], tb_routine_names[r]) != 0))
                continue;
            named = 1;
            int seen = 0;
            for (int k = 0; k < count; k++)
                seen |= settings->routines[k] == (enum tb_routine)r;
            if (!seen)
                settings->routines[count++] = (enum tb_routine)r;
        }
        if (!named) {
            fprintf(stderr, "tela-bench: --routines: '%s' is not one of", items[i]);
            for (int r = 0; r < TB_ROUTINE_COUNT; r++)
                fprintf(stderr, " %s,", tb_routine_names[r]);
            fprintf(stderr, " level3, blas, lapack, memory, all\n");
            return -1;
        }
    }
    settings->routine_count = count;
    return 0;
}

/* --gels-nrhs: counts, or n/K for a share of n (stored as -K). */
static int parse_gels_nrhs(const char *text, struct settings *settings)
{
    char items[MAX_GELS_NRHS][32];
    int n = tb_split_list(PROGRAM, "--gels-nrhs", text, items, MAX_GELS_NRHS);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const int share = (items[i][0] == 'n' || items[i][0] == 'N') && items[i][1] == '/';
        int value;
        if (tb_parse_int(PROGRAM, "--gels-nrhs", share ? items[i] + 2 : items[i], 1, MAX_SIZE,
                         &value) != 0)
            return -1;
        settings->gels_nrhs[i] = share ? -value : value;
    }
    settings->gels_nrhs_count = n;
    return 0;
}

static int parse_uplo(const char *text, struct settings *settings)
{
    char items[2][32];
    int n = tb_split_list(PROGRAM, "--uplo", text, items, 2);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        char u = (char)(items[i][0] & ~0x20); /* upper case */
        if (strlen(items[i]) != 1 || (u != 'L' && u != 'U')) {
            fprintf(stderr, "tela-bench: --uplo: '%s' is not L or U\n", items[i]);
            return -1;
        }
        settings->uplo[i] = u;
    }
    settings->uplo_count = n;
    return 0;
}

/* Returns 0 to run, 1 to exit successfully (--help), -1 on a bad command line. */
static int parse_arguments(int argc, char **argv, struct settings *settings)
{
    memset(settings, 0, sizeof *settings);
    settings->batch_ms = DEFAULT_BATCH_MS;
    settings->tolerance = DEFAULT_TOLERANCE;
    settings->settle_max_ms = DEFAULT_SETTLE_MAX_MS;
    settings->nrhs = DEFAULT_NRHS;
    settings->tsqr_rows = DEFAULT_TSQR_ROWS;
    settings->warm_up_ms = DEFAULT_WARM_UP_MS;
    settings->bandwidth_mib = (int)(MEMORY_BANDWIDTH_DEFAULT_BYTES >> 20);
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = 1, status = 0;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "--routines")) {
            status = parse_routines(value, settings);
        } else if (!strcmp(option, "--trans")) {
            status = tb_parse_trans(PROGRAM, value, settings->trans, &settings->trans_count);
        } else if (!strcmp(option, "--uplo")) {
            status = parse_uplo(value, settings);
        } else if (!strcmp(option, "--threads")) {
            status = tb_parse_int_list(PROGRAM, option, value, 1, MAX_THREADS, settings->threads,
                                       MAX_THREAD_COUNTS, &settings->thread_count);
        } else if (!strcmp(option, "--sizes")) {
            /* The routines' own limits are checked in make_groups. */
            status = tb_parse_int_list(PROGRAM, option, value, 1, MAX_VECTOR_SIZE, settings->sizes,
                                       MAX_SIZES, &settings->size_count);
        } else if (!strcmp(option, "--rounds")) {
            status = tb_parse_int(PROGRAM, option, value, 1, 10000, &settings->rounds);
        } else if (!strcmp(option, "--nrhs")) {
            status = tb_parse_int(PROGRAM, option, value, 1, MAX_SIZE, &settings->nrhs);
        } else if (!strcmp(option, "--gels-nrhs")) {
            status = parse_gels_nrhs(value, settings);
        } else if (!strcmp(option, "--tsqr-rows")) {
            status = tb_parse_int(PROGRAM, option, value, 1, MAX_QR_ELEMENTS, &settings->tsqr_rows);
        } else if (!strcmp(option, "--warm-up-ms")) {
            status = tb_parse_int(PROGRAM, option, value, 0, 60000, &settings->warm_up_ms);
        } else if (!strcmp(option, "--batch-ms")) {
            status = tb_parse_double(PROGRAM, option, value, 0.01, 60000.0, &settings->batch_ms);
        } else if (!strcmp(option, "--peak-gflops")) {
            status = tb_parse_double(PROGRAM, option, value, 0.001, 1e6, &settings->peak_gflops);
        } else if (!strcmp(option, "--bandwidth-mib")) {
            status = tb_parse_int(PROGRAM, option, value, 1, MAX_BANDWIDTH_MIB,
                                  &settings->bandwidth_mib);
        } else if (!strcmp(option, "--tolerance")) {
            status = tb_parse_double(PROGRAM, option, value, 0.0, 1e12, &settings->tolerance);
        } else if (!strcmp(option, "--offset")) {
            status = tb_parse_int(PROGRAM, option, value, 0, 56, &settings->offset);
            if (status == 0 && settings->offset % 8 != 0) {
                fprintf(stderr, "%s: --offset: %d is not a multiple of 8\n", PROGRAM,
                        settings->offset);
                status = -1;
            }
        } else if (!strcmp(option, "--settle-max-ms")) {
            status = tb_parse_int(PROGRAM, option, value, 0, 60000, &settings->settle_max_ms);
        } else if (!strcmp(option, "--openblas")) {
            settings->openblas = value;
            status = value ? 0 : -1;
        } else if (!strcmp(option, "--openblas-coretype")) {
            settings->coretype = value;
            status = value && *value ? 0 : -1;
        } else if (!strcmp(option, "--csv")) {
            settings->csv_path = value;
            status = value ? 0 : -1;
        } else if (!strcmp(option, "--plot")) {
            settings->plot_path = value;
            status = value ? 0 : -1;
        } else if (!strcmp(option, "--quick")) {
            settings->quick = 1;
            takes_value = 0;
        } else if (!strcmp(option, "--eig-phases")) {
            settings->eig_phases = 1;
            takes_value = 0;
        } else {
            fprintf(stderr, "tela-bench: unknown argument '%s'\n", option);
            status = -1;
        }
        if (status != 0) {
            if (!value && takes_value)
                fprintf(stderr, "tela-bench: %s needs a value\n", option);
            usage(stderr);
            return -1;
        }
        i += takes_value;
    }
    if (!settings->routine_count && !settings->eig_phases) {
        if (settings->quick) {
            settings->routine_count = (int)(sizeof quick_routines / sizeof quick_routines[0]);
            memcpy(settings->routines, quick_routines, sizeof quick_routines);
        } else {
            settings->routines[0] = TB_GEMM;
            settings->routine_count = 1;
        }
    }
    if (!settings->trans_count) {
        settings->trans[0][0] = settings->trans[0][1] = 'N';
        settings->trans_count = 1;
    }
    for (int i = 0; i < settings->trans_count; i++) {
        const char letter = settings->trans[i][0];
        if (!memchr(settings->gemv_trans, letter, (size_t)settings->gemv_trans_count))
            settings->gemv_trans[settings->gemv_trans_count++] = letter;
    }
    if (!settings->uplo_count) {
        settings->uplo[0] = 'L';
        settings->uplo_count = 1;
    }
    if (!settings->gels_nrhs_count) {
        settings->gels_nrhs_count = (int)(sizeof default_gels_nrhs / sizeof default_gels_nrhs[0]);
        memcpy(settings->gels_nrhs, default_gels_nrhs, sizeof default_gels_nrhs);
    }
    if (!settings->thread_count) {
        int cpus = tb_cpus_available();
        settings->threads[settings->thread_count++] = 1;
        if (cpus > 1)
            settings->threads[settings->thread_count++] = cpus < MAX_THREADS ? cpus : MAX_THREADS;
    }
    /* --sizes takes a vector's length; a matrix routine's order has a lower limit, and the QR
     * family's m x n one of its own. */
    for (int r = 0; r < settings->routine_count; r++) {
        const enum tb_routine routine = settings->routines[r];
        const int limit = tb_routine_is_vector(routine) ? MAX_VECTOR_SIZE : MAX_SIZE;
        for (int i = 0; i < settings->size_count; i++) {
            const int n = settings->sizes[i];
            if (n > limit) {
                fprintf(stderr, "tela-bench: --sizes: %d is above %s's largest n, %d\n", n,
                        tb_routine_names[routine], limit);
                return -1;
            }
            const long m = tb_routine_rows(routine, n, settings->tsqr_rows);
            if (tb_routine_is_qr(routine) && m * n > MAX_QR_ELEMENTS) {
                fprintf(stderr,
                        "tela-bench: --sizes: %s at n = %d has A of %ld x %d, above %ld "
                        "elements\n",
                        tb_routine_names[routine], n, m, n, MAX_QR_ELEMENTS);
                return -1;
            }
        }
        /* tsqr's A must stay tall (m >= n, as the checks assume) at every size it runs. */
        const int *sizes = settings->size_count ? settings->sizes : tsqr_sizes;
        const int count = settings->size_count ? settings->size_count
                                               : (int)(sizeof tsqr_sizes / sizeof tsqr_sizes[0]);
        for (int i = 0; i < count && routine == TB_TSQR; i++) {
            const long m = settings->tsqr_rows, n = sizes[i];
            if (m < n || m * n > MAX_QR_ELEMENTS) {
                fprintf(stderr,
                        "tela-bench: tsqr at n = %ld needs --tsqr-rows from n to %ld, not %ld\n", n,
                        MAX_QR_ELEMENTS / n, m);
                return -1;
            }
        }
    }
    for (int i = 0; i < settings->size_count && settings->eig_phases; i++) {
        if (settings->sizes[i] > MAX_SIZE) {
            fprintf(stderr, "tela-bench: --sizes: %d is above --eig-phases's largest n, %d\n",
                    settings->sizes[i], MAX_SIZE);
            return -1;
        }
    }
    if (!settings->rounds)
        settings->rounds = settings->quick ? QUICK_ROUNDS : DEFAULT_ROUNDS;
    settings->show_progress = isatty(STDERR_FILENO);
    return 0;
}

/* The variants of a routine the settings ask for: gemm's transpose pairs, gemv's transposes,
 * the triangles of potrf, potrs and posv, gels's right-hand sides. */
static int variant_count(const struct settings *settings, enum tb_routine routine)
{
    return routine == TB_GEMM             ? settings->trans_count
           : routine == TB_GEMV           ? settings->gemv_trans_count
           : tb_routine_has_uplo(routine) ? settings->uplo_count
           : tb_routine_is_gels(routine)  ? settings->gels_nrhs_count
                                          : 1;
}

/* One of the default size lists above. */
struct size_set {
    const int *sizes;
    int count;
};
#define SIZE_SET(array) ((struct size_set){(array), (int)(sizeof(array) / sizeof((array)[0]))})

/* The sizes a group of routine runs when --sizes gives none. */
static struct size_set default_size_set(const struct settings *settings, enum tb_routine routine)
{
    const int quick = settings->quick;
    if (tb_routine_is_vector(routine))
        return quick ? SIZE_SET(quick_vector_sizes) : SIZE_SET(vector_sizes);
    if (tb_routine_is_memory_bound(routine))
        return quick ? SIZE_SET(quick_level2_sizes) : SIZE_SET(level2_sizes);
    switch (routine) {
    case TB_GEQRF4:
    case TB_GELS4:
        return SIZE_SET(qr_tall4_sizes);
    case TB_GEQRF16:
        return SIZE_SET(qr_tall16_sizes);
    case TB_TSQR:
        return SIZE_SET(tsqr_sizes);
    case TB_ORGQR:
    case TB_ORMQR:
        return SIZE_SET(qr_q_sizes);
    default:
        if (tb_routine_is_qr(routine))
            return SIZE_SET(qr_sizes);
        if (tb_routine_is_eig(routine))
            return SIZE_SET(eig_sizes);
        break;
    }
    if (tb_routine_is_lapack(routine))
        return quick ? SIZE_SET(quick_lapack_sizes) : SIZE_SET(lapack_sizes);
    if (quick && routine != TB_GEMM)
        return SIZE_SET(quick_sizes);
    return SIZE_SET(default_sizes);
}

/* The groups in the order they run: routine, then variant (gemm transpose pair, triangle or
 * gels's nrhs), then thread count. */
static int make_groups(struct bench *bench)
{
    const struct settings *settings = &bench->settings;
    int count = 0;
    for (int r = 0; r < settings->routine_count; r++)
        count += variant_count(settings, settings->routines[r]) * settings->thread_count;
    if (count == 0) /* --eig-phases alone */
        return 0;
    bench->groups = count > 0 ? calloc((size_t)count, sizeof *bench->groups) : NULL;
    if (!bench->groups)
        return -1;
    for (int r = 0; r < settings->routine_count; r++) {
        enum tb_routine routine = settings->routines[r];
        const int variants = variant_count(settings, routine);
        for (int t = 0; t < variants; t++) {
            for (int k = 0; k < settings->thread_count; k++) {
                struct group *g = &bench->groups[bench->group_count++];
                g->routine = routine;
                g->transa = routine == TB_GEMM   ? settings->trans[t][0]
                            : routine == TB_GEMV ? settings->gemv_trans[t]
                                                 : 'N';
                g->transb = routine == TB_GEMM ? settings->trans[t][1] : 'N';
                g->uplo = tb_routine_has_uplo(routine) ? settings->uplo[t] : 'L';
                g->nrhs = tb_routine_is_gels(routine) ? settings->gels_nrhs[t] : 0;
                g->threads = settings->threads[k];
                struct size_set set = {settings->sizes, settings->size_count};
                if (!set.count)
                    set = default_size_set(settings, routine);
                memcpy(g->sizes, set.sizes, (size_t)set.count * sizeof *set.sizes);
                g->size_count = set.count;
            }
        }
    }
    return 0;
}

/* Runs one group: tela's policy and OpenBLAS's thread count, warm-up, every size. */
static int run_group(struct bench *bench, struct group *g)
{
    struct tb_held_team held;
    g->tela_width = 1;
    if (tb_held_team_open(PROGRAM, g->threads, &held) != 0)
        return -1;
    if (held.team)
        g->tela_width = tela_team_width(held.team);
    struct sides sides = {held.par, &bench->openblas};
    bench->openblas.set_num_threads(g->threads);
    g->openblas_threads = bench->openblas.get_num_threads();

    struct tb_usage begin = tb_usage_now();
    int status = warm_up(bench, g, &sides);
    for (int i = 0; i < g->size_count && status == 0; i++) {
        status = measure_size(bench, g, i, &sides);
        if (status == 0)
            g->done = i + 1;
    }
    tb_usage_between(begin, tb_usage_now(), (int)sysconf(_SC_NPROCESSORS_ONLN), &g->other_load,
                     &g->steal);
    clear_progress(bench);
    tb_held_team_close(&held);
    return status;
}

/* --eig-phases: syevd's three phases (tela_bench_eig.h) at each thread count and size, both
 * sides in the same interleaved rounds, each side's round after the other threads settled; one
 * run of each phase per round (a phase of a 512 call lasts milliseconds, far above the clock's
 * resolution). The first run of each side is untimed and checked. One table; returns 0, -1 on
 * an error, 1 when a check fails. */
static int run_eig_phases(struct bench *bench)
{
    const struct settings *settings = &bench->settings;
    const int *sizes = settings->size_count ? settings->sizes : eig_phase_sizes;
    const int size_count = settings->size_count
                               ? settings->size_count
                               : (int)(sizeof eig_phase_sizes / sizeof eig_phase_sizes[0]);
    const int rounds = settings->rounds;
    /* Per side and round: the three phases' seconds and their sum. */
    enum { COLUMNS = TB_EIG_PHASE_COUNT + 1 };
    double *seconds = malloc((size_t)rounds * TB_SIDE_COUNT * COLUMNS * sizeof *seconds);
    if (!seconds)
        return -1;
    printf("\nsyevd's phases (jobz V, uplo L), cut where LAPACK's dsyevd cuts them: dsytrd "
           "(A = Q T Q^T),\n  dstedc (compz I: the vectors of T), dormtr (side L, trans N: Q "
           "times them); each side's phases\n  chained on its own results, the input copied "
           "in untimed; seconds per call, median over %d\n  rounds (sum: the median of the "
           "rounds' sums); tela/OpenBLAS: OpenBLAS's seconds over tela's;\n  check (first, "
           "untimed run): tela's residual, the larger of ||A Z - Z diag(w)|| / (n ||A|| eps)\n"
           "  and ||I - Z^T Z|| / (n eps), and max |w - w_OpenBLAS| / (n eps ||A||)\n",
           rounds);
    printf("%7s | %6s | %-13s | %10s | %10s | %10s | %10s | %s\n", "threads", "n", "side",
           tb_eig_phase_names[TB_EIG_SYTRD], tb_eig_phase_names[TB_EIG_STEDC],
           tb_eig_phase_names[TB_EIG_ORMTR], "sum", "check");
    int status = 0, failed = 0;
    for (int k = 0; k < settings->thread_count && status == 0; k++) {
        const int threads = settings->threads[k];
        struct tb_held_team held;
        if (tb_held_team_open(PROGRAM, threads, &held) != 0) {
            status = -1;
            break;
        }
        struct sides sides = {held.par, &bench->openblas};
        bench->openblas.set_num_threads(threads);
        struct tb_usage begin = tb_usage_now();
        for (int i = 0; i < size_count && status == 0; i++) {
            const int n = sizes[i];
            struct tb_eig_phases *phases = tb_eig_phases_create(n, &bench->openblas);
            if (!phases) {
                status = -1;
                break;
            }
            if (settings->show_progress)
                fprintf(stderr, "\r  eig phases %dT n=%d %-24s", threads, n, "check");
            int64_t ns[TB_EIG_PHASE_COUNT];
            for (int side = 0; side < TB_SIDE_COUNT && status == 0; side++) {
                const int info =
                    tb_eig_phases_run(phases, (enum tb_side)side, sides.par, &bench->openblas, ns);
                if (info != 0) {
                    fprintf(stderr, "\ntela-bench: %s's syevd phases returned %d at n=%d\n",
                            tb_side_labels[side], info, n);
                    status = -1;
                }
            }
            double residual = NAN, agreement = NAN;
            if (status == 0 &&
                tb_eig_phases_check(phases, &bench->openblas, &residual, &agreement) != 0)
                status = -1;
            for (int round = 0; round < rounds && status == 0; round++) {
                if (settings->show_progress)
                    fprintf(stderr, "\r  eig phases %dT n=%d round %d/%d%-12s", threads, n,
                            round + 1, rounds, "");
                for (int j = 0; j < TB_SIDE_COUNT && status == 0; j++) {
                    const int side = round % 2 ? TB_SIDE_COUNT - 1 - j : j;
                    if (tb_settle(settings->settle_max_ms) != 0)
                        bench->settle_timeouts++;
                    if (tb_eig_phases_run(phases, (enum tb_side)side, sides.par, &bench->openblas,
                                          ns) != 0) {
                        status = -1;
                        break;
                    }
                    double *row =
                        seconds + ((size_t)side * (size_t)rounds + (size_t)round) * COLUMNS;
                    row[TB_EIG_PHASE_COUNT] = 0.0;
                    for (int phase = 0; phase < TB_EIG_PHASE_COUNT; phase++) {
                        row[phase] = (double)ns[phase] * 1e-9;
                        row[TB_EIG_PHASE_COUNT] += row[phase];
                    }
                }
            }
            tb_eig_phases_free(phases);
            clear_progress(bench);
            if (status != 0)
                break;
            double median[TB_SIDE_COUNT][COLUMNS];
            double *column = malloc((size_t)rounds * sizeof *column);
            if (!column) {
                status = -1;
                break;
            }
            for (int side = 0; side < TB_SIDE_COUNT; side++) {
                for (int c = 0; c < COLUMNS; c++) {
                    for (int round = 0; round < rounds; round++)
                        column[round] =
                            seconds[((size_t)side * (size_t)rounds + (size_t)round) * COLUMNS + c];
                    median[side][c] = median_of(column, rounds);
                }
            }
            free(column);
            const double bound = settings->tolerance * EIG_TOLERANCE_FACTOR;
            const int fails = !(residual <= bound) || !(agreement <= bound);
            failed |= fails;
            for (int side = 0; side < TB_SIDE_COUNT + 1; side++) {
                char cells[COLUMNS][24], check[96] = "";
                for (int c = 0; c < COLUMNS; c++) {
                    if (side < TB_SIDE_COUNT)
                        format_seconds(median[side][c], cells[c], sizeof cells[c]);
                    else
                        snprintf(cells[c], sizeof cells[c], "%.2f",
                                 median[TB_OPENBLAS][c] / median[TB_TELA][c]);
                }
                if (side == TB_TELA) {
                    char r[32], a[32];
                    snprintf(check, sizeof check, "%s, agree %s%s",
                             format_check_value(residual, r, sizeof r),
                             format_check_value(agreement, a, sizeof a),
                             !fails                 ? ""
                             : !(residual <= bound) ? "  RESIDUAL TOO LARGE"
                                                    : "  DISAGREE");
                }
                printf("%7d | %6d | %-13s | %10s | %10s | %10s | %10s%s%s\n", threads, n,
                       side < TB_SIDE_COUNT ? tb_side_labels[side] : "tela/OpenBLAS",
                       cells[TB_EIG_SYTRD], cells[TB_EIG_STEDC], cells[TB_EIG_ORMTR],
                       cells[TB_EIG_PHASE_COUNT], *check ? " | " : "", check);
            }
            fflush(stdout);
        }
        double other = 0.0, steal = 0.0;
        tb_usage_between(begin, tb_usage_now(), (int)sysconf(_SC_NPROCESSORS_ONLN), &other, &steal);
        printf("  %d thread%s (tela: %s): meanwhile other processes used %.0f%% of the CPUs, "
               "steal time %.0f%%%s\n",
               threads, threads == 1 ? "" : "s", threads == 1 ? "tela_par_seq()" : "a held team",
               100.0 * other, 100.0 * steal,
               other + steal > BUSY_MACHINE_FRACTION ? ": NOT A QUIET MACHINE, times are "
                                                       "unreliable"
                                                     : "");
        tb_held_team_close(&held);
    }
    free(seconds);
    if (status == 0 && failed) {
        fprintf(stderr, "tela-bench: --eig-phases: a check failed\n");
        return 1;
    }
    return status;
}

/* The check value the run's summary reports for size index of g: the difference, or with the
 * QR and eigen families' agreement the larger (syevdn: the agreement alone); NaN if either is. */
static double check_value(const struct group *g, int index)
{
    const struct tb_check *c = &g->check[index];
    if (tb_routine_is_eig(g->routine) && !tb_eig_has_vectors(g->routine))
        return c->agreement;
    if (tb_routine_is_qr(g->routine) || tb_routine_is_eig(g->routine))
        return isnan(c->difference) || isnan(c->agreement) ? NAN
                                                           : fmax(c->difference, c->agreement);
    return c->difference;
}

int main(int argc, char **argv)
{
    static struct bench bench;
    int parsed = parse_arguments(argc, argv, &bench.settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    const struct settings *settings = &bench.settings;
    tb_set_operand_offset(settings->offset);

    /* First, while the process has no thread but this one: OpenBLAS starts its workers when it is
     * loaded, and one still spinning on the other CPU halved the two-thread peak (one demo run
     * measured 88.6 GFLOP/s "on 2 threads", so its tables showed 120% of peak). */
    if (find_peaks(&bench) != 0) {
        fprintf(stderr, "tela-bench: could not start the threads of the FMA peak probe\n");
        return 1;
    }
    for (int i = 0; i < settings->routine_count; i++)
        bench.has_memory_bound |= tb_routine_is_memory_bound(settings->routines[i]);
    if (find_bandwidths(&bench) != 0) {
        fprintf(stderr,
                "tela-bench: the memory bandwidth probe could not allocate %d MiB or "
                "start its threads\n",
                settings->bandwidth_mib);
        return 1;
    }

    char why[2048];
    int loaded =
        tb_openblas_load(&bench.openblas, settings->openblas, settings->coretype, why, sizeof why);
    if (loaded == TB_OPENBLAS_NOT_FOUND) {
        fprintf(stderr,
                "tela-bench: cannot load OpenBLAS, nothing to compare with: %s\n"
                "  install it (Debian/Ubuntu: apt-get install libopenblas0-pthread) or name it "
                "with --openblas PATH\n",
                why);
        return EXIT_SKIPPED;
    }
    if (loaded != 0) {
        fprintf(stderr, "tela-bench: %s\n", why);
        return 1;
    }
    if (make_groups(&bench) != 0) {
        fprintf(stderr, "tela-bench: out of memory\n");
        return 1;
    }
    print_header(&bench);
    if (print_provenance(&bench) != 0)
        return 1;
    for (int i = 0; i < settings->thread_count; i++) {
        if (settings->threads[i] > tb_cpus_available())
            fprintf(stderr,
                    "tela-bench: WARNING: %d threads on %d CPUs: both sides are "
                    "oversubscribed\n",
                    settings->threads[i], tb_cpus_available());
    }

    const int64_t start = tb_now_ns();
    int status = 0;
    for (int k = 0; k < bench.group_count && status == 0; k++) {
        struct group *g = &bench.groups[k];
        status = run_group(&bench, g);
        if (g->done)
            print_table(&bench, g);
        if (g->threads > 1 && g->tela_width != g->threads)
            fprintf(stderr, "tela-bench: WARNING: tela's team has width %d, not %d\n",
                    g->tela_width, g->threads);
        if (g->openblas_threads != g->threads)
            fprintf(stderr, "tela-bench: WARNING: OpenBLAS runs %d threads, not %d\n",
                    g->openblas_threads, g->threads);
    }
    if (status != 0 && !bench.failed)
        fprintf(stderr, "tela-bench: a measurement failed (out of memory or a call error)\n");

    /* Agreement over every size measured. */
    int checked = 0, disagreements = 0;
    double largest = 0.0;
    char largest_at[64] = "";
    for (int k = 0; k < bench.group_count; k++) {
        const struct group *g = &bench.groups[k];
        for (int i = 0; i < g->done; i++) {
            const double d = check_value(g, i);
            checked++;
            if (check_fails(g, i, settings->tolerance))
                disagreements++;
            if (!isnan(largest) && (isnan(d) || d > largest || !largest_at[0])) {
                char label[32];
                largest = d;
                snprintf(largest_at, sizeof largest_at, "%s, %dT, n=%d",
                         group_label(g, label, sizeof label), g->threads, g->sizes[i]);
            }
        }
    }
    int has_eig = 0;
    for (int k = 0; k < bench.group_count; k++)
        has_eig |= tb_routine_is_eig(bench.groups[k].routine);
    char eig_bound[64] = "";
    if (has_eig)
        snprintf(eig_bound, sizeof eig_bound, " (eigen family: %g)",
                 settings->tolerance * EIG_TOLERANCE_FACTOR);
    if (bench.group_count)
        printf("\nagreement: %d of %d checked sizes within %g%s; largest diff/residual %.3f (%s)\n",
               checked - disagreements, checked, settings->tolerance, eig_bound, largest,
               largest_at);
    int phases_failed = 0;
    if (status == 0 && settings->eig_phases) {
        status = run_eig_phases(&bench);
        phases_failed = status > 0;
        status = status > 0 ? 0 : status;
    }
    /* The memory-bound routines' figures may well pass the memory's read bandwidth: their
     * small sizes run in caches, and a routine that writes adds its writes. */
    int above_peak = 0;
    for (int k = 0; k < bench.group_count; k++) {
        const struct group *g = &bench.groups[k];
        for (int i = 0; i < g->done && !tb_routine_is_memory_bound(g->routine); i++) {
            for (int side = 0; side < TB_SIDE_COUNT; side++)
                above_peak += g->result[i][side].median > peak_gflops(&bench, g->threads);
        }
    }
    if (above_peak)
        printf("note: %d median(s) above the %s peak: %s\n", above_peak,
               settings->peak_gflops > 0.0 ? "given" : "measured",
               settings->peak_gflops > 0.0 ? "--peak-gflops is too low"
                                           : "other processes slowed the probe, so the "
                                             "percentages are too high");
    if (bench.settle_timeouts)
        printf("note: %ld rounds started after %d ms with other threads still busy\n",
               bench.settle_timeouts, settings->settle_max_ms);
    printf("time: %.1f s\n", (double)(tb_now_ns() - start) * 1e-9);

    if (settings->csv_path) {
        if (write_csv(&bench, settings->csv_path) != 0) {
            fprintf(stderr, "tela-bench: cannot write %s: %s\n", settings->csv_path,
                    strerror(errno));
            status = -1;
        } else {
            printf("CSV written to %s\n", settings->csv_path);
        }
    }
    if (settings->plot_path) {
        char subtitle[256];
        snprintf(subtitle, sizeof subtitle,
                 "tela %s vs OpenBLAS (%s kernels); median over %d rounds, bars min-max",
                 tela_version(), bench.openblas.get_corename(), settings->rounds);
        if (write_plot(&bench, settings->plot_path, subtitle) != 0) {
            fprintf(stderr, "tela-bench: cannot write %s: %s\n", settings->plot_path,
                    strerror(errno));
            status = -1;
        } else {
            printf("plot written to %s\n", settings->plot_path);
        }
    }
    free(bench.groups);
    if (phases_failed)
        return 1;
    if (disagreements) {
        fprintf(stderr,
                "tela-bench: %d size(s) where tela and OpenBLAS disagree or a residual is too "
                "large\n",
                disagreements);
        return 1;
    }
    return status == 0 ? 0 : 1;
}
