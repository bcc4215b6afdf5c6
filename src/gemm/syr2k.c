/* syr2k.c — tela_dsyr2k: C = alpha (A B^T + B A^T) + beta C (trans 'N') or
 * alpha (A^T B + B^T A) + beta C ('T'), only the uplo triangle of C referenced.
 *
 * Where the product packs: one of syrk's GEMMs restricted to the triangle (syrk.c), of depth 2k,
 * [op(A) op(B)] times [op(B) op(A)]^T, whose operands continue along k in the other matrix
 * (gemm_pair): each tile of C sums both halves before C is read and written, once per k block
 * instead of once per block of each product. Small ones, on the unpacked path (which reads
 * operands in place, not pairs): two such GEMMs, the second adding to the first,
 * alpha op(A) op(B)^T + beta C, then alpha op(B) op(A)^T + C. The path follows the sizes and
 * each GEMM is bitwise the same at every width, so the result is too. */
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
    const gemm_problem first = {gemm_kernel_get(),
                                {a, lda, t},
                                {b, ldb, !t},
                                c,
                                ldc,
                                n,
                                n,
                                k,
                                alpha,
                                beta,
                                part,
                                false,
                                NULL,
                                NULL};
    if (!gemm_prefers_unpacked(&first)) {
        /* One product where it packs: the kernel set's packers, on a copy that never takes the
         * unpacked path. */
        gemm_kernel packing = *first.kernel;
        packing.packed_only = true;
        const gemm_pair pair = {{b, ldb, t}, {a, lda, !t}, k};
        gemm_problem both = first;
        both.kernel = &packing;
        both.k = 2 * (ptrdiff_t)k;
        both.pair = &pair;
        gemm_run(par, &both, "dsyr2k");
        return 0;
    }
    gemm_problem second = first;
    second.a = (gemm_operand){b, ldb, t};
    second.b = (gemm_operand){a, lda, !t};
    second.beta = 1.0;
    gemm_run(par, &first, "dsyr2k");
    gemm_run(par, &second, "dsyr2k");
    return 0;
}
