/* loops_generic.c — the level-1 loops in plain C, for any CPU: sums kept in four accumulators so
 * that additions overlap instead of waiting on each other; the compiler vectorises the rest as
 * the target allows. The reference for what the AVX2 and AVX-512 loops compute. */
#include "level1/level1.h"

#include <math.h>

static double dot_generic(tela_int n, const double *x, const double *y)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    tela_int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
        s2 += x[i + 2] * y[i + 2];
        s3 += x[i + 3] * y[i + 3];
    }
    for (; i < n; i++)
        s0 += x[i] * y[i];
    return (s0 + s1) + (s2 + s3);
}

static void axpy_generic(tela_int n, double alpha, const double *x, double *y)
{
    for (tela_int i = 0; i < n; i++)
        y[i] += alpha * x[i];
}

static void scal_generic(tela_int n, double alpha, double *x)
{
    for (tela_int i = 0; i < n; i++)
        x[i] *= alpha;
}

static void swap_generic(tela_int n, double *x, double *y)
{
    for (tela_int i = 0; i < n; i++) {
        const double t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

static double asum_generic(tela_int n, const double *x)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    tela_int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += fabs(x[i]);
        s1 += fabs(x[i + 1]);
        s2 += fabs(x[i + 2]);
        s3 += fabs(x[i + 3]);
    }
    for (; i < n; i++)
        s0 += fabs(x[i]);
    return (s0 + s1) + (s2 + s3);
}

static level1_ssq ssq_generic(tela_int n, const double *x)
{
    level1_ssq acc = {0, 0, 0};
    for (tela_int i = 0; i < n; i++) {
        const double ax = fabs(x[i]);
        if (ax > LEVEL1_TBIG) {
            const double t = ax * LEVEL1_SBIG;
            acc.big += t * t;
        } else if (ax < LEVEL1_TSML) {
            const double t = ax * LEVEL1_SSML;
            acc.small += t * t;
        } else {
            acc.medium += ax * ax; /* NaN lands here, as in the reference */
        }
    }
    return acc;
}

static level1_max amax_generic(tela_int n, const double *x)
{
    level1_max best = {-1.0, 0};
    for (tela_int i = 0; i < n; i++) {
        const double ax = fabs(x[i]);
        if (ax > best.value) { /* false for NaN: never chosen */
            best.value = ax;
            best.index = i;
        }
    }
    return best;
}

static void rot_generic(tela_int n, double *x, double *y, double c, double s)
{
    for (tela_int i = 0; i < n; i++) {
        const double xi = x[i], yi = y[i];
        x[i] = c * xi + s * yi;
        y[i] = c * yi - s * xi;
    }
}

const level1_loops level1_loops_generic = {
    .name = "generic",
    .dot = dot_generic,
    .axpy = axpy_generic,
    .scal = scal_generic,
    .swap = swap_generic,
    .asum = asum_generic,
    .ssq = ssq_generic,
    .amax = amax_generic,
    .rot = rot_generic,
    .streaming = &level1_loops_generic,
};
