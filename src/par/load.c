/* load.c — what the machine's load leaves a region: the CPUs other threads
 * keep busy are taken off its width, and a long spin on a machine with more
 * runnable threads than CPUs ends in a sleep (docs/team.md). */
#include "par/par.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <fcntl.h>
#include <unistd.h>
#endif

/* How long a reading of the runnable count stands for every region. */
#define LOAD_READING_NS 1.0e6

_Atomic int par_workers_awake;

static bool load_aware = true;
static pthread_once_t aware_once = PTHREAD_ONCE_INIT;

static void aware_read(void)
{
    const char *env = getenv("TELA_LOAD_AWARE");
    load_aware = !(env && strcmp(env, "0") == 0);
}

bool par_load_aware(void)
{
    pthread_once(&aware_once, aware_read);
    return load_aware;
}

int par_load_width_for(int width, int others, int online)
{
    if (width <= 1 || others <= 1 || online <= 0)
        return width;
    /* One other thread is tolerated, not given a CPU: a member sharing a
     * CPU with it still brings its half, which the claimed shares take,
     * and the readings often see one passer-by (docs/team.md, "Measurements
     * behind src/par's constants"). */
    const int left = online - others + 1;
    return left <= 1 ? 1 : left < width ? left : width;
}

#if defined(__linux__)
/* /proc/loadavg's count of runnable threads: what libgomp's OMP_DYNAMIC
 * reads the load average for, but of this instant. */
static int loadavg_fd = -1;
static long online_cpus;
static pthread_once_t loadavg_once = PTHREAD_ONCE_INIT;

static void loadavg_open(void)
{
    /* Kept open: each look is one pread, no path lookup (docs/team.md, "The machine's load"). */
    loadavg_fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

int par_runnable_threads(void)
{
    pthread_once(&loadavg_once, loadavg_open);
    if (loadavg_fd < 0)
        return -1;
    char text[128];
    const ssize_t n = pread(loadavg_fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return -1;
    text[n] = '\0';
    /* "0.52 0.58 0.59 3/467 12345": runnable/existing in the fourth field. */
    const char *slash = strchr(text, '/');
    if (!slash)
        return -1;
    const char *digits = slash;
    while (digits > text && digits[-1] >= '0' && digits[-1] <= '9')
        digits--;
    return digits < slash ? (int)strtol(digits, NULL, 10) : -1;
}

bool par_machine_oversubscribed(void)
{
    if (!par_load_aware())
        return false;
    const int runnable = par_runnable_threads();
    /* Online CPUs, not the affinity mask: /proc/loadavg counts the whole
     * machine (a container sees the host's), so only a whole machine with
     * more runnable threads than CPUs counts as oversubscribed; one more
     * is a passer-by (see par_load_width_for). */
    return runnable > 0 && online_cpus > 0 && runnable > online_cpus + 1;
}

/* The last two readings: threads runnable on the machine besides the
 * caller, and this process's workers awake then (spinning between regions,
 * or running one). -1: no reading. */
static _Atomic long long last_reading_ns;
static _Atomic int last_runnable = -1, last_awake, before_runnable = -1, before_awake;

/* Runnable threads that are not ours: those besides the caller, less our
 * awake workers (a worker woken but not yet on a CPU among them: its waker
 * counts it). */
static int others_in(int runnable_besides_us, int awake)
{
    return runnable_besides_us < 0 ? -1 : runnable_besides_us - awake;
}

int par_load_width(int width)
{
    if (width <= 1 || !par_load_aware())
        return width;
    const long long now = (long long)par_monotonic_ns();
    if (now - atomic_load_explicit(&last_reading_ns, memory_order_relaxed) >
        (long long)LOAD_READING_NS) {
        atomic_store_explicit(&last_reading_ns, now, memory_order_relaxed);
        const int runnable = par_runnable_threads();
        atomic_store_explicit(&before_runnable,
                              atomic_load_explicit(&last_runnable, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&before_awake,
                              atomic_load_explicit(&last_awake, memory_order_relaxed),
                              memory_order_relaxed);
        atomic_store_explicit(&last_runnable, runnable > 0 ? runnable - 1 : -1,
                              memory_order_relaxed);
        atomic_store_explicit(&last_awake,
                              atomic_load_explicit(&par_workers_awake, memory_order_relaxed),
                              memory_order_relaxed);
    }
    /* Both readings must see them: a thread runnable for an instant (a
     * kernel worker, a daemon) would otherwise narrow the regions of a
     * whole millisecond. */
    const int last = others_in(atomic_load_explicit(&last_runnable, memory_order_relaxed),
                               atomic_load_explicit(&last_awake, memory_order_relaxed));
    const int before = others_in(atomic_load_explicit(&before_runnable, memory_order_relaxed),
                                 atomic_load_explicit(&before_awake, memory_order_relaxed));
    const int others = last < before ? last : before;
    return par_load_width_for(width, others, (int)online_cpus);
}
#else
int par_runnable_threads(void)
{
    return -1;
}

int par_load_width(int width)
{
    (void)estimate_ns;
    (void)sections;
    return width;
}

bool par_machine_oversubscribed(void)
{
    return false;
}
#endif
