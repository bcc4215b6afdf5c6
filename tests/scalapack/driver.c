/* driver.c — ScaLAPACK's LU and Cholesky solvers, its QR factorization and its GEMM (pdgesv_,
 * pdposv_, pdgeqrf_, pdgemm_) on random block-cyclic matrices over a BLACS grid, each result
 * checked the way ScaLAPACK's own testers check it, so that the node BLAS and LAPACK underneath
 * (libtela.so.0 preloaded, run_scalapack.sh) are judged by what the distributed routines compute
 * on top of them. --time prints, per routine, the median over the repeats of the slowest rank.
 *
 * Usage: driver [--n N] [--nb NB] [--nrhs K] [--grid PxQ] [--repeat R]
 *               [--routines gesv,posv,geqrf,gemm] [--time]
 * Exits 0 when every check passes, 1 when one fails or a routine returns info != 0, 2 on bad
 * arguments. Every rank fills its own blocks from one hash of the global indices, so no matrix
 * is ever sent around to set a problem up, and the GEMM check recomputes its blocks the same way
 * with plain loops, independently of any BLAS. It talks to MPI through the BLACS alone (which
 * start and stop it), so it needs ScaLAPACK's library to build, not MPI's headers (Debian's
 * libopenmpi-dev). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- BLACS, PBLAS and ScaLAPACK: no C header ships with them ----------------------------------
 * The Fortran routines take a hidden length after the arguments for each CHARACTER argument;
 * gfortran may rely on it, so it is passed. The C ones (the PBLAS, pdgemm_) ignore the extras. */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int not_done);
void Cblacs_barrier(int context, const char *scope);
/* Element-wise maximum over the grid (rdest = -1: the result on every process; ldia = -1: no
 * location wanted), and point-to-point integer blocks. */
void Cdgamx2d(int context, const char *scope, const char *top, int m, int n, double *a, int lda,
              int *ra, int *ca, int ldia, int rdest, int cdest);
void Cigamx2d(int context, const char *scope, const char *top, int m, int n, int *a, int lda,
              int *ra, int *ca, int ldia, int rdest, int cdest);
void Cigesd2d(int context, int m, int n, const int *a, int lda, int rdest, int cdest);
void Cigerv2d(int context, int m, int n, int *a, int lda, int rsrc, int csrc);

int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld, int *info);
void pdgesv_(const int *n, const int *nrhs, double *a, const int *ia, const int *ja,
             const int *desca, int *ipiv, double *b, const int *ib, const int *jb, const int *descb,
             int *info);
void pdposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb, int *info, size_t uplo_len);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              double *tau, double *work, const int *lwork, int *info);
void pdorgqr_(const int *m, const int *n, const int *k, double *a, const int *ia, const int *ja,
              const int *desca, const double *tau, double *work, const int *lwork, int *info);
void pdormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
              const double *a, const int *ia, const int *ja, const int *desca, const double *tau,
              double *c, const int *ic, const int *jc, const int *descc, double *work,
              const int *lwork, int *info, size_t side_len, size_t trans_len);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc, size_t transa_len,
             size_t transb_len);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t norm_len);

static const int ONE_I = 1, ZERO_I = 0;
static const double ONE = 1.0, MINUS_ONE = -1.0;
/* LAPACK's dlamch('E'), the unit roundoff, which ScaLAPACK's testers divide by. */
static const double EPS = DBL_EPSILON / 2;
/* A check passes when its scaled residual is below this: HPL's threshold for the same scaled
 * residual (ScaLAPACK's sample LU.dat has 1.0). Correct results here stay below 1; a wrong entry
 * puts a ratio orders of magnitude above. */
static const double THRESHOLD = 16.0;
/* GEMM's alpha and beta: neither 1 nor 0, so both scalings are exercised. */
static const double GEMM_ALPHA = 1.5, GEMM_BETA = -0.5;
enum { ROUTINE_COUNT = 4 };
static const char *const ROUTINE_NAMES[ROUTINE_COUNT] = {"gesv", "posv", "geqrf", "gemm"};

