/* part.c — what a product computing one triangle of C (syrk) needs beyond
 * a GEMM: the unpacked path strip by strip, and members' shares of columns
 * balanced by the elements they hold rather than by their count. */
#include "gemm/gemm.h"

/* op(X) from its row i0 and column j0 on. */
static gemm_operand operand_from(const gemm_operand *x, ptrdiff_t i0, ptrdiff_t j0)
{
    gemm_operand y = *x;
    y.p = x->trans ? x->p + j0 + i0 * x->ld : x->p + i0 + j0 * x->ld;
    return y;
}

/* Rows [i0, i1) x columns [j0, j1) of pr's product, by the unpacked path. */
static void unpacked_block(const gemm_problem *pr, ptrdiff_t i0, ptrdiff_t i1, ptrdiff_t j0,
                           ptrdiff_t j1)
{
    if (i0 >= i1 || j0 >= j1)
        return;
    gemm_problem q = *pr;
    q.a = operand_from(&pr->a, i0, 0);
    q.b = operand_from(&pr->b, 0, j0);
    q.c = pr->c + i0 + j0 * pr->ldc;
    q.m = i1 - i0;
    q.n = j1 - j0;
    q.part = GEMM_ALL;
    pr->kernel->small(&q);
}

/* The square block on the diagonal at (j0, j0), of order s <= 8: the
 * product into a buffer, of which the triangle is combined with C. */
static void unpacked_diagonal(const gemm_problem *pr, ptrdiff_t j0, ptrdiff_t s)
{
    double d[GEMM_PART_STRIP * GEMM_PART_STRIP];
    gemm_problem q = *pr;
    q.a = operand_from(&pr->a, j0, 0);
    q.b = operand_from(&pr->b, 0, j0);
    q.c = d;
    q.ldc = s;
    q.m = q.n = s;
    q.beta = 0.0;
    q.part = GEMM_ALL;
    pr->kernel->small(&q);
    gemm_combine_part(pr->c + j0 + j0 * pr->ldc, pr->ldc, d, s, (int)s, (int)s, pr->beta, pr->part,
                      j0, j0);
}

/* Columns [j_from, j_to) of a triangle of C, strip by strip: the piece on
 * the diagonal through a buffer, the rest in place. Strips are counted from
 * C's origin (C is square), so each element is computed the same way
 * whatever range holds its strip. */
static void unpacked_strips(const gemm_problem *pr, ptrdiff_t j_from, ptrdiff_t j_to)
{
    for (ptrdiff_t j0 = j_from; j0 < j_to; j0 += GEMM_PART_STRIP) {
        const ptrdiff_t s = j_to - j0 < GEMM_PART_STRIP ? j_to - j0 : GEMM_PART_STRIP;
        unpacked_diagonal(pr, j0, s);
        if (pr->part == GEMM_LOWER)
            unpacked_block(pr, j0 + s, pr->m, j0, j0 + s);
        else
            unpacked_block(pr, 0, j0, j0, j0 + s);
    }
}

void gemm_unpacked_columns(const gemm_problem *pr, ptrdiff_t j_from, ptrdiff_t j_to)
{
    if (pr->part == GEMM_ALL) {
        unpacked_block(pr, 0, pr->m, j_from, j_to);
        return;
    }
    /* The rows of op(A) these columns reach: [j_from, m) below the
     * diagonal, [0, j_to) above. */
    const ptrdiff_t i0 = pr->part == GEMM_LOWER ? j_from : 0;
    const ptrdiff_t rows = pr->part == GEMM_LOWER ? pr->m - i0 : j_to;
    if (!pr->a.trans || rows * pr->k > GEMM_SMALL_TRANSPOSE_MAX) {
        unpacked_strips(pr, j_from, j_to);
        return;
    }
    /* op(A) = A^T (syrk 'T'): transposed once here rather than by every
     * strip's calls (2 per 8 columns, each copying its rows again;
     * docs/gemm.md, "`tela_dsyrk`"). Those calls transposed the
     * same rows into the same order, so the bits do not change. The
     * problem is shifted to start at (i0, i0) on the diagonal, so strips
     * keep their columns and the transposed rows start at 0. */
    double at[GEMM_SMALL_TRANSPOSE_MAX];
    const gemm_operand a = operand_from(&pr->a, i0, 0);
    pr->kernel->transpose(a.p, a.ld, pr->k, rows, at, rows);
    gemm_problem q = *pr;
    q.a = (gemm_operand){at, rows > 1 ? rows : 1, false};
    q.b = operand_from(&pr->b, 0, i0);
    q.c = pr->c + i0 + i0 * pr->ldc;
    q.m = q.n = rows;
    unpacked_strips(&q, j_from - i0, j_to - i0);
}

/* Elements of C's part in columns [0, j). */
static double elements_before(const gemm_problem *pr, ptrdiff_t j)
{
    const double m = (double)pr->m, c = (double)j;
    switch (pr->part) {
    case GEMM_LOWER: /* column i holds m - i */
        return c * m - c * (c - 1.0) / 2.0;
    case GEMM_UPPER: /* column i holds i + 1 */
        return c * (c + 1.0) / 2.0;
    default:
        return c * m;
    }
}

void gemm_share_columns(const gemm_problem *pr, ptrdiff_t j0, ptrdiff_t cols, int unit, int rank,
                        int width, int *from, int *to)
{
    const int units = (int)((cols + unit - 1) / unit);
    if (pr->part == GEMM_ALL) {
        *from = (int)((ptrdiff_t)units * rank / width);
        *to = (int)((ptrdiff_t)units * (rank + 1) / width);
        return;
    }
    /* Share r starts at the first unit whose columns before it hold r/width
     * of the block's elements. */
    const double first = elements_before(pr, j0);
    const double all = elements_before(pr, j0 + cols) - first;
    int bounds[2];
    for (int e = 0; e < 2; e++) {
        const double target = all * (double)(rank + e) / (double)width;
        int u = 0;
        while (u < units && elements_before(pr, j0 + (ptrdiff_t)u * unit) - first < target)
            u++;
        bounds[e] = rank + e == width ? units : u;
    }
    *from = bounds[0];
    *to = bounds[1];
}

double gemm_flops(const gemm_problem *pr)
{
    return 2.0 * elements_before(pr, pr->n) * (double)pr->k;
}
