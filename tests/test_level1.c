/* test_level1 — the level-1 BLAS (tela_ddot ... tela_drotmg, their Fortran symbols and CBLAS
 * entries) against three oracles: a long-double evaluation of what each routine computes, OpenBLAS
 * loaded apart, and reference BLAS 3.11 (Debian's libblas3) loaded apart too, whose loops a
 * strided call must reproduce bit for bit. Increments 1, 2, -1, -3 and 0, sizes -1, 0, 1, 7, 33 and
 * one of three blocks and a tail, special values (dnrm2 near overflow and underflow, NaN and Inf
 * everywhere they matter, idamax's NaN rules, drotg's and drotmg's cases), untouched gaps between
 * strided elements, and the same bits at widths 1, 2 and 8 with the near-free dispatch table
 * loaded so that every region splits. */
#define _GNU_SOURCE
#include "testlapack.h"
#include "tela_cblas.h"

#include <malloc.h>

/* The Fortran ABI (LP64), declared as a Fortran caller sees it: no public header declares it. */
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
void daxpy_(const int *n, const double *alpha, const double *x, const int *incx, double *y,
            const int *incy);
void dscal_(const int *n, const double *alpha, double *x, const int *incx);
void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy);
void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy);
double dnrm2_(const int *n, const double *x, const int *incx);
double dasum_(const int *n, const double *x, const int *incx);
int idamax_(const int *n, const double *x, const int *incx);
void drot_(const int *n, double *x, const int *incx, double *y, const int *incy, const double *c,
           const double *s);
void drotg_(double *a, double *b, double *c, double *s);
void drotm_(const int *n, double *x, const int *incx, double *y, const int *incy,
            const double *param);
void drotmg_(double *d1, double *d2, double *x1, const double *y1, double *param);

/* ---- another library's level 1, loaded apart ------------------------------------------------ */

typedef struct blas1 {
    const char *name;
    double (*ddot)(const int *, const double *, const int *, const double *, const int *);
    void (*daxpy)(const int *, const double *, const double *, const int *, double *, const int *);
    void (*dscal)(const int *, const double *, double *, const int *);
    void (*dcopy)(const int *, const double *, const int *, double *, const int *);
    void (*dswap)(const int *, double *, const int *, double *, const int *);
    double (*dnrm2)(const int *, const double *, const int *);
    double (*dasum)(const int *, const double *, const int *);
    int (*idamax)(const int *, const double *, const int *);
    void (*drot)(const int *, double *, const int *, double *, const int *, const double *,
                 const double *);
    void (*drotg)(double *, double *, double *, double *);
    void (*drotm)(const int *, double *, const int *, double *, const int *, const double *);
    void (*drotmg)(double *, double *, double *, const double *, double *);
} blas1;

static bool blas1_bind(blas1 *lib, void *handle, const char *name)
{
    lib->name = name;
    return tl_symbol(handle, "ddot_", &lib->ddot) && tl_symbol(handle, "daxpy_", &lib->daxpy) &&
           tl_symbol(handle, "dscal_", &lib->dscal) && tl_symbol(handle, "dcopy_", &lib->dcopy) &&
           tl_symbol(handle, "dswap_", &lib->dswap) && tl_symbol(handle, "dnrm2_", &lib->dnrm2) &&
           tl_symbol(handle, "dasum_", &lib->dasum) && tl_symbol(handle, "idamax_", &lib->idamax) &&
           tl_symbol(handle, "drot_", &lib->drot) && tl_symbol(handle, "drotg_", &lib->drotg) &&
           tl_symbol(handle, "drotm_", &lib->drotm) && tl_symbol(handle, "drotmg_", &lib->drotmg);
}

static blas1 openblas_lib, reference_lib;
static const blas1 *openblas, *reference; /* NULL when not available */

/* Reference BLAS 3.11 as Debian installs it (libblas3), never the alternative OpenBLAS provides
 * under the same soname: the file in the reference's own directory. */
#define REFERENCE_BLAS "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"

static int setup_libraries(void **state)
{
    (void)state;
    const struct tl_openblas *ob = tl_openblas();
    if (ob && blas1_bind(&openblas_lib, ob->handle, "OpenBLAS"))
        openblas = &openblas_lib;
    else
        printf("OpenBLAS comparisons skipped: %s\n",
               ob ? "a level-1 symbol is missing" : tl_ob_why);
    void *handle = dlmopen(LM_ID_NEWLM, REFERENCE_BLAS, RTLD_NOW | RTLD_LOCAL);
    if (handle && blas1_bind(&reference_lib, handle, "reference BLAS"))
        reference = &reference_lib;
    else
        printf("reference BLAS comparisons skipped: %s not loaded (install libblas3)\n",
               REFERENCE_BLAS);
    return 0;
}

/* ---- vectors with guarded gaps ---------------------------------------------------------------
 * A vector of n elements at increment inc sits between GUARD sentinels on each side; the
 * positions between its elements (|inc| > 1) hold the sentinel too, and must keep it. */
#define GUARD ((tela_int)5)

typedef struct tvec {
    double *base;    /* GUARD sentinels, len positions, GUARD sentinels */
    double *v;       /* base + GUARD: what a routine is given */
    tela_int n, inc; /* the vector as the routine sees it */
    tela_int len;    /* positions spanned */
} tvec;

static tela_int span(tela_int n, tela_int inc)
{
    return n <= 0 ? 1 : 1 + (n - 1) * (inc < 0 ? -inc : inc);
}

