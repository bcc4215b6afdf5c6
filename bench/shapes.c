/* shapes.c — tela-shapes: tela_dgemm against OpenBLAS's cblas_dgemm on rectangular products
 * (C m x n += op(A) op(B), k deep): narrow B (n of 16-256 beside m = k = 2000), few rows of C,
 * long k, in interleaved rounds in one process, where square benchmarks say nothing about the
 * packing a thin operand makes costly. OpenBLAS is loaded as tela-bench loads it (a namespace of
 * its own, its best kernels for the CPU); results are checked against each other first. */
#include "peak.h"
#include "tela.h"
#include "tela_bench_common.h"
#include "tela_bench_inputs.h"
#include "tela_bench_openblas.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRAM "tela-shapes"
/* Exit status when OpenBLAS cannot be loaded: ctest's SKIP_RETURN_CODE. */
#define EXIT_SKIPPED          77
#define MAX_SHAPES            32
#define MAX_THREAD_COUNTS     8
#define MAX_DIMENSION         100000
#define MAX_ELEMENTS          (64L << 20) /* doubles of one operand: 512 MiB */
#define DEFAULT_ROUNDS        7
#define BATCH_NS              5000000LL /* a timed batch lasts at least this long */
#define DEFAULT_SETTLE_MAX_MS 1000      /* OpenBLAS's workers spin ~0.13 s after a call */
/* max |C_tela - C_openblas| over k eps max|A| max|B|: two correct blockings differ by ~0.1. */
#define TOLERANCE 10.0

static const char default_shapes[] =
    "2000x16x2000,2000x32x2000,2000x64x2000,2000x128x2000,2000x256x2000,16x2000x2000,"
    "64x2000x2000,192x2000x2000,100x10000x100,10000x100x100,128x128x4000,2000x2000x64,"
    "1024x1024x1024";

struct shape {
    int m, n, k;
};

struct settings {
    struct shape shapes[MAX_SHAPES];
    int shape_count;
    int threads[MAX_THREAD_COUNTS], thread_count;
    char trans[TB_MAX_TRANS][2];
    int trans_count;
    int rounds;
    const char *openblas, *coretype;
};

struct operands {
    double *a, *b, *c0, *c[2]; /* c[side]: each side's C, chained over its calls */
    int lda, ldb;
    double max_a, max_b;
};

static void free_operands(struct operands *o)
{
    free(o->a);
    free(o->b);
    free(o->c0);
    free(o->c[0]);
    free(o->c[1]);
    memset(o, 0, sizeof *o);
}

/* op(A) m x k and op(B) k x n as stored (transposed where trans says), C m x n: tela-bench's
 * generator and allocator (tela_bench_inputs.h), a seed per shape. */
static int make_operands(struct shape s, const char trans[2], struct operands *o)
{
    memset(o, 0, sizeof *o);
    uint64_t state =
        0x9E3779B97F4A7C15ULL ^ (uint64_t)s.m << 40 ^ (uint64_t)s.n << 20 ^ (uint64_t)s.k;
    const int a_rows = trans[0] == 'N' ? s.m : s.k, a_cols = trans[0] == 'N' ? s.k : s.m;
    const int b_rows = trans[1] == 'N' ? s.k : s.n, b_cols = trans[1] == 'N' ? s.n : s.k;
    o->lda = a_rows;
    o->ldb = b_rows;
    o->a = tb_alloc_doubles(a_rows, a_cols);
    o->b = tb_alloc_doubles(b_rows, b_cols);
    o->c0 = tb_alloc_doubles(s.m, s.n);
    o->c[0] = tb_alloc_doubles(s.m, s.n);
    o->c[1] = tb_alloc_doubles(s.m, s.n);
    if (!o->a || !o->b || !o->c0 || !o->c[0] || !o->c[1]) {
        free_operands(o);
        return -1;
    }
    tb_fill_uniform(o->a, (size_t)a_rows * (size_t)a_cols, &state);
    tb_fill_uniform(o->b, (size_t)b_rows * (size_t)b_cols, &state);
    tb_fill_uniform(o->c0, (size_t)s.m * (size_t)s.n, &state);
    o->max_a = tb_max_abs_rect(o->a, a_rows, a_cols, a_rows);
    o->max_b = tb_max_abs_rect(o->b, b_rows, b_cols, b_rows);
    return 0;
}

/* One call of side (0 tela, 1 OpenBLAS) on its own C. */
static void call_side(int side, struct shape s, const char trans[2], struct operands *o,
                      tela_par par, const struct tb_openblas *ob)
{
    if (side == 0) {
        tela_dgemm(par, trans[0], trans[1], s.m, s.n, s.k, 1.0, o->a, o->lda, o->b, o->ldb, 1.0,
                   o->c[0], s.m);
        return;
    }
    const int ta = trans[0] == 'N' ? TB_CBLAS_NO_TRANS : TB_CBLAS_TRANS;
    const int tb = trans[1] == 'N' ? TB_CBLAS_NO_TRANS : TB_CBLAS_TRANS;
    ob->dgemm(TB_CBLAS_COL_MAJOR, ta, tb, s.m, s.n, s.k, 1.0, o->a, o->lda, o->b, o->ldb, 1.0,
              o->c[1], s.m);
}

