/* test_gate — the dispatch cost table, its growth fit, the gate's decisions
 * on a simulated 64-core host (tests/fixtures/epyc7702p-64.costs), table
 * files (round trip, malformed, truncated, another CPU's) and the trace.
 * Links the static library to reach the internal table functions. */
#define _GNU_SOURCE
#include "testutil.h"

#include "gemm/level3.h"
#include "par/par.h"

#include <math.h>
#include <sys/stat.h>

#ifndef TELA_FIXTURE_DIR
#error "TELA_FIXTURE_DIR must name tests/fixtures"
#endif
#define FIXTURE TELA_FIXTURE_DIR "/epyc7702p-64.costs"

/* The step-th estimate of a geometric sweep: first ratio^step ns. */
static double sweep(double first, double ratio, int step)
{
    return first * pow(ratio, step);
}

static par_costs fixture;
static char tmpdir[256];

/* Messages the error handler received, for tests that expect one. */
static char last_message[1024];
static int messages;

static void record_error(int status, const char *where, const char *message, void *context)
{
    (void)status;
    (void)context;
    snprintf(last_message, sizeof last_message, "%s: %s", where, message);
    messages++;
}

static int setup(void **state)
{
    (void)state;
    char why[512];
    if (par_costs_read(FIXTURE, &fixture, why, sizeof why) != 0) {
        fprintf(stderr, "cannot read the fixture: %s\n", why);
        return -1;
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/tela-test-gate-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    tela_set_error_handler(record_error, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static double fixture_cost(tela_route route, int width)
{
    return par_cost_at(&fixture, route, width);
}

/* What a region's sections cost to dispatch at width: the first through its
 * route, the others as barriers of the running team. */
static double fixture_dispatch(tela_route route, int sections, int width)
{
    return fixture_cost(route, width) + (sections - 1) * fixture_cost(TELA_ROUTE_TEAM, width);
}

/* The gate's rule, checked from outside: w pays, and no wider allowed
 * width does. */
static void expect_rule(double estimate, int sections, tela_route route, int max, int w)
{
    if (w > 1)
        assert_true(estimate / w >= TELA_PAYS * fixture_dispatch(route, sections, w));
    for (int wider = (w > 1 ? w + 1 : 2); wider <= max; wider++)
        if (estimate / wider >= TELA_PAYS * fixture_dispatch(route, sections, wider))
            fail_msg("width %d pays for %.0f ns but the gate chose %d", wider, estimate, w);
}

/* ---- the fixture and the built-in table ---- */

static void test_fixture_is_the_builtin_table(void **state)
{
    (void)state;
    par_costs builtin;
    par_costs_builtin(&builtin);
    assert_string_equal(fixture.cpu_model, builtin.cpu_model);
    assert_int_equal(fixture.cpus, 64);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        assert_int_equal(fixture.count[r], builtin.count[r]);
        for (int i = 0; i < fixture.count[r]; i++) {
            assert_int_equal(fixture.points[r][i].width, builtin.points[r][i].width);
            assert_true(fabs(par_cost_at(&fixture, (tela_route)r, fixture.points[r][i].width) -
                             par_cost_at(&builtin, (tela_route)r, builtin.points[r][i].width)) <
                        0.01);
        }
    }
}

/* ---- gate decisions at 64 (simulation) ---- */

static void test_gemm74_runs_at_the_formula_width(void **state)
{
    (void)state;
    /* A 74^3 double GEMM, 26 us serial, one section. Team: 26/4 = 6.5 us
     * covers 3 x 1.99; 26/5 = 5.2 does not cover 3 x 2.16 (5 interpolated
     * between 4 and 6). Pool: 6.5 >= 3 x 1.03, 5.2 < 3 x 1.905. Outside:
     * even 13 us < 3 x 4.49: serial. */
    assert_int_equal(par_gate_width_with(&fixture, 26000, 1, TELA_ROUTE_TEAM, 64), 4);
    assert_int_equal(par_gate_width_with(&fixture, 26000, 1, TELA_ROUTE_POOL, 64), 4);
    assert_int_equal(par_gate_width_with(&fixture, 26000, 1, TELA_ROUTE_OUTSIDE, 64), 1);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++)
        expect_rule(26000, 1, (tela_route)r, 64,
                    par_gate_width_with(&fixture, 26000, 1, (tela_route)r, 64));
    /* Two sections halve what each may cost: team 26 us then pays at 2 only
     * (13 >= 3 x 2 x 1.42 = 8.52; 26/3 = 8.7 < 3 x 2 x 1.705). */
    assert_int_equal(par_gate_width_with(&fixture, 26000, 2, TELA_ROUTE_TEAM, 64), 2);
}

static void test_45us_region_gives_no_member_too_little(void **state)
{
    (void)state;
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        for (int sections = 1; sections <= 3; sections++) {
            int w = par_gate_width_with(&fixture, 45000, sections, (tela_route)r, 64);
            expect_rule(45000, sections, (tela_route)r, 64, w);
        }
    }
    /* The numbers: team 45/6 = 7.5 >= 6.99, 45/7 = 6.4 < 3 x 2.535. */
    assert_int_equal(par_gate_width_with(&fixture, 45000, 1, TELA_ROUTE_TEAM, 64), 6);
}

