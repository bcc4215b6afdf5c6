/* test_qr — tela_dgeqrf, tela_dorgqr, tela_dormqr, their LQ twins and tela_dgels: LAPACK's test
 * ratios under its threshold (dqrt01/dlqt01: ||A - QR||, ||I - Q^T Q||; dqrt03: ormqr against
 * the explicit Q; dchkls: dqrt16's ||B - op(A) X||, dqrt17's ||op(A)^T R|| for least squares, the
 * minimum norm solution orthogonal to null(op(A))), agreement with OpenBLAS loaded apart
 * (testlapack.h) on R, tau, Q and X, dgels's scaling of tiny, huge and subnormal data and its
 * info for a zero on the triangle's diagonal, exact results of the edge cases (0 and 1 rows or
 * columns, zero columns, a triangular A, NaN), bad arguments (-i, nothing written), and the same
 * bits at widths 1, 2, 8 and 16 with every region split, from concurrent callers and inside a
 * region (also where the work outgrows the scratch a thread keeps). About 1 s in Release. */
#define _GNU_SOURCE
#include "testlapack.h"

/* ---- OpenBLAS's routines (LP64 Fortran ABI, gfortran's hidden lengths last) ---------------- */

typedef void (*ob_factor_fn)(const int *m, const int *n, double *a, const int *lda, double *tau,
                             double *work, const int *lwork, int *info);
typedef void (*ob_generate_fn)(const int *m, const int *n, const int *k, double *a, const int *lda,
                               const double *tau, double *work, const int *lwork, int *info);
typedef void (*ob_multiply_fn)(const char *side, const char *trans, const int *m, const int *n,
                               const int *k, const double *a, const int *lda, const double *tau,
                               double *c, const int *ldc, double *work, const int *lwork, int *info,
                               size_t side_len, size_t trans_len);
typedef void (*ob_gels_fn)(const char *trans, const int *m, const int *n, const int *nrhs,
                           double *a, const int *lda, double *b, const int *ldb, double *work,
                           const int *lwork, int *info, size_t trans_len);

static struct ob_qr {
    ob_factor_fn geqrf, gelqf;
    ob_generate_fn orgqr, orglq;
    ob_multiply_fn ormqr, ormlq;
    ob_gels_fn gels;
} obq;

/* OpenBLAS's QR routines, each checked to live in OpenBLAS's file; NULL when OpenBLAS is not
 * available (tl_ob_why says why). */
static const struct ob_qr *ob_qr(void)
{
    const struct tl_openblas *ob = tl_openblas();
    if (!ob)
        return NULL;
    if (obq.gels)
        return &obq;
    const struct {
        const char *name;
        void *fn;
    } symbols[] = {{"dgeqrf_", &obq.geqrf}, {"dgelqf_", &obq.gelqf}, {"dorgqr_", &obq.orgqr},
                   {"dorglq_", &obq.orglq}, {"dormqr_", &obq.ormqr}, {"dormlq_", &obq.ormlq},
                   {"dgels_", &obq.gels}};
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *address = tl_symbol(ob->handle, symbols[i].name, symbols[i].fn);
        char file[PATH_MAX];
        if (!address || !tl_file_of(address, file, sizeof file) || !tl_same_file(file, ob->file))
            fail_msg("%s is missing from OpenBLAS or not in %s", symbols[i].name, ob->file);
    }
    return &obq;
}

/* NOLINTBEGIN(bugprone-macro-parentheses): q is the name it declares */
#define OB_QR_OR_SKIP(q)                                                                           \
    const struct ob_qr *q = ob_qr();                                                               \
    if (!q) {                                                                                      \
        printf("SKIPPED: %s\n", tl_ob_why);                                                        \
        skip();                                                                                    \
    }
/* NOLINTEND(bugprone-macro-parentheses) */

/* A workspace of the size a query (lwork = -1) answered. */
static double *ob_work(double answer, int *lwork)
{
    *lwork = answer > 1 ? (int)answer : 1;
    return tl_alloc(*lwork);
}

static int ob_factor(ob_factor_fn f, tela_int m, tela_int n, double *a, tela_int lda, double *tau)
{
    const int im = (int)m, in = (int)n, ilda = (int)lda, query = -1;
    int info = 0, lwork;
    double size = 0;
    f(&im, &in, a, &ilda, tau, &size, &query, &info);
    double *work = ob_work(size, &lwork);
    f(&im, &in, a, &ilda, tau, work, &lwork, &info);
    free(work);
    return info;
}

static int ob_generate(ob_generate_fn f, tela_int m, tela_int n, tela_int k, double *a,
                       tela_int lda, const double *tau)
{
    const int im = (int)m, in = (int)n, ik = (int)k, ilda = (int)lda, query = -1;
    int info = 0, lwork;
    double size = 0;
    f(&im, &in, &ik, a, &ilda, tau, &size, &query, &info);
    double *work = ob_work(size, &lwork);
    f(&im, &in, &ik, a, &ilda, tau, work, &lwork, &info);
    free(work);
    return info;
}

static int ob_multiply(ob_multiply_fn f, char side, char trans, tela_int m, tela_int n, tela_int k,
                       const double *a, tela_int lda, const double *tau, double *c, tela_int ldc)
{
    const int im = (int)m, in = (int)n, ik = (int)k, ilda = (int)lda, ildc = (int)ldc;
    const int query = -1;
    int info = 0, lwork;
    double size = 0;
    f(&side, &trans, &im, &in, &ik, a, &ilda, tau, c, &ildc, &size, &query, &info, 1, 1);
    double *work = ob_work(size, &lwork);
    f(&side, &trans, &im, &in, &ik, a, &ilda, tau, c, &ildc, work, &lwork, &info, 1, 1);
    free(work);
    return info;
}

static int ob_gels(const struct ob_qr *q, char trans, tela_int m, tela_int n, tela_int nrhs,
                   double *a, tela_int lda, double *b, tela_int ldb)
{
    const int im = (int)m, in = (int)n, ir = (int)nrhs, ilda = (int)lda, ildb = (int)ldb;
    const int query = -1;
    int info = 0, lwork;
    double size = 0;
    q->gels(&trans, &im, &in, &ir, a, &ilda, b, &ildb, &size, &query, &info, 1);
    double *work = ob_work(size, &lwork);
    q->gels(&trans, &im, &in, &ir, a, &ilda, b, &ildb, work, &lwork, &info, 1);
    free(work);
    return info;
}

/* ---- matrices and ratios ------------------------------------------------------------------ */

static tela_int min_of(tela_int a, tela_int b)
{
    return a < b ? a : b;
}

static tela_int max_of(tela_int a, tela_int b)
{
    return a > b ? a : b;
}

static bool has_nan(tela_int m, tela_int n, const double *a, tela_int lda)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            if (isnan(a[i + j * lda]))
                return true;
    return false;
}

static bool all_finite(tela_int m, tela_int n, const double *a, tela_int lda)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            if (!isfinite(a[i + j * lda]))
                return false;
    return true;
}

/* The k x n upper trapezoid of f (R of a QR), zeros below, leading dimension k. */
static double *upper_part(tela_int k, tela_int n, const double *f, tela_int ldf)
{
    double *r = tl_alloc(k * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < k; i++)
            r[i + j * k] = i <= j ? f[i + j * ldf] : 0.0;
    return r;
}

/* The m x k lower trapezoid of f (L of an LQ), zeros above, leading dimension m. */
static double *lower_part(tela_int m, tela_int k, const double *f, tela_int ldf)
{
    double *l = tl_alloc(m * k);
    for (tela_int j = 0; j < k; j++)
        for (tela_int i = 0; i < m; i++)
            l[i + j * m] = i >= j ? f[i + j * ldf] : 0.0;
    return l;
}

static double *transposed(tela_int m, tela_int n, const double *a, tela_int lda)
{
    double *t = tl_alloc(n * m);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            t[j + i * n] = a[i + j * lda];
    return t;
}

/* NaN sticks in a running maximum. */
static double worse(double worst, double value)
{
    return value > worst || isnan(value) ? value : worst;
}

/* ||A0 - X Y||_1 / (div ||A0||_1 eps) with X m x p and Y p x n. In working precision, as
 * LAPACK's dqrt01 (its rounding is of the order it measures, well inside the threshold), by
 * columns so that the loops vectorise: the largest shapes cost 10^8 flops. */
static double product_ratio(tela_int m, tela_int n, tela_int p, const double *a0, tela_int lda0,
                            const double *x, tela_int ldx, const double *y, tela_int ldy,
                            tela_int div)
{
    double *acc = tl_alloc(m), rnorm = 0;
    for (tela_int j = 0; j < n; j++) {
        for (tela_int i = 0; i < m; i++)
            acc[i] = a0[i + j * lda0];
        for (tela_int q = 0; q < p; q++) {
            const double yq = y[q + j * ldy];
            const double *xq = x + q * ldx;
            for (tela_int i = 0; i < m; i++)
                acc[i] -= xq[i] * yq;
        }
        double s = 0;
        for (tela_int i = 0; i < m; i++)
            s += fabs(acc[i]);
        rnorm = worse(rnorm, s);
    }
    free(acc);
    return tl_ratio(rnorm, tl_norm1(m, n, a0, lda0), div);
}

/* ||I - Q^T Q||_1 / (div eps) for the rows x cols matrix q (orthonormal columns): Q^T Q's
 * column j as the sum over rows r of Q(r, :)^T Q(r, j), from Q^T's contiguous columns. */
static double columns_ratio(tela_int rows, tela_int cols, const double *q, tela_int ldq,
                            tela_int div)
{
    double *qt = tl_alloc(cols * rows), *g = tl_alloc(cols), worst = 0;
    for (tela_int j = 0; j < cols; j++)
        for (tela_int r = 0; r < rows; r++)
            qt[j + r * cols] = q[r + j * ldq];
    for (tela_int j = 0; j < cols; j++) {
        for (tela_int i = 0; i < cols; i++)
            g[i] = i == j ? -1.0 : 0.0;
        for (tela_int r = 0; r < rows; r++) {
            const double qrj = qt[j + r * cols], *row = qt + r * cols;
            for (tela_int i = 0; i < cols; i++)
                g[i] += row[i] * qrj;
        }
        double s = 0;
        for (tela_int i = 0; i < cols; i++)
            s += fabs(g[i]);
        worst = worse(worst, s);
    }
    free(qt);
    free(g);
    return isnan(worst) ? NAN : worst / ((double)(div > 0 ? div : 1) * TL_EPS);
}

/* ||I - Q Q^T||_1 / (div eps) for the rows x cols matrix q (orthonormal rows). */
static double rows_ratio(tela_int rows, tela_int cols, const double *q, tela_int ldq, tela_int div)
{
    double *t = transposed(rows, cols, q, ldq);
    const double ratio = columns_ratio(cols, rows, t, cols, div);
    free(t);
    return ratio;
}

/* ||X - Y||_1, the two m x n. */
static double difference_norm(tela_int m, tela_int n, const double *x, tela_int ldx,
                              const double *y, tela_int ldy)
{
    double dnorm = 0;
    for (tela_int j = 0; j < n; j++) {
        double s = 0;
        for (tela_int i = 0; i < m; i++)
            s += fabs(x[i + j * ldx] - y[i + j * ldy]);
        dnorm = worse(dnorm, s);
    }
    return dnorm;
}

