/* tela_bench_common.c — what tela-bench and tela-peers share besides the problems
 * (tela_bench_common.h): one copy, so that both programs wait, measure the peak, read the machine
 * and take their command lines the same way. */
#include "tela_bench_common.h"

#include "bench_median.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each side's round starts once the process's other threads are idle: OpenBLAS's workers spin
 * about 0.13 s after a call (2^28 TSC cycles), tela's a few ms, and on a small machine a
 * spinning worker takes a CPU from the side timed next. Idle: over a window of this length they
 * used less than IDLE_FRACTION of one CPU. */
#define SETTLE_WINDOW_NS     3000000LL
#define SETTLE_IDLE_FRACTION 0.1
/* A multi-thread peak below this share of the per-core peak times the threads is interference,
 * tried again after this wait (a probe is ~60 ms). */
#define PEAK_LOW_SHARE    0.75
#define PEAK_RETRY_GAP_NS (200 * 1000000LL)
/* Most items tb_parse_int_list takes, whatever max_count says. */
#define MAX_LIST_INTS 64

/* CPU time used so far by the process's threads other than the caller: OpenBLAS's and tela's
 * workers. */
static int64_t others_cpu_ns(void)
{
    return tb_clock_ns(CLOCK_PROCESS_CPUTIME_ID) - tb_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

/* The caller busy-waits, as a program doing other work between calls would: a sleeping caller
 * lets a VM halt its vCPU, and both libraries' next calls then pay for the wake-up in ways a
 * benchmark of the kernels should not mix in (tela-teambench measures that). */
int tb_settle(int max_ms)
{
    const int64_t deadline = tb_now_ns() + (int64_t)max_ms * 1000000LL;
    int64_t cpu = others_cpu_ns(), wall = tb_now_ns();
    for (;;) {
        tb_spin_until_ns(wall + SETTLE_WINDOW_NS);
        int64_t cpu_now = others_cpu_ns(), wall_now = tb_now_ns();
        if ((double)(cpu_now - cpu) < SETTLE_IDLE_FRACTION * (double)(wall_now - wall))
            return 0;
        if (wall_now >= deadline)
            return -1;
        cpu = cpu_now;
        wall = wall_now;
    }
}

int tb_cpus_available(void)
{
    cpu_set_t mask;
    return sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 1;
}

void tb_cpuinfo_value(const char *key, char *value, size_t size)
{
    snprintf(value, size, "unknown");
    FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
    if (!cpuinfo)
        return;
    char line[4096];
    size_t key_length = strlen(key);
    while (fgets(line, sizeof line, cpuinfo)) {
        /* "model" must not match "model name". */
        if (strncmp(line, key, key_length) != 0 || !strchr(" \t:", line[key_length]))
            continue;
        const char *colon = strchr(line, ':');
        if (colon) {
            colon += 1 + strspn(colon + 1, " \t");
            snprintf(value, size, "%.*s", (int)strcspn(colon, "\n"), colon);
        }
        break;
    }
    fclose(cpuinfo);
}

struct tb_usage tb_usage_now(void)
{
    struct tb_usage u = {tb_now_ns(), tb_clock_ns(CLOCK_PROCESS_CPUTIME_ID), 0.0, 0.0, 0};
    FILE *stat = fopen("/proc/stat", "r");
    if (!stat)
        return u;
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
    if (fscanf(stat, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
               &iowait, &irq, &softirq, &steal) == 8) {
        const double tick = 1.0 / (double)sysconf(_SC_CLK_TCK);
        u.busy_s = (double)(user + nice + system + irq + softirq) * tick;
        u.steal_s = (double)steal * tick;
        u.valid = 1;
    }
    fclose(stat);
    return u;
}

void tb_usage_between(struct tb_usage begin, struct tb_usage end, int cpus, double *other,
                      double *steal)
{
    *other = *steal = 0.0;
    double wall_s = (double)(end.wall_ns - begin.wall_ns) * 1e-9;
    if (!begin.valid || !end.valid || wall_s <= 0.0 || cpus <= 0)
        return;
    double own_s = (double)(end.own_ns - begin.own_ns) * 1e-9;
    double others_s = end.busy_s - begin.busy_s - own_s;
    *other = others_s > 0.0 ? others_s / (wall_s * cpus) : 0.0;
    *steal = (end.steal_s - begin.steal_s) / (wall_s * cpus);
}

int tb_peak_is_low(const struct fma_peak *peak, double per_core_gflops)
{
    /* Threads beyond the CPUs add nothing, so the CPUs bound the expectation. */
    int cores = peak->threads;
    if (cores > tb_cpus_available())
        cores = tb_cpus_available();
    return peak->gflops < PEAK_LOW_SHARE * cores * per_core_gflops;
}

int tb_measure_peaks(const int *threads, int count, int settle_max_ms, struct fma_peak *per_core,
                     struct fma_peak *peaks)
{
    tb_settle(settle_max_ms);
    int status = fma_peak_measure(1, per_core);
    for (int i = 0; i < count && status == 0; i++) {
        if (threads[i] == 1) {
            peaks[i] = *per_core;
            continue;
        }
        /* The peak is a limit, so a low reading is interference: on this project's VMs a probe
         * right after a build has measured one core's peak for two threads, both vCPUs given one
         * core for a while. A few more tries, the best kept (tela-bench's header warns if still
         * low). */
        for (int attempt = 0; attempt < TB_PEAK_ATTEMPTS && status == 0; attempt++) {
            struct fma_peak p;
            status = fma_peak_measure(threads[i], &p);
            if (status != 0)
                break;
            if (attempt == 0 || p.gflops > peaks[i].gflops)
                peaks[i] = p;
            if (!tb_peak_is_low(&peaks[i], per_core->gflops))
                break;
            tb_spin_until_ns(tb_now_ns() + PEAK_RETRY_GAP_NS);
        }
    }
    return status;
}

int tb_held_team_open(const char *program, int threads, struct tb_held_team *held)
{
    *held = (struct tb_held_team){NULL, NULL, tela_par_seq()};
    if (threads == 1)
        return 0;
    held->pool = tela_pool_create(&(tela_pool_opts){.width = threads});
    held->team = held->pool ? tela_team_acquire(held->pool, threads) : NULL;
    if (!held->team) {
        fprintf(stderr, "%s: could not get a tela team of width %d\n", program, threads);
        tela_pool_destroy(held->pool);
        held->pool = NULL;
        return -1;
    }
    held->par = tela_par_team(held->team);
    return 0;
}

void tb_held_team_close(struct tb_held_team *held)
{
    if (held->team)
        tela_team_release(held->team);
    tela_pool_destroy(held->pool);
    *held = (struct tb_held_team){NULL, NULL, tela_par_seq()};
}

struct tb_summary tb_summarize(double *values, int count)
{
    struct tb_summary s = {NAN, NAN, NAN};
    if (count <= 0)
        return s;
    s.min = s.max = values[0];
    for (int i = 1; i < count; i++) {
        s.min = fmin(s.min, values[i]);
        s.max = fmax(s.max, values[i]);
    }
    s.median = median_of(values, count);
    return s;
}

static const char *format_rate(double value, char *text, size_t size)
{
    snprintf(text, size, "%.*f", value < 10.0 ? 2 : 1, value);
    return text;
}

const char *tb_format_summary(struct tb_summary s, char *text, size_t size)
{
    if (isnan(s.median)) {
        snprintf(text, size, "-");
        return text;
    }
    char median[24], min[24], max[24];
    snprintf(text, size, "%s (%s-%s)", format_rate(s.median, median, sizeof median),
             format_rate(s.min, min, sizeof min), format_rate(s.max, max, sizeof max));
    return text;
}

int tb_parse_int(const char *program, const char *option, const char *text, long min, long max,
                 int *out)
{
    char *end = NULL;
    errno = 0;
    long value = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno || value < min || value > max) {
        fprintf(stderr, "%s: %s needs an integer from %ld to %ld\n", program, option, min, max);
        return -1;
    }
    *out = (int)value;
    return 0;
}

