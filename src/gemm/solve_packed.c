/* solve_packed.c — trsm on a triangle of order <= LEVEL3_CHUNK_TRI whose
 * right-hand sides sit in cache: the triangle in blocks of the tile's side,
 * each block updated by the micro-kernel with every solved block at once
 * (k up to s, C read and written once), then solved by tri_base; the
 * solved values stay packed for the blocks after. The recursion it
 * replaces updated with k = 16, 32, 64, whose tiles load and store C every
 * few flops (docs/gemm.md, "Triangles of order <= 256 solved by blocks"). */
#include "gemm/level3.h"

static level3_solve_plan plan_of(const tri_view *t, bool left, tela_int o, tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    level3_solve_plan p = {.kr = kr,
                           .t = *t,
                           .left = left,
                           .o = o,
                           .s = s,
                           .w = left ? kr->mr : kr->nr,
                           .v = left ? kr->nr : kr->mr,
                           .forward = left == t->lower};
    p.blocks = (s + p.w - 1) / p.w;
    return p;
}

/* Block q in solving order: its first row j0, order jw, and the solved
 * range [d0, d0 + dk) it is coupled to. */
static void block_of(const level3_solve_plan *p, tela_int q, tela_int *j0, tela_int *jw,
                     tela_int *d0, tela_int *dk)
{
    const tela_int blk = p->forward ? q : p->blocks - 1 - q;
    *j0 = blk * p->w;
    *jw = p->s - *j0 < p->w ? p->s - *j0 : p->w;
    *d0 = p->forward ? 0 : *j0 + *jw;
    *dk = p->forward ? *j0 : p->s - *j0 - *jw;
}

/* Block q's coupling, packed as the micro-kernel's operand: rows of -op(A)
 * (left: A side of the kernel) or columns of op(A) (right: B side). Only
 * the referenced triangle is read; negation is exact, so any buffer gives
 * the same bits. */
static void pack_coupling(const level3_solve_plan *p, tela_int j0, tela_int jw, tela_int d0,
                          tela_int dk, double *out)
{
    const gemm_operand op = {p->t.a, p->t.lda, p->t.trans};
    if (p->left)
        p->kr->pack_a(&op, p->o + j0, (int)jw, p->o + d0, (int)dk, -1.0, p->w, out);
    else
        p->kr->pack_b(&op, p->o + d0, (int)dk, p->o + j0, (int)jw, 0, 1, p->w, out);
}

/* Doubles for every block's coupling: at most blocks * w * s < (s + w) * s,
 * rounded to keep what follows 64-byte aligned. */
static size_t couplings_len(tela_int s, int w)
{
    return ((size_t)(s + w) * (size_t)s + 7) / 8 * 8;
}

/* Doubles for the blocks' triangles (their coefficients, kept). */
static size_t triangles_len(tela_int blocks)
{
    return ((size_t)blocks * sizeof(gemm_tri) + 63) / 64 * 8;
}

size_t level3_solve_plan_len(tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    const int w = kr->mr > kr->nr ? kr->mr : kr->nr, narrow = kr->mr < kr->nr ? kr->mr : kr->nr;
    return couplings_len(s, w) + triangles_len((s + narrow - 1) / narrow);
}

/* Points the plan at its packed parts in buf. */
static void attach(level3_solve_plan *plan, double *buf)
{
    plan->coupling = buf;
    plan->tris = (const gemm_tri *)(buf + couplings_len(plan->s, plan->w));
}

bool level3_solve_prepare(level3_solve_plan *plan, const tri_view *t, bool left, tela_int o,
                          tela_int s, double *buf)
{
    *plan = plan_of(t, left, o, s);
    if (plan->w > GEMM_TRI_MAX || s > LEVEL3_CHUNK_TRI)
        return false;
    if (!buf)
        return true;
    gemm_tri *tris = (gemm_tri *)(buf + couplings_len(s, plan->w));
    for (tela_int q = 0, at = 0; q < plan->blocks; q++) {
        tela_int j0, jw, d0, dk;
        block_of(plan, q, &j0, &jw, &d0, &dk);
        if (dk > 0)
            pack_coupling(plan, j0, jw, d0, dk, buf + at);
        level3_tri_build(t, o + j0, jw, left, true, &tris[q]);
        at += plan->w * dk;
    }
    attach(plan, buf);
    return true;
}