/* ||X - Y||_1 / (div ||Y||_1 eps). */
static double difference_ratio(tela_int m, tela_int n, const double *x, tela_int ldx,
                               const double *y, tela_int ldy, tela_int div)
{
    return tl_ratio(difference_norm(m, n, x, ldx, y, ldy), tl_norm1(m, n, y, ldy), div);
}

static void expect_below(const char *what, const char *ratio_name, double ratio)
{
    if (!(ratio < TL_THRESHOLD))
        fail_msg("%s: %s = %g (threshold %g)", what, ratio_name, ratio, TL_THRESHOLD);
}

/* ---- checks of a factorization ------------------------------------------------------------ */

/* Orders up to which the full square Q is formed and checked (its check costs order^3). */
#define FULL_Q_MAX 300

/* geqrf's output f (leading dimension lda) and tau for a0 (m x n, the same lda): A = Q R and
 * Q^T Q = I with Q's first k = min(m, n) columns from tela_dorgqr, and, for m up to FULL_Q_MAX,
 * again with the full m x m Q, its columns past k NaN on entry (dorgqr sets them). */
static void check_qr(const char *what, tela_par par, tela_int m, tela_int n, const double *a0,
                     const double *f, tela_int lda, const double *tau)
{
    const tela_int k = min_of(m, n);
    if (k == 0)
        return;
    double *r = upper_part(k, n, f, lda);
    const tela_int ldq = m + 1;
    for (int full = 0; full < 2; full++) {
        const tela_int cols = full ? m : k;
        if (full && (m > FULL_Q_MAX || m == k))
            continue;
        double *q = tl_alloc(ldq * cols);
        for (tela_int j = 0; j < cols; j++)
            for (tela_int i = 0; i < ldq; i++)
                q[i + j * ldq] = i >= m ? tl_sentinel() : j < k ? f[i + j * lda] : NAN;
        char label[160];
        snprintf(label, sizeof label, "%s: dorgqr %td x %td, k = %td", what, m, cols, k);
        const int info = tela_dorgqr(par, m, cols, k, q, ldq, tau);
        if (info != 0)
            fail_msg("%s: info %d", label, info);
        tl_expect_padding(label, q, m, cols, ldq);
        expect_below(label, "||A - QR|| / (m ||A|| eps)",
                     product_ratio(m, n, k, a0, lda, q, ldq, r, k, m));
        expect_below(label, "||I - Q^T Q|| / (m eps)", columns_ratio(m, cols, q, ldq, m));
        free(q);
    }
    free(r);
}

/* gelqf's output likewise: A = L Q and Q Q^T = I with Q's first k rows from tela_dorglq, and
 * the full n x n Q for n up to FULL_Q_MAX, its rows past k NaN on entry. */
static void check_lq(const char *what, tela_par par, tela_int m, tela_int n, const double *a0,
                     const double *f, tela_int lda, const double *tau)
{
    const tela_int k = min_of(m, n);
    if (k == 0)
        return;
    double *l = lower_part(m, k, f, lda);
    for (int full = 0; full < 2; full++) {
        const tela_int rows = full ? n : k, ldq = rows + 2;
        if (full && (n > FULL_Q_MAX || n == k))
            continue;
        double *q = tl_alloc(ldq * n);
        for (tela_int j = 0; j < n; j++)
            for (tela_int i = 0; i < ldq; i++)
                q[i + j * ldq] = i >= rows ? tl_sentinel() : i < k ? f[i + j * lda] : NAN;
        char label[160];
        snprintf(label, sizeof label, "%s: dorglq %td x %td, k = %td", what, rows, n, k);
        const int info = tela_dorglq(par, rows, n, k, q, ldq, tau);
        if (info != 0)
            fail_msg("%s: info %d", label, info);
        tl_expect_padding(label, q, rows, n, ldq);
        expect_below(label, "||A - LQ|| / (n ||A|| eps)",
                     product_ratio(m, n, k, a0, lda, l, m, q, ldq, n));
        expect_below(label, "||I - Q Q^T|| / (n eps)", rows_ratio(rows, n, q, ldq, n));
        free(q);
    }
    free(l);
}

/* Factors a copy of a0 (m x n, leading dimension lda, padding the sentinel) by tela_dgeqrf
 * (qr) or tela_dgelqf under par: info 0, the padding untouched, tau past min(m, n) untouched,
 * the checks above. Returns the factor; *tau_out its tau (the caller frees both). */
static double *factor_checked(bool qr, tela_par par, tela_int m, tela_int n, const double *a0,
                              tela_int lda, double **tau_out)
{
    const tela_int k = min_of(m, n);
    double *f = tl_copy(a0, lda * n), *tau = tl_alloc(k + 1);
    for (tela_int i = 0; i <= k; i++)
        tau[i] = tl_sentinel();
    char what[96];
    snprintf(what, sizeof what, "%s %td x %td lda %td", qr ? "dgeqrf" : "dgelqf", m, n, lda);
    const int info = qr ? tela_dgeqrf(par, m, n, f, lda, tau) : tela_dgelqf(par, m, n, f, lda, tau);
    if (info != 0)
        fail_msg("%s: info %d", what, info);
    tl_expect_padding(what, f, m, n, lda);
    if (!tl_is_sentinel(&tau[k]))
        fail_msg("%s: tau[%td] written past min(m, n)", what, k);
    for (tela_int i = 0; i < k; i++)
        if (!(tau[i] == 0.0 || (tau[i] >= 1.0 && tau[i] <= 2.0)))
            fail_msg("%s: tau[%td] = %g outside {0} and [1, 2]", what, i, tau[i]);
    if (qr)
        check_qr(what, par, m, n, a0, f, lda, tau);
    else
        check_lq(what, par, m, n, a0, f, lda, tau);
    *tau_out = tau;
    return f;
}

/* ---- factorizations: residuals and orthogonality ------------------------------------------ */

/* m x n: one row or column, odd, around the panel's leaves (8) and its one-panel limit (64),
 * across several blocks of 64 (k > 64) and 128 (k > 512), tall (tela's TSQR) and wide. */
static const tela_int shapes[][2] = {
    {1, 1},     {1, 5},     {5, 1},     {2, 2},     {2, 7},     {7, 2},     {7, 9},     {9, 7},
    {8, 8},     {17, 9},    {9, 17},    {63, 65},   {65, 63},   {64, 64},   {129, 63},  {63, 129},
    {200, 129}, {129, 200}, {200, 200}, {137, 131}, {4100, 16}, {16, 4100}, {530, 520}, {520, 530}};
#define SHAPES (sizeof shapes / sizeof shapes[0])
/* The last two (k > 512: 0.2 s of Release) are left out under sanitizers, whose runs keep to
 * orders of about 300. */
#define SHAPES_RUN (SHAPES - (TU_SANITIZED ? 2 : 0))

static void test_factor_residuals(void **state)
{
    (void)state;
    tl_seed(1);
    for (size_t s = 0; s < SHAPES_RUN; s++) {
        const tela_int m = shapes[s][0], n = shapes[s][1];
        const tela_par par = s % 2 ? tela_par_auto() : tela_par_seq();
        for (int qr = 0; qr < 2; qr++) {
            const tela_int lda = m + (tela_int)(s % 3) * 2;
            double *a0 = tl_random_matrix(m, n, lda), *tau;
            double *f = factor_checked(qr, par, m, n, a0, lda, &tau);
            free(f);
            free(tau);
            free(a0);
        }
    }
}

/* Q from k < n reflectors (dorgqr) or k < m (dorglq): orthonormal, and against OpenBLAS's on
 * the same reflectors; k = 0 gives the identity exactly. */
static void test_fewer_reflectors(void **state)
{
    (void)state;
    const struct ob_qr *ob = ob_qr();
    static const tela_int cases[][3] = {{50, 30, 10}, {200, 150, 70}, {7, 5, 1},
                                        {9, 9, 0},    {90, 90, 89},   {33, 20, 19}};
    tl_seed(2);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const tela_int m = cases[c][0], n = cases[c][1], k = cases[c][2], lda = m + 1;
        for (int qr = 0; qr < 2; qr++) {
            /* QR: reflectors of an m x k matrix, Q m x n. LQ: of a k x m one, Q n x m. */
            const tela_int rows = qr ? m : n, cols = qr ? n : m, ld = qr ? lda : n + 1;
            const tela_int frows = qr ? m : k, fcols = qr ? k : m;
            double *a0 = tl_random_matrix(frows, fcols, qr ? lda : k + 1), *tau = tl_alloc(k);
            const tela_int lda0 = qr ? lda : k + 1;
            if (k > 0)
                assert_int_equal(qr ? tela_dgeqrf(tela_par_seq(), m, k, a0, lda0, tau)
                                    : tela_dgelqf(tela_par_seq(), k, m, a0, lda0, tau),
                                 0);
            /* The reflectors in Q's array; the rest of it NaN (overwritten by the routine). */
            double *q = tl_alloc(ld * cols);
            for (tela_int j = 0; j < cols; j++)
                for (tela_int i = 0; i < ld; i++)
                    q[i + j * ld] = i >= rows              ? tl_sentinel()
                                    : (qr ? j < k : i < k) ? a0[i + j * lda0]
                                                           : NAN;
            double *want = tl_copy(q, ld * cols);
            char what[96];
            snprintf(what, sizeof what, "%s %td x %td k = %td", qr ? "dorgqr" : "dorglq", rows,
                     cols, k);
            const int info = qr ? tela_dorgqr(tela_par_auto(), rows, cols, k, q, ld, tau)
                                : tela_dorglq(tela_par_auto(), rows, cols, k, q, ld, tau);
            if (info != 0)
                fail_msg("%s: info %d", what, info);
            tl_expect_padding(what, q, rows, cols, ld);
            if (qr)
                expect_below(what, "||I - Q^T Q|| / (m eps)", columns_ratio(rows, cols, q, ld, m));
            else
                expect_below(what, "||I - Q Q^T|| / (n eps)", rows_ratio(rows, cols, q, ld, m));
            if (k == 0)
                for (tela_int j = 0; j < cols; j++)
                    for (tela_int i = 0; i < rows; i++)
                        if (!tu_same_bits(q[i + j * ld], i == j ? 1.0 : 0.0))
                            fail_msg("%s: Q(%td, %td) = %g, not the identity's", what, i, j,
                                     q[i + j * ld]);
            if (ob) {
                const int ob_info = qr ? ob_generate(ob->orgqr, rows, cols, k, want, ld, tau)
                                       : ob_generate(ob->orglq, rows, cols, k, want, ld, tau);
                assert_int_equal(ob_info, 0);
                expect_below(what, "||Q - Q_OpenBLAS|| / (m eps)",
                             difference_ratio(rows, cols, q, ld, want, ld, m));
            }
            free(want);
            free(q);
            free(tau);
            free(a0);
        }
    }
}

/* ---- dormqr and dormlq against the explicit Q ---------------------------------------------- */

