/* peers.c — tela-peers: tela's level-3 kernels against two peers, OpenBLAS and BLIS, on the same
 * problems in one process and in interleaved rounds, so that every side sees the same machine
 * state. Both peers are loaded with dlmopen into namespaces of their own (they export the CBLAS
 * names libtela does) and run at their best kernels for the CPU; the problems, tela's calls and
 * the agreement check are tela-bench's own (tela_bench_problem.h). */
#include "peak.h"
#include "tela.h"
#include "tela_bench_common.h"
#include "tela_bench_openblas.h"
#include "tela_bench_problem.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

/* The name the command line's messages start with. */
#define PROGRAM "tela-peers"
/* Exit status when OpenBLAS cannot be loaded: ctest's SKIP_RETURN_CODE. BLIS is optional. */
#define EXIT_SKIPPED      77
#define MAX_SIZES         32
#define MAX_THREAD_COUNTS 8
#define MAX_THREADS       256
#define MAX_SIZE          16384
#define DEFAULT_ROUNDS    7
/* A timed batch lasts at least this long: the clock's resolution and a wake-up are noise. */
#define DEFAULT_BATCH_MS 5.0
#define MAX_CALLS        1000000L
/* Calls run this long per side before the rounds; the fastest sets the side's batch size. */
#define CALIBRATION_NS 5000000LL
/* Two correct blockings differ by about 0.1 in these units; a wrong result by many orders. */
#define DEFAULT_TOLERANCE 10.0
/* OpenBLAS's workers spin about 0.13 s after a call and take a CPU from whoever runs next on a
 * small machine, so each round waits up to this long for the other threads to go idle. */
#define DEFAULT_SETTLE_MAX_MS 1000
/* Other processes using more than this share of the CPUs during a table get a warning, if they
 * used enough CPU time for /proc/stat's 10 ms ticks to tell (a short table reads a few percent
 * either way). */
#define BUSY_MACHINE_FRACTION 0.05
#define BUSY_MACHINE_MIN_S    0.1
/* bli_arch_string's table ends with "generic" (BLIS 0.9's does); more ids than this would mean
 * a table we do not understand. */
#define MAX_BLIS_ARCHS 64

static const int default_sizes[] = {64, 128, 256, 512, 1024, 2048};
static const enum tb_routine peer_routines[] = {TB_GEMM, TB_TRMM, TB_SYRK, TB_SYMM, TB_SYR2K};
#define PEER_ROUTINE_COUNT (int)(sizeof peer_routines / sizeof peer_routines[0])

enum side { SIDE_TELA, SIDE_OPENBLAS, SIDE_BLIS, SIDE_COUNT };
static const char *const side_labels[SIDE_COUNT] = {"tela", "OpenBLAS", "BLIS"};

/* cblas_dsymm and cblas_dsyr2k; the other signatures are tela_bench_openblas.h's. */
typedef void (*peer_dsymm_fn)(int layout, int side, int uplo, int m, int n, double alpha,
                              const double *a, int lda, const double *b, int ldb, double beta,
                              double *c, int ldc);
typedef void (*peer_dsyr2k_fn)(int layout, int uplo, int trans, int n, int k, double alpha,
                               const double *a, int lda, const double *b, int ldb, double beta,
                               double *c, int ldc);

/* A peer's CBLAS entry points, found with dlsym in its own namespace. */
struct peer {
    tb_cblas_dgemm_fn dgemm;
    tb_cblas_dtrxm_fn dtrmm;
    tb_cblas_dsyrk_fn dsyrk;
    peer_dsymm_fn dsymm;
    peer_dsyr2k_fn dsyr2k;
};

/* BLIS's own API, as 0.9 declares it: dim_t and gint_t are 64-bit, arch_t an enum. */
struct blis {
    void *handle;
    char path[PATH_MAX];
    long namespace_id;
    void (*init)(void);                 /* bli_init: first, since with BLIS_ARCH_TYPE set,
                                           bli_arch_query_id aborts before it */
    int (*arch_query_id)(void);         /* bli_arch_query_id */
    const char *(*arch_string)(int id); /* bli_arch_string */
    const char *(*version)(void);       /* bli_info_get_version_str */
    int64_t (*blas_int_size)(void);     /* bli_info_get_blas_int_type_size: CBLAS's int */
    void (*set_num_threads)(int64_t n); /* bli_thread_set_num_threads */
    int64_t (*get_num_threads)(void);   /* bli_thread_get_num_threads */
    char arch_origin[192];              /* where BLIS_ARCH_TYPE came from, for the header */
};

struct settings {
    enum tb_routine routines[PEER_ROUTINE_COUNT];
    int routine_count;
    char trans[TB_MAX_TRANS][2];
    int trans_count;
    int sizes[MAX_SIZES];
    int size_count;
    int threads[MAX_THREAD_COUNTS];
    int thread_count;
    int rounds;
    double batch_ms;
    double tolerance;
    int settle_max_ms;
    const char *openblas;  /* --openblas PATH, or NULL */
    const char *coretype;  /* --openblas-coretype, or NULL: the best for the CPU */
    const char *blis;      /* --blis PATH, or NULL */
    const char *blis_arch; /* --blis-arch NAME, or NULL */
};

