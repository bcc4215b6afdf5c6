/* scaling.c — tela-scaling: dgemm on two threads against one thread on each CPU, in interleaved
 * rounds in one process. "Twice one thread" assumes two equal CPUs; a VM's vCPUs are not always
 * equal (docs/gemm.md: one ran 7-9% slower for minutes), so one thread is timed pinned to each
 * CPU in turn and two threads are also given as a share of the sum of those two rates. The
 * two-thread result must equal the one-thread results bit for bit, as tela promises. */
#include "peak.h"
#include "tela.h"
#include "tela_bench_common.h"
#include "tela_bench_inputs.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROGRAM        "tela-scaling"
#define EXIT_SKIPPED   77
#define MAX_SIZES      16
#define MAX_ROUNDS     101
#define DEFAULT_ROUNDS 7
#define BATCH_NS       5000000LL /* a timed batch lasts at least this long */
#define SIDES          3         /* one thread on the first CPU, on the second, two threads */
#define SETTLE_MAX_MS  1000      /* the team's worker spins a few ms after a region */

struct settings {
    int sizes[MAX_SIZES], size_count;
    int rounds;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " PROGRAM " [--sizes LIST] [--rounds N]\n"
            "  dgemm NN of order n, one thread pinned to each of the first two CPUs of the\n"
            "  process's mask and two threads (a held team), in interleaved rounds.\n"
            "  --sizes LIST   orders (default 512,1024,2048)\n"
            "  --rounds N     rounds per size, each side's median reported (default %d)\n",
            DEFAULT_ROUNDS);
}

static int parse(int argc, char **argv, struct settings *s)
{
    const char *sizes = "512,1024,2048";
    s->rounds = DEFAULT_ROUNDS;
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(argv[i], "--sizes") && value) {
            sizes = value;
            i++;
        } else if (!strcmp(argv[i], "--rounds") && value) {
            if (tb_parse_int(PROGRAM, "--rounds", value, 1, MAX_ROUNDS, &s->rounds) != 0)
                return -1;
            i++;
        } else {
            usage(stderr);
            return -1;
        }
    }
    return tb_parse_int_list(PROGRAM, "--sizes", sizes, 1, 8192, s->sizes, MAX_SIZES,
                             &s->size_count);
}

/* The calling thread on one CPU (cpu >= 0) or on all of mask (cpu < 0). */
static int pin(const cpu_set_t *mask, int cpu)
{
    cpu_set_t one;
    if (cpu >= 0) {
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
    }
    return pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), cpu >= 0 ? &one : mask);
}

/* Seconds a call over a batch of at least BATCH_NS, after one untimed call; C is recomputed
 * from the same inputs each call (beta = 0). */
static double time_calls(tela_par par, int n, const double *a, const double *b, double *c)
{
    tela_dgemm(par, 'N', 'N', n, n, n, 1.0, a, n, b, n, 0.0, c, n);
    const int64_t begin = tb_clock_ns(CLOCK_MONOTONIC);
    int64_t now = begin;
    long calls = 0;
    while (now - begin < BATCH_NS) {
        tela_dgemm(par, 'N', 'N', n, n, n, 1.0, a, n, b, n, 0.0, c, n);
        calls++;
        now = tb_clock_ns(CLOCK_MONOTONIC);
    }
    return 1e-9 * (double)(now - begin) / (double)calls;
}

