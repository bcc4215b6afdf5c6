/* test_eig — the symmetric eigen family through its native API (tela_dsyevd, tela_dsyev,
 * tela_dsyevr, tela_dsygvd, tela_dsytrd, tela_dorgtr, tela_dormtr, tela_dstedc, tela_dsteqr,
 * tela_dsterf, tela_dstein): LAPACK's test ratios under its threshold (||A Z - Z diag(w)|| /
 * (n ||A|| eps), ||I - Z^T Z|| / (n eps), ||A - Q T Q^T||, dormtr against the explicit Q, dsygvd's
 * three residuals and B-orthonormality), eigenvalues against OpenBLAS's loaded apart
 * (testlapack.h), dsytrd's T, tau and reflectors against OpenBLAS's, clustered, repeated, graded
 * and split spectra at sizes past divide and conquer's leaf (25), matrices scaled by 2^-600 and
 * 2^600, the two-stage reduction of the values-only drivers (order 801), exact results of the edge
 * cases (n = 0, 1, diagonal, zero, identity), dsyevr's ranges and abstol, a non-SPD B (info =
 * n + i), NaN (info > 0 or NaN out, never a hang), bad arguments (-i, nothing written), and the
 * same bits at widths 1, 2, 8 and 16 with every region split, from concurrent callers and
 * inside a region. About 1.5 s in Release, 5 s under ThreadSanitizer. */
#define _GNU_SOURCE
#include "testlapack.h"

/* ---- OpenBLAS's routines (LP64 Fortran ABI, gfortran's hidden lengths last) ---------------- */

typedef void (*ob_syevd_fn)(const char *jobz, const char *uplo, const int *n, double *a,
                            const int *lda, double *w, double *work, const int *lwork, int *iwork,
                            const int *liwork, int *info, size_t jobz_len, size_t uplo_len);
typedef void (*ob_sytrd_fn)(const char *uplo, const int *n, double *a, const int *lda, double *d,
                            double *e, double *tau, double *work, const int *lwork, int *info,
                            size_t uplo_len);
typedef void (*ob_syevr_fn)(const char *jobz, const char *range, const char *uplo, const int *n,
                            double *a, const int *lda, const double *vl, const double *vu,
                            const int *il, const int *iu, const double *abstol, int *m, double *w,
                            double *z, const int *ldz, int *isuppz, double *work, const int *lwork,
                            int *iwork, const int *liwork, int *info, size_t jobz_len,
                            size_t range_len, size_t uplo_len);
typedef void (*ob_sygvd_fn)(const int *itype, const char *jobz, const char *uplo, const int *n,
                            double *a, const int *lda, double *b, const int *ldb, double *w,
                            double *work, const int *lwork, int *iwork, const int *liwork,
                            int *info, size_t jobz_len, size_t uplo_len);

static struct ob_eig {
    ob_syevd_fn syevd;
    ob_sytrd_fn sytrd;
    ob_syevr_fn syevr;
    ob_sygvd_fn sygvd;
} obe;

/* OpenBLAS's eigen routines, each checked to live in OpenBLAS's file; NULL when OpenBLAS is not
 * available (tl_ob_why says why). */
static const struct ob_eig *ob_eig(void)
{
    const struct tl_openblas *ob = tl_openblas();
    if (!ob)
        return NULL;
    if (obe.sygvd)
        return &obe;
    const struct {
        const char *name;
        void *fn;
    } symbols[] = {{"dsyevd_", &obe.syevd},
                   {"dsytrd_", &obe.sytrd},
                   {"dsyevr_", &obe.syevr},
                   {"dsygvd_", &obe.sygvd}};
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *address = tl_symbol(ob->handle, symbols[i].name, symbols[i].fn);
        char file[PATH_MAX];
        if (!address || !tl_file_of(address, file, sizeof file) || !tl_same_file(file, ob->file))
            fail_msg("%s is missing from OpenBLAS or not in %s", symbols[i].name, ob->file);
    }
    return &obe;
}

/* NOLINTBEGIN(bugprone-macro-parentheses): q is the name it declares */
#define OB_EIG_OR_SKIP(q)                                                                          \
    const struct ob_eig *q = ob_eig();                                                             \
    if (!q) {                                                                                      \
        printf("SKIPPED: %s\n", tl_ob_why);                                                        \
        skip();                                                                                    \
    }
/* NOLINTEND(bugprone-macro-parentheses) */

/* Workspaces of the sizes a query (lwork = liwork = -1) answered. */
static double *ob_work(double answer, int *lwork)
{
    *lwork = answer > 1 ? (int)answer : 1;
    return tl_alloc(*lwork);
}

static int *ob_iwork(int answer, int *liwork)
{
    *liwork = answer > 1 ? answer : 1;
    int *p = malloc(sizeof(int) * (size_t)*liwork);
    assert_non_null(p);
    return p;
}

static int ob_syevd(const struct ob_eig *ob, char jobz, char uplo, tela_int n, double *a,
                    tela_int lda, double *w)
{
    const int in = (int)n, ilda = (int)lda, query = -1;
    int info = 0, lwork, liwork, isize = 0;
    double size = 0;
    ob->syevd(&jobz, &uplo, &in, a, &ilda, w, &size, &query, &isize, &query, &info, 1, 1);
    double *work = ob_work(size, &lwork);
    int *iwork = ob_iwork(isize, &liwork);
    ob->syevd(&jobz, &uplo, &in, a, &ilda, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(iwork);
    return info;
}

static int ob_sytrd(const struct ob_eig *ob, char uplo, tela_int n, double *a, tela_int lda,
                    double *d, double *e, double *tau)
{
    const int in = (int)n, ilda = (int)lda, query = -1;
    int info = 0, lwork;
    double size = 0;
    ob->sytrd(&uplo, &in, a, &ilda, d, e, tau, &size, &query, &info, 1);
    double *work = ob_work(size, &lwork);
    ob->sytrd(&uplo, &in, a, &ilda, d, e, tau, work, &lwork, &info, 1);
    free(work);
    return info;
}

/* dsyevr (isuppz not returned); *m the count found. */
static int ob_syevr(const struct ob_eig *ob, char jobz, char range, char uplo, tela_int n,
                    double *a, tela_int lda, double vl, double vu, tela_int il, tela_int iu,
                    double abstol, tela_int *m, double *w, double *z, tela_int ldz)
{
    const int in = (int)n, ilda = (int)lda, iil = (int)il, iiu = (int)iu, ildz = (int)ldz;
    const int query = -1;
    int info = 0, lwork, liwork, isize = 0, im = 0;
    int *isuppz = ob_iwork(2 * (int)n, &liwork);
    double size = 0;
    ob->syevr(&jobz, &range, &uplo, &in, a, &ilda, &vl, &vu, &iil, &iiu, &abstol, &im, w, z, &ildz,
              isuppz, &size, &query, &isize, &query, &info, 1, 1, 1);
    double *work = ob_work(size, &lwork);
    int *iwork = ob_iwork(isize, &liwork);
    ob->syevr(&jobz, &range, &uplo, &in, a, &ilda, &vl, &vu, &iil, &iiu, &abstol, &im, w, z, &ildz,
              isuppz, work, &lwork, iwork, &liwork, &info, 1, 1, 1);
    free(work);
    free(iwork);
    free(isuppz);
    *m = im;
    return info;
}

static int ob_sygvd(const struct ob_eig *ob, tela_int itype, char jobz, char uplo, tela_int n,
                    double *a, tela_int lda, double *b, tela_int ldb, double *w)
{
    const int it = (int)itype, in = (int)n, ilda = (int)lda, ildb = (int)ldb, query = -1;
    int info = 0, lwork, liwork, isize = 0;
    double size = 0;
    ob->sygvd(&it, &jobz, &uplo, &in, a, &ilda, b, &ildb, w, &size, &query, &isize, &query, &info,
              1, 1);
    double *work = ob_work(size, &lwork);
    int *iwork = ob_iwork(isize, &liwork);
    ob->sygvd(&it, &jobz, &uplo, &in, a, &ilda, b, &ildb, w, work, &lwork, iwork, &liwork, &info, 1,
              1);
    free(work);
    free(iwork);
    return info;
}

/* ---- small helpers ------------------------------------------------------------------------ */

static tela_int max_of(tela_int a, tela_int b)
{
    return a > b ? a : b;
}

/* NaN sticks in a running maximum. */
static double worse(double worst, double value)
{
    return value > worst || isnan(value) ? value : worst;
}

static bool has_nan(tela_int m, tela_int n, const double *a, tela_int lda)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            if (isnan(a[i + j * lda]))
                return true;
    return false;
}

static void expect_below(const char *what, const char *ratio_name, double ratio)
{
    if (!(ratio < TL_THRESHOLD))
        fail_msg("%s: %s = %g (threshold %g)", what, ratio_name, ratio, TL_THRESHOLD);
}

/* A forward comparison with OpenBLAS: two backward-stable reductions differ in T and the
 * reflectors by their rounding times the matrix's sensitivity, which is not bounded by LAPACK's
 * threshold (reference LAPACK against OpenBLAS's dsytrd: up to 157 over 20 seeds of these
 * sizes, 10 for the seed used): ten times the threshold, still 1e-12 of what a wrong sign or a
 * wrong reflector gives. The largest ratio seen is printed. */
#define FORWARD_THRESHOLD (10 * TL_THRESHOLD)
static double forward_worst;

static void expect_forward(const char *what, const char *ratio_name, double ratio)
{
    forward_worst = worse(forward_worst, ratio);
    if (!(ratio < FORWARD_THRESHOLD))
        fail_msg("%s: %s = %g (threshold %g)", what, ratio_name, ratio, FORWARD_THRESHOLD);
}

static void expect_ascending(const char *what, tela_int m, const double *w)
{
    for (tela_int i = 1; i < m; i++)
        if (!(w[i - 1] <= w[i]))
            fail_msg("%s: w[%td] = %.17g > w[%td] = %.17g (not ascending)", what, i - 1, w[i - 1],
                     i, w[i]);
}

/* count doubles, every one the sentinel. */
static double *sentinels(tela_int count)
{
    double *x = tl_alloc(count);
    for (tela_int i = 0; i < (count > 0 ? count : 1); i++)
        x[i] = tl_sentinel();
    return x;
}

static void expect_sentinels(const char *what, const char *name, const double *x, tela_int from,
                             tela_int to)
{
    for (tela_int i = from; i < to; i++)
        if (!tl_is_sentinel(&x[i]))
            fail_msg("%s: %s[%td] was written", what, name, i);
}

/* ---- symmetric matrices --------------------------------------------------------------------
 * Each kind is made whole (both triangles, leading dimension n); a routine gets its uplo
 * triangle in an lda x n array whose other triangle and padding rows hold the sentinel, so that
 * reading them shows (NaN) and writing them is caught (bits). */
enum kind {
    K_RANDOM,     /* uniform entries */
    K_WILKINSON,  /* W_n: tridiagonal, |i - (n-1)/2| on the diagonal, 1 beside: pairs of values
                     equal to many digits */
    K_GLUED,      /* Wilkinson W_21 blocks glued by 1e-10: clusters of n/21 values */
    K_IDENTITY,   /* one value, multiplicity n */
    K_TWO_VALUES, /* Q diag(-1 .. -1, 3 .. 3) Q^T, Q random orthogonal */
    K_CLUSTERED,  /* half the values 1 + i 1e-12, the rest spread in [-1, 1) */
    K_GRADED,     /* u_ij g_i g_j with g from 1e-4 to 1e4 */
    K_DIAGONAL,   /* random diagonal, unsorted */
    K_ZERO,
    K_SPLIT, /* random tridiagonal with zeros beside the diagonal, some past the first 25 rows */
    K_TINY,  /* random times 2^-600 and 2^600: the drivers and solvers scale them into range */
    K_HUGE,
    K_KINDS
};

static const char *const kind_names[K_KINDS] = {
    "random",   "Wilkinson", "glued Wilkinson", "identity", "two values", "clustered", "graded",
    "diagonal", "zero",      "split",           "tiny",     "huge"};

/* A random orthogonal n x n matrix (leading dimension n), from tela's QR of a random one. */
static double *random_orthogonal(tela_int n)
{
    const tela_int ld = max_of(n, 1);
    double *q = tl_random_matrix(n, n, ld), *tau = tl_alloc(n);
    assert_int_equal(tela_dgeqrf(tela_par_seq(), n, n, q, ld, tau), 0);
    assert_int_equal(tela_dorgqr(tela_par_seq(), n, n, n, q, ld, tau), 0);
    free(tau);
    return q;
}

/* Q diag(values) Q^T, its lower triangle computed and mirrored: symmetric bit for bit. */
static double *with_spectrum(tela_int n, const double *values)
{
    double *q = random_orthogonal(n), *a = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++) {
            long double s = 0;
            for (tela_int k = 0; k < n; k++)
                s += (long double)q[i + k * n] * values[k] * q[j + k * n];
            a[i + j * n] = a[j + i * n] = (double)s;
        }
    free(q);
    return a;
}

/* The tridiagonal of a kind that has one (d[0 .. n), e[0 .. n-1)); false for the others. */
static bool tridiagonal_of(enum kind kind, tela_int n, double *d, double *e)
{
    switch (kind) {
    case K_WILKINSON:
    case K_GLUED: {
        const tela_int block = kind == K_GLUED ? 21 : n;
        for (tela_int i = 0; i < n; i++) {
            const tela_int start = i / block * block, size = n - start < block ? n - start : block;
            d[i] = fabs((double)(i - start) - (double)(size - 1) / 2);
            if (i + 1 < n)
                e[i] = (i + 1) % block == 0 ? 1e-10 : 1.0;
        }
        return true;
    }
    case K_SPLIT:
        for (tela_int i = 0; i < n; i++) {
            d[i] = tl_uniform();
            if (i + 1 < n)
                e[i] = i % 23 == 9 || i == 30 || i == 31 ? 0.0 : tl_uniform();
        }
        return true;
    case K_IDENTITY:
    case K_DIAGONAL:
    case K_ZERO:
        for (tela_int i = 0; i < n; i++) {
            d[i] = kind == K_IDENTITY ? 1.0 : kind == K_ZERO ? 0.0 : tl_uniform();
            if (i + 1 < n)
                e[i] = 0.0;
        }
        return true;
    default:
        return false;
    }
}