/* Everything the run shares. */
struct run {
    struct settings settings;
    struct tb_openblas openblas;
    struct blis blis;
    struct peer peers[SIDE_COUNT];           /* [SIDE_OPENBLAS], [SIDE_BLIS] */
    int sides;                               /* 3 with BLIS, 2 without */
    struct fma_peak peak_per_core;           /* measured FMA peak on one thread */
    struct fma_peak peak[MAX_THREAD_COUNTS]; /* ... at each entry of settings.threads */
    tela_par par;                            /* tela's policy for the thread count being run */
    int checks, failures;                    /* agreement checks made, and failed */
    int settle_timeouts;                     /* rounds started with other threads still busy */
    double largest;                          /* the largest diff, NaN once one was NaN */
    char largest_at[96];                     /* where it was */
};

/* ---- the peers ------------------------------------------------------------------------------ */

/* glibc keeps one cache of thread stacks for all link-map namespaces, and when pthread_create in
 * BLIS's namespace reuses a cached stack it frees the old thread's dynamic TLS with that
 * namespace's free, though ld.so allocated it with the program's malloc: AddressSanitizer aborts
 * on it, and without it a chunk of one heap lands in another's free lists. BLIS 0.9 creates its
 * threads in every call, so tela-peers runs with the cache off (each such thread then maps a
 * fresh stack): it executes itself again with the tunable added, unless the tunable is set. */
#define STACK_CACHE_TUNABLE "glibc.pthread.stack_cache_size"

static void exec_without_stack_cache(char **argv)
{
    const char *given = getenv("GLIBC_TUNABLES");
    if (given && strstr(given, STACK_CACHE_TUNABLE "="))
        return;
    char value[1024];
    snprintf(value, sizeof value, "%s%s" STACK_CACHE_TUNABLE "=0", given ? given : "",
             given && *given ? ":" : "");
    setenv("GLIBC_TUNABLES", value, 1);
    execv("/proc/self/exe", argv);
    /* On failure the run goes on with the cache; the header says so. */
}

/* Whether glibc's stack cache is off, as exec_without_stack_cache asks. */
static int stack_cache_off(void)
{
    const char *given = getenv("GLIBC_TUNABLES");
    return given && strstr(given, STACK_CACHE_TUNABLE "=0") != NULL;
}

/* A function pointer to fill from a library, and the name it has there. */
struct symbol {
    const char *name;
    void *function;
    size_t size;
};

/* tb_find_symbol of each of count symbols; the name of the first one missing, or NULL. */
static const char *find_symbols(void *handle, const struct symbol *symbols, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (!tb_find_symbol(handle, symbols[i].name, symbols[i].function, symbols[i].size))
            return symbols[i].name;
    }
    return NULL;
}

/* The CBLAS entry points both peers export under the same names. */
static int find_cblas(void *handle, struct peer *peer, const char **missing)
{
    const struct symbol symbols[] = {
        {"cblas_dgemm", &peer->dgemm, sizeof peer->dgemm},
        {"cblas_dtrmm", &peer->dtrmm, sizeof peer->dtrmm},
        {"cblas_dsyrk", &peer->dsyrk, sizeof peer->dsyrk},
        {"cblas_dsymm", &peer->dsymm, sizeof peer->dsymm},
        {"cblas_dsyr2k", &peer->dsyr2k, sizeof peer->dsyr2k},
    };
    *missing = find_symbols(handle, symbols, sizeof symbols / sizeof symbols[0]);
    return *missing ? -1 : 0;
}

static int blis_open(struct blis *blis, const char *file)
{
    memset(blis, 0, sizeof *blis);
    blis->handle = dlmopen(LM_ID_NEWLM, file, RTLD_NOW | RTLD_LOCAL);
    if (!blis->handle)
        return -1;
    const struct symbol symbols[] = {
        {"bli_init", &blis->init, sizeof blis->init},
        {"bli_arch_query_id", &blis->arch_query_id, sizeof blis->arch_query_id},
        {"bli_arch_string", &blis->arch_string, sizeof blis->arch_string},
        {"bli_info_get_version_str", &blis->version, sizeof blis->version},
        {"bli_info_get_blas_int_type_size", &blis->blas_int_size, sizeof blis->blas_int_size},
        {"bli_thread_set_num_threads", &blis->set_num_threads, sizeof blis->set_num_threads},
        {"bli_thread_get_num_threads", &blis->get_num_threads, sizeof blis->get_num_threads},
    };
    if (find_symbols(blis->handle, symbols, sizeof symbols / sizeof symbols[0])) {
        dlclose(blis->handle);
        blis->handle = NULL;
        return -1;
    }
    Lmid_t namespace_id = LM_ID_BASE;
    if (dlinfo(blis->handle, RTLD_DI_LMID, &namespace_id) == 0)
        blis->namespace_id = (long)namespace_id;
    if (!realpath(file, blis->path))
        snprintf(blis->path, sizeof blis->path, "%s", file);
    return 0;
}

/* 1 if text is a decimal integer, as BLIS 0.9 wants BLIS_ARCH_TYPE. */
static int is_number(const char *text)
{
    char *end = NULL;
    strtol(text, &end, 10);
    return end != text && *end == '\0';
}

