/* test_bandpack — the banded and packed level-2 BLAS (dgbmv, dsbmv, dspmv, dspr, dspr2, dtbmv,
 * dtbsv, dtpmv, dtpsv) through tela's native, Fortran-ABI and CBLAS entries: against a
 * long-double product of the expanded dense matrix, against OpenBLAS loaded apart, with reference
 * BLAS 3.11's quick returns, beta and alpha rules and zero skips; sentinels (a NaN payload) in
 * band padding, the band's unused corners, a unit triangle's diagonal, vector gaps and guards, so
 * a read poisons a result and a write shows; argument errors with xerbla_'s and cblas_xerbla's
 * numbers and nothing written; and the same bits at widths 1, 2 and 8 where regions split.
 *
 * This program defines xerbla_ and cblas_xerbla itself, as the netlib suites do: tela calls
 * these, not its weak fallbacks. */
#define _GNU_SOURCE
#include "testlapack.h"
#include "tela_cblas.h"

#include <float.h>
#include <math.h>

/* ---- the Fortran ABI (LP64), as a Fortran caller sees it ------------------------------------ */
void dgbmv_(const char *trans, const int *m, const int *n, const int *kl, const int *ku,
            const double *alpha, const double *a, const int *lda, const double *x, const int *incx,
            const double *beta, double *y, const int *incy);
void dsbmv_(const char *uplo, const int *n, const int *k, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);
void dspmv_(const char *uplo, const int *n, const double *alpha, const double *ap, const double *x,
            const int *incx, const double *beta, double *y, const int *incy);
void dspr_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
           double *ap);
void dspr2_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
            const double *y, const int *incy, double *ap);
void dtbmv_(const char *uplo, const char *trans, const char *diag, const int *n, const int *k,
            const double *a, const int *lda, double *x, const int *incx);
void dtbsv_(const char *uplo, const char *trans, const char *diag, const int *n, const int *k,
            const double *a, const int *lda, double *x, const int *incx);
void dtpmv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *ap,
            double *x, const int *incx);
void dtpsv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *ap,
            double *x, const int *incx);

/* ---- the program's error hooks ------------------------------------------------------------- */

static struct hook_calls {
    int xerbla;        /* calls of xerbla_ */
    char srname[16];   /* its last srname, srname_len characters */
    size_t srname_len; /* its last hidden length */
    int info;          /* its last info */
    int cblas_xerbla;  /* calls of cblas_xerbla */
    char rout[32];     /* its last routine name */
    int p;             /* its last parameter number */
    int handler;       /* reports that reached tela's error handler (tela's fallbacks) */
} hooks;

void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    hooks.xerbla++;
    hooks.srname_len = srname_len;
    size_t n = srname_len < sizeof hooks.srname - 1 ? srname_len : sizeof hooks.srname - 1;
    memcpy(hooks.srname, srname, n);
    hooks.srname[n] = '\0';
    hooks.info = *info;
}

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    hooks.cblas_xerbla++;
    snprintf(hooks.rout, sizeof hooks.rout, "%s", rout);
    hooks.p = p;
}

static void count_report(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
    hooks.handler++;
}

static int reset_hooks(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    tela_set_error_handler(count_report, NULL);
    return 0;
}

static void expect_no_reports(void)
{
    if (hooks.xerbla + hooks.cblas_xerbla + hooks.handler != 0)
        fail_msg("unexpected reports: xerbla_ %d (%s %d), cblas_xerbla %d, handler %d",
                 hooks.xerbla, hooks.srname, hooks.info, hooks.cblas_xerbla, hooks.handler);
}

/* ---- OpenBLAS's routines (gfortran's hidden string lengths last) ---------------------------- */
typedef void (*ob_gbmv_fn)(const char *, const int *, const int *, const int *, const int *,
                           const double *, const double *, const int *, const double *, const int *,
                           const double *, double *, const int *, size_t);
typedef void (*ob_sbmv_fn)(const char *, const int *, const int *, const double *, const double *,
                           const int *, const double *, const int *, const double *, double *,
                           const int *, size_t);
typedef void (*ob_spmv_fn)(const char *, const int *, const double *, const double *,
                           const double *, const int *, const double *, double *, const int *,
                           size_t);
typedef void (*ob_spr_fn)(const char *, const int *, const double *, const double *, const int *,
                          double *, size_t);
typedef void (*ob_spr2_fn)(const char *, const int *, const double *, const double *, const int *,
                           const double *, const int *, double *, size_t);
typedef void (*ob_tbmv_fn)(const char *, const char *, const char *, const int *, const int *,
                           const double *, const int *, double *, const int *, size_t, size_t,
                           size_t);
typedef void (*ob_tpmv_fn)(const char *, const char *, const char *, const int *, const double *,
                           double *, const int *, size_t, size_t, size_t);

static struct ob_routines {
    ob_gbmv_fn gbmv;
    ob_sbmv_fn sbmv;
    ob_spmv_fn spmv;
    ob_spr_fn spr;
    ob_spr2_fn spr2;
    ob_tbmv_fn tbmv, tbsv;
    ob_tpmv_fn tpmv, tpsv;
} ob;

/* One of OpenBLAS's routines, checked to live in OpenBLAS's file. */
static void ob_symbol(const struct tl_openblas *lib, const char *name, void *fn)
{
    void *address = tl_symbol(lib->handle, name, fn);
    if (!address)
        fail_msg("OpenBLAS has no %s", name);
    char file[PATH_MAX];
    assert_true(tl_file_of(address, file, sizeof file));
    if (!tl_same_file(file, lib->file))
        fail_msg("%s comes from %s, not OpenBLAS's %s", name, file, lib->file);
}

static void ob_load(const struct tl_openblas *lib)
{
    if (ob.gbmv)
        return;
    ob_symbol(lib, "dgbmv_", &ob.gbmv);
    ob_symbol(lib, "dsbmv_", &ob.sbmv);
    ob_symbol(lib, "dspmv_", &ob.spmv);
    ob_symbol(lib, "dspr_", &ob.spr);
    ob_symbol(lib, "dspr2_", &ob.spr2);
    ob_symbol(lib, "dtbmv_", &ob.tbmv);
    ob_symbol(lib, "dtbsv_", &ob.tbsv);
    ob_symbol(lib, "dtpmv_", &ob.tpmv);
    ob_symbol(lib, "dtpsv_", &ob.tpsv);
}

/* ---- vectors with increments, gaps and guards ---------------------------------------------- */

/* Sentinels on each side of every vector and packed array. */
#define GUARD ((tela_int)3)

typedef struct vec {
    double *mem;   /* GUARD sentinels, the span, GUARD sentinels */
    double *base;  /* what BLAS is handed: the span's first double */
    tela_int len;  /* elements */
    tela_int inc;  /* BLAS's increment */
    tela_int span; /* doubles from the first element stored to the last (at least 1) */
} vec;

static tela_int span_of(tela_int len, tela_int inc)
{
    return len > 0 ? 1 + (len - 1) * (inc < 0 ? -inc : inc) : 1;
}

/* Every double the sentinel; elements set by vec_fill or vec_el. */
static vec vec_new(tela_int len, tela_int inc)
{
    vec v = {NULL, NULL, len, inc, span_of(len, inc)};
    v.mem = tl_alloc(v.span + 2 * GUARD);
    for (tela_int i = 0; i < v.span + 2 * GUARD; i++)
        v.mem[i] = tl_sentinel();
    v.base = v.mem + GUARD;
    return v;
}

/* Element i as BLAS addresses it. */
static double *vec_el(const vec *v, tela_int i)
{
    return v->base + (v->inc > 0 ? i * v->inc : (v->len - 1 - i) * -v->inc);
}

static vec vec_random(tela_int len, tela_int inc)
{
    vec v = vec_new(len, inc);
    for (tela_int i = 0; i < len; i++)
        *vec_el(&v, i) = tl_uniform();
    return v;
}

static vec vec_copy(const vec *v)
{
    vec c = *v;
    c.mem = tl_copy(v->mem, v->span + 2 * GUARD);
    c.base = c.mem + GUARD;
    return c;
}

static void vec_free(vec *v)
{
    free(v->mem);
    v->mem = v->base = NULL;
}

/* got's every double (elements, gaps, guards) has want's bits. */
static void expect_same_vec(const char *what, const vec *got, const vec *want)
{
    tu_expect_same(what, got->mem, want->mem, (size_t)(got->span + 2 * GUARD));
}

/* The gaps between elements and the guards still hold the sentinel. */
static void expect_gaps(const char *what, const vec *v)
{
    const tela_int step = v->inc < 0 ? -v->inc : v->inc;
    for (tela_int p = -GUARD; p < v->span + GUARD; p++) {
        const bool element = p >= 0 && p < v->span && p % step == 0 && p / step < v->len;
        if (!element && !tl_is_sentinel(&v->base[p]))
            fail_msg("%s: gap or guard double %td (inc %td, len %td) was written", what, p, v->inc,
                     v->len);
    }
}

/* ---- dense references ---------------------------------------------------------------------- */

/* Reference BLAS's y = alpha M x + beta y, M rows x cols (column-major, ld rows), in long double:
 * beta = 0 starts from zero (a NaN in y ignored), alpha = 0 only scales. mag bounds the terms'
 * magnitudes, for the tolerance. */
static void ref_matvec(tela_int rows, tela_int cols, const double *mat, double alpha, const vec *x,
                       double beta, const vec *y, long double *ref, long double *mag)
{
    for (tela_int i = 0; i < rows; i++) {
        const long double base = beta == 0.0 ? 0.0L : (long double)beta * *vec_el(y, i);
        long double sum = 0, size = 0;
        for (tela_int j = 0; alpha != 0.0 && j < cols; j++) {
            const long double term = (long double)mat[i + j * rows] * *vec_el(x, j);
            sum += term;
            size += fabsl(term);
        }
        ref[i] = base + (long double)alpha * sum;
        mag[i] = fabsl(base) + fabsl((long double)alpha) * size;
    }
}

/* |got_i - ref_i| within a few roundings per term of the largest terms' sizes. */
static void expect_close(const char *what, const vec *got, const long double *ref,
                         const long double *mag, tela_int terms)
{
    for (tela_int i = 0; i < got->len; i++) {
        const double g = *vec_el(got, i);
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): all written */
        const long double tol = 4.0L * (long double)(terms + 4) * DBL_EPSILON * mag[i];
        if (!isfinite(g) || fabsl((long double)g - ref[i]) > tol)
            fail_msg("%s: element %td is %.17g, expected %.17Lg (tolerance %.3Lg)", what, i, g,
                     ref[i], tol);
    }
}

