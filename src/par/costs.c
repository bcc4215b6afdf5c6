/* costs.c — the dispatch cost model: the built-in table, the growth fit
 * beyond the widest measured width, and the active table the gate reads.
 * The text format and the cache file are costs_file.c's.
 *
 * Start-up choice: the file named by TELA_COSTS, else the per-user cache for
 * this CPU model and count (written by tela-calibrate), else the built-in
 * table. Format and model: docs/costs.md. */
#include "par/par.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Serial rates used where a table has none: a fast core's double GEMM on the AVX-512 kernels
 * (100 GFLOP/s), and an L2-resident copy. The AVX2 kernels' FMAs are half as wide and the plain
 * x86-64 ones have none: under TELA_ARCH=avx2 and generic on the Xeon (model 207) dgemm 256-512
 * ran at ~0.55x and ~0.15x the AVX-512 set's rate, so their regions are estimated that much
 * longer (an estimate 2x short kept two-thread regions serial where they paid). */
#define DEFAULT_GEMM_NS_PER_FLOP    0.01
#define DEFAULT_COPY_NS_PER_ELEMENT 0.25

static double default_gemm_ns_per_flop(void)
{
    switch (par_isa_chosen()) {
    case PAR_ISA_AVX512:
        return DEFAULT_GEMM_NS_PER_FLOP;
    case PAR_ISA_AVX2:
        return 2.0 * DEFAULT_GEMM_NS_PER_FLOP;
    default:
        return 8.0 * DEFAULT_GEMM_NS_PER_FLOP;
    }
}

/* ---- the built-in table ----
 * Measured on a 64-core AMD EPYC 7702P (Zen 2, 4-core CCX, boost off), in
 * us: team sections with 10 us shares; empty sections in a pool and from
 * outside it. A small machine measures about the same at width 2 (this
 * project's 2-core Zen 5: 1.7 us team share cost), so a real wide machine's
 * growth is the safer default than any guess. */
static const int builtin_team_widths[] = {2, 4, 6, 8, 12, 16, 24, 32, 48, 64};
static const double builtin_team_share_us[] = {1.42, 1.99, 2.33, 2.74, 3.56,
                                               4.08, 4.29, 4.84, 6.40, 9.33};
static const int builtin_pool_widths[] = {2, 4, 6, 8, 12, 16, 24, 32, 48, 60, 64};
static const double builtin_pool_empty_us[] = {0.78, 1.03, 2.78,  3.17,  4.51, 6.01,
                                               7.63, 8.76, 12.14, 14.00, 15.04};
static const double builtin_outside_empty_us[] = {4.49,  4.61,  5.49,  6.74,  9.88, 13.22,
                                                  20.27, 29.71, 62.92, 78.61, 81.19};

static void add_point(par_costs *c, tela_route route, int width, double empty_ns, double share_ns,
                      bool oversubscribed)
{
    if (c->count[route] >= PAR_COST_MAX_POINTS)
        return;
    c->points[route][c->count[route]++] =
        (par_cost_point){width, empty_ns, share_ns, oversubscribed};
}

void par_costs_builtin(par_costs *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->cpu_model, sizeof out->cpu_model, "AMD EPYC 7702P 64-Core Processor");
    out->cpus = 64;
    out->ns_per_flop = -1;
    out->copy_ns_per_element = -1;
    for (size_t i = 0; i < sizeof builtin_team_widths / sizeof builtin_team_widths[0]; i++)
        add_point(out, TELA_ROUTE_TEAM, builtin_team_widths[i], -1, builtin_team_share_us[i] * 1e3,
                  false);
    for (size_t i = 0; i < sizeof builtin_pool_widths / sizeof builtin_pool_widths[0]; i++) {
        add_point(out, TELA_ROUTE_POOL, builtin_pool_widths[i], builtin_pool_empty_us[i] * 1e3, -1,
                  false);
        add_point(out, TELA_ROUTE_OUTSIDE, builtin_pool_widths[i],
                  builtin_outside_empty_us[i] * 1e3, -1, false);
    }
}

