/* solve_packed.c — trsm on a triangle of order <= LEVEL3_CHUNK_TRI whose
 * right-hand sides sit in cache: the triangle in blocks of the tile's side,
 * each block updated by the micro-kernel with every solved block at once
 * (k up to s, C read and written once), then solved by tri_base; the
 * solved values stay packed for the blocks after. The recursion it
 * replaces updated with k = 16, 32, 64 and ran these orders at ~55 GFLOP/s
 * against the micro-kernel's ~90. */
#include "gemm/level3.h"

typedef struct solve_shape {
    const gemm_kernel *kr;
    int w; /* block order: the tile's side along the triangle */
    int v; /* right-hand sides per tile */
    tela_int blocks;
    bool forward; /* blocks in ascending order */
} solve_shape;

static solve_shape shape_of(const tri_view *t, bool left, tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    solve_shape sh = {kr, left ? kr->mr : kr->nr, left ? kr->nr : kr->mr, 0, left == t->lower};
    sh.blocks = (s + sh.w - 1) / sh.w;
    return sh;
}

/* Block q in solving order: its first row j0, order jw, and the solved
 * range [d0, d0 + dk) it is coupled to. */
static void block_of(const solve_shape *sh, tela_int s, tela_int q, tela_int *j0, tela_int *jw,
                     tela_int *d0, tela_int *dk)
{
    const tela_int blk = sh->forward ? q : sh->blocks - 1 - q;
    *j0 = blk * sh->w;
    *jw = s - *j0 < sh->w ? s - *j0 : sh->w;
    *d0 = sh->forward ? 0 : *j0 + *jw;
    *dk = sh->forward ? *j0 : s - *j0 - *jw;
}

/* Block q's coupling, packed as the micro-kernel's operand: rows of -op(A)
 * (left: A side of the kernel) or columns of op(A) (right: B side). Only
 * the referenced triangle is read; negation is exact, so any buffer gives
 * the same bits. */
static void pack_coupling(const solve_shape *sh, const tri_view *t, bool left, tela_int o,
                          tela_int j0, tela_int jw, tela_int d0, tela_int dk, double *out)
{
    const gemm_operand op = {t->a, t->lda, t->trans};
    if (left)
        sh->kr->pack_a(&op, o + j0, (int)jw, o + d0, (int)dk, -1.0, sh->w, out);
    else
        sh->kr->pack_b(&op, o + d0, (int)dk, o + j0, (int)jw, 0, 1, sh->w, out);
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

size_t level3_solve_buffer_len(tela_int s)
{
    const gemm_kernel *kr = gemm_kernel_get();
    const int w = kr->mr > kr->nr ? kr->mr : kr->nr, narrow = kr->mr < kr->nr ? kr->mr : kr->nr;
    return couplings_len(s, w) + (size_t)w * (size_t)s + triangles_len((s + narrow - 1) / narrow);
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
 * panel of v lanes a row that the next blocks' updates read. */
static void keep_solved(bool left, const double *c, tela_int ldb, tela_int jw, int cnt, int v,
                        double *panel)
{
    for (tela_int p = 0; p < jw; p++) {
        double *dst = panel + p * v;
        if (left)
            for (int r = 0; r < cnt; r++)
                dst[r] = c[p + r * ldb];
        else
            for (int r = 0; r < cnt; r++)
                dst[r] = -c[r + p * ldb];
        for (int r = cnt; r < v; r++)
            dst[r] = 0.0;
    }
}

bool level3_solve_packed(const tri_view *t, bool left, tela_int o, tela_int s, tela_int m,
                         tela_int n, double *b, tela_int ldb, double *buf, size_t len)
{
    const solve_shape sh = shape_of(t, left, s);
    if (sh.w > GEMM_TRI_MAX || s > LEVEL3_CHUNK_TRI)
        return false;
    /* With a buffer, every block's coupling is packed once; without (inside
     * a region, none kept), each is packed again per group of right-hand
     * sides on the stack: slower, the same bits. */
    const bool whole = buf && len >= level3_solve_buffer_len(s);
    double stack[whole ? 8 : (size_t)(sh.w + sh.v) * LEVEL3_CHUNK_TRI] __attribute__((aligned(64)));
    double *coupling = whole ? buf : stack;
    double *solved = coupling + (whole ? couplings_len(s, sh.w) : (size_t)sh.w * LEVEL3_CHUNK_TRI);
    gemm_tri *tris = whole ? (gemm_tri *)(solved + (size_t)sh.v * s) : NULL;
    tela_int offset[LEVEL3_CHUNK_TRI + 1];
    for (tela_int q = 0, at = 0; q < sh.blocks; q++) {
        tela_int j0, jw, d0, dk;
        block_of(&sh, s, q, &j0, &jw, &d0, &dk);
        offset[q] = whole ? at : 0;
        if (whole && dk > 0)
            pack_coupling(&sh, t, left, o, j0, jw, d0, dk, coupling + at);
        if (whole)
            level3_tri_build(t, o + j0, jw, left, true, &tris[q]);
        at += sh.w * dk;
    }
    const tela_int rhs = left ? n : m;
    for (tela_int r0 = 0; r0 < rhs; r0 += sh.v) {
        const int cnt = rhs - r0 < sh.v ? (int)(rhs - r0) : sh.v;
        for (tela_int q = 0; q < sh.blocks; q++) {
            tela_int j0, jw, d0, dk;
            block_of(&sh, s, q, &j0, &jw, &d0, &dk);
            double *c = left ? b + j0 + r0 * ldb : b + r0 + j0 * ldb;
            if (dk > 0) {
                if (!whole)
                    pack_coupling(&sh, t, left, o, j0, jw, d0, dk, coupling);
                const double *mine = coupling + offset[q], *done = solved + d0 * sh.v;
                if (left)
                    update_tile(sh.kr, (int)dk, mine, done, c, ldb, (int)jw, cnt);
                else
                    update_tile(sh.kr, (int)dk, done, mine, c, ldb, cnt, (int)jw);
            }
            if (whole)
                level3_tri_apply(&tris[q], left, cnt, c, ldb);
            else
                level3_tri_base(t, o + j0, jw, left, true, cnt, c, ldb);
            /* Kept as the next blocks' operand: X's rows (left, an nr-wide
             * panel) or -X's columns (right, an mr-high panel). */
            keep_solved(left, c, ldb, jw, cnt, sh.v, solved + j0 * sh.v);
        }
    }
    return true;
}