/* ---- storage --------------------------------------------------------------------------------- */

static double *sentinels(tela_int count)
{
    double *a = tl_alloc(count);
    for (tela_int i = 0; i < count; i++)
        a[i] = tl_sentinel();
    return a;
}

/* The m x n dense d (ld m) in BLAS's general band storage: d(i, j) at (ku + i - j) + j lda;
 * padding rows and the unused corners hold the sentinel. */
static double *general_band(const double *d, tela_int m, tela_int n, tela_int kl, tela_int ku,
                            tela_int lda)
{
    double *a = sentinels(lda * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            if (i - j <= kl && j - i <= ku)
                a[(ku + i - j) + j * lda] = d[i + j * m];
    return a;
}

/* The same matrix stored row-major, as CBLAS's CblasRowMajor dgbmv reads it: row i's band
 * from column i - kl at a[i lda], so d(i, j) at i lda + kl + j - i. */
static double *general_band_rows(const double *d, tela_int m, tela_int n, tela_int kl, tela_int ku,
                                 tela_int lda)
{
    double *a = sentinels(lda * m);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            if (i - j <= kl && j - i <= ku)
                a[i * lda + kl + j - i] = d[i + j * m];
    return a;
}

/* Where element (i, j) of the stored triangle of an order-n matrix with k off-diagonals is:
 * band (lda > 0) or packed (lda = 0), column-major; row_major reads the array as CBLAS's
 * row-major storage of the same triangle. */
static tela_int tri_index(bool upper, bool row_major, tela_int n, tela_int k, tela_int lda,
                          tela_int i, tela_int j)
{
    if (row_major) {
        /* Row i of the triangle is stored where column-major storage keeps column i of the
         * transpose, the other triangle. */
        tela_int t = i;
        i = j;
        j = t;
        upper = !upper;
    }
    if (lda > 0)
        return (upper ? k + i - j : i - j) + j * lda;
    return upper ? i + j * (j + 1) / 2 : i + j * (2 * n - j - 1) / 2;
}

static tela_int tri_len(tela_int n, tela_int lda)
{
    return lda > 0 ? lda * n : n * (n + 1) / 2;
}

/* The uplo triangle (within k off-diagonals) of the n x n dense d in band or packed storage,
 * every other double the sentinel, also the diagonal when unit_sentinel; packed arrays get
 * GUARD sentinels on each side (*mem is what to free). */
static double *tri_store(const double *d, tela_int n, tela_int k, bool upper, tela_int lda,
                         bool row_major, bool unit_sentinel, double **mem)
{
    const tela_int len = tri_len(n, lda);
    *mem = sentinels(len + 2 * GUARD);
    double *a = *mem + GUARD;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++) {
            const bool stored = upper ? i <= j && j - i <= k : i >= j && i - j <= k;
            if (stored && !(unit_sentinel && i == j))
                a[tri_index(upper, row_major, n, k, lda, i, j)] = d[i + j * n];
        }
    return a;
}

/* A random n x n matrix: symmetric with k off-diagonals (sym), or triangular (uplo) with k
 * off-diagonals, its diagonal 1 when unit. */
static double *dense_symmetric(tela_int n, tela_int k)
{
    double *d = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i <= j; i++)
            d[i + j * n] = d[j + i * n] = j - i <= k ? tl_uniform() : 0.0;
    return d;
}

static double *dense_triangular(tela_int n, tela_int k, bool upper, bool unit)
{
    double *d = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++) {
            const bool stored = upper ? i <= j && j - i <= k : i >= j && i - j <= k;
            /* A diagonal away from zero keeps the solves' answers moderate. */
            d[i + j * n] = !stored  ? 0.0
                           : i != j ? tl_uniform()
                           : unit   ? 1.0
                                    : (tl_uniform() < 0 ? -2.0 : 2.0) + tl_uniform() * 0.5;
        }
    return d;
}

/* op(d) of the dense n x n d. */
static double *dense_op(const double *d, tela_int n, bool trans)
{
    double *t = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            t[i + j * n] = trans ? d[j + i * n] : d[i + j * n];
    return t;
}

/* ---- flags ----------------------------------------------------------------------------------- */

static bool is_trans(char t)
{
    return t == 'T' || t == 't' || t == 'C' || t == 'c';
}

static CBLAS_TRANSPOSE cblas_trans_of(char t)
{
    return t == 'N' || t == 'n' ? CblasNoTrans : t == 'T' || t == 't' ? CblasTrans : CblasConjTrans;
}

static CBLAS_UPLO cblas_uplo_of(bool upper)
{
    return upper ? CblasUpper : CblasLower;
}

static CBLAS_DIAG cblas_diag_of(bool unit)
{
    return unit ? CblasUnit : CblasNonUnit;
}

/* ---- the numerical cases --------------------------------------------------------------------- */

typedef struct scalars {
    double alpha, beta;
    bool nan_y; /* y starts as NaN (only with beta = 0) */
} scalars;

static const scalars mv_scalars[] = {
    {1.0, 0.0, false}, {0.7, 1.0, false}, {-1.3, 0.4, false}, {0.0, 0.5, false},
    {0.0, 1.0, false}, {2.5, 0.0, true},  {1.0, 1.0, false},
};
#define MV_SCALARS (sizeof mv_scalars / sizeof mv_scalars[0])

static const int inc_pairs[][2] = {{1, 1}, {2, -1}, {-1, 2}, {-3, -3}, {1, -3}};
#define INC_PAIRS (sizeof inc_pairs / sizeof inc_pairs[0])

static vec y_start(tela_int len, tela_int inc, const scalars *s)
{
    vec y = vec_random(len, inc);
    if (s->nan_y)
        for (tela_int i = 0; i < len; i++)
            *vec_el(&y, i) = NAN;
    return y;
}

/* After a y = alpha M x + beta y call: y is what reference gives (unchanged bit for bit on a
 * quick return) and no gap or guard is written. */
static void expect_matvec(const char *what, const vec *got, const vec *y0, bool quick,
                          const long double *ref, const long double *mag, tela_int terms)
{
    if (quick)
        expect_same_vec(what, got, y0);
    else
        expect_close(what, got, ref, mag, terms);
    expect_gaps(what, got);
}

static void run_gbmv(char trans, int m, int n, int kl, int ku, int pad, int incx, int incy,
                     const scalars *s)
{
    char what[160];
    snprintf(what, sizeof what, "dgbmv %c m %d n %d kl %d ku %d pad %d incs %d %d alpha %g beta %g",
             trans, m, n, kl, ku, pad, incx, incy, s->alpha, s->beta);
    const bool t = is_trans(trans);
    const int len_x = t ? m : n, len_y = t ? n : m, lda = kl + ku + 1 + pad;
    double *d = tl_alloc((tela_int)m * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            d[i + j * m] = i - j <= kl && j - i <= ku ? tl_uniform() : 0.0;
    double *a = general_band(d, m, n, kl, ku, lda), *a0 = tl_copy(a, (tela_int)lda * n);
    double *opd = tl_alloc((tela_int)m * n); /* op(d), len_y x len_x */
    for (int j = 0; j < len_x; j++)
        for (int i = 0; i < len_y; i++)
            opd[i + j * len_y] = t ? d[j + i * m] : d[i + j * len_y];
    vec x = vec_random(len_x, incx), x0 = vec_copy(&x), y0 = y_start(len_y, incy, s);
    long double *ref = malloc(sizeof(long double) * (size_t)(len_y + 1));
    long double *mag = malloc(sizeof(long double) * (size_t)(len_y + 1));
    ref_matvec(len_y, len_x, opd, s->alpha, &x, s->beta, &y0, ref, mag);
    const bool quick = m == 0 || n == 0 || (s->alpha == 0.0 && s->beta == 1.0);

    vec y1 = vec_copy(&y0);
    assert_int_equal(tela_dgbmv(tela_par_seq(), trans, m, n, kl, ku, s->alpha, a, lda, x.base, incx,
                                s->beta, y1.base, incy),
                     0);
    expect_matvec(what, &y1, &y0, quick, ref, mag, len_x);
    tu_expect_same("dgbmv: A untouched", a, a0, (size_t)lda * (size_t)n);
    expect_same_vec("dgbmv: x untouched", &x, &x0);

    vec y2 = vec_copy(&y0);
    dgbmv_(&trans, &m, &n, &kl, &ku, &s->alpha, a, &lda, x.base, &incx, &s->beta, y2.base, &incy);
    expect_same_vec("dgbmv_ against tela_dgbmv", &y2, &y1);
    vec y3 = vec_copy(&y0);
    cblas_dgbmv(CblasColMajor, cblas_trans_of(trans), m, n, kl, ku, s->alpha, a, lda, x.base, incx,
                s->beta, y3.base, incy);
    expect_same_vec("cblas_dgbmv against tela_dgbmv", &y3, &y1);

    /* Row-major: the same A stored by rows. */
    double *ar = general_band_rows(d, m, n, kl, ku, lda);
    vec y4 = vec_copy(&y0);
    cblas_dgbmv(CblasRowMajor, cblas_trans_of(trans), m, n, kl, ku, s->alpha, ar, lda, x.base, incx,
                s->beta, y4.base, incy);
    expect_matvec("cblas_dgbmv row-major", &y4, &y0, quick, ref, mag, len_x);

    if (!s->nan_y) { /* OpenBLAS, from the same arrays, is held to the same reference */
        vec y5 = vec_copy(&y0);
        ob.gbmv(&trans, &m, &n, &kl, &ku, &s->alpha, a, &lda, x.base, &incx, &s->beta, y5.base,
                &incy, 1);
        expect_matvec("OpenBLAS dgbmv (the test's reference)", &y5, &y0, quick, ref, mag, len_x);
        vec_free(&y5);
    }
    expect_no_reports();
    free(d), free(a), free(a0), free(opd), free(ar), free(ref), free(mag);
    vec_free(&x), vec_free(&x0), vec_free(&y0), vec_free(&y1), vec_free(&y2), vec_free(&y3);
    vec_free(&y4);
}

static void test_gbmv(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(lib);
    ob_load(lib);
    static const int shapes[][2] = {{0, 4}, {4, 0}, {1, 1}, {7, 5}, {5, 9}, {16, 16}, {37, 30}};
    static const char trans[] = {'N', 'T', 'C', 'n', 't'};
    int count = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        const int m = shapes[sh][0], n = shapes[sh][1];
        /* kl, ku: none, one, several, and past the matrix's edges */
        const int bands[][2] = {{0, 0}, {1, 0}, {0, 2}, {2, 3}, {3, 1}, {m + 2, n + 3}};
        for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++)
            for (size_t t = 0; t < sizeof trans; t++)
                for (size_t s = 0; s < MV_SCALARS; s++) {
                    /* Every increment pair with one pair of scalars, every pair of scalars
                     * with a rotating increment pair. */
                    const size_t inc = (s + b + t) % INC_PAIRS;
                    run_gbmv(trans[t], m, n, bands[b][0], bands[b][1], (int)(count++ % 3),
                             inc_pairs[inc][0], inc_pairs[inc][1], &mv_scalars[s]);
                    if (s == 2)
                        for (size_t i = 0; i < INC_PAIRS; i++)
                            run_gbmv(trans[t], m, n, bands[b][0], bands[b][1], 1, inc_pairs[i][0],
                                     inc_pairs[i][1], &mv_scalars[s]);
                }
    }
}

