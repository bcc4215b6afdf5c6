/* quick.c — tela-quick: a quick measurement of tela's thread team against libgomp.
 *
 * It holds one tela team and times empty regions on it, back to back and after idle gaps of
 * 100 us, 1 ms and 10 ms, then the same with libgomp in the same process, in interleaved
 * rounds, and prints medians and ranges. Only tela.h is used here; OpenMP is in quick_omp.c. */
#include "tela.h"
#include "quick_omp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Regions per back-to-back sample: enough that the clock's resolution and one odd region do
 * not dominate, few enough that a round stays short. */
#define BACK_TO_BACK_REGIONS 200
/* Untimed regions before each back-to-back sample, so it measures a hot team. */
#define BACK_TO_BACK_PRIMING 20
/* Untimed regions per side before the first round: threads created, pages touched, both
 * runtimes' code in cache. */
#define WARM_UP_REGIONS 2000
/* Nanoseconds the caller sleeps before each side's round. Both runtimes let idle workers spin
 * for a while before they sleep; without this pause the side measured second would share the
 * CPUs with the other side's still-spinning workers. 20 ms is well past either spin phase. */
#define SETTLE_NS 20000000L
/* Default rounds: one round (both sides) takes about 65 ms, so the whole run about 30 s. */
#define DEFAULT_ROUNDS 400
#define DEFAULT_WIDTH  2
/* Widest width accepted on the command line; a typo such as 20000 should not start threads. */
#define MAX_WIDTH 1024

enum side { SIDE_TELA, SIDE_OMP, SIDE_COUNT };

/* A case is one sample per side per round; gap_ns 0 means back to back. */
enum bench_case { CASE_BACK_TO_BACK, CASE_GAP_100US, CASE_GAP_1MS, CASE_GAP_10MS, CASE_COUNT };

static const struct case_info {
    const char *name; /* row label of the table and the CSV */
    long gap_ns;      /* idle time the caller sleeps before the timed region */
} case_infos[CASE_COUNT] = {
    [CASE_BACK_TO_BACK] = {"back-to-back", 0},
    [CASE_GAP_100US] = {"after 100 us gap", 100000L},
    [CASE_GAP_1MS] = {"after 1 ms gap", 1000000L},
    [CASE_GAP_10MS] = {"after 10 ms gap", 10000000L},
};

struct settings {
    int rounds;           /* interleaved rounds; one sample per side and case each */
    int width;            /* members of the tela team and threads of the OpenMP team */
    const char *csv_path; /* summary as CSV, or NULL */
};

/* What the tela side needs to run a region; a held team, so no acquire is timed. */
struct tela_side {
    tela_team *team;
    int width;
    long narrow_regions; /* timed regions that ran narrower than asked (should stay 0) */
};

struct summary {
    double median, min, max; /* microseconds */
};

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* Sleeps to an absolute deadline, so an interrupted sleep resumes rather than restarts. */
static void sleep_ns(long ns)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += ns / 1000000000L;
    deadline.tv_nsec += ns % 1000000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec += 1;
        deadline.tv_nsec -= 1000000000L;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {}
}

static void empty_body(tela_member *self, void *arg)
{
    (void)self;
    (void)arg;
}

static int tela_run_empty(struct tela_side *tela)
{
    return tela_parallel(tela_par_team(tela->team), tela->width, empty_body, NULL);
}

static double tela_empty_region_us(struct tela_side *tela)
{
    double start = now_us();
    int used = tela_run_empty(tela);
    double elapsed = now_us() - start;
    if (used != tela->width)
        tela->narrow_regions++;
    return elapsed;
}

static double tela_back_to_back_us(struct tela_side *tela, int count)
{
    double start = now_us();
    for (int i = 0; i < count; i++) {
        if (tela_run_empty(tela) != tela->width)
            tela->narrow_regions++;
    }
    return (now_us() - start) / count;
}

/* One round of one side: settle, a hot back-to-back sample, then one region after each gap.
 * samples[c] receives this round's value of case c. */
