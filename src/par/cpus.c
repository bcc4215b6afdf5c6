/* cpus.c — how many CPUs the process may use, and giving workers a CPU set.
 *
 * The default width follows the caller's affinity mask and a cgroup CPU
 * quota (containers), not the machine's core count: a process confined to
 * 2 CPUs of 64 must not build 64-wide teams. */
#include "par/par.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>

/* ceil(quota / period) from a cgroup v2 "cpu.max" ("max 100000" = none). */
static int cgroup_v2_limit(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char quota[32] = {0};
    long period = 0;
    int n = fscanf(f, "%31s %ld", quota, &period);
    fclose(f);
    if (n != 2 || strcmp(quota, "max") == 0 || period <= 0)
        return 0;
    long q = atol(quota);
    return q > 0 ? (int)((q + period - 1) / period) : 0;
}

static long read_long(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long v = -1;
    if (fscanf(f, "%ld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

/* The process's own cgroup v2 directory, from /proc/self/cgroup ("0::/x"). */
static int cgroup_quota_cpus(void)
{
    char line[512];
    int limit = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "0::", 3) == 0) {
                line[strcspn(line, "\n")] = '\0';
                char path[700];
                snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", line + 3);
                limit = cgroup_v2_limit(path);
                break;
            }
        }
        fclose(f);
    }
    if (!limit)
        limit = cgroup_v2_limit("/sys/fs/cgroup/cpu.max");
    if (!limit) {
        long quota = read_long("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
        long period = read_long("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
        if (quota > 0 && period > 0)
            limit = (int)((quota + period - 1) / period);
    }
    return limit;
}

static int measure_cpu_count(void)
{
    cpu_set_t set;
    int count = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        count = CPU_COUNT(&set);
    if (count < 1) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        count = online > 0 ? (int)online : 1;
    }
    int quota = cgroup_quota_cpus();
    if (quota > 0 && quota < count)
        count = quota;
    return count;
}

void par_affinity_copy_to(par_worker **workers, int count)
{
    cpu_set_t set;
    if (count <= 0 || pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
        return;
    for (int i = 0; i < count; i++)
        pthread_setaffinity_np(workers[i]->thread, sizeof set, &set);
}
#else
static int measure_cpu_count(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

void par_affinity_copy_to(par_worker **workers, int count)
{
    (void)workers;
    (void)count;
}
#endif

/* Measured once: it is read when teams are leased (to spot oversubscription)
 * and must not cost file reads there. Later affinity changes of the caller
 * do not change the default width. */
static int cpu_count;
static pthread_once_t cpu_count_once = PTHREAD_ONCE_INIT;

static void cpu_count_init(void)
{
    cpu_count = measure_cpu_count();
}

int par_cpu_count(void)
{
    pthread_once(&cpu_count_once, cpu_count_init);
    return cpu_count;
}