/* dsbmv (lda > 0) and dspmv (lda = 0) on one symmetric matrix. */
static void run_symmetric(bool packed, bool upper, int n, int k, int pad, int incx, int incy,
                          const scalars *s)
{
    char what[160];
    snprintf(what, sizeof what, "%s %c n %d k %d pad %d incs %d %d alpha %g beta %g",
             packed ? "dspmv" : "dsbmv", upper ? 'U' : 'L', n, k, pad, incx, incy, s->alpha,
             s->beta);
    const char uplo = upper ? 'U' : 'L';
    if (packed)
        k = n > 0 ? n - 1 : 0;
    const int lda = packed ? 0 : k + 1 + pad;
    double *d = dense_symmetric(n, k), *mem, *rmem;
    double *a = tri_store(d, n, k, upper, lda, false, false, &mem);
    double *ar = tri_store(d, n, k, upper, lda, true, false, &rmem);
    double *mem0 = tl_copy(mem, tri_len(n, lda) + 2 * GUARD);
    vec x = vec_random(n, incx), x0 = vec_copy(&x), y0 = y_start(n, incy, s);
    long double *ref = malloc(sizeof(long double) * (size_t)(n + 1));
    long double *mag = malloc(sizeof(long double) * (size_t)(n + 1));
    ref_matvec(n, n, d, s->alpha, &x, s->beta, &y0, ref, mag);
    const bool quick = n == 0 || (s->alpha == 0.0 && s->beta == 1.0);

    vec y1 = vec_copy(&y0), y2 = vec_copy(&y0), y3 = vec_copy(&y0), y4 = vec_copy(&y0);
    vec y5 = vec_copy(&y0);
    if (packed) {
        assert_int_equal(
            tela_dspmv(tela_par_seq(), uplo, n, s->alpha, a, x.base, incx, s->beta, y1.base, incy),
            0);
        dspmv_(&uplo, &n, &s->alpha, a, x.base, &incx, &s->beta, y2.base, &incy);
        cblas_dspmv(CblasColMajor, cblas_uplo_of(upper), n, s->alpha, a, x.base, incx, s->beta,
                    y3.base, incy);
        cblas_dspmv(CblasRowMajor, cblas_uplo_of(upper), n, s->alpha, ar, x.base, incx, s->beta,
                    y4.base, incy);
        if (!s->nan_y)
            ob.spmv(&uplo, &n, &s->alpha, a, x.base, &incx, &s->beta, y5.base, &incy, 1);
    } else {
        assert_int_equal(tela_dsbmv(tela_par_seq(), uplo, n, k, s->alpha, a, lda, x.base, incx,
                                    s->beta, y1.base, incy),
                         0);
        dsbmv_(&uplo, &n, &k, &s->alpha, a, &lda, x.base, &incx, &s->beta, y2.base, &incy);
        cblas_dsbmv(CblasColMajor, cblas_uplo_of(upper), n, k, s->alpha, a, lda, x.base, incx,
                    s->beta, y3.base, incy);
        cblas_dsbmv(CblasRowMajor, cblas_uplo_of(upper), n, k, s->alpha, ar, lda, x.base, incx,
                    s->beta, y4.base, incy);
        if (!s->nan_y)
            ob.sbmv(&uplo, &n, &k, &s->alpha, a, &lda, x.base, &incx, &s->beta, y5.base, &incy, 1);
    }
    expect_matvec(what, &y1, &y0, quick, ref, mag, n);
    tu_expect_same("A untouched", mem, mem0, (size_t)(tri_len(n, lda) + 2 * GUARD));
    expect_same_vec("x untouched", &x, &x0);
    expect_same_vec("Fortran symbol against the native call", &y2, &y1);
    expect_same_vec("CBLAS column-major against the native call", &y3, &y1);
    expect_matvec("CBLAS row-major", &y4, &y0, quick, ref, mag, n);
    if (!s->nan_y)
        expect_matvec("OpenBLAS (the test's reference)", &y5, &y0, quick, ref, mag, n);
    expect_no_reports();
    free(d), free(mem), free(rmem), free(mem0), free(ref), free(mag);
    vec_free(&x), vec_free(&x0), vec_free(&y0), vec_free(&y1), vec_free(&y2), vec_free(&y3);
    vec_free(&y4), vec_free(&y5);
}

static void test_symmetric(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(lib);
    ob_load(lib);
    static const int orders[] = {0, 1, 2, 7, 16, 33};
    int count = 0;
    for (int packed = 0; packed < 2; packed++)
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            const int n = orders[o];
            const int ks[] = {0, 1, 3, n + 2};
            for (size_t kk = 0; kk < (packed ? 1 : sizeof ks / sizeof ks[0]); kk++)
                for (int upper = 0; upper < 2; upper++)
                    for (size_t s = 0; s < MV_SCALARS; s++) {
                        const size_t inc = (s + kk + (size_t)upper) % INC_PAIRS;
                        run_symmetric(packed, upper, n, ks[kk], (int)(count++ % 3),
                                      inc_pairs[inc][0], inc_pairs[inc][1], &mv_scalars[s]);
                        if (s == 2)
                            for (size_t i = 0; i < INC_PAIRS; i++)
                                run_symmetric(packed, upper, n, ks[kk], 2, inc_pairs[i][0],
                                              inc_pairs[i][1], &mv_scalars[s]);
                    }
        }
}

/* dtbmv, dtbsv (lda > 0), dtpmv, dtpsv (lda = 0) on one triangular matrix. */
static void run_triangular(bool packed, bool solve, bool upper, char trans, bool unit, int n, int k,
                           int pad, int incx)
{
    char what[160];
    snprintf(what, sizeof what, "%s %c %c %c n %d k %d pad %d incx %d",
             packed ? (solve ? "dtpsv" : "dtpmv") : (solve ? "dtbsv" : "dtbmv"), upper ? 'U' : 'L',
             trans, unit ? 'U' : 'N', n, k, pad, incx);
    const char uplo = upper ? 'U' : 'L', diag = unit ? 'U' : 'N';
    if (packed)
        k = n > 0 ? n - 1 : 0;
    const int lda = packed ? 0 : k + 1 + pad;
    /* A unit triangle's stored diagonal is the sentinel: reading it poisons the answer. */
    double *d = dense_triangular(n, k, upper, unit), *mem, *rmem;
    double *a = tri_store(d, n, k, upper, lda, false, unit, &mem);
    double *ar = tri_store(d, n, k, upper, lda, true, unit, &rmem);
    double *mem0 = tl_copy(mem, tri_len(n, lda) + 2 * GUARD);
    double *opd = dense_op(d, n, is_trans(trans));
    vec b = vec_random(n, incx);
    long double *ref = malloc(sizeof(long double) * (size_t)(n + 1));
    long double *mag = malloc(sizeof(long double) * (size_t)(n + 1));

    vec x1 = vec_copy(&b), x2 = vec_copy(&b), x3 = vec_copy(&b), x4 = vec_copy(&b);
    vec x5 = vec_copy(&b);
    const CBLAS_UPLO cu = cblas_uplo_of(upper);
    const CBLAS_TRANSPOSE ct = cblas_trans_of(trans);
    const CBLAS_DIAG cd = cblas_diag_of(unit);
    int rc;
    if (packed && solve) {
        rc = tela_dtpsv(tela_par_seq(), uplo, trans, diag, n, a, x1.base, incx);
        dtpsv_(&uplo, &trans, &diag, &n, a, x2.base, &incx);
        cblas_dtpsv(CblasColMajor, cu, ct, cd, n, a, x3.base, incx);
        cblas_dtpsv(CblasRowMajor, cu, ct, cd, n, ar, x4.base, incx);
        ob.tpsv(&uplo, &trans, &diag, &n, a, x5.base, &incx, 1, 1, 1);
    } else if (packed) {
        rc = tela_dtpmv(tela_par_seq(), uplo, trans, diag, n, a, x1.base, incx);
        dtpmv_(&uplo, &trans, &diag, &n, a, x2.base, &incx);
        cblas_dtpmv(CblasColMajor, cu, ct, cd, n, a, x3.base, incx);
        cblas_dtpmv(CblasRowMajor, cu, ct, cd, n, ar, x4.base, incx);
        ob.tpmv(&uplo, &trans, &diag, &n, a, x5.base, &incx, 1, 1, 1);
    } else if (solve) {
        rc = tela_dtbsv(tela_par_seq(), uplo, trans, diag, n, k, a, lda, x1.base, incx);
        dtbsv_(&uplo, &trans, &diag, &n, &k, a, &lda, x2.base, &incx);
        cblas_dtbsv(CblasColMajor, cu, ct, cd, n, k, a, lda, x3.base, incx);
        cblas_dtbsv(CblasRowMajor, cu, ct, cd, n, k, ar, lda, x4.base, incx);
        ob.tbsv(&uplo, &trans, &diag, &n, &k, a, &lda, x5.base, &incx, 1, 1, 1);
    } else {
        rc = tela_dtbmv(tela_par_seq(), uplo, trans, diag, n, k, a, lda, x1.base, incx);
        dtbmv_(&uplo, &trans, &diag, &n, &k, a, &lda, x2.base, &incx);
        cblas_dtbmv(CblasColMajor, cu, ct, cd, n, k, a, lda, x3.base, incx);
        cblas_dtbmv(CblasRowMajor, cu, ct, cd, n, k, ar, lda, x4.base, incx);
        ob.tbmv(&uplo, &trans, &diag, &n, &k, a, &lda, x5.base, &incx, 1, 1, 1);
    }
    assert_int_equal(rc, 0);
    const vec *results[] = {&x1, &x4, &x5};
    const char *labels[] = {"native", "CBLAS row-major", "OpenBLAS (the test's reference)"};
    for (int r = 0; r < 3; r++) {
        char label[220];
        snprintf(label, sizeof label, "%s, %s", what, labels[r]);
        if (solve) {
            /* Componentwise backward error: op(A) x - b within a few roundings per term of
             * |op(A)| |x| (triangular substitution is backward stable that way). */
            ref_matvec(n, n, opd, 1.0, results[r], -1.0, &b, ref, mag);
            for (tela_int i = 0; i < n; i++) {
                const long double tol = 4.0L * (n + 4) * DBL_EPSILON * mag[i];
                if (!(fabsl(ref[i]) <= tol))
                    fail_msg("%s: residual %Lg of row %td above %Lg", label, ref[i], i, tol);
            }
            expect_gaps(label, results[r]);
        } else {
            ref_matvec(n, n, opd, 1.0, &b, 0.0, &b, ref, mag);
            expect_matvec(label, results[r], &b, n == 0, ref, mag, n);
        }
    }
    tu_expect_same("A untouched", mem, mem0, (size_t)(tri_len(n, lda) + 2 * GUARD));
    expect_same_vec("Fortran symbol against the native call", &x2, &x1);
    expect_same_vec("CBLAS column-major against the native call", &x3, &x1);
    expect_no_reports();
    free(d), free(mem), free(rmem), free(mem0), free(opd), free(ref), free(mag);
    vec_free(&b), vec_free(&x1), vec_free(&x2), vec_free(&x3), vec_free(&x4), vec_free(&x5);
}