/* The id of configuration name in BLIS's table (a number is taken as the id), or -1. */
static int blis_arch_id(const struct blis *blis, const char *name)
{
    if (is_number(name)) {
        const long number = strtol(name, NULL, 10);
        return number >= 0 && number < MAX_BLIS_ARCHS ? (int)number : -1;
    }
    for (int id = 0; id < MAX_BLIS_ARCHS; id++) {
        const char *known = blis->arch_string(id);
        if (known && !strcasecmp(known, name))
            return id;
        if (!known || !strcmp(known, "generic"))
            break;
    }
    return -1;
}

/* In a child process, loads file with BLIS_ARCH_TYPE set to name's id (name NULL: the
 * environment as it is) and returns the id BLIS then reports, or -1 if name is unknown or BLIS
 * aborted: BLIS ends the process when the variable names a configuration its build lacks. */
static int blis_probe(const char *file, const char *name)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const int quiet = open("/dev/null", O_WRONLY);
        if (quiet >= 0)
            dup2(quiet, STDERR_FILENO);
        struct blis blis;
        int id = -1;
        if (blis_open(&blis, file) == 0) {
            if (name && (id = blis_arch_id(&blis, name)) >= 0) {
                char value[16];
                snprintf(value, sizeof value, "%d", id);
                setenv("BLIS_ARCH_TYPE", value, 1);
            }
            /* A second namespace, so that BLIS's libc starts from the environment just set. */
            if ((!name || id >= 0) && blis_open(&blis, file) == 0) {
                blis.init();
                id = blis.arch_query_id();
            }
        }
        if (write(fds[1], &id, sizeof id) != (ssize_t)sizeof id)
            _exit(1);
        _exit(0);
    }
    close(fds[1]);
    int id = -1;
    if (pid < 0 || read(fds[0], &id, sizeof id) != (ssize_t)sizeof id)
        id = -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? id : -1;
}

/* The configuration named for this CPU: BLIS 0.9 runs its generic kernels on CPUs it does not
 * know (AMD Zen 4 and 5 among them), an order of magnitude below their FMA peak. */
static const char *blis_arch_for_cpu(void)
{
    switch (tb_cpu_isa()) {
    case TB_ISA_AVX512:
        return "skx";
    case TB_ISA_AVX2:
        return __builtin_cpu_is("amd") ? "zen3" : "haswell";
    case TB_ISA_OTHER:
        break;
    }
    return NULL;
}

/* Loads BLIS (settings' path, else the pthreads build first) with the configuration chosen:
 * --blis-arch, else BLIS_ARCH_TYPE from the environment, else blis_arch_for_cpu(). BLIS 0.9
 * reads BLIS_ARCH_TYPE as a number (strtol: any name reads as 0, skx), so a name is turned into
 * its id through bli_arch_string, in a child process that also tries it. The variable goes into
 * the process's environment with setenv before dlmopen: the new namespace's libc starts from
 * the environment current then. Returns 0, or -1 with why filled in. */
static int blis_load(struct run *run, char *why, size_t why_size)
{
    static const char *const candidates[] = {
#ifdef TB_MULTIARCH
        "/usr/lib/" TB_MULTIARCH "/blis-pthread/libblis.so.4",
        "/usr/lib/" TB_MULTIARCH "/libblis.so.4",
#endif
        "libblis.so.4",
    };
    const struct settings *s = &run->settings;
    const size_t count = s->blis ? 1 : sizeof candidates / sizeof candidates[0];
    const char *file = NULL;
    char error[256] = "";
    for (size_t i = 0; !file && i < count; i++) {
        const char *candidate = s->blis ? s->blis : candidates[i];
        void *handle = dlmopen(LM_ID_NEWLM, candidate, RTLD_LAZY | RTLD_LOCAL);
        if (handle) {
            dlclose(handle);
            file = candidate;
        } else {
            snprintf(error, sizeof error, "%s", dlerror());
        }
    }
    if (!file && s->blis) {
        snprintf(why, why_size, "cannot load %s", error);
        return -1;
    }
    if (!file) {
        snprintf(why, why_size, "no libblis.so.4 found (Debian: apt-get install libblis4-pthread)");
        return -1;
    }
    const char *given = getenv("BLIS_ARCH_TYPE");
    const char *name = s->blis_arch ? s->blis_arch : given ? NULL : blis_arch_for_cpu();
    char origin[160];
    if (s->blis_arch)
        snprintf(origin, sizeof origin, "from --blis-arch %s", s->blis_arch);
    else if (given)
        snprintf(origin, sizeof origin, "from the environment");
    else if (name)
        snprintf(origin, sizeof origin, "set by tela-peers for this %s CPU",
                 tb_isa_names[tb_cpu_isa()]);
    else
        snprintf(origin, sizeof origin, "BLIS's own choice");
    const int probed = blis_probe(file, name);
    if (probed < 0 && (s->blis_arch || given)) {
        snprintf(why, why_size, "%s aborts with BLIS_ARCH_TYPE %s or does not know it", file,
                 s->blis_arch ? s->blis_arch : given);
        return -1;
    }
    if (probed < 0 && name) {
        snprintf(origin, sizeof origin, "BLIS's own choice: this build has no %s", name);
        name = NULL;
    }
    /* BLIS reports the id it was given, so the probe's answer is the value to set. */
    if (name) {
        char value[16];
        snprintf(value, sizeof value, "%d", probed);
        setenv("BLIS_ARCH_TYPE", value, 1);
    }
    const char *value = getenv("BLIS_ARCH_TYPE");
    struct blis *blis = &run->blis;
    const char *missing = NULL;
    if (blis_open(blis, file) != 0 || find_cblas(blis->handle, &run->peers[SIDE_BLIS], &missing)) {
        snprintf(why, why_size, "%s: not a BLIS with CBLAS (%s)", file,
                 missing ? missing : "no bli_init ... bli_thread_get_num_threads");
        return -1;
    }
    if (blis->blas_int_size() != 32) {
        snprintf(why, why_size, "%s takes %lld-bit BLAS integers; tela-peers passes int", file,
                 (long long)blis->blas_int_size());
        return -1;
    }
    blis->init();
    /* A name in the environment reads as 0 in BLIS 0.9, whatever it names. */
    const char *chosen = blis->arch_string(blis->arch_query_id());
    const int misread =
        value && !s->blis_arch && !is_number(value) && strcasecmp(value, chosen) != 0;
    snprintf(blis->arch_origin, sizeof blis->arch_origin, "%s%s%s%s",
             value ? "BLIS_ARCH_TYPE=" : "", value ? value : "", value ? ", " : "", origin);
    if (misread)
        fprintf(stderr,
                "tela-peers: WARNING: BLIS read BLIS_ARCH_TYPE=%s as %s (0.9 takes a number); "
                "--blis-arch %s names it\n",
                value, chosen, value);
    return 0;
}

