/* gemm.h — internal interface of the GEMM family: micro-kernels, packing,
 * block sizes and the blocked driver shared by dgemm and the level-3
 * routines built on it.
 *
 * A micro-kernel computes one mr x nr tile of C from packed panels:
 * C = beta * C + A_panel * B_panel over kc, where beta = 0 writes C without
 * reading it (BLAS: NaN in C is overwritten). alpha is folded into the
 * packed A. */
#ifndef TELA_GEMM_H
#define TELA_GEMM_H

#include "tela.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/* The widest tiles any kernel uses (sizes of edge buffers). */
#define GEMM_MR_MAX 16
#define GEMM_NR_MAX 16

typedef void (*gemm_ukernel)(int kc, const double *restrict a, const double *restrict b,
                             double *restrict c, ptrdiff_t ldc, double beta);
/* The micro-kernel's tile combined into C by BLAS's rule for beta only in the rows of column j
 * (j < cols <= nr) whose bits rows[j] sets (bit i: row i; mr <= 16), the rest of C neither read
 * nor written: edge tiles and tiles across a triangle's diagonal, in place. Each element is
 * summed as the full tile sums it, for the flops of those columns only. */
typedef void (*gemm_ukernel_edge)(int kc, const double *restrict a, const double *restrict b,
                                  double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                  const uint16_t *restrict rows);

/* For an edge kernel: the run of lanes it sums, from the first to the last of the tile's cols
 * columns with rows to write (a diagonal tile of a triangle has none on one side), widened to the
 * narrowest of its `widths` (ascending, the last nr) that holds it and moved left where it would
 * pass lane nr. Column j of B's panel is lane j of each step, so a run from lane *first is summed
 * as the whole tile sums it. Returns the width (0: nothing to write); run[] gets the run's rows. */
static inline int gemm_edge_run(const uint16_t *rows, int cols, int nr, const int *widths,
                                int count, int *first, uint16_t *run)
{
    int from = 0, last = cols;
    while (from < last && rows[from] == 0)
        from++;
    while (last > from && rows[last - 1] == 0)
        last--;
    if (from == last)
        return 0;
    int width = widths[count - 1];
    for (int q = count - 1; q >= 0 && widths[q] >= last - from; q--)
        width = widths[q];
    *first = from + width > nr ? nr - width : from;
    for (int j = 0; j < width; j++)
        run[j] = *first + j < last && *first + j >= from ? rows[*first + j] : 0;
    return width;
}

/* A region of memory (runs of seg bytes, ld bytes apart) that micro-kernels ask for into L2 a line
 * at a time, spread over their k steps, while they compute: the source of the next A block (of
 * the next B block where A is one block), so that packing it reads L2 instead of memory. Prefetches
 * in a burst between calls fill the miss buffers and gained nothing (docs/gemm.md). runs_left < 0:
 * all asked for. */
typedef struct gemm_prefetch {
    const char *line, *end; /* next line of the current run; the run's last byte */
    const char *run;
    ptrdiff_t seg, ld, runs_left;
} gemm_prefetch;
/* What a whole tile's kernel call asks the memory system for while it computes:
 *   source, every: a line of the next block's source every `every` steps (NULL: none);
 *   c: the tile's own C, coming from memory: into L2 a line every 4 steps, then into L1 a column
 *      a step over the last steps, as OpenBLAS's SkylakeX kernel does (NULL: C is cached, or was
 *      asked for before the call);
 *   b_next, b_lines: lines of the next B panel into L2, one every 4 steps (NULL: none). */
typedef struct gemm_requests {
    gemm_prefetch *source;
    int every;
    const double *c;
    const char *b_next;
    int b_lines;
} gemm_requests;
/* The micro-kernel that makes rq's requests as it runs. */
typedef void (*gemm_ukernel_prefetch)(int kc, const double *restrict a, const double *restrict b,
                                      double *restrict c, ptrdiff_t ldc, double beta,
                                      const gemm_requests *rq);

struct gemm_problem;

struct gemm_operand;

/* A small triangle for the level-3 base cases (tri_base.h): vectors x_i of
 * 8 lanes (right-hand sides or rows of B) are updated in place by
 *   solve:    x_i = (x_i - sum_k coef[i][k] x_k) * diag[i]   (diag = 1/d)
 *   multiply: x_i = diag[i] x_i + sum_k coef[i][k] x_k
 * over k < i (lower) or k > i (upper), rows in the order that reads each
 * x_k before (multiply) or after (solve) it changes. */