/* op(Q) C (left) or C op(Q) (right) with q the nq x nq matrix, in long double; into out (ldo). */
static void explicit_product(bool left, bool trans, tela_int m, tela_int n, const double *q,
                             tela_int nq, const double *c, tela_int ldc, double *out, tela_int ldo)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++) {
            long double s = 0;
            for (tela_int p = 0; p < nq; p++) {
                const double qv = left ? (trans ? q[p + i * nq] : q[i + p * nq])
                                       : (trans ? q[j + p * nq] : q[p + j * nq]);
                s += (long double)qv * (left ? c[p + j * ldc] : c[i + p * ldc]);
            }
            out[i + j * ldo] = (double)s;
        }
}

/* nq x nq Q from the k reflectors of a random matrix (QR: nq x k, LQ: k x nq, leading dimension
 * lda_f); f and tau get the factorization. */
static double *explicit_q(bool qr, tela_int nq, tela_int k, double *f, tela_int lda_f, double *tau)
{
    if (k > 0)
        assert_int_equal(qr ? tela_dgeqrf(tela_par_seq(), nq, k, f, lda_f, tau)
                            : tela_dgelqf(tela_par_seq(), k, nq, f, lda_f, tau),
                         0);
    double *q = tl_alloc(nq * nq);
    for (tela_int j = 0; j < nq; j++)
        for (tela_int i = 0; i < nq; i++)
            q[i + j * nq] = (qr ? j < k : i < k) ? f[i + j * lda_f] : 0.0;
    assert_int_equal(qr ? tela_dorgqr(tela_par_seq(), nq, nq, k, q, nq, tau)
                        : tela_dorglq(tela_par_seq(), nq, nq, k, q, nq, tau),
                     0);
    return q;
}

/* dqrt03: ||op(Q) C - op(Q) C|| / (nq ||C|| eps) for every side and trans, k = nq and k < nq,
 * C's padding and the reflectors untouched, k = 0 leaving C exactly as it was; dormlq with
 * lda = k < nq (its own bound). And against OpenBLAS's dormqr/dormlq on the same reflectors. */
static void test_multiply(void **state)
{
    (void)state;
    const struct ob_qr *ob = ob_qr();
    /* nq, k, the other dimension of C */
    static const tela_int cases[][3] = {
        {1, 1, 3},  {7, 7, 5},       {9, 4, 11},    {65, 65, 7},   {130, 70, 33}, {200, 129, 1},
        {40, 0, 5}, {150, 150, 150}, {300, 20, 40}, {300, 290, 9}, {600, 530, 20}};
    static const char sides[] = {'L', 'R'}, transes[] = {'N', 'T'};
    tl_seed(3);
    /* The last (k > 512) is left out under sanitizers, as in SHAPES_RUN. */
    const size_t runs = sizeof cases / sizeof cases[0] - (TU_SANITIZED ? 1 : 0);
    for (size_t c = 0; c < runs; c++) {
        const tela_int nq = cases[c][0], k = cases[c][1], other = cases[c][2];
        for (int qr = 0; qr < 2; qr++) {
            /* LQ: lda = k < nq in every other case, its own bound */
            const tela_int lda = qr ? nq + 1 : max_of(1, k + (tela_int)(c % 2));
            const tela_int frows = qr ? nq : k, fcols = qr ? k : nq;
            double *f = tl_random_matrix(frows, fcols, lda);
            double *tau = tl_alloc(k);
            double *q = explicit_q(qr, nq, k, f, lda, tau);
            double *f_before = tl_copy(f, lda * fcols);
            double *tau_before = tl_copy(tau, k);
            for (int sd = 0; sd < 2; sd++)
                for (int tr = 0; tr < 2; tr++) {
                    const bool left = sides[sd] == 'L', trans = transes[tr] == 'T';
                    const tela_int m = left ? nq : other, n = left ? other : nq, ldc = m + 3;
                    double *c0 = tl_random_matrix(m, n, ldc), *cm = tl_copy(c0, ldc * n);
                    char what[96];
                    snprintf(what, sizeof what, "%s %c%c m=%td n=%td k=%td lda=%td",
                             qr ? "dormqr" : "dormlq", sides[sd], transes[tr], m, n, k, lda);
                    const tela_par par = (sd + tr) % 2 ? tela_par_auto() : tela_par_seq();
                    const int info =
                        qr ? tela_dormqr(par, sides[sd], transes[tr], m, n, k, f, lda, tau, cm, ldc)
                           : tela_dormlq(par, sides[sd], transes[tr], m, n, k, f, lda, tau, cm,
                                         ldc);
                    if (info != 0)
                        fail_msg("%s: info %d", what, info);
                    tl_expect_padding(what, cm, m, n, ldc);
                    if (k == 0) {
                        tu_expect_same(what, cm, c0, (size_t)(ldc * n));
                    } else {
                        double *want = tl_alloc(m * n);
                        explicit_product(left, trans, m, n, q, nq, c0, ldc, want, m);
                        expect_below(what, "||op(Q) C - Q_explicit C|| / (nq ||C|| eps)",
                                     tl_ratio(difference_norm(m, n, cm, ldc, want, m),
                                              tl_norm1(m, n, c0, ldc), nq));
                        free(want);
                    }
                    if (ob) {
                        double *co = tl_copy(c0, ldc * n);
                        assert_int_equal(ob_multiply(qr ? ob->ormqr : ob->ormlq, sides[sd],
                                                     transes[tr], m, n, k, f, lda, tau, co, ldc),
                                         0);
                        expect_below(what, "||op(Q) C - OpenBLAS's|| / (nq ||C|| eps)",
                                     tl_ratio(difference_norm(m, n, cm, ldc, co, ldc),
                                              tl_norm1(m, n, c0, ldc), nq));
                        free(co);
                    }
                    free(c0);
                    free(cm);
                }
            tu_expect_same("dormqr/dormlq: the reflectors", f, f_before, (size_t)(lda * fcols));
            tu_expect_same("dormqr/dormlq: tau", tau, tau_before, (size_t)k);
            free(f_before);
            free(tau_before);
            free(q);
            free(tau);
            free(f);
        }
    }
}

/* ---- dgels: the ratios of LAPACK's dchkls ----------------------------------------------------
 */

/* op(A)(i, j) for A stored m x n. */
static double op_at(bool trans, const double *a, tela_int lda, tela_int i, tela_int j)
{
    return trans ? a[j + i * lda] : a[i + j * lda];
}

/* dqrt16: the largest over columns j of ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 max(m, n)
 * eps), op(A) rows x cols, x its cols x nrhs solution, b the right-hand sides it was given. */
static double gels_residual_ratio(bool trans, tela_int m, tela_int n, tela_int nrhs,
                                  const double *a, tela_int lda, const double *x, tela_int ldx,
                                  const double *b, tela_int ldb)
{
    const tela_int rows = trans ? n : m, cols = trans ? m : n;
    const double anorm = trans ? tl_norm_inf(m, n, a, lda) : tl_norm1(m, n, a, lda);
    long double *r = malloc(sizeof(long double) * (size_t)(rows > 0 ? rows : 1));
    assert_non_null(r);
    double worst = 0;
    for (tela_int j = 0; j < nrhs; j++) {
        for (tela_int i = 0; i < rows; i++)
            r[i] = b[i + j * ldb];
        double xnorm = 0;
        for (tela_int c = 0; c < cols; c++) {
            const long double xc = x[c + j * ldx];
            xnorm += fabs(x[c + j * ldx]);
            for (tela_int i = 0; i < rows; i++)
                r[i] -= op_at(trans, a, lda, i, c) * xc;
        }
        double rnorm = 0;
        for (tela_int i = 0; i < rows; i++)
            rnorm += (double)fabsl(r[i]);
        double ratio;
        if (isnan(rnorm) || isnan(xnorm) || isnan(anorm))
            ratio = NAN;
        else if (anorm == 0 && rnorm == 0)
            ratio = 0;
        else if (anorm <= 0 || xnorm <= 0)
            ratio = 1 / TL_EPS;
        else
            ratio = rnorm / anorm / xnorm / ((double)max_of(m, n) * TL_EPS);
        worst = worse(worst, ratio);
    }
    free(r);
    return worst;
}

/* dqrt17 (zero-residual normalisation): ||R^T op(A)||_1 / (||A||_1 ||B||_1 max(m, n, nrhs) eps)
 * with R = B - op(A) X: the residual of a least squares solution is orthogonal to op(A)'s
 * columns. */
static double normal_equations_ratio(bool trans, tela_int m, tela_int n, tela_int nrhs,
                                     const double *a, tela_int lda, const double *x, tela_int ldx,
                                     const double *b, tela_int ldb)
{
    const tela_int rows = trans ? n : m, cols = trans ? m : n;
    long double *r = malloc(sizeof(long double) * (size_t)(rows * nrhs));
    assert_non_null(r);
    for (tela_int j = 0; j < nrhs; j++) {
        for (tela_int i = 0; i < rows; i++)
            r[i + j * rows] = b[i + j * ldb];
        for (tela_int c = 0; c < cols; c++)
            for (tela_int i = 0; i < rows; i++)
                r[i + j * rows] -= op_at(trans, a, lda, i, c) * (long double)x[c + j * ldx];
    }
    double err = 0; /* the 1-norm of the nrhs x cols matrix R^T op(A) */
    for (tela_int c = 0; c < cols; c++) {
        long double s = 0;
        for (tela_int j = 0; j < nrhs; j++) {
            long double w = 0;
            for (tela_int i = 0; i < rows; i++)
                w += r[i + j * rows] * op_at(trans, a, lda, i, c);
            s += fabsl(w);
        }
        err = worse(err, (double)s);
    }
    free(r);
    const double denominator = tl_norm1(m, n, a, lda) * tl_norm1(rows, nrhs, b, ldb) *
                               (double)max_of(max_of(m, n), nrhs) * TL_EPS;
    return isnan(err) ? NAN : err / denominator;
}

/* For op(A) p x q with p < q: ||Z^T X||_1 / (q ||X||_1 eps), Z an orthonormal basis of
 * null(op(A)) (rows p.. of the full Q of op(A) = L Q, by tela_dgelqf and tela_dorglq, which the
 * factorization tests check): a minimum norm solution has no component in it. */
static double null_space_ratio(bool trans, tela_int m, tela_int n, tela_int nrhs, const double *a,
                               tela_int lda, const double *x, tela_int ldx)
{
    const tela_int p = trans ? n : m, q = trans ? m : n;
    double *f = tl_alloc(p * q), *tau = tl_alloc(p), *z = tl_alloc(q * q);
    for (tela_int j = 0; j < q; j++)
        for (tela_int i = 0; i < p; i++)
            f[i + j * p] = op_at(trans, a, lda, i, j);
    assert_int_equal(tela_dgelqf(tela_par_seq(), p, q, f, p, tau), 0);
    for (tela_int j = 0; j < q; j++)
        for (tela_int i = 0; i < q; i++)
            z[i + j * q] = i < p ? f[i + j * p] : 0.0;
    assert_int_equal(tela_dorglq(tela_par_seq(), q, q, p, z, q, tau), 0);
    double worst = 0;
    for (tela_int j = 0; j < nrhs; j++) {
        double s = 0, xnorm = 0;
        for (tela_int c = 0; c < q; c++)
            xnorm += fabs(x[c + j * ldx]);
        for (tela_int r = p; r < q; r++) {
            long double w = 0;
            for (tela_int c = 0; c < q; c++)
                w += (long double)z[r + c * q] * x[c + j * ldx];
            s += (double)fabsl(w);
        }
        worst = worse(worst, tl_ratio(s, xnorm, q));
    }
    free(f);
    free(tau);
    free(z);
    return worst;
}

