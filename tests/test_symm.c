/* test_symm — tela_dsymm and tela_dsyr2k, and their drop-in symbols: against long-double
 * references and against OpenBLAS's dsymm_/dsyr2k_ loaded apart (testlapack.h), every
 * side/uplo/trans, sizes 0, 1, odd and beyond the kernel's blocks, padded leading dimensions
 * (padding untouched), the unreferenced triangle of A NaN (never read), the other triangle of
 * C untouched, alpha and beta 0, 1 and others, beta = 0 over NaN; bad arguments through the
 * native, Fortran and CBLAS entries (this program defines xerbla_ and cblas_xerbla, as
 * test_compat does) with nothing written; row-major CBLAS; and the same bits at widths 1, 2
 * and 8 with the near-free dispatch table loaded, so that every region splits. */
#define _GNU_SOURCE
#include "testlapack.h"
#include "tela_cblas.h"

/* The Fortran ABI (LP64), as a Fortran caller sees it. */
void dsymm_(const char *side, const char *uplo, const int *m, const int *n, const double *alpha,
            const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
            double *c, const int *ldc);
void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
             const double *a, const int *lda, const double *b, const int *ldb, const double *beta,
             double *c, const int *ldc);

/* OpenBLAS's, with gfortran's hidden lengths of the character arguments. */
typedef void (*ob_dsymm_fn)(const char *, const char *, const int *, const int *, const double *,
                            const double *, const int *, const double *, const int *,
                            const double *, double *, const int *, size_t, size_t);
typedef void (*ob_dsyr2k_fn)(const char *, const char *, const int *, const int *, const double *,
                             const double *, const int *, const double *, const int *,
                             const double *, double *, const int *, size_t, size_t);
typedef void (*ob_cblas_dsymm_fn)(CBLAS_ORDER, CBLAS_SIDE, CBLAS_UPLO, int, int, double,
                                  const double *, int, const double *, int, double, double *, int);
typedef void (*ob_cblas_dsyr2k_fn)(CBLAS_ORDER, CBLAS_UPLO, CBLAS_TRANSPOSE, int, int, double,
                                   const double *, int, const double *, int, double, double *, int);

/* ---- the program's error hooks ------------------------------------------------------------ */

static struct hook_calls {
    int xerbla;
    char srname[16];
    size_t srname_len;
    int info;
    int cblas_xerbla;
    char rout[32];
    int p;
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

/* ---- matrices ----------------------------------------------------------------------------- */

/* A stored matrix of rows x cols, column- or row-major, leading dimension ld. */
typedef struct mat {
    double *x;
    int rows, cols, ld;
    bool rm; /* row-major */
} mat;

static size_t mat_len(const mat *a)
{
    const int outer = a->rm ? a->rows : a->cols;
    return (size_t)(outer > 0 ? outer : 1) * (size_t)a->ld;
}

static size_t mat_idx(const mat *a, int i, int j)
{
    return a->rm ? (size_t)i * a->ld + j : i + (size_t)j * a->ld;
}

static double mat_at(const mat *a, int i, int j)
{
    return a->x[mat_idx(a, i, j)];
}

/* Whether storage offset idx holds an element of the matrix (else it is padding). */
static bool mat_inside(const mat *a, size_t idx, int *i, int *j)
{
    const int in = (int)(idx % (size_t)a->ld), out = (int)(idx / (size_t)a->ld);
    *i = a->rm ? out : in;
    *j = a->rm ? in : out;
    return *i < a->rows && *j < a->cols;
}

/* Random entries, padding the sentinel. */
static mat mat_random(int rows, int cols, int ld, bool rm)
{
    mat a = {NULL, rows, cols, ld, rm};
    a.x = tl_alloc((tela_int)mat_len(&a));
    for (size_t idx = 0; idx < mat_len(&a); idx++) {
        int i, j;
        a.x[idx] = mat_inside(&a, idx, &i, &j) ? tl_uniform() : tl_sentinel();
    }
    return a;
}

/* A symmetric matrix of order s stored in its uplo triangle; the other triangle NaN (a read of
 * it poisons the result). */
static mat sym_random(int s, int ld, bool upper, bool rm)
{
    mat a = mat_random(s, s, ld, rm);
    for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++)
            if (upper ? i > j : i < j)
                a.x[mat_idx(&a, i, j)] = NAN;
    return a;
}

static double sym_at(const mat *a, bool upper, int i, int j)
{
    return (upper ? i <= j : i >= j) ? mat_at(a, i, j) : mat_at(a, j, i);
}

static mat mat_copy(const mat *a)
{
    mat b = *a;
    b.x = tl_copy(a->x, (tela_int)mat_len(a));
    return b;
}

/* got is want bit for bit (NaN and padding included). */
static void expect_same_bits(const char *what, const mat *got, const mat *want)
{
    tu_expect_same(what, got->x, want->x, mat_len(got));
}

/* got within a few ulps of the magnitudes of the sum alpha * sum + beta * c_old (beta = 0:
 * c_old not read), k terms. */
static bool close_to(double got, long double sum, long double mag, double alpha, double beta,
                     double c_old, int k, double *want)
{
    long double w = alpha * sum, bound = fabsl(alpha * mag);
    if (beta != 0) {
        w += (long double)beta * c_old;
        bound += fabs(beta * c_old);
    }
    *want = (double)w;
    const double tol = (double)(4 * (k + 2)) * DBL_EPSILON * (double)bound + DBL_MIN;
    return fabs(got - *want) <= tol;
}

/* ---- dsymm ------------------------------------------------------------------------------------
 */

typedef struct symm_case {
    char side, uplo;
    int m, n;
    double alpha, beta;
    bool rm;
} symm_case;

typedef struct symm_data {
    mat a, b, c0; /* c0: C before the call */
} symm_data;

static symm_data symm_make(const symm_case *t, int pad)
{
    const int s = t->side == 'L' ? t->m : t->n;
    const int a_ld = s + pad, b_ld = (t->rm ? t->n : t->m) + pad + 1;
    const int c_ld = (t->rm ? t->n : t->m) + (pad ? 2 * pad + 1 : 0);
    symm_data d = {sym_random(s, a_ld > 0 ? a_ld : 1, t->uplo == 'U', t->rm),
                   mat_random(t->m, t->n, b_ld, t->rm),
                   mat_random(t->m, t->n, c_ld > 0 ? c_ld : 1, t->rm)};
    if (t->beta == 0.0) /* must be overwritten, not scaled */
        for (size_t idx = 0; idx < mat_len(&d.c0); idx++) {
            int i, j;
            if (mat_inside(&d.c0, idx, &i, &j))
                d.c0.x[idx] = NAN;
        }
    return d;
}