#define GEMM_TRI_MAX 16
typedef struct gemm_tri {
    int s;
    bool lower, solve;
    double coef[GEMM_TRI_MAX][GEMM_TRI_MAX];
    double diag[GEMM_TRI_MAX];
} gemm_tri;

/* B = T(B) for the rows [0, s) x columns [0, n) of B, lanes = columns
 * (left side), or B's columns [0, s) x rows [0, m), lanes = rows (right). */
typedef void (*gemm_tri_fn)(const gemm_tri *t, ptrdiff_t count, double *b, ptrdiff_t ldb);

typedef void (*gemm_pack_a_fn)(const struct gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0,
                               int kc, double alpha, int mr, double *restrict out);
/* Rows [r0, r0 + rows) of op(A) packed as gemm_pack_a packs them (alpha times each, mr-row
 * micro-panels from out), taken from a packed B block (pack_b's layout: panel q of nr columns at
 * b + q * nr * kc) that holds them as its columns r0 ... of op(B) = op(A)^T: syrk reads them
 * from cache instead of from A a second time. */
typedef void (*gemm_pack_a_from_b_fn)(const double *b, int kc, ptrdiff_t r0, int rows, double alpha,
                                      double *restrict out);
typedef void (*gemm_pack_b_fn)(const struct gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0,
                               int n_block, int first_panel, int last_panel, int nr,
                               double *restrict out);

/* L X = P in place on one packed B panel (k rows of nr lanes, pack_b's
 * layout), L unit lower triangular with L(i, p) at l[i * l_row + p * l_col]
 * (unit_lower.h). */
typedef void (*gemm_unit_lower_fn)(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                   double *panel);

/* The most a kc x nc B block takes of L3. It shares the L3 with the other
 * cores (a Zen 5 CCX: 32 MiB for 8 cores, 4 MiB each), and in a VM the
 * size reported is often the socket's (508 MiB here). With a quarter of a
 * 32 MiB L3 (8 MiB), a 1-thread dgemm at n = 3072 ran at 80-92 GFLOP/s
 * when 1.5-3 MiB blocks ran at 92-99 in the same process (docs/gemm.md). */
#define GEMM_B_BLOCK_BYTES (2L << 20)
/* The same where the kernel asks for the next B panel into L2 as it runs (spread_requests),
 * hiding L3's latency: on the Xeon (model 207) 4092 columns against 1032 (A packed once, not
 * two to four times), dgemm one thread 2048-4096 1.011-1.028x, 1536 level; two threads 2048
 * 1.036x (docs/gemm.md). */
#define GEMM_B_BLOCK_BYTES_SPREAD (8L << 20)

/* t (cols x rows, leading dimension ldt) = A^T for A rows x cols: exact
 * copies, so every transposer gives the same bits. */
typedef void (*gemm_transpose_fn)(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                                  double *restrict t, ptrdiff_t ldt);

typedef struct gemm_kernel {
    const char *name; /* "avx512", "avx2", "generic" */
    int mr, nr;
    int mc, kc, nc; /* cache blocks: mc x kc of A in L2, kc x nr of B in L1, kc x nc in L3 */
    int l2;         /* bytes of the L2 they were fitted to (0: estimated from mc x kc) */
    gemm_ukernel ukernel;
    void (*small)(const struct gemm_problem *pr); /* the unpacked small path */
    gemm_pack_a_fn pack_a;                        /* gemm_pack_a's contract, for this mr */
    gemm_pack_b_fn pack_b;                        /* gemm_pack_b's contract, for this nr */
    gemm_pack_a_from_b_fn pack_a_from_b;          /* NULL: syrk packs A from A */
    gemm_tri_fn tri_left, tri_right;              /* trsm/trmm base cases */
    gemm_unit_lower_fn unit_lower_panel;          /* getrf's solve on packed U12 */
    bool unpacked_fast; /* small is a vector path worth using beyond tiny sizes */
    /* small's tiles have half the AVX-512 path's 12 columns (AVX2: 6), so it re-reads A twice as
     * often: A may take a quarter of L2, not half; past 256 columns of C only a thin A (m or
     * k <= 64) runs unpacked; op(A) = A^T only within the stack copy (gemm_prefers_unpacked). */
    bool unpacked_narrow_tiles;
    /* trmm's blocks on the left read B in place through small instead of packing it
     * (multiply_packed.c): on the Xeon (model 207) 1.05-1.12x at orders 32-256 with AVX-512's
     * tiles, 0.93-0.97x below 256 with AVX2's. */
    bool trmm_left_in_place;
    gemm_ukernel_edge edge; /* edge and diagonal tiles in place; NULL: through a buffer */
    gemm_ukernel_prefetch ukernel_prefetch; /* NULL: no next block is asked for */
    gemm_transpose_fn transpose;            /* op(A) = A^T copied for the small path */
    /* Set on copies whose pack_a or pack_b reads an operand that the small and unpacked paths,
     * which read operands in place, cannot (dsymm's symmetric one): their products always pack. */
    bool packed_only;
    /* C's tile from memory and the next B panel asked for by ukernel_prefetch over its steps
     * (Intel), not C in a burst before the call (Zen 5); set only with ukernel_prefetch: select.c,
     * docs/gemm.md. */
    bool spread_requests;
} gemm_kernel;