static void test_triangular(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(lib);
    ob_load(lib);
    static const int orders[] = {0, 1, 2, 7, 16, 33};
    static const char trans[] = {'N', 'T', 'C', 'n', 't'};
    static const int incs[] = {1, 2, -1, -3};
    int count = 0;
    for (int packed = 0; packed < 2; packed++)
        for (int solve = 0; solve < 2; solve++)
            for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
                const int n = orders[o];
                const int ks[] = {0, 1, 3, n + 1};
                for (size_t kk = 0; kk < (packed ? 1 : sizeof ks / sizeof ks[0]); kk++)
                    for (int upper = 0; upper < 2; upper++)
                        for (size_t t = 0; t < sizeof trans; t++)
                            for (int unit = 0; unit < 2; unit++) {
                                count++;
                                run_triangular(packed, solve, upper, trans[t], unit, n, ks[kk],
                                               count % 3, incs[count % 4]);
                            }
            }
}

/* dspr (two = false) and dspr2 on one packed triangle. */
static void run_rank(bool two, bool upper, int n, double alpha, int incx, int incy)
{
    char what[160];
    snprintf(what, sizeof what, "%s %c n %d alpha %g incs %d %d", two ? "dspr2" : "dspr",
             upper ? 'U' : 'L', n, alpha, incx, incy);
    const char uplo = upper ? 'U' : 'L';
    double *d = dense_symmetric(n, n), *mem, *rmem;
    /* The arrays handed out are copies of mem and rmem (guards included). */
    (void)tri_store(d, n, n, upper, 0, false, false, &mem);
    (void)tri_store(d, n, n, upper, 0, true, false, &rmem);
    const tela_int len = tri_len(n, 0) + 2 * GUARD;
    vec x = vec_random(n, incx), y = vec_random(n, incy), x0 = vec_copy(&x), y0 = vec_copy(&y);
    double *a1 = tl_copy(mem, len), *a2 = tl_copy(mem, len), *a3 = tl_copy(mem, len);
    double *a4 = tl_copy(rmem, len), *a5 = tl_copy(mem, len);
    if (two) {
        assert_int_equal(
            tela_dspr2(tela_par_seq(), uplo, n, alpha, x.base, incx, y.base, incy, a1 + GUARD), 0);
        dspr2_(&uplo, &n, &alpha, x.base, &incx, y.base, &incy, a2 + GUARD);
        cblas_dspr2(CblasColMajor, cblas_uplo_of(upper), n, alpha, x.base, incx, y.base, incy,
                    a3 + GUARD);
        cblas_dspr2(CblasRowMajor, cblas_uplo_of(upper), n, alpha, x.base, incx, y.base, incy,
                    a4 + GUARD);
        ob.spr2(&uplo, &n, &alpha, x.base, &incx, y.base, &incy, a5 + GUARD, 1);
    } else {
        assert_int_equal(tela_dspr(tela_par_seq(), uplo, n, alpha, x.base, incx, a1 + GUARD), 0);
        dspr_(&uplo, &n, &alpha, x.base, &incx, a2 + GUARD);
        cblas_dspr(CblasColMajor, cblas_uplo_of(upper), n, alpha, x.base, incx, a3 + GUARD);
        cblas_dspr(CblasRowMajor, cblas_uplo_of(upper), n, alpha, x.base, incx, a4 + GUARD);
        ob.spr(&uplo, &n, &alpha, x.base, &incx, a5 + GUARD, 1);
    }
    tu_expect_same("Fortran symbol against the native call", a2, a1, (size_t)len);
    tu_expect_same("CBLAS column-major against the native call", a3, a1, (size_t)len);
    const double *got[] = {a1, a4, a5};
    const bool rows[] = {false, true, false};
    const char *labels[] = {"native", "CBLAS row-major", "OpenBLAS (the test's reference)"};
    for (int r = 0; r < 3; r++) {
        const double *g = got[r] + GUARD;
        const double *mem_r = got[r];
        for (int p = 0; p < GUARD; p++)
            if (!tl_is_sentinel(&mem_r[p]) || !tl_is_sentinel(&mem_r[len - 1 - p]))
                fail_msg("%s, %s: a guard of the packed array was written", what, labels[r]);
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = upper ? 0 : j; i < (upper ? j + 1 : n); i++) {
                const long double xi = *vec_el(&x, i), xj = *vec_el(&x, j);
                const long double yi = *vec_el(&y, i), yj = *vec_el(&y, j);
                const long double add = two ? alpha * (xi * yj + yi * xj) : alpha * xi * xj;
                const long double aij = d[i + j * n];
                const long double want = alpha == 0.0 ? aij : aij + add;
                const long double terms = two ? fabsl(xi * yj) + fabsl(yi * xj) : fabsl(xi * xj);
                const long double tol = 8.0L * DBL_EPSILON * (fabsl(aij) + fabsl(alpha) * terms);
                const double have = g[tri_index(upper, rows[r], n, n, 0, i, j)];
                if (!(fabsl(have - want) <= tol))
                    fail_msg("%s, %s: A(%td, %td) is %.17g, expected %.17Lg", what, labels[r], i, j,
                             have, want);
            }
    }
    expect_same_vec("x untouched", &x, &x0);
    expect_same_vec("y untouched", &y, &y0);
    expect_no_reports();
    free(d), free(mem), free(rmem), free(a1), free(a2), free(a3), free(a4), free(a5);
    vec_free(&x), vec_free(&y), vec_free(&x0), vec_free(&y0);
}

static void test_rank(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(lib);
    ob_load(lib);
    static const int orders[] = {0, 1, 2, 7, 16, 33};
    static const double alphas[] = {0.0, 1.0, -0.6, 2.1};
    for (int two = 0; two < 2; two++)
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++)
            for (int upper = 0; upper < 2; upper++)
                for (size_t al = 0; al < sizeof alphas / sizeof alphas[0]; al++)
                    for (size_t i = 0; i < INC_PAIRS; i++)
                        run_rank(two, upper, orders[o], alphas[al], inc_pairs[i][0],
                                 inc_pairs[i][1]);
}

/* ---- reference's rules for zeros, NaN and Inf ------------------------------------------------ */

static bool all_finite(const double *x, tela_int n, tela_int inc)
{
    for (tela_int i = 0; i < n; i++)
        if (!isfinite(x[i * inc]))
            return false;
    return true;
}

/* dgbmv, dsbmv and dspmv never skip a zero x_j: its column's NaN reaches y; beta = 0 drops a NaN
 * of y; alpha = 0 reads neither A nor x; an empty band column still adds alpha times 0. */