/* B for dgels: max(m, n) x nrhs (leading dimension ldb, padding the sentinel); its first rows
 * of op(A) the right-hand sides, op(A) times a random X (rounded) when consistent, else random;
 * the rows past them NaN (dgels must set them before reading them). */
static double *gels_rhs(bool trans, tela_int m, tela_int n, tela_int nrhs, const double *a,
                        tela_int lda, tela_int ldb, bool consistent)
{
    const tela_int rows = trans ? n : m, cols = trans ? m : n, all = max_of(m, n);
    double *b = tl_random_matrix(all, nrhs, ldb);
    if (consistent) {
        double *x = tl_random_matrix(cols, nrhs, cols);
        for (tela_int j = 0; j < nrhs; j++)
            for (tela_int i = 0; i < rows; i++) {
                long double s = 0;
                for (tela_int c = 0; c < cols; c++)
                    s += (long double)op_at(trans, a, lda, i, c) * x[c + j * cols];
                b[i + j * ldb] = (double)s;
            }
        free(x);
    }
    for (tela_int j = 0; j < nrhs; j++)
        for (tela_int i = rows; i < all; i++)
            b[i + j * ldb] = NAN;
    return b;
}

/* m, n, nrhs: each with trans N and T, so every shape is both least squares and minimum norm. */
static const tela_int gels_cases[][3] = {{1, 1, 1},     {5, 3, 1},     {3, 5, 1},    {7, 7, 4},
                                         {40, 17, 1},   {17, 40, 3},   {120, 70, 5}, {70, 120, 5},
                                         {65, 64, 8},   {9, 1, 2},     {1, 9, 2},    {1000, 16, 3},
                                         {16, 1000, 3}, {300, 280, 2}, {280, 300, 2}};
#define GELS_CASES (sizeof gels_cases / sizeof gels_cases[0])

/* Solves a copy of a0, b0 by tela_dgels under par: info, the padding of A and B, A's output
 * the factorization tela_dgeqrf (m >= n) or tela_dgelqf gives serially, bit for bit. Returns B
 * (the caller frees). */
static double *gels_checked(const char *what, tela_par par, char trans, tela_int m, tela_int n,
                            tela_int nrhs, const double *a0, tela_int lda, const double *b0,
                            tela_int ldb, int want_info)
{
    double *a = tl_copy(a0, lda * n), *b = tl_copy(b0, ldb * nrhs);
    const int info = tela_dgels(par, trans, m, n, nrhs, a, lda, b, ldb);
    if (info != want_info)
        fail_msg("%s: info %d, expected %d", what, info, want_info);
    tl_expect_padding(what, a, m, n, lda);
    tl_expect_padding(what, b, max_of(m, n), nrhs, ldb);
    double *f = tl_copy(a0, lda * n), *tau = tl_alloc(min_of(m, n));
    assert_int_equal(m >= n ? tela_dgeqrf(tela_par_seq(), m, n, f, lda, tau)
                            : tela_dgelqf(tela_par_seq(), m, n, f, lda, tau),
                     0);
    for (tela_int i = 0; i < lda * n; i++)
        if (memcmp(&a[i], &f[i], sizeof f[i]) != 0)
            fail_msg("%s: A(%td, %td) = %.17g on return, the factorization has %.17g", what,
                     i % lda, i / lda, a[i], f[i]);
    free(f);
    free(tau);
    free(a);
    return b;
}

/* dqrt16's residual for every case (consistent right-hand sides when op(A) has at least as many
 * rows as columns), dqrt17's for random ones when it has more, and the minimum norm property when
 * it has fewer. */
static void test_gels_residuals(void **state)
{
    (void)state;
    tl_seed(4);
    for (size_t s = 0; s < GELS_CASES; s++)
        for (int t = 0; t < 2; t++) {
            const tela_int m = gels_cases[s][0], n = gels_cases[s][1], nrhs = gels_cases[s][2];
            const bool trans = t == 1;
            const char tc = trans ? (s % 2 ? 't' : 'T') : (s % 3 ? 'N' : 'n');
            const tela_int rows = trans ? n : m, cols = trans ? m : n;
            const tela_int lda = m + (tela_int)(s % 2), ldb = max_of(m, n) + 1 + (tela_int)(s % 3);
            const tela_par par = (s + (size_t)t) % 2 ? tela_par_auto() : tela_par_seq();
            double *a0 = tl_random_matrix(m, n, lda);
            double *b0 = gels_rhs(trans, m, n, nrhs, a0, lda, ldb, rows >= cols);
            char what[96];
            snprintf(what, sizeof what, "dgels %c m=%td n=%td nrhs=%td", tc, m, n, nrhs);
            double *x = gels_checked(what, par, tc, m, n, nrhs, a0, lda, b0, ldb, 0);
            expect_below(what, "||B - op(A) X|| / (max(m, n) ||A|| ||X|| eps)",
                         gels_residual_ratio(trans, m, n, nrhs, a0, lda, x, ldb, b0, ldb));
            if (rows < cols)
                expect_below(what, "||Z^T X|| / (q ||X|| eps), Z spanning null(op(A))",
                             null_space_ratio(trans, m, n, nrhs, a0, lda, x, ldb));
            free(x);
            free(b0);
            if (rows > cols) { /* least squares with a residual */
                b0 = gels_rhs(trans, m, n, nrhs, a0, lda, ldb, false);
                x = gels_checked(what, par, tc, m, n, nrhs, a0, lda, b0, ldb, 0);
                expect_below(what, "||R^T op(A)|| / (||A|| ||B|| max(m, n, nrhs) eps)",
                             normal_equations_ratio(trans, m, n, nrhs, a0, lda, x, ldb, b0, ldb));
                free(x);
                free(b0);
            }
            free(a0);
        }
}

/* ---- dgels: scaling, rank deficiency, A = 0, quick returns ------------------------------------
 */

/* m, n, nrhs, trans for the scaling and rank tests. */
struct small_gels {
    tela_int m, n, nrhs;
    char trans;
};
static const struct small_gels small_gels_cases[] = {
    {20, 12, 3, 'N'}, {12, 20, 2, 'N'}, {20, 12, 2, 'T'}, {12, 20, 3, 'T'}, {70, 66, 2, 'N'}};
#define SMALL_GELS (sizeof small_gels_cases / sizeof small_gels_cases[0])

/* The m x n part of a times s (padding kept). */
static double *scaled_copy(tela_int m, tela_int n, const double *a, tela_int lda, double s)
{
    double *b = tl_copy(a, lda * n);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            b[i + j * lda] *= s;
    return b;
}

/* Uniform integers in [-2^20, 2^20] (exact after any power-of-two scaling that stays in range,
 * subnormal included), padding the sentinel. */
static double *integer_matrix(tela_int m, tela_int n, tela_int lda)
{
    double *a = tl_random_matrix(m, n, lda);
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            a[i + j * lda] = (double)((tela_int)tl_below((1 << 21) + 1) - (1 << 20));
    return a;
}

/* dgels scales A and B into the safe range when their largest element is below
 * dlamch('S') / dlamch('P') or above its inverse: A times 1e-300, 1e300 and powers of two near
 * them, B times 1 or the same factor, give X scaled accordingly; A and B of integers times
 * 2^-1074 (subnormal, exact) or 2^1000 give the integers' own X (scaled likewise). Against
 * OpenBLAS's dgels on the same scaled input too. */
static void test_gels_scaling(void **state)
{
    (void)state;
    const struct ob_qr *ob = ob_qr();
    static const double factors[] = {1e-300, 1e300, 0x1p-997, 0x1p997};
    tl_seed(5);
    for (size_t c = 0; c < SMALL_GELS; c++) {
        const struct small_gels g = small_gels_cases[c];
        const bool trans = g.trans == 'T';
        const tela_int rows = trans ? g.n : g.m, cols = trans ? g.m : g.n;
        const tela_int lda = g.m + 1, ldb = max_of(g.m, g.n) + 2;
        for (int integers = 0; integers < 2; integers++) {
            double *a0 = integers ? integer_matrix(g.m, g.n, lda) : tl_random_matrix(g.m, g.n, lda);
            double *b0 = integers ? integer_matrix(max_of(g.m, g.n), g.nrhs, ldb)
                                  : gels_rhs(trans, g.m, g.n, g.nrhs, a0, lda, ldb, rows >= cols);
            double *x0 = tl_copy(b0, ldb * g.nrhs), *a = tl_copy(a0, lda * g.n);
            assert_int_equal(tela_dgels(tela_par_seq(), g.trans, g.m, g.n, g.nrhs, a, lda, x0, ldb),
                             0);
            free(a);
            /* (A scale, B scale) pairs */
            double pairs[2 * (sizeof factors / sizeof factors[0])][2];
            size_t count = 0;
            if (integers) {
                /* X of the integers times 1, 1, 2^50, 2^-1000 */
                const double sub = 0x1p-1074, huge = 0x1p1000;
                const double list[][2] = {{sub, sub}, {huge, huge}, {sub, 0x1p-1024}, {huge, 1.0}};
                for (size_t i = 0; i < sizeof list / sizeof list[0]; i++, count++)
                    memcpy(pairs[count], list[i], sizeof list[i]);
            } else {
                for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++) {
                    pairs[count][0] = pairs[count][1] = factors[i];
                    count++;
                    pairs[count][0] = factors[i];
                    pairs[count][1] = 1.0;
                    count++;
                }
            }
            for (size_t p = 0; p < count; p++) {
                const double sa = pairs[p][0], sb = pairs[p][1];
                double *as = scaled_copy(g.m, g.n, a0, lda, sa);
                double *bs = scaled_copy(max_of(g.m, g.n), g.nrhs, b0, ldb, sb);
                double *want = scaled_copy(cols, g.nrhs, x0, ldb, sb / sa);
                double *ob_a = tl_copy(as, lda * g.n), *ob_b = tl_copy(bs, ldb * g.nrhs);
                char what[128];
                snprintf(what, sizeof what, "dgels %c %tdx%td, A times %g, B times %g%s", g.trans,
                         g.m, g.n, sa, sb, integers ? " (integers)" : "");
                const int info =
                    tela_dgels(tela_par_seq(), g.trans, g.m, g.n, g.nrhs, as, lda, bs, ldb);
                if (info != 0)
                    fail_msg("%s: info %d", what, info);
                tl_expect_padding(what, bs, max_of(g.m, g.n), g.nrhs, ldb);
                if (!all_finite(cols, g.nrhs, bs, ldb))
                    fail_msg("%s: X is not finite", what);
                expect_below(what, "||X - X0 sb / sa|| / (max(m, n) ||X|| eps)",
                             difference_ratio(cols, g.nrhs, bs, ldb, want, ldb, max_of(g.m, g.n)));
                if (ob) {
                    assert_int_equal(ob_gels(ob, g.trans, g.m, g.n, g.nrhs, ob_a, lda, ob_b, ldb),
                                     0);
                    expect_below(
                        what, "||X - X_OpenBLAS|| / (max(m, n) ||X|| eps)",
                        difference_ratio(cols, g.nrhs, bs, ldb, ob_b, ldb, max_of(g.m, g.n)));
                }
                free(as);
                free(bs);
                free(want);
                free(ob_a);
                free(ob_b);
            }
            free(a0);
            free(b0);
            free(x0);
        }
    }
}