/* OpenBLAS through tela-bench's loader; its cblas_dsymm and cblas_dsyr2k from its namespace. */
static int openblas_load(struct run *run, char *why, size_t why_size)
{
    const struct settings *s = &run->settings;
    const int loaded = tb_openblas_load(&run->openblas, s->openblas, s->coretype, why, why_size);
    if (loaded != 0)
        return loaded;
    const char *missing = NULL;
    if (find_cblas(run->openblas.handle, &run->peers[SIDE_OPENBLAS], &missing) != 0) {
        snprintf(why, why_size, "%.1024s has no %s", run->openblas.path, missing);
        return TB_OPENBLAS_INCOMPLETE;
    }
    return 0;
}

/* Sets a peer's thread count; returns the count it reports then. */
static int peer_set_threads(struct run *run, int side, int threads)
{
    if (side == SIDE_BLIS) {
        run->blis.set_num_threads(threads);
        return (int)run->blis.get_num_threads();
    }
    run->openblas.set_num_threads(threads);
    return run->openblas.get_num_threads();
}

/* ---- calls and measurement ------------------------------------------------------------------ */

static int cblas_trans(char trans)
{
    return trans == 'N' ? TB_CBLAS_NO_TRANS : TB_CBLAS_TRANS;
}

/* The calls tb_call_tela makes (tela_bench_problem.h), through a peer's CBLAS. */
static void call_peer(const struct peer *peer, const struct tb_problem *p, double *out)
{
    const int n = p->n;
    switch (p->routine) {
    case TB_GEMM:
        peer->dgemm(TB_CBLAS_COL_MAJOR, cblas_trans(p->transa), cblas_trans(p->transb), n, n, n,
                    1.0, p->a, n, p->b, n, 1.0, out, n);
        break;
    case TB_TRMM:
        peer->dtrmm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS,
                    TB_CBLAS_NON_UNIT, n, n, 1.0, p->a, n, out, n);
        break;
    case TB_SYRK:
        peer->dsyrk(TB_CBLAS_COL_MAJOR, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS, n, n, 1.0, p->a, n, 1.0,
                    out, n);
        break;
    case TB_SYMM:
        peer->dsymm(TB_CBLAS_COL_MAJOR, TB_CBLAS_LEFT, TB_CBLAS_LOWER, n, n, 1.0, p->a, n, p->b, n,
                    1.0, out, n);
        break;
    case TB_SYR2K:
        peer->dsyr2k(TB_CBLAS_COL_MAJOR, TB_CBLAS_LOWER, TB_CBLAS_NO_TRANS, n, n, 1.0, p->a, n,
                     p->b, n, 1.0, out, n);
        break;
    default:
        break;
    }
}

/* calls calls of side on state, back to back on the same output; the ns they took, or -1 if
 * tela returned an error. */
static int64_t run_calls(const struct run *run, int side, const struct tb_problem *p,
                         struct tb_state *state, long calls)
{
    int errors = 0;
    const int64_t start = tb_now_ns();
    for (long c = 0; c < calls; c++) {
        if (side == SIDE_TELA)
            errors |= tb_call_tela(p, run->par, state) != 0;
        else
            call_peer(&run->peers[side], p, state->matrix);
    }
    const int64_t elapsed = tb_now_ns() - start;
    return errors ? -1 : elapsed;
}