/* Where element i of the vector is, as BLAS addresses it. */
static tela_int pos(tela_int n, tela_int inc, tela_int i)
{
    return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

static tvec tvec_new(tela_int n, tela_int inc)
{
    tvec a = {NULL, NULL, n, inc, span(n, inc)};
    a.base = tl_alloc(a.len + 2 * GUARD);
    for (tela_int p = 0; p < a.len + 2 * GUARD; p++)
        a.base[p] = tl_sentinel();
    a.v = a.base + GUARD;
    for (tela_int i = 0; i < n; i++)
        a.v[pos(n, inc, i)] = tl_uniform();
    return a;
}

static tvec tvec_clone(const tvec *a)
{
    tvec b = *a;
    b.base = tl_copy(a->base, a->len + 2 * GUARD);
    b.v = b.base + GUARD;
    return b;
}

static void tvec_free(tvec *a)
{
    free(a->base);
    a->base = a->v = NULL;
}

static double get(const tvec *a, tela_int i)
{
    return a->v[pos(a->n, a->inc, i)];
}

static void set(tvec *a, tela_int i, double value)
{
    a->v[pos(a->n, a->inc, i)] = value;
}

/* Fails unless every position that is no element still holds the sentinel. */
static void expect_gaps(const char *what, const tvec *a)
{
    const tela_int step = a->inc < 0 ? -a->inc : a->inc;
    for (tela_int p = -GUARD; p < a->len + GUARD; p++) {
        const bool element =
            p >= 0 && p < a->len && a->n > 0 && (step == 0 ? p == 0 : p % step == 0);
        if (!element && !tl_is_sentinel(&a->v[p]))
            fail_msg("%s: position %td outside the vector (n %td, inc %td) was written", what, p,
                     a->n, a->inc);
    }
}

/* Whole buffers (gaps included) bit for bit. */
static void expect_same_vec(const char *what, const tvec *got, const tvec *want)
{
    tu_expect_same(what, got->base, want->base, (size_t)(got->len + 2 * GUARD));
}

static void expect_same_double(const char *what, double got, double want)
{
    tu_expect_same(what, &got, &want, 1);
}

/* |got - want| <= bound, NaN only where want is NaN. */
static void expect_close(const char *what, double got, long double want, long double bound)
{
    if (isnan(want)) {
        if (!isnan(got))
            fail_msg("%s: %.17g, expected NaN", what, got);
        return;
    }
    if (!(fabsl((long double)got - want) <= bound))
        fail_msg("%s: %.17g, expected %.17Lg (error %.3Lg > bound %.3Lg)", what, got, want,
                 fabsl((long double)got - want), bound);
}

#define EPS DBL_EPSILON
/* Elements of a block in src/level1 (LEVEL1_BLOCK), the least that a region's member takes: the
 * sizes below span several, so that the calls split. */
#define BLOCK 8192

static const tela_int sizes[] = {-1, 0, 1, 7, 33, 3 * BLOCK + 123};
#define SIZE_COUNT (sizeof sizes / sizeof sizes[0])

/* Increment pairs of the two-vector routines (0 where they accept it). */
static const tela_int pairs[][2] = {{1, 1}, {2, 1}, {1, -1}, {-3, 2}, {-1, -1},
                                    {0, 1}, {1, 0}, {0, 0},  {2, -3}};
#define PAIR_COUNT (sizeof pairs / sizeof pairs[0])

static bool strided(tela_int incx, tela_int incy)
{
    return incx != 1 || incy != 1;
}

/* ---- ddot ---------------------------------------------------------------------------------- */

static void test_ddot(void **state)
{
    (void)state;
    tl_seed(1);
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t p = 0; p < PAIR_COUNT; p++) {
            const tela_int n = sizes[s], incx = pairs[p][0], incy = pairs[p][1];
            tvec x = tvec_new(n, incx), y = tvec_new(n, incy);
            long double want = 0, bound = 0;
            for (tela_int i = 0; i < n; i++) {
                want += (long double)get(&x, i) * get(&y, i);
                bound += fabsl((long double)get(&x, i) * get(&y, i));
            }
            bound *= 2 * (n + 1) * EPS;
            const double got = tela_ddot(tela_par_seq(), n, x.v, incx, y.v, incy);
            snprintf(what, sizeof what, "ddot n %td incx %td incy %td", n, incx, incy);
            expect_close(what, got, want, bound);
            const int ni = (int)n, ix = (int)incx, iy = (int)incy;
            expect_same_double(what, ddot_(&ni, x.v, &ix, y.v, &iy), got);
            expect_same_double(what, cblas_ddot(ni, x.v, ix, y.v, iy), got);
            if (openblas)
                expect_close(what, openblas->ddot(&ni, x.v, &ix, y.v, &iy), want, bound);
            if (reference) {
                const double r = reference->ddot(&ni, x.v, &ix, y.v, &iy);
                if (strided(incx, incy))
                    expect_same_double(what, got, r);
                else
                    expect_close(what, r, want, bound);
            }
            expect_gaps(what, &x);
            expect_gaps(what, &y);
            tvec_free(&x);
            tvec_free(&y);
        }
    double one = 1.0;
    assert_true(tela_ddot(tela_par_seq(), -1, &one, 1, &one, 1) == 0.0);
}

/* ---- daxpy --------------------------------------------------------------------------------- */

static void test_daxpy(void **state)
{
    (void)state;
    tl_seed(2);
    static const double alphas[] = {0.0, 1.0, -0.75};
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t p = 0; p < PAIR_COUNT; p++)
            for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
                const tela_int n = sizes[s], incx = pairs[p][0], incy = pairs[p][1];
                const double alpha = alphas[a];
                snprintf(what, sizeof what, "daxpy n %td alpha %g incx %td incy %td", n, alpha,
                         incx, incy);
                tvec x = tvec_new(n, incx), y0 = tvec_new(n, incy);
                if (n > 1 && alpha == 0.0)
                    set(&x, 1, NAN); /* alpha = 0 does nothing: the NaN never reaches y */
                tvec y = tvec_clone(&y0);
                tela_daxpy(tela_par_seq(), n, alpha, x.v, incx, y.v, incy);
                expect_gaps(what, &y);
                expect_gaps(what, &x);
                if (incy != 0)
                    for (tela_int i = 0; i < n; i++) {
                        const long double t = alpha == 0.0 ? 0 : (long double)alpha * get(&x, i);
                        const long double want = (long double)get(&y0, i) + t;
                        expect_close(what, get(&y, i), want,
                                     2 * EPS * (fabsl(t) + fabs(get(&y0, i))));
                    }
                const int ni = (int)n, ix = (int)incx, iy = (int)incy;
                tvec yf = tvec_clone(&y0), yc = tvec_clone(&y0);
                daxpy_(&ni, &alpha, x.v, &ix, yf.v, &iy);
                cblas_daxpy(ni, alpha, x.v, ix, yc.v, iy);
                expect_same_vec(what, &yf, &y);
                expect_same_vec(what, &yc, &y);
                if (reference) {
                    tvec yr = tvec_clone(&y0);
                    reference->daxpy(&ni, &alpha, x.v, &ix, yr.v, &iy);
                    if (strided(incx, incy))
                        expect_same_vec(what, &y, &yr);
                    else
                        for (tela_int i = 0; i < n; i++)
                            expect_close(what, get(&y, i), get(&yr, i),
                                         alpha == 0.0
                                             ? 0.0
                                             : 2 * EPS *
                                                   (fabs(alpha * get(&x, i)) + fabs(get(&y0, i))));
                    tvec_free(&yr);
                }
                if (openblas && incx != 0 && incy != 0 && alpha != 0.0) {
                    tvec yo = tvec_clone(&y0);
                    openblas->daxpy(&ni, &alpha, x.v, &ix, yo.v, &iy);
                    for (tela_int i = 0; i < n; i++)
                        expect_close(what, get(&yo, i), get(&y, i),
                                     4 * EPS * (fabs(alpha * get(&x, i)) + fabs(get(&y0, i))));
                    tvec_free(&yo);
                }
                tvec_free(&x);
                tvec_free(&y0);
                tvec_free(&y);
                tvec_free(&yf);
                tvec_free(&yc);
            }
}

/* ---- placement: x and y off their 64-byte lines ------------------------------------------- */

/* The AVX-512 and AVX2 loops start where x and y sit at the same offset in a line with the
 * elements before the next one (level1_head): daxpy's are one fma each wherever they are, and
 * ddot moves its accumulators' lanes so that each adds the same elements in the same order
 * (loops_avx512.c, dot_steps_headed). Every offset 1-7 then gives the aligned call's bits, and
 * those are the product's; 8200 and 20000: more than one block. */