static void test_matvec_rules(void **state)
{
    (void)state;
    const double nan = NAN, inf = INFINITY;
    /* A 4 x 4 tridiagonal band (kl = ku = 1), lda 3: A(2, 1) (row 2 of column 1) NaN. */
    double a[12], x[4], y[4];
    for (int i = 0; i < 12; i++)
        a[i] = 1.0;
    a[(1 + 2 - 1) + 1 * 3] = nan;
    for (int trans = 0; trans < 2; trans++) {
        for (int i = 0; i < 4; i++)
            x[i] = 1.0, y[i] = 0.0;
        x[trans ? 2 : 1] = 0.0; /* the x element that multiplies A(2, 1) */
        assert_int_equal(
            tela_dgbmv(tela_par_seq(), trans ? 'T' : 'N', 4, 4, 1, 1, 1.0, a, 3, x, 1, 0.0, y, 1),
            0);
        /* N: y_2 = ... + A(2, 1) x_1 = NaN * 0; T: y_1 = ... + A(2, 1) x_2. */
        assert_true(isnan(y[trans ? 1 : 2]));
        assert_true(isfinite(y[0]) && isfinite(y[3]));
    }
    /* beta = 0 over NaN, alpha = 0: A and x all NaN, never read. */
    double an[12], xn[4];
    for (int i = 0; i < 12; i++)
        an[i] = nan;
    for (int i = 0; i < 4; i++)
        xn[i] = nan, y[i] = nan;
    assert_int_equal(tela_dgbmv(tela_par_seq(), 'N', 4, 4, 1, 1, 0.0, an, 3, xn, 1, 0.0, y, 1), 0);
    for (int i = 0; i < 4; i++)
        assert_true(y[i] == 0.0 && !signbit(y[i]));
    for (int i = 0; i < 4; i++)
        y[i] = i + 1.0;
    assert_int_equal(tela_dgbmv(tela_par_seq(), 'T', 4, 4, 1, 1, 0.0, an, 3, xn, 1, 2.0, y, 1), 0);
    for (int i = 0; i < 4; i++)
        assert_true(y[i] == 2.0 * (i + 1));
    /* alpha = 0, beta = 1: a quick return, NULL arrays never touched. */
    assert_int_equal(
        tela_dgbmv(tela_par_seq(), 'N', 4, 4, 1, 1, 0.0, NULL, 3, NULL, 1, 1.0, NULL, 1), 0);
    /* m = 0 with op = T: reference returns before scaling y's n elements. */
    for (int i = 0; i < 4; i++)
        y[i] = nan;
    assert_int_equal(tela_dgbmv(tela_par_seq(), 'T', 0, 4, 1, 1, 1.0, a, 3, x, 1, 0.0, y, 1), 0);
    assert_true(all_finite(y, 4, 1) == false && isnan(y[0]) && isnan(y[3]));
    /* op = T, 2 x 6 with ku = 1: columns 3.. hold no band; alpha = Inf makes them NaN (y_j +
     * Inf 0), as reference's loop does; column 0 gets Inf. */
    double b[2 * 6], ones[2] = {1.0, 1.0}, z[6];
    for (int i = 0; i < 12; i++)
        b[i] = 0.5;
    for (int i = 0; i < 6; i++)
        z[i] = 1.0;
    assert_int_equal(tela_dgbmv(tela_par_seq(), 'T', 2, 6, 0, 1, inf, b, 2, ones, 1, 1.0, z, 1), 0);
    assert_true(z[0] == inf && z[1] == inf && z[2] == inf);
    assert_true(isnan(z[3]) && isnan(z[4]) && isnan(z[5]));

    /* Symmetric: x_1 = 0 and A(0, 1) = NaN: both y_0 (A(0, 1) x_1) and y_1 (A(0, 1) x_0) NaN,
     * y_2 clean; band (k = 1, lda 2) and packed, both triangles. */
    for (int packed = 0; packed < 2; packed++)
        for (int upper = 0; upper < 2; upper++) {
            double s[6];
            for (int i = 0; i < 6; i++)
                s[i] = 1.0;
            /* A(0, 1) in the stored triangle: upper (k + 0 - 1) + 1 lda or packed 1; lower
             * (1 - 0) + 0 lda or packed 1. */
            s[packed ? 1 : upper ? 0 + 1 * 2 : 1] = nan;
            double xs[3] = {1.0, 0.0, 1.0}, ys[3] = {0, 0, 0};
            if (packed)
                assert_int_equal(
                    tela_dspmv(tela_par_seq(), upper ? 'U' : 'L', 3, 1.0, s, xs, 1, 0.0, ys, 1), 0);
            else
                assert_int_equal(tela_dsbmv(tela_par_seq(), upper ? 'U' : 'L', 3, 1, 1.0, s, 2, xs,
                                            1, 0.0, ys, 1),
                                 0);
            assert_true(isnan(ys[0]) && isnan(ys[1]) && isfinite(ys[2]));
        }
    expect_no_reports();
}

/* dtbmv, dtpmv, dtbsv and dtpsv with op = N skip a column whose x_j is zero (its NaN never
 * reaches x, its zero diagonal is never divided by); op = T skips nothing. */
static void test_triangular_rules(void **state)
{
    (void)state;
    const double nan = NAN;
    for (int packed = 0; packed < 2; packed++) {
        /* Upper 3 x 3, full (k = 2, lda 3): column 1 is NaN, diagonal included. */
        double a[9], ap[6];
        for (int i = 0; i < 9; i++)
            a[i] = 1.0;
        for (int i = 0; i < 6; i++)
            ap[i] = 1.0;
        a[(2 + 0 - 1) + 1 * 3] = a[(2 + 1 - 1) + 1 * 3] = nan; /* A(0, 1), A(1, 1) */
        ap[1] = ap[2] = nan;
        double x[3] = {1.0, 0.0, 1.0};
        if (packed)
            assert_int_equal(tela_dtpmv(tela_par_seq(), 'U', 'N', 'N', 3, ap, x, 1), 0);
        else
            assert_int_equal(tela_dtbmv(tela_par_seq(), 'U', 'N', 'N', 3, 2, a, 3, x, 1), 0);
        assert_true(x[0] == 2.0 && x[1] == 1.0 && x[2] == 1.0); /* x_1 = A(1, 2) x_2, rest 0 */
        double xt[3] = {1.0, 0.0, 1.0};
        if (packed)
            assert_int_equal(tela_dtpmv(tela_par_seq(), 'U', 'T', 'N', 3, ap, xt, 1), 0);
        else
            assert_int_equal(tela_dtbmv(tela_par_seq(), 'U', 'T', 'N', 3, 2, a, 3, xt, 1), 0);
        assert_true(xt[0] == 1.0 && isnan(xt[1])); /* x_1 = A(0, 1) x_0 + A(1, 1) x_1 */

        /* Upper 3 x 3 with a zero diagonal after the first: b = e_0 solves to (1/2, 0, 0)
         * only because columns 1 and 2 are skipped (0 / 0 otherwise). */
        double s[9] = {0, 0, 2.0, 0, 0.5, 0.0, 0, 0.25, 0.0}; /* band k = 2: A(0,0) = 2 */
        double sp[6] = {2.0, 0.5, 0.0, 0.25, 0.75, 0.0};
        double b[3] = {1.0, 0.0, 0.0};
        if (packed)
            assert_int_equal(tela_dtpsv(tela_par_seq(), 'U', 'N', 'N', 3, sp, b, 1), 0);
        else
            assert_int_equal(tela_dtbsv(tela_par_seq(), 'U', 'N', 'N', 3, 2, s, 3, b, 1), 0);
        assert_true(b[0] == 0.5 && b[1] == 0.0 && b[2] == 0.0);
        double bt[3] = {1.0, 0.0, 0.0};
        if (packed)
            assert_int_equal(tela_dtpsv(tela_par_seq(), 'U', 'T', 'N', 3, sp, bt, 1), 0);
        else
            assert_int_equal(tela_dtbsv(tela_par_seq(), 'U', 'T', 'N', 3, 2, s, 3, bt, 1), 0);
        /* op = T skips nothing: x_1 = (0 - A(0, 1) x_0) / 0 = -Inf, x_2 = (0 - A(1, 2) x_1 - ...)
         * / 0 = +Inf. */
        assert_true(bt[0] == 0.5 && isinf(bt[1]) && bt[1] < 0 && isinf(bt[2]) && bt[2] > 0);
    }
    expect_no_reports();
}

/* dspr and dspr2 leave a column alone when x_j (and y_j) is zero, whatever Inf the others hold;
 * alpha = 0 reads nothing. */
static void test_rank_rules(void **state)
{
    (void)state;
    const double inf = INFINITY;
    for (int upper = 0; upper < 2; upper++) {
        const char uplo = upper ? 'U' : 'L';
        double ap[6], x[3] = {inf, 0.0, 1.0};
        for (int i = 0; i < 6; i++)
            ap[i] = 1.0;
        assert_int_equal(tela_dspr(tela_par_seq(), uplo, 3, 1.0, x, 1, ap), 0);
        /* Column 1's stored part: upper A(0, 1), A(1, 1) at 1, 2; lower A(1, 1), A(2, 1) at 3,
         * 4. Untouched: x_1 = 0 (Inf 0 would be NaN). */
        const int c1a = upper ? 1 : 3, c1b = upper ? 2 : 4;
        assert_true(ap[c1a] == 1.0 && ap[c1b] == 1.0);
        assert_true(isnan(ap[0]) || isinf(ap[0])); /* A(0, 0) += Inf Inf */

        double ap2[6], y[3] = {0.0, 0.0, 1.0}, x2[3] = {inf, 0.0, 0.0};
        for (int i = 0; i < 6; i++)
            ap2[i] = 1.0;
        assert_int_equal(tela_dspr2(tela_par_seq(), uplo, 3, 1.0, x2, 1, y, 1, ap2), 0);
        assert_true(ap2[c1a] == 1.0 && ap2[c1b] == 1.0); /* x_1 = y_1 = 0: skipped */
        /* Column 2 (y_2 = 1): updated; upper A(0, 2) += x_0 y_2 = Inf. */
        if (upper)
            assert_true(ap2[3] == inf);

        double ap3[6], xn[3] = {NAN, NAN, NAN};
        for (int i = 0; i < 6; i++)
            ap3[i] = 1.0;
        assert_int_equal(tela_dspr(tela_par_seq(), uplo, 3, 0.0, xn, 1, ap3), 0);
        assert_int_equal(tela_dspr2(tela_par_seq(), uplo, 3, 0.0, xn, 1, xn, 1, ap3), 0);
        for (int i = 0; i < 6; i++)
            assert_true(ap3[i] == 1.0);
    }
    expect_no_reports();
}

/* ---- argument errors ------------------------------------------------------------------------- */

#define OUT_LEN 64
#define F77     0 /* the layout value that means "through the Fortran symbol" */

/* One bad call of any of the routines: what it is given and the report expected. Flags are
 * characters for the Fortran symbols, CBLAS enum values otherwise. */
typedef struct bad_call {
    const char *hook; /* "xerbla_" or "cblas_xerbla" */
    int number;
    int layout;
    int uplo, trans, diag;
    int m, n, kl, ku, lda, incx, incy;
} bad_call;

/* After one bad call: out still holds the sentinel, and exactly one report was made to hook with
 * number, naming the routine as srname (xerbla_) or rout (cblas_xerbla). */
static void check_report(const char *what, int index, const bad_call *bc, const char *srname,
                         const char *rout, const double *out)
{
    for (int i = 0; i < OUT_LEN; i++)
        if (!tl_is_sentinel(&out[i]))
            fail_msg("%s case %d: element %d written by a call with a bad argument", what, index,
                     i);
    if (strcmp(bc->hook, "xerbla_") == 0) {
        if (hooks.xerbla != 1 || hooks.cblas_xerbla != 0)
            fail_msg("%s case %d: xerbla_ called %d times, cblas_xerbla %d (expected 1, 0)", what,
                     index, hooks.xerbla, hooks.cblas_xerbla);
        assert_int_equal(hooks.srname_len, 6);
        assert_string_equal(hooks.srname, srname);
        if (hooks.info != bc->number)
            fail_msg("%s case %d: xerbla_ got info %d, expected %d", what, index, hooks.info,
                     bc->number);
    } else {
        if (hooks.cblas_xerbla != 1 || hooks.xerbla != 0)
            fail_msg("%s case %d: cblas_xerbla called %d times, xerbla_ %d (expected 1, 0)", what,
                     index, hooks.cblas_xerbla, hooks.xerbla);
        assert_string_equal(hooks.rout, rout);
        if (hooks.p != bc->number)
            fail_msg("%s case %d: cblas_xerbla got %d, expected %d", what, index, hooks.p,
                     bc->number);
    }
    assert_int_equal(hooks.handler, 0);
}