/* One row of a table: problem p at the current thread count. The check (one call of each side
 * from the same inputs), each side's batch size from its fastest call, then the rounds: in round
 * r the sides run in turn starting from side r mod sides, each after the other threads settled,
 * one untimed call and a timed batch. Fills result, diff (against tela) and calls (per batch)
 * for each side. A batch size per side, not one for all: a peer 1000 times slower than tela
 * (BLIS 0.9 at two threads on a loaded machine) would make a shared one last minutes. */
static int measure(struct run *run, const struct tb_problem *p, struct tb_summary *result,
                   double *diff, long *calls)
{
    const struct settings *s = &run->settings;
    const int sides = run->sides;
    struct tb_state out[SIDE_COUNT];
    int made = 0;
    while (made < sides && tb_state_init(p, &out[made]) == 0)
        made++;
    double *rates = calloc((size_t)s->rounds * SIDE_COUNT, sizeof *rates);
    int status = made == sides && rates ? 0 : -1;

    int64_t per_call[SIDE_COUNT] = {0};
    for (int side = 0; side < sides && status == 0; side++)
        status = (per_call[side] = run_calls(run, side, p, &out[side], 1)) < 0 ? -1 : 0;
    for (int side = 1; side < sides && status == 0; side++) {
        struct tb_check check;
        if (tb_problem_check(p, &run->openblas, &out[SIDE_TELA], &out[side], &check) != 0)
            status = -1;
        diff[side] = check.difference;
    }

    /* The checked call ran cold; unless it was far longer than a batch, later calls say more. */
    const int64_t batch_ns = (int64_t)(s->batch_ms * 1e6);
    for (int side = 0; side < sides && status == 0; side++) {
        for (int64_t spent = 0; spent < CALIBRATION_NS && per_call[side] < 4 * batch_ns;) {
            const int64_t ns = run_calls(run, side, p, &out[side], 1);
            if (ns < 0) {
                status = -1;
                break;
            }
            per_call[side] = spent == 0 || ns < per_call[side] ? ns : per_call[side];
            spent += ns;
        }
        const int64_t fastest = per_call[side];
        calls[side] = fastest > 0 ? (long)((batch_ns + fastest - 1) / fastest) : MAX_CALLS;
        calls[side] = calls[side] < 1 ? 1 : calls[side] > MAX_CALLS ? MAX_CALLS : calls[side];
    }

    for (int round = 0; round < s->rounds && status == 0; round++) {
        for (int k = 0; k < sides && status == 0; k++) {
            const int side = (round + k) % sides;
            if (tb_settle(s->settle_max_ms) != 0)
                run->settle_timeouts++;
            /* The untimed call wakes this side's sleeping workers: the batch then measures calls
             * back to back, as a program making many of them sees. */
            if (run_calls(run, side, p, &out[side], 1) < 0)
                status = -1;
            const int64_t ns = status == 0 ? run_calls(run, side, p, &out[side], calls[side]) : -1;
            if (ns <= 0)
                status = -1;
            else
                rates[(size_t)side * (size_t)s->rounds + (size_t)round] =
                    p->flops * (double)calls[side] / (double)ns;
        }
    }
    for (int side = 0; side < sides && status == 0; side++)
        result[side] = tb_summarize(rates + (size_t)side * (size_t)s->rounds, s->rounds);
    free(rates);
    for (int side = 0; side < made; side++)
        tb_state_free(&out[side]);
    return status;
}

/* ---- reporting ------------------------------------------------------------------------------ */

/* One table: routine (gemm: with transa, transb) at threads, each size a row. Returns 0, or -1
 * on an error (out of memory, a tela error code). */
