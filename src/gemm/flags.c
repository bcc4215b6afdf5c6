/* flags.c — what trsm, trmm and syrk share: BLAS's character arguments,
 * the argument checks of trsm/trmm, scaling by alpha, the base triangle,
 * the recursion of trsm and trmm around it and what their regions tell the gate. */
#include "gemm/level3.h"
#include "par/engine.h"

bool level3_side(char c, bool *left)
{
    *left = c == 'L' || c == 'l';
    return *left || c == 'R' || c == 'r';
}

bool level3_uplo(char c, bool *upper)
{
    *upper = c == 'U' || c == 'u';
    return *upper || c == 'L' || c == 'l';
}

bool level3_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't' || c == 'C' || c == 'c';
    return *trans || c == 'N' || c == 'n';
}

bool level3_diag(char c, bool *unit)
{
    *unit = c == 'U' || c == 'u';
    return *unit || c == 'N' || c == 'n';
}

void level3_scale(double *b, tela_int ldb, tela_int m, tela_int n, double alpha)
{
    if (alpha == 1.0)
        return;
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i < m; i++)
            b[i + j * ldb] = alpha == 0.0 ? 0.0 : alpha * b[i + j * ldb];
}

int level3_triangular_args(char side, char uplo, char transa, char diag, tela_int m, tela_int n,
                           double alpha, const double *a, tela_int lda, double *b, tela_int ldb,
                           tri_view *t, bool *left)
{
    bool upper, trans, unit;
    if (!level3_side(side, left))
        return -1;
    if (!level3_uplo(uplo, &upper))
        return -2;
    if (!level3_trans(transa, &trans))
        return -3;
    if (!level3_diag(diag, &unit))
        return -4;
    if (m < 0)
        return -5;
    if (n < 0)
        return -6;
    tela_int rows_a = *left ? m : n;
    if (lda < (rows_a > 1 ? rows_a : 1))
        return -9;
    if (ldb < (m > 1 ? m : 1))
        return -11;
    if (m == 0 || n == 0)
        return 1;
    if (!b)
        return -10;
    if (alpha != 0.0 && !a)
        return -8;
    level3_scale(b, ldb, m, n, alpha);
    if (alpha == 0.0)
        return 1;
    /* op(A) is lower when A is lower and not transposed, or upper and transposed. */
    *t = (tri_view){a, lda, trans, upper == trans, unit};
    return 0;
}

void level3_tri_build(const tri_view *t, tela_int o, tela_int s, bool left, bool solve,
                      gemm_tri *tri)
{
    /* Right side: X op(A) = B couples column j of X with columns k through
     * op(A)(k, j), so the coefficients are op(A) transposed. Only the
     * referenced triangle of A is read, and only the coefficients the base
     * kernels read are written (tri_base.h: strictly below the diagonal when
     * lower, above when upper): zeroing the whole array first was a fifth of
     * this function, itself a tenth of a 32 x 32 dgeqrf (perf). */
    tri->s = (int)s;
    tri->lower = left == t->lower;
    tri->solve = solve;
    /* coef[i][k] is A(o + k, o + i) (a column of A: left transposed, or right
     * not) or A(o + i, o + k) (a row). */
    const bool column = left == t->trans;
    const tela_int lda = t->lda, step_i = column ? lda : 1, step_k = column ? 1 : lda;
    const double *corner = t->a + o + o * lda;
    for (int i = 0; i < s; i++) {
        const int k_from = tri->lower ? 0 : i + 1, k_to = tri->lower ? i : (int)s;
        const double *row = corner + i * step_i;
        for (int k = k_from; k < k_to; k++)
            tri->coef[i][k] = row[k * step_k];
        const double d = t->unit ? 1.0 : corner[i + i * lda];
        /* A reciprocal, as optimised BLAS do: one multiply per element. */
        tri->diag[i] = solve ? 1.0 / d : d;
    }
}

void level3_tri_apply(const gemm_tri *tri, bool left, tela_int count, double *b, tela_int ldb)
{
    const gemm_kernel *kr = gemm_kernel_get();
    if (left)
        kr->tri_left(tri, count, b, ldb);
    else
        kr->tri_right(tri, count, b, ldb);
}

double level3_tri_estimate_ns(bool solve, bool left, tela_int s, tela_int rhs)
{
    /* Beyond its s^2 rhs flops at the GEMM rate, each element of B costs the triangle's diagonal
     * blocks (tiles whose triangle is partly zeros, a solve's base in vectors) and B's packing:
     * about 3 tile sides' worth of flops, 6 for a solve on the left, on every ISA and order
     * from 32 to 256 (docs/gemm.md, "What a triangle tells the gate"). */
    const double extra = (solve && left ? 6.0 : 3.0) * gemm_kernel_get()->mr;
    return (double)s * (double)rhs * ((double)s + extra) * par_rate_ns_per_flop();
}

void level3_tri_base(const tri_view *t, tela_int o, tela_int s, bool left, bool solve,
                     tela_int count, double *b, tela_int ldb)
{
    gemm_tri tri;
    level3_tri_build(t, o, s, left, solve, &tri);
    level3_tri_apply(&tri, left, count, b, ldb);
}

void level3_tri_recurse(const level3_ctx *ctx, level3_tri_step step, bool solve, const tri_view *t,
                        bool left, tela_int o, tela_int s, tela_int m, tela_int n, double *b,
                        tela_int ldb)
{
    if (s <= LEVEL3_BASE) {
        level3_tri_base(t, o, s, left, solve, left ? n : m, b, ldb);
        return;
    }
    /* Half h: the triangle op(A)[at[h].., at[h]..] of order order[h], and
     * B's rows (left) or columns (right) from half[h]. */
    const tela_int s1 = level3_first_half(s);
    const tela_int at[2] = {o, o + s1}, order[2] = {s1, s - s1};
    double *const half[2] = {b, left ? b + s1 : b + s1 * ldb};
    /* The off-diagonal block adds the product of B's source half to its
     * target half: the first half into the second for a lower op(A) on the
     * left or an upper one on the right, else the second into the first. */
    const int src = left == t->lower ? 0 : 1, dst = 1 - src;
    char ta;
    const double *off =
        left ? tri_block(t, at[dst], at[src], &ta) : tri_block(t, at[src], at[dst], &ta);
    /* A solve needs the source solved before its product is taken; a
     * product needs the source unchanged, so the target goes first. */
    const int first = solve ? src : dst, second = 1 - first;
    step(ctx, t, left, at[first], order[first], left ? order[first] : m, left ? n : order[first],
         half[first], ldb);
    const double alpha = solve ? -1.0 : 1.0;
    if (left)
        level3_gemm(ctx, ta, 'N', order[dst], n, order[src], alpha, off, t->lda, half[src], ldb,
                    1.0, half[dst], ldb);
    else
        level3_gemm(ctx, 'N', ta, m, order[dst], order[src], alpha, half[src], ldb, off, t->lda,
                    1.0, half[dst], ldb);
    step(ctx, t, left, at[second], order[second], left ? order[second] : m,
         left ? n : order[second], half[second], ldb);
}