static void symm_free(symm_data *d)
{
    free(d->a.x);
    free(d->b.x);
    free(d->c0.x);
}

/* c (after the call) against the long-double product, padding untouched; alpha = 0 and beta = 1:
 * nothing touched at all. */
static void symm_check(const char *what, const symm_case *t, const symm_data *d, const mat *c)
{
    if (t->m == 0 || t->n == 0 || (t->alpha == 0.0 && t->beta == 1.0)) {
        expect_same_bits(what, c, &d->c0);
        return;
    }
    const bool left = t->side == 'L', upper = t->uplo == 'U';
    const int k = left ? t->m : t->n;
    for (size_t idx = 0; idx < mat_len(c); idx++) {
        int i, j;
        if (!mat_inside(c, idx, &i, &j)) {
            if (!tl_is_sentinel(&c->x[idx]))
                fail_msg("%s: padding at %zu written", what, idx);
            continue;
        }
        long double sum = 0, mag = 0;
        for (int p = 0; p < k && t->alpha != 0.0; p++) {
            const long double term =
                left ? (long double)sym_at(&d->a, upper, i, p) * mat_at(&d->b, p, j)
                     : (long double)mat_at(&d->b, i, p) * sym_at(&d->a, upper, p, j);
            sum += term;
            mag += fabsl(term);
        }
        double want;
        if (!close_to(c->x[idx], sum, mag, t->alpha, t->beta, d->c0.x[idx], k, &want))
            fail_msg("%s: C(%d, %d) = %.17g, expected %.17g", what, i, j, c->x[idx], want);
    }
}

static const char sides[] = {'L', 'R'}, uplos[] = {'U', 'L'}, transes[] = {'N', 'T', 'C'};

/* alpha, beta: beta = 0 with NaN in C, beta = 1, alpha = 0 (scaling only, or nothing). */
static const double scalars[][2] = {{1.0, 0.0}, {0.75, -1.25}, {-1.0, 1.0},
                                    {0.0, 0.0}, {0.0, 2.5},    {0.0, 1.0}};
#define SCALARS (sizeof scalars / sizeof scalars[0])

/* Under a sanitizer (10x slower), a product of more than a little work is checked with one of
 * the three nonzero alphas, which one turning with `turn`; the alpha = 0 cases are cheap. */
static bool thinned(size_t ab, int m, int n, int k, int turn)
{
    return TU_SANITIZED && scalars[ab][0] != 0.0 && (double)m * n * k > 20000.0 &&
           ab != (size_t)turn % 3;
}

/* m x n: empty, one, odd, beyond a micro-tile, beyond mc and kc (the AVX-512 kernel's 192 and
 * 256: packing edges, several blocks) on A's side and on the other. At order 386 the A block of
 * rows 384.. and columns 256..385 ends one column past its first row's diagonal element. */
static const int symm_sizes[][2] = {{0, 3},    {3, 0},    {1, 1},    {1, 6},   {5, 1},
                                    {7, 9},    {17, 13},  {70, 33},  {33, 70}, {200, 45},
                                    {45, 200}, {300, 21}, {21, 300}, {386, 5}, {5, 386}};
#define SYMM_SIZES (sizeof symm_sizes / sizeof symm_sizes[0])

static void symm_call_tela(const symm_case *t, const symm_data *d, mat *c)
{
    assert_int_equal(tela_dsymm(tela_par_auto(), t->side, t->uplo, t->m, t->n, t->alpha, d->a.x,
                                d->a.ld, d->b.x, d->b.ld, t->beta, c->x, c->ld),
                     0);
}

static void test_symm_reference(void **state)
{
    (void)state;
    tl_seed(1);
    for (size_t z = 0; z < SYMM_SIZES; z++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++)
                for (size_t ab = 0; ab < SCALARS; ab++) {
                    const int m = symm_sizes[z][0], n = symm_sizes[z][1];
                    if (thinned(ab, m, n, sd == 0 ? m : n, 2 * sd + ul + (int)z))
                        continue;
                    const symm_case t = {sides[sd],      uplos[ul],      m,    n,
                                         scalars[ab][0], scalars[ab][1], false};
                    symm_data d = symm_make(&t, (int)(z % 3) * 3);
                    mat c = mat_copy(&d.c0), a = mat_copy(&d.a), b = mat_copy(&d.b);
                    symm_call_tela(&t, &d, &c);
                    char what[96];
                    snprintf(what, sizeof what, "dsymm %c%c %dx%d alpha %g beta %g", t.side, t.uplo,
                             t.m, t.n, t.alpha, t.beta);
                    symm_check(what, &t, &d, &c);
                    expect_same_bits(what, &d.a, &a); /* A and B only read */
                    expect_same_bits(what, &d.b, &b);
                    free(c.x);
                    free(a.x);
                    free(b.x);
                    symm_free(&d);
                }
}

/* dsymm_ (and tela_dsymm) against OpenBLAS's dsymm_ on the same data: close, and the
 * padding, A's other triangle and B untouched by either. */
