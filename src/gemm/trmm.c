/* trmm.c — tela_dtrmm: B = alpha op(A) B or B = alpha B op(A) in place, A
 * triangular.
 *
 * Recursive as trsm.c: each half is multiplied in the order that still
 * finds the other half of B unchanged when tela_dgemm adds its share.
 * Triangles of order <= LEVEL3_CHUNK_TRI are multiplied by whole blocks
 * of the kernel's tiles instead (multiply_packed.c). */
#include "gemm/level3.h"

static void multiply(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o, tela_int s,
                     tela_int m, tela_int n, double *b, tela_int ldb)
{
    if (!ctx->in_chunk && level3_multiply_packed(ctx->par, t, left, o, s, left ? n : m, b, ldb))
        return;
    if (level3_tri_chunked(ctx, multiply, "dtrmm", t, left, o, s, m, n, b, ldb))
        return;
    if (s <= LEVEL3_BASE) {
        level3_tri_base(t, o, s, left, false, left ? n : m, b, ldb);
        return;
    }
    tela_int s1 = level3_first_half(s), s2 = s - s1;
    char ta;
    if (left) {
        double *b1 = b, *b2 = b + s1;
        if (t->lower) {
            multiply(ctx, t, left, o + s1, s2, s2, n, b2, ldb);
            const double *a21 = tri_block(t, o + s1, o, &ta);
            level3_gemm(ctx, ta, 'N', s2, n, s1, 1.0, a21, t->lda, b1, ldb, 1.0, b2, ldb);
            multiply(ctx, t, left, o, s1, s1, n, b1, ldb);
        } else {
            multiply(ctx, t, left, o, s1, s1, n, b1, ldb);
            const double *a12 = tri_block(t, o, o + s1, &ta);
            level3_gemm(ctx, ta, 'N', s1, n, s2, 1.0, a12, t->lda, b2, ldb, 1.0, b1, ldb);
            multiply(ctx, t, left, o + s1, s2, s2, n, b2, ldb);
        }
    } else {
        double *b1 = b, *b2 = b + s1 * ldb;
        if (!t->lower) {
            multiply(ctx, t, left, o + s1, s2, m, s2, b2, ldb);
            const double *a12 = tri_block(t, o, o + s1, &ta);
            level3_gemm(ctx, 'N', ta, m, s2, s1, 1.0, b1, ldb, a12, t->lda, 1.0, b2, ldb);
            multiply(ctx, t, left, o, s1, m, s1, b1, ldb);
        } else {
            multiply(ctx, t, left, o, s1, m, s1, b1, ldb);
            const double *a21 = tri_block(t, o + s1, o, &ta);
            level3_gemm(ctx, 'N', ta, m, s1, s2, 1.0, b2, ldb, a21, t->lda, 1.0, b1, ldb);
            multiply(ctx, t, left, o + s1, s2, m, s2, b2, ldb);
        }
    }
}

int tela_dtrmm(tela_par par, char side, char uplo, char transa, char diag, tela_int m, tela_int n,
               double alpha, const double *a, tela_int lda, double *b, tela_int ldb)
{
    tri_view t;
    bool left;
    int status =
        level3_triangular_args(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, &t, &left);
    if (status == 0) {
        const level3_ctx ctx = {par, false, NULL, 0};
        multiply(&ctx, &t, left, 0, left ? m : n, m, n, b, ldb);
    }
    return status < 0 ? status : 0;
}
