/* trace.c — TELA_TRACE=FILE: one line per region, for tela-calibrate --report.
 *
 * A line is formatted on the stack and written with one write(2) to a file
 * opened O_APPEND, which the kernel appends whole: no lock, no allocation.
 * Off (the default), a region pays one load of a flag. */
#include "par/par.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* TRACE_UNKNOWN until the environment is read; then the file, or -1. */
#define TRACE_UNKNOWN (-2)
_Atomic int par_trace_fd = TRACE_UNKNOWN;
static pthread_once_t trace_once = PTHREAD_ONCE_INIT;

static int open_trace(const char *path)
{
    if (!path)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        par_error(TELA_EINVAL, "TELA_TRACE", "cannot open the trace file; tracing is off");
    return fd;
}

static void trace_init(void)
{
    const char *path = getenv("TELA_TRACE");
    atomic_store(&par_trace_fd, open_trace(path && *path ? path : NULL));
}

void par_trace_open(const char *path)
{
    /* A test's reopen comes after the start-up read, never before it. */
    pthread_once(&trace_once, trace_init);
    int old = atomic_exchange(&par_trace_fd, open_trace(path));
    if (old >= 0)
        close(old);
}

_Static_assert(TRACE_UNKNOWN == -2, "par_trace_on in par.h tests for -2");

bool par_trace_on_slow(void)
{
    pthread_once(&trace_once, trace_init);
    return atomic_load_explicit(&par_trace_fd, memory_order_relaxed) >= 0;
}

static const char *route_label(tela_route route)
{
    switch (route) {
    case TELA_ROUTE_TEAM:
        return "team";
    case TELA_ROUTE_POOL:
        return "pool";
    case TELA_ROUTE_OUTSIDE:
        return "outside";
    default:
        return "seq";
    }
}

void par_trace_region(const char *name, double estimate_ns, int sections, tela_route route,
                      int allowed, int width, double wall_ns)
{
    int fd = atomic_load_explicit(&par_trace_fd, memory_order_relaxed);
    if (fd < 0)
        return;
    char line[256];
    int n = snprintf(line, sizeof line,
                     "kernel=%.48s estimate_ns=%.0f sections=%d route=%s allowed=%d width=%d "
                     "wall_ns=%.0f\n",
                     name ? name : "-", estimate_ns, sections, route_label(route), allowed, width,
                     wall_ns);
    if (n > 0 && (size_t)n < sizeof line)
        (void)!write(fd, line, (size_t)n);
}