static void test_gemm2048_runs_at_64(void **state)
{
    (void)state;
    /* 2 x 2048^3 flops at 100 GFLOP/s: 172 ms, 2 sections per kc = 256
     * block: 16. From outside: 172/64 = 2.7 ms >= 3 x (81.2 + 15 x 9.3) us. */
    double estimate = 2.0 * 2048 * 2048 * 2048 * 0.01;
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        assert_int_equal(par_gate_width_with(&fixture, estimate, 2 * 8, (tela_route)r, 64), 64);
        expect_rule(estimate, 16, (tela_route)r, 64, 64);
    }
}

static void test_width_never_exceeds_allowed_and_grows_with_work(void **state)
{
    (void)state;
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        for (int max = 1; max <= 96; max += 5) {
            int previous = 1;
            for (int step = 0; sweep(100, 1.37, step) < 1e9; step++) {
                const double estimate = sweep(100, 1.37, step);
                int w = par_gate_width_with(&fixture, estimate, 1, (tela_route)r, max);
                assert_true(w >= 1 && w <= (max > 1 ? max : 1));
                if (w < previous)
                    fail_msg("route %d max %d: %.0f ns gave width %d after %d for less work", r,
                             max, estimate, w, previous);
                previous = w;
            }
        }
    }
    /* Nothing, NaN, a negative estimate: serial. */
    assert_int_equal(par_gate_width_with(&fixture, 0, 1, TELA_ROUTE_TEAM, 64), 1);
    assert_int_equal(par_gate_width_with(&fixture, NAN, 1, TELA_ROUTE_TEAM, 64), 1);
    assert_int_equal(par_gate_width_with(&fixture, -5, 1, TELA_ROUTE_TEAM, 64), 1);
}

static void test_active_table_gate_matches(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(FIXTURE), TELA_OK);
    assert_string_equal(tela_costs_source(), FIXTURE);
    for (int step = 0; sweep(1000, 2.1, step) < 1e9; step++) {
        const double estimate = sweep(1000, 2.1, step);
        for (int r = 0; r < TELA_ROUTE_COUNT; r++)
            assert_int_equal(tela_gate_width(estimate, 1, (tela_route)r, 64),
                             par_gate_width_with(&fixture, estimate, 1, (tela_route)r, 64));
    }
    assert_true(fabs(tela_dispatch_cost(TELA_ROUTE_OUTSIDE, 64) - 81190) < 1);
    assert_true(tela_dispatch_cost(TELA_ROUTE_TEAM, 1) == 0);
    /* Unlimited max width: bounded by the cheapest cost, still exact. */
    assert_int_equal(tela_gate_width(26000, 1, TELA_ROUTE_TEAM, 1 << 30), 4);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* ---- extrapolation ---- */

static void test_fit_on_2_to_16_predicts_32_and_64_within_2x(void **state)
{
    (void)state;
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        par_costs part = fixture;
        int kept = 0;
        for (int i = 0; i < fixture.count[r]; i++)
            if (fixture.points[r][i].width <= 16)
                part.points[r][kept++] = fixture.points[r][i];
        part.count[r] = kept;
        assert_int_equal(kept, 6);
        for (int w = 32; w <= 64; w += 32) {
            double predicted = par_cost_at(&part, (tela_route)r, w);
            double measured = fixture_cost((tela_route)r, w);
            printf("route %d width %d: predicted %.2f us, measured %.2f us (x%.2f)\n", r, w,
                   predicted / 1e3, measured / 1e3, predicted / measured);
            assert_true(predicted <= 2 * measured && predicted >= measured / 2);
        }
        /* It keeps growing beyond the measured widths. */
        for (int w = 17; w < 200; w++)
            assert_true(par_cost_at(&part, (tela_route)r, w + 1) >=
                        par_cost_at(&part, (tela_route)r, w));
    }
}