static void test_symm_openblas(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(ob);
    ob_dsymm_fn ob_dsymm = NULL;
    if (!tl_symbol(ob->handle, "dsymm_", &ob_dsymm) || !ob_dsymm) {
        fail_msg("OpenBLAS has no dsymm_");
        return; /* fail_msg ends the test; the analyzer does not know it */
    }
    tl_seed(2);
    for (size_t z = 0; z < SYMM_SIZES; z++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++) {
                const double *ab = scalars[(z + (size_t)sd + 2 * (size_t)ul) % SCALARS];
                const symm_case t = {
                    sides[sd], uplos[ul], symm_sizes[z][0], symm_sizes[z][1], ab[0], ab[1], false};
                symm_data d = symm_make(&t, 2);
                mat c = mat_copy(&d.c0), want = mat_copy(&d.c0);
                dsymm_(&t.side, &t.uplo, &t.m, &t.n, &t.alpha, d.a.x, &d.a.ld, d.b.x, &d.b.ld,
                       &t.beta, c.x, &c.ld);
                ob_dsymm(&t.side, &t.uplo, &t.m, &t.n, &t.alpha, d.a.x, &d.a.ld, d.b.x, &d.b.ld,
                         &t.beta, want.x, &want.ld, 1, 1);
                const int k = t.side == 'L' ? t.m : t.n;
                for (size_t idx = 0; idx < mat_len(&c); idx++) {
                    const double g = c.x[idx], w = want.x[idx];
                    if (tu_same_bits(g, w))
                        continue;
                    if (!(fabs(g - w) <= 8.0 * (k + 2) * DBL_EPSILON * (1.0 + fabs(w))))
                        fail_msg("dsymm_ %c%c %dx%d: element %zu is %.17g, OpenBLAS %.17g", t.side,
                                 t.uplo, t.m, t.n, idx, g, w);
                }
                free(c.x);
                free(want.x);
                symm_free(&d);
            }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

/* ---- dsyr2k -----------------------------------------------------------------------------------
 */

typedef struct syr2k_case {
    char uplo, trans;
    int n, k;
    double alpha, beta;
    bool rm;
} syr2k_case;

typedef struct syr2k_data {
    mat a, b, c0;
} syr2k_data;

static bool in_triangle(bool upper, int i, int j)
{
    return upper ? i <= j : i >= j;
}

static syr2k_data syr2k_make(const syr2k_case *t, int pad)
{
    const bool tr = t->trans != 'N';
    /* A and B are n x k, or k x n when transposed (as stored, in their layout). */
    const int rows = tr ? t->k : t->n, cols = tr ? t->n : t->k;
    const int ld_ab = (t->rm ? cols : rows) + pad;
    syr2k_data d = {mat_random(rows, cols, ld_ab > 0 ? ld_ab : 1, t->rm),
                    mat_random(rows, cols, (ld_ab > 0 ? ld_ab : 1) + 1, t->rm),
                    mat_random(t->n, t->n, t->n + pad + (t->n == 0), t->rm)};
    for (size_t idx = 0; idx < mat_len(&d.c0); idx++) {
        int i, j;
        if (!mat_inside(&d.c0, idx, &i, &j))
            continue;
        if (!in_triangle(t->uplo == 'U', i, j))
            d.c0.x[idx] = tl_sentinel(); /* never touched */
        else if (t->beta == 0.0)
            d.c0.x[idx] = NAN; /* overwritten */
    }
    return d;
}

static void syr2k_free(syr2k_data *d)
{
    free(d->a.x);
    free(d->b.x);
    free(d->c0.x);
}

/* op(X)(i, l), X stored as made by syr2k_make. */
static double op_at(const mat *x, bool tr, int i, int l)
{
    return tr ? mat_at(x, l, i) : mat_at(x, i, l);
}

static void syr2k_check(const char *what, const syr2k_case *t, const syr2k_data *d, const mat *c)
{
    if (t->n == 0 || ((t->alpha == 0.0 || t->k == 0) && t->beta == 1.0)) {
        expect_same_bits(what, c, &d->c0);
        return;
    }
    const bool tr = t->trans != 'N', upper = t->uplo == 'U';
    for (size_t idx = 0; idx < mat_len(c); idx++) {
        int i, j;
        if (!mat_inside(c, idx, &i, &j) || !in_triangle(upper, i, j)) {
            if (!tl_is_sentinel(&c->x[idx]))
                fail_msg("%s: element %zu outside the triangle written", what, idx);
            continue;
        }
        long double sum = 0, mag = 0;
        for (int l = 0; l < t->k && t->alpha != 0.0; l++) {
            const long double t1 = (long double)op_at(&d->a, tr, i, l) * op_at(&d->b, tr, j, l);
            const long double t2 = (long double)op_at(&d->b, tr, i, l) * op_at(&d->a, tr, j, l);
            sum += t1 + t2;
            mag += fabsl(t1) + fabsl(t2);
        }
        double want;
        if (!close_to(c->x[idx], sum, mag, t->alpha, t->beta, d->c0.x[idx], 2 * t->k, &want))
            fail_msg("%s: C(%d, %d) = %.17g, expected %.17g", what, i, j, c->x[idx], want);
    }
}

/* n x k: empty, one, odd, beyond mc (n) and kc (k). */
static const int syr2k_sizes[][2] = {{0, 3},   {3, 0},   {1, 1},   {1, 4},    {4, 1},    {7, 9},
                                     {17, 13}, {70, 33}, {33, 70}, {200, 45}, {40, 300}, {260, 20}};
#define SYR2K_SIZES (sizeof syr2k_sizes / sizeof syr2k_sizes[0])

static void test_syr2k_reference(void **state)
{
    (void)state;
    tl_seed(3);
    for (size_t z = 0; z < SYR2K_SIZES; z++)
        for (int ul = 0; ul < 2; ul++)
            for (int tr = 0; tr < 3; tr++)
                for (size_t ab = 0; ab < SCALARS; ab++) {
                    const int n = syr2k_sizes[z][0], k = syr2k_sizes[z][1];
                    if ((tr == 2 && ab % 2) /* 'C' is 'T': fewer of its cases */ ||
                        thinned(ab, n, n, k, 3 * ul + tr + (int)z))
                        continue;
                    const syr2k_case t = {uplos[ul],      transes[tr],    n,    k,
                                          scalars[ab][0], scalars[ab][1], false};
                    syr2k_data d = syr2k_make(&t, (int)(z % 3) * 2);
                    mat c = mat_copy(&d.c0), a = mat_copy(&d.a), b = mat_copy(&d.b);
                    assert_int_equal(tela_dsyr2k(tela_par_auto(), t.uplo, t.trans, t.n, t.k,
                                                 t.alpha, d.a.x, d.a.ld, d.b.x, d.b.ld, t.beta, c.x,
                                                 c.ld),
                                     0);
                    char what[96];
                    snprintf(what, sizeof what, "dsyr2k %c%c n=%d k=%d alpha %g beta %g", t.uplo,
                             t.trans, t.n, t.k, t.alpha, t.beta);
                    syr2k_check(what, &t, &d, &c);
                    expect_same_bits(what, &d.a, &a);
                    expect_same_bits(what, &d.b, &b);
                    free(c.x);
                    free(a.x);
                    free(b.x);
                    syr2k_free(&d);
                }
}

/* k = 0 with beta other than 1: the triangle scaled (zeroed for beta = 0), not skipped. */
static void test_syr2k_k_zero(void **state)
{
    (void)state;
    for (int ul = 0; ul < 2; ul++) {
        const syr2k_case t = {uplos[ul], 'N', 9, 0, 1.5, 0.5, false};
        syr2k_data d = syr2k_make(&t, 1);
        mat c = mat_copy(&d.c0);
        assert_int_equal(tela_dsyr2k(tela_par_auto(), t.uplo, 'N', t.n, 0, t.alpha, d.a.x, d.a.ld,
                                     d.b.x, d.b.ld, t.beta, c.x, c.ld),
                         0);
        syr2k_check("dsyr2k k = 0", &t, &d, &c);
        free(c.x);
        syr2k_free(&d);
    }
}

static void test_syr2k_openblas(void **state)
{
    (void)state;
    TL_OPENBLAS_OR_SKIP(ob);
    ob_dsyr2k_fn ob_dsyr2k = NULL;
    if (!tl_symbol(ob->handle, "dsyr2k_", &ob_dsyr2k) || !ob_dsyr2k) {
        fail_msg("OpenBLAS has no dsyr2k_");
        return; /* fail_msg ends the test; the analyzer does not know it */
    }
    tl_seed(4);
    for (size_t z = 0; z < SYR2K_SIZES; z++)
        for (int ul = 0; ul < 2; ul++)
            for (int tr = 0; tr < 3; tr++) {
                const double *ab = scalars[(z + (size_t)tr + 3 * (size_t)ul) % SCALARS];
                const syr2k_case t = {
                    uplos[ul], transes[tr], syr2k_sizes[z][0], syr2k_sizes[z][1], ab[0],
                    ab[1],     false};
                syr2k_data d = syr2k_make(&t, 1);
                mat c = mat_copy(&d.c0), want = mat_copy(&d.c0);
                dsyr2k_(&t.uplo, &t.trans, &t.n, &t.k, &t.alpha, d.a.x, &d.a.ld, d.b.x, &d.b.ld,
                        &t.beta, c.x, &c.ld);
                ob_dsyr2k(&t.uplo, &t.trans, &t.n, &t.k, &t.alpha, d.a.x, &d.a.ld, d.b.x, &d.b.ld,
                          &t.beta, want.x, &want.ld, 1, 1);
                for (size_t idx = 0; idx < mat_len(&c); idx++) {
                    const double g = c.x[idx], w = want.x[idx];
                    if (tu_same_bits(g, w))
                        continue;
                    if (!(fabs(g - w) <= 8.0 * (2 * t.k + 2) * DBL_EPSILON * (1.0 + fabs(w))))
                        fail_msg("dsyr2k_ %c%c n=%d k=%d: element %zu is %.17g, OpenBLAS %.17g",
                                 t.uplo, t.trans, t.n, t.k, idx, g, w);
                }
                free(c.x);
                free(want.x);
                syr2k_free(&d);
            }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

/* ---- CBLAS, both layouts ----------------------------------------------------------------------
 */

static CBLAS_SIDE cblas_side_of(char c)
{
    return c == 'L' ? CblasLeft : CblasRight;
}

static CBLAS_UPLO cblas_uplo_of(char c)
{
    return c == 'U' ? CblasUpper : CblasLower;
}

static CBLAS_TRANSPOSE cblas_trans_of(char c)
{
    return c == 'N' ? CblasNoTrans : c == 'T' ? CblasTrans : CblasConjTrans;
}

/* Row- and column-major cblas_ calls against the references (which read each layout as it is
 * stored), and against OpenBLAS's cblas_ when it is there. */
static void test_cblas_layouts(void **state)
{
    (void)state;
    const struct tl_openblas *ob = tl_openblas();
    ob_cblas_dsymm_fn ob_symm = NULL;
    ob_cblas_dsyr2k_fn ob_syr2k = NULL;
    if (ob) {
        assert_non_null(tl_symbol(ob->handle, "cblas_dsymm", &ob_symm));
        assert_non_null(tl_symbol(ob->handle, "cblas_dsyr2k", &ob_syr2k));
    }
    static const int shapes[][2] = {{1, 1}, {6, 11}, {13, 5}, {40, 29}, {29, 40}};
    tl_seed(5);
    for (int rm = 0; rm < 2; rm++)
        for (size_t z = 0; z < sizeof shapes / sizeof shapes[0]; z++)
            for (int f1 = 0; f1 < 2; f1++)
                for (int f2 = 0; f2 < 3; f2++) {
                    const CBLAS_ORDER layout = rm ? CblasRowMajor : CblasColMajor;
                    const double *ab = scalars[(z + (size_t)f2) % 3];
                    char what[96];
                    if (f2 < 2) {
                        const symm_case t = {sides[f1], uplos[f2], shapes[z][0], shapes[z][1],
                                             ab[0],     ab[1],     rm != 0};
                        symm_data d = symm_make(&t, 1 + (int)z);
                        mat c = mat_copy(&d.c0);
                        cblas_dsymm(layout, cblas_side_of(t.side), cblas_uplo_of(t.uplo), t.m, t.n,
                                    t.alpha, d.a.x, d.a.ld, d.b.x, d.b.ld, t.beta, c.x, c.ld);
                        snprintf(what, sizeof what, "cblas_dsymm %s %c%c %dx%d", rm ? "row" : "col",
                                 t.side, t.uplo, t.m, t.n);
                        symm_check(what, &t, &d, &c);
                        if (ob_symm) {
                            mat want = mat_copy(&d.c0);
                            ob_symm(layout, cblas_side_of(t.side), cblas_uplo_of(t.uplo), t.m, t.n,
                                    t.alpha, d.a.x, d.a.ld, d.b.x, d.b.ld, t.beta, want.x, want.ld);
                            for (size_t i = 0; i < mat_len(&c); i++)
                                if (!tu_same_bits(c.x[i], want.x[i]) &&
                                    !(fabs(c.x[i] - want.x[i]) <= 1e-13 * (1.0 + fabs(want.x[i]))))
                                    fail_msg("%s: element %zu is %.17g, OpenBLAS %.17g", what, i,
                                             c.x[i], want.x[i]);
                            free(want.x);
                        }
                        free(c.x);
                        symm_free(&d);
                    }
                    const syr2k_case t = {uplos[f1], transes[f2], shapes[z][0], shapes[z][1],
                                          ab[0],     ab[1],       rm != 0};
                    syr2k_data d = syr2k_make(&t, (int)z);
                    mat c = mat_copy(&d.c0);
                    cblas_dsyr2k(layout, cblas_uplo_of(t.uplo), cblas_trans_of(t.trans), t.n, t.k,
                                 t.alpha, d.a.x, d.a.ld, d.b.x, d.b.ld, t.beta, c.x, c.ld);
                    snprintf(what, sizeof what, "cblas_dsyr2k %s %c%c n=%d k=%d",
                             rm ? "row" : "col", t.uplo, t.trans, t.n, t.k);
                    syr2k_check(what, &t, &d, &c);
                    if (ob_syr2k) {
                        mat want = mat_copy(&d.c0);
                        ob_syr2k(layout, cblas_uplo_of(t.uplo), cblas_trans_of(t.trans), t.n, t.k,
                                 t.alpha, d.a.x, d.a.ld, d.b.x, d.b.ld, t.beta, want.x, want.ld);
                        for (size_t i = 0; i < mat_len(&c); i++)
                            if (!tu_same_bits(c.x[i], want.x[i]) &&
                                !(fabs(c.x[i] - want.x[i]) <= 1e-13 * (1.0 + fabs(want.x[i]))))
                                fail_msg("%s: element %zu is %.17g, OpenBLAS %.17g", what, i,
                                         c.x[i], want.x[i]);
                        free(want.x);
                    }
                    free(c.x);
                    syr2k_free(&d);
                }
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

/* ---- the same bits at every width -------------------------------------------------------------
 */

/* The whole symmetric matrix of a (order s), column-major with leading dimension s. */
static double *sym_whole(const mat *a, bool upper, int s)
{
    double *w = tl_alloc((tela_int)s * s);
    for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++)
            w[i + (size_t)j * s] = sym_at(a, upper, i, j);
    return w;
}

/* Each shape at widths 1 (serial), 2 and 8 (a pool of 8, the near-free dispatch table: every
 * region splits), bitwise; dsymm also bitwise equal to tela_dgemm on the whole matrix, the
 * product it is defined to compute. Shapes on the copied (unpacked) and the packed path, edges
 * and more than one block of mc and kc; on the right, 100 x 400 and 16 x 700 copy the matrix a
 * strip of columns at a time (order past the whole copy's bound, 256 with a 1 MiB L2 and 362
 * with 2 MiB; few rows: dgemm reads it in place), and 150 x 270 on one of the two. */
static void test_same_bits_at_every_width(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    tela_pool *pool = tu_pool_of_width(8);
    assert_non_null(pool);
    const tela_par pars[] = {tela_par_seq(), tela_par_limit(tela_par_pool(pool), 2),
                             tela_par_pool(pool)};
    static const int symm_shapes[][2] = {{100, 60}, {60, 150}, {290, 150}, {150, 270},
                                         {23, 9},   {16, 700}, {100, 400}};
    tl_seed(6);
    for (size_t z = 0; z < sizeof symm_shapes / sizeof symm_shapes[0]; z++)
        for (int sd = 0; sd < 2; sd++)
            for (int ul = 0; ul < 2; ul++) {
                if (TU_SANITIZED && (sd + ul + (int)z) % 2) /* half of them, in turn */
                    continue;
                const symm_case t = {
                    sides[sd], uplos[ul], symm_shapes[z][0], symm_shapes[z][1], 0.5, -1.0, false};
                symm_data d = symm_make(&t, 3);
                const int s = t.side == 'L' ? t.m : t.n;
                double *whole = sym_whole(&d.a, t.uplo == 'U', s);
                mat want = mat_copy(&d.c0);
                if (t.side == 'L')
                    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', t.m, t.n, t.m, t.alpha,
                                                whole, s, d.b.x, d.b.ld, t.beta, want.x, want.ld),
                                     0);
                else
                    assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', t.m, t.n, t.n, t.alpha,
                                                d.b.x, d.b.ld, whole, s, t.beta, want.x, want.ld),
                                     0);
                for (size_t w = 0; w < sizeof pars / sizeof pars[0]; w++) {
                    mat c = mat_copy(&d.c0);
                    assert_int_equal(tela_dsymm(pars[w], t.side, t.uplo, t.m, t.n, t.alpha, d.a.x,
                                                d.a.ld, d.b.x, d.b.ld, t.beta, c.x, c.ld),
                                     0);
                    char what[96];
                    snprintf(what, sizeof what, "dsymm %c%c %dx%d width %zu against dgemm", t.side,
                             t.uplo, t.m, t.n, w);
                    expect_same_bits(what, &c, &want);
                    free(c.x);
                }
                free(want.x);
                free(whole);
                symm_free(&d);
            }
    static const int syr2k_shapes[][2] = {{150, 70}, {290, 280}, {31, 300}, {300, 24}};
    for (size_t z = 0; z < sizeof syr2k_shapes / sizeof syr2k_shapes[0]; z++)
        for (int ul = 0; ul < 2; ul++)
            for (int tr = 0; tr < 2; tr++) {
                if (TU_SANITIZED && (ul + tr + (int)z) % 2)
                    continue;
                const syr2k_case t = {
                    uplos[ul], transes[tr], syr2k_shapes[z][0], syr2k_shapes[z][1], -0.5,
                    2.0,       false};
                syr2k_data d = syr2k_make(&t, 2);
                mat want = mat_copy(&d.c0);
                /* Widest first, each checked against the reference too: a wide run's buffers
                 * then hold another shape's data, where a part no member packed shows. */
                const size_t count = sizeof pars / sizeof pars[0];
                for (size_t q = 0; q < count; q++) {
                    const size_t w = count - 1 - q;
                    mat c = mat_copy(&d.c0);
                    assert_int_equal(tela_dsyr2k(pars[w], t.uplo, t.trans, t.n, t.k, t.alpha, d.a.x,
                                                 d.a.ld, d.b.x, d.b.ld, t.beta, c.x, c.ld),
                                     0);
                    char what[96];
                    snprintf(what, sizeof what, "dsyr2k %c%c n=%d k=%d width %zu", t.uplo, t.trans,
                             t.n, t.k, w);
                    syr2k_check(what, &t, &d, &c);
                    if (q == 0)
                        memcpy(want.x, c.x, sizeof(double) * mat_len(&c));
                    else
                        expect_same_bits(what, &c, &want);
                    free(c.x);
                }
                free(want.x);
                syr2k_free(&d);
            }
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* dsymm called serially by each member of a region (nothing may be allocated there): the bits
 * of the call outside, on the copied path and the packed one. */