/* ---- the model ---- */

/* What a region pays per section: the cost with work in it where measured
 * (it includes the members' skew), else the empty section's. */
static double point_cost(const par_cost_point *p)
{
    return p->share_ns >= 0 ? p->share_ns : p->empty_ns;
}

/* Least squares of y on the chosen basis columns (1, w, log2 w); returns the
 * residual sum of squares, or INFINITY if singular. coef[0..2] = a, b, c. */
static double least_squares(const par_cost_point *pts, int n, bool use_w, bool use_log,
                            double coef[3])
{
    int cols[3] = {0}, k = 0;
    cols[k++] = 0;
    if (use_w)
        cols[k++] = 1;
    if (use_log)
        cols[k++] = 2;
    double ata[3][3] = {{0}}, aty[3] = {0};
    for (int i = 0; i < n; i++) {
        const double x[3] = {1.0, pts[i].width, log2(pts[i].width)};
        double y = point_cost(&pts[i]);
        for (int r = 0; r < k; r++) {
            aty[r] += x[cols[r]] * y;
            for (int s = 0; s < k; s++)
                ata[r][s] += x[cols[r]] * x[cols[s]];
        }
    }
    /* Gaussian elimination with partial pivoting on the k x k system. */
    double sol[3] = {0};
    for (int p = 0; p < k; p++) {
        int best = p;
        for (int r = p + 1; r < k; r++)
            if (fabs(ata[r][p]) > fabs(ata[best][p]))
                best = r;
        if (fabs(ata[best][p]) < 1e-12)
            return INFINITY;
        for (int s = 0; s < k; s++) {
            double t = ata[p][s];
            ata[p][s] = ata[best][s];
            ata[best][s] = t;
        }
        double t = aty[p];
        aty[p] = aty[best];
        aty[best] = t;
        for (int r = p + 1; r < k; r++) {
            double f = ata[r][p] / ata[p][p];
            for (int s = p; s < k; s++)
                ata[r][s] -= f * ata[p][s];
            aty[r] -= f * aty[p];
        }
    }
    for (int p = k - 1; p >= 0; p--) {
        double v = aty[p];
        for (int s = p + 1; s < k; s++)
            v -= ata[p][s] * sol[s];
        sol[p] = v / ata[p][p];
    }
    coef[0] = coef[1] = coef[2] = 0;
    for (int r = 0; r < k; r++)
        coef[cols[r]] = sol[r];
    double rss = 0;
    for (int i = 0; i < n; i++) {
        double w = pts[i].width;
        double e = coef[0] + coef[1] * w + coef[2] * log2(w) - point_cost(&pts[i]);
        rss += e * e;
    }
    return rss;
}

/* The best fit whose slopes are all >= 0 (so it never falls with width);
 * when the points fall or are too few, a line through the last point that
 * grows by a quarter of its mean cost per member. */
static void growth_fit(const par_cost_point *pts, int n, double coef[3])
{
    static const bool bases[3][2] = {{true, true}, {true, false}, {false, true}};
    double best = INFINITY;
    for (int b = 0; b < 3 && n >= 3 - (b > 0); b++) {
        double c[3] = {0, 0, 0};
        double rss = least_squares(pts, n, bases[b][0], bases[b][1], c);
        if (rss < best && c[1] >= 0 && c[2] >= 0 && (c[1] > 0 || c[2] > 0)) {
            best = rss;
            memcpy(coef, c, sizeof c);
        }
    }
    if (best < INFINITY)
        return;
    const par_cost_point *last = &pts[n - 1];
    coef[1] = 0.25 * point_cost(last) / last->width;
    coef[2] = 0;
    coef[0] = point_cost(last) - coef[1] * last->width;
}