typedef enum routine {
    R_GBMV,
    R_SBMV,
    R_SPMV,
    R_SPR,
    R_SPR2,
    R_TBMV,
    R_TBSV,
    R_TPMV,
    R_TPSV
} routine;
static const char *const srnames[] = {"DGBMV ", "DSBMV ", "DSPMV ", "DSPR  ", "DSPR2 ",
                                      "DTBMV ", "DTBSV ", "DTPMV ", "DTPSV "};
static const char *const routs[] = {"cblas_dgbmv", "cblas_dsbmv", "cblas_dspmv",
                                    "cblas_dspr",  "cblas_dspr2", "cblas_dtbmv",
                                    "cblas_dtbsv", "cblas_dtpmv", "cblas_dtpsv"};

static void expect_report(routine r, const bad_call *bc, int index)
{
    double a[OUT_LEN], x[OUT_LEN], out[OUT_LEN];
    for (int i = 0; i < OUT_LEN; i++)
        a[i] = x[i] = 1.0, out[i] = tl_sentinel();
    memset(&hooks, 0, sizeof hooks);
    const double alpha = 1.0, beta = 0.0;
    const char ul = (char)bc->uplo, tr = (char)bc->trans, dg = (char)bc->diag;
    const bool f = bc->layout == F77;
    const CBLAS_LAYOUT lay = (CBLAS_LAYOUT)bc->layout;
    const CBLAS_UPLO cu = (CBLAS_UPLO)bc->uplo;
    const CBLAS_TRANSPOSE ct = (CBLAS_TRANSPOSE)bc->trans;
    const CBLAS_DIAG cd = (CBLAS_DIAG)bc->diag;
    switch (r) {
    case R_GBMV:
        if (f)
            dgbmv_(&tr, &bc->m, &bc->n, &bc->kl, &bc->ku, &alpha, a, &bc->lda, x, &bc->incx, &beta,
                   out, &bc->incy);
        else
            cblas_dgbmv(lay, ct, bc->m, bc->n, bc->kl, bc->ku, alpha, a, bc->lda, x, bc->incx, beta,
                        out, bc->incy);
        break;
    case R_SBMV:
        if (f)
            dsbmv_(&ul, &bc->n, &bc->kl, &alpha, a, &bc->lda, x, &bc->incx, &beta, out, &bc->incy);
        else
            cblas_dsbmv(lay, cu, bc->n, bc->kl, alpha, a, bc->lda, x, bc->incx, beta, out,
                        bc->incy);
        break;
    case R_SPMV:
        if (f)
            dspmv_(&ul, &bc->n, &alpha, a, x, &bc->incx, &beta, out, &bc->incy);
        else
            cblas_dspmv(lay, cu, bc->n, alpha, a, x, bc->incx, beta, out, bc->incy);
        break;
    case R_SPR:
        if (f)
            dspr_(&ul, &bc->n, &alpha, x, &bc->incx, out);
        else
            cblas_dspr(lay, cu, bc->n, alpha, x, bc->incx, out);
        break;
    case R_SPR2:
        if (f)
            dspr2_(&ul, &bc->n, &alpha, x, &bc->incx, a, &bc->incy, out);
        else
            cblas_dspr2(lay, cu, bc->n, alpha, x, bc->incx, a, bc->incy, out);
        break;
    case R_TBMV:
    case R_TBSV:
        if (f)
            (r == R_TBMV ? dtbmv_ : dtbsv_)(&ul, &tr, &dg, &bc->n, &bc->kl, a, &bc->lda, out,
                                            &bc->incx);
        else
            (r == R_TBMV ? cblas_dtbmv : cblas_dtbsv)(lay, cu, ct, cd, bc->n, bc->kl, a, bc->lda,
                                                      out, bc->incx);
        break;
    case R_TPMV:
    case R_TPSV:
        if (f)
            (r == R_TPMV ? dtpmv_ : dtpsv_)(&ul, &tr, &dg, &bc->n, a, out, &bc->incx);
        else
            (r == R_TPMV ? cblas_dtpmv : cblas_dtpsv)(lay, cu, ct, cd, bc->n, a, out, bc->incx);
        break;
    }
    check_report(srnames[r], index, bc, srnames[r], routs[r], out);
}

static void expect_reports(routine r, const bad_call *cases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        expect_report(r, &cases[i], (int)i);
}

/* The hook a case expects: xerbla_ (a Fortran-level check) or cblas_xerbla (CBLAS's own). */
#define BY_XERBLA "xerbla_"
#define BY_CBLAS  "cblas_xerbla"

/* Reference DGBMV: TRANS 1, M 2, N 3, KL 4, KU 5, LDA 8 (at least KL + KU + 1), INCX 10, INCY 13,
 * in that order; through CBLAS, layout 1 and TransA 2, and in row-major the Fortran call has M
 * and N, KL and KU swapped (its own numbers reach the program's xerbla_). */
static void test_gbmv_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, nt = CblasNoTrans, tr = CblasTrans;
    const bad_call cases[] = {
        /* hook, number, layout, uplo, trans, diag, m, n, kl, ku, lda, incx, incy */
        {BY_XERBLA, 1, F77, 0, '/', 0, 0, 0, 0, 0, 1, 1, 1},
        {BY_XERBLA, 2, F77, 0, 'N', 0, -1, 0, 0, 0, 1, 1, 1},
        {BY_XERBLA, 3, F77, 0, 'T', 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 4, F77, 0, 'C', 0, 0, 0, -1, 0, 1, 1, 1},
        {BY_XERBLA, 5, F77, 0, 'n', 0, 0, 0, 0, -1, 1, 1, 1},
        {BY_XERBLA, 8, F77, 0, 'N', 0, 2, 2, 1, 0, 1, 1, 1},
        {BY_XERBLA, 8, F77, 0, 't', 0, 2, 2, 1, 1, 2, 1, 1},
        {BY_XERBLA, 8, F77, 0, 'N', 0, 0, 0, 0, 0, 0, 1, 1},
        {BY_XERBLA, 10, F77, 0, 'N', 0, 2, 2, 0, 0, 1, 0, 1},
        {BY_XERBLA, 13, F77, 0, 'T', 0, 2, 2, 0, 0, 1, 1, 0},
        {BY_XERBLA, 13, F77, 0, 'N', 0, 0, 0, 0, 0, 1, 1, 0}, /* checked before the quick return */
        /* several bad: the first in reference's order */
        {BY_XERBLA, 1, F77, 0, 'x', 0, -1, -1, -1, -1, 0, 0, 0},
        {BY_XERBLA, 2, F77, 0, 'N', 0, -1, -1, 0, 0, 0, 0, 0},
        {BY_XERBLA, 4, F77, 0, 'N', 0, 1, 1, -1, -1, 0, 0, 0},
        {BY_XERBLA, 8, F77, 0, 'N', 0, 1, 1, 1, 1, 2, 0, 0},
        {BY_XERBLA, 10, F77, 0, 'N', 0, 1, 1, 0, 0, 1, 0, 0},
        /* CBLAS's own checks */
        {BY_CBLAS, 1, 100, 0, nt, 0, 1, 1, 0, 0, 1, 1, 1},
        {BY_CBLAS, 1, 55, 0, -1, 0, -1, 1, 0, 0, 1, 1, 1},
        {BY_CBLAS, 2, col, 0, -1, 0, 1, 1, 0, 0, 1, 1, 1},
        {BY_CBLAS, 2, row, 0, 114, 0, -1, 1, 0, 0, 1, 1, 1},
        /* column-major: the Fortran call's numbers */
        {BY_XERBLA, 2, col, 0, nt, 0, -1, 0, 0, 0, 1, 1, 1},
        {BY_XERBLA, 3, col, 0, tr, 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 4, col, 0, nt, 0, 0, 0, -1, 0, 1, 1, 1},
        {BY_XERBLA, 5, col, 0, nt, 0, 0, 0, 0, -1, 1, 1, 1},
        {BY_XERBLA, 8, col, 0, nt, 0, 1, 1, 1, 1, 2, 1, 1},
        {BY_XERBLA, 10, col, 0, nt, 0, 1, 1, 0, 0, 1, 0, 1},
        {BY_XERBLA, 13, col, 0, tr, 0, 1, 1, 0, 0, 1, 1, 0},
        /* row-major: the Fortran call is (trans', N, M, KU, KL, ...) */
        {BY_XERBLA, 3, row, 0, nt, 0, -1, 0, 0, 0, 1, 1, 1},
        {BY_XERBLA, 2, row, 0, tr, 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 2, row, 0, nt, 0, -1, -1, 0, 0, 1, 1, 1}, /* N is checked first now */
        {BY_XERBLA, 5, row, 0, nt, 0, 0, 0, -1, 0, 1, 1, 1},
        {BY_XERBLA, 4, row, 0, nt, 0, 0, 0, 0, -1, 1, 1, 1},
        {BY_XERBLA, 4, row, 0, nt, 0, 0, 0, -1, -1, 1, 1, 1}, /* KU before KL now */
        {BY_XERBLA, 8, row, 0, tr, 0, 1, 1, 1, 1, 2, 1, 1},
        {BY_XERBLA, 10, row, 0, nt, 0, 1, 1, 0, 0, 1, 0, 1},
        {BY_XERBLA, 13, row, 0, nt, 0, 1, 1, 0, 0, 1, 1, 0},
    };
    expect_reports(R_GBMV, cases, sizeof cases / sizeof cases[0]);
}

/* Reference DSBMV: UPLO 1, N 2, K 3, LDA 6 (at least K + 1), INCX 8, INCY 11; DSPMV: UPLO 1,
 * N 2, INCX 6, INCY 9. CBLAS: layout 1, Uplo 2; the rest keep their places in both layouts. */