/* The n x n symmetric matrix of a kind (leading dimension n). */
static double *symmetric_of(enum kind kind, tela_int n)
{
    double *a = tl_alloc(n * n);
    for (tela_int i = 0; i < n * n; i++)
        a[i] = 0.0;
    double *d = tl_alloc(n), *e = tl_alloc(n);
    if (tridiagonal_of(kind, n, d, e)) {
        for (tela_int i = 0; i < n; i++) {
            a[i + i * n] = d[i];
            if (i + 1 < n)
                a[i + 1 + i * n] = a[i + (i + 1) * n] = e[i];
        }
    } else if (kind == K_TWO_VALUES || kind == K_CLUSTERED) {
        for (tela_int i = 0; i < n; i++)
            d[i] = kind == K_TWO_VALUES ? (i % 2 ? 3.0 : -1.0)
                   : i < n / 2          ? 1.0 + (double)i * 1e-12
                                        : tl_uniform();
        free(a);
        a = with_spectrum(n, d);
    } else {
        const double span = kind == K_GRADED ? 8.0 : 0.0;
        const double scale = kind == K_TINY ? 0x1p-600 : kind == K_HUGE ? 0x1p600 : 1.0;
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = j; i < n; i++) {
                const double gi = pow(10.0, span * ((double)i / (double)max_of(n - 1, 1) - 0.5));
                const double gj = pow(10.0, span * ((double)j / (double)max_of(n - 1, 1) - 0.5));
                a[i + j * n] = a[j + i * n] = tl_uniform() * gi * gj * scale;
            }
    }
    free(d);
    free(e);
    return a;
}

/* The uplo triangle of the whole a0 in an lda x n array, the rest the sentinel. */
static double *triangle_input(const double *a0, tela_int n, tela_int lda, bool lower)
{
    double *a = sentinels(lda * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = lower ? j : 0; i < (lower ? n : j + 1); i++)
            a[i + j * lda] = a0[i + j * n];
    return a;
}

/* Fails unless the strict other triangle and the padding rows still hold the sentinel. */
static void expect_other_untouched(const char *what, const double *a, tela_int n, tela_int lda,
                                   bool lower)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < lda; i++) {
            const bool mine = i < n && (lower ? i >= j : i <= j);
            if (!mine && !tl_is_sentinel(&a[i + j * lda]))
                fail_msg("%s: element (%td, %td) outside the %s triangle (lda %td) was written",
                         what, i, j, lower ? "lower" : "upper", lda);
        }
}

/* ---- ratios ----------------------------------------------------------------------------------
 * In working precision by columns, as LAPACK's dsyt21 and dqrt01 (their rounding is of the order
 * they measure, well inside the threshold). */

/* ||A Z - B Z diag(w)||_1 with A (whole, leading dimension n) n x n, Z n x m, B the identity
 * when NULL. */
static double eigen_residual(tela_int n, tela_int m, const double *a0, const double *b0,
                             const double *z, tela_int ldz, const double *w)
{
    double *acc = tl_alloc(n), *bz = tl_alloc(n), rnorm = 0;
    for (tela_int j = 0; j < m; j++) {
        const double *zj = z + j * ldz;
        for (tela_int i = 0; i < n; i++) {
            acc[i] = 0.0;
            bz[i] = b0 ? 0.0 : zj[i];
        }
        for (tela_int k = 0; k < n; k++) {
            const double zk = zj[k], *ak = a0 + k * n;
            for (tela_int i = 0; i < n; i++)
                acc[i] += ak[i] * zk;
            if (b0) {
                const double *bk = b0 + k * n;
                for (tela_int i = 0; i < n; i++)
                    bz[i] += bk[i] * zk;
            }
        }
        double s = 0;
        for (tela_int i = 0; i < n; i++)
            s += fabs(acc[i] - bz[i] * w[j]);
        rnorm = worse(rnorm, s);
    }
    free(acc);
    free(bz);
    return rnorm;
}

/* ||I - Z^T B Z||_1 / (div eps) for the n x m Z, B the identity when NULL. */
static double orthogonality_ratio(tela_int n, tela_int m, const double *z, tela_int ldz,
                                  const double *b0, tela_int div)
{
    double *bz = tl_alloc(n * m), worst = 0;
    for (tela_int j = 0; j < m; j++)
        for (tela_int i = 0; i < n; i++) {
            double s = b0 ? 0.0 : z[i + j * ldz];
            if (b0)
                for (tela_int k = 0; k < n; k++)
                    s += b0[i + k * n] * z[k + j * ldz];
            bz[i + j * n] = s;
        }
    for (tela_int j = 0; j < m; j++) {
        double s = 0;
        for (tela_int i = 0; i < m; i++) {
            double g = i == j ? -1.0 : 0.0;
            for (tela_int k = 0; k < n; k++)
                g += z[k + i * ldz] * bz[k + j * n];
            s += fabs(g);
        }
        worst = worse(worst, s);
    }
    free(bz);
    return isnan(worst) ? NAN : worst / ((double)(div > 0 ? div : 1) * TL_EPS);
}

/* max |x - y| over count values. */
static double max_difference(tela_int count, const double *x, const double *y)
{
    double worst = 0;
    for (tela_int i = 0; i < count; i++)
        worst = worse(worst, fabs(x[i] - y[i]));
    return worst;
}

/* The eigenvector checks: residual against a0 and orthonormality of the n x m Z. */
static void check_vectors(const char *what, tela_int n, tela_int m, const double *a0, double anorm,
                          const double *z, tela_int ldz, const double *w)
{
    expect_below(what, "||A Z - Z diag(w)|| / (n ||A|| eps)",
                 tl_ratio(eigen_residual(n, m, a0, NULL, z, ldz, w), anorm, n));
    expect_below(what, "||I - Z^T Z|| / (n eps)", orthogonality_ratio(n, m, z, ldz, NULL, n));
}

/* The values against OpenBLAS's: max |w - w_ob| / (n ||A|| eps), after a slack (abstol). */
static void check_values(const char *what, tela_int m, const double *w, const double *w_ob,
                         double anorm, tela_int n, double slack)
{
    const double diff = max_difference(m, w, w_ob);
    expect_below(what, "max |w - w_OpenBLAS| / (n ||A|| eps)",
                 tl_ratio(diff > slack ? diff - slack : 0.0, anorm, n));
}

/* The values of the whole symmetric a0 by OpenBLAS's dsyevd (NULL without OpenBLAS). */
static double *reference_values(const struct ob_eig *ob, const double *a0, tela_int n)
{
    if (!ob)
        return NULL;
    double *a = tl_copy(a0, n * n), *w = tl_alloc(n);
    assert_int_equal(ob_syevd(ob, 'N', 'L', n, a, max_of(n, 1), w), 0);
    free(a);
    return w;
}

/* Whether the kind's values are known exactly: a diagonal matrix (e = 0), whose reduction and
 * solvers leave its diagonal as it is (dlarfg: tau = 0 for a zero column) and only sort it. */
static bool exact_kind(enum kind kind)
{
    return kind == K_DIAGONAL || kind == K_IDENTITY || kind == K_ZERO;
}

/* The diagonal of the whole a0, sorted ascending: the values of an exact kind. */
static double *sorted_diagonal(const double *a0, tela_int n)
{
    double *w = tl_alloc(n);
    for (tela_int i = 0; i < n; i++) {
        double v = a0[i + i * n];
        tela_int k = i;
        for (; k > 0 && w[k - 1] > v; k--)
            w[k] = w[k - 1];
        w[k] = v;
    }
    return w;
}

static void expect_exact_values(const char *what, tela_int n, const double *w, const double *want)
{
    for (tela_int i = 0; i < n; i++)
        if (!(w[i] == want[i]))
            fail_msg("%s: w[%td] = %.17g, exactly %.17g expected", what, i, w[i], want[i]);
}

/* ---- dsyevd, dsyev, dsyevr (range A) -------------------------------------------------------- */

enum driver { D_SYEVD, D_SYEV, D_SYEVR, DRIVERS };
static const char *const driver_names[DRIVERS] = {"dsyevd", "dsyev", "dsyevr A"};

/* isuppz of m vectors: each pair within [1, n], first <= last. */
static void expect_support(const char *what, tela_int n, tela_int m, const tela_int *isuppz)
{
    for (tela_int j = 0; j < m; j++)
        if (!(isuppz[2 * j] >= 1 && isuppz[2 * j] <= isuppz[2 * j + 1] && isuppz[2 * j + 1] <= n))
            fail_msg("%s: isuppz of vector %td is [%td, %td], not within [1, %td]", what, j,
                     isuppz[2 * j], isuppz[2 * j + 1], n);
}

/* One call of a driver on the whole a0 (its uplo triangle given, lda): info 0, m = n, values
 * ascending and against OpenBLAS's (w_ob, when given), exact for an exact kind and n = 1, the
 * vectors' residual and orthogonality, nothing written outside the outputs. */
static void check_driver(enum driver drv, tela_par par, enum kind kind, const double *a0,
                         tela_int n, tela_int lda, bool lower, bool vectors, const double *w_ob)
{
    const char jobz = vectors ? 'V' : 'N', uplo = lower ? 'L' : 'U';
    const tela_int ldz = n + 2;
    char what[128];
    snprintf(what, sizeof what, "%s jobz %c uplo %c, %s n = %td lda = %td", driver_names[drv], jobz,
             uplo, kind_names[kind], n, lda);
    double *a = triangle_input(a0, n, lda, lower), *w = sentinels(n + 1);
    double *z = sentinels(ldz * (n + 1));
    tela_int *isuppz = tl_alloc_ipiv(2 * n + 2), m = -77;
    for (tela_int i = 0; i < 2 * n + 2; i++)
        isuppz[i] = -7;
    int info;
    if (drv == D_SYEVD)
        info = tela_dsyevd(par, jobz, uplo, n, a, lda, w);
    else if (drv == D_SYEV)
        info = tela_dsyev(par, jobz, uplo, n, a, lda, w);
    else
        info = tela_dsyevr(par, jobz, 'A', uplo, n, a, lda, 0.0, 0.0, 0, 0, 0.0, &m, w, z, ldz,
                           isuppz);
    if (info != 0)
        fail_msg("%s: info %d", what, info);
    if (drv == D_SYEVR && m != n)
        fail_msg("%s: m = %td", what, m);
    expect_sentinels(what, "w", w, n, n + 1);
    expect_ascending(what, n, w);
    const double anorm = tl_norm1(n, n, a0, max_of(n, 1));
    /* Where the vectors are: over A (dsyevd, dsyev) or in Z (dsyevr, whose A is destroyed). */
    const double *zv = drv == D_SYEVR ? z : a;
    const tela_int ldv = drv == D_SYEVR ? ldz : lda;
    if (drv == D_SYEVR || !vectors)
        expect_other_untouched(what, a, n, lda, lower);
    else
        tl_expect_padding(what, a, n, n, lda);
    if (drv == D_SYEVR) {
        if (vectors) {
            tl_expect_padding(what, z, n, n, ldz);
            expect_sentinels(what, "Z's column n", z, ldz * n, ldz * (n + 1));
            expect_support(what, n, n, isuppz);
            if (isuppz[2 * n] != -7 || isuppz[2 * n + 1] != -7)
                fail_msg("%s: isuppz written past 2 n", what);
        } else {
            expect_sentinels(what, "Z (jobz N)", z, 0, ldz * (n + 1));
        }
    }
    if (n == 1 && (w[0] != a0[0] || (vectors && zv[0] != 1.0)))
        fail_msg("%s: w = %.17g, z = %.17g for A = %.17g (exactly A and 1 expected)", what, w[0],
                 vectors ? zv[0] : 1.0, a0[0]);
    if (exact_kind(kind) && drv != D_SYEVR) {
        double *want = sorted_diagonal(a0, n);
        expect_exact_values(what, n, w, want);
        free(want);
    }
    if (w_ob)
        check_values(what, n, w, w_ob, anorm, n, 0.0);
    if (vectors)
        check_vectors(what, n, n, a0, anorm, zv, ldv, w);
    free(a);
    free(w);
    free(z);
    free(isuppz);
}

struct dense_case {
    enum kind kind;
    tela_int n;
};

/* n = 0, 1, 2, odd, past the leaf of divide and conquer (25) and several levels of it; the
 * kinds at sizes where their structure matters. The last (n = 200) is left out under
 * sanitizers. */
static const struct dense_case dense_cases[] = {
    {K_RANDOM, 0},    {K_RANDOM, 1},      {K_RANDOM, 2},     {K_RANDOM, 3},     {K_RANDOM, 26},
    {K_RANDOM, 57},   {K_RANDOM, 100},    {K_WILKINSON, 21}, {K_WILKINSON, 41}, {K_GLUED, 63},
    {K_IDENTITY, 30}, {K_TWO_VALUES, 40}, {K_CLUSTERED, 50}, {K_GRADED, 57},    {K_DIAGONAL, 33},
    {K_ZERO, 27},     {K_DIAGONAL, 1},    {K_SPLIT, 64},     {K_TINY, 30},      {K_HUGE, 31},
    {K_RANDOM, 200}};
#define DENSE_CASES     (sizeof dense_cases / sizeof dense_cases[0])
#define DENSE_CASES_RUN (DENSE_CASES - (TU_SANITIZED ? 1 : 0))

static void test_drivers(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    if (!ob)
        printf("no comparison with OpenBLAS: %s\n", tl_ob_why);
    tl_seed(1);
    for (size_t c = 0; c < DENSE_CASES_RUN; c++) {
        const tela_int n = dense_cases[c].n;
        double *a0 = symmetric_of(dense_cases[c].kind, n);
        double *w_ob = reference_values(ob, a0, n);
        for (int drv = 0; drv < DRIVERS; drv++)
            for (int lower = 0; lower < 2; lower++)
                for (int vectors = 0; vectors < 2; vectors++) {
                    const tela_int lda = max_of(1, n + (tela_int)((c + (size_t)drv) % 3));
                    const tela_par par = (c + (size_t)lower) % 2 ? tela_par_auto() : tela_par_seq();
                    check_driver((enum driver)drv, par, dense_cases[c].kind, a0, n, lda, lower,
                                 vectors, w_ob);
                }
        free(w_ob);
        free(a0);
    }
}

/* ---- dsyevr's ranges and abstol ---------------------------------------------------------------
 */

