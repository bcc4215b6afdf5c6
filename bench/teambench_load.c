/* teambench_load.c — the --load processes of tela-teambench.
 *
 * Each load process alternates, on a fixed 10 ms grid of absolute times, a busy-wait of P% of
 * the period with a sleep to the next period, like another program's threads that compute in
 * bursts. They are processes, not threads, so they share nothing with either runtime measured.
 * They must never outlive the bench: each stops after a deadline, when the bench dies
 * (PR_SET_PDEATHSIG), or when it finds itself re-parented; the bench kills and reaps them at
 * its end. A child uses only the clock, sleep, getppid and _exit, so forking from a process
 * that a sanitizer runtime or a threaded library has touched stays safe. */
#include "teambench_load.h"
#include "teambench_clock.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The body of one load process; never returns. */
static void load_child(pid_t parent, int percent, int64_t deadline)
{
    /* Killed with the thread that forked us (the bench's main thread, alive to its end). The
     * getppid check covers a parent that died before prctl ran. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int64_t busy_ns = TB_LOAD_PERIOD_NS * percent / 100;
    int64_t period_start = tb_now_ns();
    while (period_start < deadline && getppid() == parent) {
        tb_spin_until_ns(period_start + busy_ns);
        period_start += TB_LOAD_PERIOD_NS;
        tb_sleep_until_ns(period_start);
    }
    _exit(0);
}

int tb_load_start(struct tb_load *load, int procs, int percent, double lifetime_s)
{
    memset(load, 0, sizeof *load);
    load->percent = percent;
    if (procs < 0 || procs > TB_LOAD_MAX_PROCS || percent < 0 || percent > 100)
        return -1;
    const pid_t parent = getpid();
    const int64_t deadline = tb_now_ns() + (int64_t)(lifetime_s * (double)TB_NS_PER_S);
    fflush(NULL); /* nothing buffered may be written twice */
    for (int i = 0; i < procs; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("tela-teambench: fork of a load process");
            tb_load_stop(load);
            return -1;
        }
        if (pid == 0)
            load_child(parent, percent, deadline);
        load->pids[load->count++] = pid;
    }
    return 0;
}

int tb_load_stop(struct tb_load *load)
{
    int gone_early = 0;
    for (int i = 0; i < load->count; i++) {
        int status;
        if (waitpid(load->pids[i], &status, WNOHANG) == load->pids[i]) {
            gone_early++;
            continue;
        }
        kill(load->pids[i], SIGKILL);
        while (waitpid(load->pids[i], &status, 0) < 0 && errno == EINTR) {}
    }
    load->count = 0;
    return gone_early;
}
