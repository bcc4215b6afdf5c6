/* run.c — how every level-2 routine starts its region: through the gate with par's stream
 * estimate, and straight on the caller when no split could pay, so a small call skips the
 * gate's policy work. The body is the same either way: every width gives the same bits. */
#include "level2/level2.h"

void level2_run(tela_par par, const char *name, double elements, int sections, tela_int max_width,
                tela_body body, void *arg)
{
    const double estimate = par_stream_estimate_ns(elements);
    if (max_width > 1 && par_may_split(par, estimate)) {
        int limit = max_width < (1 << 20) ? (int)max_width : 1 << 20;
        if (par.max_width > 0 && par.max_width < limit)
            limit = par.max_width;
        if (tela_parallel_gated(tela_par_limit(par, limit), name, estimate, sections, body, arg) >=
            0)
            return;
    }
    par_region_run_serial(body, arg);
}