/* One dsyevr call for a subset: info 0, m as expected, the values against want (OpenBLAS's,
 * within 2 abstol: both may be that far from the truth), vectors orthonormal and, with abstol 0,
 * their residual; Z's rows past n and columns past m untouched. */
static void check_subset(const struct ob_eig *ob, const char *label, tela_par par, const double *a0,
                         tela_int n, bool lower, bool vectors, char range, double vl, double vu,
                         tela_int il, tela_int iu, double abstol, tela_int want_m,
                         const double *want)
{
    const tela_int lda = n + 1, ldz = n + 1;
    char what[192];
    snprintf(
        what, sizeof what,
        "dsyevr %s: range %c jobz %c uplo %c n = %td (vl %.6g vu %.6g il %td iu %td abstol %g)",
        label, range, vectors ? 'V' : 'N', lower ? 'L' : 'U', n, vl, vu, il, iu, abstol);
    double *a = triangle_input(a0, n, lda, lower), *w = sentinels(n + 1);
    double *z = sentinels(ldz * (n + 1));
    tela_int *isuppz = tl_alloc_ipiv(2 * n + 2), m = -77;
    const int info = tela_dsyevr(par, vectors ? 'V' : 'N', range, lower ? 'L' : 'U', n, a, lda, vl,
                                 vu, il, iu, abstol, &m, w, z, ldz, isuppz);
    /* OpenBLAS's dsyevr on the same call: info 0, the same m, values as close. Where its
     * inverse iteration fails too (info > 0: a large abstol leaves it shifts too far from the
     * values), the input is past LAPACK's contract and info > 0 is accepted. */
    double *ow = tl_alloc(n), *oa = triangle_input(a0, n, lda, lower);
    double *oz = tl_alloc(ldz * max_of(n, 1));
    tela_int om = -1;
    const int oinfo = ob_syevr(ob, vectors ? 'V' : 'N', range, lower ? 'L' : 'U', n, oa, lda, vl,
                               vu, il, iu, abstol, &om, ow, oz, ldz);
    free(oa);
    free(oz);
    if (info != 0 && !(info > 0 && oinfo > 0))
        fail_msg("%s: info %d (OpenBLAS's %d)", what, info, oinfo);
    if (m != want_m)
        fail_msg("%s: m = %td, expected %td", what, m, want_m);
    expect_other_untouched(what, a, n, lda, lower);
    expect_sentinels(what, "w", w, m, n + 1);
    expect_ascending(what, m, w);
    const double anorm = tl_norm1(n, n, a0, max_of(n, 1));
    if (want)
        check_values(what, m, w, want, anorm, n, 2 * abstol);
    if (oinfo == 0) {
        if (om != m)
            fail_msg("%s: m = %td, OpenBLAS's %td", what, m, om);
        check_values(what, m, w, ow, anorm, n, 2 * abstol);
    }
    free(ow);
    if (vectors && info == 0) { /* (info > 0, as OpenBLAS's: not every vector is there) */
        tl_expect_padding(what, z, n, m, ldz);
        /* LAPACK's Z has max(1, m) columns (with m = 0 its dsyevr may set Z(1, 1) = 1) */
        expect_sentinels(what, "Z past its m columns", z, ldz * max_of(m, 1), ldz * (n + 1));
        if (abstol > 0) {
            /* values abstol away leave inverse iteration's vectors about as far from
             * orthogonal (LAPACK's dstein): no eps-sized check, but no vector twice */
            const double loss = orthogonality_ratio(n, m, z, ldz, NULL, 1) * TL_EPS;
            if (!(loss < 0.1))
                fail_msg("%s: ||I - Z^T Z|| = %g", what, loss);
        } else {
            expect_below(what, "||I - Z^T Z|| / (n eps)",
                         orthogonality_ratio(n, m, z, ldz, NULL, n));
            expect_below(what, "||A Z - Z diag(w)|| / (n ||A|| eps)",
                         tl_ratio(eigen_residual(n, m, a0, NULL, z, ldz, w), anorm, n));
        }
    } else if (!vectors) {
        expect_sentinels(what, "Z (jobz N)", z, 0, ldz * (n + 1));
    }
    free(a);
    free(w);
    free(z);
    free(isuppz);
}

/* The first index k >= from (0-based) with a gap of more than `gap` below w[k] (k = 0: none
 * below), so that a bound between w[k - 1] and w[k] counts the same for every abstol used. */
static tela_int gap_below(const double *w, tela_int n, tela_int from, double gap)
{
    for (tela_int k = from; k < n; k++)
        if (k == 0 || w[k] - w[k - 1] > gap)
            return k;
    return n;
}

static const struct dense_case subset_cases[] = {
    {K_RANDOM, 1}, {K_RANDOM, 2},      {K_RANDOM, 57},    {K_RANDOM, 100}, {K_WILKINSON, 21},
    {K_GLUED, 63}, {K_TWO_VALUES, 40}, {K_CLUSTERED, 50}, {K_GRADED, 57},  {K_DIAGONAL, 33},
    {K_SPLIT, 64}, {K_TINY, 30},       {K_HUGE, 31},      {K_RANDOM, 200}};
#define SUBSET_CASES     (sizeof subset_cases / sizeof subset_cases[0])
#define SUBSET_CASES_RUN (SUBSET_CASES - (TU_SANITIZED ? 1 : 0))

/* Range I: il = iu, 10% of the spectrum from its middle, all of it; range V: an interval whose
 * ends lie in gaps of the spectrum (m known), one holding no value (m = 0: inside a gap, and
 * past ||A||); each with abstol 0 and 1e-3, vectors or not. */
static void test_syevr_subsets(void **state)
{
    (void)state;
    OB_EIG_OR_SKIP(ob);
    static const double abstols[] = {0.0, 1e-3};
    tl_seed(2);
    for (size_t c = 0; c < SUBSET_CASES_RUN; c++) {
        const tela_int n = subset_cases[c].n;
        double *a0 = symmetric_of(subset_cases[c].kind, n);
        double *w_ob = reference_values(ob, a0, n);
        const double anorm = tl_norm1(n, n, a0, n);
        for (int t = 0; t < 2; t++)
            for (int vectors = 0; vectors < 2; vectors++) {
                const double abstol = abstols[t];
                const bool lower = (c + (size_t)t) % 2 == 0;
                const tela_par par = vectors ? tela_par_auto() : tela_par_seq();
                char label[64];
                snprintf(label, sizeof label, "%s", kind_names[subset_cases[c].kind]);
                /* I: il = iu in the middle, then 10% from the middle, then all */
                const tela_int mid = (n + 1) / 2, tenth = max_of(1, n / 10);
                const tela_int il10 = n / 3 + 1,
                               iu10 = il10 + tenth - 1 <= n ? il10 + tenth - 1 : n;
                check_subset(ob, label, par, a0, n, lower, vectors, 'I', 0, 0, mid, mid, abstol, 1,
                             w_ob + mid - 1);
                check_subset(ob, label, par, a0, n, lower, vectors, 'I', 0, 0, il10, iu10, abstol,
                             iu10 - il10 + 1, w_ob + il10 - 1);
                check_subset(ob, label, par, a0, n, lower, vectors, 'I', 0, 0, 1, n, abstol, n,
                             w_ob);
                /* V: (vl, vu] with both ends in gaps wider than 8 abstol (and rounding) */
                const double gap = 8 * abstol + 1e-6 * (anorm > 0 ? anorm : 1.0);
                const tela_int k1 = gap_below(w_ob, n, n / 4, gap);
                const tela_int k2 = gap_below(w_ob, n, k1 + max_of(1, n / 5), gap);
                if (k1 < n) {
                    const double vl = k1 == 0 ? w_ob[0] - 1.0 : (w_ob[k1 - 1] + w_ob[k1]) / 2;
                    const double vu = k2 == n ? w_ob[n - 1] + 1.0 : (w_ob[k2 - 1] + w_ob[k2]) / 2;
                    check_subset(ob, label, par, a0, n, lower, vectors, 'V', vl, vu, 0, 0, abstol,
                                 k2 - k1, w_ob + k1);
                    /* an interval inside the gap below w[k1], or below the spectrum */
                    const double lo = k1 == 0 ? w_ob[0] - 2.0 : w_ob[k1 - 1];
                    const double third = (w_ob[k1] - lo) / 3;
                    check_subset(ob, label, par, a0, n, lower, vectors, 'V', lo + third,
                                 lo + 2 * third, 0, 0, abstol, 0, NULL);
                }
                const double past = w_ob[n - 1] + 1.0 + anorm;
                check_subset(ob, label, par, a0, n, lower, vectors, 'V', past, 2 * past, 0, 0,
                             abstol, 0, NULL);
            }
        free(w_ob);
        free(a0);
    }
}

/* ---- dsygvd --------------------------------------------------------------------------------- */

/* A symmetric positive definite n x n B (whole, leading dimension n): M M^T / n + I, its
 * values in about [1, 5]. */
static double *spd_of(tela_int n)
{
    double *m = tl_random_matrix(n, n, n), *b = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = j; i < n; i++) {
            double s = 0;
            for (tela_int k = 0; k < n; k++)
                s += m[i + k * n] * m[j + k * n];
            b[i + j * n] = b[j + i * n] = s / (double)n + (i == j ? 1.0 : 0.0);
        }
    free(m);
    return b;
}

/* ||B0 - L L^T|| or ||B0 - U^T U|| / (n ||B0|| eps), the factor in the uplo triangle of f. */
static double cholesky_ratio(tela_int n, const double *b0, const double *f, tela_int ldf,
                             bool lower)
{
    double rnorm = 0;
    for (tela_int j = 0; j < n; j++) {
        double s = 0;
        for (tela_int i = 0; i < n; i++) {
            double acc = b0[i + j * n];
            for (tela_int k = 0; k <= (i < j ? i : j); k++)
                acc -= lower ? f[i + k * ldf] * f[j + k * ldf] : f[k + i * ldf] * f[k + j * ldf];
            s += fabs(acc);
        }
        rnorm = worse(rnorm, s);
    }
    return tl_ratio(rnorm, tl_norm1(n, n, b0, max_of(n, 1)), n);
}

/* The residual of dsygvd's itype: A Z - B Z D (1), A B Z - Z D (2), B A Z - Z D (3), over
 * n eps ||Z|| (||A|| + |w|max ||B||) or (||A|| ||B|| + |w|max), the size of the terms. */
static double generalized_ratio(tela_int itype, tela_int n, const double *a0, const double *b0,
                                const double *z, tela_int ldz, const double *w)
{
    if (n == 0)
        return 0.0;
    const double anorm = tl_norm1(n, n, a0, n), bnorm = tl_norm1(n, n, b0, n);
    const double znorm = tl_norm1(n, n, z, ldz);
    double wmax = 0;
    for (tela_int i = 0; i < n; i++)
        wmax = worse(wmax, fabs(w[i]));
    double rnorm, scale;
    if (itype == 1) {
        rnorm = eigen_residual(n, n, a0, b0, z, ldz, w);
        scale = znorm * (anorm + wmax * bnorm);
    } else {
        /* A B (2) or B A (3), then the plain residual */
        const double *x = itype == 2 ? a0 : b0, *y = itype == 2 ? b0 : a0;
        double *p = tl_alloc(n * n);
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < n; i++) {
                double s = 0;
                for (tela_int k = 0; k < n; k++)
                    s += x[i + k * n] * y[k + j * n];
                p[i + j * n] = s;
            }
        rnorm = eigen_residual(n, n, p, NULL, z, ldz, w);
        scale = znorm * (anorm * bnorm + wmax);
        free(p);
    }
    return tl_ratio(rnorm, scale, n);
}

/* itypes 1, 2, 3, jobz N and V, upper and lower: info 0, B's factor, the residual, Z^T B Z = I
 * (itypes 1 and 2), the values against OpenBLAS's dsygvd, nothing outside the triangles
 * written. */
static void test_sygvd(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    static const tela_int sizes[] = {0, 1, 2, 26, 57, 100};
    tl_seed(3);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], lda = n + 1, ldb = n + 2;
        double *a0 = symmetric_of(K_RANDOM, n), *b0 = spd_of(n);
        for (tela_int itype = 1; itype <= 3; itype++)
            for (int lower = 0; lower < 2; lower++) {
                const char uplo = lower ? 'L' : 'U';
                double *w_ob = NULL;
                if (ob) {
                    double *oa = tl_copy(a0, n * n), *obb = tl_copy(b0, n * n);
                    w_ob = tl_alloc(n);
                    assert_int_equal(ob_sygvd(ob, itype, 'N', uplo, n, oa, max_of(n, 1), obb,
                                              max_of(n, 1), w_ob),
                                     0);
                    free(oa);
                    free(obb);
                }
                for (int vectors = 0; vectors < 2; vectors++) {
                    char what[96];
                    snprintf(what, sizeof what, "dsygvd itype %td jobz %c uplo %c n = %td", itype,
                             vectors ? 'V' : 'N', uplo, n);
                    double *a = triangle_input(a0, n, lda, lower);
                    double *b = triangle_input(b0, n, ldb, lower), *w = sentinels(n + 1);
                    const tela_par par = (s + (size_t)itype) % 2 ? tela_par_auto() : tela_par_seq();
                    const int info =
                        tela_dsygvd(par, itype, vectors ? 'V' : 'N', uplo, n, a, lda, b, ldb, w);
                    if (info != 0)
                        fail_msg("%s: info %d", what, info);
                    expect_sentinels(what, "w", w, n, n + 1);
                    expect_ascending(what, n, w);
                    expect_other_untouched(what, b, n, ldb, lower);
                    expect_below(what, "||B - L L^T|| / (n ||B|| eps)",
                                 cholesky_ratio(n, b0, b, ldb, lower));
                    if (vectors) {
                        tl_expect_padding(what, a, n, n, lda);
                        expect_below(what, "||A Z - B Z D||-like / (n ||Z|| (|A| + |D| |B|) eps)",
                                     generalized_ratio(itype, n, a0, b0, a, lda, w));
                        if (itype != 3)
                            expect_below(what, "||I - Z^T B Z|| / (n eps)",
                                         orthogonality_ratio(n, n, a, lda, b0, n));
                    } else {
                        expect_other_untouched(what, a, n, lda, lower);
                    }
                    if (w_ob) {
                        double wmax = 0;
                        for (tela_int i = 0; i < n; i++)
                            wmax = worse(wmax, fabs(w_ob[i]));
                        expect_below(what, "max |w - w_OpenBLAS| / (n max|w| eps)",
                                     tl_ratio(max_difference(n, w, w_ob), wmax, n));
                    }
                    free(a);
                    free(b);
                    free(w);
                }
                free(w_ob);
            }
        free(a0);
        free(b0);
    }
}

