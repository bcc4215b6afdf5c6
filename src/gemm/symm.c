/* symm.c — tela_dsymm: C = alpha A B + beta C (side 'L') or alpha B A + beta C ('R'), A
 * symmetric with only its uplo triangle read.
 *
 * dgemm's product with the whole symmetric matrix. A is expanded while it is packed: the
 * product runs on a copy of the kernel set whose packer for A's side reads each element from
 * the stored triangle (pack_sym.c), so dgemm's packed path, serial or parallel through the
 * gate, does the rest and gives dgemm's bits for the whole matrix. Products dgemm would run
 * unpacked (small ones), which read operands in place, get A copied whole into a buffer first.
 * The path depends on the sizes only: the same bits at every width. */
#include "gemm/level3.h"
#include "par/engine.h"

/* The largest order of A copied whole for the unpacked path (the left side's A then fits half
 * of L2, as dgemm asks of its A there; larger ones pack). */
#define SYMM_COPY_ORDER 256

/* The leading dimension of A's copy: a whole number of lines, and an odd one, so its columns
 * spread over all the L1 sets (a multiple of 512 doubles put them all in one: driver.c). */
static ptrdiff_t copy_ld(ptrdiff_t order)
{
    const ptrdiff_t lines = (order + 7) / 8;
    return (lines | 1) * 8;
}

static size_t copy_len(ptrdiff_t order)
{
    return (size_t)copy_ld(order) * (size_t)order;
}

/* Every thread keeps room for the largest copy, declared to par when the library is loaded: a
 * dsymm called serially in a region body then copies as it would outside, for the same bits. */
__attribute__((constructor)) static void declare_scratch(void)
{
    par_scratch_declare(PAR_SCRATCH_ROUTINE, copy_len(SYMM_COPY_ORDER) * sizeof(double));
}

/* Whether dgemm would read the whole matrix in place (its unpacked path) in this product, from
 * a copy of A (order pr->k, on side `left`), and the copy is small enough to make. */
static bool copy_pays(const gemm_problem *pr, bool left)
{
    gemm_problem whole = *pr;
    *(left ? &whole.a : &whole.b) = (gemm_operand){NULL, copy_ld(pr->k), false};
    return pr->k <= SYMM_COPY_ORDER && gemm_prefers_unpacked(&whole);
}

int tela_dsymm(tela_par par, char side, char uplo, tela_int m, tela_int n, double alpha,
               const double *a, tela_int lda, const double *b, tela_int ldb, double beta, double *c,
               tela_int ldc)
{
    bool left, upper;
    if (!level3_side(side, &left))
        return -1;
    if (!level3_uplo(uplo, &upper))
        return -2;
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    const tela_int order = left ? m : n;
    if (lda < (order > 1 ? order : 1))
        return -7;
    if (ldb < (m > 1 ? m : 1))
        return -9;
    if (ldc < (m > 1 ? m : 1))
        return -12;
    if (m == 0 || n == 0 || (alpha == 0.0 && beta == 1.0))
        return 0;
    if (alpha != 0.0 && !a)
        return -6;
    if (alpha != 0.0 && !b)
        return -8;
    if (!c)
        return -11;
    if (alpha == 0.0) {
        gemm_scale_c(c, ldc, m, n, beta);
        return 0;
    }
    /* A's upper triangle is the lower one of A^T (gemm.h's symmetric operand). */
    const gemm_operand sym = {a, lda, upper}, other = {b, ldb, false};
    gemm_kernel packing = *gemm_kernel_get();
    gemm_problem pr = {&packing,
                       left ? sym : other,
                       left ? other : sym,
                       c,
                       ldc,
                       m,
                       n,
                       order,
                       alpha,
                       beta,
                       GEMM_ALL,
                       false,
                       NULL};
    /* A copied whole when dgemm would read it in place; else (or with no memory for the copy)
     * A's side packed by the symmetric packer, B's by the kernel set's own. */
    gemm_operand *s = left ? &pr.a : &pr.b;
    bool owned = false;
    double *full = NULL;
    if (copy_pays(&pr, left))
        full = par_scratch_thread(PAR_SCRATCH_ROUTINE, copy_len(order) * sizeof(double), &owned);
    if (full) {
        gemm_sym_expand(pr.kernel, s, order, full, copy_ld(order));
        *s = (gemm_operand){full, copy_ld(order), false};
    } else if (left) {
        packing.pack_a = gemm_pack_a_sym;
        packing.packed_only = true;
    } else {
        packing.pack_b = gemm_pack_b_sym;
        packing.packed_only = true;
    }
    gemm_run(par, &pr, "dsymm");
    par_scratch_release(full, owned);
    return 0;
}