int main(int argc, char **argv)
{
    struct settings s;
    if (parse(argc, argv, &s) != 0)
        return 2;
    cpu_set_t mask;
    int cpus[2], cpu_count = 0;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0)
        CPU_ZERO(&mask);
    for (int c = 0; c < CPU_SETSIZE && cpu_count < 2; c++)
        if (CPU_ISSET(c, &mask))
            cpus[cpu_count++] = c;
    if (cpu_count < 2) {
        printf(PROGRAM ": SKIPPED (fewer than two CPUs in this process's mask)\n");
        return EXIT_SKIPPED;
    }
    struct tb_held_team held;
    if (tb_held_team_open(PROGRAM, 2, &held) != 0)
        return 1;
    struct fma_peak peak[2];
    for (int i = 0; i < 2; i++) {
        if (pin(&mask, cpus[i]) != 0 || fma_peak_measure(1, &peak[i]) != 0) {
            fprintf(stderr, PROGRAM ": could not measure the FMA peak on CPU %d\n", cpus[i]);
            return 1;
        }
    }
    pin(&mask, -1);
    printf(PROGRAM ": dgemm NN, one thread pinned to CPU %d and to CPU %d, two threads (a held "
                   "team of width %d), %d interleaved rounds, medians\n",
           cpus[0], cpus[1], tela_team_width(held.team), s.rounds);
    printf("  measured FMA peak, one thread: %.1f GFLOP/s on CPU %d, %.1f on CPU %d (%s)\n",
           peak[0].gflops, cpus[0], peak[1].gflops, cpus[1], peak[0].loop);
    char on_cpu[2][32];
    for (int i = 0; i < 2; i++)
        snprintf(on_cpu[i], sizeof on_cpu[i], "1 thread, CPU %d", cpus[i]);
    printf("\n%6s | %-19s | %-19s | %-19s | %8s | %8s\n", "n", on_cpu[0], on_cpu[1], "2 threads",
           "2T / 1T", "2T / sum");
    int status = 0, settle_timeouts = 0;
    for (int z = 0; z < s.size_count; z++) {
        const int n = s.sizes[z];
        uint64_t seed = 20261207u + (uint64_t)n;
        double *a = tb_alloc_doubles(n, n), *b = tb_alloc_doubles(n, n);
        double *c[SIDES] = {tb_alloc_doubles(n, n), tb_alloc_doubles(n, n), tb_alloc_doubles(n, n)};
        if (!a || !b || !c[0] || !c[1] || !c[2]) {
            fprintf(stderr, PROGRAM ": out of memory at n = %d\n", n);
            return 1;
        }
        tb_fill_uniform(a, (size_t)n * n, &seed);
        tb_fill_uniform(b, (size_t)n * n, &seed);
        double rate[SIDES][MAX_ROUNDS];
        const double flops = 2.0 * n * (double)n * n;
        for (int r = 0; r < s.rounds; r++) {
            for (int q = 0; q < SIDES; q++) {
                const int side = (q + r) % SIDES; /* the first side rotates */
                /* After the two-thread side its worker spins a while: a pinned side started
                 * at once shared its CPU with it (rounds at a third of the rate). */
                if (tb_settle(SETTLE_MAX_MS) != 0)
                    settle_timeouts++;
                pin(&mask, side < 2 ? cpus[side] : -1);
                const tela_par par = side < 2 ? tela_par_seq() : held.par;
                rate[side][r] = 1e-9 * flops / time_calls(par, n, a, b, c[side]);
            }
        }
        pin(&mask, -1);
        struct tb_summary sum[SIDES];
        char text[SIDES][64];
        for (int side = 0; side < SIDES; side++) {
            sum[side] = tb_summarize(rate[side], s.rounds);
            tb_format_summary(sum[side], text[side], sizeof text[side]);
        }
        const double best = sum[0].median > sum[1].median ? sum[0].median : sum[1].median;
        printf("%6d | %-19s | %-19s | %-19s | %8.2f | %8.2f\n", n, text[0], text[1], text[2],
               sum[2].median / best, sum[2].median / (sum[0].median + sum[1].median));
        const size_t bytes = (size_t)n * n * sizeof(double);
        if (memcmp(c[0], c[2], bytes) != 0 || memcmp(c[1], c[2], bytes) != 0) {
            fprintf(stderr, PROGRAM ": n = %d: two threads not bitwise equal to one\n", n);
            status = 1;
        }
        free(a);
        free(b);
        for (int side = 0; side < SIDES; side++)
            free(c[side]);
    }
    if (settle_timeouts > 0)
        printf("\n  %d turns started with the team's worker still busy after %d ms\n",
               settle_timeouts, SETTLE_MAX_MS);
    printf("\n  2T / 1T: two threads over the faster CPU's one thread; 2T / sum: over the sum of "
           "both CPUs' one-thread rates (1.00: no time lost to the second thread)\n");
    tb_held_team_close(&held);
    return status;
}