typedef struct options {
    int n;                       /* order of every matrix (GEMM: m = n = k) */
    int nb;                      /* square block of the block-cyclic distribution */
    int nrhs;                    /* right-hand sides of the solves */
    int nprow, npcol;            /* the grid; 0 = chosen from the number of ranks */
    int repeat;                  /* runs of each routine */
    bool time;                   /* print median seconds per routine */
    bool routine[ROUTINE_COUNT]; /* which to run, in ROUTINE_NAMES order */
} options;

typedef struct grid {
    int context;
    int nprow, npcol, myrow, mycol;
    int rank, ranks;
} grid;

/* A block-cyclic matrix: its descriptor and this rank's part (column-major, leading dimension
 * lld), first block on process (0, 0). */
typedef struct dmat {
    int desc[9];
    int m, n, nb;
    int mloc, nloc, lld;
    double *a;
} dmat;

/* ---- set-up ---------------------------------------------------------------------------------- */

static void usage(const char *program)
{
    fprintf(stderr,
            "usage: %s [--n N] [--nb NB] [--nrhs K] [--grid PxQ] [--repeat R]\n"
            "          [--routines gesv,posv,geqrf,gemm] [--time]\n",
            program);
}

static bool parse_int(const char *text, int min, int *value)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < min || v > 1000000)
        return false;
    *value = (int)v;
    return true;
}

static bool parse_routines(char *list, bool *routine)
{
    memset(routine, 0, ROUTINE_COUNT * sizeof *routine);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        int r = 0;
        while (r < ROUTINE_COUNT && strcmp(name, ROUTINE_NAMES[r]) != 0)
            r++;
        if (r == ROUTINE_COUNT)
            return false;
        routine[r] = true;
    }
    return true;
}

static bool parse_options(int argc, char **argv, options *o)
{
    *o = (options){.n = 600, .nb = 64, .nrhs = 1, .repeat = 1};
    for (int r = 0; r < ROUTINE_COUNT; r++)
        o->routine[r] = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = value != NULL;
        if (strcmp(arg, "--time") == 0) {
            o->time = true;
            continue;
        } else if (strcmp(arg, "--n") == 0) {
            ok = ok && parse_int(value, 1, &o->n);
        } else if (strcmp(arg, "--nb") == 0) {
            ok = ok && parse_int(value, 1, &o->nb);
        } else if (strcmp(arg, "--nrhs") == 0) {
            ok = ok && parse_int(value, 1, &o->nrhs);
        } else if (strcmp(arg, "--repeat") == 0) {
            ok = ok && parse_int(value, 1, &o->repeat);
        } else if (strcmp(arg, "--grid") == 0) {
            ok = ok && sscanf(value, "%dx%d", &o->nprow, &o->npcol) == 2 && o->nprow > 0 &&
                 o->npcol > 0;
        } else if (strcmp(arg, "--routines") == 0) {
            char list[128];
            ok = ok && snprintf(list, sizeof list, "%s", value) < (int)sizeof list &&
                 parse_routines(list, o->routine);
        } else {
            ok = false;
        }
        if (!ok)
            return false;
        i++;
    }
    return true;
}

/* The most square grid with no more rows than columns (1x2 for 2 ranks), as ScaLAPACK's
 * testers favour: row panels then span the fewest processes. */
static void default_grid(int ranks, int *nprow, int *npcol)
{
    int p = 1;
    for (int d = 1; d * d <= ranks; d++)
        if (ranks % d == 0)
            p = d;
    *nprow = p;
    *npcol = ranks / p;
}

/* tela's width if tela is loaded, else 0: looked up, not linked (the driver links ScaLAPACK
 * alone and libtela comes in by LD_PRELOAD). */