static int run_table(struct run *run, enum tb_routine routine, char transa, char transb,
                     int threads, double peak)
{
    const struct settings *s = &run->settings;
    const int sides = run->sides;
    char label[32];
    if (routine == TB_GEMM)
        snprintf(label, sizeof label, "gemm %c%c", transa, transb);
    else
        snprintf(label, sizeof label, "%s", tb_routine_names[routine]);

    struct tb_held_team held;
    if (tb_held_team_open(PROGRAM, threads, &held) != 0)
        return -1;
    run->par = held.par;
    int reported[SIDE_COUNT] = {0};
    for (int side = 1; side < sides; side++)
        reported[side] = peer_set_threads(run, side, threads);

    printf("\n%s, %d thread%s: GFLOP/s, median (min-max) over %d round%s; %% peak: of the "
           "measured FMA peak, %.1f\n",
           label, threads, threads == 1 ? "" : "s", s->rounds, s->rounds == 1 ? "" : "s", peak);
    printf("  tela: %s", threads == 1 ? "tela_par_seq()" : "a held team");
    if (held.team)
        printf(" of width %d", tela_team_width(held.team));
    for (int side = 1; side < sides; side++)
        printf("; %s: %d thread%s", side_labels[side], reported[side],
               reported[side] == 1 ? "" : "s");
    printf("\n%6s | %-19s | %6s | %-19s | %6s", "n", "tela", "% peak", "OpenBLAS", "% peak");
    if (sides > SIDE_BLIS)
        printf(" | %-19s | %6s", "BLIS", "% peak");
    printf(" | %13s", "tela/OpenBLAS");
    if (sides > SIDE_BLIS)
        printf(" | %9s | %9s", "tela/BLIS", "tela/best");
    printf(" | %-17s | diff %s\n", "calls per batch",
           sides > SIDE_BLIS ? "OpenBLAS, BLIS" : "OpenBLAS");
    fflush(stdout);

    const struct tb_usage begin = tb_usage_now();
    int status = 0;
    for (int i = 0; i < s->size_count && status == 0; i++) {
        const int n = s->sizes[i];
        struct tb_problem p;
        if (tb_problem_init(&p, routine, transa, transb, 'L', n, n, 0, &run->openblas) != 0) {
            status = -1;
            break;
        }
        struct tb_summary result[SIDE_COUNT] = {{0}};
        double diff[SIDE_COUNT] = {0.0, NAN, NAN};
        long calls[SIDE_COUNT] = {0};
        status = measure(run, &p, result, diff, calls);
        tb_problem_free(&p);
        if (status != 0) {
            fprintf(stderr, "tela-peers: %s failed at n=%d (tela's error code or out of memory)\n",
                    label, n);
            break;
        }
        char text[48];
        printf("%6d", n);
        double best = 0.0;
        for (int side = 0; side < sides; side++) {
            printf(" | %-19s | %6.1f", tb_format_summary(result[side], text, sizeof text),
                   100.0 * result[side].median / peak);
            best = side > 0 ? fmax(best, result[side].median) : best;
        }
        printf(" | %13.2f", result[SIDE_TELA].median / result[SIDE_OPENBLAS].median);
        if (sides > SIDE_BLIS)
            printf(" | %9.2f | %9.2f", result[SIDE_TELA].median / result[SIDE_BLIS].median,
                   result[SIDE_TELA].median / best);
        char counts[48] = "";
        for (int side = 0; side < sides; side++) {
            const size_t used = strlen(counts);
            snprintf(counts + used, sizeof counts - used, "%s%ld", side ? "/" : "", calls[side]);
        }
        printf(" | %-17s | ", counts);
        for (int side = 1; side < sides; side++) {
            const int fails = !(diff[side] <= s->tolerance);
            printf("%s%.3g%s", side > 1 ? ", " : "", diff[side], fails ? " DISAGREE" : "");
            run->failures += fails;
            /* A NaN, once seen, stays the largest. */
            if (!isnan(run->largest) &&
                (run->checks == 0 || isnan(diff[side]) || diff[side] > run->largest)) {
                run->largest = diff[side];
                snprintf(run->largest_at, sizeof run->largest_at, "%s, %dT, n=%d, %s", label,
                         threads, n, side_labels[side]);
            }
            run->checks++;
        }
        printf("\n");
        fflush(stdout);
    }
    const struct tb_usage end = tb_usage_now();
    const int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    double other, steal;
    tb_usage_between(begin, end, cpus, &other, &steal);
    /* In CPU seconds too: a short table's share is mostly /proc/stat's tick. */
    const double other_s = other * (double)(end.wall_ns - begin.wall_ns) * 1e-9 * cpus;
    if (status == 0 && begin.valid && end.valid)
        printf("  meanwhile other processes used %.0f%% of the CPUs%s\n", 100.0 * other,
               other > BUSY_MACHINE_FRACTION && other_s >= BUSY_MACHINE_MIN_S
                   ? ": NOT A QUIET MACHINE, times are unreliable"
                   : "");
    tb_held_team_close(&held);
    return status;
}

