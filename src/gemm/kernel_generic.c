/* kernel_generic.c — the 4 x 4 double micro-kernel in plain C, for CPUs
 * without AVX2. Multiply then add (no fma(): without FMA hardware it is a
 * slow library call); the compiler vectorises the inner loops with SSE2. */
#include "gemm/gemm.h"

enum { MR = 4, NR = 4 };

void gemm_ukernel_generic(int kc, const double *restrict a, const double *restrict b,
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
    for (int j = 0; j < NR; j++) {
        double *cj = c + j * ldc;
        for (int i = 0; i < MR; i++) {
            if (beta == 0.0)
                cj[i] = acc[j][i];
            else if (beta == 1.0)
                cj[i] = cj[i] + acc[j][i];
            else
                cj[i] = beta * cj[i] + acc[j][i];
        }
    }
}