static int tela_width(void)
{
    void *symbol = dlsym(RTLD_DEFAULT, "tela_get_num_threads");
    if (!symbol)
        return 0;
    int (*get_width)(void);
    /* A data pointer to a function pointer: memcpy is the portable conversion. */
    memcpy(&get_width, &symbol, sizeof get_width);
    return get_width();
}

/* The file name of the library that serves dgemm_ to everyone (the first in the search order). */
static const char *gemm_library(void)
{
    Dl_info info;
    void *gemm = dlsym(RTLD_DEFAULT, "dgemm_");
    if (!gemm || !dladdr(gemm, &info) || !info.dli_fname)
        return "?";
    const char *slash = strrchr(info.dli_fname, '/');
    return slash ? slash + 1 : info.dli_fname;
}

/* OpenBLAS's kernel set when OpenBLAS is in the process (a benchmark names it beside its
 * figures), else "". */
static const char *openblas_core(void)
{
    const char *(*corename)(void) = NULL;
    *(void **)&corename = dlsym(RTLD_DEFAULT, "openblas_get_corename");
    return corename ? corename() : "";
}

/* What each rank runs on: its CPUs, tela's width and who serves dgemm_. */
static void describe_rank(const grid *g, char *line, size_t size)
{
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
    char list[64] = "";
    size_t used = 0;
    for (int c = 0; c < CPU_SETSIZE && cpus > 0 && used + 8 < sizeof list; c++)
        if (CPU_ISSET(c, &set))
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? "," : "", c);
    int width = tela_width();
    const char *gemm_from = gemm_library();
    char width_text[32] = "absent";
    if (width > 0)
        snprintf(width_text, sizeof width_text, "width %d", width);
    const char *core = openblas_core();
    snprintf(line, size, "rank %d (%d,%d): %d CPU%s {%s}, tela %s, dgemm_ from %s%s%s%s", g->rank,
             g->myrow, g->mycol, cpus, cpus == 1 ? "" : "s", list, width_text, gemm_from,
             core[0] ? " (OpenBLAS core " : "", core, core[0] ? ")" : "");
}

/* ---- matrices -------------------------------------------------------------------------------- */

/* Global index of local index l (0-based) on process p of nprocs, blocks of nb. */
static int global_index(int l, int nb, int p, int nprocs)
{
    return ((l / nb) * nprocs + p) * nb + l % nb;
}

/* A reproducible uniform number in [-1, 1) for entry (i, j) of matrix `seed` (splitmix64's
 * finaliser over the three mixed together). */
static double entry(uint64_t seed, int i, int j)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15u + (uint64_t)i * 0xBF58476D1CE4E5B9u +
                 (uint64_t)j * 0x94D049BB133111EBu;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    x ^= x >> 31;
    return (double)(x >> 11) * 0x1p-52 - 1.0;
}

static bool mat_create(dmat *x, const grid *g, int m, int n, int nb)
{
    int info;
    *x = (dmat){.m = m, .n = n, .nb = nb};
    x->mloc = numroc_(&m, &nb, &g->myrow, &ZERO_I, &g->nprow);
    x->nloc = numroc_(&n, &nb, &g->mycol, &ZERO_I, &g->npcol);
    x->lld = x->mloc > 1 ? x->mloc : 1;
    descinit_(x->desc, &m, &n, &nb, &nb, &ZERO_I, &ZERO_I, &g->context, &x->lld, &info);
    size_t count = (size_t)x->lld * (size_t)(x->nloc > 0 ? x->nloc : 1);
    x->a = calloc(count, sizeof *x->a);
    return info == 0 && x->a != NULL;
}

static void mat_free(dmat *x)
{
    free(x->a);
    x->a = NULL;
}

static void mat_copy(dmat *to, const dmat *from)
{
    memcpy(to->a, from->a, (size_t)from->lld * (size_t)from->nloc * sizeof *from->a);
}

/* Fills x from the hash. symmetric: entry (i, j) = entry (j, i), and `diagonal` is added on the
 * diagonal (n makes a symmetric matrix of entries in [-1, 1) diagonally dominant, so SPD). */