static void test_placement_keeps_bits(void **state)
{
    (void)state;
    static const tela_int lengths[] = {33, 64, 70, 100, 129, 1000, 2047, 3000, 8200, 20000};
    tl_seed(11);
    char what[160];
    for (size_t s = 0; s < sizeof lengths / sizeof lengths[0]; s++) {
        const tela_int n = lengths[s];
        /* aligned_alloc takes whole multiples of the alignment (C11; the sanitizers check). */
        const size_t bytes = ((size_t)(n + 8) * sizeof(double) + 63) / 64 * 64;
        double *x0 = malloc(bytes), *y0 = malloc(bytes);
        double *xb = aligned_alloc(64, bytes), *yb = aligned_alloc(64, bytes);
        double *y_aligned = malloc(bytes);
        assert_true(x0 && y0 && xb && yb && y_aligned);
        long double want = 0, bound = 0;
        for (tela_int i = 0; i < n; i++) {
            x0[i] = tl_uniform();
            y0[i] = tl_uniform();
            want += (long double)x0[i] * y0[i];
            bound += fabsl((long double)x0[i] * y0[i]);
        }
        double dot_aligned = 0;
        for (int off = 0; off < 8; off++) {
            double *x = xb + off, *y = yb + off;
            memcpy(x, x0, (size_t)n * sizeof(double));
            memcpy(y, y0, (size_t)n * sizeof(double));
            const double dot = tela_ddot(tela_par_seq(), n, x, 1, y, 1);
            tela_daxpy(tela_par_seq(), n, -0.75, x, 1, y, 1);
            snprintf(what, sizeof what, "ddot, daxpy n %td, x and y %d doubles off their line", n,
                     off);
            if (off == 0) {
                expect_close(what, dot, want, 2 * (n + 1) * EPS * bound);
                dot_aligned = dot;
                memcpy(y_aligned, y, (size_t)n * sizeof(double));
                continue;
            }
            expect_same_double(what, dot, dot_aligned);
            if (memcmp(y, y_aligned, (size_t)n * sizeof(double)) != 0)
                fail_msg("%s: daxpy gave other bits", what);
        }
        free(x0);
        free(y0);
        free(xb);
        free(yb);
        free(y_aligned);
    }
}

/* ---- dscal, dcopy, dswap: exact operations --------------------------------------------------- */

static void test_dscal(void **state)
{
    (void)state;
    tl_seed(3);
    static const double alphas[] = {0.0, 1.0, -0.75, 2.0};
    static const tela_int incs[] = {1, 2, 3, 0, -1};
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t k = 0; k < sizeof incs / sizeof incs[0]; k++)
            for (size_t a = 0; a < sizeof alphas / sizeof alphas[0]; a++) {
                const tela_int n = sizes[s], inc = incs[k];
                const double alpha = alphas[a];
                snprintf(what, sizeof what, "dscal n %td alpha %g incx %td", n, alpha, inc);
                /* A negative increment is stored as its absolute value's (reference returns for
                 * incx <= 0 without touching anything). */
                tvec x0 = tvec_new(n, inc);
                if (n > 2) {
                    set(&x0, 1, NAN);
                    set(&x0, 2, -INFINITY);
                }
                tvec x = tvec_clone(&x0);
                tela_dscal(tela_par_seq(), n, alpha, x.v, inc);
                expect_gaps(what, &x);
                for (tela_int i = 0; i < n; i++) {
                    /* Reference 3.11: alpha = 0 multiplies (NaN and Inf give NaN). */
                    const double want = inc > 0 ? alpha * get(&x0, i) : get(&x0, i);
                    expect_same_double(what, get(&x, i), want);
                }
                if (n > 2 && inc > 0 && alpha == 0.0)
                    assert_true(isnan(get(&x, 1)) && isnan(get(&x, 2)));
                const int ni = (int)n, ix = (int)inc;
                tvec xf = tvec_clone(&x0), xc = tvec_clone(&x0);
                dscal_(&ni, &alpha, xf.v, &ix);
                cblas_dscal(ni, alpha, xc.v, ix);
                expect_same_vec(what, &xf, &x);
                expect_same_vec(what, &xc, &x);
                if (reference) {
                    tvec xr = tvec_clone(&x0);
                    reference->dscal(&ni, &alpha, xr.v, &ix);
                    expect_same_vec(what, &x, &xr);
                    tvec_free(&xr);
                }
                if (openblas && alpha != 0.0) { /* OpenBLAS zeroes for alpha = 0, NaN too */
                    tvec xo = tvec_clone(&x0);
                    openblas->dscal(&ni, &alpha, xo.v, &ix);
                    expect_same_vec(what, &x, &xo);
                    tvec_free(&xo);
                }
                tvec_free(&x0);
                tvec_free(&x);
                tvec_free(&xf);
                tvec_free(&xc);
            }
}

static void test_dcopy_dswap(void **state)
{
    (void)state;
    tl_seed(4);
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t p = 0; p < PAIR_COUNT; p++) {
            const tela_int n = sizes[s], incx = pairs[p][0], incy = pairs[p][1];
            const int ni = (int)n, ix = (int)incx, iy = (int)incy;
            tvec x0 = tvec_new(n, incx), y0 = tvec_new(n, incy);
            /* dcopy: y's elements are x's; with incx = 0 or incy = 0 the reference's order. */
            snprintf(what, sizeof what, "dcopy n %td incx %td incy %td", n, incx, incy);
            tvec y = tvec_clone(&y0);
            tela_dcopy(tela_par_seq(), n, x0.v, incx, y.v, incy);
            expect_gaps(what, &y);
            if (incy != 0)
                for (tela_int i = 0; i < n; i++)
                    expect_same_double(what, get(&y, i), get(&x0, i));
            else if (n > 0)
                expect_same_double(what, y.v[0], get(&x0, n - 1));
            tvec yf = tvec_clone(&y0), yc = tvec_clone(&y0);
            dcopy_(&ni, x0.v, &ix, yf.v, &iy);
            cblas_dcopy(ni, x0.v, ix, yc.v, iy);
            expect_same_vec(what, &yf, &y);
            expect_same_vec(what, &yc, &y);
            if (reference) {
                tvec yr = tvec_clone(&y0);
                reference->dcopy(&ni, x0.v, &ix, yr.v, &iy);
                expect_same_vec(what, &y, &yr);
                tvec_free(&yr);
            }
            if (openblas && incy != 0) {
                tvec yo = tvec_clone(&y0);
                openblas->dcopy(&ni, x0.v, &ix, yo.v, &iy);
                expect_same_vec(what, &y, &yo);
                tvec_free(&yo);
            }
            tvec_free(&y);
            tvec_free(&yf);
            tvec_free(&yc);

            /* dswap */
            snprintf(what, sizeof what, "dswap n %td incx %td incy %td", n, incx, incy);
            tvec x = tvec_clone(&x0);
            y = tvec_clone(&y0);
            tela_dswap(tela_par_seq(), n, x.v, incx, y.v, incy);
            expect_gaps(what, &x);
            expect_gaps(what, &y);
            if (incx != 0 && incy != 0)
                for (tela_int i = 0; i < n; i++) {
                    expect_same_double(what, get(&x, i), get(&y0, i));
                    expect_same_double(what, get(&y, i), get(&x0, i));
                }
            tvec xf = tvec_clone(&x0), xc = tvec_clone(&x0);
            yf = tvec_clone(&y0);
            yc = tvec_clone(&y0);
            dswap_(&ni, xf.v, &ix, yf.v, &iy);
            cblas_dswap(ni, xc.v, ix, yc.v, iy);
            expect_same_vec(what, &xf, &x);
            expect_same_vec(what, &yf, &y);
            expect_same_vec(what, &xc, &x);
            expect_same_vec(what, &yc, &y);
            if (reference) {
                tvec xr = tvec_clone(&x0), yr = tvec_clone(&y0);
                reference->dswap(&ni, xr.v, &ix, yr.v, &iy);
                expect_same_vec(what, &x, &xr);
                expect_same_vec(what, &y, &yr);
                tvec_free(&xr);
                tvec_free(&yr);
            }
            if (openblas && incx != 0 && incy != 0) {
                tvec xo = tvec_clone(&x0), yo = tvec_clone(&y0);
                openblas->dswap(&ni, xo.v, &ix, yo.v, &iy);
                expect_same_vec(what, &x, &xo);
                expect_same_vec(what, &y, &yo);
                tvec_free(&xo);
                tvec_free(&yo);
            }
            tvec_free(&x);
            tvec_free(&y);
            tvec_free(&xf);
            tvec_free(&yf);
            tvec_free(&xc);
            tvec_free(&yc);
            tvec_free(&x0);
            tvec_free(&y0);
        }
}

