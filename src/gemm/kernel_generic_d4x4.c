/* kernel_generic_d4x4.c — the 4 x 4 double micro-kernel in plain C, for CPUs
 * without AVX2. Multiply then add (no fma(): without FMA hardware it is a
 * slow library call); the compiler vectorises the inner loops with SSE2. */
#include "gemm/gemm.h"

enum { MR = 4, NR = 4 };

void gemm_kernel_generic_d4x4(int kc, const double *restrict a, const double *restrict b,
                              double *restrict c, ptrdiff_t ldc, double beta)
{
    double acc[NR][MR] = {{0}};
    for (int p = 0; p < kc; p++) {
        for (int j = 0; j < NR; j++)
            for (int i = 0; i < MR; i++)
                acc[j][i] += a[i] * b[j];
        a += MR;
        b += NR;
    }
    gemm_store_tile(c, ldc, &acc[0][0], MR, NR, beta);
}