/* The cost at width from one route's points (sorted by width, count > 0). */
static double cost_from_points(const par_cost_point *pts, int n, const double fit[3], int width)
{
    if (width <= 1)
        return 0;
    if (width <= pts[0].width)
        return point_cost(&pts[0]);
    for (int i = 1; i < n; i++) {
        if (width <= pts[i].width) {
            double lo = point_cost(&pts[i - 1]), hi = point_cost(&pts[i]);
            double t = (double)(width - pts[i - 1].width) / (pts[i].width - pts[i - 1].width);
            return lo + t * (hi - lo);
        }
    }
    /* Beyond the widest: the last measured cost plus the fit's growth from
     * there, so the curve is continuous and keeps rising. */
    double w_last = pts[n - 1].width;
    double grow = fit[1] * (width - w_last) + fit[2] * (log2(width) - log2(w_last));
    return point_cost(&pts[n - 1]) + (grow > 0 ? grow : 0);
}

/* A route without points borrows the built-in table's. */
static par_costs builtin_table;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;

static void builtin_init(void)
{
    par_costs_builtin(&builtin_table);
}

static const par_cost_point *route_points(const par_costs *c, tela_route route, int *n)
{
    if (c->count[route] > 0) {
        *n = c->count[route];
        return c->points[route];
    }
    pthread_once(&builtin_once, builtin_init);
    *n = builtin_table.count[route];
    return builtin_table.points[route];
}

double par_cost_at(const par_costs *c, tela_route route, int width)
{
    int n;
    const par_cost_point *pts = route_points(c, route, &n);
    double fit[3];
    growth_fit(pts, n, fit);
    return cost_from_points(pts, n, fit, width);
}

/* ---- the active table ----
 * Immutable once published; the gate reads it through one atomic pointer.
 * A replaced table stays reachable from its successor (tables are replaced
 * only by start-up and tela_costs_load: a few, of ~35 KB each). */
typedef struct active_table {
    par_costs costs;
    double fit[TELA_ROUTE_COUNT][3];
    double dense[TELA_ROUTE_COUNT][PAR_COST_DENSE_WIDTHS];
    double cheapest[TELA_ROUTE_COUNT]; /* least cost at any width >= 2 */
    char source[512];
    struct active_table *previous;
} active_table;

static _Atomic(active_table *) active;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

void par_costs_install(const par_costs *costs, const char *source)
{
    active_table *t = calloc(1, sizeof *t);
    if (!t) {
        par_error(TELA_ENOMEM, "tela costs", "no memory for the cost table; keeping the old one");
        return;
    }
    t->costs = *costs;
    snprintf(t->source, sizeof t->source, "%s", source);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        int n;
        const par_cost_point *pts = route_points(costs, (tela_route)r, &n);
        growth_fit(pts, n, t->fit[r]);
        t->cheapest[r] = INFINITY;
        for (int w = 0; w < PAR_COST_DENSE_WIDTHS; w++) {
            t->dense[r][w] = cost_from_points(pts, n, t->fit[r], w);
            if (w >= 2 && t->dense[r][w] < t->cheapest[r])
                t->cheapest[r] = t->dense[r][w];
        }
    }
    pthread_mutex_lock(&install_lock);
    t->previous = atomic_load(&active);
    atomic_store_explicit(&active, t, memory_order_release);
    pthread_mutex_unlock(&install_lock);
}

/* ---- start-up choice ---- */

static void install_startup(void)
{
    char why[512];
    par_costs c;
    memset(&c, 0, sizeof c);
    const char *env = getenv("TELA_COSTS");
    if (env && *env) {
        /* Named by the user: used whatever CPU it was measured on (this is
         * how a wide machine's decisions are simulated on a small one). */
        if (par_costs_read(env, &c, why, sizeof why) == 0) {
            par_costs_install(&c, env);
            return;
        }
        char message[640];
        snprintf(message, sizeof message, "TELA_COSTS ignored, using the built-in table: %s", why);
        par_error(TELA_EINVAL, "tela costs", message);
    } else {
        char path[4096];
        if (par_costs_cache_path(path, sizeof path) == 0 && access(path, R_OK) == 0) {
            char model[128];
            int cpus;
            par_cpu_identity(model, sizeof model, &cpus);
            /* A cache file from another CPU (a copied home directory) is
             * ignored quietly: it describes another machine. */
            if (par_costs_read(path, &c, why, sizeof why) == 0 && strcmp(c.cpu_model, model) == 0 &&
                c.cpus == cpus) {
                par_costs_install(&c, path);
                return;
            }
        }
    }
    par_costs_builtin(&c);
    par_costs_install(&c, "built-in");
}