/* A zero column j (m >= n) or zero row i (m < n) makes the triangle's diagonal element exactly
 * zero: info = j + 1 (the first of them) for both trans, as LAPACK's dgels (OpenBLAS's too), with
 * the factorization in A and nothing infinite or NaN in B's right-hand side rows. */
static void test_gels_rank_deficient(void **state)
{
    (void)state;
    const struct ob_qr *ob = ob_qr();
    /* m, n, first zero line, second (or -1) */
    static const tela_int cases[][4] = {{30, 20, 7, -1}, {20, 20, 19, -1}, {20, 30, 5, -1},
                                        {30, 20, 9, 3},  {25, 40, 0, -1},  {200, 90, 70, 80}};
    tl_seed(6);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int t = 0; t < 2; t++) {
            const tela_int m = cases[c][0], n = cases[c][1], lda = m + 1;
            const tela_int ldb = max_of(m, n) + 1, nrhs = 2;
            const char trans = t ? 'T' : 'N';
            double *a0 = tl_random_matrix(m, n, lda);
            for (int z = 2; z < 4; z++) {
                const tela_int line = cases[c][z];
                for (tela_int i = 0; line >= 0 && i < (m >= n ? m : n); i++)
                    a0[m >= n ? i + line * lda : line + i * lda] = 0.0;
            }
            const tela_int first =
                cases[c][3] >= 0 && cases[c][3] < cases[c][2] ? cases[c][3] : cases[c][2];
            double *b0 = gels_rhs(t == 1, m, n, nrhs, a0, lda, ldb, false);
            char what[96];
            snprintf(what, sizeof what, "dgels %c %tdx%td zero %s %td", trans, m, n,
                     m >= n ? "column" : "row", first);
            double *b = gels_checked(what, tela_par_auto(), trans, m, n, nrhs, a0, lda, b0, ldb,
                                     (int)first + 1);
            if (!all_finite(t ? n : m, nrhs, b, ldb))
                fail_msg("%s: B holds an Inf or NaN", what);
            if (ob) {
                double *oa = tl_copy(a0, lda * n), *obb = tl_copy(b0, ldb * nrhs);
                const int info = ob_gels(ob, trans, m, n, nrhs, oa, lda, obb, ldb);
                if (info != (int)first + 1)
                    fail_msg("%s: OpenBLAS's info is %d, expected %td", what, info, first + 1);
                free(oa);
                free(obb);
            }
            free(b);
            free(b0);
            free(a0);
        }
}

/* A = 0: X = 0 (all max(m, n) rows of B, LAPACK's dlaset), A untouched, info 0. m, n or
 * nrhs = 0: the same zeros (none for nrhs = 0), NULL arrays accepted where nothing is read. */
static void test_gels_zero(void **state)
{
    (void)state;
    static const tela_int cases[][3] = {{5, 3, 2}, {3, 5, 2}, {4, 4, 1}, {0, 3, 2},
                                        {3, 0, 2}, {0, 0, 1}, {6, 2, 0}};
    tl_seed(7);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int t = 0; t < 2; t++) {
            const tela_int m = cases[c][0], n = cases[c][1], nrhs = cases[c][2];
            const tela_int lda = m + 2, all = max_of(m, n), ldb = all + 2;
            double *a = tl_random_matrix(m, n, lda);
            for (tela_int j = 0; j < n; j++)
                for (tela_int i = 0; i < m; i++)
                    a[i + j * lda] = 0.0;
            double *a_before = tl_copy(a, lda * n), *b = tl_random_matrix(all, nrhs, ldb);
            double *b_before = tl_copy(b, ldb * nrhs);
            char what[64];
            snprintf(what, sizeof what, "dgels %c %tdx%td nrhs %td, A = 0", t ? 'T' : 'N', m, n,
                     nrhs);
            const int info = tela_dgels(tela_par_seq(), t ? 'T' : 'N', m, n, nrhs, a, lda, b, ldb);
            if (info != 0)
                fail_msg("%s: info %d", what, info);
            tu_expect_same(what, a, a_before, (size_t)(lda * n));
            for (tela_int j = 0; j < nrhs; j++)
                for (tela_int i = 0; i < all; i++)
                    b_before[i + j * ldb] = 0.0;
            tu_expect_same(what, b, b_before, (size_t)(ldb * nrhs));
            free(a);
            free(a_before);
            free(b);
            free(b_before);
        }
    assert_int_equal(tela_dgels(tela_par_seq(), 'N', 4, 3, 0, NULL, 4, NULL, 4), 0);
    double b[3] = {1, 2, 3};
    assert_int_equal(tela_dgels(tela_par_seq(), 'T', 0, 3, 1, NULL, 1, b, 3), 0);
    assert_true(b[0] == 0.0 && b[1] == 0.0 && b[2] == 0.0);
    /* B = 0 with A of full rank: X = 0 exactly (B's zero norm must not be scaled, which would
     * multiply by 0 / 0), tall and wide, both transposes. */
    for (int t = 0; t < 2; t++)
        for (int wide = 0; wide < 2; wide++) {
            const tela_int m = wide ? 3 : 5, n = wide ? 5 : 3;
            double *a = tl_random_matrix(m, n, m), x[2 * 5] = {0};
            assert_int_equal(tela_dgels(tela_par_seq(), t ? 'T' : 'N', m, n, 2, a, m, x, 5), 0);
            for (int i = 0; i < 2 * 5; i++)
                assert_true(x[i] == 0.0);
            free(a);
        }
}

/* ---- agreement with OpenBLAS ------------------------------------------------------------------
 */

/* tela's and OpenBLAS's dgeqrf (dgelqf) on the same input: the diagonal of R (L) of the same
 * signs exactly (dlarfg's beta = -sign(alpha) ||x||), R (L), tau and the reflectors within
 * LAPACK's threshold of each other; then dgels (every trans, over- and underdetermined) giving
 * the same X within it. */
static void test_against_openblas(void **state)
{
    (void)state;
    OB_QR_OR_SKIP(ob);
    static const tela_int sizes[][2] = {{7, 9},     {9, 7},     {65, 63},   {200, 129},
                                        {129, 200}, {150, 150}, {1000, 16}, {16, 1000}};
    tl_seed(8);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int qr = 0; qr < 2; qr++) {
            const tela_int m = sizes[s][0], n = sizes[s][1], k = min_of(m, n), lda = m + 1;
            double *a0 = tl_random_matrix(m, n, lda), *f = tl_copy(a0, lda * n);
            double *g = tl_copy(a0, lda * n), *tau = tl_alloc(k), *tau_ob = tl_alloc(k);
            assert_int_equal(qr ? tela_dgeqrf(tela_par_auto(), m, n, f, lda, tau)
                                : tela_dgelqf(tela_par_auto(), m, n, f, lda, tau),
                             0);
            assert_int_equal(ob_factor(qr ? ob->geqrf : ob->gelqf, m, n, g, lda, tau_ob), 0);
            char what[64];
            snprintf(what, sizeof what, "%s %tdx%td against OpenBLAS", qr ? "dgeqrf" : "dgelqf", m,
                     n);
            for (tela_int i = 0; i < k; i++)
                if (signbit(f[i + i * lda]) != signbit(g[i + i * lda]))
                    fail_msg("%s: diagonal element %td is %g, OpenBLAS's %g", what, i,
                             f[i + i * lda], g[i + i * lda]);
            /* The triangle (R or L) and the reflectors, each in its own array. */
            double *t_tri = qr ? upper_part(k, n, f, lda) : lower_part(m, k, f, lda);
            double *o_tri = qr ? upper_part(k, n, g, lda) : lower_part(m, k, g, lda);
            const tela_int tri_rows = qr ? k : m, tri_cols = qr ? n : k;
            expect_below(
                what, "||R - R_OpenBLAS|| / (max(m, n) ||A|| eps)",
                tl_ratio(difference_norm(tri_rows, tri_cols, t_tri, tri_rows, o_tri, tri_rows),
                         tl_norm1(m, n, a0, lda), max_of(m, n)));
            double vdiff = 0, vnorm = 0; /* the 1-norm over the reflectors, column by column */
            for (tela_int j = 0; j < n; j++) {
                double d = 0, v = 0;
                for (tela_int i = 0; i < m; i++)
                    if (qr ? i > j : j > i) {
                        d += fabs(f[i + j * lda] - g[i + j * lda]);
                        v += fabs(g[i + j * lda]);
                    }
                vdiff = worse(vdiff, d);
                vnorm = worse(vnorm, v);
            }
            expect_below(what, "||V - V_OpenBLAS|| / (max(m, n) ||V|| eps)",
                         tl_ratio(vdiff, vnorm, max_of(m, n)));
            expect_below(what, "max |tau - tau_OpenBLAS| / (max(m, n) eps)",
                         tl_ratio(difference_norm(1, k, tau, 1, tau_ob, 1), 1.0, max_of(m, n)));
            free(t_tri);
            free(o_tri);
            free(a0);
            free(f);
            free(g);
            free(tau);
            free(tau_ob);
        }
    tl_seed(9);
    for (size_t s = 0; s < GELS_CASES; s++)
        for (int t = 0; t < 2; t++) {
            const tela_int m = gels_cases[s][0], n = gels_cases[s][1], nrhs = gels_cases[s][2];
            const bool trans = t == 1;
            const tela_int rows = trans ? n : m, cols = trans ? m : n;
            const tela_int lda = m, ldb = max_of(m, n);
            double *a0 = tl_random_matrix(m, n, lda);
            double *b0 = gels_rhs(trans, m, n, nrhs, a0, lda, ldb, rows >= cols);
            double *a = tl_copy(a0, lda * n), *x = tl_copy(b0, ldb * nrhs);
            double *oa = tl_copy(a0, lda * n), *ox = tl_copy(b0, ldb * nrhs);
            assert_int_equal(tela_dgels(tela_par_auto(), t ? 'T' : 'N', m, n, nrhs, a, lda, x, ldb),
                             0);
            assert_int_equal(ob_gels(ob, t ? 'T' : 'N', m, n, nrhs, oa, lda, ox, ldb), 0);
            char what[64];
            snprintf(what, sizeof what, "dgels %c m=%td n=%td nrhs=%td against OpenBLAS",
                     t ? 'T' : 'N', m, n, nrhs);
            expect_below(what, "||X - X_OpenBLAS|| / (max(m, n) ||X|| eps)",
                         difference_ratio(cols, nrhs, x, ldb, ox, ldb, max_of(m, n)));
            free(a0);
            free(b0);
            free(a);
            free(x);
            free(oa);
            free(ox);
        }
}

/* ---- edge cases ---------------------------------------------------------------------------- */

/* m or n = 0: nothing read or written (NULL accepted); one row (QR) or column (LQ): reflectors
 * of order 1, tau = 0 and A unchanged bit for bit, a negative element included; one column
 * (QR) or row (LQ): beta = -sign(a0) ||a||, tau = (beta - a0) / beta, v = x / (a0 - beta), and
 * with x = 0 tau = 0 and A unchanged (dlarfg: H = I, alpha not negated). */