static void test_symmetric_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, up = CblasUpper, lo = CblasLower;
    const bad_call sbmv[] = {
        /* hook, number, layout, uplo, trans, diag, m, n, k, -, lda, incx, incy */
        {BY_XERBLA, 1, F77, '/', 0, 0, 0, 0, 0, 0, 1, 1, 1},
        {BY_XERBLA, 2, F77, 'U', 0, 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 3, F77, 'l', 0, 0, 0, 0, -1, 0, 1, 1, 1},
        {BY_XERBLA, 6, F77, 'L', 0, 0, 0, 2, 1, 0, 1, 1, 1},
        {BY_XERBLA, 6, F77, 'u', 0, 0, 0, 0, 0, 0, 0, 1, 1},
        {BY_XERBLA, 8, F77, 'U', 0, 0, 0, 2, 0, 0, 1, 0, 1},
        {BY_XERBLA, 11, F77, 'L', 0, 0, 0, 2, 0, 0, 1, 1, 0},
        {BY_XERBLA, 2, F77, 'U', 0, 0, 0, -1, -1, 0, 0, 0, 0},
        {BY_XERBLA, 6, F77, 'U', 0, 0, 0, 1, 3, 0, 3, 0, 0},
        {BY_CBLAS, 1, 3, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1},
        {BY_CBLAS, 2, col, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1},
        {BY_CBLAS, 2, row, 99, 0, 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 2, col, up, 0, 0, 0, -1, 0, 0, 1, 1, 1},
        {BY_XERBLA, 3, row, lo, 0, 0, 0, 0, -1, 0, 1, 1, 1},
        {BY_XERBLA, 6, row, up, 0, 0, 0, 1, 1, 0, 1, 1, 1},
        {BY_XERBLA, 8, col, lo, 0, 0, 0, 1, 0, 0, 1, 0, 1},
        {BY_XERBLA, 11, row, up, 0, 0, 0, 1, 0, 0, 1, 1, 0},
    };
    expect_reports(R_SBMV, sbmv, sizeof sbmv / sizeof sbmv[0]);
    const bad_call spmv[] = {
        {BY_XERBLA, 1, F77, 'x', 0, 0, 0, 0, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, F77, 'U', 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 6, F77, 'L', 0, 0, 0, 2, 0, 0, 0, 0, 1},
        {BY_XERBLA, 9, F77, 'u', 0, 0, 0, 2, 0, 0, 0, 1, 0},
        {BY_XERBLA, 2, F77, 'l', 0, 0, 0, -1, 0, 0, 0, 0, 0},
        {BY_CBLAS, 1, 100, up, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_CBLAS, 2, row, -1, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, row, lo, 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 6, col, up, 0, 0, 0, 1, 0, 0, 0, 0, 1},
        {BY_XERBLA, 9, row, lo, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    };
    expect_reports(R_SPMV, spmv, sizeof spmv / sizeof spmv[0]);
}

/* Reference DSPR: UPLO 1, N 2, INCX 5; DSPR2: UPLO 1, N 2, INCX 5, INCY 7. */
static void test_rank_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, up = CblasUpper;
    const bad_call spr[] = {
        {BY_XERBLA, 1, F77, '/', 0, 0, 0, 0, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, F77, 'U', 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 5, F77, 'L', 0, 0, 0, 2, 0, 0, 0, 0, 1},
        {BY_XERBLA, 2, F77, 'L', 0, 0, 0, -2, 0, 0, 0, 0, 1},
        {BY_CBLAS, 1, 7, up, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_CBLAS, 2, col, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, row, up, 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 5, row, up, 0, 0, 0, 1, 0, 0, 0, 0, 1},
    };
    expect_reports(R_SPR, spr, sizeof spr / sizeof spr[0]);
    const bad_call spr2[] = {
        {BY_XERBLA, 1, F77, '/', 0, 0, 0, 0, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, F77, 'U', 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 5, F77, 'L', 0, 0, 0, 2, 0, 0, 0, 0, 1},
        {BY_XERBLA, 7, F77, 'u', 0, 0, 0, 2, 0, 0, 0, 1, 0},
        {BY_XERBLA, 5, F77, 'l', 0, 0, 0, 2, 0, 0, 0, 0, 0},
        {BY_CBLAS, 1, 100, up, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_CBLAS, 2, row, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 2, col, up, 0, 0, 0, -1, 0, 0, 0, 1, 1},
        {BY_XERBLA, 7, row, up, 0, 0, 0, 1, 0, 0, 0, 1, 0},
    };
    expect_reports(R_SPR2, spr2, sizeof spr2 / sizeof spr2[0]);
}

/* Reference DTBMV and DTBSV: UPLO 1, TRANS 2, DIAG 3, N 4, K 5, LDA 7 (at least K + 1), INCX 9;
 * DTPMV and DTPSV: UPLO 1, TRANS 2, DIAG 3, N 4, INCX 7. CBLAS: layout 1, Uplo 2, TransA 3,
 * Diag 4, in both layouts; the rest keep their places. */
static void test_triangular_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, up = CblasUpper, lo = CblasLower;
    const int nt = CblasNoTrans, tr = CblasTrans, nu = CblasNonUnit, un = CblasUnit;
    const bad_call band[] = {
        /* hook, number, layout, uplo, trans, diag, m, n, k, -, lda, incx, incy */
        {BY_XERBLA, 1, F77, '/', 'N', 'N', 0, 0, 0, 0, 1, 1, 0},
        {BY_XERBLA, 2, F77, 'U', '/', 'N', 0, 0, 0, 0, 1, 1, 0},
        {BY_XERBLA, 3, F77, 'L', 'T', '/', 0, 0, 0, 0, 1, 1, 0},
        {BY_XERBLA, 4, F77, 'u', 'c', 'u', 0, -1, 0, 0, 1, 1, 0},
        {BY_XERBLA, 5, F77, 'l', 'n', 'n', 0, 0, -1, 0, 1, 1, 0},
        {BY_XERBLA, 7, F77, 'U', 'N', 'U', 0, 2, 1, 0, 1, 1, 0},
        {BY_XERBLA, 7, F77, 'U', 'N', 'U', 0, 0, 0, 0, 0, 1, 0},
        {BY_XERBLA, 9, F77, 'L', 'T', 'N', 0, 2, 1, 0, 2, 0, 0},
        {BY_XERBLA, 9, F77, 'L', 'T', 'N', 0, 0, 1, 0, 2, 0, 0}, /* before the quick return */
        {BY_XERBLA, 1, F77, '/', '/', '/', 0, -1, -1, 0, 0, 0, 0},
        {BY_XERBLA, 3, F77, 'U', 'T', 'x', 0, -1, -1, 0, 0, 0, 0},
        {BY_XERBLA, 5, F77, 'U', 'T', 'N', 0, 1, -1, 0, 0, 0, 0},
        {BY_CBLAS, 1, 100, up, nt, nu, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 2, col, 0, nt, nu, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 2, row, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 3, col, up, 0, nu, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 3, row, lo, -5, nu, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 4, col, up, nt, 0, 0, 1, 0, 0, 1, 1, 0},
        {BY_CBLAS, 4, row, lo, tr, 0, 0, 1, 0, 0, 1, 1, 0},
        {BY_XERBLA, 4, col, up, nt, un, 0, -1, 0, 0, 1, 1, 0},
        {BY_XERBLA, 5, row, up, tr, un, 0, 0, -1, 0, 1, 1, 0},
        {BY_XERBLA, 7, row, lo, nt, nu, 0, 2, 2, 0, 2, 1, 0},
        {BY_XERBLA, 9, col, lo, tr, nu, 0, 2, 0, 0, 1, 0, 0},
    };
    expect_reports(R_TBMV, band, sizeof band / sizeof band[0]);
    expect_reports(R_TBSV, band, sizeof band / sizeof band[0]);
    const bad_call packed[] = {
        {BY_XERBLA, 1, F77, '/', 'N', 'N', 0, 0, 0, 0, 0, 1, 0},
        {BY_XERBLA, 2, F77, 'U', 'x', 'N', 0, 0, 0, 0, 0, 1, 0},
        {BY_XERBLA, 3, F77, 'L', 'C', 'A', 0, 0, 0, 0, 0, 1, 0},
        {BY_XERBLA, 4, F77, 'U', 'N', 'U', 0, -1, 0, 0, 0, 1, 0},
        {BY_XERBLA, 7, F77, 'L', 'T', 'N', 0, 2, 0, 0, 0, 0, 0},
        {BY_XERBLA, 4, F77, 'L', 'T', 'N', 0, -1, 0, 0, 0, 0, 0},
        {BY_CBLAS, 1, 100, up, nt, nu, 0, 1, 0, 0, 0, 1, 0},
        {BY_CBLAS, 2, row, 3, nt, nu, 0, 1, 0, 0, 0, 1, 0},
        {BY_CBLAS, 3, col, lo, 2, nu, 0, 1, 0, 0, 0, 1, 0},
        {BY_CBLAS, 4, row, up, tr, 7, 0, 1, 0, 0, 0, 1, 0},
        {BY_XERBLA, 4, row, lo, nt, un, 0, -1, 0, 0, 0, 1, 0},
        {BY_XERBLA, 7, col, up, tr, nu, 0, 1, 0, 0, 0, 0, 0},
    };
    expect_reports(R_TPMV, packed, sizeof packed / sizeof packed[0]);
    expect_reports(R_TPSV, packed, sizeof packed / sizeof packed[0]);
}

#undef BY_XERBLA
#undef BY_CBLAS

/* The native entries: -i for argument i as BLAS numbers it (par not counted), a NULL array that
 * would be used included, and nothing written. */
