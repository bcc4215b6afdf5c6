/* bulge.c — the second stage of the two-stage reduction (the idea of LAPACK's dsb2st kernels,
 * lower): a symmetric band of width b to tridiagonal form by bulge chasing. Sweep s annihilates
 * column s below its subdiagonal with one reflector of length <= b, which, applied from the
 * right to the block below, creates a bulge there; the next reflector annihilates the bulge's
 * first column, and so on down the band. Every step touches O(b^2) entries of a compact band
 * copy, so a step runs in L1. Values only: the reflectors are dropped as soon as applied. The
 * chase is compiled for AVX2 and AVX-512 too (par_isa_chosen picks one): 1.3-1.4x SSE2's
 * speed at b = 32, n = 2000. */
#include "eig/eig.h"
#include "par/engine.h"
#include "qr/qr.h"

/* The band holds A(j + r, j) at band[r + j ldb], r < ldb: read with leading dimension ldb - 1
 * it is A itself, dense, for every entry it stores (the trick of LAPACK's LDA - 1). */
#define AT(a, ld, i, j) ((a)[(i) + (size_t)(j) * (size_t)(ld)])

/* The kernels are inlined into each ISA's build of the chase, compiled with its flags. */
#define INLINE static inline __attribute__((always_inline))

/* The sum of band_dot's eight running sums. */
INLINE double sum8(const double *s)
{
    return ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
}

/* sum x_i y_i over eight running sums, so the compiler can keep them in one vector register
 * (a single sum is a chain it may not reorder). */
INLINE double band_dot(tela_int n, const double *x, const double *y)
{
    double s[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    tela_int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++)
            s[k] += x[i + k] * y[i + k];
    for (; i < n; i++)
        s[i & 7] += x[i] * y[i];
    return sum8(s);
}

/* H A H for the len x len symmetric a (lower triangle at ld), H = I - tau v v^T (LAPACK's
 * dlarfy): w = tau A v, w -= (tau/2) (w^T v) v, A -= v w^T + w v^T. w holds len doubles. */
INLINE void two_sided(tela_int len, const double *v, double tau, double *a, tela_int ld, double *w)
{
    for (tela_int i = 0; i < len; i++)
        w[i] = 0.0;
    for (tela_int j = 0; j < len; j++) {
        const double *col = a + (size_t)j * (size_t)ld;
        const double vj = v[j];
        for (tela_int i = j + 1; i < len; i++)
            w[i] += col[i] * vj;
        w[j] += col[j] * vj + band_dot(len - j - 1, col + j + 1, v + j + 1);
    }
    for (tela_int i = 0; i < len; i++)
        w[i] *= tau;
    const double alpha = -0.5 * tau * band_dot(len, w, v);
    for (tela_int i = 0; i < len; i++)
        w[i] += alpha * v[i];
    for (tela_int j = 0; j < len; j++) {
        double *col = a + (size_t)j * (size_t)ld;
        const double vj = v[j], wj = w[j];
        for (tela_int i = j; i < len; i++)
            col[i] -= v[i] * wj + w[i] * vj;
    }
}

/* C = C (I - tau v v^T) for the rows x cols block c: w = C v, C -= tau w v^T. */
INLINE void from_right(tela_int rows, tela_int cols, const double *v, double tau, double *c,
                       tela_int ld, double *w)
{
    for (tela_int i = 0; i < rows; i++)
        w[i] = 0.0;
    for (tela_int j = 0; j < cols; j++) {
        const double *col = c + (size_t)j * (size_t)ld;
        const double vj = v[j];
        for (tela_int i = 0; i < rows; i++)
            w[i] += col[i] * vj;
    }
    for (tela_int j = 0; j < cols; j++) {
        double *col = c + (size_t)j * (size_t)ld;
        const double f = tau * v[j];
        for (tela_int i = 0; i < rows; i++)
            col[i] -= f * w[i];
    }
}

/* C = (I - tau v v^T) C for the rows x cols block c, a column at a time (four columns' dots
 * side by side measured slower). */