static void test_empty_and_one(void **state)
{
    (void)state;
    const tela_par p = tela_par_seq();
    double a[8], tau[4];
    for (int i = 0; i < 8; i++)
        a[i] = tl_sentinel();
    for (int i = 0; i < 4; i++)
        tau[i] = tl_sentinel();
    assert_int_equal(tela_dgeqrf(p, 0, 3, a, 1, tau), 0);
    assert_int_equal(tela_dgeqrf(p, 3, 0, a, 3, tau), 0);
    assert_int_equal(tela_dgeqrf(p, 0, 0, NULL, 1, NULL), 0);
    assert_int_equal(tela_dgelqf(p, 0, 3, a, 1, tau), 0);
    assert_int_equal(tela_dgelqf(p, 3, 0, a, 3, tau), 0);
    assert_int_equal(tela_dgelqf(p, 0, 0, NULL, 1, NULL), 0);
    assert_int_equal(tela_dorgqr(p, 3, 0, 0, NULL, 3, NULL), 0);
    assert_int_equal(tela_dorgqr(p, 0, 0, 0, NULL, 1, NULL), 0);
    assert_int_equal(tela_dorglq(p, 0, 3, 0, NULL, 1, NULL), 0);
    assert_int_equal(tela_dormqr(p, 'L', 'N', 0, 3, 0, NULL, 1, NULL, NULL, 1), 0);
    assert_int_equal(tela_dormqr(p, 'R', 'T', 3, 0, 0, NULL, 1, NULL, NULL, 3), 0);
    assert_int_equal(tela_dormqr(p, 'L', 'T', 3, 2, 0, NULL, 3, NULL, NULL, 3), 0);
    assert_int_equal(tela_dormlq(p, 'R', 'N', 3, 0, 0, NULL, 1, NULL, NULL, 3), 0);
    assert_int_equal(tela_dormlq(p, 'L', 'T', 3, 2, 0, NULL, 1, NULL, NULL, 3), 0);
    for (int i = 0; i < 8; i++)
        assert_true(tl_is_sentinel(&a[i]));
    for (int i = 0; i < 4; i++)
        assert_true(tl_is_sentinel(&tau[i]));

    tl_seed(10);
    static const tela_int lengths[] = {1, 2, 3, 7, 100};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
        for (int qr = 0; qr < 2; qr++)
            for (int kind = 0; kind < 3; kind++) {
                /* kind 0: random; 1: x = 0; 2: a0 = 0 too */
                const tela_int len = lengths[l];
                /* A line along which the reflector runs (QR: a column, LQ: a row), lda 3. */
                const tela_int m = qr ? len : 1, n = qr ? 1 : len, lda = m + 2;
                double *a0 = tl_random_matrix(m, n, lda);
                const tela_int step = qr ? 1 : lda;
                if (kind > 0)
                    for (tela_int i = kind == 1 ? 1 : 0; i < len; i++)
                        a0[i * step] = 0.0;
                if (kind == 0 && l % 2)
                    a0[0] = -fabs(a0[0]);
                double *f, *t;
                f = factor_checked(qr, p, m, n, a0, lda, &t);
                char what[64];
                snprintf(what, sizeof what, "%s %tdx%td, kind %d", qr ? "dgeqrf" : "dgelqf", m, n,
                         kind);
                if (len == 1 || kind > 0) {
                    if (memcmp(&t[0], &(double){0.0}, sizeof t[0]) != 0)
                        fail_msg("%s: tau = %g, expected +0", what, t[0]);
                    tu_expect_same(what, f, a0, (size_t)(lda * n));
                } else {
                    long double sq = 0;
                    for (tela_int i = 0; i < len; i++)
                        sq += (long double)a0[i * step] * a0[i * step];
                    const double alpha = a0[0], beta = (double)-copysignl(sqrtl(sq), alpha);
                    const double tol = 4 * (double)len * DBL_EPSILON;
                    if (!(fabs(f[0] - beta) <= tol * fabs(beta)))
                        fail_msg("%s: beta = %.17g, expected %.17g", what, f[0], beta);
                    const double want_tau = (beta - alpha) / beta;
                    if (!(fabs(t[0] - want_tau) <= tol * want_tau))
                        fail_msg("%s: tau = %.17g, expected %.17g", what, t[0], want_tau);
                    for (tela_int i = 1; i < len; i++) {
                        const double v = a0[i * step] / (alpha - beta);
                        if (!(fabs(f[i * step] - v) <= tol * fabs(v)))
                            fail_msg("%s: v[%td] = %.17g, expected %.17g", what, i, f[i * step], v);
                    }
                }
                free(f);
                free(t);
                free(a0);
            }

    /* 1 x n for QR and m x 1 for LQ: k = 1 reflector of order 1, the rest is R (L) as given. */
    for (int qr = 0; qr < 2; qr++) {
        const tela_int m = qr ? 1 : 6, n = qr ? 6 : 1, lda = m + 1;
        double *a0 = tl_random_matrix(m, n, lda), *f, *t;
        a0[0] = -0.75;
        f = factor_checked(qr, p, m, n, a0, lda, &t);
        assert_true(memcmp(&t[0], &(double){0.0}, sizeof t[0]) == 0);
        tu_expect_same(qr ? "dgeqrf 1 x 6" : "dgelqf 6 x 1", f, a0, (size_t)(lda * n));
        free(f);
        free(t);
        free(a0);
    }
}

/* Zero columns (QR) or rows (LQ), here and there, across blocks and tall and skinny (4100 x 16,
 * which tela may factor by TSQR): tau = 0 for each (dlarfg's H = I), the
 * column (row) of the factor exactly zero, no NaN, the ratios as usual; A = 0 gives all zero. */
static void test_zero_lines(void **state)
{
    (void)state;
    static const struct {
        tela_int m, n, zeros[4];
        int count;
    } cases[] = {{40, 30, {0, 7, 29}, 3},
                 {200, 150, {0, 64, 100, 149}, 4},
                 {9, 9, {8}, 1},
                 {12, 5, {0, 1, 2, 3}, 4},
                 {4100, 16, {5}, 1}};
    tl_seed(11);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int qr = 0; qr < 2; qr++)
            for (int whole = 0; whole < 2; whole++) {
                /* LQ: the transposed shape, zero rows */
                const tela_int m = qr ? cases[c].m : cases[c].n, n = qr ? cases[c].n : cases[c].m;
                const tela_int lda = m + 1, k = min_of(m, n);
                double *a0 = tl_random_matrix(m, n, lda);
                bool *zero = calloc((size_t)k + 1, sizeof(bool));
                assert_non_null(zero);
                for (tela_int line = 0; line < k; line++) {
                    for (int z = 0; z < cases[c].count; z++)
                        zero[line] = zero[line] || cases[c].zeros[z] == line || whole;
                    for (tela_int i = 0; zero[line] && i < (qr ? m : n); i++)
                        a0[qr ? i + line * lda : line + i * lda] = 0.0;
                }
                if (whole)
                    for (tela_int j = 0; j < n; j++)
                        for (tela_int i = 0; i < m; i++)
                            a0[i + j * lda] = 0.0;
                double *t, *f = factor_checked(qr, tela_par_auto(), m, n, a0, lda, &t);
                char what[64];
                snprintf(what, sizeof what, "%s %tdx%td with zero %s", qr ? "dgeqrf" : "dgelqf", m,
                         n, qr ? "columns" : "rows");
                if (has_nan(m, n, f, lda) || has_nan(1, k, t, 1))
                    fail_msg("%s: NaN in the factorization", what);
                /* A tall and skinny QR may go through TSQR, whose Q for a zero column is any
                 * completion of the others (A is rank deficient, Q not unique): there R(j, j) must
                 * be exactly zero and the reflector a proper one, not dlarfg's identity. */
                const bool tall = qr && m >= 64 * n;
                for (tela_int line = 0; line < k; line++) {
                    if (!zero[line])
                        continue;
                    if (tall && t[line] != 0.0) {
                        if (!(t[line] >= 1.0 && t[line] <= 2.0) || f[line + line * lda] != 0.0)
                            fail_msg("%s: tau[%td] = %g, R(j, j) = %g", what, line, t[line],
                                     f[line + line * lda]);
                        continue;
                    }
                    if (t[line] != 0.0)
                        fail_msg("%s: tau[%td] = %g", what, line, t[line]);
                    for (tela_int i = 0; i < (qr ? m : n); i++)
                        if (f[qr ? i + line * lda : line + i * lda] != 0.0)
                            fail_msg("%s: line %td, element %td not zero", what, line, i);
                }
                free(zero);
                free(f);
                free(t);
                free(a0);
            }
}

/* A column with nothing below its diagonal element: tau = 0 and the column as it was (dlarfg's
 * H = I, its alpha not negated), on every path: one panel (40 x 30), blocked (200 x 150), tall
 * and skinny (4100 x 16, 100 x 1); an upper triangular A (padded with zero rows) is its own QR
 * factorization, a lower triangular one its own LQ. As OpenBLAS's (LAPACK's) dgeqrf. */
static void test_triangular_input(void **state)
{
    (void)state;
    const struct ob_qr *ob = ob_qr();
    static const tela_int cases[][2] = {{40, 30}, {200, 150}, {4100, 16}, {100, 1}, {300, 64}};
    tl_seed(15);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int qr = 0; qr < 2; qr++) {
            const tela_int m = qr ? cases[c][0] : cases[c][1], n = qr ? cases[c][1] : cases[c][0];
            const tela_int lda = m + 1, k = min_of(m, n);
            double *a0 = tl_random_matrix(m, n, lda);
            for (tela_int j = 0; j < n; j++)
                for (tela_int i = 0; i < m; i++)
                    if (qr ? i > j : j > i)
                        a0[i + j * lda] = 0.0;
            double *t, *f = factor_checked(qr, tela_par_auto(), m, n, a0, lda, &t);
            char what[64];
            snprintf(what, sizeof what, "%s of a %s triangular %tdx%td", qr ? "dgeqrf" : "dgelqf",
                     qr ? "upper" : "lower", m, n);
            for (tela_int i = 0; i < k; i++)
                if (memcmp(&t[i], &(double){0.0}, sizeof t[i]) != 0)
                    fail_msg("%s: tau[%td] = %g, expected +0", what, i, t[i]);
            tu_expect_same(what, f, a0, (size_t)(lda * n));
            if (ob) {
                double *g = tl_copy(a0, lda * n), *tau_ob = tl_alloc(k);
                assert_int_equal(ob_factor(qr ? ob->geqrf : ob->gelqf, m, n, g, lda, tau_ob), 0);
                for (tela_int i = 0; i < k; i++)
                    assert_true(tau_ob[i] == 0.0);
                tu_expect_same("OpenBLAS on the same", g, a0, (size_t)(lda * n));
                free(g);
                free(tau_ob);
            }
            free(f);
            free(t);
            free(a0);
        }
}

/* A NaN in A: every routine returns (on a team with every region split too) and the NaN shows
 * in what it computes: in the factor's line holding it and the last line, Q, op(Q) C, and X. */
