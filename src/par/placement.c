/* placement.c — where the scheduler queued a worker we just woke.
 *
 * On these VMs a futex wake either packs the worker onto the waker's CPU
 * or wakes a halted vCPU for it (~100 us). The waker should then sleep
 * (spinning would keep a packed worker off the CPU) or spin (sleeping would
 * cost it its own halted-vCPU wake later). Only the kernel knows which: the
 * processor field of /proc/self/task/TID/stat, read once per wake from
 * sleep when the worker has not yet said where it runs (~2.4 us here). */
#include "par/par.h"

#if defined(__linux__)
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

void par_placement_init_self(par_worker *self)
{
    atomic_store_explicit(&self->tid, (int)syscall(SYS_gettid), memory_order_release);
}

/* Opened by the first waker that needs it; kept until the worker retires. */
static int stat_fd(par_worker *w)
{
    int fd = atomic_load_explicit(&w->stat_fd, memory_order_acquire);
    if (fd >= 0)
        return fd;
    int tid = atomic_load_explicit(&w->tid, memory_order_acquire);
    if (tid <= 0)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    int opened = open(path, O_RDONLY | O_CLOEXEC);
    if (opened < 0)
        return -1;
    int expected = -1;
    if (!atomic_compare_exchange_strong(&w->stat_fd, &expected, opened)) {
        close(opened); /* another waker won the race */
        return expected;
    }
    return opened;
}

int par_placement_cpu(par_worker *w)
{
    int fd = stat_fd(w);
    if (fd < 0)
        return -1;
    char buf[640];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* The command name may hold spaces and ')': fields are counted from
     * the last ')'. "processor" is field 39; the state after ')' is 3. */
    const char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    for (int field = 2; field < 39; field++) {
        p = strchr(p + 1, ' ');
        if (!p)
            return -1;
    }
    int cpu = 0;
    for (p++; *p >= '0' && *p <= '9'; p++)
        cpu = cpu * 10 + (*p - '0');
    return *p == ' ' ? cpu : -1;
}

void par_placement_close(par_worker *w)
{
    int fd = atomic_exchange(&w->stat_fd, -1);
    if (fd >= 0)
        close(fd);
}
#else
void par_placement_init_self(par_worker *self)
{
    (void)self;
}

int par_placement_cpu(par_worker *w)
{
    (void)w;
    return -1;
}

void par_placement_close(par_worker *w)
{
    (void)w;
}
#endif
