/* test_level2 — the dense level-2 BLAS (gemv, ger, symv, syr, syr2, trmv, trsv): tela's native
 * routines against a long-double reference, OpenBLAS and reference BLAS 3.11 (each loaded apart
 * with dlmopen), every flag, increments 1, 2, -1, -3, empty and odd sizes, sizes past the block
 * and chunk lengths, padded leading dimensions and strided vectors whose gaps must stay
 * untouched, the stored triangle only read or written; reference's rules on zeros, NaN and Inf;
 * argument errors through the Fortran symbols and CBLAS (this program defines xerbla_ and
 * cblas_xerbla, as the netlib suites do) and the native returns; row-major CBLAS; and the same
 * bits at widths 1, 2 and 8 with near-free dispatch, also from inside a region. */
#define _GNU_SOURCE
#include "testlapack.h"
#include "tela_cblas.h"

/* ---- the Fortran ABI, as a Fortran caller sees it (gfortran's hidden lengths omitted: tela
 * ignores them) ---- */
void dgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
            const int *lda, const double *x, const int *incx, const double *beta, double *y,
            const int *incy);
void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda);
void dsymv_(const char *uplo, const int *n, const double *alpha, const double *a, const int *lda,
            const double *x, const int *incx, const double *beta, double *y, const int *incy);
void dsyr_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
           double *a, const int *lda);
void dsyr2_(const char *uplo, const int *n, const double *alpha, const double *x, const int *incx,
            const double *y, const int *incy, double *a, const int *lda);
void dtrmv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx);
void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx);

/* ---- the program's error hooks ------------------------------------------------------------ */

static struct hook_calls {
    int xerbla;        /* calls of xerbla_ */
    char srname[16];   /* its last srname */
    size_t srname_len; /* its last hidden length */
    int info;          /* its last info */
    int cblas_xerbla;  /* calls of cblas_xerbla */
    char rout[32];     /* its last routine name */
    int p;             /* its last parameter number */
    int tela_reports;  /* reports that reached tela's handler */
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

static void count_tela_report(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
    hooks.tela_reports++;
}

/* ---- the peers: OpenBLAS and reference BLAS 3.11, each in a namespace of its own ---------- */

#define REFERENCE_BLAS "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"

/* The Fortran ABI with gfortran's hidden lengths (size_t) of the character arguments. */
typedef void (*gemv_fn)(const char *, const int *, const int *, const double *, const double *,
                        const int *, const double *, const int *, const double *, double *,
                        const int *, size_t);
typedef void (*ger_fn)(const int *, const int *, const double *, const double *, const int *,
                       const double *, const int *, double *, const int *);
typedef void (*symv_fn)(const char *, const int *, const double *, const double *, const int *,
                        const double *, const int *, const double *, double *, const int *, size_t);
typedef void (*syr_fn)(const char *, const int *, const double *, const double *, const int *,
                       double *, const int *, size_t);
typedef void (*syr2_fn)(const char *, const int *, const double *, const double *, const int *,
                        const double *, const int *, double *, const int *, size_t);
typedef void (*tr_fn)(const char *, const char *, const char *, const int *, const double *,
                      const int *, double *, const int *, size_t, size_t, size_t);

typedef struct peer {
    const char *name;
    gemv_fn gemv;
    ger_fn ger;
    symv_fn symv;
    syr_fn syr;
    syr2_fn syr2;
    tr_fn trmv, trsv;
} peer;

static peer openblas_peer = {.name = "OpenBLAS"}, reference_peer = {.name = "reference BLAS"};
static const peer *peers[2];
static int peer_count;

static bool bind_peer(peer *p, void *handle)
{
    return handle && tl_symbol(handle, "dgemv_", &p->gemv) && tl_symbol(handle, "dger_", &p->ger) &&
           tl_symbol(handle, "dsymv_", &p->symv) && tl_symbol(handle, "dsyr_", &p->syr) &&
           tl_symbol(handle, "dsyr2_", &p->syr2) && tl_symbol(handle, "dtrmv_", &p->trmv) &&
           tl_symbol(handle, "dtrsv_", &p->trsv);
}

static const peer *reference_blas; /* NULL when not installed: its cases are skipped */

static int setup(void **state)
{
    (void)state;
    tela_set_error_handler(count_tela_report, NULL);
    const struct tl_openblas *ob = tl_openblas();
    if (ob && bind_peer(&openblas_peer, ob->handle))
        peers[peer_count++] = &openblas_peer;
    else
        printf("OpenBLAS comparisons skipped: %s\n", ob ? "a symbol is missing" : tl_ob_why);
    if (bind_peer(&reference_peer, dlmopen(LM_ID_NEWLM, REFERENCE_BLAS, RTLD_NOW | RTLD_LOCAL))) {
        peers[peer_count++] = &reference_peer;
        reference_blas = &reference_peer;
    } else {
        printf("reference BLAS comparisons skipped: %s not loaded (install libblas3)\n",
               REFERENCE_BLAS);
    }
    return 0;
}

/* ---- vectors with guarded gaps ----------------------------------------------------------------
 * n elements at increment inc, GUARD sentinels on each side; the positions between elements
 * hold the sentinel too and must keep it. */
#define GUARD 3

typedef struct tvec {
    double *base; /* GUARD sentinels, len positions, GUARD sentinels */
    double *v;    /* base + GUARD: what a routine is given */
    int n, inc;
    int len; /* positions spanned */
} tvec;

static tvec tvec_new(int n, int inc)
{
    tvec t = {NULL, NULL, n, inc, n > 0 ? (n - 1) * abs(inc) + 1 : 0};
    t.base = tl_alloc(t.len + 2 * GUARD);
    for (int i = 0; i < t.len + 2 * GUARD; i++)
        t.base[i] = tl_sentinel();
    t.v = t.base + GUARD;
    return t;
}

/* Element i as BLAS addresses it. */
static double *tvec_at(const tvec *t, int i)
{
    return t->v + (t->inc > 0 ? i * t->inc : (t->n - 1 - i) * -t->inc);
}

static tvec tvec_random(int n, int inc)
{
    tvec t = tvec_new(n, inc);
    for (int i = 0; i < n; i++)
        *tvec_at(&t, i) = tl_uniform();
    return t;
}

static tvec tvec_copy(const tvec *t)
{
    tvec c = *t;
    c.base = tl_copy(t->base, t->len + 2 * GUARD);
    c.v = c.base + GUARD;
    return c;
}

/* The guards and gaps still hold the sentinel. */
static void tvec_expect_gaps(const char *what, const tvec *t)
{
    for (int p = -GUARD; p < t->len + GUARD; p++) {
        const bool element = p >= 0 && p < t->len && p % abs(t->inc) == 0;
        if (!element && !tl_is_sentinel(&t->v[p]))
            fail_msg("%s: position %d (n %d, inc %d) outside the vector's elements was written",
                     what, p, t->n, t->inc);
    }
}

static void tvec_free(tvec *t)
{
    free(t->base);
}

/* ---- matrices ------------------------------------------------------------------------------ */

/* Element (i, j) of a column-major (or row-major) array. */
static double *elem(double *a, int lda, bool row_major, int i, int j)
{
    return row_major ? &a[(size_t)i * lda + j] : &a[i + (size_t)j * lda];
}

/* An n x n array whose uplo triangle (with the diagonal unless skip_diagonal) is random and the
 * rest, padding included, the sentinel: a read of it poisons a result, a write changes bits. */
static double *triangle_matrix(int n, int lda, bool upper, bool skip_diagonal, bool row_major)
{
    double *a = tl_alloc((tela_int)lda * (n > 0 ? n : 1));
    for (int k = 0; k < lda * n; k++)
        a[k] = tl_sentinel();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if ((upper ? i < j : i > j) || (i == j && !skip_diagonal))
                *elem(a, lda, row_major, i, j) = tl_uniform();
    return a;
}

/* The whole array is bit for bit what it was (nothing outside the result written). */
static void expect_unchanged(const char *what, const double *got, const double *want, size_t len)
{
    for (size_t k = 0; k < len; k++)
        if (memcmp(&got[k], &want[k], sizeof got[k]) != 0)
            fail_msg("%s: element %zu changed (%.17g, was %.17g)", what, k, got[k], want[k]);
}

/* got within the rounding of a sum of `terms` products of magnitude sum mag of want. */
static bool close_to(double got, long double want, long double mag, int terms)
{
    if (isnan(got) || isnan((double)want))
        return isnan(got) && isnan((double)want);
    const long double tol = 4.0L * (terms + 4) * TL_EPS * mag + 1e-300L;
    return fabsl((long double)got - want) <= tol;
}

/* Both NaN, or equal values (the sign of zero not compared): reference's rules on zeros and
 * non-finite values reproduced, not its rounding. */
static bool same_class(double got, double want)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    return true;
}

static const double scalar_pairs[][2] = {{1.0, 0.0}, {0.7, 1.0}, {-1.3, 0.5},
                                         {0.0, 0.5}, {0.0, 1.0}, {1.0, 1.0}};
static const int inc_pairs[][2] = {{1, 1}, {2, -1}, {-1, -3}, {-3, 2}};
#define COUNT(array) (int)(sizeof(array) / sizeof((array)[0]))

/* ---- dgemv ---------------------------------------------------------------------------------- */

