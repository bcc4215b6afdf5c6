/* laswp.c — tela_dlaswp and the row interchanges of getrf/getrs: columns
 * in strips (each strip's swaps in ipiv order keep the rows in cache), the
 * strips split among members when the gate finds it pays. */
#include "lu/lu.h"
#include "par/engine.h"

/* Columns per strip. Few: with lda a power of two every column's row i
 * falls in one L1 set, and 32 columns (LAPACK's choice) overflow its ways
 * (docs/lu-chol.md, "Row interchanges"). */
#define LASWP_STRIP 4
/* Swaps ahead whose pivot rows a strip prefetches (see swap_strip). */
#define LASWP_AHEAD 32
/* Element swaps each member of a region needs. The rows are usually in
 * the caller's cache (getrs's B, just written): a member on another core
 * pulls its columns over and the caller pulls them back, which costs more
 * than the swaps (docs/lu-chol.md, "Row interchanges"). */
#define LASWP_SWAPS_PER_MEMBER (1u << 20)

typedef struct swap_job {
    double *a;
    tela_int lda, n, from, to, step;
    const tela_int *ipiv;
} swap_job;

/* A strip of `width` columns from a, the pivot rows of the swap
 * LASWP_AHEAD later prefetched (a row p is scattered over the column, a
 * line no hardware prefetcher foresees). Inlined, so a whole strip's
 * loops over its columns have a constant count and unroll, which a loop
 * with a count known at run time does not (docs/lu-chol.md, "Row
 * interchanges"). */
static inline __attribute__((always_inline)) void swap_strip(const swap_job *job, double *a,
                                                             int width)
{
    double *col[LASWP_STRIP];
    for (int k = 0; k < width; k++)
        col[k] = a + (ptrdiff_t)k * job->lda;
    for (tela_int i = job->from; i != job->to; i += job->step) {
        const tela_int p = job->ipiv[i] - 1;
        const tela_int ahead = i + LASWP_AHEAD * job->step;
        if (job->step > 0 ? ahead < job->to : ahead > job->to) {
            const tela_int q = job->ipiv[ahead] - 1;
            for (int k = 0; k < width; k++)
                __builtin_prefetch(col[k] + q, 1);
        }
        if (p == i)
            continue;
        for (int k = 0; k < width; k++) {
            const double t = col[k][i];
            col[k][i] = col[k][p];
            col[k][p] = t;
        }
    }
}

static void swap_columns(const swap_job *job, tela_int c_from, tela_int c_to)
{
    for (tela_int c0 = c_from; c0 < c_to; c0 += LASWP_STRIP) {
        double *a = job->a + c0 * job->lda;
        if (c_to - c0 >= LASWP_STRIP)
            swap_strip(job, a, LASWP_STRIP);
        else
            swap_strip(job, a, (int)(c_to - c0)); /* the last, narrower strip */
    }
}

static void swap_body(tela_member *self, void *arg)
{
    const swap_job *job = arg;
    const tela_int w = tela_width(self), r = tela_rank(self);
    /* Whole strips per member: the split never changes what is computed. */
    const tela_int strips = (job->n + LASWP_STRIP - 1) / LASWP_STRIP;
    const tela_int first = strips * r / w, last = strips * (r + 1) / w;
    const tela_int c_to = last * LASWP_STRIP < job->n ? last * LASWP_STRIP : job->n;
    swap_columns(job, first * LASWP_STRIP, c_to);
}

static void swap_rows(tela_par par, swap_job *job)
{
    const tela_int swaps = (job->to - job->from) * job->step;
    if (job->n <= 0 || swaps <= 0)
        return;
    /* Each swap moves 2 n doubles, one cache line each (column-major). */
    const double estimate =
        2.0 * (double)swaps * (double)job->n * 4.0 * par_rate_copy_ns_per_element();
    const double members = (double)swaps * (double)job->n / LASWP_SWAPS_PER_MEMBER;
    if (par.kind == TELA_PAR_SEQ || job->n < (tela_int)2 * LASWP_STRIP || members < 2 ||
        tela_parallel_gated(tela_par_limit(par, members < 4096 ? (int)members : 4096), "laswp",
                            estimate, 1, swap_body, job) < 0)
        swap_columns(job, 0, job->n);
}

void lu_swap_rows(tela_par par, tela_int n, double *a, tela_int lda, tela_int from, tela_int to,
                  const tela_int *ipiv)
{
    swap_job job = {a, lda, n, from, to, 1, ipiv};
    swap_rows(par, &job);
}

int tela_dlaswp(tela_par par, tela_int n, double *a, tela_int lda, tela_int k1, tela_int k2,
                const tela_int *ipiv, tela_int incx)
{
    if (n < 0)
        return -1;
    if (lda < 1)
        return -3;
    if (n == 0 || incx == 0 || k2 < k1)
        return 0;
    if (!a)
        return -2;
    if (!ipiv)
        return -6;
    /* LAPACK reads row i's entry at ipiv(k1 + (i - k1) |incx|) whichever
     * the direction; incx < 0 only walks the rows backwards. */
    swap_job job = {a, lda, n, k1 - 1, k2, 1, ipiv};
    if (incx < 0) {
        job.from = k2 - 1;
        job.to = k1 - 2;
        job.step = -1;
    }
    if (incx != 1 && incx != -1) {
        /* A strided ipiv: walk it serially (rare; LAPACK itself only uses 1). */
        const tela_int count = k2 - k1 + 1;
        const tela_int step = incx > 0 ? incx : -incx;
        for (tela_int q = 0; q < count; q++) {
            const tela_int i = incx > 0 ? k1 - 1 + q : k2 - 1 - q;
            const tela_int p = ipiv[k1 - 1 + (incx > 0 ? q : count - 1 - q) * step] - 1;
            if (p == i)
                continue;
            for (tela_int c = 0; c < n; c++) {
                const double t = a[i + c * lda];
                a[i + c * lda] = a[p + c * lda];
                a[p + c * lda] = t;
            }
        }
        return 0;
    }
    swap_rows(par, &job);
    return 0;
}