/* ---- dnrm2 and dasum ----------------------------------------------------------------------- */

/* dnrm2 of x checked against sqrt(sum x_i^2) in long double (whose exponent range holds every
 * square of a double), OpenBLAS and the reference. */
static void check_nrm2(const char *label, const tvec *x)
{
    char what[160];
    const tela_int n = x->n, inc = x->inc;
    snprintf(what, sizeof what, "dnrm2 %s n %td incx %td", label, n, inc);
    long double sum = 0;
    bool has_nan = false, has_inf = false;
    for (tela_int i = 0; i < n; i++) {
        const double v = get(x, i);
        has_nan |= isnan(v) != 0;
        has_inf |= isinf(v) != 0;
        sum += (long double)v * v;
    }
    const long double want = has_nan ? NAN : has_inf ? INFINITY : sqrtl(sum);
    /* Relative, and half a unit of the last place where the norm is subnormal. */
    const long double bound = 2 * (n + 2) * EPS * want + DBL_TRUE_MIN;
    const double got = tela_dnrm2(tela_par_seq(), n, x->v, inc);
    if (has_inf && !has_nan)
        assert_true(isinf(got) && got > 0);
    else
        expect_close(what, got, want, bound);
    const int ni = (int)n, ix = (int)inc;
    expect_same_double(what, dnrm2_(&ni, x->v, &ix), got);
    expect_same_double(what, cblas_dnrm2(ni, x->v, ix), got);
    if (reference) {
        const double r = reference->dnrm2(&ni, x->v, &ix);
        if (inc != 1)
            expect_same_double(what, got, r);
        else if (!has_inf)
            expect_close(what, r, want, bound);
    }
    /* OpenBLAS 0.3.21 answers 0 for incx <= 0, and its x87 sums turn NaN and Inf mixes
     * otherwise; its norms of finite vectors are compared. */
    if (openblas && inc > 0 && !has_nan && !has_inf)
        expect_close(what, openblas->dnrm2(&ni, x->v, &ix), want, bound);
}

static void test_dnrm2(void **state)
{
    (void)state;
    tl_seed(5);
    static const tela_int incs[] = {1, 2, -1, -3, 0};
    static const double scales[] = {1.0, 1e300, 1e-300, 0x1p-1070, 1e200, 1e-170};
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t k = 0; k < sizeof incs / sizeof incs[0]; k++)
            for (size_t c = 0; c < sizeof scales / sizeof scales[0]; c++) {
                tvec x = tvec_new(sizes[s], incs[k]);
                for (tela_int i = 0; i < x.n; i++)
                    set(&x, i, get(&x, i) * scales[c]);
                char label[64];
                snprintf(label, sizeof label, "scale %g", scales[c]);
                check_nrm2(label, &x);
                expect_gaps("dnrm2", &x);
                tvec_free(&x);
            }
    /* Mixed magnitudes, in every one of Blue's cases, and NaN and Inf, on the blocked path
     * (n beyond a block) and the strided one. */
    static const tela_int mixed_sizes[] = {33, 3 * BLOCK + 123};
    for (size_t s = 0; s < 2; s++)
        for (size_t k = 0; k < 3; k++)
            for (int mix = 0; mix < 9; mix++) {
                const tela_int n = mixed_sizes[s];
                tvec x = tvec_new(n, incs[k]);
                const tela_int far = n - 2; /* in another block than element 0 */
                static const char *const labels[] = {"big and medium",
                                                     "big alone",
                                                     "small and medium",
                                                     "small alone",
                                                     "big and small",
                                                     "NaN",
                                                     "Inf",
                                                     "Inf and NaN",
                                                     "-Inf and zeros"};
                switch (mix) {
                case 0:
                    set(&x, far, 3e300);
                    break;
                case 1:
                    for (tela_int i = 0; i < n; i++)
                        set(&x, i, get(&x, i) * 1e300);
                    break;
                case 2:
                    for (tela_int i = 0; i < n; i += 2)
                        set(&x, i, get(&x, i) * 1e-300);
                    break;
                case 3:
                    for (tela_int i = 0; i < n; i++)
                        set(&x, i, get(&x, i) * 0x1p-1060);
                    break;
                case 4:
                    for (tela_int i = 0; i < n; i++)
                        set(&x, i, get(&x, i) * (i % 2 ? 1e-300 : 1e300));
                    break;
                case 5:
                    set(&x, far, NAN);
                    break;
                case 6:
                    set(&x, far, INFINITY);
                    set(&x, 0, 1e300);
                    break;
                case 7:
                    set(&x, 0, INFINITY);
                    set(&x, far, NAN);
                    break;
                default:
                    for (tela_int i = 0; i < n; i++)
                        set(&x, i, 0.0);
                    set(&x, far, -INFINITY);
                    break;
                }
                check_nrm2(labels[mix], &x);
                tvec_free(&x);
            }
    /* Exact answers. */
    double v[4] = {3e300, 4e300, 0, 0};
    assert_true(tela_dnrm2(tela_par_seq(), 2, v, 1) == 5e300);
    v[0] = 3e-310, v[1] = 4e-310;
    expect_close("dnrm2 subnormal", tela_dnrm2(tela_par_seq(), 2, v, 1), 5e-310L, 4e-323L);
    assert_true(tela_dnrm2(tela_par_seq(), 0, v, 1) == 0.0);
    assert_true(tela_dnrm2(tela_par_seq(), 2, v + 2, 1) == 0.0);
}

