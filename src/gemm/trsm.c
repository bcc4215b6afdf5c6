/* trsm.c — tela_dtrsm: solves op(A) X = alpha B or X op(A) = alpha B in
 * place, A triangular.
 *
 * Recursive (level3_tri_recurse in flags.c, shared with trmm): the
 * triangle is halved until LEVEL3_BASE, the off-diagonal block's update is
 * one tela_dgemm (where the parallelism and almost all the flops are), the
 * small diagonal triangles are solved by the vector loops of tri_base.h.
 * On the left with few right-hand sides, larger triangles go by blocks of
 * rows in one region instead (solve_steps.c). */
#include "gemm/level3.h"

static void solve(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o, tela_int s,
                  tela_int m, tela_int n, double *b, tela_int ldb)
{
    if (level3_solve_by_blocks(ctx, t, left, o, s, m, n, b, ldb) ||
        level3_tri_chunked(ctx, solve, true, t, left, o, s, m, n, b, ldb))
        return;
    level3_tri_recurse(ctx, solve, true, t, left, o, s, m, n, b, ldb);
}

int tela_dtrsm(tela_par par, char side, char uplo, char transa, char diag, tela_int m, tela_int n,
               double alpha, const double *a, tela_int lda, double *b, tela_int ldb)
{
    tri_view t;
    bool left;
    int status =
        level3_triangular_args(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, &t, &left);
    if (status == 0) {
        const level3_ctx ctx = {.par = par};
        if (!left || !level3_solve_in_steps(par, &t, m, n, b, ldb))
            solve(&ctx, &t, left, 0, left ? m : n, m, n, b, ldb);
    }
    return status < 0 ? status : 0;
}