static void run_side_round(enum side side, struct tela_side *tela, int width, double *samples)
{
    sleep_ns(SETTLE_NS);
    for (int c = 0; c < CASE_COUNT; c++) {
        long gap_ns = case_infos[c].gap_ns;
        if (gap_ns == 0) {
            if (side == SIDE_TELA) {
                tela_back_to_back_us(tela, BACK_TO_BACK_PRIMING);
                samples[c] = tela_back_to_back_us(tela, BACK_TO_BACK_REGIONS);
            } else {
                omp_side_back_to_back_us(width, BACK_TO_BACK_PRIMING);
                samples[c] = omp_side_back_to_back_us(width, BACK_TO_BACK_REGIONS);
            }
        } else {
            sleep_ns(gap_ns);
            samples[c] =
                side == SIDE_TELA ? tela_empty_region_us(tela) : omp_side_empty_region_us(width);
        }
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts values in place. */
static struct summary summarize(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    double median =
        count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
    return (struct summary){median, values[0], values[count - 1]};
}

/* Fewer decimals as values grow, so a 10 ms outlier does not widen every column. */
static const char *format_us(double us, char *text, size_t size)
{
    int decimals = us < 10.0 ? 2 : us < 1000.0 ? 1 : 0;
    snprintf(text, size, "%.*f", decimals, us);
    return text;
}

static const char *format_summary(struct summary s, char *text, size_t size)
{
    char median[24], min[24], max[24];
    snprintf(text, size, "%s (%s-%s)", format_us(s.median, median, sizeof median),
             format_us(s.min, min, sizeof min), format_us(s.max, max, sizeof max));
    return text;
}

static void read_cpu_model(char *model, size_t size)
{
    snprintf(model, size, "unknown");
    FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
    if (!cpuinfo)
        return;
    char line[512];
    while (fgets(line, sizeof line, cpuinfo)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *value = strchr(line, ':');
        if (value) {
            value += 1 + strspn(value + 1, " \t");
            snprintf(model, size, "%.*s", (int)strcspn(value, "\n"), value);
        }
        break;
    }
    fclose(cpuinfo);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tela-quick [--rounds N] [--width N] [--csv FILE]\n"
            "  Times empty parallel regions on a held tela team and with libgomp, back to back\n"
            "  and after idle gaps of 100 us, 1 ms, 10 ms, in interleaved rounds.\n"
            "  --rounds N  interleaved rounds (default %d, about 30 s)\n"
            "  --width N   threads per region, the caller included (default %d)\n"
            "  --csv FILE  also write the summary table as CSV\n",
            DEFAULT_ROUNDS, DEFAULT_WIDTH);
}

static int parse_positive(const char *option, const char *text, int max, int *value)
{
    char *end;
    errno = 0;
    long parsed = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || *end != '\0' || parsed < 1 || parsed > max) {
        fprintf(stderr, "tela-quick: %s needs a number from 1 to %d\n", option, max);
        return -1;
    }
    *value = (int)parsed;
    return 0;
}

