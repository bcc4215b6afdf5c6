/* gate.c — the width a region runs at: the widest that pays.
 *
 * A region of estimate_ns serial time and `sections` barrier-separated
 * phases runs at w only if each member's share covers PAYS times what its
 * dispatch costs: estimate / w >= PAYS * dispatch(w). docs/costs.md. */
#include "par/par.h"

#include <math.h>

/* The first section goes through the route (a pool lease, the default pool
 * entered from outside); the others are barriers inside a team already
 * running, which cost what a team section costs. (DESIGN.md's formula
 * charges every section at the route's cost: on the 64-core fixture that
 * keeps a 172 ms, 16-section GEMM from outside off 64 cores, for 16 entries
 * at 81 us where one is paid and 15 barriers at 9.3 us.) */
static double dispatch(double (*cost)(const void *, tela_route, int), const void *table,
                       tela_route route, int sections, int width)
{
    double first = cost(table, route, width);
    if (sections <= 1)
        return first;
    double barrier = route == TELA_ROUTE_TEAM ? first : cost(table, TELA_ROUTE_TEAM, width);
    return first + (sections - 1) * barrier;
}

int par_gate_scan(double estimate_ns, int sections, tela_route route, int max_width,
                  double cheapest_route, double cheapest_team,
                  double (*cost)(const void *table, tela_route, int), const void *table)
{
    if (!(estimate_ns > 0) || max_width < 2)
        return 1;
    if (sections < 1)
        sections = 1;
    /* No width above estimate / (PAYS * least dispatch) can pay: the scan
     * starts there, not at an unlimited max_width. */
    double cheapest = cheapest_route + (sections - 1) * cheapest_team;
    if (cheapest > 0) {
        double bound = estimate_ns / (TELA_PAYS * cheapest);
        if (bound < max_width)
            max_width = (int)bound;
    }
    /* From the widest down: the first that pays is the answer, so more work
     * never gives a narrower width even where measured costs dip. */
    for (int w = max_width; w >= 2; w--)
        if (estimate_ns >= TELA_PAYS * w * dispatch(cost, table, route, sections, w))
            return w;
    return 1;
}