/* The kernel set for this CPU, chosen once (cpuid) from the registries; TELA_ARCH=generic, avx2
 * or avx512 forces one (tests), if the CPU has it. Block sizes fitted to the caches. Inline: once
 * chosen, one load, not a call (about 1 ns of a 35 ns 8^3 dgemm). */
extern const gemm_kernel *_Atomic gemm_kernel_chosen;
const gemm_kernel *gemm_kernel_choose(void);
static inline const gemm_kernel *gemm_kernel_get(void)
{
    const gemm_kernel *kr = atomic_load_explicit(&gemm_kernel_chosen, memory_order_acquire);
    return kr ? kr : gemm_kernel_choose();
}
/* Sets kr's mc, kc, nc for caches of l1, l2, l3 bytes (<= 0: unknown,
 * that block keeps its value). */
void gemm_blocks_for(gemm_kernel *kr, long l1, long l2, long l3);
/* A kernel set by name if this CPU can run it, else NULL (tests compare them). */
const gemm_kernel *gemm_kernel_by_name(const char *name);

/* The most steps of a packed panel. The B micro-panel in half of L1d sets kc, and with the AVX2
 * set's 6 columns a 48 KiB L1 gave 512: its A micro-panel (8 x 512, 32 KiB) then left L1 no room
 * for B's, and dgemm 1024-2048 ran 5% slower than at 256 (TELA_ARCH=avx2 on the Xeon model 207;
 * 128-384 within 3%). BLIS and OpenBLAS take 256 for these kernels too. */
#define GEMM_KC_MAX 256

/* One registry per ISA (registry_<isa>.c): its kernels and default block sizes together, every
 * field named. The AVX2 and AVX-512 registries leave NULL what they take from the generic one. */
extern const gemm_kernel gemm_registry_generic, gemm_registry_avx2, gemm_registry_avx512;

/* The micro-kernels, one file each, named for ISA and shape (mr x nr doubles). */
void gemm_kernel_avx512_d16x12(int kc, const double *restrict a, const double *restrict b,
                               double *restrict c, ptrdiff_t ldc, double beta);
void gemm_kernel_avx512_d16x12_edge(int kc, const double *restrict a, const double *restrict b,
                                    double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                    const uint16_t *restrict rows);
void gemm_kernel_avx512_d16x12_prefetch(int kc, const double *restrict a, const double *restrict b,
                                        double *restrict c, ptrdiff_t ldc, double beta,
                                        const gemm_requests *rq);
void gemm_kernel_avx2_d8x6(int kc, const double *restrict a, const double *restrict b,
                           double *restrict c, ptrdiff_t ldc, double beta);
void gemm_kernel_avx2_d8x6_edge(int kc, const double *restrict a, const double *restrict b,
                                double *restrict c, ptrdiff_t ldc, double beta, int cols,
                                const uint16_t *restrict rows);
void gemm_kernel_generic_d4x4(int kc, const double *restrict a, const double *restrict b,
                              double *restrict c, ptrdiff_t ldc, double beta);

void gemm_small_avx512(const struct gemm_problem *pr);
void gemm_small_avx2(const struct gemm_problem *pr);
void gemm_unit_lower_panel_generic(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                   double *panel);
void gemm_unit_lower_panel_avx2(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                double *panel);
void gemm_unit_lower_panel_avx512(int k, const double *l, ptrdiff_t l_row, ptrdiff_t l_col, int nr,
                                  double *panel);
void gemm_tri_left_generic(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb);
void gemm_tri_right_generic(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb);
void gemm_tri_left_avx512(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb);
void gemm_tri_right_avx512(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb);
void gemm_tri_left_avx2(const gemm_tri *t, ptrdiff_t n, double *b, ptrdiff_t ldb);
void gemm_tri_right_avx2(const gemm_tri *t, ptrdiff_t m, double *b, ptrdiff_t ldb);
void gemm_transpose_avx2(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                         double *restrict t, ptrdiff_t ldt);
void gemm_pack_a_avx2(const struct gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                      double alpha, int mr, double *restrict out);
void gemm_pack_b_avx2(const struct gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                      int first_panel, int last_panel, int nr, double *restrict out);
void gemm_pack_a_avx512(const struct gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                        double alpha, int mr, double *restrict out);
void gemm_pack_a_from_b_avx512(const double *b, int kc, ptrdiff_t r0, int rows, double alpha,
                               double *restrict out);
