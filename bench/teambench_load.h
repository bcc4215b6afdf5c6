/* teambench_load.h — background load for tela-teambench (--load K:P): K processes, each busy
 * P% of every 10 ms and asleep the rest, so the team is measured on CPUs it must share. */
#ifndef TELA_BENCH_TEAMBENCH_LOAD_H
#define TELA_BENCH_TEAMBENCH_LOAD_H

#include <sys/types.h>

/* Most load processes --load accepts. */
#define TB_LOAD_MAX_PROCS 256
/* Length of one load period, ns: each process is busy percent of it, then sleeps the rest. */
#define TB_LOAD_PERIOD_NS 10000000LL

struct tb_load {
    int count;                     /* processes started */
    int percent;                   /* busy share of each period, 0..100 */
    pid_t pids[TB_LOAD_MAX_PROCS]; /* their process ids */
};

/* Forks procs load processes. Call it before any thread exists: the children only spin,
 * sleep and exit. Each child exits by itself after lifetime_s seconds, when this process
 * dies (PR_SET_PDEATHSIG) or when it sees itself orphaned. Returns 0, or -1 (with the
 * processes already started stopped again). */
int tb_load_start(struct tb_load *load, int procs, int percent, double lifetime_s);

/* Kills and reaps the load processes. Returns how many had already exited before (they ran
 * out of lifetime: the load stopped before the measurement did), or 0. */
int tb_load_stop(struct tb_load *load);

#endif