/* Both sides once from the same C; their difference in units of k eps max|A| max|B|. */
static double disagreement(struct shape s, const char trans[2], struct operands *o, tela_par par,
                           const struct tb_openblas *ob)
{
    const size_t mn = (size_t)s.m * (size_t)s.n;
    for (int side = 0; side < 2; side++) {
        memcpy(o->c[side], o->c0, mn * sizeof(double));
        call_side(side, s, trans, o, par, ob);
    }
    double diff = 0.0;
    for (size_t i = 0; i < mn; i++) {
        const double d = fabs(o->c[0][i] - o->c[1][i]);
        if (isnan(d))
            return NAN;
        diff = fmax(diff, d);
    }
    return diff / ((double)s.k * DBL_EPSILON * o->max_a * o->max_b);
}

/* Calls of side in one timed batch: enough for BATCH_NS, from one call's time. */
static long batch_calls(int side, struct shape s, const char trans[2], struct operands *o,
                        tela_par par, const struct tb_openblas *ob)
{
    const int64_t begin = tb_clock_ns(CLOCK_MONOTONIC);
    call_side(side, s, trans, o, par, ob);
    const int64_t once = tb_clock_ns(CLOCK_MONOTONIC) - begin;
    return once >= BATCH_NS ? 1 : (long)(BATCH_NS / (once > 0 ? once : 1)) + 1;
}

static void run_shape(const struct settings *st, struct shape s, const char trans[2],
                      struct tb_held_team *held, const struct tb_openblas *ob, double peak,
                      int *failed)
{
    struct operands o;
    if (make_operands(s, trans, &o) != 0) {
        printf("%6d %6d %6d | out of memory\n", s.m, s.n, s.k);
        *failed = 1;
        return;
    }
    const double diff = disagreement(s, trans, &o, held->par, ob);
    const double flops = 2.0 * s.m * (double)s.n * s.k;
    long calls[2];
    for (int side = 0; side < 2; side++)
        calls[side] = batch_calls(side, s, trans, &o, held->par, ob);
    double rates[2][64];
    for (int r = 0; r < st->rounds; r++) {
        for (int turn = 0; turn < 2; turn++) {
            const int side = (r + turn) % 2;
            tb_settle(DEFAULT_SETTLE_MAX_MS);
            call_side(side, s, trans, &o, held->par, ob); /* untimed: wakes the side's threads */
            const int64_t begin = tb_clock_ns(CLOCK_MONOTONIC);
            for (long q = 0; q < calls[side]; q++)
                call_side(side, s, trans, &o, held->par, ob);
            const double ns = (double)(tb_clock_ns(CLOCK_MONOTONIC) - begin);
            rates[side][r] = flops * (double)calls[side] / ns;
        }
    }
    struct tb_summary sum[2];
    char text[2][64];
    for (int side = 0; side < 2; side++) {
        sum[side] = tb_summarize(rates[side], st->rounds);
        tb_format_summary(sum[side], text[side], sizeof text[side]);
    }
    const int bad = !(diff <= TOLERANCE);
    printf("%6d %6d %6d | %-20s | %6.1f | %-20s | %6.1f | %13.2f | %.3f%s\n", s.m, s.n, s.k,
           text[0], 100.0 * sum[0].median / peak, text[1], 100.0 * sum[1].median / peak,
           sum[0].median / sum[1].median, diff, bad ? "  DISAGREE" : "");
    *failed |= bad;
    free_operands(&o);
}