static void test_dasum(void **state)
{
    (void)state;
    tl_seed(6);
    static const tela_int incs[] = {1, 2, 3, 0, -1};
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t k = 0; k < sizeof incs / sizeof incs[0]; k++) {
            const tela_int n = sizes[s], inc = incs[k];
            tvec x = tvec_new(n, inc);
            snprintf(what, sizeof what, "dasum n %td incx %td", n, inc);
            long double want = 0;
            for (tela_int i = 0; inc > 0 && i < n; i++)
                want += fabs(get(&x, i));
            const double got = tela_dasum(tela_par_seq(), n, x.v, inc);
            expect_close(what, got, want, 2 * (n + 1) * EPS * want);
            if (inc <= 0)
                assert_true(got == 0.0);
            const int ni = (int)n, ix = (int)inc;
            expect_same_double(what, dasum_(&ni, x.v, &ix), got);
            expect_same_double(what, cblas_dasum(ni, x.v, ix), got);
            if (reference) {
                const double r = reference->dasum(&ni, x.v, &ix);
                if (inc != 1)
                    expect_same_double(what, got, r);
                else
                    expect_close(what, r, want, 2 * (n + 1) * EPS * want);
            }
            if (openblas)
                expect_close(what, openblas->dasum(&ni, x.v, &ix), want, 2 * (n + 1) * EPS * want);
            tvec_free(&x);
        }
}

/* ---- idamax -------------------------------------------------------------------------------- */

/* Reference IDAMAX's loop (1-based, 0 for n < 1 or incx <= 0). */
static tela_int model_idamax(const tvec *x)
{
    if (x->n < 1 || x->inc <= 0)
        return 0;
    tela_int best = 1;
    double max = fabs(get(x, 0));
    for (tela_int i = 1; i < x->n; i++)
        if (fabs(get(x, i)) > max) {
            best = i + 1;
            max = fabs(get(x, i));
        }
    return best;
}

static void check_idamax(const char *label, const tvec *x, bool has_nan)
{
    char what[160];
    snprintf(what, sizeof what, "idamax %s n %td incx %td", label, x->n, x->inc);
    const tela_int want = model_idamax(x);
    const tela_int got = tela_idamax(tela_par_seq(), x->n, x->v, x->inc);
    if (got != want)
        fail_msg("%s: %td, expected %td", what, got, want);
    const int ni = (int)x->n, ix = (int)x->inc;
    assert_int_equal(idamax_(&ni, x->v, &ix), want);
    assert_int_equal(cblas_idamax(ni, x->v, ix), want > 0 ? want - 1 : 0);
    if (reference && reference->idamax(&ni, x->v, &ix) != want)
        fail_msg("%s: reference says %d, the model %td", what, reference->idamax(&ni, x->v, &ix),
                 want);
    if (openblas && !has_nan && openblas->idamax(&ni, x->v, &ix) != want)
        fail_msg("%s: OpenBLAS says %d, the model %td", what, openblas->idamax(&ni, x->v, &ix),
                 want);
}

static void test_idamax(void **state)
{
    (void)state;
    tl_seed(7);
    static const tela_int incs[] = {1, 2, 3, 0, -1};
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t k = 0; k < sizeof incs / sizeof incs[0]; k++) {
            const tela_int n = sizes[s];
            tvec x = tvec_new(n, incs[k]);
            check_idamax("random", &x, false);
            if (n > 20) {
                const tela_int last = n - 3, mid = n / 2;
                /* Ties: the first of equal |x_i| wins, whatever their signs and blocks. */
                set(&x, mid, -7.0);
                set(&x, last, 7.0);
                check_idamax("tie", &x, false);
                set(&x, 1, 7.0);
                check_idamax("tie earlier", &x, false);
                set(&x, last, INFINITY);
                check_idamax("Inf", &x, false);
                /* NaN is never larger; as x_1 nothing after it is chosen. */
                set(&x, last, NAN);
                check_idamax("NaN later", &x, true);
                set(&x, 0, NAN);
                check_idamax("NaN first", &x, true);
                for (tela_int i = 0; i < n; i++)
                    set(&x, i, NAN);
                check_idamax("all NaN", &x, true);
                set(&x, n - 1, -1.0);
                check_idamax("all NaN but the last", &x, true);
                set(&x, 0, 0.0);
                check_idamax("zero first, NaN, the last", &x, true);
                /* Increasing values: every chunk finds a new largest. */
                for (tela_int i = 0; i < n; i++)
                    set(&x, i, (double)i * (i % 2 ? 1 : -1));
                check_idamax("increasing", &x, false);
            }
            tvec_free(&x);
        }
    double one = 1.0;
    assert_int_equal(cblas_idamax(0, &one, 1), 0);
    assert_int_equal(cblas_idamax(1, &one, 0), 0);
    assert_int_equal(cblas_idamax(1, &one, 1), 0);
}

/* ---- drot and drotm ------------------------------------------------------------------------ */

static void test_drot(void **state)
{
    (void)state;
    tl_seed(8);
    static const double cs[][2] = {{0.6, 0.8}, {1.0, 0.0}, {0.0, 1.0}, {-0.3, 0.2}};
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t p = 0; p < PAIR_COUNT; p++)
            for (size_t r = 0; r < sizeof cs / sizeof cs[0]; r++) {
                const tela_int n = sizes[s], incx = pairs[p][0], incy = pairs[p][1];
                const double c = cs[r][0], sn = cs[r][1];
                snprintf(what, sizeof what, "drot n %td c %g s %g incx %td incy %td", n, c, sn,
                         incx, incy);
                tvec x0 = tvec_new(n, incx), y0 = tvec_new(n, incy);
                tvec x = tvec_clone(&x0), y = tvec_clone(&y0);
                tela_drot(tela_par_seq(), n, x.v, incx, y.v, incy, c, sn);
                expect_gaps(what, &x);
                expect_gaps(what, &y);
                if (incx != 0 && incy != 0)
                    for (tela_int i = 0; i < n; i++) {
                        const long double xi = get(&x0, i), yi = get(&y0, i);
                        const long double b = 3 * EPS * (fabsl(c * xi) + fabsl(sn * yi));
                        expect_close(what, get(&x, i), c * xi + sn * yi, b);
                        expect_close(what, get(&y, i), c * yi - sn * xi, b);
                    }
                const int ni = (int)n, ix = (int)incx, iy = (int)incy;
                tvec xf = tvec_clone(&x0), yf = tvec_clone(&y0);
                tvec xc = tvec_clone(&x0), yc = tvec_clone(&y0);
                drot_(&ni, xf.v, &ix, yf.v, &iy, &c, &sn);
                cblas_drot(ni, xc.v, ix, yc.v, iy, c, sn);
                expect_same_vec(what, &xf, &x);
                expect_same_vec(what, &yf, &y);
                expect_same_vec(what, &xc, &x);
                expect_same_vec(what, &yc, &y);
                if (reference && strided(incx, incy)) {
                    tvec xr = tvec_clone(&x0), yr = tvec_clone(&y0);
                    reference->drot(&ni, xr.v, &ix, yr.v, &iy, &c, &sn);
                    expect_same_vec(what, &x, &xr);
                    expect_same_vec(what, &y, &yr);
                    tvec_free(&xr);
                    tvec_free(&yr);
                }
                if (openblas && incx != 0 && incy != 0) {
                    tvec xo = tvec_clone(&x0), yo = tvec_clone(&y0);
                    openblas->drot(&ni, xo.v, &ix, yo.v, &iy, &c, &sn);
                    for (tela_int i = 0; i < n; i++) {
                        const double b = 6 * EPS * (fabs(c * get(&x0, i)) + fabs(sn * get(&y0, i)));
                        expect_close(what, get(&xo, i), get(&x, i), b);
                        expect_close(what, get(&yo, i), get(&y, i), b);
                    }
                    tvec_free(&xo);
                    tvec_free(&yo);
                }
                tvec_free(&x0);
                tvec_free(&y0);
                tvec_free(&x);
                tvec_free(&y);
                tvec_free(&xf);
                tvec_free(&yf);
                tvec_free(&xc);
                tvec_free(&yc);
            }
}