/* C (rows x cols, ldc) += the kernel's product over k: in place for a whole
 * tile, else through a buffer (beta = 1 adds the same way). */
static void update_tile(const gemm_kernel *kr, int k, const double *a, const double *b, double *c,
                        ptrdiff_t ldc, int rows, int cols)
{
    if (rows == kr->mr && cols == kr->nr)
        kr->ukernel(k, a, b, c, ldc, 1.0);
    else
        gemm_edge_tile(kr, k, a, b, c, ldc, rows, cols, 1.0, GEMM_ALL, 0, 0);
}

/* Block rows (left) or columns (right) [0, jw) of c, solved, into the
 * panel of v lanes a row that the next blocks' updates read: the kernel's
 * packers (exact copies; negation is exact) move whole vectors where a
 * plain loop here moved two doubles at a time. */
static void keep_solved(const level3_solve_plan *p, const double *c, tela_int ldb, tela_int jw,
                        int cnt, double *panel)
{
    const gemm_operand x = {c, ldb, false};
    if (p->left)
        p->kr->pack_b(&x, 0, (int)jw, 0, cnt, 0, 1, p->v, panel);
    else
        p->kr->pack_a(&x, 0, cnt, 0, (int)jw, -1.0, p->v, panel);
}

void level3_solve_apply(const level3_solve_plan *p, tela_int rhs, double *b, tela_int ldb)
{
    const bool prepared = p->coupling != NULL;
    /* Unprepared (inside a region, no buffer kept): each block's coupling
     * is packed again per group of right-hand sides on the stack: slower,
     * the same bits. */
    double stack[(prepared ? 0 : (size_t)p->w * LEVEL3_CHUNK_TRI) + (size_t)p->v * LEVEL3_CHUNK_TRI]
        __attribute__((aligned(64)));
    double *solved = stack, *coupling = stack + (size_t)p->v * LEVEL3_CHUNK_TRI;
    for (tela_int r0 = 0; r0 < rhs; r0 += p->v) {
        const int cnt = rhs - r0 < p->v ? (int)(rhs - r0) : p->v;
        for (tela_int q = 0, at = 0; q < p->blocks; q++) {
            tela_int j0, jw, d0, dk;
            block_of(p, q, &j0, &jw, &d0, &dk);
            double *c = p->left ? b + j0 + r0 * ldb : b + r0 + j0 * ldb;
            if (dk > 0) {
                const double *mine = prepared ? p->coupling + at : coupling;
                const double *done = solved + d0 * p->v;
                if (!prepared)
                    pack_coupling(p, j0, jw, d0, dk, coupling);
                if (p->left)
                    update_tile(p->kr, (int)dk, mine, done, c, ldb, (int)jw, cnt);
                else
                    update_tile(p->kr, (int)dk, done, mine, c, ldb, cnt, (int)jw);
            }
            if (prepared)
                level3_tri_apply(&p->tris[q], p->left, cnt, c, ldb);
            else
                level3_tri_base(&p->t, p->o + j0, jw, p->left, true, cnt, c, ldb);
            /* Kept as the next blocks' operand: X's rows (left, an nr-wide
             * panel) or -X's columns (right, an mr-high panel). */
            keep_solved(p, c, ldb, jw, cnt, solved + j0 * p->v);
            at += p->w * dk;
        }
    }
}

void level3_solve_groups(const tri_view *t, bool left, tela_int o, tela_int s, tela_int g0,
                         tela_int g1, tela_int rhs, double *b, tela_int ldb, double *buf,
                         size_t buf_len, bool kept)
{
    level3_solve_plan plan = plan_of(t, left, o, s);
    const tela_int first = g0 * plan.v, last = g1 * plan.v < rhs ? g1 * plan.v : rhs;
    if (first >= last)
        return;
    const bool whole = buf && buf_len >= level3_solve_plan_len(s);
    if (whole && kept)
        attach(&plan, buf);
    else
        level3_solve_prepare(&plan, t, left, o, s, whole ? buf : NULL);
    level3_solve_apply(&plan, last - first, b + (left ? first * ldb : first), ldb);
}
