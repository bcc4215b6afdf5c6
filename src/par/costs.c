/* costs.c — the dispatch cost table: reading, writing, the growth fit and
 * the active table the gate reads.
 *
 * Start-up choice: the file named by TELA_COSTS, else the per-user cache for
 * this CPU model and count (written by tela-calibrate), else the built-in
 * table. Format and model: docs/costs.md. */
#include "par/par.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const route_names[TELA_ROUTE_COUNT] = {
    [TELA_ROUTE_TEAM] = "team", [TELA_ROUTE_POOL] = "pool", [TELA_ROUTE_OUTSIDE] = "outside"};

/* Serial rates used where a table has none: about this Zen 5's double GEMM
 * at 100 GFLOP/s and an L2-resident copy. */
#define DEFAULT_GEMM_NS_PER_FLOP    0.01
#define DEFAULT_COPY_NS_PER_ELEMENT 0.25

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
    out->gemm_ns_per_flop = -1;
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

/* ---- reading and writing ---- */

static int fail_why(char *why, size_t len, const char *path, int line, const char *fmt, ...)
{
    char detail[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(why, len, "%s:%d: %s", path, line, detail);
    else
        snprintf(why, len, "%s: %s", path, detail);
    return -1;
}

/* A number, or "-" for not measured (-1). */
static bool parse_ns(const char *text, double *out)
{
    if (strcmp(text, "-") == 0) {
        *out = -1;
        return true;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(v >= 0) || v > 1e12)
        return false;
    *out = v;
    return true;
}

static int route_by_name(const char *name)
{
    for (int r = 0; r < TELA_ROUTE_COUNT; r++)
        if (strcmp(name, route_names[r]) == 0)
            return r;
    return -1;
}

/* Checks one "point" line's fields and adds it. */
static int read_point(par_costs *c, char *fields[], int n, const char *path, int line, char *why,
                      size_t len)
{
    if (n < 5 || n > 6)
        return fail_why(why, len, path, line, "a point needs: route width empty_ns share_ns");
    int route = route_by_name(fields[1]);
    if (route < 0)
        return fail_why(why, len, path, line, "unknown route '%s'", fields[1]);
    char *end;
    long width = strtol(fields[2], &end, 10);
    if (*end != '\0' || width < 2 || width > 1 << 20)
        return fail_why(why, len, path, line, "bad width '%s'", fields[2]);
    double empty, share;
    if (!parse_ns(fields[3], &empty) || !parse_ns(fields[4], &share) || (empty < 0 && share < 0))
        return fail_why(why, len, path, line, "bad costs '%s %s'", fields[3], fields[4]);
    bool over = n == 6;
    if (over && strcmp(fields[5], "oversubscribed") != 0)
        return fail_why(why, len, path, line, "unexpected '%s'", fields[5]);
    int k = c->count[route];
    if (k >= PAR_COST_MAX_POINTS)
        return fail_why(why, len, path, line, "more than %d points for one route",
                        PAR_COST_MAX_POINTS);
    if (k > 0 && c->points[route][k - 1].width >= width)
        return fail_why(why, len, path, line, "widths of a route must rise");
    add_point(c, (tela_route)route, (int)width, empty, share, over);
    return 0;
}

int par_costs_read(const char *path, par_costs *out, char *why, size_t why_len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail_why(why, why_len, path, 0, "cannot open: %s", strerror(errno));
    par_costs c;
    memset(&c, 0, sizeof c);
    c.gemm_ns_per_flop = c.copy_ns_per_element = -1;
    char buf[512];
    int line = 0, status = 0;
    bool header = false, ended = false, have_model = false, have_cpus = false;
    while (status == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        size_t n = strlen(buf);
        if (n == sizeof buf - 1 && buf[n - 1] != '\n') {
            status = fail_why(why, why_len, path, line, "line too long");
            break;
        }
        while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
            buf[--n] = '\0';
        if (n == 0 || buf[0] == '#')
            continue;
        if (ended) {
            status = fail_why(why, why_len, path, line, "text after 'end'");
            break;
        }
        if (!header) {
            if (strcmp(buf, "tela-costs 1") != 0)
                status = fail_why(why, why_len, path, line, "not a tela cost table, version 1");
            header = true;
            continue;
        }
        if (strncmp(buf, "cpu_model ", 10) == 0) {
            size_t m = strlen(buf + 10);
            if (m >= sizeof c.cpu_model)
                m = sizeof c.cpu_model - 1; /* as par_cpu_identity truncates it */
            memcpy(c.cpu_model, buf + 10, m);
            c.cpu_model[m] = '\0';
            have_model = true;
            continue;
        }
        char *fields[8];
        int count = 0;
        char *save = NULL;
        for (char *tok = strtok_r(buf, " \t", &save); tok && count < 8;
             tok = strtok_r(NULL, " \t", &save))
            fields[count++] = tok;
        if (count == 0)
            continue; /* blanks only */
        if (count == 1 && strcmp(fields[0], "end") == 0) {
            ended = true;
        } else if (count == 2 && strcmp(fields[0], "cpus") == 0) {
            char *end;
            long cpus = strtol(fields[1], &end, 10);
            if (*end != '\0' || cpus < 1 || cpus > 1 << 20)
                status = fail_why(why, why_len, path, line, "bad cpus '%s'", fields[1]);
            c.cpus = (int)cpus;
            have_cpus = true;
        } else if (count == 3 && strcmp(fields[0], "rate") == 0) {
            double v;
            if (!parse_ns(fields[2], &v))
                status = fail_why(why, why_len, path, line, "bad rate '%s'", fields[2]);
            else if (strcmp(fields[1], "gemm_ns_per_flop") == 0)
                c.gemm_ns_per_flop = v;
            else if (strcmp(fields[1], "copy_ns_per_element") == 0)
                c.copy_ns_per_element = v;
            /* other rates: from a newer tela-calibrate, ignored */
        } else if (strcmp(fields[0], "point") == 0) {
            status = read_point(&c, fields, count, path, line, why, why_len);
        } else {
            status = fail_why(why, why_len, path, line, "unknown line '%s'", fields[0]);
        }
    }
    if (status == 0 && ferror(f))
        status = fail_why(why, why_len, path, 0, "read error");
    fclose(f);
    if (status != 0)
        return status;
    if (!header)
        return fail_why(why, why_len, path, 0, "empty file");
    if (!ended)
        return fail_why(why, why_len, path, 0, "truncated (no 'end' line)");
    if (!have_model || !have_cpus)
        return fail_why(why, why_len, path, 0, "cpu_model or cpus missing");
    if (c.count[TELA_ROUTE_TEAM] == 0 && c.count[TELA_ROUTE_POOL] == 0 &&
        c.count[TELA_ROUTE_OUTSIDE] == 0)
        return fail_why(why, why_len, path, 0, "no points");
    *out = c;
    return 0;
}

static void write_ns(FILE *f, double ns)
{
    if (ns < 0)
        fputs(" -", f);
    else
        fprintf(f, " %.1f", ns);
}

int par_costs_write(const par_costs *c, const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return -1;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "# tela dispatch cost table (tela-calibrate); format: docs/costs.md\n");
    fprintf(f, "tela-costs 1\ncpu_model %s\ncpus %d\n", c->cpu_model, c->cpus);
    if (c->gemm_ns_per_flop >= 0)
        fprintf(f, "rate gemm_ns_per_flop %.6g\n", c->gemm_ns_per_flop);
    if (c->copy_ns_per_element >= 0)
        fprintf(f, "rate copy_ns_per_element %.6g\n", c->copy_ns_per_element);
    fprintf(f, "# point route width empty_ns share_ns [oversubscribed]\n");
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        for (int i = 0; i < c->count[r]; i++) {
            const par_cost_point *p = &c->points[r][i];
            fprintf(f, "point %s %d", route_names[r], p->width);
            write_ns(f, p->empty_ns);
            write_ns(f, p->share_ns);
            fprintf(f, "%s\n", p->oversubscribed ? " oversubscribed" : "");
        }
    }
    fprintf(f, "end\n");
    bool ok = !ferror(f);
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
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

