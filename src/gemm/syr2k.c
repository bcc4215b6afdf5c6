/* syr2k.c — tela_dsyr2k: C = alpha (A B^T + B A^T) + beta C (trans 'N') or
 * alpha (A^T B + B^T A) + beta C ('T'), only the uplo triangle of C referenced.
 *
 * Two of syrk's GEMMs restricted to the triangle (syrk.c), the second adding to the first:
 * alpha op(A) op(B)^T + beta C, then alpha op(B) op(A)^T + C. Together they pack what one
 * product of depth 2k would (op(A) and op(B) once on each side) and run as many k blocks
 * whenever k is a multiple of the kernel's depth; each is bitwise the same at every width, so
 * the sum is too. */
#include "gemm/level3.h"

int tela_dsyr2k(tela_par par, char uplo, char trans, tela_int n, tela_int k, double alpha,
                const double *a, tela_int lda, const double *b, tela_int ldb, double beta,
                double *c, tela_int ldc)
{
    bool upper, t;
    if (!level3_uplo(uplo, &upper))
        return -1;
    if (!level3_trans(trans, &t))
        return -2;
    if (n < 0)
        return -3;
    if (k < 0)
        return -4;
    const tela_int rows = t ? k : n; /* of A and B */
    if (lda < (rows > 1 ? rows : 1))
        return -7;
    if (ldb < (rows > 1 ? rows : 1))
        return -9;
    if (ldc < (n > 1 ? n : 1))
        return -12;
    if (n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0))
        return 0;
    if (!c)
        return -11;
    if (alpha == 0.0 || k == 0) {
        level3_scale_triangle(c, ldc, n, upper, beta);
        return 0;
    }
    if (!a)
        return -6;
    if (!b)
        return -8;
    /* op(X) is n x k: X, or X read transposed; op(X)^T is the same memory read the other way. */
    const gemm_part part = upper ? GEMM_UPPER : GEMM_LOWER;
    const gemm_problem first = {
        gemm_kernel_get(), {a, lda, t}, {b, ldb, !t}, c, ldc, n, n, k, alpha, beta, part, false};
    gemm_problem second = first;
    second.a = (gemm_operand){b, ldb, t};
    second.b = (gemm_operand){a, lda, !t};
    second.beta = 1.0;
    gemm_run(par, &first, "dsyr2k");
    gemm_run(par, &second, "dsyr2k");
    return 0;
}