/* B not positive definite, its leading minor of order k + 1 the first that is not: info =
 * n + k + 1 for every itype, as OpenBLAS's dsygvd reports it; A and w untouched (LAPACK returns
 * before either is touched). */
static void test_sygvd_not_definite(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    static const tela_int cases[][2] = {{1, 0}, {5, 0}, {5, 3}, {57, 40}, {100, 70}, {100, 99}};
    tl_seed(4);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const tela_int n = cases[c][0], k = cases[c][1];
        double *a0 = symmetric_of(K_RANDOM, n), *b0 = spd_of(n);
        b0[k + k * n] = -(double)n; /* the Schur complement at k is negative */
        for (tela_int itype = 1; itype <= 3; itype++)
            for (int lower = 0; lower < 2; lower++) {
                const char uplo = lower ? 'L' : 'U';
                char what[96];
                snprintf(what, sizeof what, "dsygvd itype %td uplo %c n = %td, B(%td, %td) < 0",
                         itype, uplo, n, k, k);
                double *a = triangle_input(a0, n, n, lower), *b = triangle_input(b0, n, n, lower);
                double *a_in = tl_copy(a, n * n), *w = sentinels(n);
                const int info = tela_dsygvd(tela_par_auto(), itype, 'V', uplo, n, a, n, b, n, w);
                if (info != n + k + 1)
                    fail_msg("%s: info %d, expected %td", what, info, n + k + 1);
                if (ob) {
                    double *oa = tl_copy(a0, n * n), *obb = tl_copy(b0, n * n), *ow = tl_alloc(n);
                    const int oinfo = ob_sygvd(ob, itype, 'V', uplo, n, oa, n, obb, n, ow);
                    if (oinfo != info)
                        fail_msg("%s: info %d, OpenBLAS's %d", what, info, oinfo);
                    free(oa);
                    free(obb);
                    free(ow);
                }
                tu_expect_same(what, a, a_in, (size_t)(n * n));
                expect_sentinels(what, "w", w, 0, n);
                free(a);
                free(b);
                free(a_in);
                free(w);
            }
        free(a0);
        free(b0);
    }
}

/* ---- dsytrd, dorgtr, dormtr ----------------------------------------------------------------- */

/* ||A - Q T Q^T||_1 / (n ||A|| eps), T from (d, e), Q n x n. */
static double tridiagonal_ratio(tela_int n, const double *a0, const double *q, tela_int ldq,
                                const double *d, const double *e)
{
    double *qt = tl_alloc(n * n), *acc = tl_alloc(n), rnorm = 0;
    for (tela_int j = 0; j < n; j++) /* Q T: column j of Q d_j plus its neighbours times e */
        for (tela_int i = 0; i < n; i++)
            qt[i + j * n] = q[i + j * ldq] * d[j] + (j > 0 ? q[i + (j - 1) * ldq] * e[j - 1] : 0) +
                            (j + 1 < n ? q[i + (j + 1) * ldq] * e[j] : 0);
    for (tela_int j = 0; j < n; j++) {
        for (tela_int i = 0; i < n; i++)
            acc[i] = a0[i + j * n];
        for (tela_int k = 0; k < n; k++) {
            const double qjk = q[j + k * ldq], *col = qt + k * n;
            for (tela_int i = 0; i < n; i++)
                acc[i] -= col[i] * qjk;
        }
        double s = 0;
        for (tela_int i = 0; i < n; i++)
            s += fabs(acc[i]);
        rnorm = worse(rnorm, s);
    }
    free(qt);
    free(acc);
    return tl_ratio(rnorm, tl_norm1(n, n, a0, max_of(n, 1)), n);
}

/* dsytrd's reflectors stored in f: for 'L' below the subdiagonal, for 'U' above the
 * superdiagonal. */
static bool in_reflectors(bool lower, tela_int i, tela_int j)
{
    return lower ? i > j + 1 : j > i + 1;
}

/* The reduction of a0 (uplo triangle, lda) into f, d, e, tau with the checks of its output
 * alone: info 0, T's entries also in f's diagonal and first off-diagonal (bit for bit), tau 0
 * or in [1, 2], nothing written past the n - 1 e's and tau's or outside the triangle, an exact
 * kind (already tridiagonal) left as it was. Returns f; d, e, tau allocated (n + 1 each). */
static double *reduce_checked(const char *what, tela_par par, enum kind kind, const double *a0,
                              tela_int n, tela_int lda, bool lower, double **d, double **e,
                              double **tau)
{
    double *f = triangle_input(a0, n, lda, lower);
    *d = sentinels(n + 1);
    *e = sentinels(n + 1);
    *tau = sentinels(n + 1);
    const int info = tela_dsytrd(par, lower ? 'L' : 'U', n, f, lda, *d, *e, *tau);
    if (info != 0)
        fail_msg("%s: info %d", what, info);
    expect_other_untouched(what, f, n, lda, lower);
    expect_sentinels(what, "d", *d, n, n + 1);
    expect_sentinels(what, "e", *e, max_of(n - 1, 0), n + 1);
    expect_sentinels(what, "tau", *tau, max_of(n - 1, 0), n + 1);
    for (tela_int i = 0; i < n; i++) {
        if (memcmp(&f[i + i * lda], &(*d)[i], sizeof(double)) != 0)
            fail_msg("%s: d[%td] = %.17g is not A's diagonal %.17g", what, i, (*d)[i],
                     f[i + i * lda]);
        const double off = i + 1 < n ? (lower ? f[i + 1 + i * lda] : f[i + (i + 1) * lda]) : 0;
        if (i + 1 < n && memcmp(&off, &(*e)[i], sizeof(double)) != 0)
            fail_msg("%s: e[%td] = %.17g is not A's off-diagonal %.17g", what, i, (*e)[i], off);
        if (i + 1 < n && !((*tau)[i] == 0.0 || ((*tau)[i] >= 1.0 && (*tau)[i] <= 2.0)))
            fail_msg("%s: tau[%td] = %g outside {0} and [1, 2]", what, i, (*tau)[i]);
    }
    double dummy[1];
    if (tridiagonal_of(kind, 0, dummy, dummy)) /* already tridiagonal: nothing to do */
        for (tela_int i = 0; i < n; i++) {
            if ((*d)[i] != a0[i + i * n] ||
                (i + 1 < n && ((*e)[i] != a0[i + 1 + i * n] || (*tau)[i] != 0.0)))
                fail_msg("%s: a tridiagonal A changed at %td (d %.17g, e %.17g, tau %g)", what, i,
                         (*d)[i], i + 1 < n ? (*e)[i] : 0.0, i + 1 < n ? (*tau)[i] : 0.0);
        }
    return f;
}

/* Q of the reflectors in f by tela_dorgtr (leading dimension n + 1, padding checked). */
static double *explicit_q(const char *what, tela_par par, const double *f, tela_int n, tela_int lda,
                          bool lower, const double *tau)
{
    const tela_int ldq = n + 1;
    double *q = sentinels(ldq * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            q[i + j * ldq] = f[i + j * lda];
    const int info = tela_dorgtr(par, lower ? 'L' : 'U', n, q, ldq, tau);
    if (info != 0)
        fail_msg("%s: dorgtr info %d", what, info);
    tl_expect_padding(what, q, n, n, ldq);
    return q;
}

static const struct dense_case reduce_cases[] = {
    {K_RANDOM, 0},      {K_RANDOM, 1},   {K_RANDOM, 2},    {K_RANDOM, 3},     {K_RANDOM, 26},
    {K_RANDOM, 57},     {K_RANDOM, 100}, {K_GRADED, 57},   {K_WILKINSON, 41}, {K_GLUED, 63},
    {K_TWO_VALUES, 40}, {K_ZERO, 27},    {K_DIAGONAL, 33}, {K_RANDOM, 200}};
#define REDUCE_CASES     (sizeof reduce_cases / sizeof reduce_cases[0])
#define REDUCE_CASES_RUN (REDUCE_CASES - (TU_SANITIZED ? 1 : 0))

/* dsytrd with both uplo: A = Q T Q^T and Q^T Q = I with Q from dorgtr; for random A, d, e, tau
 * and the reflectors against OpenBLAS's dsytrd (the same algorithm and signs, so equal up to
 * rounding; a graded A's reflectors are too sensitive to rounding to compare). */
static void test_sytrd(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    tl_seed(6);
    for (size_t c = 0; c < REDUCE_CASES_RUN; c++) {
        const enum kind kind = reduce_cases[c].kind;
        const tela_int n = reduce_cases[c].n;
        double *a0 = symmetric_of(kind, n);
        const double anorm = tl_norm1(n, n, a0, max_of(n, 1));
        for (int lower = 0; lower < 2; lower++) {
            const tela_int lda = max_of(1, n + (tela_int)(c % 3));
            const tela_par par = (c + (size_t)lower) % 2 ? tela_par_auto() : tela_par_seq();
            char what[96];
            snprintf(what, sizeof what, "dsytrd uplo %c, %s n = %td lda = %td", lower ? 'L' : 'U',
                     kind_names[kind], n, lda);
            double *d, *e, *tau;
            double *f = reduce_checked(what, par, kind, a0, n, lda, lower, &d, &e, &tau);
            double *q = explicit_q(what, par, f, n, lda, lower, tau);
            expect_below(what, "||A - Q T Q^T|| / (n ||A|| eps)",
                         tridiagonal_ratio(n, a0, q, n + 1, d, e));
            expect_below(what, "||I - Q^T Q|| / (n eps)",
                         orthogonality_ratio(n, n, q, n + 1, NULL, n));
            if (ob && kind == K_RANDOM && n > 0) {
                double *g = triangle_input(a0, n, lda, lower), *od = tl_alloc(n);
                double *oe = tl_alloc(n), *otau = tl_alloc(n);
                assert_int_equal(ob_sytrd(ob, lower ? 'L' : 'U', n, g, lda, od, oe, otau), 0);
                expect_forward(what, "max |d - d_OpenBLAS| / (n ||A|| eps)",
                               tl_ratio(max_difference(n, d, od), anorm, n));
                expect_forward(what, "max |e - e_OpenBLAS| / (n ||A|| eps)",
                               tl_ratio(max_difference(n - 1, e, oe), anorm, n));
                /* reflector j (tau[j] and its vector) is as sensitive as 1 / |e[j]|: the
                 * column it reduces, of norm |e[j]|, is known to n eps ||A|| */
                double worst = 0;
                for (tela_int j = 0; j + 1 < n; j++) {
                    const tela_int col = lower ? j : j + 1;
                    double dv = fabs(tau[j] - otau[j]);
                    for (tela_int i = 0; i < n; i++)
                        if (in_reflectors(lower, i, col))
                            dv += fabs(f[i + col * lda] - g[i + col * lda]);
                    worst = worse(worst, dv * fabs(oe[j]));
                }
                expect_forward(what,
                               "max_j (|tau_j - tau_OpenBLAS| + ||v_j - v_OpenBLAS||) |e_j| / "
                               "(n ||A|| eps)",
                               tl_ratio(worst, anorm, n));
                free(g);
                free(od);
                free(oe);
                free(otau);
            }
            free(q);
            free(f);
            free(d);
            free(e);
            free(tau);
        }
        free(a0);
    }
    printf("dsytrd against OpenBLAS: largest ratio %.3g\n", forward_worst);
}

/* op(Q) C (left) or C op(Q) (right) with q the nq x nq matrix (leading dimension ldq), in long
 * double; into out (leading dimension m). */
static void explicit_product(bool left, bool trans, tela_int m, tela_int n, const double *q,
                             tela_int nq, tela_int ldq, const double *c, tela_int ldc, double *out)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++) {
            long double s = 0;
            for (tela_int p = 0; p < nq; p++) {
                const double qv = left ? (trans ? q[p + i * ldq] : q[i + p * ldq])
                                       : (trans ? q[j + p * ldq] : q[p + j * ldq]);
                s += (long double)qv * (left ? c[p + j * ldc] : c[i + p * ldc]);
            }
            out[i + j * m] = (double)s;
        }
}

/* dormtr for both uplo and the four side/trans against the Q dorgtr forms: ||op(Q) C -
 * Q_explicit C|| / (nq ||C|| eps), C's padding, the reflectors and tau untouched. */
static void test_ormtr(void **state)
{
    (void)state;
    /* nq, the other dimension of C; the last (blocked, 150 x 150) left out under sanitizers */
    static const tela_int cases[][2] = {{0, 3},  {1, 3},    {2, 5},  {5, 4},
                                        {33, 7}, {100, 20}, {64, 1}, {150, 150}};
    const size_t count = sizeof cases / sizeof cases[0] - (TU_SANITIZED ? 1 : 0);
    static const char sides[] = {'L', 'R'}, transes[] = {'N', 'T'};
    tl_seed(6);
    for (size_t c = 0; c < count; c++) {
        const tela_int nq = cases[c][0], other = cases[c][1], lda = nq + 2;
        double *a0 = symmetric_of(K_RANDOM, nq);
        for (int lower = 0; lower < 2; lower++) {
            char what[128];
            snprintf(what, sizeof what, "dormtr uplo %c nq = %td", lower ? 'L' : 'U', nq);
            double *d, *e, *tau;
            double *f =
                reduce_checked(what, tela_par_seq(), K_RANDOM, a0, nq, lda, lower, &d, &e, &tau);
            double *q = explicit_q(what, tela_par_seq(), f, nq, lda, lower, tau);
            double *f_before = tl_copy(f, lda * nq), *tau_before = tl_copy(tau, nq + 1);
            for (int sd = 0; sd < 2; sd++)
                for (int tr = 0; tr < 2; tr++) {
                    const bool left = sides[sd] == 'L', trans = transes[tr] == 'T';
                    const tela_int m = left ? nq : other, n = left ? other : nq, ldc = m + 3;
                    snprintf(what, sizeof what, "dormtr %c%c%c m = %td n = %td", sides[sd],
                             lower ? 'L' : 'U', transes[tr], m, n);
                    double *c0 = tl_random_matrix(m, n, ldc), *cm = tl_copy(c0, ldc * n);
                    const tela_par par = (sd + tr) % 2 ? tela_par_auto() : tela_par_seq();
                    const int info = tela_dormtr(par, sides[sd], lower ? 'L' : 'U', transes[tr], m,
                                                 n, f, lda, tau, cm, ldc);
                    if (info != 0)
                        fail_msg("%s: info %d", what, info);
                    tl_expect_padding(what, cm, m, n, ldc);
                    double *want = tl_alloc(m * n);
                    explicit_product(left, trans, m, n, q, nq, nq + 1, c0, ldc, want);
                    double dnorm = 0;
                    for (tela_int j = 0; j < n; j++) {
                        double s = 0;
                        for (tela_int i = 0; i < m; i++)
                            s += fabs(cm[i + j * ldc] - want[i + j * m]);
                        dnorm = worse(dnorm, s);
                    }
                    expect_below(what, "||op(Q) C - Q_explicit C|| / (nq ||C|| eps)",
                                 tl_ratio(dnorm, tl_norm1(m, n, c0, ldc), nq));
                    free(want);
                    free(c0);
                    free(cm);
                }
            tu_expect_same("dormtr: the reflectors", f, f_before, (size_t)(lda * nq));
            tu_expect_same("dormtr: tau", tau, tau_before, (size_t)(nq + 1));
            free(f_before);
            free(tau_before);
            free(q);
            free(f);
            free(d);
            free(e);
            free(tau);
        }
        free(a0);
    }
}

