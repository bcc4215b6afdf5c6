/* level3.h — what the triangular and symmetric level-3 routines share: the
 * view of op(A) as a triangular matrix and BLAS's flag parsing.
 * (Included by the level-3 routines' files, and by getrf.c and potrf.c for
 * level3_first_half only; gemm.h is the folder's interface to the
 * micro-kernels.) */
#ifndef TELA_GEMM_LEVEL3_H
#define TELA_GEMM_LEVEL3_H

#include "gemm/gemm.h"
#include "tela.h"

#include <stdbool.h>
#include <stddef.h>

/* Below this order a triangle is solved or multiplied by the vector loops
 * of tri_base.h; above it the routines recurse and hand the off-diagonal
 * work to tela_dgemm. */
#define LEVEL3_BASE GEMM_TRI_MAX

/* Triangles of at most this order, with more than LEVEL3_CHUNK right-hand
 * sides, are multiplied chunk by chunk: LEVEL3_CHUNK columns (left side) or
 * rows (right) of B at a time, the chunks shared among members (trsm above
 * LEVEL3_BASE shares groups of a tile's right-hand sides instead:
 * level3_solve_by_blocks).
 * Larger triangles recurse with tela_dgemm, parallel inside. The choice
 * depends on the sizes only, so results are the same at every width. */
#define LEVEL3_CHUNK_TRI 256
#define LEVEL3_CHUNK     128

/* Where a level-3 step runs: at the top, its GEMMs are tela_dgemm on par;
 * inside a chunk they are serial, packing into the member's buffer. */
typedef struct level3_ctx {
    tela_par par;
    bool in_chunk;
    double *buf; /* in_chunk: the member's packing buffer (may be NULL) */
    size_t buf_len;
    /* A member's share of a larger call's right-hand sides (0: none): its GEMMs take the path
     * (packed or unpacked, which sum in another order) the whole call's would, for C of whole_m
     * rows (right side) or whole_n columns (left), so no element depends on the share it is in. */
    tela_int whole_m, whole_n;
} level3_ctx;

void level3_gemm(const level3_ctx *ctx, char ta, char tb, tela_int m, tela_int n, tela_int k,
                 double alpha, const double *a, tela_int lda, const double *b, tela_int ldb,
                 double beta, double *c, tela_int ldc);

/* The packing buffer a chunk's GEMMs need, for triangles of order s. */
size_t level3_chunk_buffer_len(tela_int s);
/* Chunks [from, to) a member claimed, run in order with its buffer in ctx.
 * kept: the buffer holds what this fn left there on the member's previous
 * claim of the same call (a packed triangle or plan it may reuse). */
typedef void (*level3_chunk_fn)(const level3_ctx *ctx, tela_int from, tela_int to, bool kept,
                                void *arg);
/* Runs fn on chunks [0, count) through the gate (estimate_ns of serial
 * work in all, one section); members claim ranges of chunks as they go
 * (chunks.c), so which member runs a chunk varies: each chunk's result must
 * not depend on it. Each member gets its own buffer of buf_len doubles (its
 * GEMMs' packing, or a plan), handed out before the region. Serially on
 * the caller, in one call, when the gate says so. */
void level3_chunks(tela_par par, const char *name, tela_int count, double estimate_ns,
                   size_t buf_len, level3_chunk_fn fn, void *arg);
/* level3_chunks for fns that need their buffer: false, nothing run, when
 * the members' buffers cannot be had. */
bool level3_chunks_if_buffers(tela_par par, const char *name, tela_int count, double estimate_ns,
                              size_t buf_len, level3_chunk_fn fn, void *arg);

struct tri_view;
/* A trsm or trmm step on the triangle op(A)[o.., o..] of order s and B
 * (s x n on the left, m x s on the right). */
typedef void (*level3_tri_step)(const level3_ctx *ctx, const struct tri_view *t, bool left,
                                tela_int o, tela_int s, tela_int m, tela_int n, double *b,
                                tela_int ldb);
/* If the step (a solve or a multiply) qualifies for chunks (order <= LEVEL3_CHUNK_TRI, more
 * than LEVEL3_CHUNK right-hand sides, not already in a chunk), runs step on each chunk of B
 * through level3_chunks and returns true; else false. */
bool level3_tri_chunked(const level3_ctx *ctx, level3_tri_step step, bool solve,
                        const struct tri_view *t, bool left, tela_int o, tela_int s, tela_int m,
                        tela_int n, double *b, tela_int ldb);