static void test_native_errors(void **state)
{
    (void)state;
    double a[16] = {0}, x[4] = {1, 1, 1, 1}, y[4];
    for (int i = 0; i < 4; i++)
        y[i] = tl_sentinel();
    const tela_par p = tela_par_seq();
    assert_int_equal(tela_dgbmv(p, 'Q', 2, 2, 0, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -1);
    assert_int_equal(tela_dgbmv(p, 'N', -1, 2, 0, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -2);
    assert_int_equal(tela_dgbmv(p, 'N', 2, -1, 0, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -3);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, -1, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -4);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, -1, 1.0, a, 1, x, 1, 0.0, y, 1), -5);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 1, 1, 1.0, a, 2, x, 1, 0.0, y, 1), -8);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, PTRDIFF_MAX, 1.0, a, 4, x, 1, 0.0, y, 1), -8);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, 0, 1.0, a, 1, x, 0, 0.0, y, 1), -10);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, 0, 1.0, a, 1, x, 1, 0.0, y, 0), -13);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, 0, 1.0, NULL, 1, x, 1, 0.0, y, 1), -7);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, 0, 1.0, a, 1, NULL, 1, 0.0, y, 1), -9);
    assert_int_equal(tela_dgbmv(p, 'N', 2, 2, 0, 0, 1.0, a, 1, x, 1, 0.0, NULL, 1), -12);
    assert_int_equal(tela_dsbmv(p, 'X', 2, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -1);
    assert_int_equal(tela_dsbmv(p, 'U', -2, 0, 1.0, a, 1, x, 1, 0.0, y, 1), -2);
    assert_int_equal(tela_dsbmv(p, 'U', 2, -1, 1.0, a, 1, x, 1, 0.0, y, 1), -3);
    assert_int_equal(tela_dsbmv(p, 'L', 2, 1, 1.0, a, 1, x, 1, 0.0, y, 1), -6);
    assert_int_equal(tela_dsbmv(p, 'L', 2, 0, 1.0, a, 1, x, 0, 0.0, y, 1), -8);
    assert_int_equal(tela_dsbmv(p, 'L', 2, 0, 1.0, a, 1, x, 1, 0.0, y, 0), -11);
    assert_int_equal(tela_dsbmv(p, 'L', 2, 0, 1.0, NULL, 1, x, 1, 0.0, y, 1), -5);
    assert_int_equal(tela_dsbmv(p, 'L', 2, 0, 1.0, a, 1, x, 1, 0.0, NULL, 1), -10);
    assert_int_equal(tela_dspmv(p, 'u', 2, 1.0, a, x, 0, 0.0, y, 1), -6);
    assert_int_equal(tela_dspmv(p, 'u', 2, 1.0, a, x, 1, 0.0, y, 0), -9);
    assert_int_equal(tela_dspmv(p, 'u', 2, 1.0, a, NULL, 1, 0.0, y, 1), -5);
    assert_int_equal(tela_dspr(p, 'U', 2, 1.0, x, 0, y), -5);
    assert_int_equal(tela_dspr(p, 'U', 2, 1.0, x, 1, NULL), -6);
    assert_int_equal(tela_dspr2(p, 'U', -1, 1.0, x, 1, x, 1, y), -2);
    assert_int_equal(tela_dspr2(p, 'U', 2, 1.0, x, 1, x, 0, y), -7);
    assert_int_equal(tela_dspr2(p, 'U', 2, 1.0, x, 1, NULL, 1, y), -6);
    assert_int_equal(tela_dtbmv(p, 'U', 'N', 'Z', 2, 0, a, 1, y, 1), -3);
    assert_int_equal(tela_dtbsv(p, 'U', 'N', 'U', 2, 3, a, 3, y, 1), -7);
    assert_int_equal(tela_dtbsv(p, 'U', 'N', 'U', 2, 0, a, 1, y, -0), -9);
    assert_int_equal(tela_dtbmv(p, 'U', 'N', 'U', 2, 0, NULL, 1, y, 1), -6);
    assert_int_equal(tela_dtpmv(p, 'U', 'Y', 'U', 2, a, y, 1), -2);
    assert_int_equal(tela_dtpsv(p, 'U', 'T', 'U', 2, a, y, 0), -7);
    assert_int_equal(tela_dtpsv(p, 'U', 'T', 'U', 2, a, NULL, 1), -6);
    for (int i = 0; i < 4; i++)
        assert_true(tl_is_sentinel(&y[i]));
    expect_no_reports();
}

/* ---- the same bits at every width ---------------------------------------------------------- */

/* Regions that ran on a worker so far (a region at width 1 wakes none). */
static long regions_on_workers(void)
{
    tela_stats stats;
    tela_get_stats(&stats);
    return stats.region_wakeups;
}

typedef struct wide_case {
    routine r;
    char flag; /* trans (dgbmv) or uplo */
    int m, n, kl, ku;
    int incx, incy;
    double alpha, beta;
} wide_case;

/* One call of the case on par; y (or ap) is written. Returns the routine's info. */
static int wide_call(tela_par par, const wide_case *c, const double *a, const double *x,
                     const double *xy, double *out)
{
    const int lda = c->r == R_GBMV ? c->kl + c->ku + 1 : c->kl + 1;
    switch (c->r) {
    case R_GBMV:
        return tela_dgbmv(par, c->flag, c->m, c->n, c->kl, c->ku, c->alpha, a, lda, x, c->incx,
                          c->beta, out, c->incy);
    case R_SBMV:
        return tela_dsbmv(par, c->flag, c->n, c->kl, c->alpha, a, lda, x, c->incx, c->beta, out,
                          c->incy);
    case R_SPMV:
        return tela_dspmv(par, c->flag, c->n, c->alpha, a, x, c->incx, c->beta, out, c->incy);
    case R_SPR:
        return tela_dspr(par, c->flag, c->n, c->alpha, x, c->incx, out);
    case R_SPR2:
        return tela_dspr2(par, c->flag, c->n, c->alpha, x, c->incx, xy, c->incy, out);
    default:
        return 1;
    }
}

/* A region body calling the routine under tela_par_auto(): nested, so serial. */
typedef struct nested_job {
    const wide_case *c;
    const double *a, *x, *xy;
    double *out;
    int info; /* checked after the region: cmocka's assertions must not leave a body */
} nested_job;

static void nested_body(tela_member *self, void *arg)
{
    nested_job *job = arg;
    if (tela_rank(self) == 0)
        job->info = wide_call(tela_par_auto(), job->c, job->a, job->x, job->xy, job->out);
}

static void test_widths(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    tela_pool *pool = tu_pool_of_width(8);
    assert_non_null(pool);
    static const wide_case cases[] = {
        /* r, flag, m, n, kl (k), ku, incx, incy, alpha, beta: sizes where regions split (more
         * than one block of 256 rows, bands crossing blocks) */
        {R_GBMV, 'N', 700, 650, 5, 9, 1, 1, 0.9, 0.3},
        {R_GBMV, 'N', 600, 520, 300, 400, -2, 3, -1.1, 0.0},
        {R_GBMV, 'T', 700, 650, 5, 9, 1, 1, 0.9, 0.3},
        {R_GBMV, 'T', 600, 520, 300, 400, 3, -2, 0.7, 1.0},
        {R_SBMV, 'U', 0, 900, 7, 0, 1, 1, 0.8, 0.5},
        {R_SBMV, 'L', 0, 900, 7, 0, -1, 2, 0.8, 0.0},
        {R_SBMV, 'U', 0, 700, 300, 0, 2, -3, -0.6, 1.0},
        {R_SBMV, 'L', 0, 700, 300, 0, 1, 1, 1.3, -0.4},
        {R_SPMV, 'U', 0, 600, 0, 0, 1, 1, 1.0, 0.25},
        {R_SPMV, 'L', 0, 600, 0, 0, -2, 1, -0.5, 0.0},
        {R_SPR, 'U', 0, 300, 0, 0, 1, 1, 0.9, 0},
        {R_SPR, 'L', 0, 300, 0, 0, -3, 1, 1.1, 0},
        {R_SPR2, 'U', 0, 300, 0, 0, 1, -1, 0.9, 0},
        {R_SPR2, 'L', 0, 300, 0, 0, 2, 1, -1.2, 0},
    };
    const int widths[] = {1, 2, 8};
    bool widened[R_SPR2 + 1] = {false};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const wide_case *c = &cases[ci];
        const bool t = c->r == R_GBMV && c->flag != 'N';
        const tela_int len_x = c->r == R_GBMV ? (t ? c->m : c->n) : c->n;
        const tela_int len_y = c->r == R_GBMV ? (t ? c->n : c->m) : c->n;
        tela_int len_a = c->r == R_GBMV   ? (tela_int)(c->kl + c->ku + 1) * c->n
                         : c->r == R_SBMV ? (tela_int)(c->kl + 1) * c->n
                                          : (tela_int)c->n * (c->n + 1) / 2;
        double *a = tl_alloc(len_a);
        for (tela_int i = 0; i < len_a; i++)
            a[i] = tl_uniform();
        vec x = vec_random(len_x, c->incx), xy = vec_random(len_x, c->incy);
        /* Zeros in x, and in both vectors at once, for the rank updates' skips. */
        for (tela_int i = 0; i < len_x; i += 7)
            *vec_el(&x, i) = 0.0;
        for (tela_int i = 0; i < len_x; i += 14)
            *vec_el(&xy, i) = 0.0;
        const bool rank = c->r == R_SPR || c->r == R_SPR2;
        const tela_int len_out = rank ? len_a : span_of(len_y, c->incy);
        double *out0 = tl_alloc(len_out);
        for (tela_int i = 0; i < len_out; i++)
            out0[i] = tl_uniform();
        double *want = tl_copy(out0, len_out);
        assert_int_equal(wide_call(tela_par_seq(), c, a, x.base, xy.base, want), 0);
        char what[96];
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            double *got = tl_copy(out0, len_out);
            const long before = regions_on_workers();
            assert_int_equal(wide_call(tela_par_limit(tela_par_pool(pool), widths[w]), c, a, x.base,
                                       xy.base, got),
                             0);
            if (widths[w] == 8 && regions_on_workers() > before)
                widened[c->r] = true;
            snprintf(what, sizeof what, "case %zu (%s %c) at width %d against serial", ci,
                     srnames[c->r], c->flag, widths[w]);
            tu_expect_same(what, got, want, (size_t)len_out);
            free(got);
        }
        /* Called from inside a region: serial, the same bits. */
        double *got = tl_copy(out0, len_out);
        nested_job job = {c, a, x.base, xy.base, got, -1};
        assert_true(tela_parallel(tela_par_pool(pool), 2, nested_body, &job) >= 1);
        assert_int_equal(job.info, 0);
        snprintf(what, sizeof what, "case %zu (%s %c) inside a region", ci, srnames[c->r], c->flag);
        tu_expect_same(what, got, want, (size_t)len_out);
        free(got), free(a), free(out0), free(want);
        vec_free(&x), vec_free(&xy);
    }
    for (routine r = R_GBMV; r <= R_SPR2; r++)
        if (!widened[r])
            fail_msg("%s: no call at width 8 ran a region on a worker", srnames[r]);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    expect_no_reports();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_gbmv, reset_hooks),
        cmocka_unit_test_setup(test_symmetric, reset_hooks),
        cmocka_unit_test_setup(test_triangular, reset_hooks),
        cmocka_unit_test_setup(test_rank, reset_hooks),
        cmocka_unit_test_setup(test_matvec_rules, reset_hooks),
        cmocka_unit_test_setup(test_triangular_rules, reset_hooks),
        cmocka_unit_test_setup(test_rank_rules, reset_hooks),
        cmocka_unit_test_setup(test_gbmv_errors, reset_hooks),
        cmocka_unit_test_setup(test_symmetric_errors, reset_hooks),
        cmocka_unit_test_setup(test_rank_errors, reset_hooks),
        cmocka_unit_test_setup(test_triangular_errors, reset_hooks),
        cmocka_unit_test_setup(test_native_errors, reset_hooks),
        cmocka_unit_test_setup(test_widths, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