/* ---- tridiagonal solvers: dsterf, dsteqr, dstedc ------------------------------------------ */

/* The tridiagonal of a case: the kind's own, or random (d and e uniform), graded (d and e
 * falling from 1 to 1e-8 down the diagonal), tiny or huge (random times 2^-600 or 2^600). */
static void tridiagonal_case(enum kind kind, tela_int n, double *d, double *e)
{
    if (tridiagonal_of(kind, n, d, e))
        return;
    const double span = kind == K_GRADED ? 8.0 : 0.0;
    const double scale = kind == K_TINY ? 0x1p-600 : kind == K_HUGE ? 0x1p600 : 1.0;
    for (tela_int i = 0; i < n; i++) {
        d[i] = tl_uniform() * pow(10.0, -span * (double)i / (double)max_of(n, 1)) * scale;
        if (i + 1 < n)
            e[i] =
                tl_uniform() * pow(10.0, -span * ((double)i + 0.5) / (double)max_of(n, 1)) * scale;
    }
}

/* The whole n x n T of (d, e). */
static double *dense_tridiagonal(tela_int n, const double *d, const double *e)
{
    double *t = tl_alloc(n * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < n; i++)
            t[i + j * n] = i == j ? d[i] : i == j + 1 ? e[j] : j == i + 1 ? e[i] : 0.0;
    return t;
}

enum solver { S_STERF, S_STEQR, S_STEDC, SOLVERS };
static const char *const solver_names[SOLVERS] = {"dsterf", "dsteqr", "dstedc"};

/* One solver call with compz (dsterf: 'N' only) on (d0, e0): info 0, the values ascending in d,
 * against OpenBLAS's (w_ob) and exact where e = 0; with 'I' the vectors of T, with 'V' (Z = Q
 * on entry, Q random orthogonal) those of A = Q T Q^T; nothing written past the n - 1 e's or
 * Z's rows. */
static void check_solver(enum solver solver, char compz, tela_par par, enum kind kind, tela_int n,
                         const double *d0, const double *e0, const double *w_ob)
{
    const tela_int ldz = n + 1;
    char what[96];
    snprintf(what, sizeof what, "%s compz %c, %s n = %td", solver_names[solver], compz,
             kind_names[kind], n);
    double *d = sentinels(n + 1), *e = sentinels(n + 1), *z = NULL, *q = NULL, *a0 = NULL;
    memcpy(d, d0, sizeof(double) * (size_t)n);
    if (n > 1)
        memcpy(e, e0, sizeof(double) * (size_t)(n - 1));
    double *t0 = dense_tridiagonal(n, d0, e0);
    if (compz != 'N') {
        z = sentinels(ldz * max_of(n, 1));
        if (compz == 'V') {
            q = random_orthogonal(n);
            for (tela_int j = 0; j < n; j++)
                memcpy(z + j * ldz, q + j * n, sizeof(double) * (size_t)n);
            a0 = tl_alloc(n * n); /* Q T Q^T, in long double and symmetric bit for bit */
            for (tela_int j = 0; j < n; j++)
                for (tela_int i = j; i < n; i++) {
                    long double s = 0;
                    for (tela_int k = 0; k < n; k++) {
                        long double tq = (long double)d0[k] * q[j + k * n];
                        if (k > 0)
                            tq += (long double)e0[k - 1] * q[j + (k - 1) * n];
                        if (k + 1 < n)
                            tq += (long double)e0[k] * q[j + (k + 1) * n];
                        s += (long double)q[i + k * n] * tq;
                    }
                    a0[i + j * n] = a0[j + i * n] = (double)s;
                }
        }
    }
    int info;
    if (solver == S_STERF)
        info = tela_dsterf(par, n, d, e);
    else if (solver == S_STEQR)
        info = tela_dsteqr(par, compz, n, d, e, z, ldz);
    else
        info = tela_dstedc(par, compz, n, d, e, z, ldz);
    if (info != 0)
        fail_msg("%s: info %d", what, info);
    expect_sentinels(what, "d", d, n, n + 1);
    expect_sentinels(what, "e", e, max_of(n - 1, 0), n + 1);
    expect_ascending(what, n, d);
    const double tnorm = tl_norm1(n, n, t0, max_of(n, 1));
    if (exact_kind(kind)) {
        double *want = sorted_diagonal(t0, n);
        expect_exact_values(what, n, d, want);
        free(want);
    }
    if (n == 1 && (d[0] != d0[0] || (compz == 'I' && z[0] != 1.0)))
        fail_msg("%s: d = %.17g, z = %.17g for T = %.17g (exactly T and 1 expected)", what, d[0],
                 compz == 'I' ? z[0] : 1.0, d0[0]);
    if (w_ob)
        check_values(what, n, d, w_ob, tnorm, n, 0.0);
    if (compz != 'N') {
        tl_expect_padding(what, z, n, n, ldz);
        check_vectors(what, n, n, compz == 'V' ? a0 : t0,
                      compz == 'V' ? tl_norm1(n, n, a0, max_of(n, 1)) : tnorm, z, ldz, d);
    }
    free(d);
    free(e);
    free(z);
    free(q);
    free(a0);
    free(t0);
}

static const struct dense_case tridiagonal_cases[] = {
    {K_RANDOM, 0},  {K_RANDOM, 1},    {K_RANDOM, 2},     {K_RANDOM, 3},     {K_RANDOM, 26},
    {K_RANDOM, 57}, {K_RANDOM, 100},  {K_WILKINSON, 21}, {K_WILKINSON, 41}, {K_GLUED, 63},
    {K_GLUED, 105}, {K_IDENTITY, 30}, {K_ZERO, 27},      {K_DIAGONAL, 33},  {K_SPLIT, 100},
    {K_GRADED, 57}, {K_TINY, 30},     {K_HUGE, 31},      {K_RANDOM, 200}};
#define TRIDIAGONAL_CASES     (sizeof tridiagonal_cases / sizeof tridiagonal_cases[0])
#define TRIDIAGONAL_CASES_RUN (TRIDIAGONAL_CASES - (TU_SANITIZED ? 1 : 0))

/* dsterf, dsteqr (compz N, I, V) and dstedc (N, I, V) on every case. */
static void test_tridiagonal(void **state)
{
    (void)state;
    const struct ob_eig *ob = ob_eig();
    tl_seed(7);
    for (size_t c = 0; c < TRIDIAGONAL_CASES_RUN; c++) {
        const enum kind kind = tridiagonal_cases[c].kind;
        const tela_int n = tridiagonal_cases[c].n;
        double *d0 = tl_alloc(n), *e0 = tl_alloc(n);
        tridiagonal_case(kind, n, d0, e0);
        double *t0 = dense_tridiagonal(n, d0, e0), *w_ob = reference_values(ob, t0, n);
        const tela_par par = c % 2 ? tela_par_auto() : tela_par_seq();
        check_solver(S_STERF, 'N', par, kind, n, d0, e0, w_ob);
        for (int s = S_STEQR; s <= S_STEDC; s++)
            for (int cz = 0; cz < 3; cz++)
                check_solver((enum solver)s, "NIV"[cz], par, kind, n, d0, e0, w_ob);
        free(t0);
        free(w_ob);
        free(d0);
        free(e0);
    }
}

/* ---- inverse iteration: dstein -------------------------------------------------------------
 * tela_dstein on every tridiagonal case with dstebz's blocks (split at the zeros of e), all
 * values and every other one, each block's values from tela_dsterf: info 0, ifail all 0, each
 * column zero outside its block, its largest entry positive, LAPACK's residual and
 * orthogonality ratios (the glued Wilkinson cases hold clusters of values within 1e-14 of
 * each other), nothing written past Z's m columns or into its padding; vectors of well
 * separated values against OpenBLAS's dstein; the same bits at widths 1, 2, 8 and 16 with every
 * region split; n = 0, 1, m = 0; every bad argument -i with nothing written. */

typedef void (*ob_stein_fn)(const int *n, const double *d, const double *e, const int *m,
                            const double *w, const int *iblock, const int *isplit, double *z,
                            const int *ldz, double *work, int *iwork, int *ifail, int *info);

/* The blocks of (d, e) split at exact zeros of e, as dstebz would, and m values: every value of
 * each block ascending (step 1) or every other one (step 2). Returns m. */
static tela_int stein_inputs(tela_int n, const double *d, const double *e, tela_int step, double *w,
                             tela_int *iblock, tela_int *isplit)
{
    tela_int m = 0, blocks = 0;
    double *bd = tl_alloc(n), *be = tl_alloc(n);
    for (tela_int first = 0; first < n;) {
        tela_int last = first;
        while (last + 1 < n && e[last] != 0.0)
            last++;
        const tela_int size = last - first + 1;
        memcpy(bd, d + first, sizeof(double) * (size_t)size);
        if (size > 1)
            memcpy(be, e + first, sizeof(double) * (size_t)(size - 1));
        assert_int_equal(tela_dsterf(tela_par_seq(), size, bd, be), 0);
        isplit[blocks++] = last + 1;
        for (tela_int i = (first * 7) % step; i < size; i += step) {
            w[m] = bd[i];
            iblock[m++] = blocks;
        }
        first = last + 1;
    }
    free(bd);
    free(be);
    return m;
}

/* One tela_dstein call on (d, e) checked; z (ldz = n + 1, m columns) returned for comparison. */
static double *check_stein(const char *what, tela_par par, tela_int n, const double *d,
                           const double *e, tela_int m, const double *w, const tela_int *iblock,
                           const tela_int *isplit)
{
    const tela_int ldz = n + 1;
    double *z = sentinels(ldz * (m + 1));
    tela_int *ifail = tl_alloc_ipiv(m + 1);
    for (tela_int j = 0; j <= m; j++)
        ifail[j] = -1;
    const int info = tela_dstein(par, n, d, e, m, w, iblock, isplit, z, ldz, ifail);
    if (info != 0)
        fail_msg("%s: info %d", what, info);
    for (tela_int j = 0; j < m; j++)
        if (ifail[j] != 0)
            fail_msg("%s: ifail[%td] = %td", what, j, ifail[j]);
    if (ifail[m] != -1)
        fail_msg("%s: ifail[m] was written", what);
    expect_sentinels(what, "z past its m columns", z, ldz * m, ldz * (m + 1));
    tl_expect_padding(what, z, n, m, ldz);
    for (tela_int j = 0; j < m; j++) {
        const tela_int b = iblock[j], from = b > 1 ? isplit[b - 2] : 0, to = isplit[b - 1];
        const double *col = z + j * ldz;
        tela_int at = from;
        for (tela_int i = 0; i < n; i++) {
            if ((i < from || i >= to) && col[i] != 0.0)
                fail_msg("%s: z[%td, %td] = %g outside block %td", what, i, j, col[i], b);
            if (fabs(col[i]) > fabs(col[at]))
                at = i;
        }
        if (!(col[at] > 0.0))
            fail_msg("%s: column %td's largest entry %g is not positive", what, j, col[at]);
    }
    double *t0 = dense_tridiagonal(n, d, e);
    check_vectors(what, n, m, t0, tl_norm1(n, n, t0, max_of(n, 1)), z, ldz, w);
    free(t0);
    free(ifail);
    return z;
}

/* Columns of values at least 1e-3 ||T|| from the other values of their block (w holds them
 * all) against OpenBLAS's dstein: the same vector up to the error eps ||T|| / gap both carry. */
static void stein_against_openblas(const char *what, tela_int n, const double *d, const double *e,
                                   tela_int m, const double *w, const tela_int *iblock,
                                   const tela_int *isplit, const double *z)
{
    const struct tl_openblas *ob = tl_openblas();
    static ob_stein_fn stein;
    if (!ob || !tl_symbol(ob->handle, "dstein_", &stein))
        return;
    const int in = (int)n, im = (int)m, ildz = (int)max_of(n, 1);
    int *ib = calloc((size_t)max_of(m, 1), sizeof(int)),
        *is = calloc((size_t)max_of(n, 1), sizeof(int));
    int *iwork = calloc((size_t)max_of(n, 1), sizeof(int)),
        *ifail = calloc((size_t)max_of(m, 1), sizeof(int));
    for (tela_int j = 0; j < m; j++)
        ib[j] = (int)iblock[j];
    for (tela_int b = 0; b < iblock[m - 1]; b++)
        is[b] = (int)isplit[b];
    double *zo = tl_alloc(max_of(n, 1) * m), *work = tl_alloc(5 * max_of(n, 1));
    int info = 0;
    stein(&in, d, e, &im, w, ib, is, zo, &ildz, work, iwork, ifail, &info);
    assert_int_equal(info, 0);
    double *t0 = dense_tridiagonal(n, d, e);
    const double tnorm = tl_norm1(n, n, t0, max_of(n, 1));
    /* Reference dstein overflows past ||T|| ~ 2^510 (NaN vectors, info 0): nothing to compare. */
    for (tela_int j = 0; tnorm < 0x1p500 && j < m; j++) {
        double gap = INFINITY;
        for (tela_int k = 0; k < m; k++)
            if (k != j && iblock[k] == iblock[j])
                gap = fmin(gap, fabs(w[k] - w[j]));
        if (gap < 1e-3 * tnorm)
            continue;
        double diff = 0.0;
        for (tela_int i = 0; i < n; i++) {
            const double x = fabs(z[i + j * (n + 1)] - zo[i + j * max_of(n, 1)]);
            diff = x > diff || x != x ? x : diff;
        }
        /* T = 0: unit vectors, exactly. */
        const double bound =
            tnorm > 0.0 ? 100.0 * (double)n * DBL_EPSILON * tnorm / fmin(gap, tnorm) : 0.0;
        if (!(diff <= bound))
            fail_msg("%s: column %td differs from OpenBLAS's by %g (gap %g)", what, j, diff, gap);
    }
    free(t0);
    free(zo);
    free(work);
    free(ib);
    free(is);
    free(iwork);
    free(ifail);
}