static void test_drotm(void **state)
{
    (void)state;
    tl_seed(9);
    /* flag, h11, h21, h12, h22: the entries a flag implies hold values that must be ignored. */
    static const double params[][5] = {{-2.0, 5, 5, 5, 5},
                                       {-1.0, 0.5, -0.25, 0.75, 1.5},
                                       {0.0, 99, -0.25, 0.75, 99},
                                       {1.0, 0.5, 99, 99, 1.5},
                                       {2.0, 0.5, 99, 99, 1.5}};
    char what[160];
    for (size_t s = 0; s < SIZE_COUNT; s++)
        for (size_t p = 0; p < PAIR_COUNT; p++)
            for (size_t f = 0; f < sizeof params / sizeof params[0]; f++) {
                const tela_int n = sizes[s], incx = pairs[p][0], incy = pairs[p][1];
                const double *param = params[f];
                snprintf(what, sizeof what, "drotm n %td flag %g incx %td incy %td", n, param[0],
                         incx, incy);
                /* H as reference reads it for the flag. */
                double h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
                if (param[0] == 0.0)
                    h11 = h22 = 1.0;
                else if (param[0] > 0.0)
                    h12 = 1.0, h21 = -1.0;
                tvec x0 = tvec_new(n, incx), y0 = tvec_new(n, incy);
                tvec x = tvec_clone(&x0), y = tvec_clone(&y0);
                tela_drotm(tela_par_seq(), n, x.v, incx, y.v, incy, param);
                expect_gaps(what, &x);
                expect_gaps(what, &y);
                if (incx != 0 && incy != 0)
                    for (tela_int i = 0; i < n; i++) {
                        const long double w = get(&x0, i), z = get(&y0, i);
                        if (param[0] == -2.0) {
                            expect_same_double(what, get(&x, i), get(&x0, i));
                            expect_same_double(what, get(&y, i), get(&y0, i));
                            continue;
                        }
                        expect_close(what, get(&x, i), w * h11 + z * h12,
                                     2 * EPS * (fabsl(w * h11) + fabsl(z * h12)));
                        expect_close(what, get(&y, i), w * h21 + z * h22,
                                     2 * EPS * (fabsl(w * h21) + fabsl(z * h22)));
                    }
                const int ni = (int)n, ix = (int)incx, iy = (int)incy;
                tvec xf = tvec_clone(&x0), yf = tvec_clone(&y0);
                tvec xc = tvec_clone(&x0), yc = tvec_clone(&y0);
                drotm_(&ni, xf.v, &ix, yf.v, &iy, param);
                cblas_drotm(ni, xc.v, ix, yc.v, iy, param);
                expect_same_vec(what, &xf, &x);
                expect_same_vec(what, &yf, &y);
                expect_same_vec(what, &xc, &x);
                expect_same_vec(what, &yc, &y);
                if (reference) { /* no fused operations in drotm: the reference's bits */
                    tvec xr = tvec_clone(&x0), yr = tvec_clone(&y0);
                    reference->drotm(&ni, xr.v, &ix, yr.v, &iy, param);
                    expect_same_vec(what, &x, &xr);
                    expect_same_vec(what, &y, &yr);
                    tvec_free(&xr);
                    tvec_free(&yr);
                }
                if (openblas && incx != 0 && incy != 0 && param[0] <= 1.0) {
                    tvec xo = tvec_clone(&x0), yo = tvec_clone(&y0);
                    openblas->drotm(&ni, xo.v, &ix, yo.v, &iy, param);
                    for (tela_int i = 0; i < n; i++) {
                        const double w = get(&x0, i), z = get(&y0, i);
                        expect_close(what, get(&xo, i), get(&x, i),
                                     4 * EPS * (fabs(w * h11) + fabs(z * h12)));
                        expect_close(what, get(&yo, i), get(&y, i),
                                     4 * EPS * (fabs(w * h21) + fabs(z * h22)));
                    }
                    tvec_free(&xo);
                    tvec_free(&yo);
                }
                tvec_free(&x0);
                tvec_free(&y0);
                tvec_free(&x);
                tvec_free(&y);
                tvec_free(&xf);
                tvec_free(&yf);
                tvec_free(&xc);
                tvec_free(&yc);
            }
}

/* ---- drotg and drotmg ---------------------------------------------------------------------- */