typedef struct member_symm {
    const symm_case *t;
    const symm_data *d;
    double *c[2];
} member_symm;

static void symm_in_member(tela_member *self, void *arg)
{
    const member_symm *job = arg;
    const symm_case *t = job->t;
    TU_CHECK(tela_dsymm(tela_par_seq(), t->side, t->uplo, t->m, t->n, t->alpha, job->d->a.x,
                        job->d->a.ld, job->d->b.x, job->d->b.ld, t->beta, job->c[tela_rank(self)],
                        job->d->c0.ld) == 0);
}

static void test_symm_inside_a_region(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    static const symm_case cases[] = {{'L', 'U', 120, 50, 1.5, 0.5, false},
                                      {'R', 'L', 40, 200, -1.0, 0.0, false},
                                      {'L', 'L', 270, 30, 1.0, 1.0, false}};
    tl_seed(7);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        symm_data d = symm_make(&cases[i], 1);
        mat want = mat_copy(&d.c0), c0 = mat_copy(&d.c0), c1 = mat_copy(&d.c0);
        symm_call_tela(&cases[i], &d, &want);
        member_symm job = {&cases[i], &d, {c0.x, c1.x}};
        assert_int_equal(tela_parallel(tela_par_pool(pool), 2, symm_in_member, &job), 2);
        TU_ASSERT_NO_FAILURES();
        expect_same_bits("dsymm in member 0", &c0, &want);
        expect_same_bits("dsymm in member 1", &c1, &want);
        free(want.x);
        free(c0.x);
        free(c1.x);
        symm_free(&d);
    }
    tela_pool_destroy(pool);
}

