/* multiply_steps.c — trmm on the left for triangles of order 512 and more: op(A) taken in
 * steps of about kc along it, each step one packed GEMM whose B block (the step's rows of B,
 * before the product) serves both the triangle on the diagonal (gemm_band) and the rows that the
 * step's columns of op(A) reach off it. B's rows are packed once, where the recursion packed them
 * once per level (docs/gemm.md). */
#include "gemm/level3.h"

/* Steps of whole tiles of the kernel's A side (the band's rows start on tile boundaries), as
 * deep as kc allows: each step's product is one k block. */
static tela_int step_depth(const gemm_kernel *kr)
{
    const tela_int d = (tela_int)(kr->kc / kr->mr) * kr->mr;
    return d > kr->mr ? d : kr->mr;
}

/* The least order taken in steps. Below it the recursion's one GEMM (of order m / 2) runs on the
 * unpacked path, which packs nothing, where the steps pack A: on the Xeon (model 207), process
 * pairs against the recursion, one thread, 384 0.96-0.98x, 448 0.99x, 512 1.05x, 640 0.98-1.04x,
 * 768 1.04x, 1024 1.05x; two threads 384 0.95x, 512 1.05x. */
#define LEVEL3_STEPS_MIN 512

bool level3_multiply_steps(tela_par par, const tri_view *t, tela_int m, tela_int n, double *b,
                           tela_int ldb)
{
    if (m < LEVEL3_STEPS_MIN)
        return false;
    const gemm_kernel *kr = gemm_kernel_get();
    /* Packed always: the unpacked and small paths know no band. */
    gemm_kernel packing = *kr;
    packing.packed_only = true;
    const tela_int depth = step_depth(kr), steps = (m + depth - 1) / depth;
    for (tela_int q = 0; q < steps; q++) {
        /* A lower op(A) takes its steps from the bottom, an upper one from the top: the rows a
         * step writes are then never rows a later step reads as its B. */
        const tela_int step = t->lower ? steps - 1 - q : q;
        const tela_int p0 = step * depth, k = m - p0 < depth ? m - p0 : depth;
        /* The rows it reaches: from its own down (lower), down to its own last (upper). */
        const tela_int r0 = t->lower ? p0 : 0, r1 = t->lower ? m : p0 + k;
        char ta;
        const double *a = tri_block(t, r0, p0, &ta);
        const gemm_band band = {p0 - r0, t->lower, t->unit};
        const gemm_problem pr = {.kernel = &packing,
                                 .a = {a, t->lda, ta == 'T'},
                                 .b = {b + p0, ldb, false},
                                 .c = b + r0,
                                 .ldc = ldb,
                                 .m = r1 - r0,
                                 .n = n,
                                 .k = k,
                                 .alpha = 1.0,
                                 .beta = 1.0,
                                 .part = GEMM_ALL,
                                 .band = &band};
        gemm_run(par, &pr, "dtrmm");
    }
    return true;
}