static void stein_bad_arguments(void)
{
    const tela_int n = 4, ldz = 4;
    double d[4] = {1, 2, 3, 4}, e[3] = {0.5, 0.5, 0.5}, w[2] = {1.5, 2.5};
    tela_int iblock[2] = {1, 1}, isplit[1] = {4};
    const double bad_w[2] = {2.5, 1.5};
    const tela_int bad_block[2] = {1, 0}, far_block[2] = {1, 5}, bad_split[1] = {5};
    const struct {
        tela_int n, m, ldz;
        const double *d, *e, *w;
        const tela_int *iblock, *isplit;
        bool z;
        int want;
    } cases[] = {
        {-1, 2, ldz, d, e, w, iblock, isplit, true, -1},
        {n, -1, ldz, d, e, w, iblock, isplit, true, -4},
        {n, 5, ldz, d, e, w, iblock, isplit, true, -4},
        {n, 2, 3, d, e, w, iblock, isplit, true, -9},
        {n, 2, ldz, d, e, bad_w, iblock, isplit, true, -5},
        {n, 2, ldz, d, e, w, bad_block, isplit, true, -6},
        {n, 2, ldz, d, e, w, far_block, isplit, true, -6},
        {n, 2, ldz, d, e, w, iblock, bad_split, true, -7},
        {n, 2, ldz, NULL, e, w, iblock, isplit, true, -2},
        {n, 2, ldz, d, NULL, w, iblock, isplit, true, -3},
        {n, 2, ldz, d, e, NULL, iblock, isplit, true, -5},
        {n, 2, ldz, d, e, w, NULL, isplit, true, -6},
        {n, 2, ldz, d, e, w, iblock, NULL, true, -7},
        {n, 2, ldz, d, e, w, iblock, isplit, false, -8},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double *z = sentinels(ldz * 2);
        tela_int ifail[2] = {-1, -1};
        const int info = tela_dstein(tela_par_seq(), cases[c].n, cases[c].d, cases[c].e, cases[c].m,
                                     cases[c].w, cases[c].iblock, cases[c].isplit,
                                     cases[c].z ? z : NULL, cases[c].ldz, ifail);
        char what[64];
        snprintf(what, sizeof what, "tela_dstein bad argument case %zu", c);
        if (info != cases[c].want)
            fail_msg("%s: info %d, want %d", what, info, cases[c].want);
        expect_sentinels(what, "z", z, 0, ldz * 2);
        if (ifail[0] != -1 || ifail[1] != -1)
            fail_msg("%s: ifail written", what);
        free(z);
    }
    /* n = 0, m = 0: nothing to do, nothing written; n = 1: z = 1. */
    double z1[2] = {tl_sentinel(), tl_sentinel()};
    tela_int one = 1, ifail = -1;
    assert_int_equal(tela_dstein(tela_par_seq(), 0, d, e, 0, w, iblock, isplit, z1, 1, &ifail), 0);
    assert_int_equal(tela_dstein(tela_par_seq(), n, d, e, 0, w, iblock, isplit, z1, n, &ifail), 0);
    assert_true(tl_is_sentinel(&z1[0]) && ifail == -1);
    const double w1 = 1.0;
    assert_int_equal(tela_dstein(tela_par_seq(), 1, d, e, 1, &w1, &one, &one, z1, 1, &ifail), 0);
    assert_true(z1[0] == 1.0 && ifail == 0 && tl_is_sentinel(&z1[1]));
}

static void test_stein(void **state)
{
    (void)state;
    tl_seed(11);
    for (size_t c = 0; c < TRIDIAGONAL_CASES_RUN; c++) {
        const enum kind kind = tridiagonal_cases[c].kind;
        const tela_int n = tridiagonal_cases[c].n;
        if (n == 0)
            continue;
        double *d = tl_alloc(n), *e = tl_alloc(n), *w = tl_alloc(n);
        tela_int *iblock = tl_alloc_ipiv(n), *isplit = tl_alloc_ipiv(n);
        tridiagonal_case(kind, n, d, e);
        for (tela_int step = 1; step <= 2; step++) {
            const tela_int m = stein_inputs(n, d, e, step, w, iblock, isplit);
            if (m == 0)
                continue;
            char what[96];
            snprintf(what, sizeof what, "tela_dstein %s n = %td, m = %td", kind_names[kind], n, m);
            const tela_par par = c % 2 ? tela_par_auto() : tela_par_seq();
            double *z = check_stein(what, par, n, d, e, m, w, iblock, isplit);
            if (step == 1) /* the gaps are to every value */
                stein_against_openblas(what, n, d, e, m, w, iblock, isplit, z);
            free(z);
        }
        free(d);
        free(e);
        free(w);
        free(iblock);
        free(isplit);
    }
    /* Widths: the glued Wilkinson matrix's clusters spread over members, every region split. */
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    const tela_int n = 105;
    double *d = tl_alloc(n), *e = tl_alloc(n), *w = tl_alloc(n), *serial = NULL;
    tela_int *iblock = tl_alloc_ipiv(n), *isplit = tl_alloc_ipiv(n);
    tridiagonal_case(K_GLUED, n, d, e);
    const tela_int m = stein_inputs(n, d, e, 1, w, iblock, isplit);
    static const int widths[] = {1, 2, 8, 16};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        tela_pool *pool = tu_pool_of_width(widths[k]);
        assert_non_null(pool);
        tela_team *team = tela_team_acquire(pool, widths[k]);
        assert_non_null(team);
        char what[64];
        snprintf(what, sizeof what, "tela_dstein glued n = %td at width %d", n, widths[k]);
        double *z = check_stein(what, tela_par_team(team), n, d, e, m, w, iblock, isplit);
        assert_int_equal(tela_team_release(team), 0);
        tela_pool_destroy(pool);
        if (!serial)
            serial = z;
        else {
            if (memcmp(z, serial, sizeof(double) * (size_t)((n + 1) * m)) != 0)
                fail_msg("%s: not the serial bits", what);
            free(z);
        }
    }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    free(serial);
    free(d);
    free(e);
    free(w);
    free(iblock);
    free(isplit);
    stein_bad_arguments();
}

/* ---- the two-stage reduction ----------------------------------------------------------------
 * The values-only drivers reduce by two stages from order 800 (src/eig/reduce.c): dsyevd, dsyev
 * and dsyevr (range A and I) with jobz N on both triangles against OpenBLAS's values, nothing
 * outside the triangle written, and dsyevd's values the same bits at widths 1, 2 and 16 with
 * every region split. Release only: sanitizer runs keep to orders of about 300. */
static void test_two_stage(void **state)
{
    (void)state;
    if (TU_SANITIZED) {
        printf("two-stage reduction (order 801) not run under sanitizers\n");
        return;
    }
    const struct ob_eig *ob = ob_eig();
    const tela_int n = 801, lda = n + 1, il = n / 2 + 1, iu = il + n / 10 - 1;
    tl_seed(12);
    double *a0 = symmetric_of(K_RANDOM, n), *w_ob = reference_values(ob, a0, n);
    const double anorm = tl_norm1(n, n, a0, n);
    double *w = sentinels(n + 1), *w_seq = tl_alloc(n), z[1];
    tela_int isuppz[2], m = 0;
    for (int lower = 0; lower < 2; lower++)
        for (int call = 0; call < 4; call++) {
            char what[96];
            snprintf(what, sizeof what, "%s jobz N uplo %c n = %td (two stages)",
                     call < 2    ? driver_names[call]
                     : call == 2 ? "dsyevr A"
                                 : "dsyevr I",
                     lower ? 'L' : 'U', n);
            double *a = triangle_input(a0, n, lda, lower);
            const char uplo = lower ? 'L' : 'U';
            const tela_par par = call % 2 ? tela_par_auto() : tela_par_seq();
            int info;
            m = n;
            if (call == 0)
                info = tela_dsyevd(par, 'N', uplo, n, a, lda, w);
            else if (call == 1)
                info = tela_dsyev(par, 'N', uplo, n, a, lda, w);
            else
                info = tela_dsyevr(par, 'N', call == 2 ? 'A' : 'I', uplo, n, a, lda, 0, 0, il, iu,
                                   0.0, &m, w, z, 1, isuppz);
            if (info != 0 || m != (call == 3 ? iu - il + 1 : n))
                fail_msg("%s: info %d, m = %td", what, info, m);
            expect_other_untouched(what, a, n, lda, lower);
            expect_ascending(what, m, w);
            if (w_ob)
                check_values(what, m, w, w_ob + (call == 3 ? il - 1 : 0), anorm, n, 0.0);
            free(a);
        }
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    static const int widths[] = {1, 2, 16};
    for (int lower = 0; lower < 2; lower++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            tela_pool *pool = tu_pool_of_width(widths[k]);
            assert_non_null(pool);
            tela_team *team = tela_team_acquire(pool, widths[k]);
            assert_non_null(team);
            double *a = triangle_input(a0, n, lda, lower);
            const long before = tu_stats().region_wakeups;
            const int info = tela_dsyevd(tela_par_team(team), 'N', lower ? 'L' : 'U', n, a, lda, w);
            const long woke = tu_stats().region_wakeups - before;
            assert_int_equal(tela_team_release(team), 0);
            tela_pool_destroy(pool);
            free(a);
            if (info != 0)
                fail_msg("dsyevd N uplo %c n = %td width %d: info %d", lower ? 'L' : 'U', n,
                         widths[k], info);
            if (widths[k] > 1 && woke == 0)
                fail_msg("dsyevd N uplo %c n = %td width %d: no worker took part",
                         lower ? 'L' : 'U', n, widths[k]);
            if (k == 0)
                memcpy(w_seq, w, sizeof(double) * (size_t)n);
            else if (memcmp(w, w_seq, sizeof(double) * (size_t)n) != 0)
                fail_msg("dsyevd N uplo %c n = %td width %d: not the bits of width 1",
                         lower ? 'L' : 'U', n, widths[k]);
        }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    free(a0);
    free(w_ob);
    free(w);
    free(w_seq);
}

/* ---- dsteqr's rows on members ----------------------------------------------------------------
 * dsteqr splits Z's rows among members only from order 1024 (shares of at least 512 rows: below,
 * the scalar iteration every member repeats costs more than the rows it saves), past what the
 * other width tests reach: at order 1100 its vectors and values are the same bits at widths 1
 * and 2, with the region split. Release only. */
static void test_steqr_rows(void **state)
{
    (void)state;
    if (TU_SANITIZED) {
        printf("dsteqr's row shares (order 1100) not run under sanitizers\n");
        return;
    }
    const tela_int n = 1100;
    tl_seed(14);
    double *d0 = tl_alloc(n), *e0 = tl_alloc(n);
    tridiagonal_case(K_RANDOM, n, d0, e0);
    double *z[2], *d[2];
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    for (int k = 0; k < 2; k++) {
        tela_pool *pool = tu_pool_of_width(k + 1);
        assert_non_null(pool);
        tela_team *team = tela_team_acquire(pool, k + 1);
        assert_non_null(team);
        d[k] = tl_copy(d0, n);
        double *e = tl_copy(e0, n);
        z[k] = tl_alloc(n * n);
        const long before = tu_stats().region_wakeups;
        const int info = tela_dsteqr(tela_par_team(team), 'I', n, d[k], e, z[k], n);
        const long woke = tu_stats().region_wakeups - before;
        assert_int_equal(tela_team_release(team), 0);
        tela_pool_destroy(pool);
        free(e);
        if (info != 0)
            fail_msg("dsteqr I n = %td width %d: info %d", n, k + 1, info);
        if (k == 1 && woke == 0)
            fail_msg("dsteqr I n = %td width 2: no worker took part", n);
    }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
    if (memcmp(d[0], d[1], sizeof(double) * (size_t)n) != 0 ||
        memcmp(z[0], z[1], sizeof(double) * (size_t)n * (size_t)n) != 0)
        fail_msg("dsteqr I n = %td width 2: not the bits of width 1", n);
    for (int k = 0; k < 2; k++) {
        free(d[k]);
        free(z[k]);
    }
    free(d0);
    free(e0);
}

/* ---- NaN -------------------------------------------------------------------------------------
 * A NaN in A (or in d or e): every routine returns, and says so: info > 0, or a NaN among the
 * values it gives (Reference-LAPACK #1403: dstedc dropped a NaN in blocks past 25). A routine
 * that hangs is stopped by the alarm, naming the case. */

static char nan_case[160];

static void nan_alarm(int sig)
{
    (void)sig;
    static const char head[] = "test_eig: hung on a NaN case: ";
    /* Best effort from a signal handler: a failed write has nowhere else to go. */
    if (write(2, head, sizeof head - 1) < 0 || write(2, nan_case, strlen(nan_case)) < 0 ||
        write(2, "\n", 1) < 0)
        return;
    _exit(1);
}

static void expect_nan_seen(int info, tela_int m, const double *w)
{
    if (info < 0 || (info == 0 && !has_nan(m, 1, w, max_of(m, 1))))
        fail_msg("%s: info %d and %td values, none NaN", nan_case, info, m);
}