static void mat_fill(dmat *x, const grid *g, uint64_t seed, bool symmetric, double diagonal)
{
    for (int jl = 0; jl < x->nloc; jl++) {
        int j = global_index(jl, x->nb, g->mycol, g->npcol);
        for (int il = 0; il < x->mloc; il++) {
            int i = global_index(il, x->nb, g->myrow, g->nprow);
            double v = symmetric && i > j ? entry(seed, j, i) : entry(seed, i, j);
            x->a[il + (size_t)jl * x->lld] = v + (i == j ? diagonal : 0.0);
        }
    }
}

/* Sets x to the identity (diagonal = 1) or to the upper triangle of `from` (from != NULL). */
static void mat_upper_or_identity(dmat *x, const grid *g, const dmat *from)
{
    for (int jl = 0; jl < x->nloc; jl++) {
        int j = global_index(jl, x->nb, g->mycol, g->npcol);
        for (int il = 0; il < x->mloc; il++) {
            int i = global_index(il, x->nb, g->myrow, g->nprow);
            size_t at = il + (size_t)jl * x->lld;
            x->a[at] = from ? (i <= j ? from->a[at] : 0.0) : (i == j ? 1.0 : 0.0);
        }
    }
}

/* ScaLAPACK's norm of the whole of x: 'I' (max row sum), '1' (max column sum); the same value
 * on every rank. */
static double mat_norm(const char *norm, const dmat *x)
{
    double *work = malloc(((size_t)x->mloc + (size_t)x->nloc + 1) * sizeof *work);
    if (!work)
        return NAN;
    double v = pdlange_(norm, &x->m, &x->n, x->a, &ONE_I, &ONE_I, x->desc, work, 1);
    free(work);
    return v;
}

/* ---- the routines and their checks ------------------------------------------------------------
 * Each runs its routine o->repeat times from the same inputs, puts each run's seconds (the
 * slowest rank's) in seconds[], and checks the last run's result; a failed check or info sets
 * ok false, after rank 0 says so. Every decision is taken on values all ranks share, so they
 * stay in step through ScaLAPACK's collective calls. */

typedef struct run {
    const options *o;
    const grid *g;
    double *seconds; /* [o->repeat] */
    bool ok;
} run;

static void report(run *r, const char *routine, const char *what, double value)
{
    bool pass = value < THRESHOLD; /* NaN fails too */
    if (!pass)
        r->ok = false;
    if (r->g->rank == 0)
        printf("%-5s %-38s %10.3g  (threshold %g) %s\n", routine, what, value, THRESHOLD,
               pass ? "ok" : "FAILED");
}

static void fail(run *r, const char *routine, const char *what)
{
    r->ok = false;
    if (r->g->rank == 0)
        printf("%-5s FAILED: %s\n", routine, what);
}

static double grid_max(const grid *g, double v)
{
    Cdgamx2d(g->context, "All", " ", 1, 1, &v, 1, NULL, NULL, -1, -1, -1);
    return v;
}

/* Whether ok holds on every rank (an allocation can fail on one alone). */
static bool everywhere(const grid *g, bool ok)
{
    int bad = !ok;
    Cigamx2d(g->context, "All", " ", 1, 1, &bad, 1, NULL, NULL, -1, -1, -1);
    return bad == 0;
}