/* A policy that cannot start a region (a NULL pool) where dsymm's members would each expand
 * their own copy of the matrix: reported through tela's handler, and the product computed on
 * the calling thread all the same, with dgemm's bits on the whole matrix. Another matrix's copy
 * is left in this thread's buffers first: a fallback that did not expand its own would read it. */
static int policy_reports;

static void count_policy_report(int status, const char *where, const char *message, void *context)
{
    (void)where, (void)message, (void)context;
    if (status == TELA_EINVAL)
        policy_reports++;
}

static void test_symm_bad_policy(void **state)
{
    (void)state;
    const tela_par bad = {TELA_PAR_POOL, 0, NULL, NULL};
    static const symm_case cases[] = {{'L', 'U', 100, 60, 0.5, -1.0, false},
                                      {'R', 'L', 60, 100, 1.0, 0.0, false}};
    tela_error_handler before = tela_set_error_handler(count_policy_report, NULL);
    tl_seed(8);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const symm_case *t = &cases[i];
        symm_data d = symm_make(t, 2), other = symm_make(t, 2);
        const int s = t->side == 'L' ? t->m : t->n;
        double *whole = sym_whole(&d.a, t->uplo == 'U', s);
        mat want = mat_copy(&d.c0), c = mat_copy(&d.c0), elsewhere = mat_copy(&other.c0);
        if (t->side == 'L')
            assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', t->m, t->n, t->m, t->alpha, whole,
                                        s, d.b.x, d.b.ld, t->beta, want.x, want.ld),
                             0);
        else
            assert_int_equal(tela_dgemm(tela_par_seq(), 'N', 'N', t->m, t->n, t->n, t->alpha, d.b.x,
                                        d.b.ld, whole, s, t->beta, want.x, want.ld),
                             0);
        symm_call_tela(t, &other, &elsewhere);
        const int reports = policy_reports;
        assert_int_equal(tela_dsymm(bad, t->side, t->uplo, t->m, t->n, t->alpha, d.a.x, d.a.ld,
                                    d.b.x, d.b.ld, t->beta, c.x, c.ld),
                         0);
        assert_true(policy_reports > reports);
        expect_same_bits("dsymm under a NULL pool", &c, &want);
        free(whole);
        free(want.x);
        free(c.x);
        free(elsewhere.x);
        symm_free(&d);
        symm_free(&other);
    }
    tela_set_error_handler(before, NULL);
}