/* The serial time of trsm (solve) or trmm on a triangle of order s with rhs right-hand sides, B
 * on the left or right: what their regions, and getrs's and potrs's par_may_split, tell the
 * gate. */
double level3_tri_estimate_ns(bool solve, bool left, tela_int s, tela_int rhs);

/* op(A), n x n triangular: element (i, j) of op(A) is A(i, j), or A(j, i)
 * when trans. lower says whether op(A) (not A) is lower triangular. */
typedef struct tri_view {
    const double *a;
    tela_int lda;
    bool trans, lower, unit;
} tri_view;

/* trsm on the triangle op(A)[o.., o..] of order s <= LEVEL3_CHUNK_TRI by
 * micro-kernel updates of whole blocks (solve_packed.c). The plan (every
 * block's packed coupling and triangle) depends on the triangle only:
 * prepared once, it serves any number of right-hand sides. */
typedef struct level3_solve_plan {
    const gemm_kernel *kr;
    tri_view t;
    bool left;
    tela_int o, s;
    int w; /* block order: the tile's side along the triangle */
    int v; /* right-hand sides per tile */
    tela_int blocks;
    bool forward;           /* blocks in ascending order */
    const double *coupling; /* NULL: packed again per block on the stack */
    const gemm_tri *tris;
} level3_solve_plan;

/* Doubles a prepared plan for order s needs. */
size_t level3_solve_plan_len(tela_int s);
/* Sets up *plan, packed into buf when buf holds level3_solve_plan_len(s)
 * (NULL: unprepared, the same result, slower). False (nothing done) when
 * this kernel's tiles are too large for the base case. */
bool level3_solve_prepare(level3_solve_plan *plan, const tri_view *t, bool left, tela_int o,
                          tela_int s, double *buf);
/* Solves rhs columns (left) or rows (right) of B with the plan. */
void level3_solve_apply(const level3_solve_plan *p, tela_int rhs, double *b, tela_int ldb);
/* Groups [g0, g1) of the tile's right-hand sides (of rhs in all) solved
 * with the triangle op(A)[o.., o..] of order s, whose first row of B is b:
 * the plan prepared into buf when it holds level3_solve_plan_len(s)
 * doubles (kept: an earlier call prepared it there already), else
 * unprepared (the same bits). */
void level3_solve_groups(const tri_view *t, bool left, tela_int o, tela_int s, tela_int g0,
                         tela_int g1, tela_int rhs, double *b, tela_int ldb, double *buf,
                         size_t buf_len, bool kept);
/* trmm, op(A)[o.., o..] of order s in (LEVEL3_BASE, LEVEL3_CHUNK_TRI], B
 * s x n (left) or n x s (right) in place: the triangle packed once by
 * each member in blocks of the tile's side, B in chunks of LEVEL3_CHUNK
 * (or the tile's other side when fewer) shared among members, one
 * micro-kernel call per tile (multiply_packed.c); inside a member's share
 * (ctx->in_chunk) serially, in ctx's buffer. False (nothing done) outside
 * those orders or when no buffer (of level3_multiply_len doubles) can be
 * had. */
bool level3_multiply_packed(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o,
                            tela_int s, tela_int n, double *b, tela_int ldb);
size_t level3_multiply_len(bool left, tela_int s);
/* trmm on the left, op(A) of order m >= 512 and B m x n, in steps of about kc along op(A), each
 * one packed GEMM with the step's triangle as a band (multiply_steps.c); false, with nothing
 * done, for smaller orders. */
bool level3_multiply_steps(tela_par par, const tri_view *t, tela_int m, tela_int n, double *b,
                           tela_int ldb);
/* trsm's step on a triangle of order (LEVEL3_BASE, LEVEL3_CHUNK_TRI]:
 * with two or more groups of the tile's right-hand sides, outside a chunk,
 * the groups claimed by members through the gate (any split gives the same
 * bits), each member preparing one plan for all its claims; else on the
 * caller. False when this kernel's tiles are too large for it. */
bool level3_solve_by_blocks(const level3_ctx *ctx, const tri_view *t, bool left, tela_int o,
                            tela_int s, tela_int m, tela_int n, double *b, tela_int ldb);

