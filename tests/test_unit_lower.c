/* test_unit_lower.c — getrf's solve on packed panels (src/gemm/unit_lower*.c):
 * every kernel this CPU runs gives the plain build's bits, for orders with
 * and without a remainder of the AVX-512 loop's four rows and L read both
 * row by row (a copy) and in place (column-major); the residual L X - P is
 * within substitution's backward error bound. */
#define _GNU_SOURCE
#include "testutil.h"

#include "gemm/gemm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { K_MAX = 130, LD = K_MAX + 3 };

static double uniform(unsigned *seed)
{
    return (double)rand_r(seed) / RAND_MAX * 2.0 - 1.0;
}

/* max over elements of |L X - P| / (k eps (|L| |X|)): substitution's
 * backward error bound, L unit lower in l (ld LD). */
static double residual(int k, const double *l, const double *x, const double *p, int nr)
{
    double worst = 0.0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < nr; j++) {
            long double s = x[i * nr + j], size = fabs(x[i * nr + j]);
            for (int q = 0; q < i; q++) {
                s += (long double)l[i + q * LD] * x[q * nr + j];
                size += fabsl((long double)l[i + q * LD] * x[q * nr + j]);
            }
            worst = fmax(worst, (double)(fabsl(s - p[i * nr + j]) / (k * size * 0x1p-52)));
        }
    return worst;
}

static void test_kernels_agree_and_solve(void **state)
{
    (void)state;
    static const int orders[] = {1, 2, 3, 4, 5, 7, 8, 13, 31, 32, 33, 64, 127, 128, K_MAX};
    static const char *names[] = {"generic", "avx2", "avx512"};
    unsigned seed = 5;
    double *l = malloc(sizeof(double) * LD * K_MAX), *rows = malloc(sizeof(double) * K_MAX * K_MAX);
    double *p = malloc(sizeof(double) * K_MAX * GEMM_NR_MAX);
    double *want = malloc(sizeof(double) * K_MAX * GEMM_NR_MAX);
    double *got = malloc(sizeof(double) * K_MAX * GEMM_NR_MAX);
    assert_true(l && rows && p && want && got);
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        const int k = orders[o];
        /* |L(i, p)| <= 1, as partial pivoting leaves it. */
        for (int i = 0; i < k; i++)
            for (int q = 0; q < k; q++) {
                l[i + q * LD] = q < i ? uniform(&seed) : q == i ? 1.0 : NAN;
                rows[i * k + q] = l[i + q * LD];
            }
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
            const gemm_kernel *kr = gemm_kernel_by_name(names[n]);
            if (!kr)
                continue; /* not on this CPU */
            const int nr = kr->nr;
            for (int i = 0; i < k * nr; i++)
                p[i] = uniform(&seed);
            memcpy(want, p, sizeof(double) * (size_t)(k * nr));
            gemm_unit_lower_panel_generic(k, rows, k, 1, nr, want);
            assert_true(residual(k, l, want, p, nr) < 1.0);
            /* The kernel's own build, L as a row-major copy and in place. */
            memcpy(got, p, sizeof(double) * (size_t)(k * nr));
            kr->unit_lower_panel(k, rows, k, 1, nr, got);
            assert_memory_equal(got, want, sizeof(double) * (size_t)(k * nr));
            memcpy(got, p, sizeof(double) * (size_t)(k * nr));
            kr->unit_lower_panel(k, l, 1, LD, nr, got);
            assert_memory_equal(got, want, sizeof(double) * (size_t)(k * nr));
        }
    }
    free(l);
    free(rows);
    free(p);
    free(want);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_agree_and_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