static void check_gemv(char trans, int m, int n, int incx, int incy, double alpha, double beta)
{
    const bool t = trans != 'N';
    const int lenx = t ? m : n, leny = t ? n : m, lda = m + 2;
    double *a = tl_random_matrix(m, n, lda);
    double *a0 = tl_copy(a, (tela_int)lda * n);
    tvec x = tvec_random(lenx, incx), y = tvec_random(leny, incy), y0 = tvec_copy(&y);
    char what[128];
    snprintf(what, sizeof what, "dgemv %c m %d n %d incx %d incy %d alpha %g beta %g", trans, m, n,
             incx, incy, alpha, beta);
    assert_int_equal(
        tela_dgemv(tela_par_auto(), trans, m, n, alpha, a, lda, x.v, incx, beta, y.v, incy), 0);
    for (int i = 0; i < leny; i++) {
        const double y_old = *tvec_at(&y0, i);
        long double sum = 0, mag = 0;
        for (int k = 0; k < lenx; k++) {
            const long double v =
                (long double)(t ? a[k + i * lda] : a[i + k * lda]) * *tvec_at(&x, k);
            sum += v;
            mag += fabsl(v);
        }
        const bool untouched = m == 0 || n == 0 || (alpha == 0.0 && beta == 1.0);
        const long double want =
            untouched ? y_old
                      : (long double)alpha * sum + (beta == 0.0 ? 0.0L : beta * (long double)y_old);
        const long double scale = fabsl((long double)alpha) * mag + fabs(beta * y_old);
        if (untouched ? memcmp(tvec_at(&y, i), &y_old, sizeof y_old) != 0
                      : !close_to(*tvec_at(&y, i), want, scale, lenx))
            fail_msg("%s: y[%d] = %.17g, expected %.17Lg", what, i, *tvec_at(&y, i), want);
    }
    tvec_expect_gaps(what, &y);
    expect_unchanged(what, a, a0, (size_t)lda * n);
    for (int p = 0; p < peer_count; p++) {
        tvec yp = tvec_copy(&y0);
        peers[p]->gemv(&trans, &m, &n, &alpha, a, &lda, x.v, &incx, &beta, yp.v, &incy, 1);
        for (int i = 0; i < leny; i++) {
            long double mag = fabs(beta * *tvec_at(&y0, i));
            for (int k = 0; k < lenx; k++)
                mag += fabsl((long double)alpha * (t ? a[k + i * lda] : a[i + k * lda]) *
                             *tvec_at(&x, k));
            if (!close_to(*tvec_at(&y, i), *tvec_at(&yp, i), 2 * mag, lenx))
                fail_msg("%s: y[%d] = %.17g, %s has %.17g", what, i, *tvec_at(&y, i),
                         peers[p]->name, *tvec_at(&yp, i));
        }
        tvec_free(&yp);
    }
    tvec_free(&x);
    tvec_free(&y);
    tvec_free(&y0);
    free(a);
    free(a0);
}