static void test_nan(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[2] = {tela_par_seq(), tela_par_team(team)};
    static const tela_int cases[][4] = {
        {50, 40, 3, 2}, {200, 150, 100, 90}, {40, 50, 0, 0}, {30, 30, 29, 29}};
    tl_seed(12);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int qr = 0; qr < 2; qr++)
            for (int w = 0; w < 2; w++) {
                const tela_int m = cases[c][0], n = cases[c][1], k = min_of(m, n), lda = m;
                const tela_int i0 = qr ? cases[c][2] : cases[c][3];
                const tela_int j0 = qr ? cases[c][3] : cases[c][2];
                double *f = tl_random_matrix(m, n, lda), *tau = tl_alloc(k);
                f[i0 + j0 * lda] = NAN;
                double *a0 = tl_copy(f, lda * n);
                char what[64];
                snprintf(what, sizeof what, "%s %tdx%td NaN at (%td, %td) width %d",
                         qr ? "dgeqrf" : "dgelqf", m, n, i0, j0, w + 1);
                const int info = qr ? tela_dgeqrf(pars[w], m, n, f, lda, tau)
                                    : tela_dgelqf(pars[w], m, n, f, lda, tau);
                if (info != 0)
                    fail_msg("%s: info %d", what, info);
                const bool line_nan =
                    qr ? has_nan(m, 1, f + j0 * lda, lda) : has_nan(1, n, f + i0, lda);
                const bool last_nan =
                    qr ? has_nan(m, 1, f + (n - 1) * lda, lda) : has_nan(1, n, f + (m - 1), lda);
                if (!line_nan || !last_nan)
                    fail_msg("%s: the NaN vanished (its line %d, the last %d)", what, line_nan,
                             last_nan);
                /* Q of the reflectors and op(Q) C: NaN too. */
                double *q = tl_copy(f, lda * n);
                assert_int_equal(qr ? tela_dorgqr(pars[w], m, k, k, q, lda, tau)
                                    : tela_dorglq(pars[w], k, n, k, q, lda, tau),
                                 0);
                /* A NaN in the last line only reaches the last reflector, of order 1 (tau = 0,
                 * as dlarfg gives): Q has none then. */
                const bool in_q = (qr ? j0 : i0) < k - 1;
                if (in_q != (qr ? has_nan(m, k, q, lda) : has_nan(k, n, q, lda)))
                    fail_msg("%s: NaN in Q: %d, expected %d", what, !in_q, in_q);
                const tela_int nq = qr ? m : n;
                double *cm = tl_random_matrix(nq, 3, nq);
                assert_int_equal(qr ? tela_dormqr(pars[w], 'L', 'T', nq, 3, k, f, lda, tau, cm, nq)
                                    : tela_dormlq(pars[w], 'L', 'T', nq, 3, k, f, lda, tau, cm, nq),
                                 0);
                if (in_q != has_nan(nq, 3, cm, nq))
                    fail_msg("%s: NaN in op(Q) C: %d, expected %d", what, !in_q, in_q);
                /* dgels on the same A, both trans: info 0 (no exact zero on the diagonal). */
                for (int t = 0; t < 2; t++) {
                    const tela_int ldb = max_of(m, n), cols = t ? m : n;
                    double *a = tl_copy(a0, lda * n), *b = tl_random_matrix(ldb, 2, ldb);
                    const int ginfo = tela_dgels(pars[w], t ? 'T' : 'N', m, n, 2, a, lda, b, ldb);
                    if (ginfo != 0 || !has_nan(cols, 2, b, ldb))
                        fail_msg("%s: dgels %c info %d, NaN in X %d", what, t ? 'T' : 'N', ginfo,
                                 has_nan(cols, 2, b, ldb));
                    free(a);
                    free(b);
                }
                free(cm);
                free(q);
                free(a0);
                free(f);
                free(tau);
            }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

/* ---- bad arguments ----------------------------------------------------------------------------
 * LAPACK's numbers without the workspace arguments, the first bad one in its order; a NULL
 * array that would be used is its own number; nothing written. */

static double bad_a[64], bad_tau[8], bad_c[64];

static void bad_fill(void)
{
    for (int i = 0; i < 64; i++)
        bad_a[i] = bad_c[i] = 1234.5 + i;
    for (int i = 0; i < 8; i++)
        bad_tau[i] = 0.5 + i;
}

static void bad_expect(const char *call, int got, int want)
{
    if (got != want)
        fail_msg("%s returned %d, expected %d", call, got, want);
    for (int i = 0; i < 64; i++)
        if (bad_a[i] != 1234.5 + i || bad_c[i] != 1234.5 + i)
            fail_msg("%s wrote element %d of A or C", call, i);
    for (int i = 0; i < 8; i++)
        if (bad_tau[i] != 0.5 + i)
            fail_msg("%s wrote tau[%d]", call, i);
}