static int parse_shapes(const char *text, struct settings *st)
{
    char items[MAX_SHAPES][32];
    const int count = tb_split_list(PROGRAM, "--shapes", text, items, MAX_SHAPES);
    if (count < 0)
        return -1;
    for (int i = 0; i < count; i++) {
        struct shape *s = &st->shapes[i];
        char tail;
        if (sscanf(items[i], "%dx%dx%d%c", &s->m, &s->n, &s->k, &tail) != 3 || s->m < 1 ||
            s->n < 1 || s->k < 1 || s->m > MAX_DIMENSION || s->n > MAX_DIMENSION ||
            s->k > MAX_DIMENSION || (long)s->m * s->k > MAX_ELEMENTS ||
            (long)s->k * s->n > MAX_ELEMENTS || (long)s->m * s->n > MAX_ELEMENTS) {
            fprintf(stderr,
                    "%s: --shapes: '%s' is not MxNxK with each of 1..%d, operands of "
                    "at most %ld doubles\n",
                    PROGRAM, items[i], MAX_DIMENSION, MAX_ELEMENTS);
            return -1;
        }
    }
    st->shape_count = count;
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to,
            "usage: %s [options]\n"
            "  --shapes LIST     products MxNxK: C m x n += op(A) op(B), k deep (default\n"
            "                    %s)\n"
            "  --trans LIST      NN,NT,TN,TT or all (default NN)\n"
            "  --threads LIST    thread counts (default 1,2)\n"
            "  --rounds N        interleaved rounds per shape (default %d, at most 64)\n"
            "  --openblas PATH   the OpenBLAS to load (default: the pthreads build, found)\n"
            "  --openblas-coretype NAME\n"
            "                    OpenBLAS's kernel set; auto: its own choice (default: the best\n"
            "                    set the CPU and the build share, as tela-bench)\n"
            "GFLOP/s are medians (min-max) of the rounds; %% peak of the FMA peak measured at\n"
            "that thread count; diff = max |C_tela - C_OpenBLAS| / (k eps max|A| max|B|), at\n"
            "most %g. Exit status: 0 ok, 1 error or disagreement, 2 bad arguments, 77 no "
            "OpenBLAS\n",
            PROGRAM, default_shapes, DEFAULT_ROUNDS, TOLERANCE);
}

static int parse_arguments(int argc, char **argv, struct settings *st)
{
    memset(st, 0, sizeof *st);
    st->rounds = DEFAULT_ROUNDS;
    st->threads[0] = 1;
    st->threads[1] = 2;
    st->thread_count = 2;
    st->trans[0][0] = st->trans[0][1] = 'N';
    st->trans_count = 1;
    if (parse_shapes(default_shapes, st) != 0)
        return -1;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        if (!strcmp(option, "--help")) {
            usage(stdout);
            exit(0);
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value (--help)\n", PROGRAM, option);
            return -1;
        }
        const char *value = argv[++i];
        int status;
        if (!strcmp(option, "--shapes"))
            status = parse_shapes(value, st);
        else if (!strcmp(option, "--trans"))
            status = tb_parse_trans(PROGRAM, value, st->trans, &st->trans_count);
        else if (!strcmp(option, "--threads"))
            status = tb_parse_int_list(PROGRAM, option, value, 1, 256, st->threads,
                                       MAX_THREAD_COUNTS, &st->thread_count);
        else if (!strcmp(option, "--rounds"))
            status = tb_parse_int(PROGRAM, option, value, 1, 64, &st->rounds);
        else if (!strcmp(option, "--openblas"))
            st->openblas = value, status = 0;
        else if (!strcmp(option, "--openblas-coretype"))
            st->coretype = value, status = 0;
        else {
            fprintf(stderr, "%s: unknown option %s (--help)\n", PROGRAM, option);
            status = -1;
        }
        if (status != 0)
            return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct settings st;
    if (parse_arguments(argc, argv, &st) != 0)
        return 2;
    struct fma_peak per_core, peaks[MAX_THREAD_COUNTS];
    if (tb_measure_peaks(st.threads, st.thread_count, DEFAULT_SETTLE_MAX_MS, &per_core, peaks) !=
        0) {
        fprintf(stderr, "%s: the peak probe could not start its threads\n", PROGRAM);
        return 1;
    }
    struct tb_openblas ob;
    char why[512];
    const int loaded = tb_openblas_load(&ob, st.openblas, st.coretype, why, sizeof why);
    if (loaded != 0) {
        fprintf(stderr, "%s: %s\n", PROGRAM, why);
        return loaded == TB_OPENBLAS_NOT_FOUND ? EXIT_SKIPPED : 1;
    }
    char origin[256], version[64];
    printf("%s: tela %s against OpenBLAS %s (%s), core %s (%s)\n", PROGRAM, tela_version(),
           tb_openblas_version(&ob, version, sizeof version), ob.path, ob.get_corename(),
           tb_openblas_core_origin(&ob, origin, sizeof origin));
    int failed = 0;
    for (int t = 0; t < st.thread_count; t++) {
        struct tb_held_team held;
        if (tb_held_team_open(PROGRAM, st.threads[t], &held) != 0)
            return 1;
        ob.set_num_threads(st.threads[t]);
        for (int p = 0; p < st.trans_count; p++) {
            printf("\ngemm %c%c, %d thread%s: GFLOP/s, median (min-max) over %d rounds; %% peak "
                   "of the measured FMA peak, %.1f\n",
                   st.trans[p][0], st.trans[p][1], st.threads[t], st.threads[t] > 1 ? "s" : "",
                   st.rounds, peaks[t].gflops);
            printf("     m      n      k | %-20s | %% peak | %-20s | %% peak | tela/OpenBLAS | "
                   "diff\n",
                   "tela", "OpenBLAS");
            for (int i = 0; i < st.shape_count; i++)
                run_shape(&st, st.shapes[i], st.trans[p], &held, &ob, peaks[t].gflops, &failed);
        }
        tb_held_team_close(&held);
    }
    return failed ? 1 : 0;
}