static void test_drotg(void **state)
{
    (void)state;
    static const double cases[][2] = {
        {0.0, 0.0},       {0.0, 2.0},  {3.0, 0.0},       {3.0, 4.0},
        {-3.0, 4.0},      {4.0, -3.0}, {-4.0, -3.0},     {1e300, 1e300},
        {1e-300, 3e-300}, {-0.0, 5.0}, {5.0, -0.0},      {0x1p-1074, 1.0},
        {1.0, 0x1p-1074}, {2.5, 2.5},  {1e308, -1e-308}, {0x1p-1060, 0x1p-1070}};
    char what[160];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double a0 = cases[k][0], b0 = cases[k][1];
        snprintf(what, sizeof what, "drotg a %g b %g", a0, b0);
        double a = a0, b = b0, c = -9, s = -9;
        tela_drotg(&a, &b, &c, &s);
        /* The rotation: c a0 + s b0 = r, -s a0 + c b0 = 0, c^2 + s^2 = 1. */
        const long double r = a;
        const long double scale = fmaxl(fabsl(a0), fabsl(b0));
        /* Where r is subnormal (both inputs far below the smallest normal number) it carries few
         * digits, and so do c and s: only the reference's bits are checked then. */
        if (scale > 0 && fabsl(r) >= DBL_MIN) {
            expect_close(what, c * c + s * s, 1.0L, 4 * EPS);
            expect_close(what, (c * (long double)a0 + s * (long double)b0) / scale, r / scale,
                         4 * EPS);
            expect_close(what, (-s * (long double)a0 + c * (long double)b0) / scale, 0.0L, 4 * EPS);
        }
        if (b0 == 0.0) {
            assert_true(c == 1.0 && s == 0.0 && b == 0.0 && a == a0);
        } else if (a0 == 0.0) {
            assert_true(c == 0.0 && s == 1.0 && a == b0 && b == 1.0);
        } else if (fabs(a0) > fabs(b0)) {
            expect_same_double(what, b, s); /* z = s */
            assert_true(copysign(1.0, r) == copysign(1.0, a0));
        } else {
            expect_same_double(what, b, c != 0.0 ? 1.0 / c : 1.0); /* z = 1/c */
            assert_true(copysign(1.0, r) == copysign(1.0, b0));
        }
        double af = a0, bf = b0, cf, sf, acb = a0, bcb = b0, cc, sc;
        drotg_(&af, &bf, &cf, &sf);
        cblas_drotg(&acb, &bcb, &cc, &sc);
        const double got[4] = {a, b, c, s}, f[4] = {af, bf, cf, sf}, cb[4] = {acb, bcb, cc, sc};
        tu_expect_same(what, f, got, 4);
        tu_expect_same(what, cb, got, 4);
        if (reference) { /* 3.10's drotg.f90, the same operations */
            double ar = a0, br = b0, cr, sr;
            reference->drotg(&ar, &br, &cr, &sr);
            const double want[4] = {ar, br, cr, sr};
            tu_expect_same(what, got, want, 4);
        }
        /* OpenBLAS 0.3.21 squares a and b unscaled: past 1e154 or below 1e-154 it overflows
         * or underflows. */
        const bool openblas_range = scale == 0 || (scale < 1e150 && scale > 1e-150);
        if (openblas && openblas_range) {
            double ao = a0, bo = b0, co, so;
            openblas->drotg(&ao, &bo, &co, &so);
            expect_close(what, a, ao, 4 * EPS * fabs(ao));
            expect_close(what, c, co, 4 * EPS);
            expect_close(what, s, so, 4 * EPS);
        }
    }
}

/* drotmg's result satisfies its definition: H (x1, y1) = (x1', 0) and H^T D' H = D. */
static void check_rotmg_definition(const char *what, const double in[4], const double out[3],
                                   const double *param)
{
    if (param[0] == -2.0)
        return;
    double h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
    if (param[0] == 0.0)
        h11 = h22 = 1.0;
    else if (param[0] == 1.0)
        h12 = 1.0, h21 = -1.0;
    if (param[0] == -1.0 && h11 == 0 && h12 == 0 && h21 == 0 && h22 == 0) {
        assert_true(out[0] == 0 && out[1] == 0 && out[2] == 0);
        return;
    }
    const long double d1 = in[0], d2 = in[1], x1 = in[2], y1 = in[3];
    const long double e1 = out[0], e2 = out[1], x1n = out[2];
    const long double size = fabsl(x1) + fabsl(y1) + fabsl(x1n);
    expect_close(what, h11 * x1 + h12 * y1, x1n, 16 * EPS * (fabsl(h11 * x1) + fabsl(h12 * y1)));
    expect_close(what, (h21 * x1 + h22 * y1) / size, 0.0L,
                 16 * EPS * (fabsl(h21 * x1) + fabsl(h22 * y1)) / size);
    const long double dsize = d1 + fabsl(d2);
    expect_close(what, (e1 * h11 * h11 + e2 * h21 * h21) / dsize, d1 / dsize, 64 * EPS);
    expect_close(what, (e1 * h12 * h12 + e2 * h22 * h22) / dsize, d2 / dsize, 64 * EPS);
    expect_close(what, (e1 * h11 * h12 + e2 * h21 * h22) / dsize, 0.0L, 64 * EPS);
}

static void test_drotmg(void **state)
{
    (void)state;
    /* d1, d2, x1, y1; whether reference 3.11 rescales more than once (its DH12 bug: then H
     * differs from the reference's, which does not meet the definition). */
    static const struct {
        double in[4];
        bool reference_bug;
    } cases[] = {
        {{-1.0, 2.0, 3.0, 4.0}, false},   /* d1 < 0: all zero, flag -1 */
        {{2.0, 0.0, 3.0, 4.0}, false},    /* d2 y1 = 0: flag -2 */
        {{2.0, 3.0, 3.0, 0.0}, false},    /* y1 = 0: flag -2 */
        {{4.0, 1.0, 2.0, 1.0}, false},    /* |q1| > |q2|: flag 0 */
        {{1.0, 4.0, 1.0, 2.0}, false},    /* |q1| <= |q2|: flag 1 */
        {{1.0, -4.0, 1.0, 2.0}, false},   /* q2 < 0: all zero, flag -1 */
        {{0.0, 3.0, 1.0, 2.0}, false},    /* d1 = 0: flag 1, no rescaling of d2 = 0 */
        {{1e-10, 1.0, 1.0, 1e-3}, false}, /* d1 tiny after flag 0: rescaled up once */
        {{1e10, 1.0, 1.0, 1e-3}, false},  /* d1 huge: rescaled down once */
        {{1.0, 1e-10, 1e-9, 1.0}, false}, /* flag 1, d2 (from d1 / u) */
        {{1e-10, 1e-10, 1.0, 0.5}, true}, /* both d1 and d2 rescaled */
        {{1e-20, 1.0, 1.0, 1e-12}, true}, /* d1 rescaled twice */
        {{1e20, 1e20, 1.0, 0.5}, true},   /* both, down */
        {{5e-8, 1.0, 1.0, 1e-5}, false},  /* d1 just under 1/gam^2 */
    };
    char what[160];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const double *in = cases[k].in;
        snprintf(what, sizeof what, "drotmg d1 %g d2 %g x1 %g y1 %g", in[0], in[1], in[2], in[3]);
        double d1 = in[0], d2 = in[1], x1 = in[2];
        double param[5] = {7, 7, 7, 7, 7};
        tela_drotmg(&d1, &d2, &x1, in[3], param);
        const double out[3] = {d1, d2, x1};
        check_rotmg_definition(what, in, out, param);
        if (param[0] == -2.0)
            for (int i = 1; i < 5; i++)
                assert_true(param[i] == 7); /* only the flag written */
        const double got[8] = {d1, d2, x1, param[0], param[1], param[2], param[3], param[4]};
        double f[8] = {in[0], in[1], in[2], 7, 7, 7, 7, 7}, cb[8];
        memcpy(cb, f, sizeof f);
        drotmg_(&f[0], &f[1], &f[2], &in[3], f + 3);
        cblas_drotmg(&cb[0], &cb[1], &cb[2], in[3], cb + 3);
        tu_expect_same(what, f, got, 8);
        tu_expect_same(what, cb, got, 8);
        if (reference && !cases[k].reference_bug) {
            double r[8] = {in[0], in[1], in[2], 7, 7, 7, 7, 7};
            reference->drotmg(&r[0], &r[1], &r[2], &in[3], r + 3);
            tu_expect_same(what, got, r, 8);
        }
        /* OpenBLAS 0.3.21 leaves h22 = 0 when d1 = 0; otherwise it is the reference with the
         * DH12 fix. */
        if (openblas && in[0] != 0.0) {
            double o[8] = {in[0], in[1], in[2], 7, 7, 7, 7, 7};
            openblas->drotmg(&o[0], &o[1], &o[2], &in[3], o + 3);
            for (int i = 0; i < 8; i++)
                expect_close(what, got[i], o[i], 4 * EPS * fabs(o[i]));
        }
    }
}