/* Returns 0 to run, 1 to exit successfully (--help), -1 on a bad command line. */
static int parse_arguments(int argc, char **argv, struct settings *settings)
{
    *settings = (struct settings){DEFAULT_ROUNDS, DEFAULT_WIDTH, NULL};
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "--rounds")) {
            if (parse_positive(option, value, 1000000, &settings->rounds))
                return -1;
            i++;
        } else if (!strcmp(option, "--width")) {
            if (parse_positive(option, value, MAX_WIDTH, &settings->width))
                return -1;
            i++;
        } else if (!strcmp(option, "--csv")) {
            if (!value) {
                fprintf(stderr, "tela-quick: --csv needs a file name\n");
                return -1;
            }
            settings->csv_path = value;
            i++;
        } else {
            fprintf(stderr, "tela-quick: unknown argument '%s'\n", option);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

static int write_csv(const char *path, const struct settings *settings,
                     struct summary results[SIDE_COUNT][CASE_COUNT], int have_omp)
{
    FILE *csv = fopen(path, "w");
    if (!csv) {
        fprintf(stderr, "tela-quick: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(csv, "case,gap_us,width,rounds,tela_median_us,tela_min_us,tela_max_us,"
                 "libgomp_median_us,libgomp_min_us,libgomp_max_us,ratio_tela_libgomp\n");
    for (int c = 0; c < CASE_COUNT; c++) {
        struct summary t = results[SIDE_TELA][c], o = results[SIDE_OMP][c];
        fprintf(csv, "%s,%.0f,%d,%d,%.4f,%.4f,%.4f,", case_infos[c].name,
                case_infos[c].gap_ns * 1e-3, settings->width, settings->rounds, t.median, t.min,
                t.max);
        if (have_omp)
            fprintf(csv, "%.4f,%.4f,%.4f,%.4f\n", o.median, o.min, o.max, t.median / o.median);
        else
            fprintf(csv, ",,,\n");
    }
    if (fclose(csv) != 0) {
        fprintf(stderr, "tela-quick: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static void print_table(struct summary results[SIDE_COUNT][CASE_COUNT], int have_omp)
{
    printf("\n%-18s | %-28s | %-28s | %s\n", "case", "tela median (min-max)",
           "libgomp median (min-max)", "tela/libgomp");
    printf("%.18s-+-%.28s-+-%.28s-+-%.12s\n", "--------------------",
           "------------------------------", "------------------------------", "------------");
    for (int c = 0; c < CASE_COUNT; c++) {
        char tela_text[96], omp_text[96] = "n/a", ratio[32] = "n/a";
        format_summary(results[SIDE_TELA][c], tela_text, sizeof tela_text);
        if (have_omp) {
            format_summary(results[SIDE_OMP][c], omp_text, sizeof omp_text);
            snprintf(ratio, sizeof ratio, "%.2f",
                     results[SIDE_TELA][c].median / results[SIDE_OMP][c].median);
        }
        printf("%-18s | %-28s | %-28s | %s\n", case_infos[c].name, tela_text, omp_text, ratio);
    }
    printf("\ntimes in us per region (CLOCK_MONOTONIC, seen by the calling thread); "
           "ratio < 1: tela is faster\n");
}

int main(int argc, char **argv)
{
    struct settings settings;
    int parsed = parse_arguments(argc, argv, &settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    const int width = settings.width;
    const int have_omp = omp_side_available();

    tela_pool_opts opts = {0};
    opts.width = width;
    tela_pool *pool = tela_pool_create(&opts);
    tela_team *team = pool ? tela_team_acquire(pool, width) : NULL;
    if (!team) {
        fprintf(stderr, "tela-quick: could not get a tela team of width %d\n", width);
        tela_pool_destroy(pool);
        return 1;
    }
    struct tela_side tela = {team, width, 0};

    /* Warm up both sides before anything is timed, and learn what width each really runs. */
    int tela_granted = tela_team_width(team);
    int tela_ran = 0;
    for (int i = 0; i < WARM_UP_REGIONS; i++)
        tela_ran = tela_run_empty(&tela);
    int omp_granted = have_omp ? omp_side_warm_up(width, WARM_UP_REGIONS) : -1;

    char cpu_model[256];
    read_cpu_model(cpu_model, sizeof cpu_model);
    const char *spin_polls = getenv("TELA_SPIN_POLLS");
    printf("tela-quick: empty parallel regions, tela (held team) vs libgomp\n");
    printf("  CPU: %s, %ld CPUs online\n", cpu_model, sysconf(_SC_NPROCESSORS_ONLN));
    printf("  width asked %d: tela team granted %d, its regions ran %d wide; ", width, tela_granted,
           tela_ran);
    if (have_omp)
        printf("libgomp regions ran %d wide\n", omp_granted);
    else
        printf("libgomp not measured\n");
    printf("  tela %s, TELA_SPIN_POLLS=%s\n", tela_version(),
           spin_polls ? spin_polls : "(unset: tela default)");
    printf("  libgomp: %s\n", omp_side_description());
    printf("  %d rounds, interleaved: tela first in even rounds, libgomp first in odd ones;\n"
           "  each side's round starts after a %ld ms sleep so the other side's workers "
           "have stopped spinning\n",
           settings.rounds, SETTLE_NS / 1000000L);
    printf("  back-to-back: time per region over %d consecutive regions (after %d untimed);\n"
           "  gaps: the caller sleeps the gap with clock_nanosleep(CLOCK_MONOTONIC), then times "
           "one region\n",
           BACK_TO_BACK_REGIONS, BACK_TO_BACK_PRIMING);
    if (!have_omp)
        printf("  NOTE: this build has no OpenMP, so only the tela side is measured\n");
    if (tela_ran != width || (have_omp && omp_granted != width))
        printf("  WARNING: a side runs narrower than asked; the comparison is not like for "
               "like\n");
    fflush(stdout);

    double *samples[SIDE_COUNT][CASE_COUNT];
    for (int s = 0; s < SIDE_COUNT; s++) {
        for (int c = 0; c < CASE_COUNT; c++) {
            samples[s][c] = calloc((size_t)settings.rounds, sizeof(double));
            if (!samples[s][c]) {
                fprintf(stderr, "tela-quick: out of memory\n");
                return 1;
            }
        }
    }

    const int show_progress = isatty(STDERR_FILENO);
    for (int round = 0; round < settings.rounds; round++) {
        /* Alternate who goes first, so neither side always follows the other's activity. */
        enum side order[SIDE_COUNT] = {SIDE_TELA, SIDE_OMP};
        if (round % 2) {
            order[0] = SIDE_OMP;
            order[1] = SIDE_TELA;
        }
        for (int k = 0; k < SIDE_COUNT; k++) {
            enum side side = order[k];
            if (side == SIDE_OMP && !have_omp)
                continue;
            double round_samples[CASE_COUNT];
            run_side_round(side, &tela, width, round_samples);
            for (int c = 0; c < CASE_COUNT; c++)
                samples[side][c][round] = round_samples[c];
        }
        if (show_progress)
            fprintf(stderr, "\r  round %d/%d", round + 1, settings.rounds);
    }
    if (show_progress)
        fprintf(stderr, "\r%40s\r", "");

    struct summary results[SIDE_COUNT][CASE_COUNT] = {{{0}}};
    for (int s = 0; s < SIDE_COUNT; s++) {
        if (s == SIDE_OMP && !have_omp)
            continue;
        for (int c = 0; c < CASE_COUNT; c++)
            results[s][c] = summarize(samples[s][c], settings.rounds);
    }
    print_table(results, have_omp);
    if (tela.narrow_regions)
        printf("WARNING: %ld timed tela regions ran narrower than %d\n", tela.narrow_regions,
               width);

    int status = 0;
    if (settings.csv_path) {
        if (write_csv(settings.csv_path, &settings, results, have_omp) == 0)
            printf("summary written to %s\n", settings.csv_path);
        else
            status = 1;
    }

    for (int s = 0; s < SIDE_COUNT; s++)
        for (int c = 0; c < CASE_COUNT; c++)
            free(samples[s][c]);
    tela_team_release(team);
    tela_pool_destroy(pool);
    return status;
}