void gemm_pack_b_avx512(const struct gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0,
                        int n_block, int first_panel, int last_panel, int nr, double *restrict out);

/* A matrix operand as the caller gave it: element (i, j) of op(X) is
 * p[i + j * ld] untransposed, p[j + i * ld] transposed. */
typedef struct gemm_operand {
    const double *p;
    ptrdiff_t ld;
    bool trans;
} gemm_operand;

static inline double gemm_at(const gemm_operand *x, ptrdiff_t i, ptrdiff_t j)
{
    return x->trans ? x->p[j + i * x->ld] : x->p[i + j * x->ld];
}

/* gemm_transpose_fn's contract: element by element (pack.c), in 8 x 8
 * blocks (pack_avx512.c). */
void gemm_transpose(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                    double *restrict t, ptrdiff_t ldt);
void gemm_transpose_avx512(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                           double *restrict t, ptrdiff_t ldt);

/* A symmetric matrix S given as an operand whose op(X) holds it in its lower triangle (X's lower
 * triangle untransposed, its upper one transposed): S(i, j) is op(X)(i, j) for i >= j, else
 * op(X)(j, i); the other triangle of X is never read (pack_sym.c). These are gemm_pack_a's and
 * gemm_pack_b's contracts for op(A) = S or op(B) = S, on the packers of gemm_kernel_get()
 * (dsymm puts them in a packed_only copy of that kernel set). */
void gemm_pack_a_sym(const gemm_operand *s, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                     double alpha, int mr, double *restrict out);
void gemm_pack_b_sym(const gemm_operand *s, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                     int first_panel, int last_panel, int nr, double *restrict out);
/* full (order x order, leading dimension ld) = S: exact copies, by kr's transposer. */
void gemm_sym_expand(const gemm_kernel *kr, const gemm_operand *s, ptrdiff_t order, double *full,
                     ptrdiff_t ld);
/* out (order x (c1 - c0), leading dimension ld) = columns [c0, c1) of S: the same copies. */
void gemm_sym_expand_columns(const gemm_kernel *kr, const gemm_operand *s, ptrdiff_t order,
                             ptrdiff_t c0, ptrdiff_t c1, double *out, ptrdiff_t ld);

/* Packs rows [i0, i0 + mc) x columns [p0, p0 + kc) of op(A), times alpha,
 * into mr-row panels (zero-padded): panel r holds kc columns of mr values. */
void gemm_pack_a(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc, double alpha,
                 int mr, double *restrict out);
/* Packs rows [p0, p0 + kc) x columns [j0 + jp*nr ...) of op(B) for the nr
 * panels first_panel .. last_panel - 1 of a block of nc columns starting
 * at j0 (zero-padded beyond n_block). */
void gemm_pack_b(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                 int first_panel, int last_panel, int nr, double *restrict out);

/* One kc x nc step on a range of tiles: C[i0.., j0..] for the packed B
 * (the whole block) and rows [m_from, m_to) of the block, columns panels
 * [jp_from, jp_to). Packs A into a_buf itself (mc x kc). */
typedef enum gemm_part { GEMM_ALL, GEMM_LOWER, GEMM_UPPER } gemm_part;
typedef struct gemm_problem {
    const gemm_kernel *kernel;
    gemm_operand a, b;
    double *c;
    ptrdiff_t ldc;
    ptrdiff_t m, n, k;
    double alpha, beta;
    /* The part of C computed and written (syrk): tiles wholly outside it
     * are skipped, tiles across the diagonal go through gemm_edge_tile. */
    gemm_part part;
    /* op(B) is op(A)^T, the same memory (syrk): rows of op(A) whose columns of op(B) are in the
     * packed B block are packed from there (gemm_compute_block). */
    bool b_is_a_transposed;
    /* NULL, or the second halves of both operands along k (dsyr2k): see gemm_pair. */
    const struct gemm_pair *pair;
    /* NULL, or a triangle of op(A) on some of C's rows (trmm on the left): see gemm_band. */
    const struct gemm_band *band;
} gemm_problem;