/* ---- the same bits at every width ------------------------------------------------------------ */

/* Every contiguous routine once under par; results into out (scalars first, then x and y after
 * drot, drotm, daxpy, dscal and dswap). */
typedef struct wide_case {
    tela_int n;
    const double *x0, *y0;
    double *x, *y;
    double scalars[5];
} wide_case;

static void run_all(tela_par par, wide_case *w)
{
    const tela_int n = w->n;
    static const double param[5] = {-1.0, 0.5, -0.25, 0.75, 1.5};
    memcpy(w->x, w->x0, sizeof(double) * (size_t)n);
    memcpy(w->y, w->y0, sizeof(double) * (size_t)n);
    w->scalars[0] = tela_ddot(par, n, w->x, 1, w->y, 1);
    w->scalars[1] = tela_dnrm2(par, n, w->x, 1);
    w->scalars[2] = tela_dasum(par, n, w->x, 1);
    w->scalars[3] = (double)tela_idamax(par, n, w->x, 1);
    tela_daxpy(par, n, -0.75, w->x, 1, w->y, 1);
    tela_dscal(par, n, 1.25, w->x, 1);
    tela_drot(par, n, w->x, 1, w->y, 1, 0.6, 0.8);
    tela_drotm(par, n, w->x, 1, w->y, 1, param);
    tela_dswap(par, n, w->x, 1, w->y, 1);
    tela_dcopy(par, n / 2, w->x, 1, w->y + n / 2, 1);
    w->scalars[4] = tela_ddot(par, n, w->x, 1, w->y, 1);
}

static void test_same_bits_at_every_width(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    /* Three blocks and a tail at every width; and (Release only) past 256 blocks of the least
     * length, where the blocks grow, at width 2. */
    const tela_int sizes_wide[] = {3 * BLOCK + 123, 257 * BLOCK + 77};
    const int count = TU_SANITIZED ? 1 : 2;
    for (int k = 0; k < count; k++) {
        const tela_int n = sizes_wide[k];
        tl_seed(10 + (uint64_t)k);
        double *x0 = tl_alloc(n), *y0 = tl_alloc(n);
        for (tela_int i = 0; i < n; i++) {
            x0[i] = tl_uniform();
            y0[i] = tl_uniform();
        }
        x0[n - 5] = 4.0; /* idamax's answer, in the last block */
        wide_case serial = {n, x0, y0, tl_alloc(n), tl_alloc(n), {0}};
        run_all(tela_par_seq(), &serial);
        static const int widths[] = {2, 1, 8};
        const size_t width_count = k == 0 ? sizeof widths / sizeof widths[0] : 1;
        for (size_t w = 0; w < width_count; w++) {
            tela_pool *pool = tu_pool_of_width(widths[w]);
            assert_non_null(pool);
            wide_case got = {n, x0, y0, tl_alloc(n), tl_alloc(n), {0}};
            tela_stats before, after;
            tela_get_stats(&before);
            run_all(tela_par_pool(pool), &got);
            tela_get_stats(&after);
            char what[96];
            snprintf(what, sizeof what, "n %td at width %d", n, widths[w]);
            tu_expect_same(what, got.scalars, serial.scalars, 5);
            tu_expect_same(what, got.x, serial.x, (size_t)n);
            tu_expect_same(what, got.y, serial.y, (size_t)n);
            /* With dispatch near free, the regions ran wide (at least one woke a worker). */
            if (widths[w] > 1 && after.region_wakeups <= before.region_wakeups)
                fail_msg("%s: no region woke a worker", what);
            /* And through the default pool, as the Fortran symbols call. */
            const int saved = tela_get_num_threads();
            tela_set_num_threads(widths[w]);
            run_all(tela_par_auto(), &got);
            tela_set_num_threads(saved);
            tu_expect_same(what, got.scalars, serial.scalars, 5);
            tu_expect_same(what, got.x, serial.x, (size_t)n);
            tu_expect_same(what, got.y, serial.y, (size_t)n);
            free(got.x);
            free(got.y);
            tela_pool_destroy(pool);
        }
        assert_true(serial.scalars[3] == (double)(n - 4));
        free(serial.x);
        free(serial.y);
        free(x0);
        free(y0);
    }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* Calls from inside a region's body, on the default pool: nested, so serial on each member, and
 * the bits of the serial call on every member, with the dispatch table that splits the others. */
static void nested_body(tela_member *self, void *arg)
{
    wide_case *cases = arg;
    run_all(tela_par_auto(), &cases[tela_rank(self)]);
}

static void test_nested_calls(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    const tela_int n = 3 * BLOCK + 123;
    tl_seed(12);
    double *x0 = tl_alloc(n), *y0 = tl_alloc(n);
    for (tela_int i = 0; i < n; i++) {
        x0[i] = tl_uniform();
        y0[i] = tl_uniform();
    }
    wide_case serial = {n, x0, y0, tl_alloc(n), tl_alloc(n), {0}};
    run_all(tela_par_seq(), &serial);
    enum { MEMBERS = 4 };
    wide_case cases[MEMBERS];
    for (int r = 0; r < MEMBERS; r++)
        cases[r] = (wide_case){n, x0, y0, tl_alloc(n), tl_alloc(n), {0}};
    tela_pool *pool = tu_pool_of_width(MEMBERS);
    assert_non_null(pool);
    const int used = tela_parallel(tela_par_pool(pool), MEMBERS, nested_body, cases);
    tela_pool_destroy(pool);
    assert_int_equal(used, MEMBERS);
    for (int r = 0; r < MEMBERS; r++) {
        char what[64];
        snprintf(what, sizeof what, "nested call on member %d", r);
        tu_expect_same(what, cases[r].scalars, serial.scalars, 5);
        tu_expect_same(what, cases[r].x, serial.x, (size_t)n);
        tu_expect_same(what, cases[r].y, serial.y, (size_t)n);
        free(cases[r].x);
        free(cases[r].y);
    }
    free(serial.x);
    free(serial.y);
    free(x0);
    free(y0);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

int main(void)
{
    /* The cases allocate and free thousands of vectors of up to 300 KB: kept on the heap, not
     * mapped and unmapped (and faulted in again) each time. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ddot),         cmocka_unit_test(test_daxpy),
        cmocka_unit_test(test_dscal),        cmocka_unit_test(test_dcopy_dswap),
        cmocka_unit_test(test_dnrm2),        cmocka_unit_test(test_dasum),
        cmocka_unit_test(test_idamax),       cmocka_unit_test(test_drot),
        cmocka_unit_test(test_drotm),        cmocka_unit_test(test_drotg),
        cmocka_unit_test(test_drotmg),       cmocka_unit_test(test_same_bits_at_every_width),
        cmocka_unit_test(test_nested_calls), cmocka_unit_test(test_placement_keeps_bits),
    };
    return cmocka_run_group_tests(tests, setup_libraries, NULL);
}