static void test_dgemv(void **state)
{
    (void)state;
    /* 1029 rows: past the 1024-row chunks a strided vector is gathered in. */
    static const int shapes[][2] = {{0, 3}, {3, 0}, {1, 1},   {5, 3},     {17, 13},
                                    {1, 9}, {9, 1}, {70, 33}, {1029, 20}, {20, 1029}};
    tl_seed(1);
    /* A strided vector is gathered in pieces, and a column's dot product carried across them:
     * the same bits as contiguous (2100 rows: three pieces; A one double off alignment). */
    {
        const int m = 2100, n = 19, lda = m + 2;
        double *a = tl_random_matrix(m + 1, n, lda);
        tvec x1 = tvec_random(m, 1), x3 = tvec_new(m, -3), y1 = tvec_random(m, 1);
        tvec y3 = tvec_new(m, 3);
        for (int i = 0; i < m; i++) {
            *tvec_at(&x3, i) = *tvec_at(&x1, i);
            *tvec_at(&y3, i) = *tvec_at(&y1, i);
        }
        double d1[19], d3[19];
        for (int j = 0; j < n; j++)
            d1[j] = d3[j] = 0.5;
        tela_dgemv(tela_par_auto(), 'T', m, n, 1.5, a + 1, lda, x1.v, 1, 0.5, d1, 1);
        tela_dgemv(tela_par_auto(), 'T', m, n, 1.5, a + 1, lda, x3.v, -3, 0.5, d3, 1);
        tu_expect_same("dgemv 'T', x strided and not", d3, d1, (size_t)n);
        for (int j = 0; j < n; j++)
            assert_true(isfinite(d1[j]));
        tela_dgemv(tela_par_auto(), 'N', m, n, 1.5, a + 1, lda, d1, 1, 0.5, y1.v, 1);
        tela_dgemv(tela_par_auto(), 'N', m, n, 1.5, a + 1, lda, d1, 1, 0.5, y3.v, 3);
        for (int i = 0; i < m; i++)
            if (memcmp(tvec_at(&y1, i), tvec_at(&y3, i), sizeof(double)) != 0 ||
                !isfinite(*tvec_at(&y1, i)))
                fail_msg("dgemv 'N', y strided and not: element %d differs", i);
        tvec_free(&x1);
        tvec_free(&x3);
        tvec_free(&y1);
        tvec_free(&y3);
        free(a);
    }
    for (int s = 0; s < COUNT(shapes); s++)
        for (int c = 0; c < 3; c++)
            for (int q = 0; q < COUNT(inc_pairs); q++)
                for (int k = 0; k < COUNT(scalar_pairs); k++)
                    check_gemv("NTC"[c], shapes[s][0], shapes[s][1], inc_pairs[q][0],
                               inc_pairs[q][1], scalar_pairs[k][0], scalar_pairs[k][1]);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- dsymv ---------------------------------------------------------------------------------- */

/* a: triangle_matrix(n, lda, uplo, ...), kept from call to call (building one costs more than
 * the call), a0 its copy. */
static void check_symv(char uplo, int n, const double *a, const double *a0, int lda, int incx,
                       int incy, double alpha, double beta)
{
    const bool upper = uplo == 'U';
    tvec x = tvec_random(n, incx), y = tvec_random(n, incy), y0 = tvec_copy(&y);
    char what[128];
    snprintf(what, sizeof what, "dsymv %c n %d incx %d incy %d alpha %g beta %g", uplo, n, incx,
             incy, alpha, beta);
    assert_int_equal(
        tela_dsymv(tela_par_auto(), uplo, n, alpha, a, lda, x.v, incx, beta, y.v, incy), 0);
    for (int i = 0; i < n; i++) {
        const double y_old = *tvec_at(&y0, i);
        long double sum = 0, mag = 0;
        for (int k = 0; k < n; k++) {
            const bool stored = upper ? i <= k : i >= k;
            const long double v =
                (long double)(stored ? a[i + k * lda] : a[k + i * lda]) * *tvec_at(&x, k);
            sum += v;
            mag += fabsl(v);
        }
        const bool untouched = alpha == 0.0 && beta == 1.0;
        const long double want =
            untouched ? y_old
                      : (long double)alpha * sum + (beta == 0.0 ? 0.0L : beta * (long double)y_old);
        if (untouched ? memcmp(tvec_at(&y, i), &y_old, sizeof y_old) != 0
                      : !close_to(*tvec_at(&y, i), want,
                                  fabsl((long double)alpha) * mag + fabs(beta * y_old), n))
            fail_msg("%s: y[%d] = %.17g, expected %.17Lg", what, i, *tvec_at(&y, i), want);
    }
    tvec_expect_gaps(what, &y);
    expect_unchanged(what, a, a0, (size_t)lda * n);
    for (int p = 0; p < peer_count; p++) {
        tvec yp = tvec_copy(&y0);
        peers[p]->symv(&uplo, &n, &alpha, a, &lda, x.v, &incx, &beta, yp.v, &incy, 1);
        for (int i = 0; i < n; i++)
            if (!close_to(*tvec_at(&y, i), *tvec_at(&yp, i), 4.0 * n, n))
                fail_msg("%s: y[%d] = %.17g, %s has %.17g", what, i, *tvec_at(&y, i),
                         peers[p]->name, *tvec_at(&yp, i));
        tvec_free(&yp);
    }
    tvec_free(&x);
    tvec_free(&y);
    tvec_free(&y0);
}

static void test_dsymv(void **state)
{
    (void)state;
    /* 600 and 1100: two and nine blocks of partial sums, so the blocked path runs. */
    static const int sizes[] = {0, 1, 2, 3, 8, 9, 17, 33, 100, 600, 1100};
    tl_seed(2);
    const int count = TU_SANITIZED ? COUNT(sizes) - 1 : COUNT(sizes);
    for (int s = 0; s < count; s++)
        for (int u = 0; u < 2; u++) {
            const int n = sizes[s], lda = n + 3;
            double *a = triangle_matrix(n, lda, u == 0, false, false);
            double *a0 = tl_copy(a, (tela_int)lda * n);
            for (int q = 0; q < COUNT(inc_pairs); q++)
                for (int k = 0; k < COUNT(scalar_pairs); k++)
                    if (n < 500 || k % 2 == 0)
                        check_symv("UL"[u], n, a, a0, lda, inc_pairs[q][0], inc_pairs[q][1],
                                   scalar_pairs[k][0], scalar_pairs[k][1]);
            free(a);
            free(a0);
        }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* The AVX-512 kernels start a column group's rows with a head vector where A's columns sit off
 * their 64-byte lines (lda a multiple of 8; kernel_body.h, symv_span_headed), their dot
 * products' lanes rotated: every placement of A gives the aligned one's bits (tela's dsytrd
 * calls dsymv on A(i+1, i+1), whose place in a line cycles with i), and the product. 600: two
 * blocks of partial sums. */
static void test_dsymv_placement(void **state)
{
    (void)state;
    static const int sizes[] = {40, 129, 600};
    tl_seed(3);
    for (int s = 0; s < COUNT(sizes); s++)
        for (int u = 0; u < 2; u++) {
            const char uplo = "UL"[u];
            const int n = sizes[s], lda = (n + 7) / 8 * 8 + 8;
            const size_t len = (size_t)lda * (size_t)n;
            double *a = triangle_matrix(n, lda, u == 0, false, false);
            /* A whole number of lines, as aligned_alloc takes (lda is a multiple of 8). */
            double *placed = aligned_alloc(64, (len + 8) * sizeof(double));
            double *x = tl_alloc(n), *y0 = tl_alloc(n), *want = tl_alloc(n), *got = tl_alloc(n);
            assert_non_null(placed);
            for (int i = 0; i < n; i++) {
                x[i] = tl_uniform();
                y0[i] = tl_uniform();
            }
            for (int off = 0; off < 8; off++) {
                memcpy(placed + off, a, len * sizeof(double));
                double *y = off ? got : want;
                memcpy(y, y0, (size_t)n * sizeof(double));
                assert_int_equal(
                    tela_dsymv(tela_par_seq(), uplo, n, 0.75, placed + off, lda, x, 1, 0.5, y, 1),
                    0);
                if (off && memcmp(got, want, (size_t)n * sizeof(double)) != 0)
                    fail_msg("dsymv %c n %d, A %d doubles off its line: other bits", uplo, n, off);
                if (off == 2)
                    check_symv(uplo, n, placed + off, a, lda, 1, 1, 0.75, 0.5);
            }
            free(a);
            free(placed);
            free(x);
            free(y0);
            free(want);
            free(got);
        }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- dger, dsyr, dsyr2 ---------------------------------------------------------------------- */

static void check_ger(int m, int n, int incx, int incy, double alpha)
{
    const int lda = m + 1;
    double *a = tl_random_matrix(m, n, lda);
    double *a0 = tl_copy(a, (tela_int)lda * n);
    tvec x = tvec_random(m, incx), y = tvec_random(n, incy);
    char what[128];
    snprintf(what, sizeof what, "dger m %d n %d incx %d incy %d alpha %g", m, n, incx, incy, alpha);
    assert_int_equal(tela_dger(tela_par_auto(), m, n, alpha, x.v, incx, y.v, incy, a, lda), 0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            const double old = a0[i + j * lda];
            const long double term = (long double)alpha * *tvec_at(&x, i) * *tvec_at(&y, j);
            if (!close_to(a[i + j * lda], old + term, fabsl(term) + fabs(old), 2))
                fail_msg("%s: a(%d, %d) = %.17g, expected %.17Lg", what, i, j, a[i + j * lda],
                         old + term);
        }
    tl_expect_padding(what, a, m, n, lda);
    if (alpha == 0.0)
        expect_unchanged(what, a, a0, (size_t)lda * n);
    for (int p = 0; p < peer_count; p++) {
        double *ap = tl_copy(a0, (tela_int)lda * n);
        peers[p]->ger(&m, &n, &alpha, x.v, &incx, y.v, &incy, ap, &lda);
        for (int k = 0; k < lda * n; k++)
            if (!close_to(a[k], ap[k], 4.0, 2))
                fail_msg("%s: a[%d] = %.17g, %s has %.17g", what, k, a[k], peers[p]->name, ap[k]);
        free(ap);
    }
    tvec_free(&x);
    tvec_free(&y);
    free(a);
    free(a0);
}

/* a0: triangle_matrix(n, lda, uplo, ...), kept from call to call; a and ap: room for a copy. */
static void check_syr(bool two, char uplo, int n, const double *a0, double *a, double *ap, int lda,
                      int incx, int incy, double alpha)
{
    const bool upper = uplo == 'U';
    memcpy(a, a0, sizeof(double) * (size_t)lda * n);
    tvec x = tvec_random(n, incx), y = tvec_random(n, incy);
    char what[128];
    snprintf(what, sizeof what, "%s %c n %d incx %d incy %d alpha %g", two ? "dsyr2" : "dsyr", uplo,
             n, incx, incy, alpha);
    if (two)
        assert_int_equal(tela_dsyr2(tela_par_auto(), uplo, n, alpha, x.v, incx, y.v, incy, a, lda),
                         0);
    else
        assert_int_equal(tela_dsyr(tela_par_auto(), uplo, n, alpha, x.v, incx, a, lda), 0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (upper ? i > j : i < j)
                continue; /* the other triangle: checked below, unchanged */
            const double old = a0[i + j * lda];
            const double xi = *tvec_at(&x, i), xj = *tvec_at(&x, j);
            const long double p1 = (long double)alpha * xi * (two ? *tvec_at(&y, j) : xj);
            const long double p2 = two ? (long double)alpha * *tvec_at(&y, i) * xj : 0.0L;
            const long double term = p1 + p2;
            if (!close_to(a[i + j * lda], old + term, fabsl(p1) + fabsl(p2) + fabs(old), 3))
                fail_msg("%s: a(%d, %d) = %.17g, expected %.17Lg", what, i, j, a[i + j * lda],
                         old + term);
        }
    for (int k = 0; k < lda * n; k++)
        if (tl_is_sentinel(&a0[k]) && !tl_is_sentinel(&a[k]))
            fail_msg("%s: element %d outside the triangle was written", what, k);
    for (int p = 0; p < peer_count; p++) {
        memcpy(ap, a0, sizeof(double) * (size_t)lda * n);
        if (two)
            peers[p]->syr2(&uplo, &n, &alpha, x.v, &incx, y.v, &incy, ap, &lda, 1);
        else
            peers[p]->syr(&uplo, &n, &alpha, x.v, &incx, ap, &lda, 1);
        for (int k = 0; k < lda * n; k++)
            if (!tl_is_sentinel(&ap[k]) && !close_to(a[k], ap[k], 8.0, 3))
                fail_msg("%s: a[%d] = %.17g, %s has %.17g", what, k, a[k], peers[p]->name, ap[k]);
    }
    tvec_free(&x);
    tvec_free(&y);
}

static void test_dger_dsyr_dsyr2(void **state)
{
    (void)state;
    static const int shapes[][2] = {{0, 3}, {3, 0}, {1, 1}, {7, 5}, {1, 9}, {33, 17}, {1030, 9}};
    static const double alphas[] = {0.0, 1.0, -0.7};
    tl_seed(3);
    for (int s = 0; s < COUNT(shapes); s++)
        for (int q = 0; q < COUNT(inc_pairs); q++)
            for (int k = 0; k < COUNT(alphas); k++)
                check_ger(shapes[s][0], shapes[s][1], inc_pairs[q][0], inc_pairs[q][1], alphas[k]);
    static const int sizes[] = {0, 1, 2, 7, 8, 33, 300};
    for (int s = 0; s < COUNT(sizes); s++)
        for (int u = 0; u < 2; u++) {
            const int n = sizes[s], lda = n + 2;
            double *a0 = triangle_matrix(n, lda, u == 0, false, false);
            double *a = tl_alloc((tela_int)lda * n), *ap = tl_alloc((tela_int)lda * n);
            for (int q = 0; q < COUNT(inc_pairs); q++)
                for (int k = 0; k < COUNT(alphas); k++)
                    for (int two = 0; two < 2; two++)
                        check_syr(two, "UL"[u], n, a0, a, ap, lda, inc_pairs[q][0], inc_pairs[q][1],
                                  alphas[k]);
            free(a0);
            free(a);
            free(ap);
        }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- dtrmv, dtrsv --------------------------------------------------------------------------- */

/* A well-conditioned triangle: off-diagonal entries of size 1/n, a diagonal of 1 to 2 in size
 * (NaN sentinels in its place for a unit diagonal, which must not be read). */
static double *tri_matrix(int n, int lda, bool upper, bool unit, bool row_major)
{
    double *a = triangle_matrix(n, lda, upper, unit, row_major);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double *e = elem(a, lda, row_major, i, j);
            if (i != j && (upper ? i < j : i > j))
                *e /= n;
            else if (i == j && !unit)
                *e = (*e < 0 ? -1.0 : 1.0) + *e;
        }
    return a;
}

/* op(A)(i, j) of the triangle stored in a (row_major: a holds A row by row). */
static long double tri_at(const double *a, int lda, bool row_major, bool upper, bool trans,
                          bool unit, int i, int j)
{
    if (trans) {
        const int t = i;
        i = j;
        j = t;
    }
    if (i == j)
        return unit ? 1.0L : (long double)*elem((double *)a, lda, row_major, i, j);
    if (upper ? i > j : i < j)
        return 0.0L;
    return *elem((double *)a, lda, row_major, i, j);
}

/* x_want = op(A) x (solve false) or op(A)^-1 x, in long double. */
static void tri_reference(const double *a, int lda, bool row_major, bool upper, bool trans,
                          bool unit, bool solve, int n, const long double *x, long double *out)
{
    if (!solve) {
        for (int i = 0; i < n; i++) {
            out[i] = 0;
            for (int k = 0; k < n; k++)
                out[i] += tri_at(a, lda, row_major, upper, trans, unit, i, k) * x[k];
        }
        return;
    }
    /* op(A) is lower triangular when upper == trans: forward substitution. */
    const bool lower = upper == trans;
    for (int q = 0; q < n; q++) {
        const int i = lower ? q : n - 1 - q;
        long double s = x[i];
        for (int k = 0; k < n; k++)
            if (lower ? k < i : k > i)
                s -= tri_at(a, lda, row_major, upper, trans, unit, i, k) * out[k];
        out[i] = s / tri_at(a, lda, row_major, upper, trans, unit, i, i);
    }
}

/* a: tri_matrix(n, lda, uplo, diag), kept from call to call, a0 its copy. */
static void check_tr(bool solve, char uplo, char trans, char diag, int n, const double *a,
                     const double *a0, int lda, int incx)
{
    const bool upper = uplo == 'U', t = trans != 'N', unit = diag == 'U';
    tvec x = tvec_random(n, incx), x0 = tvec_copy(&x);
    char what[128];
    snprintf(what, sizeof what, "%s %c%c%c n %d incx %d", solve ? "dtrsv" : "dtrmv", uplo, trans,
             diag, n, incx);
    const int r = solve ? tela_dtrsv(tela_par_auto(), uplo, trans, diag, n, a, lda, x.v, incx)
                        : tela_dtrmv(tela_par_auto(), uplo, trans, diag, n, a, lda, x.v, incx);
    assert_int_equal(r, 0);
    long double *in = malloc(sizeof(long double) * (size_t)(n + 1));
    long double *want = malloc(sizeof(long double) * (size_t)(n + 1));
    assert_true(in && want);
    for (int i = 0; i < n; i++)
        in[i] = *tvec_at(&x0, i);
    tri_reference(a, lda, false, upper, t, unit, solve, n, in, want);
    for (int i = 0; i < n; i++)
        if (!close_to(*tvec_at(&x, i), want[i], 4.0, n))
            fail_msg("%s: x[%d] = %.17g, expected %.17Lg", what, i, *tvec_at(&x, i), want[i]);
    tvec_expect_gaps(what, &x);
    expect_unchanged(what, a, a0, (size_t)lda * n);
    for (int p = 0; p < peer_count; p++) {
        tvec xp = tvec_copy(&x0);
        (solve ? peers[p]->trsv : peers[p]->trmv)(&uplo, &trans, &diag, &n, a, &lda, xp.v, &incx, 1,
                                                  1, 1);
        for (int i = 0; i < n; i++)
            if (!close_to(*tvec_at(&x, i), *tvec_at(&xp, i), 8.0, n))
                fail_msg("%s: x[%d] = %.17g, %s has %.17g", what, i, *tvec_at(&x, i),
                         peers[p]->name, *tvec_at(&xp, i));
        tvec_free(&xp);
    }
    free(in);
    free(want);
    tvec_free(&x);
    tvec_free(&x0);
}

static void test_dtrmv_dtrsv(void **state)
{
    (void)state;
    /* Around the 128-column diagonal blocks, and several of them. */
    static const int sizes[] = {0, 1, 2, 7, 8, 9, 64, 127, 128, 129, 300};
    static const int incs[] = {1, 2, -1, -3};
    tl_seed(4);
    for (int s = 0; s < COUNT(sizes); s++)
        for (int f = 0; f < 4; f++) {
            const int n = sizes[s], lda = n + 1;
            const char uplo = "UL"[f % 2], diag = "NU"[f / 2];
            double *a = tri_matrix(n, lda, uplo == 'U', diag == 'U', false);
            double *a0 = tl_copy(a, (tela_int)lda * n);
            for (int c = 0; c < 3; c++)
                for (int q = 0; q < COUNT(incs); q++)
                    for (int solve = 0; solve < 2; solve++)
                        check_tr(solve, uplo, "NTC"[c], diag, n, a, a0, lda, incs[q]);
            free(a);
            free(a0);
        }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- reference's rules on zeros, NaN and Inf ------------------------------------------------ */

/* got and the reference's result agree on every element's class (NaN, Inf, finite). */
static void expect_classes(const char *what, const double *got, const double *want, int count)
{
    for (int k = 0; k < count; k++)
        if (!same_class(got[k], want[k]))
            fail_msg("%s: element %d is %g, reference BLAS has %g", what, k, got[k], want[k]);
}

static void test_special_values(void **state)
{
    (void)state;
    const double inf = INFINITY, nan = NAN;
    enum { N = 6, LDA = 7 };
    double a[LDA * N], x[N], y[N], y0[N], want[LDA * N], got[LDA * N];
    tl_seed(5);
    for (int k = 0; k < LDA * N; k++)
        a[k] = tl_uniform();
    for (int i = 0; i < N; i++) {
        x[i] = tl_uniform();
        y0[i] = nan;
    }
    const int n = N, lda = LDA, one = 1;

    /* beta = 0 overwrites a NaN y; alpha = 0 reads neither A nor x (NULL is fine natively). */
    memcpy(y, y0, sizeof y);
    assert_int_equal(tela_dgemv(tela_par_auto(), 'N', n, n, 1.0, a, lda, x, 1, 0.0, y, 1), 0);
    for (int i = 0; i < N; i++)
        assert_false(isnan(y[i]));
    memcpy(y, y0, sizeof y);
    assert_int_equal(tela_dgemv(tela_par_auto(), 'T', n, n, 0.0, NULL, lda, NULL, 1, 0.0, y, 1), 0);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 0.0 && !signbit(y[i]));
    memcpy(y, y0, sizeof y);
    assert_int_equal(tela_dsymv(tela_par_auto(), 'L', n, 1.0, a, lda, x, 1, 0.0, y, 1), 0);
    for (int i = 0; i < N; i++)
        assert_false(isnan(y[i]));
    for (int i = 0; i < N; i++)
        y[i] = 2.0;
    assert_int_equal(tela_dsymv(tela_par_auto(), 'U', n, 0.0, NULL, lda, NULL, 1, 0.5, y, -1), 0);
    for (int i = 0; i < N; i++)
        assert_true(y[i] == 1.0);
    /* Quick returns: alpha = 0 and beta = 1, or an empty dimension, leave a NaN y as it is. */
    memcpy(y, y0, sizeof y);
    assert_int_equal(tela_dgemv(tela_par_auto(), 'N', n, n, 0.0, a, lda, x, 1, 1.0, y, 1), 0);
    assert_int_equal(tela_dgemv(tela_par_auto(), 'T', 0, n, 1.0, a, lda, x, 1, 0.0, y, 1), 0);
    assert_int_equal(tela_dsymv(tela_par_auto(), 'U', n, 0.0, a, lda, x, 1, 1.0, y, 1), 0);
    expect_unchanged("quick returns", y, y0, N);

    if (!reference_blas) {
        printf("SKIPPED the comparisons with reference BLAS: not installed\n");
        skip();
    }
    const peer *ref = reference_blas;
    char what[64];
    /* An Inf or NaN in A or x, with zeros in x or y where reference skips a column. */
    for (int c = 0; c < 4; c++) {
        double as[LDA * N], xs[N], ys[N];
        memcpy(as, a, sizeof as);
        memcpy(xs, x, sizeof xs);
        memcpy(ys, x, sizeof ys);
        xs[2] = 0.0;
        ys[1] = 0.0;
        ys[2] = 0.0;
        as[3 + 2 * LDA] = c % 2 ? nan : inf; /* column 2, below and above the diagonal */
        as[0 + 2 * LDA] = c % 2 ? inf : nan;
        as[2 + 2 * LDA] = c < 2 ? inf : 0.0; /* its diagonal */
        if (c == 3)
            xs[4] = inf;
        const double alpha = 0.5, beta = 0.25;
        for (int tr = 0; tr < 2; tr++) {
            const char trans = "NT"[tr];
            memcpy(got, y0, sizeof y0);
            memcpy(want, y0, sizeof y0);
            for (int i = 0; i < N; i++)
                got[i] = want[i] = (double)i;
            tela_dgemv(tela_par_auto(), trans, n, n, alpha, as, lda, xs, 1, beta, got, 1);
            ref->gemv(&trans, &n, &n, &alpha, as, &lda, xs, &one, &beta, want, &one, 1);
            snprintf(what, sizeof what, "dgemv %c case %d", trans, c);
            expect_classes(what, got, want, N);
        }
        for (int u = 0; u < 2; u++) {
            const char uplo = "UL"[u];
            for (int i = 0; i < N; i++)
                got[i] = want[i] = (double)i;
            tela_dsymv(tela_par_auto(), uplo, n, alpha, as, lda, xs, 1, beta, got, 1);
            ref->symv(&uplo, &n, &alpha, as, &lda, xs, &one, &beta, want, &one, 1);
            snprintf(what, sizeof what, "dsymv %c case %d", uplo, c);
            expect_classes(what, got, want, N);
            memcpy(got, as, sizeof as);
            memcpy(want, as, sizeof as);
            tela_dsyr(tela_par_auto(), uplo, n, alpha, xs, 1, got, lda);
            ref->syr(&uplo, &n, &alpha, xs, &one, want, &lda, 1);
            snprintf(what, sizeof what, "dsyr %c case %d", uplo, c);
            expect_classes(what, got, want, LDA * N);
            memcpy(got, as, sizeof as);
            memcpy(want, as, sizeof as);
            tela_dsyr2(tela_par_auto(), uplo, n, alpha, xs, 1, ys, 1, got, lda);
            ref->syr2(&uplo, &n, &alpha, xs, &one, ys, &one, want, &lda, 1);
            snprintf(what, sizeof what, "dsyr2 %c case %d", uplo, c);
            expect_classes(what, got, want, LDA * N);
            for (int f = 0; f < 6; f++) {
                const char trans = "NT"[f % 2], diag = "NU"[f / 2 % 2];
                const bool solve = f >= 4;
                /* A zero reached by the solve: no division by a zero diagonal. */
                double ts[LDA * N];
                memcpy(ts, as, sizeof ts);
                if (solve)
                    ts[2 + 2 * LDA] = 0.0;
                memcpy(got, xs, sizeof xs);
                memcpy(want, xs, sizeof xs);
                if (solve) {
                    tela_dtrsv(tela_par_auto(), uplo, trans, diag, n, ts, lda, got, 1);
                    ref->trsv(&uplo, &trans, &diag, &n, ts, &lda, want, &one, 1, 1, 1);
                } else {
                    tela_dtrmv(tela_par_auto(), uplo, trans, diag, n, ts, lda, got, 1);
                    ref->trmv(&uplo, &trans, &diag, &n, ts, &lda, want, &one, 1, 1, 1);
                }
                snprintf(what, sizeof what, "%s %c%c%c case %d", solve ? "dtrsv" : "dtrmv", uplo,
                         trans, diag, c);
                expect_classes(what, got, want, N);
            }
        }
        memcpy(got, as, sizeof as);
        memcpy(want, as, sizeof as);
        tela_dger(tela_par_auto(), n, n, alpha, xs, 1, ys, 1, got, lda);
        ref->ger(&n, &n, &alpha, xs, &one, ys, &one, want, &lda);
        snprintf(what, sizeof what, "dger case %d", c);
        expect_classes(what, got, want, LDA * N);
    }
    /* dtrsv reaches x_3 = 0 over a zero a(3, 3): no division, and column 3's NaN left out. */
    double t3[9] = {1, 0, 0, 1, 1, 0, nan, 1, 0}, b3[3] = {1, 1, 0};
    assert_int_equal(tela_dtrsv(tela_par_auto(), 'U', 'N', 'N', 3, t3, 3, b3, 1), 0);
    assert_true(b3[0] == 0.0 && b3[1] == 1.0 && b3[2] == 0.0);
    /* The same where the left-out column's Inf and NaN lie in rows past its group of the
     * diagonal block (dtrsv 'N' solves 8 columns at a time, then their terms into the block's
     * other rows): lower, column 2 reached as 0 with Inf at row 13 and NaN at row 9; upper,
     * column 17 with Inf at row 3 and NaN at row 6; a 2 at every other diagonal entry; checked
     * against reference BLAS. */
    {
        enum { M = 20 };
        double tz[M * M], bz[M], bw[M];
        for (int u = 0; u < 2; u++) {
            const bool upper = u == 1;
            const int zc = upper ? 17 : 2;
            for (int j = 0; j < M; j++)
                for (int i = 0; i < M; i++)
                    tz[i + j * M] = i == j ? 2.0 : (upper ? i < j : i > j) ? 0.25 : nan;
            tz[zc + zc * M] = 0.0;
            tz[(upper ? 3 : 13) + zc * M] = inf;
            tz[(upper ? 6 : 9) + zc * M] = nan;
            /* x_zc = 0 once the terms of the columns solved before it are in: those columns'
             * x are 0 too, so b(zc) = 0 is reached as it is. */
            for (int i = 0; i < M; i++)
                bz[i] = (upper ? i > zc : i < zc) ? 0.0 : 1.0;
            bz[zc] = 0.0;
            memcpy(bw, bz, sizeof bz);
            assert_int_equal(
                tela_dtrsv(tela_par_auto(), upper ? 'U' : 'L', 'N', 'N', M, tz, M, bz, 1), 0);
            for (int i = 0; i < M; i++)
                assert_true(isfinite(bz[i]));
            assert_true(bz[zc] == 0.0);
            ref->trsv(upper ? "U" : "L", "N", "N", &(int){M}, tz, &(int){M}, bw, &one, 1, 1, 1);
            expect_classes("dtrsv N, a left-out column past its group", bz, bw, M);
        }
    }
    /* dtrmv 'N' leaves out column 1 for x_1 = 0, its Inf diagonal and NaN below included. */
    double t4[9] = {1, 0.5, 0.5, 0, inf, nan, 0, 0, 2}, b4[3] = {1, 0, 1};
    assert_int_equal(tela_dtrmv(tela_par_auto(), 'L', 'N', 'N', 3, t4, 3, b4, 1), 0);
    assert_true(b4[0] == 1.0 && b4[1] == 0.5 && b4[2] == 2.5);
    /* dger with an Inf in x leaves the columns of y_j = 0 as they are; dgemv 'N' with x_j = 0
     * still lets column j's Inf through (3.11 has no skip there). */
    double xi[N], yi[N];
    for (int i = 0; i < N; i++) {
        xi[i] = 1.0;
        yi[i] = i == 3 ? 0.0 : 1.0;
    }
    xi[1] = inf;
    memcpy(got, a, sizeof a);
    tela_dger(tela_par_auto(), n, n, 1.0, xi, 1, yi, 1, got, lda);
    expect_unchanged("dger column with y_j = 0", got + (ptrdiff_t)3 * LDA, a + (ptrdiff_t)3 * LDA,
                     LDA);
    assert_true(isinf(got[1 + 2 * LDA]));
    double ai[LDA * N];
    memcpy(ai, a, sizeof ai);
    ai[4 + 3 * LDA] = inf;
    for (int i = 0; i < N; i++)
        got[i] = 0.0;
    tela_dgemv(tela_par_auto(), 'N', n, n, 1.0, ai, lda, yi, 1, 0.0, got, 1);
    assert_true(isnan(got[4]));
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- argument errors ------------------------------------------------------------------------ */

#define OUT 64

/* Exactly one report, to the hook named ("xerbla_" or "cblas_xerbla"), with number, naming the
 * routine as srname (xerbla_) or rout (cblas_xerbla); out still all sentinel. */
static void expect_report(const char *what, const char *hook, const char *name, int number,
                          const double *out)
{
    for (int i = 0; i < OUT; i++)
        if (!tl_is_sentinel(&out[i]))
            fail_msg("%s: element %d written by a call with a bad argument", what, i);
    if (strcmp(hook, "xerbla_") == 0) {
        if (hooks.xerbla != 1 || hooks.cblas_xerbla != 0)
            fail_msg("%s: xerbla_ called %d times, cblas_xerbla %d (expected 1, 0)", what,
                     hooks.xerbla, hooks.cblas_xerbla);
        assert_int_equal(hooks.srname_len, 6);
        if (strcmp(hooks.srname, name) != 0 || hooks.info != number)
            fail_msg("%s: xerbla_(\"%s\", %d), expected (\"%s\", %d)", what, hooks.srname,
                     hooks.info, name, number);
    } else {
        if (hooks.cblas_xerbla != 1 || hooks.xerbla != 0)
            fail_msg("%s: cblas_xerbla called %d times, xerbla_ %d (expected 1, 0)", what,
                     hooks.cblas_xerbla, hooks.xerbla);
        if (strcmp(hooks.rout, name) != 0 || hooks.p != number)
            fail_msg("%s: cblas_xerbla(%d, \"%s\"), expected (%d, \"%s\")", what, hooks.p,
                     hooks.rout, number, name);
    }
    assert_int_equal(hooks.tela_reports, 0);
}

/* One bad call: which routine, its integer arguments and flags, and the report expected. */
typedef struct bad_call { // NOLINT(clang-analyzer-optin.performance.Padding): a test table
    const char *routine;  /* "gemv", "ger", "symv", "syr", "syr2", "trmv", "trsv" */
    int layout;           /* 0: the Fortran symbol; else the CBLAS layout passed */
    int f1, f2, f3;       /* flags: characters for Fortran, enum values for CBLAS */
    int m, n, lda, incx, incy;
    const char *hook;
    int number;
} bad_call;

static void run_bad_call(const bad_call *bc, int index)
{
    /* What a routine would write starts as sentinels; what it reads is finite. */
    double in[OUT], a[OUT], x[OUT], y[OUT];
    for (int i = 0; i < OUT; i++) {
        in[i] = 1.0;
        a[i] = x[i] = y[i] = tl_sentinel();
    }
    memset(&hooks, 0, sizeof hooks);
    const double alpha = 1.0, beta = 0.0;
    const char c1 = (char)bc->f1, c2 = (char)bc->f2, c3 = (char)bc->f3;
    const char *r = bc->routine;
    const double *out = strcmp(r, "gemv") == 0 || strcmp(r, "symv") == 0   ? y
                        : strcmp(r, "trmv") == 0 || strcmp(r, "trsv") == 0 ? x
                                                                           : a;
    if (bc->layout == 0) {
        if (strcmp(r, "gemv") == 0)
            dgemv_(&c1, &bc->m, &bc->n, &alpha, in, &bc->lda, in, &bc->incx, &beta, y, &bc->incy);
        else if (strcmp(r, "ger") == 0)
            dger_(&bc->m, &bc->n, &alpha, in, &bc->incx, in, &bc->incy, a, &bc->lda);
        else if (strcmp(r, "symv") == 0)
            dsymv_(&c1, &bc->n, &alpha, in, &bc->lda, in, &bc->incx, &beta, y, &bc->incy);
        else if (strcmp(r, "syr") == 0)
            dsyr_(&c1, &bc->n, &alpha, in, &bc->incx, a, &bc->lda);
        else if (strcmp(r, "syr2") == 0)
            dsyr2_(&c1, &bc->n, &alpha, in, &bc->incx, in, &bc->incy, a, &bc->lda);
        else if (strcmp(r, "trmv") == 0)
            dtrmv_(&c1, &c2, &c3, &bc->n, in, &bc->lda, x, &bc->incx);
        else
            dtrsv_(&c1, &c2, &c3, &bc->n, in, &bc->lda, x, &bc->incx);
    } else {
        const CBLAS_LAYOUT lay = (CBLAS_LAYOUT)bc->layout;
        if (strcmp(r, "gemv") == 0)
            cblas_dgemv(lay, (CBLAS_TRANSPOSE)bc->f1, bc->m, bc->n, 1.0, in, bc->lda, in, bc->incx,
                        0.0, y, bc->incy);
        else if (strcmp(r, "ger") == 0)
            cblas_dger(lay, bc->m, bc->n, 1.0, in, bc->incx, in, bc->incy, a, bc->lda);
        else if (strcmp(r, "symv") == 0)
            cblas_dsymv(lay, (CBLAS_UPLO)bc->f1, bc->n, 1.0, in, bc->lda, in, bc->incx, 0.0, y,
                        bc->incy);
        else if (strcmp(r, "syr") == 0)
            cblas_dsyr(lay, (CBLAS_UPLO)bc->f1, bc->n, 1.0, in, bc->incx, a, bc->lda);
        else if (strcmp(r, "syr2") == 0)
            cblas_dsyr2(lay, (CBLAS_UPLO)bc->f1, bc->n, 1.0, in, bc->incx, in, bc->incy, a,
                        bc->lda);
        else if (strcmp(r, "trmv") == 0)
            cblas_dtrmv(lay, (CBLAS_UPLO)bc->f1, (CBLAS_TRANSPOSE)bc->f2, (CBLAS_DIAG)bc->f3, bc->n,
                        in, bc->lda, x, bc->incx);
        else
            cblas_dtrsv(lay, (CBLAS_UPLO)bc->f1, (CBLAS_TRANSPOSE)bc->f2, (CBLAS_DIAG)bc->f3, bc->n,
                        in, bc->lda, x, bc->incx);
    }
    char what[64], name[16];
    snprintf(what, sizeof what, "bad %s call %d", r, index);
    if (strcmp(bc->hook, "xerbla_") == 0) {
        /* Fortran names are upper case, blank-padded to six. */
        snprintf(name, sizeof name, "D%-5s", r);
        for (char *p = name; *p; p++)
            *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    } else {
        snprintf(name, sizeof name, "cblas_d%s", r);
    }
    expect_report(what, bc->hook, name, bc->number, out);
}

static void test_argument_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = 99;
    const int nt = CblasNoTrans, tr = CblasTrans, up = CblasUpper, lo = CblasLower;
    const int nu = CblasNonUnit, un = CblasUnit;
    /* {routine, layout, flags, m, n, lda, incx, incy, hook, number}: reference's checks in its
     * order, the first failing one reported (several bad: the first). */
    static const char *const X = "xerbla_", *const C = "cblas_xerbla";
    const bad_call cases[] = {
        {"gemv", 0, '/', 0, 0, 0, 0, 1, 1, 1, X, 1},
        {"gemv", 0, 'N', 0, 0, -1, 0, 1, 1, 1, X, 2},
        {"gemv", 0, 't', 0, 0, 0, -1, 1, 1, 1, X, 3},
        {"gemv", 0, 'C', 0, 0, 2, 0, 1, 1, 1, X, 6},
        {"gemv", 0, 'N', 0, 0, 2, 2, 2, 0, 1, X, 8},
        {"gemv", 0, 'T', 0, 0, 2, 2, 2, 1, 0, X, 11},
        {"gemv", 0, 'N', 0, 0, -1, -1, 0, 0, 0, X, 2},
        {"ger", 0, 0, 0, 0, -1, 0, 1, 1, 1, X, 1},
        {"ger", 0, 0, 0, 0, 0, -1, 1, 1, 1, X, 2},
        {"ger", 0, 0, 0, 0, 2, 2, 2, 0, 1, X, 5},
        {"ger", 0, 0, 0, 0, 2, 2, 2, 1, 0, X, 7},
        {"ger", 0, 0, 0, 0, 2, 2, 1, 1, 1, X, 9},
        {"ger", 0, 0, 0, 0, 2, 2, 1, 0, 0, X, 5},
        {"symv", 0, 'x', 0, 0, 0, 0, 1, 1, 1, X, 1},
        {"symv", 0, 'U', 0, 0, 0, -1, 1, 1, 1, X, 2},
        {"symv", 0, 'l', 0, 0, 0, 2, 1, 1, 1, X, 5},
        {"symv", 0, 'L', 0, 0, 0, 2, 2, 0, 1, X, 7},
        {"symv", 0, 'U', 0, 0, 0, 2, 2, 1, 0, X, 10},
        {"syr", 0, '/', 0, 0, 0, 0, 1, 1, 1, X, 1},
        {"syr", 0, 'U', 0, 0, 0, -1, 1, 1, 1, X, 2},
        {"syr", 0, 'L', 0, 0, 0, 2, 2, 0, 1, X, 5},
        {"syr", 0, 'U', 0, 0, 0, 2, 1, 1, 1, X, 7},
        {"syr2", 0, '/', 0, 0, 0, 0, 1, 1, 1, X, 1},
        {"syr2", 0, 'L', 0, 0, 0, -1, 1, 1, 1, X, 2},
        {"syr2", 0, 'U', 0, 0, 0, 2, 2, 0, 1, X, 5},
        {"syr2", 0, 'U', 0, 0, 0, 2, 2, 1, 0, X, 7},
        {"syr2", 0, 'L', 0, 0, 0, 2, 1, 1, 1, X, 9},
        {"trmv", 0, '/', 'N', 'N', 0, 0, 1, 1, 1, X, 1},
        {"trmv", 0, 'U', '/', 'N', 0, 0, 1, 1, 1, X, 2},
        {"trmv", 0, 'L', 'T', '/', 0, 0, 1, 1, 1, X, 3},
        {"trmv", 0, 'U', 'C', 'U', 0, -1, 1, 1, 1, X, 4},
        {"trmv", 0, 'L', 'N', 'n', 0, 2, 1, 1, 1, X, 6},
        {"trmv", 0, 'u', 'n', 'u', 0, 2, 2, 0, 1, X, 8},
        {"trsv", 0, 'x', 'N', 'N', 0, 0, 1, 1, 1, X, 1},
        {"trsv", 0, 'U', 'x', 'N', 0, 0, 1, 1, 1, X, 2},
        {"trsv", 0, 'U', 'T', 'x', 0, 0, 1, 1, 1, X, 3},
        {"trsv", 0, 'L', 'T', 'N', 0, -1, 1, 1, 1, X, 4},
        {"trsv", 0, 'U', 'N', 'U', 0, 3, 2, 1, 1, X, 6},
        {"trsv", 0, 'L', 'C', 'N', 0, 2, 2, 0, 1, X, 8},
        /* CBLAS: layout and the enums from the C layer */
        {"gemv", bad, nt, 0, 0, 0, 0, 1, 1, 1, C, 1},
        {"gemv", col, bad, 0, 0, 0, 0, 1, 1, 1, C, 2},
        {"gemv", row, 114, 0, 0, 0, 0, 1, 1, 1, C, 2},
        {"ger", bad, 0, 0, 0, 0, 0, 1, 1, 1, C, 1},
        {"symv", bad, up, 0, 0, 0, 0, 1, 1, 1, C, 1},
        {"symv", row, bad, 0, 0, 0, 0, 1, 1, 1, C, 2},
        {"syr", col, bad, 0, 0, 0, 0, 1, 1, 1, C, 2},
        {"syr2", row, bad, 0, 0, 0, 0, 1, 1, 1, C, 2},
        {"trmv", bad, up, nt, nu, 0, 0, 1, 1, 1, C, 1},
        {"trmv", col, bad, nt, nu, 0, 0, 1, 1, 1, C, 2},
        {"trmv", row, lo, bad, nu, 0, 0, 1, 1, 1, C, 3},
        {"trsv", col, up, tr, bad, 0, 0, 1, 1, 1, C, 4},
        {"trsv", row, bad, bad, bad, 0, 0, 1, 1, 1, C, 2},
        /* the rest from the Fortran routine called: column-major with its own numbers */
        {"gemv", col, nt, 0, 0, -1, 0, 1, 1, 1, X, 2},
        {"gemv", col, tr, 0, 0, 2, 0, 1, 1, 1, X, 6},
        {"ger", col, 0, 0, 0, 0, 0, 1, 0, 1, X, 5},
        {"symv", col, lo, 0, 0, 0, 0, 1, 1, 0, X, 10},
        {"trsv", col, up, nt, un, 0, 2, 1, 1, 1, X, 6},
        /* row-major: gemv's and ger's calls swap M and N (ger x and y too) */
        {"gemv", row, nt, 0, 0, -1, 0, 1, 1, 1, X, 3},
        {"gemv", row, tr, 0, 0, 0, -1, 1, 1, 1, X, 2},
        {"gemv", row, nt, 0, 0, 2, 3, 2, 1, 1, X, 6}, /* lda < N */
        {"ger", row, 0, 0, 0, -1, 0, 1, 1, 1, X, 2},
        {"ger", row, 0, 0, 0, 0, -1, 1, 1, 1, X, 1},
        {"ger", row, 0, 0, 0, 2, 2, 2, 0, 1, X, 7},
        {"ger", row, 0, 0, 0, 2, 2, 2, 1, 0, X, 5},
        {"ger", row, 0, 0, 0, 2, 3, 2, 1, 1, X, 9}, /* lda < N */
        {"syr2", row, up, 0, 0, 0, 2, 2, 1, 0, X, 7},
        {"trmv", row, lo, tr, un, 0, -1, 1, 1, 1, X, 4},
    };
    for (int i = 0; i < COUNT(cases); i++)
        run_bad_call(&cases[i], i);
    /* Row-major gemv with M = 3, N = 2 and lda = 2 is fine (lda >= N): nothing reported. */
    memset(&hooks, 0, sizeof hooks);
    double a[6] = {1, 2, 3, 4, 5, 6}, x[2] = {1, 1}, y[3] = {0, 0, 0};
    cblas_dgemv(CblasRowMajor, CblasNoTrans, 3, 2, 1.0, a, 2, x, 1, 0.0, y, 1);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
    assert_true(y[0] == 3 && y[1] == 7 && y[2] == 11);
}

/* The native routines return -i, BLAS's number, with nothing written; a NULL array they would
 * use is -i too. */
static void test_native_returns(void **state)
{
    (void)state;
    double a[16], x[4], y[4];
    for (int i = 0; i < 16; i++)
        a[i] = tl_sentinel();
    for (int i = 0; i < 4; i++)
        x[i] = y[i] = tl_sentinel();
    const tela_par p = tela_par_auto();
    assert_int_equal(tela_dgemv(p, 'X', 2, 2, 1, a, 2, x, 1, 0, y, 1), -1);
    assert_int_equal(tela_dgemv(p, 'N', -1, 2, 1, a, 2, x, 1, 0, y, 1), -2);
    assert_int_equal(tela_dgemv(p, 'N', 2, -1, 1, a, 2, x, 1, 0, y, 1), -3);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, a, 1, x, 1, 0, y, 1), -6);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, a, 2, x, 0, 0, y, 1), -8);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, a, 2, x, 1, 0, y, 0), -11);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, NULL, 2, x, 1, 0, y, 1), -5);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, a, 2, NULL, 1, 0, y, 1), -7);
    assert_int_equal(tela_dgemv(p, 'N', 2, 2, 1, a, 2, x, 1, 0, NULL, 1), -10);
    assert_int_equal(tela_dger(p, -1, 2, 1, x, 1, y, 1, a, 2), -1);
    assert_int_equal(tela_dger(p, 2, -1, 1, x, 1, y, 1, a, 2), -2);
    assert_int_equal(tela_dger(p, 2, 2, 1, x, 0, y, 1, a, 2), -5);
    assert_int_equal(tela_dger(p, 2, 2, 1, x, 1, y, 0, a, 2), -7);
    assert_int_equal(tela_dger(p, 2, 2, 1, x, 1, y, 1, a, 1), -9);
    assert_int_equal(tela_dger(p, 2, 2, 1, NULL, 1, y, 1, a, 2), -4);
    assert_int_equal(tela_dger(p, 2, 2, 1, x, 1, NULL, 1, a, 2), -6);
    assert_int_equal(tela_dger(p, 2, 2, 1, x, 1, y, 1, NULL, 2), -8);
    assert_int_equal(tela_dsymv(p, 'X', 2, 1, a, 2, x, 1, 0, y, 1), -1);
    assert_int_equal(tela_dsymv(p, 'U', -1, 1, a, 2, x, 1, 0, y, 1), -2);
    assert_int_equal(tela_dsymv(p, 'U', 2, 1, a, 1, x, 1, 0, y, 1), -5);
    assert_int_equal(tela_dsymv(p, 'U', 2, 1, a, 2, x, 0, 0, y, 1), -7);
    assert_int_equal(tela_dsymv(p, 'U', 2, 1, a, 2, x, 1, 0, y, 0), -10);
    assert_int_equal(tela_dsymv(p, 'L', 2, 1, NULL, 2, x, 1, 0, y, 1), -4);
    assert_int_equal(tela_dsymv(p, 'L', 2, 1, a, 2, NULL, 1, 0, y, 1), -6);
    assert_int_equal(tela_dsymv(p, 'L', 2, 1, a, 2, x, 1, 0, NULL, 1), -9);
    assert_int_equal(tela_dsyr(p, 'X', 2, 1, x, 1, a, 2), -1);
    assert_int_equal(tela_dsyr(p, 'U', -1, 1, x, 1, a, 2), -2);
    assert_int_equal(tela_dsyr(p, 'U', 2, 1, x, 0, a, 2), -5);
    assert_int_equal(tela_dsyr(p, 'U', 2, 1, x, 1, a, 1), -7);
    assert_int_equal(tela_dsyr(p, 'U', 2, 1, NULL, 1, a, 2), -4);
    assert_int_equal(tela_dsyr(p, 'U', 2, 1, x, 1, NULL, 2), -6);
    assert_int_equal(tela_dsyr2(p, 'X', 2, 1, x, 1, y, 1, a, 2), -1);
    assert_int_equal(tela_dsyr2(p, 'L', -1, 1, x, 1, y, 1, a, 2), -2);
    assert_int_equal(tela_dsyr2(p, 'L', 2, 1, x, 0, y, 1, a, 2), -5);
    assert_int_equal(tela_dsyr2(p, 'L', 2, 1, x, 1, y, 0, a, 2), -7);
    assert_int_equal(tela_dsyr2(p, 'L', 2, 1, x, 1, y, 1, a, 1), -9);
    assert_int_equal(tela_dsyr2(p, 'L', 2, 1, x, 1, y, 1, NULL, 2), -8);
    for (int solve = 0; solve < 2; solve++) {
        int (*f)(tela_par, char, char, char, tela_int, const double *, tela_int, double *,
                 tela_int) = solve ? tela_dtrsv : tela_dtrmv;
        assert_int_equal(f(p, 'X', 'N', 'N', 2, a, 2, x, 1), -1);
        assert_int_equal(f(p, 'U', 'X', 'N', 2, a, 2, x, 1), -2);
        assert_int_equal(f(p, 'U', 'N', 'X', 2, a, 2, x, 1), -3);
        assert_int_equal(f(p, 'U', 'N', 'N', -1, a, 2, x, 1), -4);
        assert_int_equal(f(p, 'U', 'N', 'N', 2, a, 1, x, 1), -6);
        assert_int_equal(f(p, 'U', 'N', 'N', 2, a, 2, x, 0), -8);
        assert_int_equal(f(p, 'U', 'N', 'N', 2, NULL, 2, x, 1), -5);
        assert_int_equal(f(p, 'U', 'N', 'N', 2, a, 2, NULL, 1), -7);
    }
    for (int i = 0; i < 16; i++)
        assert_true(tl_is_sentinel(&a[i]));
    for (int i = 0; i < 4; i++)
        assert_true(tl_is_sentinel(&x[i]) && tl_is_sentinel(&y[i]));
    /* Nothing to do: no array needed. */
    assert_int_equal(tela_dgemv(p, 'N', 0, 5, 1, NULL, 1, NULL, 1, 0, NULL, 1), 0);
    assert_int_equal(tela_dger(p, 3, 3, 0.0, NULL, 1, NULL, 1, NULL, 3), 0);
    assert_int_equal(tela_dtrsv(p, 'U', 'N', 'N', 0, NULL, 1, NULL, 1), 0);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