/* ---- this machine and its cache file ---- */

void par_cpu_identity(char *model, size_t len, int *cpus)
{
    snprintf(model, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) != 0)
                continue;
            const char *colon = strchr(line, ':');
            if (!colon)
                continue;
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            snprintf(model, len, "%s", colon);
            size_t n = strlen(model);
            while (n > 0 && isspace((unsigned char)model[n - 1]))
                model[--n] = '\0';
            break;
        }
        fclose(f);
    }
    *cpus = par_cpu_count();
}

int par_costs_cache_path(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    char base[3072];
    if (xdg && *xdg)
        snprintf(base, sizeof base, "%s", xdg);
    else if (home && *home)
        snprintf(base, sizeof base, "%s/.cache", home);
    else
        return -1;
    char model[128];
    int cpus;
    par_cpu_identity(model, sizeof model, &cpus);
    /* The model as a file name: letters and digits, the rest as '-'. */
    char key[128];
    size_t k = 0;
    for (const char *p = model; *p && k < sizeof key - 1; p++)
        key[k++] = isalnum((unsigned char)*p) ? *p : '-';
    key[k] = '\0';
    int n = snprintf(buf, len, "%s/tela/costs-%s-%d.txt", base, key, cpus);
    return n > 0 && (size_t)n < len ? 0 : -1;
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

double par_rate_gemm_ns_per_flop(void)
{
    double v = active_get()->costs.gemm_ns_per_flop;
    return v > 0 ? v : DEFAULT_GEMM_NS_PER_FLOP;
}

double par_rate_copy_ns_per_element(void)
{
    double v = active_get()->costs.copy_ns_per_element;
    return v > 0 ? v : DEFAULT_COPY_NS_PER_ELEMENT;
}
