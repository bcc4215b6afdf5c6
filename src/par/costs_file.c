/* costs_file.c — the cost table as text: reading and writing the format of
 * docs/costs.md, and where this machine's cached table lives. Kept apart
 * from the model (costs.c) because only start-up and tela-calibrate touch
 * files; the gate never does. */
#include "par/par.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const route_names[TELA_ROUTE_COUNT] = {
    [TELA_ROUTE_TEAM] = "team", [TELA_ROUTE_POOL] = "pool", [TELA_ROUTE_OUTSIDE] = "outside"};

/* ---- reading and writing ---- */

static int fail_why(char *why, size_t len, const char *path, int line, const char *fmt, ...)
{
    char detail[160];
    va_list ap;
    va_start(ap, fmt);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started on the line above */
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
    c->points[route][k] = (par_cost_point){(int)width, empty, share, over};
    c->count[route] = k + 1;
    return 0;
}

int par_costs_read(const char *path, par_costs *out, char *why, size_t why_len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail_why(why, why_len, path, 0, "cannot open: %s", strerror(errno));
    par_costs c;
    memset(&c, 0, sizeof c);
    c.ns_per_flop = c.copy_ns_per_element = -1;
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
            /* "gemm_ns_per_flop": the same rate, as tables written by earlier builds name it. */
            else if (strcmp(fields[1], "ns_per_flop") == 0 ||
                     strcmp(fields[1], "gemm_ns_per_flop") == 0)
                c.ns_per_flop = v;
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
    if (c->ns_per_flop >= 0)
        fprintf(f, "rate ns_per_flop %.6g\n", c->ns_per_flop);
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