/* ---- CBLAS results, both layouts ------------------------------------------------------------ */

static void test_cblas_results(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    tl_seed(6);
    const tela_int m = 13, n = 9, lda = 15, tn = 11;
    double *a = tl_alloc(lda * lda), *a0 = tl_alloc(lda * lda);
    double x[16], y[16], y0[16];
    for (int k = 0; k < lda * lda; k++)
        a0[k] = tl_uniform();
    for (int i = 0; i < 16; i++) {
        x[i] = tl_uniform();
        y0[i] = tl_uniform();
    }
    for (int layout = 0; layout < 2; layout++) {
        const bool rm = layout == 1;
        const CBLAS_LAYOUT lay = rm ? CblasRowMajor : CblasColMajor;
        char what[64];
        /* gemv: y = 0.5 op(A) x + 0.25 y, A m x n stored in lay */
        for (int c = 0; c < 3; c++) {
            const CBLAS_TRANSPOSE tr = c == 0 ? CblasNoTrans : c == 1 ? CblasTrans : CblasConjTrans;
            const int leny = c ? n : m, lenx = c ? m : n;
            memcpy(y, y0, sizeof y);
            cblas_dgemv(lay, tr, m, n, 0.5, a0, lda, x, 1, 0.25, y, 1);
            for (int i = 0; i < leny; i++) {
                long double s = 0;
                for (int k = 0; k < lenx; k++)
                    s += (long double)(c ? *elem(a0, lda, rm, k, i) : *elem(a0, lda, rm, i, k)) *
                         x[k];
                snprintf(what, sizeof what, "cblas_dgemv layout %d trans %d", layout, c);
                if (!close_to(y[i], 0.5L * s + 0.25L * y0[i], lenx + 1.0L, lenx))
                    fail_msg("%s: y[%d] = %.17g, expected %.17Lg", what, i, y[i],
                             0.5L * s + 0.25L * y0[i]);
            }
        }
        /* ger: A += 0.5 x y^T */
        memcpy(a, a0, sizeof(double) * lda * lda);
        cblas_dger(lay, m, n, 0.5, x, 1, y0, 1, a, lda);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                const long double want = *elem(a0, lda, rm, i, j) + 0.5L * x[i] * y0[j];
                if (!close_to(*elem(a, lda, rm, i, j), want, 2, 2))
                    fail_msg("cblas_dger layout %d: a(%d, %d) = %.17g, expected %.17Lg", layout, i,
                             j, *elem(a, lda, rm, i, j), want);
            }
        for (int u = 0; u < 2; u++) {
            const bool upper = u == 0;
            const CBLAS_UPLO ul = upper ? CblasUpper : CblasLower;
            double *s = triangle_matrix(tn, lda, upper, false, rm);
            /* symv reads only the stored triangle (the rest is NaN) */
            memcpy(y, y0, sizeof y);
            cblas_dsymv(lay, ul, tn, 0.5, s, lda, x, 1, 0.25, y, 1);
            for (int i = 0; i < tn; i++) {
                long double t = 0;
                for (int k = 0; k < tn; k++)
                    t += (long double)((upper ? i <= k : i >= k) ? *elem(s, lda, rm, i, k)
                                                                 : *elem(s, lda, rm, k, i)) *
                         x[k];
                if (!close_to(y[i], 0.5L * t + 0.25L * y0[i], tn + 1.0L, tn))
                    fail_msg("cblas_dsymv layout %d uplo %d: y[%d] = %.17g, expected %.17Lg",
                             layout, u, i, y[i], 0.5L * t + 0.25L * y0[i]);
            }
            /* syr and syr2 write only the stored triangle */
            double *s1 = tl_copy(s, lda * tn), *s2 = tl_copy(s, lda * tn);
            cblas_dsyr(lay, ul, tn, 0.5, x, 1, s1, lda);
            cblas_dsyr2(lay, ul, tn, 0.5, x, 1, y0, 1, s2, lda);
            for (int i = 0; i < tn; i++)
                for (int j = 0; j < tn; j++) {
                    const double *e0 = elem(s, lda, rm, i, j);
                    if (!(upper ? i <= j : i >= j)) {
                        assert_true(tl_is_sentinel(elem(s1, lda, rm, i, j)) &&
                                    tl_is_sentinel(elem(s2, lda, rm, i, j)));
                        continue;
                    }
                    const long double w1 = *e0 + 0.5L * x[i] * x[j];
                    const long double w2 =
                        *e0 + 0.5L * ((long double)x[i] * y0[j] + (long double)y0[i] * x[j]);
                    if (!close_to(*elem(s1, lda, rm, i, j), w1, 2, 2) ||
                        !close_to(*elem(s2, lda, rm, i, j), w2, 3, 3))
                        fail_msg("cblas_dsyr/dsyr2 layout %d uplo %d: (%d, %d)", layout, u, i, j);
                }
            free(s1);
            free(s2);
            free(s);
            /* trmv and trsv, every flag */
            for (int f = 0; f < 6; f++) {
                const CBLAS_TRANSPOSE tr = f % 3 == 0   ? CblasNoTrans
                                           : f % 3 == 1 ? CblasTrans
                                                        : CblasConjTrans;
                const bool unit = f >= 3;
                double *t = tri_matrix(tn, lda, upper, unit, rm);
                long double in[16], want[16];
                for (int solve = 0; solve < 2; solve++) {
                    double v[16];
                    memcpy(v, x, sizeof v);
                    for (int i = 0; i < tn; i++)
                        in[i] = x[i];
                    if (solve)
                        cblas_dtrsv(lay, ul, tr, unit ? CblasUnit : CblasNonUnit, tn, t, lda, v, 1);
                    else
                        cblas_dtrmv(lay, ul, tr, unit ? CblasUnit : CblasNonUnit, tn, t, lda, v, 1);
                    tri_reference(t, lda, rm, upper, f % 3 != 0, unit, solve, tn, in, want);
                    for (int i = 0; i < tn; i++)
                        if (!close_to(v[i], want[i], 4, tn))
                            fail_msg("cblas_%s layout %d uplo %d flags %d: x[%d] = %.17g, "
                                     "expected %.17Lg",
                                     solve ? "dtrsv" : "dtrmv", layout, u, f, i, v[i], want[i]);
                }
                free(t);
            }
        }
    }
    free(a);
    free(a0);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

