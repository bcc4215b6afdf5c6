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

_Static_assert(sizeof(cpu_set_t) == sizeof(((par_worker *)0)->cpus), "par_worker.cpus size");

/* Setting another thread's set costs ~2 us here, reading ours a fraction:
 * a pool per call from one thread pays the setting once per worker. */
void par_affinity_copy_to(par_worker **workers, int count)
{
    cpu_set_t set;
    if (count <= 0 || pthread_getaffinity_np(pthread_self(), sizeof set, &set) != 0)
        return;
    for (int i = 0; i < count; i++) {
        par_worker *w = workers[i];
        if (w->cpus_given && memcmp(w->cpus, &set, sizeof set) == 0)
            continue;
        if (pthread_setaffinity_np(w->thread, sizeof set, &set) == 0) {
            memcpy(w->cpus, &set, sizeof set);
            w->cpus_given = true;
        } else {
            w->cpus_given = false;
        }
    }
}

bool par_affinity_leave_cpu(int cpu)
{
    cpu_set_t allowed, elsewhere;
    if (cpu < 0 || sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 2 ||
        !CPU_ISSET(cpu, &allowed))
        return false;
    elsewhere = allowed;
    CPU_CLR(cpu, &elsewhere);
    /* Leaving the set moves us at once; restoring it keeps us where we
     * landed, which the set allows. */
    if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) != 0)
        return false;
    sched_setaffinity(0, sizeof allowed, &allowed);
    return true;
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

bool par_affinity_leave_cpu(int cpu)
{
    (void)cpu;
    return false;
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
