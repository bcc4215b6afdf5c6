/* symm.c — tela_dsymm: C = alpha A B + beta C (side 'L') or alpha B A + beta C ('R'), A
 * symmetric with only its uplo triangle read.
 *
 * dgemm's product with the whole symmetric matrix. A is expanded while it is packed: the
 * product runs on a copy of the kernel set whose packer for A's side reads each element from
 * the stored triangle (pack_sym.c), so dgemm's packed path, serial or parallel through the
 * gate, does the rest and gives dgemm's bits for the whole matrix. Products dgemm would run
 * unpacked (small ones, or few rows of B on the right), which read operands in place, get A
 * copied whole into a buffer first, or a strip of its columns at a time when it is large.
 * The path depends on the sizes only: the same bits at every width. */
#include "gemm/level3.h"
#include "par/engine.h"

#include <math.h>

/* The largest order of A copied whole for the unpacked path: the left side's A (order^2) then
 * fits dgemm's bound for what that path re-reads in place (half of L2: 256 with 1 MiB, 362 with
 * 2 MiB); larger ones pack. */
static ptrdiff_t copy_order_max(const gemm_kernel *kr)
{
    /* A whole number of doubles: its square root is correctly rounded, never up to the next
     * integer, so the floor is exact. */
    return (ptrdiff_t)floor(sqrt(gemm_unpacked_reread_max(kr)));
}

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
    par_scratch_declare(PAR_SCRATCH_ROUTINE,
                        copy_len(copy_order_max(gemm_kernel_get())) * sizeof(double));
}

/* Whether dgemm would read the whole matrix in place (its unpacked path) in this product, from
 * a copy of A (order pr->k, on side `left`). */
static bool dgemm_reads_in_place(const gemm_problem *pr, bool left)
{
    gemm_problem whole = *pr;
    *(left ? &whole.a : &whole.b) = (gemm_operand){NULL, copy_ld(pr->k), false};
    return gemm_prefers_unpacked(&whole);
}

/* dsymm's unpacked region with a copy of the symmetric matrix per member (copy_by_members). */
typedef struct members_job {
    gemm_problem pr;     /* its symmetric operand: each member's own copy */
    gemm_operand stored; /* the triangle as given */
    bool left;
    double *bufs; /* per member, stride doubles apart */
    size_t stride;
} members_job;

static void members_body(tela_member *self, void *arg)
{
    const members_job *job = arg;
    ptrdiff_t j_from, j_to;
    if (!gemm_unpacked_share(&job->pr, self, &j_from, &j_to))
        return;
    gemm_problem mine = job->pr;
    const ptrdiff_t order = mine.k, ld = copy_ld(order);
    double *copy = job->bufs + (size_t)tela_rank(self) * job->stride;
    if (job->left)
        gemm_sym_expand(mine.kernel, &job->stored, order, copy, ld);
    else
        gemm_sym_expand_columns(mine.kernel, &job->stored, order, j_from, j_to, copy + j_from * ld,
                                ld);
    *(job->left ? &mine.a : &mine.b) = (gemm_operand){copy, ld, false};
    /* op(A) is never transposed here (the copy, or B), so the unpacked path takes no buffer of
     * its own, which for a held team could be the one these copies live in. */
    gemm_unpacked_columns_in(&mine, j_from, j_to, NULL, 0);
}

/* Where dgemm would run the whole matrix's product unpacked in a region: each member expands its
 * own copy (the left side's whole A, every column of which each share reads; the right side's
 * columns of its share) in its own buffer, then computes its share of C's columns. One copy that
 * the caller expanded before the region and both cores read made two threads slower than one
 * (96^3 35.7 us against 24.0 on the Xeon): the other core's reads, and the caller's writes of the
 * next call, each fetched the lines from the other core. The copies are exact, so the bits are
 * the serial path's. False (nothing done) when the product runs serially or no buffers can be
 * had. */
static bool copy_by_members(tela_par par, const gemm_problem *pr, bool left)
{
    if (par.kind == TELA_PAR_SEQ || gemm_is_small(pr->m, pr->n, pr->k))
        return false;
    /* The path's choice reads the operand's shape: a copy's (each member sets its own). */
    members_job job = {*pr, left ? pr->a : pr->b, left, NULL, 0};
    *(left ? &job.pr.a : &job.pr.b) = (gemm_operand){NULL, copy_ld(pr->k), false};
    if (!gemm_prefers_unpacked(&job.pr))
        return false; /* as dgemm_reads_in_place found; so the region below is the unpacked one */
    const ptrdiff_t blocks = (pr->n + 7) / 8;
    const int bound = par_width_bound(par) < blocks ? par_width_bound(par) : (int)blocks;
    bool owned = false;
    job.bufs =
        par_scratch_members(par, bound, copy_len(pr->k) * sizeof(double), &job.stride, &owned);
    if (!job.bufs)
        return false;
    job.stride /= sizeof(double); /* whole lines: a multiple of 8 doubles */
    (left ? &job.pr.a : &job.pr.b)->p = job.bufs;
    if (!gemm_run_members(par, &job.pr, "dsymm", members_body, &job)) {
        /* A bad policy (reported): the whole product on this thread, from the first buffer. */
        gemm_sym_expand(job.pr.kernel, &job.stored, pr->k, job.bufs, copy_ld(pr->k));
        gemm_serial(&job.pr);
    }
    par_scratch_release(job.bufs, owned);
    return true;
}