/* ---- the same bits at every width ----------------------------------------------------------- */

/* One problem of every routine, big enough that each region splits; run(par) fills out. */
typedef struct wide_case {
    double *a, *x, *y; /* inputs (not written) */
    double *out;       /* every result, one after the other */
    size_t out_len;
} wide_case;

enum { WM = 1030, WN = 300, WT = 520, WS = 700 };

static size_t run_all(tela_par par, const wide_case *w, double *out, bool check_wide)
{
    size_t at = 0;
    const int incs[][2] = {{1, 1}, {-2, 3}};
    tela_stats before, after;
    for (int q = 0; q < 2; q++) {
        const int incx = incs[q][0], incy = incs[q][1];
        for (int c = 0; c < 2; c++) {
            /* gemv: M rows x N columns, both transposes */
            const int leny = c ? WN : WM, span_y = (leny - 1) * abs(incy) + 1;
            memcpy(out + at, w->y, sizeof(double) * (size_t)span_y);
            tela_get_stats(&before);
            TU_CHECK(tela_dgemv(par, "NT"[c], WM, WN, 0.75, w -> a, WM, w -> x, incx, 0.5, out + at,
                                incy) == 0);
            tela_get_stats(&after);
            if (check_wide && after.region_wakeups <= before.region_wakeups)
                fail_msg("dgemv %c: no region woke a worker", "NT"[c]);
            at += (size_t)span_y;
        }
        for (int u = 0; u < 2; u++) {
            const char uplo = "UL"[u];
            /* symv: 700 is three blocks of partial sums */
            const int span = (WS - 1) * abs(incy) + 1;
            memcpy(out + at, w->y, sizeof(double) * (size_t)span);
            tela_get_stats(&before);
            tela_dsymv(par, uplo, WS, 0.75, w->a, WS, w->x, incx, 0.5, out + at, incy);
            tela_get_stats(&after);
            if (check_wide && after.region_wakeups <= before.region_wakeups)
                fail_msg("dsymv %c: no region woke a worker", uplo);
            at += (size_t)span;
            /* syr, syr2 on a copy of A */
            for (int two = 0; two < 2; two++) {
                memcpy(out + at, w->a, sizeof(double) * WN * WN);
                tela_get_stats(&before);
                if (two)
                    tela_dsyr2(par, uplo, WN, 0.5, w->x, incx, w->y, incy, out + at, WN);
                else
                    tela_dsyr(par, uplo, WN, 0.5, w->x, incx, out + at, WN);
                tela_get_stats(&after);
                if (check_wide && after.region_wakeups <= before.region_wakeups)
                    fail_msg("dsyr%s %c: no region woke a worker", two ? "2" : "", uplo);
                at += (size_t)WN * WN;
            }
            /* trmv and trsv, every transpose and diagonal */
            for (int f = 0; f < 4; f++) {
                for (int solve = 0; solve < 2; solve++) {
                    const int span_x = (WT - 1) * abs(incx) + 1;
                    memcpy(out + at, w->y, sizeof(double) * (size_t)span_x);
                    tela_get_stats(&before);
                    if (solve)
                        tela_dtrsv(par, uplo, "NT"[f % 2], "NU"[f / 2], WT, w -> a, WT + 1,
                                   out + at, incx);
                    else
                        tela_dtrmv(par, uplo, "NT"[f % 2], "NU"[f / 2], WT, w -> a, WT + 1,
                                   out + at, incx);
                    tela_get_stats(&after);
                    if (check_wide && after.region_wakeups <= before.region_wakeups)
                        fail_msg("%s %c%c%c: no region woke a worker", solve ? "dtrsv" : "dtrmv",
                                 uplo, "NT"[f % 2], "NU"[f / 2]);
                    at += (size_t)span_x;
                }
            }
        }
        /* ger on a copy of A */
        memcpy(out + at, w->a, sizeof(double) * WM * WN);
        tela_get_stats(&before);
        tela_dger(par, WM, WN, 0.5, w->x, incx, w->y, incy, out + at, WM);
        tela_get_stats(&after);
        if (check_wide && after.region_wakeups <= before.region_wakeups)
            fail_msg("dger: no region woke a worker");
        at += (size_t)WM * WN;
    }
    return at;
}