/* info from every rank, reduced: ScaLAPACK returns it on all, but a rank's own error shows. */
static bool info_ok(run *r, const char *routine, const char *call, int info)
{
    int worst[2] = {info, -info};
    Cigamx2d(r->g->context, "All", " ", 2, 1, worst, 2, NULL, NULL, -1, -1, -1);
    if (worst[0] == 0 && worst[1] == 0)
        return true;
    char what[96];
    snprintf(what, sizeof what, "%s returned info = %d", call, worst[0] ? worst[0] : -worst[1]);
    fail(r, routine, what);
    return false;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Every rank starts together; a run lasts until the slowest is done. */
static double start_timing(const grid *g)
{
    Cblacs_barrier(g->context, "All");
    return now();
}

static void stop_timing(run *r, int rep, double start)
{
    r->seconds[rep] = grid_max(r->g, now() - start);
}

/* ||A x - b||_inf / (||A||_inf ||x||_inf eps n), ScaLAPACK's solve residual, with A and b the
 * saved inputs and x the solution; b is overwritten. */
static double solve_residual(const dmat *a, const dmat *x, dmat *b)
{
    double anorm = mat_norm("I", a), xnorm = mat_norm("I", x);
    pdgemm_("N", "N", &a->m, &x->n, &a->n, &ONE, a->a, &ONE_I, &ONE_I, a->desc, x->a, &ONE_I,
            &ONE_I, x->desc, &MINUS_ONE, b->a, &ONE_I, &ONE_I, b->desc, 1, 1);
    return mat_norm("I", b) / (anorm * xnorm * EPS * a->n);
}

/* pdgesv_ (posv false) or pdposv_ (posv true) on a general random matrix, or on an SPD one. */
static void run_solve(run *r, bool posv)
{
    const options *o = r->o;
    const grid *g = r->g;
    const char *name = posv ? "posv" : "gesv";
    dmat a0, a, b0, b;
    int *ipiv =
        malloc(((size_t)numroc_(&o->n, &o->nb, &g->myrow, &ZERO_I, &g->nprow) + (size_t)o->nb) *
               sizeof *ipiv);
    bool made = mat_create(&a0, g, o->n, o->n, o->nb) & mat_create(&a, g, o->n, o->n, o->nb) &
                mat_create(&b0, g, o->n, o->nrhs, o->nb) & mat_create(&b, g, o->n, o->nrhs, o->nb);
    if (!everywhere(g, made && ipiv)) {
        fail(r, name, "out of memory");
        goto out;
    }
    mat_fill(&a0, g, posv ? 2 : 1, posv, posv ? o->n : 0.0);
    mat_fill(&b0, g, 3, false, 0.0);
    int info = 0;
    for (int rep = 0; rep < o->repeat; rep++) {
        mat_copy(&a, &a0);
        mat_copy(&b, &b0);
        double start = start_timing(g);
        if (posv)
            pdposv_("L", &o->n, &o->nrhs, a.a, &ONE_I, &ONE_I, a.desc, b.a, &ONE_I, &ONE_I, b.desc,
                    &info, 1);
        else
            pdgesv_(&o->n, &o->nrhs, a.a, &ONE_I, &ONE_I, a.desc, ipiv, b.a, &ONE_I, &ONE_I, b.desc,
                    &info);
        stop_timing(r, rep, start);
        if (!info_ok(r, name, posv ? "pdposv_" : "pdgesv_", info))
            goto out;
    }
    /* b holds x now; a the factors, no longer needed: it takes b's saved copy. */
    report(r, name, "||Ax-b||/(||A|| ||x|| eps n)", solve_residual(&a0, &b, &b0));
out:
    free(ipiv);
    mat_free(&a0);
    mat_free(&a);
    mat_free(&b0);
    mat_free(&b);
}

/* A workspace query's answer (work[0]) as a count, at least 1. */
static int query_size(double w)
{
    return w >= 1.0 ? (int)w + 1 : 1;
}

/* pdgeqrf_ on a random matrix; Q formed by pdorgqr_ and applied by pdormqr_:
 * ||A - QR||_1 / (||A||_1 eps n), ||I - Q^T Q||_1 / (eps n), ||Q^T A - R||_1 / (||A||_1 eps n). */
static void run_geqrf(run *r)
{
    const options *o = r->o;
    const grid *g = r->g;
    const int n = o->n;
    dmat a0, a, q, rr, w;
    double *tau = NULL, *work = NULL;
    bool made = mat_create(&a0, g, n, n, o->nb) & mat_create(&a, g, n, n, o->nb) &
                mat_create(&q, g, n, n, o->nb) & mat_create(&rr, g, n, n, o->nb) &
                mat_create(&w, g, n, n, o->nb);
    tau = malloc(((size_t)a.nloc + 1) * sizeof *tau);
    if (!everywhere(g, made && tau)) {
        fail(r, "geqrf", "out of memory");
        goto out;
    }
    mat_fill(&a0, g, 4, false, 0.0);

    /* One workspace for the three routines, as large as the largest asks. */
    int info = 0, query = -1, lwork = 1;
    double size;
    pdgeqrf_(&n, &n, a.a, &ONE_I, &ONE_I, a.desc, tau, &size, &query, &info);
    lwork = query_size(size);
    pdorgqr_(&n, &n, &n, q.a, &ONE_I, &ONE_I, q.desc, tau, &size, &query, &info);
    lwork = query_size(size) > lwork ? query_size(size) : lwork;
    pdormqr_("L", "T", &n, &n, &n, a.a, &ONE_I, &ONE_I, a.desc, tau, w.a, &ONE_I, &ONE_I, w.desc,
             &size, &query, &info, 1, 1);
    lwork = query_size(size) > lwork ? query_size(size) : lwork;
    work = malloc((size_t)lwork * sizeof *work);
    if (!everywhere(g, work != NULL)) {
        fail(r, "geqrf", "out of memory");
        goto out;
    }

    for (int rep = 0; rep < o->repeat; rep++) {
        mat_copy(&a, &a0);
        double start = start_timing(g);
        pdgeqrf_(&n, &n, a.a, &ONE_I, &ONE_I, a.desc, tau, work, &lwork, &info);
        stop_timing(r, rep, start);
        if (!info_ok(r, "geqrf", "pdgeqrf_", info))
            goto out;
    }
    double anorm = mat_norm("1", &a0);
    mat_upper_or_identity(&rr, g, &a);
    mat_copy(&q, &a);
    pdorgqr_(&n, &n, &n, q.a, &ONE_I, &ONE_I, q.desc, tau, work, &lwork, &info);
    if (!info_ok(r, "geqrf", "pdorgqr_", info))
        goto out;

    mat_copy(&w, &a0); /* w = QR - A */
    pdgemm_("N", "N", &n, &n, &n, &ONE, q.a, &ONE_I, &ONE_I, q.desc, rr.a, &ONE_I, &ONE_I, rr.desc,
            &MINUS_ONE, w.a, &ONE_I, &ONE_I, w.desc, 1, 1);
    report(r, "geqrf", "||A-QR||/(||A|| eps n)", mat_norm("1", &w) / (anorm * EPS * n));

    mat_upper_or_identity(&w, g, NULL); /* w = Q^T Q - I */
    pdgemm_("T", "N", &n, &n, &n, &ONE, q.a, &ONE_I, &ONE_I, q.desc, q.a, &ONE_I, &ONE_I, q.desc,
            &MINUS_ONE, w.a, &ONE_I, &ONE_I, w.desc, 1, 1);
    report(r, "geqrf", "||I-Q^T Q||/(eps n)", mat_norm("1", &w) / (EPS * n));

    mat_copy(&w, &a0); /* w = Q^T A by the reflectors, then minus R */
    pdormqr_("L", "T", &n, &n, &n, a.a, &ONE_I, &ONE_I, a.desc, tau, w.a, &ONE_I, &ONE_I, w.desc,
             work, &lwork, &info, 1, 1);
    if (!info_ok(r, "geqrf", "pdormqr_", info))
        goto out;
    for (size_t i = 0; i < (size_t)w.lld * (size_t)w.nloc; i++)
        w.a[i] -= rr.a[i];
    report(r, "geqrf", "||Q^T A-R||/(||A|| eps n) (pdormqr)",
           mat_norm("1", &w) / (anorm * EPS * n));
out:
    free(tau);
    free(work);
    mat_free(&a0);
    mat_free(&a);
    mat_free(&q);
    mat_free(&rr);
    mat_free(&w);
}

/* pdgemm_ C = alpha A B + beta C, checked entry by entry against the same sum done here with
 * plain loops from the rows of A and the columns of B this rank's block of C needs, regenerated
 * from the hash: max |C - C_ref| / (eps n (|alpha| |A| |B| + |beta| |C0|)), the bound both
 * summation orders meet. */
static void run_gemm(run *r)
{
    const options *o = r->o;
    const grid *g = r->g;
    const int n = o->n;
    dmat a, b, c0, c;
    double *rows = NULL, *cols = NULL, *sum = NULL, *gauge = NULL;
    bool made = mat_create(&a, g, n, n, o->nb) & mat_create(&b, g, n, n, o->nb) &
                mat_create(&c0, g, n, n, o->nb) & mat_create(&c, g, n, n, o->nb);
    size_t mloc = (size_t)c.mloc, nloc = (size_t)c.nloc;
    rows = malloc((mloc * (size_t)n + 1) * sizeof *rows);
    cols = malloc(((size_t)n * nloc + 1) * sizeof *cols);
    sum = malloc((mloc + 1) * sizeof *sum);
    gauge = malloc((mloc + 1) * sizeof *gauge);
    if (!everywhere(g, made && rows && cols && sum && gauge)) {
        fail(r, "gemm", "out of memory");
        goto out;
    }
    mat_fill(&a, g, 5, false, 0.0);
    mat_fill(&b, g, 6, false, 0.0);
    mat_fill(&c0, g, 7, false, 0.0);
    for (int rep = 0; rep < o->repeat; rep++) {
        mat_copy(&c, &c0);
        double start = start_timing(g);
        pdgemm_("N", "N", &n, &n, &n, &GEMM_ALPHA, a.a, &ONE_I, &ONE_I, a.desc, b.a, &ONE_I, &ONE_I,
                b.desc, &GEMM_BETA, c.a, &ONE_I, &ONE_I, c.desc, 1, 1);
        stop_timing(r, rep, start);
    }

    for (size_t k = 0; k < (size_t)n; k++)
        for (size_t il = 0; il < mloc; il++)
            rows[il + k * mloc] =
                entry(5, global_index((int)il, o->nb, g->myrow, g->nprow), (int)k);
    for (size_t jl = 0; jl < nloc; jl++)
        for (size_t k = 0; k < (size_t)n; k++)
            cols[k + jl * n] = entry(6, (int)k, global_index((int)jl, o->nb, g->mycol, g->npcol));
    double worst = 0.0;
    for (size_t jl = 0; jl < nloc; jl++) {
        for (size_t il = 0; il < mloc; il++)
            sum[il] = gauge[il] = 0.0;
        for (size_t k = 0; k < (size_t)n; k++) {
            double bkj = cols[k + jl * n];
            for (size_t il = 0; il < mloc; il++) {
                sum[il] += rows[il + k * mloc] * bkj;
                gauge[il] += fabs(rows[il + k * mloc] * bkj);
            }
        }
        for (size_t il = 0; il < mloc; il++) {
            size_t at = il + jl * (size_t)c.lld;
            double want = GEMM_ALPHA * sum[il] + GEMM_BETA * c0.a[at];
            double scale = fabs(GEMM_ALPHA) * gauge[il] + fabs(GEMM_BETA) * fabs(c0.a[at]);
            double diff = fabs(c.a[at] - want);
            double ratio = diff == 0.0 ? 0.0 : diff / (EPS * n * scale);
            /* A NaN becomes infinite: the maximum over the grid need not carry NaNs. */
            worst = fmax(worst, isnan(ratio) ? INFINITY : ratio);
        }
    }
    report(r, "gemm", "max|C-C_ref|/(eps n (|alpha||A||B|+..))", grid_max(g, worst));
out:
    free(rows);
    free(cols);
    free(sum);
    free(gauge);
    mat_free(&a);
    mat_free(&b);
    mat_free(&c0);
    mat_free(&c);
}

/* ---- main ------------------------------------------------------------------------------------ */

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The upper median for an even count: never faster than half the runs. */
static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_doubles);
    return v[count / 2];
}