/* op(A)'s rows [at, at + k) (C's rows; at and at + k on tile boundaries, or at + k = m) hold a
 * triangle over the product's k steps: row at + i reaches steps p <= i (lower) or p >= i (upper),
 * with ones on the diagonal where unit. Each tile of those rows sums only the steps its rows
 * reach (its mr x mr diagonal block packed with zeros beyond the triangle, and with the unit
 * diagonal, times alpha; A's other entries are never used) and the first of them writes C
 * (beta 0): trmm's step, whose op(B) is those rows of C before the product. A tile of rows
 * outside the band is a GEMM tile (beta applies). Only on packed_only kernel sets (no unpacked
 * path), and never with B copied by each member (copies would read C's rows as another member
 * writes them). */
typedef struct gemm_band {
    ptrdiff_t at;
    bool lower, unit;
} gemm_band;

/* A product whose operands continue along k in other matrices: op(A)(i, p) is op(a)(i, p) for
 * p < split, else op(a2)(i, p - split); op(B)(p, j) likewise from b and b2. dsyr2k's
 * alpha (op(A) op(B)^T + op(B) op(A)^T) is one such product of depth 2k, so each tile of C
 * sums both before C is read and written. Only the packed path reads pairs (the problem's
 * kernel set is a packed_only copy); the packers see one side at a time (gemm_pack_a_of). */
typedef struct gemm_pair {
    gemm_operand a2, b2;
    ptrdiff_t split;
} gemm_pair;

/* pack_a / pack_b of pr's kernel set on pr's operands, across a pair's split. */
void gemm_pack_a_of(const gemm_problem *pr, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                    double *out);
void gemm_pack_b_of(const gemm_problem *pr, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                    int first_panel, int last_panel, double *out);

/* *c after a product's value t, by BLAS's rule for beta (beta = 0 never
 * reads C): what the micro-kernel does, for elements it cannot write. */
static inline void gemm_combine(double *c, double t, double beta)
{
    *c = beta == 0.0 ? t : beta == 1.0 ? *c + t : beta * *c + t;
}

/* Every micro-kernel's last step, written once: its tile t (mr x nr, column j at t + j * mr) into
 * C by BLAS's rule for beta (beta = 0 never reads C). Inlined into each kernel's file, it is
 * compiled for that kernel's ISA: with FMA, beta * c + t is one fused multiply-add (C is built
 * gnu11, where contraction is on), as the kernels' own stores were; without, two roundings. */
static inline __attribute__((always_inline)) void gemm_store_tile(double *restrict c, ptrdiff_t ldc,
                                                                  const double *restrict t, int mr,
                                                                  int nr, double beta)
{
    for (int j = 0; j < nr; j++) {
        double *cj = c + j * ldc;
        const double *tj = t + (ptrdiff_t)j * mr;
        if (beta == 0.0)
            for (int i = 0; i < mr; i++)
                cj[i] = tj[i];
        else if (beta == 1.0)
            for (int i = 0; i < mr; i++)
                cj[i] += tj[i];
        else
            for (int i = 0; i < mr; i++)
                cj[i] = beta * cj[i] + tj[i];
    }
}

/* C (rows x cols at c, ldc) combined with t (ldt) by gemm_combine, only
 * the elements inside part ((i0, j0): the block's place in C). */
void gemm_combine_part(double *c, ptrdiff_t ldc, const double *t, ptrdiff_t ldt, int rows, int cols,
                       double beta, gemm_part part, ptrdiff_t i0, ptrdiff_t j0);
/* A tile the kernel cannot write in place: an edge (rows < mr or cols <
 * nr), or one across a triangle's diagonal. The kernel writes the whole
 * tile into a buffer, of which the elements of C (c: the tile's origin, at
 * (i0, j0) of C) inside part are combined as the kernel would have. */
void gemm_edge_tile(const gemm_kernel *kr, int kc, const double *a, const double *b, double *c,
                    ptrdiff_t ldc, int rows, int cols, double beta, gemm_part part, ptrdiff_t i0,
                    ptrdiff_t j0);

/* The tiles of C's rows [ic, ic + mc) in panels [jp_from, jp_to) of a
 * packed B block (columns from j0, n_block of them): A's rows packed at
 * a_packed (mr-row micro-panels), beta as the kernel takes it. */
void gemm_compute_rows(const gemm_problem *pr, ptrdiff_t j0, int n_block, int kc, double beta,
                       const double *b_packed, const double *a_packed, ptrdiff_t ic, int mc,
                       int jp_from, int jp_to);