/* Columns of C a strip of copy_by_strips computes (a multiple of the unpacked path's 8). */
#define SYMM_STRIP 96

typedef struct strips_job {
    const gemm_problem *pr; /* its B: the symmetric matrix, as gemm.h's symmetric operand */
    double *bufs;           /* a strip's columns of the whole matrix, per member */
    size_t len;             /* doubles per member */
} strips_job;

/* Strips [from, to): each one's columns of the whole matrix expanded into strip, then its
 * columns of C by the unpacked path. */
static void strips_run(const strips_job *job, ptrdiff_t from, ptrdiff_t to, double *strip)
{
    const gemm_problem *pr = job->pr;
    const ptrdiff_t ld = copy_ld(pr->k);
    for (ptrdiff_t q = from; q < to; q++) {
        const ptrdiff_t j0 = q * SYMM_STRIP, w = pr->n - j0 < SYMM_STRIP ? pr->n - j0 : SYMM_STRIP;
        gemm_sym_expand_columns(pr->kernel, &pr->b, pr->k, j0, j0 + w, strip, ld);
        gemm_problem part = *pr;
        part.n = w;
        part.b = (gemm_operand){strip, ld, false};
        part.c = pr->c + j0 * pr->ldc;
        gemm_unpacked_columns(&part, 0, w);
    }
}

static ptrdiff_t strips_of(const gemm_problem *pr)
{
    return (pr->n + SYMM_STRIP - 1) / SYMM_STRIP;
}

static void strips_body(tela_member *self, void *arg)
{
    const strips_job *job = arg;
    const ptrdiff_t strips = strips_of(job->pr);
    const int rank = tela_rank(self), width = tela_width(self);
    strips_run(job, strips * rank / width, strips * (rank + 1) / width,
               job->bufs + (size_t)rank * job->len);
}

/* Side 'R' where dgemm would read the whole matrix in place but its order is past
 * copy_order_max (few rows of B: m x order within the unpacked path's bound): C's columns in
 * strips, members taking whole strips, each strip's columns of the whole matrix expanded into
 * the member's buffer first. The unpacked path computes each element alike however C's columns
 * are split: dgemm's bits for the whole matrix. False when no buffers can be had (then: packing).
 */
static bool copy_by_strips(tela_par par, const gemm_problem *pr)
{
    const ptrdiff_t strips = strips_of(pr);
    const int bound = par_width_bound(par) < strips ? par_width_bound(par) : (int)strips;
    strips_job job = {pr, NULL, (size_t)copy_ld(pr->k) * SYMM_STRIP};
    bool owned = false;
    job.bufs =
        par_scratch_region(par, PAR_SCRATCH_PACK, (size_t)bound * job.len * sizeof(double), &owned);
    if (!job.bufs)
        return false;
    if (tela_parallel_gated(tela_par_limit(par, bound), "dsymm",
                            gemm_flops(pr) * par_rate_ns_per_flop(), 1, strips_body, &job) < 0)
        strips_run(&job, 0, strips, job.bufs); /* a bad policy (reported): on this thread */
    par_scratch_release(job.bufs, owned);
    return true;
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
                       NULL,
                       NULL};
    /* A copied whole when dgemm would read it in place, or strip by strip where it is too large
     * for that; else (or with no memory for the copy) A's side packed by the symmetric packer,
     * B's by the kernel set's own. */
    gemm_operand *s = left ? &pr.a : &pr.b;
    bool owned = false;
    double *full = NULL;
    /* On the left dgemm's re-read operand is the matrix itself, order^2: past the unpacked path's
     * bound whenever order is past copy_order_max, so only the right takes strips. */
    const bool in_place = dgemm_reads_in_place(&pr, left);
    const bool whole = order <= copy_order_max(pr.kernel);
    if (in_place && whole && copy_by_members(par, &pr, left))
        return 0;
    if (in_place && whole)
        full = par_scratch_thread(PAR_SCRATCH_ROUTINE, copy_len(order) * sizeof(double), &owned);
    else if (in_place && !left && copy_by_strips(par, &pr))
        return 0;
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