static void test_fit_of_falling_points_still_grows(void **state)
{
    (void)state;
    par_cost_point falling[3] = {{2, 3000, -1, false}, {3, 2500, -1, false}, {4, 2000, -1, false}};
    par_costs c;
    memset(&c, 0, sizeof c);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        memcpy(c.points[r], falling, sizeof falling);
        c.count[r] = 3;
    }
    assert_true(par_cost_at(&c, TELA_ROUTE_TEAM, 8) > 2000);
    assert_true(par_cost_at(&c, TELA_ROUTE_TEAM, 64) > par_cost_at(&c, TELA_ROUTE_TEAM, 8));
}

/* ---- files ---- */

static void test_round_trip(void **state)
{
    (void)state;
    par_costs c = fixture;
    c.ns_per_flop = 0.0123;
    c.copy_ns_per_element = 0.25;
    c.points[TELA_ROUTE_POOL][2].oversubscribed = true;
    char path[512];
    snprintf(path, sizeof path, "%s/round.costs", tmpdir);
    assert_int_equal(par_costs_write(&c, path), 0);
    par_costs back;
    char why[512];
    assert_int_equal(par_costs_read(path, &back, why, sizeof why), 0);
    assert_string_equal(back.cpu_model, c.cpu_model);
    assert_int_equal(back.cpus, c.cpus);
    assert_true(fabs(back.ns_per_flop - 0.0123) < 1e-9);
    assert_true(fabs(back.copy_ns_per_element - 0.25) < 1e-9);
    for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
        assert_int_equal(back.count[r], c.count[r]);
        for (int i = 0; i < c.count[r]; i++) {
            const par_cost_point *a = &c.points[r][i], *b = &back.points[r][i];
            assert_int_equal(a->width, b->width);
            assert_true(fabs(a->empty_ns - b->empty_ns) < 0.06);
            assert_true(fabs(a->share_ns - b->share_ns) < 0.06);
            assert_int_equal(a->oversubscribed, b->oversubscribed);
        }
    }
}

static void expect_rejected(const char *text, const char *reason)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.costs", tmpdir);
    write_text(path, text);
    par_costs c;
    char why[512] = "";
    assert_int_equal(par_costs_read(path, &c, why, sizeof why), -1);
    if (!strstr(why, reason))
        fail_msg("expected '%s' in the reason, got '%s'", reason, why);
    /* Through the public call: refused, reported, the table unchanged. */
    const char *before = tela_costs_source();
    messages = 0;
    assert_int_equal(tela_costs_load(path), TELA_EINVAL);
    assert_int_equal(messages, 1);
    assert_non_null(strstr(last_message, reason));
    assert_string_equal(tela_costs_source(), before);
}

#define GOOD_HEAD "tela-costs 1\ncpu_model X\ncpus 2\n"

static void test_malformed_and_truncated_files_are_rejected(void **state)
{
    (void)state;
    expect_rejected("", "empty file");
    expect_rejected("tela-costs 2\n", "not a tela cost table");
    expect_rejected(GOOD_HEAD "point team 2 - 1420.0\n", "truncated");
    expect_rejected(GOOD_HEAD "point team 2 - 14", "truncated"); /* cut inside a line */
    expect_rejected(GOOD_HEAD "point team 2 - abc\nend\n", "bad costs");
    expect_rejected(GOOD_HEAD "point team 1 - 100\nend\n", "bad width");
    expect_rejected(GOOD_HEAD "point bus 2 - 100\nend\n", "unknown route");
    expect_rejected(GOOD_HEAD "point team 4 - 100\npoint team 2 - 90\nend\n", "must rise");
    expect_rejected(GOOD_HEAD "point team 2 - -\nend\n", "bad costs");
    expect_rejected(GOOD_HEAD "point team 2 - 100 extra\nend\n", "unexpected");
    expect_rejected(GOOD_HEAD "frobnicate 3\nend\n", "unknown line");
    expect_rejected(GOOD_HEAD "end\n", "no points");
    expect_rejected("tela-costs 1\ncpus 2\npoint team 2 - 100\nend\n", "cpu_model");
    expect_rejected(GOOD_HEAD "point team 2 - 100\nend\npoint team 3 - 100\n", "after 'end'");
    char missing[512];
    snprintf(missing, sizeof missing, "%s/none.costs", tmpdir);
    messages = 0;
    assert_int_equal(tela_costs_load(missing), TELA_EINVAL);
    assert_non_null(strstr(last_message, "cannot open"));
}