/* dsyr2k likewise, on the one-product path (a pair of operands along k, packed) and the
 * two-product one (small: the unpacked path). */
typedef struct member_syr2k {
    const syr2k_case *t;
    const syr2k_data *d;
    double *c[2];
} member_syr2k;

static void syr2k_in_member(tela_member *self, void *arg)
{
    const member_syr2k *job = arg;
    const syr2k_case *t = job->t;
    TU_CHECK(tela_dsyr2k(tela_par_seq(), t->uplo, t->trans, t->n, t->k, t->alpha, job->d->a.x,
                         job->d->a.ld, job->d->b.x, job->d->b.ld, t->beta, job->c[tela_rank(self)],
                         job->d->c0.ld) == 0);
}

static void test_syr2k_inside_a_region(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    static const syr2k_case cases[] = {{'L', 'N', 300, 24, 1.5, 0.5, false},
                                       {'U', 'T', 250, 32, -1.0, 1.0, false},
                                       {'L', 'N', 40, 20, 1.0, 0.0, false}};
    tl_seed(8);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        syr2k_data d = syr2k_make(&cases[i], 1);
        mat want = mat_copy(&d.c0), c0 = mat_copy(&d.c0), c1 = mat_copy(&d.c0);
        const syr2k_case *t = &cases[i];
        assert_int_equal(tela_dsyr2k(tela_par_seq(), t->uplo, t->trans, t->n, t->k, t->alpha, d.a.x,
                                     d.a.ld, d.b.x, d.b.ld, t->beta, want.x, want.ld),
                         0);
        syr2k_check("dsyr2k outside a region", t, &d, &want);
        member_syr2k job = {t, &d, {c0.x, c1.x}};
        assert_int_equal(tela_parallel(tela_par_pool(pool), 2, syr2k_in_member, &job), 2);
        TU_ASSERT_NO_FAILURES();
        expect_same_bits("dsyr2k in member 0", &c0, &want);
        expect_same_bits("dsyr2k in member 1", &c1, &want);
        free(want.x);
        free(c0.x);
        free(c1.x);
        syr2k_free(&d);
    }
    tela_pool_destroy(pool);
}

/* ---- bad arguments ----------------------------------------------------------------------------
 */

/* Nothing written to out (64 sentinels), one report to hook with number, as test_compat checks. */
static void expect_report(const char *what, const char *hook, const char *srname, const char *rout,
                          int number, const double *out)
{
    for (int i = 0; i < 64; i++)
        if (out[i] != 1234.5)
            fail_msg("%s: element %d written by a call with a bad argument", what, i);
    if (strcmp(hook, "xerbla_") == 0) {
        if (hooks.xerbla != 1 || hooks.cblas_xerbla != 0)
            fail_msg("%s: xerbla_ called %d times, cblas_xerbla %d", what, hooks.xerbla,
                     hooks.cblas_xerbla);
        assert_int_equal(hooks.srname_len, 6);
        assert_string_equal(hooks.srname, srname);
        if (hooks.info != number)
            fail_msg("%s: xerbla_ got %d, expected %d", what, hooks.info, number);
    } else {
        if (hooks.cblas_xerbla != 1 || hooks.xerbla != 0)
            fail_msg("%s: cblas_xerbla called %d times, xerbla_ %d", what, hooks.cblas_xerbla,
                     hooks.xerbla);
        assert_string_equal(hooks.rout, rout);
        if (hooks.p != number)
            fail_msg("%s: cblas_xerbla got %d, expected %d", what, hooks.p, number);
    }
}