/* Narrows rows [*m_from, *m_to) to those a triangle of C reaches in panels
 * [jp_from, jp_to) of the block at j0: from the tile holding the diagonal
 * (lower), down to the diagonal (upper); all of them for GEMM_ALL. */
void gemm_rows_reached(const gemm_problem *pr, ptrdiff_t j0, int n_block, int jp_from, int jp_to,
                       ptrdiff_t *m_from, ptrdiff_t *m_to);
/* Rows [m_from, m_to) of a packed B block (see gemm_compute_rows), A packed
 * mc rows at a time into a_buf; beta applies when p0 = 0. */
void gemm_compute_block(const gemm_problem *pr, ptrdiff_t j0, int n_block, ptrdiff_t p0, int kc,
                        const double *b_packed, ptrdiff_t m_from, ptrdiff_t m_to, int jp_from,
                        int jp_to, double *a_buf);
/* The same, the kernel asking for after's lines (NULL: none) where no next A block of the rows
 * [m_from, m_to) is left to ask for: the caller's next B block, or its next rows. */
void gemm_compute_block_then(const gemm_problem *pr, ptrdiff_t j0, int n_block, ptrdiff_t p0,
                             int kc, const double *b_packed, ptrdiff_t m_from, ptrdiff_t m_to,
                             int jp_from, int jp_to, double *a_buf, gemm_prefetch *after);
/* pf set to the source of op(A)'s rows [i0, i0 + rows) over steps [p0, p0 + kc). */
void gemm_prefetch_rows(const gemm_problem *pr, ptrdiff_t i0, int rows, ptrdiff_t p0, int kc,
                        gemm_prefetch *pf);

/* Panels of nr columns in a block of n_block columns. */
int gemm_panels_of(int n_block, int nr);
/* The width of the B blocks n columns are cut into: whole panels, at most
 * nc, and as even as that allows (cut by nc alone, 2048 columns made a
 * last block of 8 columns, for which all of A was packed again). */
int gemm_block_columns(const gemm_kernel *kr, ptrdiff_t n);
/* The same with blocks of at most `most` columns (rounded down to whole panels, at least one). */
int gemm_block_columns_of(const gemm_kernel *kr, ptrdiff_t n, int most);
/* True where the serial loops take B in blocks of mc columns, the next one's source asked for
 * while one is computed: a product of one A block (m <= mc) on a kernel that asks ahead. */
bool gemm_narrow_b(const gemm_problem *pr);
/* The depth of the k blocks for depth k: as few as kc allows, of even depth in steps of 8
 * (384 was 256 + 128, whose short block ran the kernel's tiles half as long for each load and
 * store of C; now 192 + 192). A function of k alone: every split of C sums alike. */
int gemm_block_depth(const gemm_kernel *kr, ptrdiff_t k);
/* The rows of A's blocks for m rows: as few blocks as mc allows, of even
 * height in whole tiles (a last block of a few tiles streams every B panel
 * from L3 for those tiles alone). */
int gemm_block_rows(const gemm_kernel *kr, ptrdiff_t m);
/* The same with blocks of at most `most` rows (rounded down to whole tiles, at least one). */
int gemm_block_rows_of(const gemm_kernel *kr, ptrdiff_t m, int most);
/* Doubles of a packed kc x nc B block (a multiple of 8: 64-byte aligned
 * after it). */
size_t gemm_b_buffer_len(const gemm_kernel *kr, int nc, int kc);

/* A product with valid arguments (m, n > 0, k > 0, alpha != 0) under par:
 * serially, or on the unpacked or packed path in a gated region named
 * name. */
void gemm_run(tela_par par, const gemm_problem *pr, const char *name);
/* gemm_run where each member of an unpacked region runs unpacked(self, arg) in place of the
 * default (its share of C's 8-column blocks, gemm_unpacked_share): for routines whose members
 * prepare their own copy of an operand first. False, with nothing computed, where that region
 * could not start (a bad policy, reported): the caller computes serially. */
bool gemm_run_members(tela_par par, const gemm_problem *pr, const char *name, tela_body unpacked,
                      void *arg);
/* Member self's share [*j_from, *j_to) of C's columns in an unpacked region: whole 8-column
 * blocks, as even as they go. False when it has none. */
bool gemm_unpacked_share(const gemm_problem *pr, const tela_member *self, ptrdiff_t *j_from,
                         ptrdiff_t *j_to);
/* Serial dgemm on any sizes (packs when it pays, else the small path). */
void gemm_serial(const gemm_problem *pr);
/* The same, packing into buf (len doubles) when it is large enough, else
 * into the thread's buffer: what members of a region use (buffers handed
 * out before it), so they compute exactly as a serial caller does. */