INLINE void from_left(tela_int rows, tela_int cols, const double *v, double tau, double *c,
                      tela_int ld)
{
    for (tela_int j = 0; j < cols; j++) {
        double *col = c + (size_t)j * (size_t)ld;
        const double f = tau * band_dot(rows, v, col);
        for (tela_int i = 0; i < rows; i++)
            col[i] -= f * v[i];
    }
}

/* The reflector that annihilates x[1 .. len) into x[0], its vector v (v[0] = 1) taken out of
 * the band and the annihilated entries set to zero. */
static double annihilate(tela_int len, double *x, double *v)
{
    double tau;
    qr_reflector(len, x, x + 1, 1, &tau);
    v[0] = 1.0;
    for (tela_int i = 1; i < len; i++) {
        v[i] = x[i];
        x[i] = 0.0;
    }
    return tau;
}

/* The sweeps one after the other (LAPACK's serial order interleaves them; any order that
 * keeps sweep s + 1's step k after sweep s's step k + 1 gives the same result). */
INLINE void chase(tela_int n, tela_int b, double *band, tela_int ldb)
{
    const tela_int ld = ldb - 1;
    double v[2 * EIG_BAND_MAX], *w = v + EIG_BAND_MAX;
    for (tela_int s = 0; b > 1 && s + 2 < n; s++) {
        /* The sweep's first step: column s below its subdiagonal, the reflector applied on both
         * sides of the diagonal block it acts on. */
        tela_int st = s + 1, ed = s + b < n - 1 ? s + b : n - 1;
        double tau = annihilate(ed - st + 1, &AT(band, ld, st, s), v);
        if (tau != 0.0)
            two_sided(ed - st + 1, v, tau, &AT(band, ld, st, st), ld, w);
        /* Then down the band: the block below (rows j1 .. j2) takes the reflector from the
         * right, which fills its first column, annihilated by the next reflector from the left,
         * applied on both sides of its own diagonal block. */
        for (tela_int j1 = ed + 1; j1 < n; j1 = ed + 1) {
            const tela_int j2 = ed + b < n - 1 ? ed + b : n - 1, rows = j2 - j1 + 1;
            const tela_int cols = ed - st + 1;
            if (tau != 0.0)
                from_right(rows, cols, v, tau, &AT(band, ld, j1, st), ld, w);
            tau = annihilate(rows, &AT(band, ld, j1, st), v);
            if (tau != 0.0) {
                from_left(rows, cols - 1, v, tau, &AT(band, ld, j1, st + 1), ld);
                two_sided(rows, v, tau, &AT(band, ld, j1, j1), ld, w);
            }
            st = j1;
            ed = j2;
        }
    }
}

static void chase_plain(tela_int n, tela_int b, double *band, tela_int ldb)
{
    chase(n, b, band, ldb);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define CHASE_WIDE 1
__attribute__((target("avx2,fma"))) static void chase_avx2(tela_int n, tela_int b, double *band,
                                                           tela_int ldb)
{
    chase(n, b, band, ldb);
}

__attribute__((target("avx512f,fma"))) static void chase_avx512(tela_int n, tela_int b,
                                                                double *band, tela_int ldb)
{
    chase(n, b, band, ldb);
}
#endif

void eig_sb2st(tela_int n, tela_int b, double *band, tela_int ldb, double *d, double *e)
{
#ifdef CHASE_WIDE
    const par_isa isa = par_isa_chosen();
    if (isa == PAR_ISA_AVX512)
        chase_avx512(n, b, band, ldb);
    else if (isa == PAR_ISA_AVX2)
        chase_avx2(n, b, band, ldb);
    else
#endif
        chase_plain(n, b, band, ldb);
    for (tela_int j = 0; j < n; j++)
        d[j] = band[(size_t)j * (size_t)ldb];
    for (tela_int j = 0; j + 1 < n; j++)
        e[j] = band[1 + (size_t)j * (size_t)ldb];
}