/* One bad call: F77 (layout 0) through the Fortran symbol, else cblas_ with that layout. */
typedef struct bad_call {
    const char *hook;
    int number;
    int layout;
    int f1, f2; /* dsymm: side, uplo; dsyr2k: uplo, trans (characters or CBLAS enums) */
    int m, n;   /* dsyr2k: n, k */
    int lda, ldb, ldc;
} bad_call;

#define F77 0

static void run_bad(bool symm, const bad_call *bc, int index)
{
    double a[64], b[64], c[64];
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = 1.0, c[i] = 1234.5;
    memset(&hooks, 0, sizeof hooks);
    const double alpha = 1.0, beta = 0.0;
    if (bc->layout == F77) {
        const char f1 = (char)bc->f1, f2 = (char)bc->f2;
        if (symm)
            dsymm_(&f1, &f2, &bc->m, &bc->n, &alpha, a, &bc->lda, b, &bc->ldb, &beta, c, &bc->ldc);
        else
            dsyr2k_(&f1, &f2, &bc->m, &bc->n, &alpha, a, &bc->lda, b, &bc->ldb, &beta, c, &bc->ldc);
    } else if (symm) {
        cblas_dsymm((CBLAS_ORDER)bc->layout, (CBLAS_SIDE)bc->f1, (CBLAS_UPLO)bc->f2, bc->m, bc->n,
                    alpha, a, bc->lda, b, bc->ldb, beta, c, bc->ldc);
    } else {
        cblas_dsyr2k((CBLAS_ORDER)bc->layout, (CBLAS_UPLO)bc->f1, (CBLAS_TRANSPOSE)bc->f2, bc->m,
                     bc->n, alpha, a, bc->lda, b, bc->ldb, beta, c, bc->ldc);
    }
    char what[64];
    snprintf(what, sizeof what, "%s case %d", symm ? "dsymm" : "dsyr2k", index);
    expect_report(what, bc->hook, symm ? "DSYMM " : "DSYR2K", symm ? "cblas_dsymm" : "cblas_dsyr2k",
                  bc->number, c);
}

/* Reference DSYMM: SIDE 1, UPLO 2, M 3, N 4, LDA 7 (against M for side L, N for R), LDB 9, LDC
 * 12 (against M), in that order. Reference CBLAS: layout 1, Side 2, Uplo 3 from its own layer;
 * the rest from the Fortran call, whose numbers a program's xerbla_ gets: in row-major that call
 * has M and N swapped (side and uplo flipped), so M is reported as 4 and N as 3. */
static void test_symm_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = -1;
    const int cl = CblasLeft, cr = CblasRight, cu = CblasUpper, clo = CblasLower;
    const bad_call cases[] = {
        {"xerbla_", 1, F77, '/', 'U', 0, 0, 1, 1, 1},
        {"xerbla_", 2, F77, 'L', 'x', 0, 0, 1, 1, 1},
        {"xerbla_", 3, F77, 'l', 'u', -1, 0, 1, 1, 1},
        {"xerbla_", 4, F77, 'R', 'L', 0, -1, 1, 1, 1},
        {"xerbla_", 7, F77, 'L', 'U', 2, 0, 1, 2, 2},
        {"xerbla_", 7, F77, 'R', 'U', 0, 2, 1, 1, 1},
        {"xerbla_", 9, F77, 'R', 'U', 3, 1, 1, 2, 3},
        {"xerbla_", 9, F77, 'L', 'L', 0, 0, 1, 0, 1},
        {"xerbla_", 12, F77, 'L', 'U', 2, 2, 2, 2, 1},
        {"xerbla_", 12, F77, 'R', 'L', 2, 0, 1, 2, 0},
        {"xerbla_", 1, F77, 'x', 'x', -1, -1, 0, 0, 0}, /* the first in reference order */
        {"xerbla_", 3, F77, 'L', 'U', -1, -1, 0, 0, 0},
        {"xerbla_", 7, F77, 'L', 'U', 3, 3, 2, 2, 2},
        {"cblas_xerbla", 1, bad, cl, cu, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 1, bad, bad, bad, -1, 0, 1, 1, 1},
        {"cblas_xerbla", 2, col, bad, cu, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 2, row, 999, bad, -1, 0, 1, 1, 1},
        {"cblas_xerbla", 3, col, cr, bad, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 3, row, cl, 0, -1, 0, 1, 1, 1},
        {"xerbla_", 3, col, cl, cu, -1, 0, 1, 1, 1},
        {"xerbla_", 4, col, cr, clo, 0, -1, 1, 1, 1},
        {"xerbla_", 7, col, cl, cu, 2, 1, 1, 2, 2},
        {"xerbla_", 9, col, cr, cu, 2, 1, 1, 1, 2},
        {"xerbla_", 12, col, cl, clo, 2, 1, 2, 2, 1},
        {"xerbla_", 4, row, cl, cu, -1, 0, 1, 1, 1},  /* M at the Fortran N */
        {"xerbla_", 3, row, cr, clo, 0, -1, 1, 1, 1}, /* N at the Fortran M */
        {"xerbla_", 3, row, cl, cu, -1, -1, 1, 1, 1}, /* N is checked first now */
        {"xerbla_", 7, row, cl, cu, 2, 1, 1, 1, 1},   /* lda < M for side Left */
        {"xerbla_", 7, row, cr, cu, 1, 2, 1, 2, 2},   /* lda < N for side Right */
        {"xerbla_", 9, row, cl, cu, 1, 3, 1, 2, 3},   /* ldb < N */
        {"xerbla_", 12, row, cr, clo, 1, 3, 3, 3, 2}, /* ldc < N */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_bad(true, &cases[i], (int)i);
}

/* Reference DSYR2K: UPLO 1, TRANS 2, N 3, K 4, LDA 7 and LDB 9 (against N, or K when
 * transposed), LDC 12 (against N). CBLAS: layout 1, Uplo 2, Trans 3; row-major flips uplo and
 * trans only, so the Fortran numbers are the column-major ones. */