void gemm_serial_in(const gemm_problem *pr, double *buf, size_t len);
/* gemm_serial_in on a path chosen beforehand (unpacked: the unpacked path,
 * as gemm_prefers_unpacked says for a larger product this one is a column
 * range of). Each element of C is then computed as in the larger product,
 * however its columns are split: what callers sharing one product's
 * columns among members use to stay bitwise equal at every width. */
void gemm_serial_on_path(const gemm_problem *pr, bool unpacked, double *buf, size_t len);
/* The doubles gemm_serial_in packs into for these sizes: enough for any product of them. */
size_t gemm_serial_buffer_len(const gemm_kernel *kr, ptrdiff_t m, ptrdiff_t n, ptrdiff_t k);
/* The doubles gemm_serial_in packs into for pr itself (at most gemm_serial_buffer_len's; less
 * where its B blocks are narrow), and for any product of pr's kernel and m, k with fewer
 * columns. */
size_t gemm_problem_buffer_len(const gemm_problem *pr);
/* Columns of the strips in which the unpacked path computes a triangle. */
#define GEMM_PART_STRIP 8
/* Columns [j_from, j_to) of pr's product by the unpacked path (j_from a
 * multiple of GEMM_PART_STRIP when pr->part is a triangle; C is then
 * square). */
void gemm_unpacked_columns(const gemm_problem *pr, ptrdiff_t j_from, ptrdiff_t j_to);
/* Share rank of width of the units of `unit` columns in columns [j0, j0 +
 * cols) of C: units [*from, *to), equal in count, or for a triangle of C
 * in the elements they hold. */
void gemm_share_columns(const gemm_problem *pr, ptrdiff_t j0, ptrdiff_t cols, int unit, int rank,
                        int width, int *from, int *to);
/* A member's claims on its range of work items: items taken from the
 * front in the low half, from the back in the high half (claims.c). Sizes
 * are below 2^32. */
typedef _Atomic uint64_t gemm_claim_word;
/* Takes up to `most` items of a range of size items (from its back: at
 * most half of those left, rounded up): [*first, *first + *count) within
 * the range. False when none is left. Relaxed: the items are independent,
 * the region's barriers order their results. */
bool gemm_claim(gemm_claim_word *word, ptrdiff_t size, bool from_back, ptrdiff_t most,
                ptrdiff_t *first, ptrdiff_t *count);
/* Items of the range not yet taken. */
ptrdiff_t gemm_claims_left(gemm_claim_word *word, ptrdiff_t size);
/* The flops of pr: 2 k per element of C computed. */
double gemm_flops(const gemm_problem *pr);
/* The small path: no packing, for products too small to amortise it. */
void gemm_small(const gemm_problem *pr);
/* The grid of members over one B block of a full product: wm rows (over
 * m's tiles of mr rows) by wn columns (over its panels of nr), wm * wn = width. */
void gemm_split_grid(int width, ptrdiff_t m_tiles, int n_panels, int mr, int nr, int *wm, int *wn);
/* True if the product is so small it runs serially on the small path,
 * without the gate: below ~32^3 flops/2 packing costs more than it saves
 * (and allocates). Inline: it is on every dgemm's path. */
static inline bool gemm_is_small(ptrdiff_t m, ptrdiff_t n, ptrdiff_t k)
{
    return (double)m * (double)n * (double)k <= 32.0 * 32.0 * 32.0;
}
/* Runs a small product (a whole C, on a kernel that has a small path) on that path straight
 * away and returns true; false for any other. Inline: tela_dgemm calls it before gemm_run,
 * whose first test it is, saving a call and its frame at n = 8 (docs/gemm.md). */
static inline bool gemm_run_small(const gemm_problem *pr)
{
    if (!gemm_is_small(pr->m, pr->n, pr->k) || pr->part != GEMM_ALL || pr->kernel->packed_only)
        return false;
    pr->kernel->small(pr);
    return true;
}
/* True if this kernel's unpacked path beats packing for these sizes (it
 * then runs at every width, members splitting C's columns). */
bool gemm_prefers_unpacked(const gemm_problem *pr);
/* Doubles of op(A) = A^T the AVX-512 small path transposes on its stack. */
#define GEMM_SMALL_TRANSPOSE_MAX 4096
/* Most doubles of the operand the unpacked path re-reads in place (A, m x k; both transposed B,
 * n x k) where the L2 is unknown, and of op(A) = A^T's copy on any machine: half of a 1 MiB L2.
 * Each member of a region makes its own copy: with a 2 MiB L2, TN 300^3 on the copy ran 0.90x
 * packing on one thread and 0.81x on two (the Xeon, model 207). */