static pthread_once_t startup_once = PTHREAD_ONCE_INIT;

static const active_table *active_get(void)
{
    active_table *t = atomic_load_explicit(&active, memory_order_acquire);
    if (t)
        return t;
    pthread_once(&startup_once, install_startup);
    return atomic_load_explicit(&active, memory_order_acquire);
}

static double active_cost(const active_table *t, tela_route route, int width)
{
    if (width <= 1)
        return 0;
    if (width < PAR_COST_DENSE_WIDTHS)
        return t->dense[route][width];
    int n;
    const par_cost_point *pts = route_points(&t->costs, route, &n);
    return cost_from_points(pts, n, t->fit[route], width);
}

double tela_dispatch_cost(tela_route route, int width)
{
    if ((unsigned)route >= TELA_ROUTE_COUNT) {
        par_error(TELA_EINVAL, "tela_dispatch_cost", "unknown route");
        return 0;
    }
    return active_cost(active_get(), route, width);
}

static double active_cost_of(const void *table, tela_route route, int width)
{
    return active_cost(table, route, width);
}

static double explicit_cost_of(const void *costs, tela_route route, int width)
{
    return par_cost_at(costs, route, width);
}

int tela_gate_width(double estimate_ns, int sections, tela_route route, int max_width)
{
    if ((unsigned)route >= TELA_ROUTE_COUNT)
        return par_error(TELA_EINVAL, "tela_gate_width", "unknown route");
    const active_table *t = active_get();
    return par_gate_scan(estimate_ns, sections, route, max_width, t->cheapest[route],
                         t->cheapest[TELA_ROUTE_TEAM], active_cost_of, t);
}

bool par_gate_may_pay(tela_route route, double estimate_ns)
{
    /* estimate / w >= PAYS * cost(w) needs estimate >= PAYS * 2 * the least
     * cost at any width >= 2. */
    return estimate_ns >= TELA_PAYS * 2.0 * active_get()->cheapest[route];
}

int par_gate_width_with(const par_costs *costs, double estimate_ns, int sections, tela_route route,
                        int max_width)
{
    double cheapest[TELA_ROUTE_COUNT];
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        cheapest[r] = INFINITY;
        for (int w = 2; w < PAR_COST_DENSE_WIDTHS; w++) {
            double c = par_cost_at(costs, (tela_route)r, w);
            if (c < cheapest[r])
                cheapest[r] = c;
        }
    }
    return par_gate_scan(estimate_ns, sections, route, max_width, cheapest[route],
                         cheapest[TELA_ROUTE_TEAM], explicit_cost_of, costs);
}

int tela_costs_load(const char *path)
{
    pthread_once(&startup_once, install_startup);
    if (!path) {
        install_startup();
        return TELA_OK;
    }
    char why[512];
    par_costs c;
    memset(&c, 0, sizeof c);
    if (par_costs_read(path, &c, why, sizeof why) != 0)
        return par_error(TELA_EINVAL, "tela_costs_load", why);
    par_costs_install(&c, path);
    return TELA_OK;
}

const char *tela_costs_source(void)
{
    return active_get()->source;
}

double par_rate_ns_per_flop(void)
{
    double v = active_get()->costs.ns_per_flop;
    return v > 0 ? v : default_gemm_ns_per_flop();
}

double par_rate_copy_ns_per_element(void)
{
    double v = active_get()->costs.copy_ns_per_element;
    return v > 0 ? v : DEFAULT_COPY_NS_PER_ELEMENT;
}
