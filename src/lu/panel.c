/* panel.c — the unblocked LU of a narrow panel (LAPACK's dgetf2), the base
 * of getrf's recursion: pivot search, row swap, scaling and the rank-1
 * update, one column at a time, as LAPACK orders them. A region: members
 * own row ranges, two barriers per column; the gate runs it serially on
 * the caller unless the panel is tall enough to pay. */
#include "lu/lu.h"
#include "par/engine.h"

#include <float.h>
#include <math.h>

/* The widest panel region: the pivot candidates live on the stack. */
#define PANEL_MAX_WIDTH 64
/* Serial ns per element the panel visits (searched or updated), as
 * measured on Zen 5 (docs/lu-chol.md, "Base: panels of 8 columns"). */
#define LU_PANEL_NS 0.22

typedef struct pivot_candidate {
    double abs;   /* largest |a(i, j)| in the member's rows, -1 if none */
    tela_int row; /* its row, the first of equals */
    /* cppcheck-suppress unusedStructMember ; padding: one candidate a cache line */
    char pad[64 - sizeof(double) - sizeof(tela_int)];
} pivot_candidate;

/* x[i] -= y[i] * u and x[i] *= r for i in [0, count), in one ISA's build. */
typedef struct panel_loops {
    void (*subtract_multiple)(tela_int count, double *restrict x, const double *restrict y,
                              double u);
    void (*scale)(tela_int count, double *x, double r);
} panel_loops;

/* The hot loops, compiled for AVX2 and AVX-512 too and chosen per panel by the library's ISA
 * (par_isa_chosen: TELA_ARCH forces it, as it does the GEMM kernels): the panel is the part of LU
 * the GEMM does not cover, and SSE2 loops made it a large part of getrf's time at small orders
 * (docs/lu-chol.md, "Base: panels of 8 columns"). Built without contraction (CMakeLists.txt),
 * every build rounds alike. (Not target_clones: its ifunc resolvers run before
 * ThreadSanitizer's runtime is up, and crashed the tsan build.) */
/* NOLINTBEGIN(bugprone-macro-parentheses): attribute is an attribute, not an expression */
#define PANEL_LOOPS(suffix, attribute)                                                             \
    attribute static void subtract_multiple_##suffix(tela_int count, double *restrict x,           \
                                                     const double *restrict y, double u)           \
    {                                                                                              \
        for (tela_int i = 0; i < count; i++)                                                       \
            x[i] -= y[i] * u;                                                                      \
    }                                                                                              \
    attribute static void scale_##suffix(tela_int count, double *x, double r)                      \
    {                                                                                              \
        for (tela_int i = 0; i < count; i++)                                                       \
            x[i] *= r;                                                                             \
    }                                                                                              \
    static const panel_loops panel_loops_##suffix = {subtract_multiple_##suffix, scale_##suffix};
/* NOLINTEND(bugprone-macro-parentheses) */

PANEL_LOOPS(plain, )
#if defined(__x86_64__) && defined(__GNUC__)
PANEL_LOOPS(avx2, __attribute__((target("avx2"))))
PANEL_LOOPS(avx512, __attribute__((target("avx512f"))))
#endif

static const panel_loops *panel_loops_for(par_isa isa)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == PAR_ISA_AVX512)
        return &panel_loops_avx512;
    if (isa == PAR_ISA_AVX2)
        return &panel_loops_avx2;
#endif
    (void)isa;
    return &panel_loops_plain;
}

typedef struct panel_job {
    tela_int m, n, lda;
    double *a;
    tela_int *ipiv;
    tela_int info;
    const panel_loops *loops; /* the loops' build, chosen once per panel */
    pivot_candidate candidates[PANEL_MAX_WIDTH];
} panel_job;

/* LAPACK's idamax on column j from row j: the first largest |x|, a NaN
 * never larger, except that x(j) itself is chosen when it is a NaN. */
static tela_int choose_pivot(const panel_job *job, int width, const double *col, tela_int j)
{
    if (isnan(col[j]))
        return j;
    tela_int p = j;
    double best = -1.0;
    for (int q = 0; q < width; q++) /* ranks hold ascending rows: ties go low */
        if (job->candidates[q].row >= 0 && job->candidates[q].abs > best) {
            best = job->candidates[q].abs;
            p = job->candidates[q].row;
        }
    return p;
}

static void panel_body(tela_member *self, void *arg)
{
    panel_job *job = arg;
    const int width = tela_width(self), rank = tela_rank(self);
    const tela_int m = job->m, n = job->n, lda = job->lda, mn = m < n ? m : n;
    const tela_int row_from = m * rank / width, row_to = m * (rank + 1) / width;
    double *a = job->a;
    for (tela_int j = 0; j < mn; j++) {
        double *col = a + j * lda;
        pivot_candidate *mine = &job->candidates[rank];
        mine->abs = -1.0;
        mine->row = -1;
        for (tela_int i = row_from > j ? row_from : j; i < row_to; i++) {
            const double v = fabs(col[i]);
            if (v > mine->abs) {
                mine->abs = v;
                mine->row = i;
            }
        }
        tela_barrier(self);
        if (rank == 0) {
            const tela_int p = choose_pivot(job, width, col, j);
            job->ipiv[j] = p + 1;
            if (col[p] == 0.0) {
                if (job->info == 0)
                    job->info = j + 1;
            } else if (p != j) {
                for (tela_int c = 0; c < n; c++) {
                    const double t = a[j + c * lda];
                    a[j + c * lda] = a[p + c * lda];
                    a[p + c * lda] = t;
                }
            }
        }
        tela_barrier(self);
        const tela_int i_from = row_from > j + 1 ? row_from : j + 1;
        const double pivot = col[j];
        if (pivot != 0.0) {
            /* LAPACK scales by the reciprocal unless it would overflow. */
            if (fabs(pivot) >= DBL_MIN) {
                job->loops->scale(row_to - i_from, col + i_from, 1.0 / pivot);
            } else {
                for (tela_int i = i_from; i < row_to; i++)
                    col[i] /= pivot;
            }
        }
        /* The rank-1 update right of and below the pivot (skipping zero
         * multipliers, as LAPACK's dger does). */
        for (tela_int c = j + 1; c < n; c++) {
            double *cc = a + c * lda;
            const double u = cc[j];
            if (u == 0.0)
                continue;
            job->loops->subtract_multiple(row_to - i_from, cc + i_from, col + i_from, u);
        }
    }
}

double lu_panel_estimate_ns(tela_int m, tela_int n)
{
    const tela_int mn = m < n ? m : n;
    double visits = 0.0;
    for (tela_int j = 0; j < mn; j++)
        visits += (double)(m - j) * (double)(n - j);
    return visits * LU_PANEL_NS;
}

tela_int lu_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, tela_int *ipiv)
{
    panel_job job = {.m = m,
                     .n = n,
                     .lda = lda,
                     .a = a,
                     .ipiv = ipiv,
                     .info = 0,
                     .loops = panel_loops_for(par_isa_chosen())};
    const tela_int mn = m < n ? m : n;
    const int sections = (int)(2 * mn);
    if (tela_parallel_gated(tela_par_limit(par, PANEL_MAX_WIDTH), "getrf-panel",
                            lu_panel_estimate_ns(m, n), sections, panel_body, &job) < 0) {
        job.info = 0; /* a bad policy (reported): the whole panel on the caller */
        par_region_run_serial(panel_body, &job);
    }
    return job.info;
}