static void test_syr2k_errors(void **state)
{
    (void)state;
    const int col = CblasColMajor, row = CblasRowMajor, bad = -1;
    const int cu = CblasUpper, clo = CblasLower, nt = CblasNoTrans, tr = CblasTrans;
    const bad_call cases[] = {
        {"xerbla_", 1, F77, '/', 'N', 0, 0, 1, 1, 1},
        {"xerbla_", 2, F77, 'U', 'x', 0, 0, 1, 1, 1},
        {"xerbla_", 3, F77, 'u', 'c', -1, 0, 1, 1, 1},
        {"xerbla_", 4, F77, 'L', 't', 0, -1, 1, 1, 1},
        {"xerbla_", 7, F77, 'U', 'N', 2, 0, 1, 2, 2},
        {"xerbla_", 7, F77, 'U', 'T', 0, 2, 1, 2, 1},
        {"xerbla_", 9, F77, 'L', 'N', 2, 0, 2, 1, 2},
        {"xerbla_", 9, F77, 'L', 'C', 0, 2, 2, 1, 1},
        {"xerbla_", 12, F77, 'U', 'N', 2, 1, 2, 2, 1},
        {"xerbla_", 12, F77, 'U', 'T', 2, 1, 1, 1, 1},
        {"xerbla_", 1, F77, 'x', 'x', -1, -1, 0, 0, 0},
        {"xerbla_", 7, F77, 'U', 'N', 3, 3, 2, 2, 2},
        {"cblas_xerbla", 1, bad, cu, nt, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 2, col, bad, nt, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 2, row, 7, bad, -1, 0, 1, 1, 1},
        {"cblas_xerbla", 3, col, clo, bad, 0, 0, 1, 1, 1},
        {"cblas_xerbla", 3, row, cu, 114, 0, 0, 1, 1, 1},
        {"xerbla_", 3, col, cu, nt, -1, 0, 1, 1, 1},
        {"xerbla_", 4, row, clo, tr, 0, -1, 1, 1, 1},
        {"xerbla_", 7, col, cu, nt, 2, 1, 1, 2, 2},
        {"xerbla_", 7, row, cu, nt, 1, 2, 1, 2, 1}, /* row-major NoTrans: A is n x k, lda >= k */
        {"xerbla_", 9, row, clo, tr, 2, 1, 2, 1, 2},
        {"xerbla_", 12, row, cu, tr, 3, 1, 3, 3, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_bad(false, &cases[i], (int)i);
}

/* The native entries: -i in BLAS's order, a NULL matrix that would be used -i too, nothing
 * written; the quick returns read no pointer. */
static void test_native_arguments(void **state)
{
    (void)state;
    const tela_par p = tela_par_seq();
    double a[16], b[16], c[16];
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = 1.0, c[i] = 1234.5;
    assert_int_equal(tela_dsymm(p, 'X', 'U', 2, 2, 1, a, 2, b, 2, 0, c, 2), -1);
    assert_int_equal(tela_dsymm(p, 'L', 'X', 2, 2, 1, a, 2, b, 2, 0, c, 2), -2);
    assert_int_equal(tela_dsymm(p, 'L', 'U', -1, 2, 1, a, 2, b, 2, 0, c, 2), -3);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, -1, 1, a, 2, b, 2, 0, c, 2), -4);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 3, 1, a, 1, b, 2, 0, c, 2), -7);
    assert_int_equal(tela_dsymm(p, 'R', 'U', 1, 3, 1, a, 2, b, 1, 0, c, 1), -7);
    assert_int_equal(tela_dsymm(p, 'R', 'U', 2, 1, 1, a, 1, b, 1, 0, c, 2), -9);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 2, 1, a, 2, b, 2, 0, c, 1), -12);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 2, 1, NULL, 2, b, 2, 0, c, 2), -6);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 2, 1, a, 2, NULL, 2, 0, c, 2), -8);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 2, 1, a, 2, b, 2, 0, NULL, 2), -11);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 2, 2, 0, NULL, 2, NULL, 2, 1, NULL, 2), 0);
    assert_int_equal(tela_dsymm(p, 'L', 'U', 0, 2, 1, NULL, 1, NULL, 1, 0, NULL, 1), 0);
    assert_int_equal(tela_dsyr2k(p, 'X', 'N', 2, 2, 1, a, 2, b, 2, 0, c, 2), -1);
    assert_int_equal(tela_dsyr2k(p, 'U', 'X', 2, 2, 1, a, 2, b, 2, 0, c, 2), -2);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', -1, 2, 1, a, 2, b, 2, 0, c, 2), -3);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, -1, 1, a, 2, b, 2, 0, c, 2), -4);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, a, 1, b, 2, 0, c, 2), -7);
    assert_int_equal(tela_dsyr2k(p, 'U', 'T', 2, 3, 1, a, 2, b, 3, 0, c, 2), -7);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, a, 2, b, 1, 0, c, 2), -9);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, a, 2, b, 2, 0, c, 1), -12);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, a, 2, b, 2, 0, NULL, 2), -11);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, NULL, 2, b, 2, 0, c, 2), -6);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 2, 1, a, 2, NULL, 2, 0, c, 2), -8);
    assert_int_equal(tela_dsyr2k(p, 'U', 'N', 2, 0, 1, NULL, 2, NULL, 2, 1, NULL, 2), 0);
    assert_int_equal(tela_dsyr2k(p, 'L', 'T', 0, 2, 1, NULL, 2, NULL, 2, 0, NULL, 1), 0);
    for (int i = 0; i < 16; i++)
        assert_true(c[i] == 1234.5);
    assert_int_equal(hooks.xerbla + hooks.cblas_xerbla, 0);
}

static int reset_hooks(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_symm_reference, reset_hooks),
        cmocka_unit_test_setup(test_symm_openblas, reset_hooks),
        cmocka_unit_test_setup(test_syr2k_reference, reset_hooks),
        cmocka_unit_test_setup(test_syr2k_k_zero, reset_hooks),
        cmocka_unit_test_setup(test_syr2k_openblas, reset_hooks),
        cmocka_unit_test_setup(test_cblas_layouts, reset_hooks),
        cmocka_unit_test_setup(test_same_bits_at_every_width, reset_hooks),
        cmocka_unit_test_setup(test_symm_inside_a_region, reset_hooks),
        cmocka_unit_test_setup(test_symm_bad_policy, reset_hooks),
        cmocka_unit_test_setup(test_syr2k_inside_a_region, reset_hooks),
        cmocka_unit_test_setup(test_symm_errors, reset_hooks),
        cmocka_unit_test_setup(test_syr2k_errors, reset_hooks),
        cmocka_unit_test_setup(test_native_arguments, reset_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