/* A region whose members each run the serial problem set through tela_par_auto(): nested, so
 * serial, and the same bits. */
typedef struct nested_job {
    const wide_case *w;
    double *out[2];
} nested_job;

static void nested_body(tela_member *self, void *arg)
{
    nested_job *job = arg;
    if (tela_rank(self) < 2)
        run_all(tela_par_auto(), job->w, job->out[tela_rank(self)], false);
}

/* A call on a held team from inside that team's own region: serial, without the team's
 * workspace (par reports that it cannot be had there). dsymv then takes reference's loops (not
 * the blocked path's bits), dtrmv its serial path in place (the same bits). */
typedef struct team_job {
    tela_team *team;
    const wide_case *w;
    double *symv_y, *trmv_x;
} team_job;

static void team_body(tela_member *self, void *arg)
{
    team_job *job = arg;
    if (tela_rank(self) != 0)
        return;
    const tela_par par = tela_par_team(job->team);
    TU_CHECK(tela_dsymv(par, 'L', WS, 0.75, job->w->a, WS, job->w->x, 1, 0.5, job->symv_y, 1) == 0);
    TU_CHECK(tela_dtrmv(par, 'U', 'N', 'N', WT, job->w->a, WT + 1, job->trmv_x, 1) == 0);
}

static void check_inside_team(const wide_case *w)
{
    tela_pool *pool = tu_pool_of_width(2);
    tela_team *team = pool ? tela_team_acquire(pool, 2) : NULL;
    assert_non_null(team);
    double *want_y = tl_copy(w->y, WS), *want_x = tl_copy(w->y, WT);
    double *got_y = tl_copy(w->y, WS), *got_x = tl_copy(w->y, WT);
    tela_dsymv(tela_par_seq(), 'L', WS, 0.75, w->a, WS, w->x, 1, 0.5, want_y, 1);
    tela_dtrmv(tela_par_seq(), 'U', 'N', 'N', WT, w->a, WT + 1, want_x, 1);
    team_job job = {team, w, got_y, got_x};
    assert_true(tela_parallel(tela_par_team(team), 2, team_body, &job) >= 1);
    TU_ASSERT_NO_FAILURES();
    for (int i = 0; i < WS; i++)
        if (!close_to(got_y[i], want_y[i], 2.0, WS))
            fail_msg("dsymv inside its team's region: y[%d] = %.17g, expected %.17g", i, got_y[i],
                     want_y[i]);
    tu_expect_same("dtrmv inside its team's region", got_x, want_x, WT);
    free(want_y);
    free(want_x);
    free(got_y);
    free(got_x);
    tela_team_release(team);
    tela_pool_destroy(pool);
    /* The workspace refused inside the region (so the unbuffered path ran), and said so. */
    assert_true(hooks.tela_reports > 0);
    hooks.tela_reports = 0;
}