static void print_header(const struct run *run, const char *blis_why)
{
    const struct settings *s = &run->settings;
    const struct tb_openblas *ob = &run->openblas;
    char model[256], version[32], origin[256];
    tb_cpuinfo_value("model name", model, sizeof model);
    printf("tela-peers: tela against OpenBLAS and BLIS, same problems and thread counts, one "
           "process\n");
    printf("  CPU: %s, %ld CPUs online, %d in this process's affinity mask\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), tb_cpus_available());
    printf("  measured FMA peak: %.1f GFLOP/s per core", run->peak_per_core.gflops);
    for (int i = 0; i < s->thread_count; i++) {
        if (s->threads[i] > 1)
            printf(", %.1f on %d threads", run->peak[i].gflops, s->threads[i]);
    }
    printf(" (%s loop, tela-bench's probe)\n", run->peak_per_core.loop);
    printf("  tela %s: tela_dgemm(par, ...) ..., par tela_par_seq() at 1 thread, else a held "
           "team\n",
           tela_version());
    /* tb_openblas_core_origin speaks for tela-bench; the loader is the same here. */
    if (ob->core_choice == TB_CORE_BEST && ob->core_named[0])
        snprintf(origin, sizeof origin, "named by tela-peers: it detected %s on this CPU",
                 ob->core_detected);
    else
        tb_openblas_core_origin(ob, origin, sizeof origin);
    printf("  OpenBLAS %s: %s, link-map namespace %ld\n",
           tb_openblas_version(ob, version, sizeof version), ob->path, ob->namespace_id);
    printf("    core: %s (%s)\n", ob->get_corename(), origin);
    if (ob->core_environment[0] && ob->core_choice != TB_CORE_AUTO)
        printf("    OPENBLAS_CORETYPE=%s in the environment, not used (--openblas-coretype auto "
               "would use it)\n",
               ob->core_environment);
    if (run->sides > SIDE_BLIS) {
        const struct blis *b = &run->blis;
        const int id = b->arch_query_id();
        printf("  BLIS %s: %s, link-map namespace %ld\n", b->version(), b->path, b->namespace_id);
        printf("    arch: %s (bli_arch_query_id %d; %s)\n", b->arch_string(id), id, b->arch_origin);
        printf("    threads: created in every call, on fresh stacks (%s)\n",
               stack_cache_off() ? STACK_CACHE_TUNABLE "=0"
                                 : "WARNING: glibc's stack cache is on, shared with other "
                                   "namespaces");
    } else {
        printf("  BLIS: not loaded, %s: timing tela and OpenBLAS only\n", blis_why);
    }
    printf("  problems (lda = n, alpha 1, beta 1): gemm C = op(A) op(B) + C; trmm B = A B (side "
           "L, lower,\n  no transpose, non-unit); syrk C = A A^T + C (lower); symm C = A B + C "
           "(side L, lower);\n  syr2k C = A B^T + B A^T + C (lower, trans N); flops 2n^3 (gemm, "
           "symm, syr2k), n^3 (trmm,\n  syrk); the peers through cblas_dgemm ... cblas_dsyr2k, "
           "column-major\n");
    printf("  timing: %d round%s per size, interleaved, the first side rotating; each side's round "
           "starts\n  once the process's other threads are idle, then one untimed call and a "
           "batch of >= %.1f ms\n  (calls per batch: each side's own, from its fastest call)\n",
           s->rounds, s->rounds == 1 ? "" : "s", s->batch_ms);
    printf("  diff: max |tela - peer| / (n eps max|A| max|B|) (syrk max|A|^2) after one call "
           "from the same\n  inputs; above %g is an error\n",
           s->tolerance);
    fflush(stdout);
}

/* ---- the command line ----------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: tela-peers [options]\n"
            "  --routines LIST   gemm,trmm,syrk,symm,syr2k or all (default gemm)\n"
            "  --trans LIST      gemm transposes NN,NT,TN,TT or all (default NN)\n"
            "  --sizes LIST      n values (default 64,128,256,512,1024,2048)\n"
            "  --threads LIST    thread counts (default 1,2)\n"
            "  --rounds N        interleaved rounds per size (default %d)\n"
            "  --batch-ms MS     least length of a timed batch (default %.0f)\n"
            "  --tolerance T     largest diff accepted (default %g)\n"
            "  --settle-max-ms N longest wait for idle threads before a round (default %d)\n"
            "  --openblas PATH   the OpenBLAS to load (default: the pthreads build, found)\n"
            "  --openblas-coretype NAME\n"
            "                    OpenBLAS's kernel set; auto: the environment as given\n"
            "                    (default: the best set of the CPU's ISA, as tela-bench)\n"
            "  --blis PATH       the BLIS to load (default: the pthreads build, found)\n"
            "  --blis-arch NAME  BLIS's configuration, e.g. skx, haswell, zen3, generic, or\n"
            "                    its number (default: BLIS_ARCH_TYPE if set, else skx on\n"
            "                    AVX-512 CPUs, zen3 (AMD) or haswell on AVX2 ones)\n"
            "exit status: 0 ok, 1 error or disagreement, 2 bad arguments, %d OpenBLAS not "
            "found\n",
            DEFAULT_ROUNDS, DEFAULT_BATCH_MS, DEFAULT_TOLERANCE, DEFAULT_SETTLE_MAX_MS,
            EXIT_SKIPPED);
}

static int parse_routines(const char *text, struct settings *s)
{
    char items[PEER_ROUTINE_COUNT + 1][32];
    const int n = tb_split_list(PROGRAM, "--routines", text, items, PEER_ROUTINE_COUNT + 1);
    s->routine_count = 0;
    for (int i = 0; i < n; i++) {
        int named = 0;
        for (int r = 0; r < PEER_ROUTINE_COUNT; r++) {
            const enum tb_routine routine = peer_routines[r];
            if (strcasecmp(items[i], "all") != 0 &&
                strcasecmp(items[i], tb_routine_names[routine]) != 0)
                continue;
            named = 1;
            int seen = 0;
            for (int k = 0; k < s->routine_count; k++)
                seen |= s->routines[k] == routine;
            if (!seen)
                s->routines[s->routine_count++] = routine;
        }
        if (!named) {
            fprintf(stderr,
                    "tela-peers: --routines: '%s' is not gemm, trmm, syrk, symm, syr2k "
                    "or all\n",
                    items[i]);
            return -1;
        }
    }
    return n > 0 ? 0 : -1;
}

/* 0 to run, 1 after --help, -1 on a bad command line. */
static int parse_arguments(int argc, char **argv, struct settings *s)
{
    memset(s, 0, sizeof *s);
    s->routines[s->routine_count++] = TB_GEMM;
    s->trans[0][0] = s->trans[0][1] = 'N';
    s->trans_count = 1;
    s->size_count = (int)(sizeof default_sizes / sizeof default_sizes[0]);
    memcpy(s->sizes, default_sizes, sizeof default_sizes);
    s->threads[0] = 1;
    s->threads[1] = 2;
    s->thread_count = 2;
    s->rounds = DEFAULT_ROUNDS;
    s->batch_ms = DEFAULT_BATCH_MS;
    s->tolerance = DEFAULT_TOLERANCE;
    s->settle_max_ms = DEFAULT_SETTLE_MAX_MS;
    for (int i = 1; i < argc; i++) {
        const char *option = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int status = 0;
        if (!strcmp(option, "-h") || !strcmp(option, "--help")) {
            usage(stdout);
            return 1;
        } else if (!strcmp(option, "--routines")) {
            status = parse_routines(value, s);
        } else if (!strcmp(option, "--trans")) {
            status = tb_parse_trans(PROGRAM, value, s->trans, &s->trans_count);
        } else if (!strcmp(option, "--sizes")) {
            status = tb_parse_int_list(PROGRAM, option, value, 1, MAX_SIZE, s->sizes, MAX_SIZES,
                                       &s->size_count);
        } else if (!strcmp(option, "--threads")) {
            status = tb_parse_int_list(PROGRAM, option, value, 1, MAX_THREADS, s->threads,
                                       MAX_THREAD_COUNTS, &s->thread_count);
        } else if (!strcmp(option, "--rounds")) {
            status = tb_parse_int(PROGRAM, option, value, 1, 1000, &s->rounds);
        } else if (!strcmp(option, "--batch-ms")) {
            status = tb_parse_double(PROGRAM, option, value, 0.01, 10000, &s->batch_ms);
        } else if (!strcmp(option, "--tolerance")) {
            status = tb_parse_double(PROGRAM, option, value, 0.0, 1e30, &s->tolerance);
        } else if (!strcmp(option, "--settle-max-ms")) {
            status = tb_parse_int(PROGRAM, option, value, 0, 60000, &s->settle_max_ms);
        } else if (!strcmp(option, "--openblas") && value) {
            s->openblas = value;
        } else if (!strcmp(option, "--openblas-coretype") && value) {
            s->coretype = value;
        } else if (!strcmp(option, "--blis") && value) {
            s->blis = value;
        } else if (!strcmp(option, "--blis-arch") && value) {
            s->blis_arch = value;
        } else {
            fprintf(stderr, "tela-peers: unknown option or missing value: %s\n", option);
            usage(stderr);
            return -1;
        }
        if (status != 0)
            return -1;
        i++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct run run;
    const int parsed = parse_arguments(argc, argv, &run.settings);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    exec_without_stack_cache(argv);
    const struct settings *s = &run.settings;

    /* Before any library is loaded, so that no worker of theirs spins on a CPU the probe needs. */
    if (tb_measure_peaks(s->threads, s->thread_count, s->settle_max_ms, &run.peak_per_core,
                         run.peak) != 0) {
        fprintf(stderr, "tela-peers: could not start the threads of the FMA peak probe\n");
        return 1;
    }
    /* BLIS before OpenBLAS: blis_probe forks, best done while this process has one thread
     * (OpenBLAS starts its workers when it loads). */
    char blis_why[512] = "", why[2048];
    run.sides = blis_load(&run, blis_why, sizeof blis_why) == 0 ? SIDE_COUNT : SIDE_BLIS;
    if (run.sides < SIDE_COUNT && (s->blis || s->blis_arch)) {
        fprintf(stderr, "tela-peers: cannot load BLIS as asked: %s\n", blis_why);
        return 1;
    }
    const int loaded = openblas_load(&run, why, sizeof why);
    if (loaded != 0) {
        fprintf(stderr, "tela-peers: cannot load OpenBLAS: %s\n", why);
        return loaded == TB_OPENBLAS_NOT_FOUND ? EXIT_SKIPPED : 1;
    }
    print_header(&run, blis_why);

    const int64_t start = tb_now_ns();
    int status = 0;
    for (int r = 0; r < s->routine_count && status == 0; r++) {
        const enum tb_routine routine = s->routines[r];
        const int variants = routine == TB_GEMM ? s->trans_count : 1;
        for (int v = 0; v < variants && status == 0; v++) {
            for (int t = 0; t < s->thread_count && status == 0; t++)
                status = run_table(&run, routine, routine == TB_GEMM ? s->trans[v][0] : 'N',
                                   routine == TB_GEMM ? s->trans[v][1] : 'N', s->threads[t],
                                   run.peak[t].gflops);
        }
    }
    printf("\nagreement: %d of %d checks within %g; largest diff %.3f (%s)\n",
           run.checks - run.failures, run.checks, s->tolerance, run.largest, run.largest_at);
    if (run.settle_timeouts)
        printf("note: %d rounds started after %d ms with other threads still busy\n",
               run.settle_timeouts, s->settle_max_ms);
    printf("time: %.1f s\n", (double)(tb_now_ns() - start) * 1e-9);
    if (run.failures)
        fprintf(stderr, "tela-peers: %d check(s) where tela and a peer disagree\n", run.failures);
    return status == 0 && run.failures == 0 ? 0 : 1;
}