/* Rank 0 prints every rank's description, in grid order (sent as ints: the BLACS have no
 * character type). */
static void print_ranks(const grid *g)
{
    enum { LINE = 160 };
    char line[LINE];
    int codes[LINE];
    describe_rank(g, line, sizeof line);
    if (g->rank != 0) {
        for (int c = 0; c < LINE; c++)
            codes[c] = (unsigned char)line[c];
        Cigesd2d(g->context, LINE, 1, codes, LINE, 0, 0);
        return;
    }
    printf("  %s\n", line);
    for (int row = 0; row < g->nprow; row++) {
        for (int col = 0; col < g->npcol; col++) {
            if (row == 0 && col == 0)
                continue;
            Cigerv2d(g->context, LINE, 1, codes, LINE, row, col);
            for (int c = 0; c < LINE; c++)
                line[c] = (char)codes[c];
            line[LINE - 1] = '\0';
            printf("  %s\n", line);
        }
    }
}

int main(int argc, char **argv)
{
    grid g = {0};
    Cblacs_pinfo(&g.rank, &g.ranks); /* starts MPI */
    options o;
    bool args_ok = parse_options(argc, argv, &o);
    if (args_ok && o.nprow == 0)
        default_grid(g.ranks, &o.nprow, &o.npcol);
    if (!args_ok || o.nprow * o.npcol != g.ranks) {
        if (g.rank == 0 && args_ok)
            fprintf(stderr, "%s: a %dx%d grid needs %d ranks, not %d\n", argv[0], o.nprow, o.npcol,
                    o.nprow * o.npcol, g.ranks);
        else if (g.rank == 0)
            usage(argv[0]);
        Cblacs_exit(0);
        return 2;
    }
    Cblacs_get(-1, 0, &g.context);
    Cblacs_gridinit(&g.context, "Row-major", o.nprow, o.npcol);
    Cblacs_gridinfo(g.context, &g.nprow, &g.npcol, &g.myrow, &g.mycol);

    if (g.rank == 0)
        printf("driver: %d rank%s, grid %dx%d, n %d, nb %d, nrhs %d, repeat %d\n", g.ranks,
               g.ranks == 1 ? "" : "s", g.nprow, g.npcol, o.n, o.nb, o.nrhs, o.repeat);
    print_ranks(&g);

    double *seconds = malloc((size_t)o.repeat * sizeof *seconds);
    bool ok = seconds != NULL;
    for (int i = 0; seconds && i < ROUTINE_COUNT; i++) {
        if (!o.routine[i])
            continue;
        run r = {.o = &o, .g = &g, .seconds = seconds, .ok = true};
        for (int rep = 0; rep < o.repeat; rep++)
            seconds[rep] = NAN;
        switch (i) {
        case 0:
            run_solve(&r, false);
            break;
        case 1:
            run_solve(&r, true);
            break;
        case 2:
            run_geqrf(&r);
            break;
        default:
            run_gemm(&r);
            break;
        }
        if (o.time && r.ok && g.rank == 0)
            printf("time routine=%s n=%d nb=%d nrhs=%d ranks=%d grid=%dx%d width=%d blas=%s "
                   "repeat=%d seconds=%.6f\n",
                   ROUTINE_NAMES[i], o.n, o.nb, o.nrhs, g.ranks, g.nprow, g.npcol, tela_width(),
                   gemm_library(), o.repeat, median(seconds, o.repeat));
        fflush(stdout);
        ok = ok && r.ok;
    }
    free(seconds);
    if (g.rank == 0)
        printf("driver: %s\n", ok ? "all checks passed" : "FAILED");
    Cblacs_gridexit(g.context);
    Cblacs_exit(0); /* stops MPI */
    return ok ? 0 : 1;
}
