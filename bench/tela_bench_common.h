/* tela_bench_common.h — what tela-bench and tela-peers share besides the problems: the clocks,
 * the wait for the process's other threads to go idle, the machine (CPU, affinity, how busy other
 * processes kept it), the FMA peak with its retries, tela's held team, a size's summary and the
 * command line's parsers. */
#ifndef TELA_BENCH_COMMON_H
#define TELA_BENCH_COMMON_H

#include "peak.h"
#include "tela.h"

#include "teambench_clock.h" /* tb_now_ns, tb_spin_until_ns: one clock for every bench program */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Inline: the batches are timed with these, and a call into another file would be timed too. */
static inline int64_t tb_clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Waits, busy, until the process's other threads (the libraries' workers) are idle. Returns 0,
 * or -1 if they were still busy after max_ms. */
int tb_settle(int max_ms);

/* The CPUs in this process's affinity mask (1 if it cannot be read). */
int tb_cpus_available(void);

/* The value of a "key : value" line of /proc/cpuinfo (first CPU), or "unknown". */
void tb_cpuinfo_value(const char *key, char *value, size_t size);

/* What the whole machine and this process have used so far: a benchmark's numbers are only as
 * good as the machine was quiet, so the tables say how busy other processes kept it. */
struct tb_usage {
    int64_t wall_ns; /* CLOCK_MONOTONIC */
    int64_t own_ns;  /* this process's CPU time */
    double busy_s;   /* all CPUs' non-idle time, /proc/stat, steal excluded */
    double steal_s;  /* time the hypervisor ran something else on our vCPUs */
    int valid;       /* /proc/stat was readable */
};

struct tb_usage tb_usage_now(void);

/* The share of all cpus CPUs that other processes used between two samples (never below 0: the
 * tick-based counters are coarser than this process's clock), and the share stolen; both 0 when
 * a sample is not valid. */
void tb_usage_between(struct tb_usage begin, struct tb_usage end, int cpus, double *other,
                      double *steal);

/* Most probes of a multi-thread peak (tb_measure_peaks), for the header's warning. */
#define TB_PEAK_ATTEMPTS 5

/* The FMA peak (peak.h) on one thread, into per_core, and at each of the count thread counts
 * of threads, into peaks (a count of 1 gets per_core), once the other threads settled (at most
 * settle_max_ms). Run before a library is loaded, so that no worker of its spins on a CPU the
 * probe needs. Returns 0, or -1 if a probe thread could not be started. */
int tb_measure_peaks(const int *threads, int count, int settle_max_ms, struct fma_peak *per_core,
                     struct fma_peak *peaks);

/* Whether peak reads below what its threads' cores can do at per_core_gflops a core: the host
 * gave the threads fewer cores than CPUs while it ran. */
int tb_peak_is_low(const struct fma_peak *peak, double per_core_gflops);

/* tela's policy for a table at a thread count: tela_par_seq() at one thread, else a team of that
 * width on a pool of its own, acquired once and held for the whole table, so that the rounds
 * time the kernels and not the acquire. */
struct tb_held_team {
    tela_pool *pool; /* NULL at one thread */
    tela_team *team; /* NULL at one thread */
    tela_par par;
};

/* Returns 0, or -1 (with a message naming program on stderr) if the team could not be had. */
int tb_held_team_open(const char *program, int threads, struct tb_held_team *held);
void tb_held_team_close(struct tb_held_team *held);

/* A size's rates over the rounds. */
struct tb_summary {
    double median, min, max; /* GFLOP/s, or GB/s for tela-bench's memory-bound routines */
};

/* The summary of count values (sorts them in place); NaN throughout when count is 0. */
struct tb_summary tb_summarize(double *values, int count);

/* "median (min-max)", two decimals below 10 and one above; "-" for a NaN median. */
const char *tb_format_summary(struct tb_summary s, char *text, size_t size);

/* The command line. Each parser names program and option in its message on stderr and returns
 * 0, or -1 on a bad value. */
int tb_parse_int(const char *program, const char *option, const char *text, long min, long max,
                 int *out);
int tb_parse_double(const char *program, const char *option, const char *text, double min,
                    double max, double *out);
/* Splits a comma-separated list into items of at most 31 characters; returns the count, or -1
 * if it is empty, too long or has more than max items. */
int tb_split_list(const char *program, const char *option, const char *text, char items[][32],
                  int max);
/* A list of at most max_count (at most 64) integers from min to max into out, and its count. */
int tb_parse_int_list(const char *program, const char *option, const char *text, long min, long max,
                      int *out, int max_count, int *count);
/* --trans: gemm's transpose pairs, a list of NN, NT, TN, TT (either case) or all, into trans
 * (TB_MAX_TRANS pairs: upper case, transa then transb) and its count. */
#define TB_MAX_TRANS 4
int tb_parse_trans(const char *program, const char *text, char (*trans)[2], int *count);

#endif