#define BAD(call, want)                                                                            \
    do {                                                                                           \
        bad_fill();                                                                                \
        const int got_ = (call);                                                                   \
        bad_expect(#call, got_, (want));                                                           \
    } while (0)

static void test_bad_arguments(void **state)
{
    (void)state;
    tela_pool *pool = tu_pool_of_width(2);
    assert_non_null(pool);
    tela_team *team = tela_team_acquire(pool, 2);
    assert_non_null(team);
    const tela_par pars[3] = {tela_par_seq(), tela_par_auto(), tela_par_team(team)};
    double *const A = bad_a, *const T = bad_tau, *const C = bad_c;
    for (int w = 0; w < 3; w++) {
        const tela_par p = pars[w];
        /* dgeqrf and dgelqf: m 1, n 2, a 3, lda 4 (>= max(1, m)), tau 5 */
        int (*const factor[2])(tela_par, tela_int, tela_int, double *, tela_int,
                               double *) = {tela_dgeqrf, tela_dgelqf};
        for (int f = 0; f < 2; f++) {
            BAD(factor[f](p, -1, 2, A, 1, T), -1);
            BAD(factor[f](p, -1, -1, A, 0, NULL), -1);
            BAD(factor[f](p, 2, -1, A, 2, T), -2);
            BAD(factor[f](p, 2, -1, A, 1, T), -2);
            BAD(factor[f](p, 3, 2, A, 2, T), -4);
            BAD(factor[f](p, 0, 2, A, 0, T), -4);
            BAD(factor[f](p, 2, 2, NULL, 2, T), -3);
            BAD(factor[f](p, 2, 2, A, 2, NULL), -5);
        }
        /* dorgqr: m 1, n 2 (0 <= n <= m), k 3 (0 <= k <= n), a 4, lda 5, tau 6 */
        BAD(tela_dorgqr(p, -1, 0, 0, A, 1, T), -1);
        BAD(tela_dorgqr(p, 2, -1, 0, A, 2, T), -2);
        BAD(tela_dorgqr(p, 2, 3, 0, A, 2, T), -2);
        BAD(tela_dorgqr(p, 3, 2, -1, A, 3, T), -3);
        BAD(tela_dorgqr(p, 3, 2, 3, A, 3, T), -3);
        BAD(tela_dorgqr(p, 3, 2, 2, A, 2, T), -5);
        BAD(tela_dorgqr(p, 0, 0, 0, A, 0, T), -5);
        BAD(tela_dorgqr(p, 3, 2, 2, NULL, 3, T), -4);
        BAD(tela_dorgqr(p, 3, 2, 2, A, 3, NULL), -6);
        BAD(tela_dorgqr(p, 3, 3, 4, A, 2, T), -3);
        /* dorglq: m 1, n 2 (n >= m), k 3 (0 <= k <= m), a 4, lda 5, tau 6 */
        BAD(tela_dorglq(p, -1, 0, 0, A, 1, T), -1);
        BAD(tela_dorglq(p, 3, 2, 0, A, 3, T), -2);
        BAD(tela_dorglq(p, 2, 3, -1, A, 2, T), -3);
        BAD(tela_dorglq(p, 2, 3, 3, A, 2, T), -3);
        BAD(tela_dorglq(p, 2, 3, 2, A, 1, T), -5);
        BAD(tela_dorglq(p, 2, 3, 2, NULL, 2, T), -4);
        BAD(tela_dorglq(p, 2, 3, 2, A, 2, NULL), -6);
        /* dormqr and dormlq: side 1, trans 2 ('N' or 'T' only), m 3, n 4, k 5 (<= m for 'L',
         * n for 'R'), a 6, lda 7 (dormqr: >= max(1, m) for 'L', n for 'R'; dormlq: >= max(1,
         * k)), tau 8, c 9, ldc 10 (>= max(1, m)) */
        int (*const multiply[2])(tela_par, char, char, tela_int, tela_int, tela_int, const double *,
                                 tela_int, const double *, double *,
                                 tela_int) = {tela_dormqr, tela_dormlq};
        for (int f = 0; f < 2; f++) {
            BAD(multiply[f](p, 'X', 'N', 2, 2, 1, A, 2, T, C, 2), -1);
            BAD(multiply[f](p, 'X', 'X', -1, 2, 1, A, 2, T, C, 2), -1);
            BAD(multiply[f](p, 'L', 'C', 2, 2, 1, A, 2, T, C, 2), -2);
            BAD(multiply[f](p, 'r', 'x', 2, 2, 1, A, 2, T, C, 2), -2);
            BAD(multiply[f](p, 'L', 'N', -1, 2, 0, A, 1, T, C, 1), -3);
            BAD(multiply[f](p, 'R', 'T', 2, -1, 0, A, 2, T, C, 2), -4);
            BAD(multiply[f](p, 'L', 'T', 2, 3, -1, A, 2, T, C, 2), -5);
            BAD(multiply[f](p, 'L', 't', 2, 5, 3, A, 3, T, C, 2), -5);
            BAD(multiply[f](p, 'R', 'n', 5, 2, 3, A, 3, T, C, 5), -5);
            BAD(multiply[f](p, 'L', 'N', 2, 2, 1, NULL, 2, T, C, 2), -6);
            BAD(multiply[f](p, 'L', 'N', 2, 2, 1, A, 2, NULL, C, 2), -8);
            BAD(multiply[f](p, 'L', 'N', 2, 2, 1, A, 2, T, NULL, 2), -9);
            BAD(multiply[f](p, 'L', 'N', 3, 2, 2, A, 3, T, C, 2), -10);
            BAD(multiply[f](p, 'R', 'T', 0, 2, 1, A, 2, T, C, 0), -10);
        }
        BAD(tela_dormqr(p, 'L', 'N', 3, 2, 2, A, 2, T, C, 3), -7);
        BAD(tela_dormqr(p, 'R', 'N', 1, 3, 1, A, 2, T, C, 1), -7); /* lda against n for 'R' */
        BAD(tela_dormlq(p, 'L', 'N', 3, 2, 2, A, 1, T, C, 3), -7);
        BAD(tela_dormlq(p, 'R', 'T', 1, 3, 3, A, 2, T, C, 1), -7); /* lda against k */
        BAD(tela_dormlq(p, 'L', 'N', 3, 2, 0, A, 0, T, C, 3), -7);
        /* dgels: trans 1 ('N' or 'T' only), m 2, n 3, nrhs 4, a 5, lda 6 (>= max(1, m)), b 7,
         * ldb 8 (>= max(1, m, n)) */
        BAD(tela_dgels(p, 'C', 2, 2, 1, A, 2, C, 2), -1);
        BAD(tela_dgels(p, 'x', -1, 2, 1, A, 2, C, 2), -1);
        BAD(tela_dgels(p, 'N', -1, 2, 1, A, 1, C, 2), -2);
        BAD(tela_dgels(p, 'T', 2, -1, 1, A, 2, C, 2), -3);
        BAD(tela_dgels(p, 'N', 2, 2, -1, A, 2, C, 2), -4);
        BAD(tela_dgels(p, 'N', 3, 2, 1, A, 2, C, 3), -6);
        BAD(tela_dgels(p, 't', 0, 2, 1, A, 0, C, 2), -6);
        BAD(tela_dgels(p, 'N', 2, 3, 1, A, 2, C, 2), -8);
        BAD(tela_dgels(p, 'T', 3, 2, 1, A, 3, C, 2), -8);
        BAD(tela_dgels(p, 'N', 0, 0, 1, A, 1, C, 0), -8);
        BAD(tela_dgels(p, 'N', 2, 2, 1, NULL, 2, C, 2), -5);
        BAD(tela_dgels(p, 'N', 2, 2, 1, A, 2, NULL, 2), -7);
    }
    assert_int_equal(tela_team_release(team), 0);
    tela_pool_destroy(pool);
}

/* ---- the same bits at every width, from concurrent callers and inside a region --------------
 * One job runs every routine once on an m x n matrix: geqrf, orgqr (Q's first k columns), ormqr
 * (Q^T C and D Q), gelqf, orglq, ormlq (E Q^T), dgels N and T. */
#define JOB_OUTPUTS 13

struct qr_job {
    tela_int m, n, nrhs;
    double *in[JOB_OUTPUTS];     /* each output's initial content (NULL: filled by the job) */
    double *out[2][JOB_OUTPUTS]; /* [0] the serial result, [1] the one compared */
    tela_int len[JOB_OUTPUTS];
};

/* Runs the job's routines under par into out[set]; the number of calls that did not return 0.
 * No allocation: a job may run inside a region. */
static int job_run(tela_par par, struct qr_job *job, int set)
{
    const tela_int m = job->m, n = job->n, r = job->nrhs, k = min_of(m, n), all = max_of(m, n);
    double **o = job->out[set];
    for (int i = 0; i < JOB_OUTPUTS; i++)
        if (job->in[i])
            memcpy(o[i], job->in[i], sizeof(double) * (size_t)job->len[i]);
    int bad = 0;
    bad += tela_dgeqrf(par, m, n, o[0], m, o[1]) != 0;
    memcpy(o[2], o[0], sizeof(double) * (size_t)(m * k));
    bad += tela_dorgqr(par, m, k, k, o[2], m, o[1]) != 0;
    bad += tela_dormqr(par, 'L', 'T', m, r, k, o[0], m, o[1], o[3], m) != 0;
    bad += tela_dormqr(par, 'R', 'N', r, m, k, o[0], m, o[1], o[4], r) != 0;
    bad += tela_dgelqf(par, m, n, o[5], m, o[6]) != 0;
    for (tela_int j = 0; j < n; j++)
        memcpy(o[7] + j * k, o[5] + j * m, sizeof(double) * (size_t)k);
    bad += tela_dorglq(par, k, n, k, o[7], k, o[6]) != 0;
    bad += tela_dormlq(par, 'R', 'T', r, n, k, o[5], m, o[6], o[8], r) != 0;
    bad += tela_dgels(par, 'N', m, n, r, o[9], m, o[10], all) != 0;
    bad += tela_dgels(par, 'T', m, n, r, o[11], m, o[12], all) != 0;
    return bad;
}

static void job_make(struct qr_job *job, tela_int m, tela_int n, tela_int nrhs)
{
    const tela_int k = min_of(m, n), all = max_of(m, n);
    memset(job, 0, sizeof *job);
    job->m = m;
    job->n = n;
    job->nrhs = nrhs;
    const tela_int lens[JOB_OUTPUTS] = {m * n, k,        m * k, m * nrhs,   nrhs * m, m * n,     k,
                                        k * n, nrhs * n, m * n, all * nrhs, m * n,    all * nrhs};
    double *a = tl_random_matrix(m, n, m);
    for (int i = 0; i < JOB_OUTPUTS; i++) {
        job->len[i] = lens[i];
        job->out[0][i] = tl_alloc(lens[i]);
        job->out[1][i] = tl_alloc(lens[i]);
        const bool from_a = i == 0 || i == 5 || i == 9 || i == 11;
        if (from_a)
            job->in[i] = tl_copy(a, m * n);
        else if (i == 3 || i == 4 || i == 8 || i == 10 || i == 12)
            job->in[i] = tl_random_matrix(lens[i], 1, lens[i]);
    }
    free(a);
    assert_int_equal(job_run(tela_par_seq(), job, 0), 0);
}

static void job_free(struct qr_job *job)
{
    for (int i = 0; i < JOB_OUTPUTS; i++) {
        free(job->in[i]);
        free(job->out[0][i]);
        free(job->out[1][i]);
    }
}

static const char *const job_names[JOB_OUTPUTS] = {
    "dgeqrf A", "dgeqrf tau", "dorgqr",    "dormqr LT", "dormqr RN", "dgelqf A", "dgelqf tau",
    "dorglq",   "dormlq RT",  "dgels N A", "dgels N X", "dgels T A", "dgels T X"};

/* Doubles of out[1] that differ bitwise from out[0]; -1 when a call failed. */
static long job_differ(struct qr_job *job, double *worst)
{
    long differ = 0;
    for (int i = 0; i < JOB_OUTPUTS; i++)
        differ += tl_count_differ(job->out[1][i], job->out[0][i], job->len[i], worst);
    return differ;
}

/* Each shape at widths 1, 2, 8 and 16 (oversubscribed: this machine may have 2 CPUs) on a held
 * team with the near-free dispatch table loaded, so that every region splits as wide as it
 * may: the serial bits, and a worker took part. One panel (150 x 40), several blocks of 64
 * (k = 200, 130), tall and wide. */
static void test_widths_bitwise(void **state)
{
    (void)state;
    assert_int_equal(tela_costs_load(TELA_FIXTURE_DIR "/free-dispatch.costs"), TELA_OK);
    static const tela_int release_shapes[][3] = {
        {300, 200, 7}, {150, 40, 3}, {1000, 24, 2}, {60, 250, 5}};
    static const tela_int sanitized_shapes[][3] = {
        {200, 130, 3}, {150, 40, 3}, {400, 20, 2}, {40, 140, 3}};
    const tela_int(*shapes_run)[3] = TU_SANITIZED ? sanitized_shapes : release_shapes;
    static const int widths[] = {1, 2, 8, 16};
    tl_seed(13);
    for (size_t s = 0; s < 4; s++) {
        struct qr_job job;
        job_make(&job, shapes_run[s][0], shapes_run[s][1], shapes_run[s][2]);
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            tela_pool *pool = tu_pool_of_width(widths[w]);
            assert_non_null(pool);
            tela_team *team = tela_team_acquire(pool, widths[w]);
            assert_non_null(team);
            assert_int_equal(tela_team_width(team), widths[w]);
            const tela_stats before = tu_stats();
            const int bad = job_run(tela_par_team(team), &job, 1);
            const tela_stats after = tu_stats();
            assert_int_equal(tela_team_release(team), 0);
            tela_pool_destroy(pool);
            if (bad)
                fail_msg("%tdx%td at width %d: %d calls failed", job.m, job.n, widths[w], bad);
            if (widths[w] > 1 && after.region_wakeups == before.region_wakeups)
                fail_msg("%tdx%td at width %d: no worker took part", job.m, job.n, widths[w]);
            for (int i = 0; i < JOB_OUTPUTS; i++)
                if (memcmp(job.out[1][i], job.out[0][i], sizeof(double) * (size_t)job.len[i]) != 0)
                    fail_msg("%s %tdx%td at width %d: not the serial bits", job_names[i], job.m,
                             job.n, widths[w]);
        }
        job_free(&job);
    }
    assert_int_equal(tela_costs_load(NULL), TELA_OK);
}

static long run_caller_job(struct tl_caller *c)
{
    struct qr_job *job = c->job;
    if (job_run(c->par, job, 1) != 0)
        return -1;
    return job_differ(job, &c->worst);
}

static void jobs_make(struct qr_job jobs[TL_CALLERS], struct tl_caller callers[TL_CALLERS],
                      const tela_int shapes_of[TL_CALLERS][3])
{
    for (int i = 0; i < TL_CALLERS; i++) {
        job_make(&jobs[i], shapes_of[i][0], shapes_of[i][1], shapes_of[i][2]);
        callers[i].run = run_caller_job;
        callers[i].job = &jobs[i];
    }
}

/* Four threads at once through the default pool, then each member of a region of 4 (nested,
 * so serial, its scratch what the member keeps): the bits of a serial call. */
static void test_concurrent_and_nested(void **state)
{
    (void)state;
    static const tela_int job_shapes[TL_CALLERS][3] = {
        {120, 80, 3}, {60, 150, 2}, {200, 30, 4}, {90, 90, 1}};
    struct qr_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(14);
    jobs_make(jobs, callers, job_shapes);
    const int concurrent = tl_run_concurrent(callers);
    const int nested = tl_run_nested(callers);
    for (int i = 0; i < TL_CALLERS; i++)
        job_free(&jobs[i]);
    if (concurrent || nested)
        fail_msg("%d concurrent callers and %d region members computed other bits", concurrent,
                 nested);
}

/* The same inside a region with shapes whose blocked work is larger than the scratch a thread
 * keeps (about 512 KiB; 65 x 1100 needs 600 KiB and more): a member cannot allocate there, so
 * the routines take LAPACK's unblocked algorithms (docs/qr.md, "Workspace"), the same results up
 * to rounding but not the same bits: every member must finish with its info right and every
 * output within 1e-6 (relative) of the serial call's, where a wrong result differs by O(1). */
static void test_nested_beyond_kept_scratch(void **state)
{
    (void)state;
    static const tela_int job_shapes[TL_CALLERS][3] = {
        {65, 1100, 2}, {1100, 65, 2}, {70, 1000, 1}, {1000, 70, 3}};
    struct qr_job jobs[TL_CALLERS];
    struct tl_caller callers[TL_CALLERS];
    tl_seed(16);
    jobs_make(jobs, callers, job_shapes);
    (void)tl_run_nested(callers);
    int bad = 0;
    for (int i = 0; i < TL_CALLERS; i++) {
        if (callers[i].runs != 1 || callers[i].differ < 0 || !(callers[i].worst < 1e-6)) {
            printf("region member %d: ran %d times, %ld doubles differ by up to %.3g relative\n", i,
                   callers[i].runs, callers[i].differ, callers[i].worst);
            bad++;
        }
        job_free(&jobs[i]);
    }
    if (bad)
        fail_msg("%d region members computed more than rounding away from a serial call", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_factor_residuals),
        cmocka_unit_test(test_fewer_reflectors),
        cmocka_unit_test(test_multiply),
        cmocka_unit_test(test_gels_residuals),
        cmocka_unit_test(test_gels_scaling),
        cmocka_unit_test(test_gels_rank_deficient),
        cmocka_unit_test(test_gels_zero),
        cmocka_unit_test(test_against_openblas),
        cmocka_unit_test(test_empty_and_one),
        cmocka_unit_test(test_zero_lines),
        cmocka_unit_test(test_triangular_input),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_widths_bitwise),
        cmocka_unit_test(test_concurrent_and_nested),
        cmocka_unit_test(test_nested_beyond_kept_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