static void test_nan(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[2] = {tela_par_seq(), tela_par_team(team)};
    signal(SIGALRM, nan_alarm);
    static const tela_int sizes[] = {5, 40, 100};
    tl_seed(8);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const tela_int n = sizes[s], places[3][2] = {{0, 0}, {n / 2, n / 3}, {n - 1, n - 1}};
        double *b0 = spd_of(n), *w = tl_alloc(n), *z = tl_alloc(n * n);
        tela_int *isuppz = tl_alloc_ipiv(2 * n);
        for (int p = 0; p < 3; p++)
            for (int wd = 0; wd < 2; wd++) {
                const tela_int i0 = places[p][0], j0 = places[p][1];
                const char uplo = (p + wd) % 2 ? 'L' : 'U';
                double *a0 = symmetric_of(K_RANDOM, n);
                a0[i0 + j0 * n] = a0[j0 + i0 * n] = NAN;
                for (int call = 0; call < 8; call++) {
                    snprintf(nan_case, sizeof nan_case,
                             "n = %td NaN at (%td, %td) uplo %c width %d, call %d", n, i0, j0, uplo,
                             wd + 1, call);
                    double *a = tl_copy(a0, n * n), *b = tl_copy(b0, n * n);
                    tela_int m = n;
                    alarm(120);
                    int info;
                    switch (call) {
                    case 0:
                        info = tela_dsyevd(pars[wd], 'N', uplo, n, a, n, w);
                        break;
                    case 1:
                        info = tela_dsyevd(pars[wd], 'V', uplo, n, a, n, w);
                        break;
                    case 2:
                        info = tela_dsyev(pars[wd], 'N', uplo, n, a, n, w);
                        break;
                    case 3:
                        info = tela_dsyev(pars[wd], 'V', uplo, n, a, n, w);
                        break;
                    case 4:
                        info = tela_dsyevr(pars[wd], 'V', 'A', uplo, n, a, n, 0, 0, 0, 0, 0.0, &m,
                                           w, z, n, isuppz);
                        break;
                    case 5:
                        info = tela_dsyevr(pars[wd], 'V', 'I', uplo, n, a, n, 0, 0, 1,
                                           max_of(1, n / 10), 0.0, &m, w, z, n, isuppz);
                        break;
                    case 6:
                        info = tela_dsyevr(pars[wd], 'N', 'V', uplo, n, a, n, -1.0, 1.0, 0, 0, 0.0,
                                           &m, w, z, n, isuppz);
                        break;
                    default:
                        info = tela_dsygvd(pars[wd], 1, 'V', uplo, n, a, n, b, n, w);
                        break;
                    }
                    alarm(0);
                    expect_nan_seen(info, m, w);
                    free(a);
                    free(b);
                }
                free(a0);
            }
        /* the tridiagonal solvers: a NaN in d, or in e, early, in the middle, past 25 */
        for (int p = 0; p < 4; p++)
            for (int wd = 0; wd < 2; wd++) {
                double *d0 = tl_alloc(n), *e0 = tl_alloc(n);
                tridiagonal_case(K_RANDOM, n, d0, e0);
                const tela_int at = p == 0 ? 0 : p == 1 ? n / 2 : p == 2 ? (60 % (n - 1)) : n - 2;
                if (p % 2)
                    d0[at] = NAN;
                else
                    e0[at] = NAN;
                for (int call = 0; call < 6; call++) {
                    snprintf(nan_case, sizeof nan_case,
                             "tridiagonal n = %td NaN in %c[%td] width %d, %s compz %c", n,
                             p % 2 ? 'd' : 'e', at, wd + 1,
                             call == 0  ? "dsterf"
                             : call < 3 ? "dsteqr"
                                        : "dstedc",
                             call == 0 ? 'N' : "NINIV"[call - 1]);
                    double *d = tl_copy(d0, n), *e = tl_copy(e0, n);
                    for (tela_int i = 0; i < n * n; i++) /* Q = I for compz V */
                        z[i] = i % (n + 1) == 0 ? 1.0 : 0.0;
                    alarm(120);
                    int info;
                    if (call == 0)
                        info = tela_dsterf(pars[wd], n, d, e);
                    else if (call < 3)
                        info = tela_dsteqr(pars[wd], "NI"[call - 1], n, d, e, z, n);
                    else
                        info = tela_dstedc(pars[wd], "NIV"[call - 3], n, d, e, z, n);
                    alarm(0);
                    expect_nan_seen(info, n, d);
                    free(d);
                    free(e);
                }
                free(d0);
                free(e0);
            }
        free(b0);
        free(w);
        free(z);
        free(isuppz);
    }
    signal(SIGALRM, SIG_DFL);
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* ---- bad arguments ----------------------------------------------------------------------------
 * The numbers tela.h gives (LAPACK's without the workspace), the first bad one in LAPACK's
 * order; nothing written to any output. n = 0 with valid arguments: 0 and nothing written
 * (dsyevr sets m = 0). */

#define BAD_LEN 64
static double bad_a[BAD_LEN], bad_b[BAD_LEN], bad_w[BAD_LEN], bad_e[BAD_LEN], bad_tau[BAD_LEN];
static double bad_z[BAD_LEN];
static tela_int bad_isuppz[BAD_LEN], bad_m;

static void bad_fill(void)
{
    for (int i = 0; i < BAD_LEN; i++) {
        bad_a[i] = 1234.5 + i;
        bad_b[i] = 2234.5 + i;
        bad_w[i] = 3234.5 + i;
        bad_e[i] = 4234.5 + i;
        bad_tau[i] = 5234.5 + i;
        bad_z[i] = 6234.5 + i;
        bad_isuppz[i] = 7000 + i;
    }
    bad_m = -99;
}

static void bad_expect(const char *call, int got, int want, tela_int want_m)
{
    if (got != want)
        fail_msg("%s returned %d, expected %d", call, got, want);
    for (int i = 0; i < BAD_LEN; i++)
        if (bad_a[i] != 1234.5 + i || bad_b[i] != 2234.5 + i || bad_w[i] != 3234.5 + i ||
            bad_e[i] != 4234.5 + i || bad_tau[i] != 5234.5 + i || bad_z[i] != 6234.5 + i ||
            bad_isuppz[i] != 7000 + i)
            fail_msg("%s wrote element %d of an output", call, i);
    if (bad_m != want_m)
        fail_msg("%s: m = %td, expected %td", call, bad_m, want_m);
}

#define BAD_M(call, want, want_m)                                                                  \
    do {                                                                                           \
        bad_fill();                                                                                \
        const int got_ = (call);                                                                   \
        bad_expect(#call, got_, (want), (want_m));                                                 \
    } while (0)
#define BAD(call, want) BAD_M(call, want, -99)

static void test_bad_arguments(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[3] = {tela_par_seq(), tela_par_auto(), tela_par_team(team)};
    double *const A = bad_a, *const B = bad_b, *const W = bad_w, *const E = bad_e;
    double *const T = bad_tau, *const Z = bad_z;
    tela_int *const S = bad_isuppz, *const M = &bad_m;
    for (int w = 0; w < 3; w++) {
        const tela_par p = pars[w];
        /* dsytrd, dorgtr: uplo 1, n 2, lda 4 */
        BAD(tela_dsytrd(p, 'X', 2, A, 2, W, E, T), -1);
        BAD(tela_dsytrd(p, 'x', -1, A, 0, W, E, T), -1);
        BAD(tela_dsytrd(p, 'L', -1, A, 1, W, E, T), -2);
        BAD(tela_dsytrd(p, 'U', 3, A, 2, W, E, T), -4);
        BAD(tela_dsytrd(p, 'l', 0, A, 0, W, E, T), -4);
        BAD(tela_dsytrd(p, 'u', 0, A, 1, W, E, T), 0);
        BAD(tela_dorgtr(p, 'N', 2, A, 2, T), -1);
        BAD(tela_dorgtr(p, 'U', -1, A, 1, T), -2);
        BAD(tela_dorgtr(p, 'L', 3, A, 2, T), -4);
        BAD(tela_dorgtr(p, 'L', 0, A, 1, T), 0);
        /* dormtr: side 1, uplo 2, trans 3 ('N' or 'T'), m 4, n 5, lda 7 (>= max(1, m) for 'L',
         * n for 'R'), ldc 10 (>= max(1, m)) */
        BAD(tela_dormtr(p, 'X', 'L', 'N', 2, 2, A, 2, T, Z, 2), -1);
        BAD(tela_dormtr(p, 'X', 'X', 'X', -1, 2, A, 2, T, Z, 2), -1);
        BAD(tela_dormtr(p, 'L', 'X', 'N', 2, 2, A, 2, T, Z, 2), -2);
        BAD(tela_dormtr(p, 'L', 'L', 'C', 2, 2, A, 2, T, Z, 2), -3);
        BAD(tela_dormtr(p, 'r', 'u', 'x', 2, 2, A, 2, T, Z, 2), -3);
        BAD(tela_dormtr(p, 'L', 'U', 'N', -1, 2, A, 1, T, Z, 1), -4);
        BAD(tela_dormtr(p, 'R', 'L', 'T', 2, -1, A, 2, T, Z, 2), -5);
        BAD(tela_dormtr(p, 'L', 'L', 'N', 3, 2, A, 2, T, Z, 3), -7);
        BAD(tela_dormtr(p, 'R', 'U', 'N', 1, 3, A, 2, T, Z, 1), -7);
        BAD(tela_dormtr(p, 'R', 'U', 'T', 3, 1, A, 0, T, Z, 3), -7);
        BAD(tela_dormtr(p, 'L', 'L', 'N', 3, 2, A, 3, T, Z, 2), -10);
        BAD(tela_dormtr(p, 'R', 'L', 'T', 0, 2, A, 2, T, Z, 0), -10);
        BAD(tela_dormtr(p, 'L', 'L', 'N', 0, 2, A, 1, T, Z, 1), 0);
        BAD(tela_dormtr(p, 'R', 'U', 'T', 2, 0, A, 1, T, Z, 2), 0);
        /* dsterf: n 1; dsteqr, dstedc: compz 1 ('N', 'I', 'V'), n 2, ldz 6 (>= 1, and
         * >= max(1, n) with vectors) */
        BAD(tela_dsterf(p, -1, W, E), -1);
        BAD(tela_dsterf(p, 0, W, E), 0);
        int (*const solve[2])(tela_par, char, tela_int, double *, double *, double *,
                              tela_int) = {tela_dsteqr, tela_dstedc};
        for (int s = 0; s < 2; s++) {
            BAD(solve[s](p, 'X', 2, W, E, Z, 2), -1);
            BAD(solve[s](p, 'X', -1, W, E, Z, 0), -1);
            BAD(solve[s](p, 'I', -1, W, E, Z, 1), -2);
            BAD(solve[s](p, 'N', 2, W, E, Z, 0), -6);
            BAD(solve[s](p, 'I', 3, W, E, Z, 2), -6);
            BAD(solve[s](p, 'v', 3, W, E, Z, 2), -6);
            BAD(solve[s](p, 'i', 0, W, E, Z, 0), -6);
            BAD(solve[s](p, 'V', 0, W, E, Z, 1), 0);
        }
        /* dsyevd, dsyev: jobz 1, uplo 2, n 3, lda 5 */
        int (*const drive[2])(tela_par, char, char, tela_int, double *, tela_int,
                              double *) = {tela_dsyevd, tela_dsyev};
        for (int f = 0; f < 2; f++) {
            BAD(drive[f](p, 'X', 'L', 2, A, 2, W), -1);
            BAD(drive[f](p, 'A', 'X', -1, A, 0, W), -1);
            BAD(drive[f](p, 'V', 'X', 2, A, 2, W), -2);
            BAD(drive[f](p, 'n', 'u', -1, A, 1, W), -3);
            BAD(drive[f](p, 'N', 'L', 3, A, 2, W), -5);
            BAD(drive[f](p, 'v', 'l', 0, A, 0, W), -5);
            BAD(drive[f](p, 'V', 'U', 0, A, 1, W), 0);
        }
        /* dsyevr: jobz 1, range 2, uplo 3, n 4, lda 6, vl/vu 8 (vu <= vl with range V, n > 0),
         * il 9 (1 <= il <= max(1, n)), iu 10 (min(n, il) <= iu <= n), ldz 15 (>= 1, and
         * >= n with vectors) */
        BAD(tela_dsyevr(p, 'X', 'A', 'L', 2, A, 2, 0, 0, 0, 0, 0, M, W, Z, 2, S), -1);
        BAD(tela_dsyevr(p, 'V', 'X', 'L', 2, A, 2, 0, 0, 0, 0, 0, M, W, Z, 2, S), -2);
        BAD(tela_dsyevr(p, 'V', 'A', 'X', 2, A, 2, 0, 0, 0, 0, 0, M, W, Z, 2, S), -3);
        BAD(tela_dsyevr(p, 'V', 'A', 'L', -1, A, 1, 0, 0, 0, 0, 0, M, W, Z, 1, S), -4);
        BAD(tela_dsyevr(p, 'V', 'A', 'U', 3, A, 2, 0, 0, 0, 0, 0, M, W, Z, 3, S), -6);
        BAD(tela_dsyevr(p, 'N', 'V', 'U', 2, A, 2, 1.0, 1.0, 0, 0, 0, M, W, Z, 1, S), -8);
        BAD(tela_dsyevr(p, 'N', 'V', 'U', 2, A, 2, 2.0, 1.0, 0, 0, 0, M, W, Z, 1, S), -8);
        BAD(tela_dsyevr(p, 'V', 'I', 'L', 3, A, 3, 0, 0, 0, 1, 0, M, W, Z, 3, S), -9);
        BAD(tela_dsyevr(p, 'V', 'I', 'L', 3, A, 3, 0, 0, 4, 4, 0, M, W, Z, 3, S), -9);
        BAD(tela_dsyevr(p, 'V', 'I', 'L', 0, A, 1, 0, 0, 2, 0, 0, M, W, Z, 1, S), -9);
        BAD(tela_dsyevr(p, 'V', 'I', 'L', 3, A, 3, 0, 0, 2, 1, 0, M, W, Z, 3, S), -10);
        BAD(tela_dsyevr(p, 'V', 'I', 'L', 3, A, 3, 0, 0, 2, 4, 0, M, W, Z, 3, S), -10);
        BAD(tela_dsyevr(p, 'V', 'A', 'L', 3, A, 3, 0, 0, 0, 0, 0, M, W, Z, 2, S), -15);
        BAD(tela_dsyevr(p, 'N', 'A', 'L', 3, A, 3, 0, 0, 0, 0, 0, M, W, Z, 0, S), -15);
        BAD_M(tela_dsyevr(p, 'V', 'A', 'L', 0, A, 1, 0, 0, 0, 0, 0, M, W, Z, 1, S), 0, 0);
        BAD_M(tela_dsyevr(p, 'V', 'V', 'U', 0, A, 1, 1.0, 1.0, 0, 0, 0, M, W, Z, 1, S), 0, 0);
        BAD_M(tela_dsyevr(p, 'N', 'I', 'L', 0, A, 1, 0, 0, 1, 0, 0, M, W, Z, 1, S), 0, 0);
        /* dsygvd: itype 1 (1, 2, 3), jobz 2, uplo 3, n 4, lda 6, ldb 8 */
        BAD(tela_dsygvd(p, 0, 'V', 'L', 2, A, 2, B, 2, W), -1);
        BAD(tela_dsygvd(p, 4, 'X', 'X', -1, A, 0, B, 0, W), -1);
        BAD(tela_dsygvd(p, 1, 'X', 'L', 2, A, 2, B, 2, W), -2);
        BAD(tela_dsygvd(p, 2, 'N', 'X', 2, A, 2, B, 2, W), -3);
        BAD(tela_dsygvd(p, 3, 'V', 'U', -1, A, 1, B, 1, W), -4);
        BAD(tela_dsygvd(p, 1, 'V', 'U', 3, A, 2, B, 3, W), -6);
        BAD(tela_dsygvd(p, 1, 'N', 'L', 3, A, 3, B, 2, W), -8);
        BAD(tela_dsygvd(p, 2, 'v', 'l', 0, A, 1, B, 0, W), -8);
        BAD(tela_dsygvd(p, 3, 'V', 'L', 0, A, 1, B, 1, W), 0);
        /* dsygst: itype 1, uplo 2, n 3, lda 5, ldb 7 */
        BAD(tela_dsygst(p, 0, 'L', 2, A, 2, B, 2), -1);
        BAD(tela_dsygst(p, 1, 'X', 2, A, 2, B, 2), -2);
        BAD(tela_dsygst(p, 2, 'U', -1, A, 1, B, 1), -3);
        BAD(tela_dsygst(p, 3, 'L', 3, A, 2, B, 3), -5);
        BAD(tela_dsygst(p, 1, 'U', 3, A, 3, B, 2), -7);
        BAD(tela_dsygst(p, 1, 'U', 0, A, 1, B, 1), 0);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
}

/* ---- the same bits at every width, from concurrent callers and inside a region --------------
 * One job runs on an n x n symmetric A: dsyevd V (Z and w) and N (w), dsytrd L and U (A, d, e,
 * tau), dsyevr range I over 10% of the spectrum with vectors (w, Z, m), dstedc I on a random
 * tridiagonal (d, Z), dsygvd itype 1 V with an SPD B (Z, w, B's factor). The slots past
 * JOB_COMPARED are what dsyevr, dstedc and dsyevd N destroy: filled before each run, not
 * compared. */
enum job_slot {
    J_SYEVD_Z,
    J_SYEVD_W,
    J_TRD_L_A,
    J_TRD_L_D,
    J_TRD_L_E,
    J_TRD_L_TAU,
    J_TRD_U_A,
    J_TRD_U_D,
    J_TRD_U_E,
    J_TRD_U_TAU,
    J_SYEVR_W,
    J_SYEVR_Z,
    J_SYEVR_M,
    J_STEDC_D,
    J_STEDC_Z,
    J_SYEVD_N_W,
    J_SYGVD_Z,
    J_SYGVD_W,
    J_SYGVD_B,
    JOB_COMPARED,
    J_SYEVR_A = JOB_COMPARED,
    J_STEDC_E,
    J_SYEVD_N_A,
    JOB_OUTPUTS
};
#define JOB_CALLS 7

struct eig_job {
    tela_int n;
    double *in[JOB_OUTPUTS];     /* each output's initial content (NULL: filled by the job) */
    double *out[2][JOB_OUTPUTS]; /* [0] the serial result, [1] the one compared */
    tela_int len[JOB_OUTPUTS];
    tela_int *isuppz[2];  /* dsyevr's isuppz (not computed for a subset: not compared) */
    int info[JOB_CALLS];  /* what each call of the last run returned */
    long woke[JOB_CALLS]; /* regions workers ran during each call (of any caller) */
};

static const char *const job_names[JOB_COMPARED] = {
    "dsyevd Z",     "dsyevd w",   "dsytrd L A", "dsytrd L d", "dsytrd L e",
    "dsytrd L tau", "dsytrd U A", "dsytrd U d", "dsytrd U e", "dsytrd U tau",
    "dsyevr I w",   "dsyevr I Z", "dsyevr I m", "dstedc d",   "dstedc Z",
    "dsyevd N w",   "dsygvd Z",   "dsygvd w",   "dsygvd B"};

static const char *const job_calls[JOB_CALLS] = {"dsyevd V", "dsytrd L", "dsytrd U",  "dsyevr I",
                                                 "dstedc I", "dsyevd N", "dsygvd 1 V"};

/* Runs the job's routines under par into out[set]; the number of calls that did not return 0.
 * No allocation: a job may run inside a region. */
static int job_run(tela_par par, struct eig_job *job, int set)
{
    const tela_int n = job->n, il = n / 2 + 1, iu = il + max_of(1, n / 10) - 1;
    double **o = job->out[set];
    for (int i = 0; i < JOB_OUTPUTS; i++)
        if (job->in[i])
            memcpy(o[i], job->in[i], sizeof(double) * (size_t)job->len[i]);
    int info[JOB_CALLS], bad = 0;
    long woke[JOB_CALLS + 1];
    tela_int m = -1;
    woke[0] = tu_stats().region_wakeups;
    info[0] = tela_dsyevd(par, 'V', 'L', n, o[J_SYEVD_Z], n, o[J_SYEVD_W]);
    woke[1] = tu_stats().region_wakeups;
    info[1] = tela_dsytrd(par, 'L', n, o[J_TRD_L_A], n, o[J_TRD_L_D], o[J_TRD_L_E], o[J_TRD_L_TAU]);
    woke[2] = tu_stats().region_wakeups;
    info[2] = tela_dsytrd(par, 'U', n, o[J_TRD_U_A], n, o[J_TRD_U_D], o[J_TRD_U_E], o[J_TRD_U_TAU]);
    woke[3] = tu_stats().region_wakeups;
    info[3] = tela_dsyevr(par, 'V', 'I', 'U', n, o[J_SYEVR_A], n, 0, 0, il, iu, 0.0, &m,
                          o[J_SYEVR_W], o[J_SYEVR_Z], n, job->isuppz[set]);
    o[J_SYEVR_M][0] = (double)m;
    woke[4] = tu_stats().region_wakeups;
    info[4] = tela_dstedc(par, 'I', n, o[J_STEDC_D], o[J_STEDC_E], o[J_STEDC_Z], n);
    woke[5] = tu_stats().region_wakeups;
    info[5] = tela_dsyevd(par, 'N', 'L', n, o[J_SYEVD_N_A], n, o[J_SYEVD_N_W]);
    woke[6] = tu_stats().region_wakeups;
    info[6] = tela_dsygvd(par, 1, 'V', 'U', n, o[J_SYGVD_Z], n, o[J_SYGVD_B], n, o[J_SYGVD_W]);
    woke[7] = tu_stats().region_wakeups;
    for (int i = 0; i < JOB_CALLS; i++) {
        job->woke[i] = woke[i + 1] - woke[i];
        job->info[i] = info[i];
        bad += info[i] != 0;
    }
    return bad;
}

static void job_make(struct eig_job *job, tela_int n)
{
    memset(job, 0, sizeof *job);
    job->n = n;
    double *a = symmetric_of(K_RANDOM, n), *b = spd_of(n), *d = tl_alloc(n), *e = tl_alloc(n);
    tridiagonal_case(K_RANDOM, n, d, e);
    for (int i = 0; i < JOB_OUTPUTS; i++) {
        const bool vector = i == J_SYEVD_W || i == J_TRD_L_D || i == J_TRD_L_E ||
                            i == J_TRD_L_TAU || i == J_TRD_U_D || i == J_TRD_U_E ||
                            i == J_TRD_U_TAU || i == J_SYEVR_W || i == J_STEDC_D ||
                            i == J_SYEVD_N_W || i == J_SYGVD_W || i == J_STEDC_E;
        job->len[i] = i == J_SYEVR_M ? 1 : vector ? n : n * n;
        job->out[0][i] = tl_alloc(job->len[i]);
        job->out[1][i] = tl_alloc(job->len[i]);
        /* what a call leaves unwritten (e's and tau's last, Z past m columns) stays equal */
        memset(job->out[0][i], 0, sizeof(double) * (size_t)job->len[i]);
        memset(job->out[1][i], 0, sizeof(double) * (size_t)job->len[i]);
        if (i == J_SYEVD_Z || i == J_TRD_L_A || i == J_TRD_U_A || i == J_SYEVR_A ||
            i == J_SYEVD_N_A || i == J_SYGVD_Z)
            job->in[i] = tl_copy(a, n * n);
        else if (i == J_SYGVD_B)
            job->in[i] = tl_copy(b, n * n);
        else if (i == J_STEDC_D)
            job->in[i] = tl_copy(d, n);
        else if (i == J_STEDC_E)
            job->in[i] = tl_copy(e, n);
    }
    for (int s = 0; s < 2; s++)
        job->isuppz[s] = tl_alloc_ipiv(2 * n);
    free(a);
    free(b);
    free(d);
    free(e);
    assert_int_equal(job_run(tela_par_seq(), job, 0), 0);
}

static void job_free(struct eig_job *job)
{
    for (int i = 0; i < JOB_OUTPUTS; i++) {
        free(job->in[i]);
        free(job->out[0][i]);
        free(job->out[1][i]);
    }
    free(job->isuppz[0]);
    free(job->isuppz[1]);
}

/* Doubles of out[1] that differ bitwise from out[0]; -1 when a call failed. */
static long job_differ(struct eig_job *job, double *worst)
{
    long differ = 0;
    for (int i = 0; i < JOB_COMPARED; i++)
        differ += tl_count_differ(job->out[1][i], job->out[0][i], job->len[i], worst);
    return differ;
}

/* Each size at widths 1, 2, 8 and 16 (oversubscribed: this machine may have 2 CPUs) on a held
 * team with the near-free dispatch table loaded, so that every region splits as wide as it
 * may: the serial bits, and a worker took part. Sizes past several levels of divide and
 * conquer and several blocks of the reduction. */
static void test_widths_bitwise(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    static const tela_int release_sizes[] = {230, 97};
    static const tela_int sanitized_sizes[] = {130, 61};
    const tela_int *sizes = TU_SANITIZED ? sanitized_sizes : release_sizes;
    static const int widths[] = {1, 2, 8, 16};
    tl_seed(9);
    for (size_t s = 0; s < 2; s++) {
        struct eig_job job;
        job_make(&job, sizes[s]);
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            tela_pool *pool = tu_pool_of_width(widths[w]);
            assert_non_null(pool);
            tela_team *team = tela_team_acquire(pool, widths[w]);
            assert_non_null(team);
            assert_int_equal(tela_team_width(team), widths[w]);
            const int bad = job_run(tela_par_team(team), &job, 1);
            assert_int_equal(tela_team_release(team), 0);
            tela_pool_destroy(pool);
            if (bad)
                fail_msg("n = %td at width %d: %d calls failed", job.n, widths[w], bad);
            for (int c = 0; c < JOB_CALLS; c++)
                if (widths[w] > 1 && job.woke[c] == 0)
                    fail_msg("%s n = %td at width %d: no worker took part", job_calls[c], job.n,
                             widths[w]);
            for (int i = 0; i < JOB_COMPARED; i++)
                if (memcmp(job.out[1][i], job.out[0][i], sizeof(double) * (size_t)job.len[i]) != 0)
                    fail_msg("%s n = %td at width %d: not the serial bits", job_names[i], job.n,
                             widths[w]);
        }
        job_free(&job);
    }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

static long run_caller_job(struct tl_caller *c)
{
    struct eig_job *job = c->job;
    if (job_run(c->par, job, 1) != 0)
        return -1;
    return job_differ(job, &c->worst);
}

/* Four threads at once through the default pool: the bits of a serial call. */
static void test_concurrent(void **state)
{
    (void)state;
    static const tela_int sizes[TL_CALLERS] = {120, 60, 90, 31};
    struct eig_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(10);
    for (int i = 0; i < TL_CALLERS; i++) {
        job_make(&jobs[i], TU_SANITIZED ? sizes[i] / 2 + 1 : sizes[i]);
        callers[i].run = run_caller_job;
        callers[i].job = &jobs[i];
    }
    const int bad = tl_run_concurrent(callers);
    for (int i = 0; i < TL_CALLERS; i++)
        job_free(&jobs[i]);
    if (bad)
        fail_msg("%d concurrent callers computed other bits", bad);
}

/* Each member of a region of 4 calls with tela_par_auto (nested, so serial): small problems,
 * whose workspace a thread keeps, get the bits of a serial call; a failing call is named. */
static void test_nested(void **state)
{
    (void)state;
    static const tela_int sizes[TL_CALLERS] = {40, 31, 26, 12};
    struct eig_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(11);
    for (int i = 0; i < TL_CALLERS; i++) {
        job_make(&jobs[i], sizes[i]);
        callers[i].run = run_caller_job;
        callers[i].job = &jobs[i];
    }
    const int bad = tl_run_nested(callers);
    for (int i = 0; i < TL_CALLERS; i++)
        for (int c = 0; c < JOB_CALLS; c++)
            if (callers[i].differ < 0 && jobs[i].info[c] != 0)
                printf("region member %d (n = %td): %s returned %d\n", i, jobs[i].n, job_calls[c],
                       jobs[i].info[c]);
    for (int i = 0; i < TL_CALLERS; i++)
        job_free(&jobs[i]);
    if (bad)
        fail_msg("%d region members computed other bits or failed", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_drivers),
        cmocka_unit_test(test_syevr_subsets),
        cmocka_unit_test(test_sygvd),
        cmocka_unit_test(test_sygvd_not_definite),
        cmocka_unit_test(test_sytrd),
        cmocka_unit_test(test_ormtr),
        cmocka_unit_test(test_tridiagonal),
        cmocka_unit_test(test_stein),
        cmocka_unit_test(test_two_stage),
        cmocka_unit_test(test_steqr_rows),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_widths_bitwise),
        cmocka_unit_test(test_concurrent),
        cmocka_unit_test(test_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