static void test_same_bits_at_every_width(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    tl_seed(7);
    const size_t len = (size_t)WM * WN * 4;
    wide_case w = {tl_alloc((tela_int)len), tl_alloc((tela_int)4 * WM), tl_alloc((tela_int)4 * WM),
                   NULL, 0};
    for (size_t k = 0; k < len; k++)
        w.a[k] = tl_uniform() / WT;
    for (int i = 0; i < WT + 1; i++)
        w.a[i + (size_t)i * (WT + 1)] = 1.5; /* trmv's and trsv's diagonal (lda WT + 1) */
    for (int i = 0; i < 4 * WM; i++) {
        w.x[i] = tl_uniform();
        w.y[i] = tl_uniform();
    }
    double *serial = tl_alloc((tela_int)(2 * len)), *got = tl_alloc((tela_int)(2 * len));
    const size_t used = run_all(tela_par_seq(), &w, serial, false);
    assert_true(used <= 2 * len);
    for (size_t k = 0; k < used; k++)
        if (!isfinite(serial[k]))
            fail_msg("serial result %zu is %g: the comparisons below would prove nothing", k,
                     serial[k]);
    static const int widths[] = {1, 2, 8};
    for (int k = 0; k < COUNT(widths); k++) {
        tela_pool *pool = tu_pool_of_width(widths[k]);
        assert_non_null(pool);
        run_all(tela_par_pool(pool), &w, got, widths[k] > 1);
        char what[64];
        snprintf(what, sizeof what, "results at width %d", widths[k]);
        tu_expect_same(what, got, serial, used);
        if (widths[k] == 2) {
            /* Through the default pool, as the Fortran symbols call. */
            const int saved = tela_get_num_threads();
            tela_set_num_threads(2);
            run_all(tela_par_auto(), &w, got, true);
            tela_set_num_threads(saved);
            tu_expect_same("results through tela_par_auto at width 2", got, serial, used);
            /* And from inside a region: serial there, the same bits. */
            double *second = tl_alloc((tela_int)(2 * len));
            nested_job job = {&w, {got, second}};
            assert_int_equal(tela_parallel(tela_par_pool(pool), 2, nested_body, &job), 2);
            TU_ASSERT_NO_FAILURES();
            tu_expect_same("results from inside a region (member 0)", got, serial, used);
            tu_expect_same("results from inside a region (member 1)", second, serial, used);
            free(second);
        }
        tela_pool_destroy(pool);
    }
    check_inside_team(&w);
    free(serial);
    free(got);
    free(w.a);
    free(w.x);
    free(w.y);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla + hooks.tela_reports, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dgemv),           cmocka_unit_test(test_dsymv),
        cmocka_unit_test(test_dsymv_placement), cmocka_unit_test(test_dger_dsyr_dsyr2),
        cmocka_unit_test(test_dtrmv_dtrsv),     cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_argument_errors), cmocka_unit_test(test_native_returns),
        cmocka_unit_test(test_cblas_results),   cmocka_unit_test(test_same_bits_at_every_width),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