static void test_bad_tela_costs_falls_back_to_builtin(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/broken.costs", tmpdir);
    write_text(path, GOOD_HEAD "point team 2 - 1420.0\n");
    setenv("TELA_COSTS", path, 1);
    messages = 0;
    assert_int_equal(tela_costs_load(NULL), TELA_OK); /* the start-up choice again */
    assert_string_equal(tela_costs_source(), "built-in");
    assert_int_equal(messages, 1);
    assert_non_null(strstr(last_message, "TELA_COSTS ignored"));
    assert_non_null(strstr(last_message, "truncated"));
    /* A good one is taken, whatever CPU it describes (simulation). */
    setenv("TELA_COSTS", FIXTURE, 1);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    assert_string_equal(tela_costs_source(), FIXTURE);
    unsetenv("TELA_COSTS");
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

static void test_cache_file_of_another_cpu_is_ignored(void **state)
{
    (void)state;
    unsetenv("TELA_COSTS");
    char cache[512], path[1024];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("XDG_CACHE_HOME", cache, 1);
    assert_int_equal(par_costs_cache_path(path, sizeof path), 0);
    assert_true(strncmp(path, cache, strlen(cache)) == 0);
    char dir[600];
    snprintf(dir, sizeof dir, "%s/tela", cache);
    assert_int_equal(mkdir(cache, 0700), 0);
    assert_int_equal(mkdir(dir, 0700), 0);

    par_costs other = fixture; /* a 64-core EPYC's: not this machine */
    assert_int_equal(par_costs_write(&other, path), 0);
    messages = 0;
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    assert_string_equal(tela_costs_source(), "built-in");
    assert_int_equal(messages, 0); /* quietly */

    par_costs mine = fixture;
    par_cpu_identity(mine.cpu_model, sizeof mine.cpu_model, &mine.cpus);
    assert_int_equal(par_costs_write(&mine, path), 0);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    assert_string_equal(tela_costs_source(), path);

    unsetenv("XDG_CACHE_HOME");
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* ---- gated regions on real teams ---- */

struct seen {
    _Atomic int calls;
    _Atomic int width;
};

static void record_body(tela_member *self, void *arg)
{
    struct seen *s = arg;
    atomic_fetch_add(&s->calls, 1);
    atomic_store(&s->width, tela_width(self));
}

static void test_gated_regions_run_at_the_gates_width(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(FIXTURE), TELA_OK);
    tela_pool *pool = tu_pool_of_width(4);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 4);
    assert_non_null(team);
    assert_int_equal(tela_team_width(team), 4);

    /* 26 us: team gate says 4 (the whole team). */
    struct seen s = {0, 0};
    assert_int_equal(tela_parallel_gated(tela_par_team(team), "t", 26000, 1, record_body, &s), 4);
    assert_int_equal(atomic_load(&s.calls), 4);
    /* 13 us with 1 section: 13/2 = 6.5 >= 4.26, 13/3 = 4.3 < 5.1: a sub-team
     * of 2; members 2 and 3 are not woken. */
    tela_stats before = tu_stats();
    memset(&s, 0, sizeof s);
    assert_int_equal(tela_parallel_gated(tela_par_team(team), "t", 13000, 1, record_body, &s), 2);
    assert_int_equal(atomic_load(&s.calls), 2);
    assert_int_equal(atomic_load(&s.width), 2);
    tela_stats after = tu_stats();
    assert_int_equal(after.region_wakeups - before.region_wakeups, 1);
    /* 3 us: serial, nobody woken. */
    memset(&s, 0, sizeof s);
    before = tu_stats();
    assert_int_equal(tela_parallel_gated(tela_par_team(team), "t", 3000, 1, record_body, &s), 1);
    assert_int_equal(atomic_load(&s.calls), 1);
    assert_int_equal(tu_stats().region_wakeups, before.region_wakeups);
    /* The caller's limits still apply. */
    assert_int_equal(
        tela_parallel_gated(tela_par_limit(tela_par_team(team), 3), "t", 1e9, 1, record_body, &s),
        3);
    int previous = tela_set_num_threads_local(2);
    assert_int_equal(tela_parallel_gated(tela_par_team(team), "t", 1e9, 1, record_body, &s), 2);
    tela_set_num_threads_local(previous);
    assert_int_equal(tela_team_release(team), 0);

    /* Pool route: leased at the gate's width. */
    assert_int_equal(tela_parallel_gated(tela_par_pool(pool), "p", 26000, 1, record_body, &s), 4);
    assert_int_equal(tela_parallel_gated(tela_par_pool(pool), "p", 3000, 1, record_body, &s), 1);
    tela_pool_destroy(pool);
    /* Outside route: 26 us does not pay from outside the default pool. */
    assert_int_equal(
        tela_parallel_gated(tela_par_limit(tela_par_auto(), 4), "a", 26000, 1, record_body, &s), 1);
    assert_int_equal(tela_parallel_gated(tela_par_seq(), "s", 1e12, 1, record_body, &s), 1);
    assert_int_equal(tela_parallel_gated(tela_par_seq(), "s", 1e12, 1, NULL, &s), TELA_EINVAL);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* par_may_split lets a routine whose largest region cannot pay run all its
 * steps serially: it must never refuse a region the gate would split. */
static void test_may_split_never_refuses_what_the_gate_splits(void **state)
{
    (void)state;
    static const char *const tables[] = {FIXTURE, NULL};
    for (int t = 0; t < 2; t++) {
        assert_int_equal(tela_costs_load(tables[t]), TELA_OK);
        for (int r = 0; r < TELA_ROUTE_COUNT; r++) {
            bool refused_some = false;
            for (int step = 0; sweep(100, 1.1, step) < 1e9; step++) {
                const double e = sweep(100, 1.1, step);
                const bool may = par_gate_may_pay((tela_route)r, e);
                if (tela_gate_width(e, 1, (tela_route)r, 64) >= 2 && !may)
                    fail_msg("route %d, %.0f ns: the gate splits it, may_pay says no", r, e);
                refused_some |= !may;
            }
            assert_true(refused_some); /* 100 ns never pays */
        }
    }
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    assert_false(par_may_split(tela_par_team(team), 100.0));
    assert_true(par_may_split(tela_par_team(team), 1e9));
    assert_true(par_may_split(tela_par_pool(pool), 1e9));
    assert_false(par_may_split(tela_par_limit(tela_par_team(team), 1), 1e9));
    assert_false(par_may_split(tela_par_seq(), 1e12));
    assert_true(par_may_split(tela_par_team(NULL), 1.0)); /* the region reports it */
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
}

/* A small triangle runs far below the GEMM rate (its diagonal blocks, B's packing): trsm tells
 * the gate that, so a solve of order 80 on 80 columns, 1.1-1.2x faster on two members than on
 * one (docs/gemm.md, "What a triangle tells the gate"), gets the second on the fixture's costs,
 * where its flops alone at the rate (5.1 us against the 8.5 us a region needs at 2) did not. */
static void test_small_trsm_tells_the_gate_its_diagonal_blocks(void **state)
{
    (void)state;
    enum { N = 80 };
    const size_t elements = (size_t)N * N;
    char path[512];
    snprintf(path, sizeof path, "%s/trsm-trace.txt", tmpdir);
    assert_int_equal(tela_costs_load(FIXTURE), TELA_OK);
    double *a = tu_random_array(elements, 7), *b = tu_random_array(elements, 8),
           *serial = tu_random_array(elements, 8);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(serial);
    for (int i = 0; i < N; i++)
        a[i + i * N] = 4.0 + fabs(a[i + i * N]);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    assert_int_equal(tela_team_width(team), 2);
    par_trace_open(path);
    assert_int_equal(tela_dtrsm(tela_par_team(team), 'L', 'L', 'N', 'N', N, N, 1.0, a, N, b, N), 0);
    par_trace_open(NULL);
    assert_int_equal(tela_dtrsm(tela_par_seq(), 'L', 'L', 'N', 'N', N, N, 1.0, a, N, serial, N), 0);
    assert_memory_equal(b, serial, sizeof(double) * elements);

    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int solves = 0;
    const double flops_ns = (double)N * N * N * par_rate_ns_per_flop();
    while (fgets(line, sizeof line, f)) {
        double estimate;
        int width;
        if (sscanf(line, "kernel=dtrsm estimate_ns=%lf sections=%*d route=team allowed=2 width=%d",
                   &estimate, &width) != 2)
            continue;
        solves++;
        assert_true(fabs(estimate - level3_tri_estimate_ns(true, true, N, N)) <= 1.0);
        assert_true(estimate >= 1.25 * flops_ns);
        assert_int_equal(width, 2);
    }
    fclose(f);
    assert_int_equal(solves, 1);
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    free(a);
    free(b);
    free(serial);
}

/* ---- the trace ---- */

#define TRACE_THREADS 8
#define TRACE_REGIONS 200

struct tracer {
    pthread_t thread;
    int index;
    tela_pool *pool;
};

static void empty_body(tela_member *self, void *arg)
{
    (void)self;
    (void)arg;
}

static void *trace_thread(void *arg)
{
    struct tracer *t = arg;
    char name[16];
    snprintf(name, sizeof name, "k%d", t->index);
    for (int i = 0; i < TRACE_REGIONS; i++) {
        /* Alternate estimates so some regions are serial and some parallel. */
        double estimate = i % 2 ? 1e3 : 1e8;
        tela_par par = i % 3 == 0 ? tela_par_pool(t->pool) : tela_par_seq();
        if (tela_parallel_gated(par, name, estimate, 1, empty_body, NULL) < 1)
            return (void *)1;
    }
    return NULL;
}

static void test_trace_lines_are_whole_under_concurrency(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/trace.txt", tmpdir);
    par_trace_open(path);
    assert_true(par_trace_on());
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    struct tracer threads[TRACE_THREADS];
    for (int i = 0; i < TRACE_THREADS; i++) {
        threads[i].index = i;
        threads[i].pool = pool;
        assert_int_equal(pthread_create(&threads[i].thread, NULL, trace_thread, &threads[i]), 0);
    }
    for (int i = 0; i < TRACE_THREADS; i++) {
        void *result;
        pthread_join(threads[i].thread, &result);
        assert_null(result);
    }
    par_trace_open(NULL);
    assert_false(par_trace_on());
    tela_pool_destroy(pool);

    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    int per_kernel[TRACE_THREADS] = {0}, lines = 0;
    while (fgets(line, sizeof line, f)) {
        lines++;
        int k, sections, allowed, width;
        double estimate, wall;
        char route[16];
        int end = 0;
        int got = sscanf(line,
                         "kernel=k%d estimate_ns=%lf sections=%d route=%15s allowed=%d width=%d "
                         "wall_ns=%lf%n",
                         &k, &estimate, &sections, route, &allowed, &width, &wall, &end);
        if (got != 7 || line[end] != '\n')
            fail_msg("malformed trace line %d: %s", lines, line);
        assert_true(k >= 0 && k < TRACE_THREADS);
        per_kernel[k]++;
        assert_int_equal(sections, 1);
        assert_true(width >= 1 && width <= allowed);
        assert_true(wall >= 0);
        assert_true(strcmp(route, "pool") == 0 || strcmp(route, "seq") == 0);
        if (estimate < 1e4)
            assert_int_equal(width, 1);
    }
    fclose(f);
    assert_int_equal(lines, TRACE_THREADS * TRACE_REGIONS);
    for (int k = 0; k < TRACE_THREADS; k++)
        assert_int_equal(per_kernel[k], TRACE_REGIONS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_is_the_builtin_table),
        cmocka_unit_test(test_gemm74_runs_at_the_formula_width),
        cmocka_unit_test(test_45us_region_gives_no_member_too_little),
        cmocka_unit_test(test_gemm2048_runs_at_64),
        cmocka_unit_test(test_width_never_exceeds_allowed_and_grows_with_work),
        cmocka_unit_test(test_active_table_gate_matches),
        cmocka_unit_test(test_fit_on_2_to_16_predicts_32_and_64_within_2x),
        cmocka_unit_test(test_fit_of_falling_points_still_grows),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_malformed_and_truncated_files_are_rejected),
        cmocka_unit_test(test_bad_tela_costs_falls_back_to_builtin),
        cmocka_unit_test(test_cache_file_of_another_cpu_is_ignored),
        cmocka_unit_test(test_gated_regions_run_at_the_gates_width),
        cmocka_unit_test(test_may_split_never_refuses_what_the_gate_splits),
        cmocka_unit_test(test_small_trsm_tells_the_gate_its_diagonal_blocks),
        cmocka_unit_test(test_trace_lines_are_whole_under_concurrency),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