/* trsm on the left, op(A) of order s > LEVEL3_CHUNK_TRI, n <= 512
 * right-hand sides: blocks of rows solved in order in one region
 * (solve_steps.c), the same bits at every width. False (nothing done)
 * outside those sizes or when this kernel's tiles are too large for the
 * blocks' solves. */
bool level3_solve_in_steps(tela_par par, const tri_view *t, tela_int s, tela_int n, double *b,
                           tela_int ldb);
/* Member r's share [from, to) of count units, in proportion to the
 * members' measured rates speeds[0..w) (evenly when speeds is NULL or any
 * rate is not yet measured, <= 0). Every member sums the rates in the
 * same order, so the shares cover [0, count) once, in rank order. The
 * steps' updates use it: the cores' speeds differ and change, and an even
 * split left the faster one waiting at the barrier (docs/gemm.md, "The
 * fixed split of the rows waits"). */
void level3_share_by_speed(const double *speeds, tela_int count, int r, int w, tela_int *from,
                           tela_int *to);

/* The block op(A)[i0.., j0..] as a tela_dgemm operand: pointer and 'N'/'T'. */
static inline const double *tri_block(const tri_view *t, tela_int i0, tela_int j0, char *ta)
{
    *ta = t->trans ? 'T' : 'N';
    return t->trans ? t->a + j0 + i0 * t->lda : t->a + i0 + j0 * t->lda;
}

/* The recursions' split of order s (trsm's and trmm's triangles, getrf's
 * and potrf's matrices, whose off-diagonal work is GEMM too): a first half
 * that is a multiple of 8 (whole GEMM tiles more often) where that leaves
 * a second. */
static inline tela_int level3_first_half(tela_int s)
{
    tela_int h = (s / 2 + 7) / 8 * 8;
    return h < s ? h : s / 2;
}

/* trsm's and trmm's shared start: BLAS's checks in BLAS's order (-i, or
 * -8/-10 for a NULL A or B that would be read; nothing written then), B
 * scaled by alpha. Returns 1 when that was all (empty, or alpha = 0),
 * 0 with *t and *left set for the work itself. */
int level3_triangular_args(char side, char uplo, char transa, char diag, tela_int m, tela_int n,
                           double alpha, const double *a, tela_int lda, double *b, tela_int ldb,
                           tri_view *t, bool *left);

/* The triangle op(A)[o.., o..] of order s <= LEVEL3_BASE, for the base
 * case of trsm (solve) or trmm, on the left or right, run on B's n columns
 * (left) or m rows (right) by this CPU's kernel. */
void level3_tri_base(const tri_view *t, tela_int o, tela_int s, bool left, bool solve,
                     tela_int count, double *b, tela_int ldb);
/* level3_tri_base in two steps: the coefficients (kept by callers that
 * apply one triangle many times), then their application. */
void level3_tri_build(const tri_view *t, tela_int o, tela_int s, bool left, bool solve,
                      gemm_tri *tri);
void level3_tri_apply(const gemm_tri *tri, bool left, tela_int count, double *b, tela_int ldb);
/* trsm's (solve) or trmm's step on op(A)[o.., o..] of order s by the
 * recursion, the way taken when no other fits (flags.c): up to LEVEL3_BASE
 * the base case, else the triangle halved at level3_first_half, step run
 * on each half, and the off-diagonal block's product one level3_gemm
 * between them (alpha -1 for a solve, 1 for a product). */
void level3_tri_recurse(const level3_ctx *ctx, level3_tri_step step, bool solve, const tri_view *t,
                        bool left, tela_int o, tela_int s, tela_int m, tela_int n, double *b,
                        tela_int ldb);

/* BLAS flags, either case; false when not one of the allowed letters. */
bool level3_side(char c, bool *left);
bool level3_uplo(char c, bool *upper);
bool level3_trans(char c, bool *trans);
bool level3_diag(char c, bool *unit);
/* B(0:m, 0:n) *= alpha (alpha = 0: zeros, NaN overwritten). */
void level3_scale(double *b, tela_int ldb, tela_int m, tela_int n, double alpha);
/* The upper or lower triangle of C(0:n, 0:n) times beta (beta = 0: zeros, NaN overwritten):
 * syrk's and syr2k's product when alpha = 0 or k = 0 (syrk.c). */
void level3_scale_triangle(double *c, tela_int ldc, tela_int n, bool upper, double beta);

#endif /* TELA_GEMM_LEVEL3_H */