#define GEMM_UNPACKED_A_MAX 65536
/* Most doubles of the operand the unpacked path re-reads in place: half of kr's L2, the bound
 * above where it is unknown. Measured with a 1 MiB L2 on Zen 5 (square 384 lost to packing) and
 * a 2 MiB one on the Xeon (model 207): NN 272-352 on one thread 1.10-1.12x packing (72-74 ->
 * 80-83 GFLOP/s), two 1.04-1.08x at 272-340 (352 level), 2000 x 2000 x 64 1.04-1.05x, 256 x
 * 512 x 512 1.19x, 512 x 2000 x 256 and 512 x 512 x 256 level (process-local pairs). */
double gemm_unpacked_reread_max(const gemm_kernel *kr);
/* Whether the unpacked path runs pr on a copy of op(A) = A^T (m x k, ld m) made first: A^T alone,
 * larger than the small path's stack copy. */
bool gemm_unpacked_copies_a(const gemm_problem *pr);
/* pr with op(A) = A^T copied into at (m x k doubles, ld m) by the kernel's transposer, as
 * op(A) = A: the same arithmetic as the small path on its stack copy. */
gemm_problem gemm_with_a_copied(const gemm_problem *pr, double *at);
/* Columns [j_from, j_to) by the unpacked path, op(A) = A^T first copied where
 * gemm_unpacked_copies_a says: into buf (len doubles) if given, else into the thread's packing
 * buffer (out of memory: A^T read in place). False, with nothing computed, only when buf is
 * given and too small for the copy. */
bool gemm_unpacked_columns_in(const gemm_problem *pr, ptrdiff_t j_from, ptrdiff_t j_to, double *buf,
                              size_t len);
/* Scales C by beta (beta = 0: zero, overwriting NaN), for alpha = 0 or k = 0. */
void gemm_scale_c(double *c, ptrdiff_t ldc, ptrdiff_t m, ptrdiff_t n, double beta);

/* For the files compiled with AVX-512 flags (the packers, the small path): 8 x 8 transposes of
 * doubles in registers. */
#if defined(__AVX2__)
#include <immintrin.h>
/* The lanes of a ymm's first `count` doubles (none for count <= 0, all from 4): the mask of AVX2's
 * masked loads and stores for the rows an edge holds. */
static inline __m256i gemm_first_lanes_avx2(long long count)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(count), _mm256_setr_epi64x(0, 1, 2, 3));
}
#endif

#if defined(__AVX512F__)
#include <immintrin.h>
/* The first two of the transpose's three shuffle stages: u[q] (q < 4) holds elements q and q + 4
 * of rows 0-3 (a_q b_q c_q d_q a_q+4 b_q+4 c_q+4 d_q+4), u[4 + q] the same of rows 4-7. A caller
 * that stores the 256-bit halves itself skips the third stage: every shuffle runs on the port
 * the second FMA unit has (docs/gemm.md, "Small sizes"). */
static inline void gemm_transpose8_halves_avx512(const __m512d r[8], __m512d u[8])
{
    const __m512i lo_pairs = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i hi_pairs = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    __m512d t[8];
    for (int q = 0; q < 4; q++) {
        const int e = 2 * q, o = 2 * q + 1;
        t[e] = _mm512_unpacklo_pd(r[e], r[o]);
        t[o] = _mm512_unpackhi_pd(r[e], r[o]);
    }
    /* t[0] = a0 b0 a2 b2 a4 b4 a6 b6, t[1] = a1 b1 a3 b3 ..., t[2] = c0 d0 ... */
    for (int q = 0; q < 2; q++) {
        for (int s = 0; s < 2; s++) {
            u[4 * q + s] = _mm512_permutex2var_pd(t[4 * q + s], lo_pairs, t[4 * q + 2 + s]);
            u[4 * q + 2 + s] = _mm512_permutex2var_pd(t[4 * q + s], hi_pairs, t[4 * q + 2 + s]);
        }
    }
}

/* Rows r[0..7] (8 doubles each) become columns, r[q] then holding element q of every row. */
static inline void gemm_transpose8_avx512(__m512d r[8])
{
    __m512d u[8];
    gemm_transpose8_halves_avx512(r, u);
    for (int s = 0; s < 4; s++) {
        r[s] = _mm512_shuffle_f64x2(u[s], u[4 + s], 0x44);
        r[4 + s] = _mm512_shuffle_f64x2(u[s], u[4 + s], 0xee);
    }
}
#endif

#endif /* TELA_GEMM_H */