int tb_parse_double(const char *program, const char *option, const char *text, double min,
                    double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double value = text ? strtod(text, &end) : 0.0;
    if (!text || end == text || *end != '\0' || errno || !(value >= min && value <= max)) {
        fprintf(stderr, "%s: %s needs a number from %g to %g\n", program, option, min, max);
        return -1;
    }
    *out = value;
    return 0;
}

int tb_split_list(const char *program, const char *option, const char *text, char items[][32],
                  int max)
{
    char buffer[1024];
    if (!text || strlen(text) >= sizeof buffer) {
        fprintf(stderr, "%s: %s needs a comma-separated list\n", program, option);
        return -1;
    }
    snprintf(buffer, sizeof buffer, "%s", text);
    int count = 0;
    char *saved = NULL;
    for (char *item = strtok_r(buffer, ",", &saved); item; item = strtok_r(NULL, ",", &saved)) {
        if (count == max || strlen(item) >= 32) {
            fprintf(stderr, "%s: %s: at most %d items\n", program, option, max);
            return -1;
        }
        snprintf(items[count++], 32, "%s", item);
    }
    if (count == 0)
        fprintf(stderr, "%s: %s needs a comma-separated list\n", program, option);
    return count ? count : -1;
}

int tb_parse_int_list(const char *program, const char *option, const char *text, long min, long max,
                      int *out, int max_count, int *count)
{
    char items[MAX_LIST_INTS][32];
    int n = tb_split_list(program, option, text, items,
                          max_count < MAX_LIST_INTS ? max_count : MAX_LIST_INTS);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        if (tb_parse_int(program, option, items[i], min, max, &out[i]))
            return -1;
    }
    *count = n;
    return 0;
}

int tb_parse_trans(const char *program, const char *text, char (*trans)[2], int *count)
{
    static const char *const all = "NN,NT,TN,TT";
    char items[TB_MAX_TRANS][32];
    int n = tb_split_list(program, "--trans", text && !strcmp(text, "all") ? all : text, items,
                          TB_MAX_TRANS);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        char a = (char)(items[i][0] & ~0x20), b = (char)(items[i][1] & ~0x20); /* upper case */
        if (strlen(items[i]) != 2 || (a != 'N' && a != 'T') || (b != 'N' && b != 'T')) {
            fprintf(stderr, "%s: --trans: '%s' is not one of NN, NT, TN, TT\n", program, items[i]);
            return -1;
        }
        trans[i][0] = a;
        trans[i][1] = b;
    }
    *count = n;
    return 0;
}
