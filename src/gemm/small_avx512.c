/* small_avx512.c — dgemm's unpacked path for AVX-512F + FMA: no packing, tiles of C of up to 16
 * rows (two vectors, the last masked at the edge) by up to 12 columns held in registers over k,
 * for products too small to amortise packing. Compiled with -mavx512f -mfma (CMakeLists.txt). */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* A is read in place when untransposed, and so are both operands when both are transposed (C^T =
 * B A); op(A) = A^T alone is copied transposed onto the stack when it fits, else read row by row
 * as dot products along k. Serial: callers split C's columns between members. */

/* One tile's operands: nv vectors of 8 rows (the last masked) by nr columns of C, over all k.
 * op(B)(p, j) = b[p * step_p + j * step_j]. */
#define SMALL_NR 12 /* most columns of a tile */

typedef struct small_tile {
    const double *a;
    ptrdiff_t lda, k;
    const double *b;
    ptrdiff_t step_p, step_j;
    double *c;
    ptrdiff_t ldc;
    __mmask8 last; /* rows of the last vector */
    double alpha, beta;
} small_tile;

/* Eight rows, or the first of them in mask (a masked load cost ~5% at 32-128 where no row is
 * missing, so whole tiles have instances without masks). */
static inline __m512d small_load(bool masked, __mmask8 mask, const double *x)
{
    return masked ? _mm512_maskz_loadu_pd(mask, x) : _mm512_loadu_pd(x);
}

static inline void small_save(bool masked, __mmask8 mask, double *x, __m512d v)
{
    if (masked)
        _mm512_mask_storeu_pd(x, mask, v);
    else
        _mm512_storeu_pd(x, v);
}

/* C = op(A) op(B) with both transposed is computed as its transpose B A, whose operands are
 * read in place like A and B untransposed: a tile's accumulators then hold rows of C (acc[v][i]:
 * row i0 + i, columns j0 + 8v ..), turned into columns by 8 x 8 transposes in registers. Each
 * element is the same chain of FMAs in k's order as through a transposed copy of A, so the same
 * bits. nr <= 8 rows of C; masked: the last vector holds fewer than 8 columns. */
static inline __attribute__((always_inline)) void small_store_transposed(const small_tile *t,
                                                                         __m512d acc[3][SMALL_NR],
                                                                         const int nv, const int nr,
                                                                         const bool masked)
{
    const __m512d va = _mm512_set1_pd(t->alpha), vb = _mm512_set1_pd(t->beta);
    const __mmask8 rows = (__mmask8)((1u << nr) - 1u);
    const bool short_rows = nr < 8;
    const ptrdiff_t ldc = t->ldc;
    double *const c = t->c; /* a local, as in small_tile_run */
    const int cols_last = masked ? __builtin_popcount(t->last) : 8;
    if (!short_rows && t->beta == 0.0) {
        /* Eight whole rows and no C to read: each column goes out as two 256-bit halves, rows
         * 0-3 and 4-7, straight from the transpose's second stage. The third stage's 8
         * shuffles per vector competed with the FMAs for port 5; the halves' stores use the
         * store ports alone (TT 16 and 32: 7-9% faster). */
#pragma GCC unroll 3
        for (int v = 0; v < nv; v++) {
            __m512d u[8];
            gemm_transpose8_halves_avx512(acc[v], u);
            const int cols = v == nv - 1 ? cols_last : 8;
#pragma GCC unroll 4
            for (int q = 0; q < 4; q++) {
                if (t->alpha != 1.0) {
                    u[q] = _mm512_mul_pd(va, u[q]);
                    u[4 + q] = _mm512_mul_pd(va, u[4 + q]);
                }
                /* u[q] and u[4 + q] hold columns q and q + 4: their low halves the first. */
                double *col_q = c + (8 * v + q) * ldc, *col_q4 = col_q + 4 * ldc;
                if (q < cols) {
                    _mm256_storeu_pd(col_q, _mm512_castpd512_pd256(u[q]));
                    _mm256_storeu_pd(col_q + 4, _mm512_castpd512_pd256(u[4 + q]));
                }
                if (q + 4 < cols) {
                    _mm256_storeu_pd(col_q4, _mm512_extractf64x4_pd(u[q], 1));
                    _mm256_storeu_pd(col_q4 + 4, _mm512_extractf64x4_pd(u[4 + q], 1));
                }
            }
        }
        return;
    }
    __m512d col[3][8];
#pragma GCC unroll 3
    for (int v = 0; v < nv; v++) {
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++)
            col[v][i] = i < nr ? acc[v][i] : _mm512_setzero_pd();
        gemm_transpose8_avx512(col[v]);
    }
    /* As in the untransposed store: every column read before any is written. */
#pragma GCC unroll 3
    for (int v = 0; v < nv; v++) {
        const int cols = v == nv - 1 ? cols_last : 8;
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            if (j >= cols)
                break;
            if (t->alpha != 1.0)
                col[v][j] = _mm512_mul_pd(va, col[v][j]);
            if (t->beta != 0.0)
                col[v][j] = _mm512_fmadd_pd(vb, small_load(short_rows, rows, c + (8 * v + j) * ldc),
                                            col[v][j]);
        }
    }
#pragma GCC unroll 3
    for (int v = 0; v < nv; v++) {
        const int cols = v == nv - 1 ? cols_last : 8;
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            if (j >= cols)
                break;
            small_save(short_rows, rows, c + (8 * v + j) * ldc, col[v][j]);
        }
    }
}

/* nv x nr accumulators, each one element chain of FMAs in k's order, so any tiling of C gives
 * the same bits. nv and nr are constants in each instance below: gcc then keeps the
 * accumulators, A's vectors and the broadcast in registers (up to 24 + 2 + 1 of 32 zmm), and
 * op(B)'s columns are reached from one base per four columns and two strides (a clamped pointer
 * per column was spilled and reloaded at every step). */
static inline __attribute__((always_inline)) void small_tile_run(const small_tile *t, const int nv,
                                                                 const int nr, const bool masked,
                                                                 const bool transposed,
                                                                 const bool unit_step)
{
    __m512d acc[3][SMALL_NR];
#pragma GCC unroll 12
    for (int j = 0; j < nr; j++)
        acc[0][j] = acc[1][j] = acc[2][j] = _mm512_setzero_pd();
    const ptrdiff_t lda = t->lda, k = t->k, step_p = t->step_p, s1 = unit_step ? 1 : t->step_j,
                    s3 = 3 * s1;
    const double *a = t->a, *b0 = t->b;
    const double *b4 = nr > 4 ? b0 + 4 * s1 : b0, *b8 = nr > 8 ? b0 + 8 * s1 : b0;
    const __mmask8 last = t->last;
    for (ptrdiff_t p = 0; p < k; p++, a += lda, b0 += step_p, b4 += step_p, b8 += step_p) {
        const __m512d a0 = small_load(nv == 1 && masked, last, a);
        const __m512d a1 = nv >= 2 ? small_load(nv == 2 && masked, last, a + 8) : a0;
        const __m512d a2 = nv == 3 ? small_load(masked, last, a + 16) : a0;
#pragma GCC unroll 12
        for (int j = 0; j < nr; j++) {
            const double *q = j < 4 ? b0 : j < 8 ? b4 : b8;
            const int r = j % 4;
            const __m512d v = _mm512_set1_pd(r == 0   ? q[0]
                                             : r == 1 ? q[s1]
                                             : r == 2 ? q[2 * s1]
                                                      : q[s3]);
            acc[0][j] = _mm512_fmadd_pd(a0, v, acc[0][j]);
            if (nv >= 2)
                acc[1][j] = _mm512_fmadd_pd(a1, v, acc[1][j]);
            if (nv == 3)
                acc[2][j] = _mm512_fmadd_pd(a2, v, acc[2][j]);
        }
    }
    if (transposed) {
        small_store_transposed(t, acc, nv, nr, masked);
        return;
    }
    /* Every column of C is read before any is written: a load overlapping an earlier masked
     * store (the next column, ldc not a multiple of 8) waits for that store to retire, and column
     * by column that wait came once per column (12 x 12 x 12 took 130 ns, 16^3 100). */
    const __m512d va = _mm512_set1_pd(t->alpha), vb = _mm512_set1_pd(t->beta);
    const ptrdiff_t ldc = t->ldc;
    double *const c0 = t->c; /* a local: after each store (may_alias) gcc loaded t->c again */
    /* 1 x acc is acc: the multiplies are skipped, not made, for alpha = 1 (each one a step of a
     * 16 x 12 tile's FMA ports: 3% of a 32^3 call). */
    if (t->alpha != 1.0) {
#pragma GCC unroll 12
        for (int j = 0; j < nr; j++) {
            acc[0][j] = _mm512_mul_pd(va, acc[0][j]);
            if (nv == 2)
                acc[1][j] = _mm512_mul_pd(va, acc[1][j]);
        }
    }
    if (t->beta != 0.0) {
#pragma GCC unroll 12
        for (int j = 0; j < nr; j++) {
            const double *c = c0 + j * ldc;
            acc[0][j] = _mm512_fmadd_pd(vb, small_load(nv == 1 && masked, last, c), acc[0][j]);
            if (nv == 2)
                acc[1][j] = _mm512_fmadd_pd(vb, small_load(masked, last, c + 8), acc[1][j]);
        }
    }
#pragma GCC unroll 12
    for (int j = 0; j < nr; j++) {
        double *c = c0 + j * ldc;
        small_save(nv == 1 && masked, last, c, acc[0][j]);
        if (nv == 2)
            small_save(masked, last, c + 8, acc[1][j]);
    }
}

/* Each shape's two instances (whole and masked last vector), named prefix<nv>_<nr>[_masked]. */
#define SMALL_INSTANCES(prefix, nv, nr, transposed, unit)                                          \
    static void prefix##nv##_##nr(const small_tile *t)                                             \
    {                                                                                              \
        small_tile_run(t, nv, nr, false, transposed, unit);                                        \
    }                                                                                              \
    static void prefix##nv##_##nr##_masked(const small_tile *t)                                    \
    {                                                                                              \
        small_tile_run(t, nv, nr, true, transposed, unit);                                         \
    }
#define SMALL_INSTANCES_1_TO_8(prefix, nv, transposed, unit)                                       \
    SMALL_INSTANCES(prefix, nv, 1, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 2, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 3, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 4, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 5, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 6, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 7, transposed, unit)                                               \
    SMALL_INSTANCES(prefix, nv, 8, transposed, unit)
#define SMALL_ENTRIES_1_TO_8(prefix, nv, suffix)                                                   \
    prefix##nv##_1##suffix, prefix##nv##_2##suffix, prefix##nv##_3##suffix,                        \
        prefix##nv##_4##suffix, prefix##nv##_5##suffix, prefix##nv##_6##suffix,                    \
        prefix##nv##_7##suffix, prefix##nv##_8##suffix
/* Untransposed: 1-2 vectors, 1-12 columns. */
#define SMALL_TILES(prefix, nv, unit)                                                              \
    SMALL_INSTANCES_1_TO_8(prefix, nv, false, unit)                                                \
    SMALL_INSTANCES(prefix, nv, 9, false, unit)                                                    \
    SMALL_INSTANCES(prefix, nv, 10, false, unit)                                                   \
    SMALL_INSTANCES(prefix, nv, 11, false, unit)                                                   \
    SMALL_INSTANCES(prefix, nv, 12, false, unit)
#define SMALL_ROW(prefix, nv, suffix)                                                              \
    {                                                                                              \
        SMALL_ENTRIES_1_TO_8(prefix, nv, suffix), prefix##nv##_9##suffix, prefix##nv##_10##suffix, \
            prefix##nv##_11##suffix, prefix##nv##_12##suffix                                       \
    }
SMALL_TILES(small_tile_, 1, false)
SMALL_TILES(small_tile_, 2, false)
/* One vector of rows, op(B)'s columns next to each other (op(B) = B^T): the column offsets are
 * constants, so each FMA reads its broadcast at base + constant, one fused uop. With the offset in
 * an index register, Intel cores split such an FMA in two, and an 8-step 8 x 8 x 8 tile, which
 * waits on its FMA chains, then waited on the front end as well. */
SMALL_TILES(small_tile_unit_, 1, true)
/* [rows missing from the vector][columns - 1] */
static void (*const small_tiles_unit[2][SMALL_NR])(const small_tile *) = {
    SMALL_ROW(small_tile_unit_, 1, ), SMALL_ROW(small_tile_unit_, 1, _masked)};
/* Transposed (C^T = B A): 1-3 vectors of C's columns, 1-8 of C's rows. */
#define SMALL_ROW_TRANSPOSED(nv, suffix)                                                           \
    {                                                                                              \
        SMALL_ENTRIES_1_TO_8(small_tile_t_, nv, suffix)                                            \
    }
SMALL_INSTANCES_1_TO_8(small_tile_t_, 1, true, false)
SMALL_INSTANCES_1_TO_8(small_tile_t_, 2, true, false)
SMALL_INSTANCES_1_TO_8(small_tile_t_, 3, true, false)
/* [vectors - 1][rows missing from the last vector][columns - 1] */
static void (*const small_tiles[2][2][SMALL_NR])(const small_tile *) = {
    {SMALL_ROW(small_tile_, 1, ), SMALL_ROW(small_tile_, 1, _masked)},
    {SMALL_ROW(small_tile_, 2, ), SMALL_ROW(small_tile_, 2, _masked)}};
/* The same for C's transpose: [vectors of C's columns - 1][masked][C's rows - 1]. */
static void (*const small_tiles_transposed[3][2][8])(const small_tile *) = {
    {SMALL_ROW_TRANSPOSED(1, ), SMALL_ROW_TRANSPOSED(1, _masked)},
    {SMALL_ROW_TRANSPOSED(2, ), SMALL_ROW_TRANSPOSED(2, _masked)},
    {SMALL_ROW_TRANSPOSED(3, ), SMALL_ROW_TRANSPOSED(3, _masked)}};

/* count / parts, without a divide where one part takes all: a 64-bit divide was ~3 ns of a
 * 37 ns 8 x 8 x 8 call on the Xeon (perf). */
static inline ptrdiff_t split_narrow(ptrdiff_t count, ptrdiff_t parts)
{
    if (__builtin_expect(parts == 1, 1))
        return count;
    return (ptrdiff_t)((size_t)count / (size_t)parts);
}

/* Rows of a first tile after which every tile's columns of A and C start on a 64-byte line:
 * where A and C sit at the same offset in a line, and so do all their columns (lda and ldc
 * multiples of 8), as arrays from one allocator do (glibc's large blocks, NumPy's: 16 bytes
 * past a page). Off the line a 16-row column of A spans three lines, not two, and each tile's
 * columns of C are split stores. Measured on the Xeon (model 207), one thread, A, B and C 16
 * bytes off, this head tile against none: square NN 192-352 1.02-1.13x, NT 192-256 1.06-1.10x,
 * 1000 x 1000 x 16 1.33-1.40x, 2000 x 16 x 16 1.23x; two threads 256 and 320 1.21x. Below 192
 * rows the extra tile costs more than it saves (128 0.97x, 64 0.88x). With C on its line and A
 * off, aligning A misaligned C and lost (0.83-0.94x): then no head. */
#define SMALL_HEAD_MIN_ROWS 192

static ptrdiff_t small_aligned_head(const gemm_problem *pr)
{
    const uintptr_t off = (uintptr_t)pr->a.p % 64;
    if (pr->m < SMALL_HEAD_MIN_ROWS || off == 0 || off % sizeof(double) != 0 ||
        (uintptr_t)pr->c % 64 != off || pr->a.ld % 8 != 0 || pr->ldc % 8 != 0)
        return 0;
    return (ptrdiff_t)((64 - off) / sizeof(double));
}

/* op(A) = A^T, op(B) = B^T: C^T = B A tile by tile, B's rows in up to 3 vectors of 8 (C's
 * columns) and A's columns (C's rows) broadcast, 8 rows of C a tile so that one transpose turns
 * a vector's accumulators into columns. No copy of either operand. */
static void small_transposed(const gemm_problem *pr)
{
    const ptrdiff_t m = pr->m, n = pr->n;
    small_tile t = {.lda = pr->b.ld,
                    .k = pr->k,
                    .step_p = 1,
                    .step_j = pr->a.ld,
                    .ldc = pr->ldc,
                    .alpha = pr->alpha,
                    .beta = pr->beta};
    const ptrdiff_t tiles = (m + 7) / 8, narrow = split_narrow(m, tiles), wide = m - narrow * tiles;
    for (ptrdiff_t q = 0, i0 = 0; q < tiles; q++) {
        const int nr = (int)(narrow + (q < wide));
        t.b = pr->a.p + i0 * pr->a.ld;
        /* C's columns in vectors of 8, dealt out evenly to tiles of at most 3 (32 = 16 + 16,
         * not 24 + 8). */
        const ptrdiff_t vectors = (n + 7) / 8, col_tiles = (vectors + 2) / 3,
                        per_tile = split_narrow(vectors, col_tiles);
        for (ptrdiff_t u = 0, j0 = 0; u < col_tiles; u++) {
            const int nv = (int)(per_tile + (u < vectors - per_tile * col_tiles));
            const int cols = n - j0 < (ptrdiff_t)8 * nv ? (int)(n - j0) : 8 * nv;
            t.last = (__mmask8)((1u << (cols - 8 * (nv - 1))) - 1u);
            t.a = pr->b.p + j0;
            t.c = pr->c + i0 + j0 * pr->ldc;
            small_tiles_transposed[nv - 1][t.last != 0xff][nr - 1](&t);
            j0 += cols;
        }
        i0 += nr;
    }
}

void gemm_small_avx512(const gemm_problem *pr)
{
    const ptrdiff_t m = pr->m, n = pr->n, k = pr->k;
    const double alpha = pr->alpha, beta = pr->beta;
    if (pr->a.trans && pr->b.trans) {
        small_transposed(pr);
        return;
    }
    if (pr->a.trans && m * k <= GEMM_SMALL_TRANSPOSE_MAX) {
        /* op(A) = A^T, small: transposed onto the stack, then the fast form. */
        double at[GEMM_SMALL_TRANSPOSE_MAX];
        const gemm_problem copy = gemm_with_a_copied(pr, at);
        gemm_small_avx512(&copy);
        return;
    }
    if (pr->a.trans) {
        for (ptrdiff_t j = 0; j < n; j++) {
            for (ptrdiff_t i = 0; i < m; i++) {
                const double *row = pr->a.p + i * pr->a.ld;
                __m512d acc = _mm512_setzero_pd();
                ptrdiff_t p = 0;
                for (; p + 8 <= k; p += 8) {
                    __m512d bv =
                        pr->b.trans
                            ? _mm512_set_pd(gemm_at(&pr->b, p + 7, j), gemm_at(&pr->b, p + 6, j),
                                            gemm_at(&pr->b, p + 5, j), gemm_at(&pr->b, p + 4, j),
                                            gemm_at(&pr->b, p + 3, j), gemm_at(&pr->b, p + 2, j),
                                            gemm_at(&pr->b, p + 1, j), gemm_at(&pr->b, p, j))
                            : _mm512_loadu_pd(pr->b.p + p + j * pr->b.ld);
                    acc = _mm512_fmadd_pd(_mm512_loadu_pd(row + p), bv, acc);
                }
                double sum = _mm512_reduce_add_pd(acc);
                for (; p < k; p++)
                    sum += row[p] * gemm_at(&pr->b, p, j);
                double *cij = pr->c + i + j * pr->ldc;
                *cij = beta == 0.0 ? alpha * sum : alpha * sum + beta * *cij;
            }
        }
        return;
    }
    /* Columns in as few tiles of at most SMALL_NR as cover n, of even width; rows in blocks of
     * 16 after a head of 1-7 where that puts A's and C's columns on lines (small_aligned_head),
     * the last one of 1-16 rows (masked). */
    const ptrdiff_t step_p = pr->b.trans ? pr->b.ld : 1, step_j = pr->b.trans ? 1 : pr->b.ld;
    small_tile t = {.lda = pr->a.ld,
                    .k = k,
                    .step_p = step_p,
                    .step_j = step_j,
                    .ldc = pr->ldc,
                    .alpha = alpha,
                    .beta = beta};
    const ptrdiff_t tiles = (n + SMALL_NR - 1) / SMALL_NR, narrow = split_narrow(n, tiles),
                    wide = n - narrow * tiles;
    const ptrdiff_t head = small_aligned_head(pr);
    for (ptrdiff_t q = 0, j0 = 0; q < tiles; q++) {
        const int nr = (int)(narrow + (q < wide));
        t.b = pr->b.p + j0 * step_j;
        for (ptrdiff_t i0 = 0, rows; i0 < m; i0 += rows) {
            const ptrdiff_t most = i0 == 0 && head ? head : 16;
            rows = m - i0 < most ? m - i0 : most;
            const int nv = rows > 8 ? 2 : 1, last_rows = (int)rows - 8 * (nv - 1);
            t.last = (__mmask8)((1u << last_rows) - 1u);
            t.a = pr->a.p + i0;
            t.c = pr->c + i0 + j0 * pr->ldc;
            if (nv == 1 && step_j == 1)
                small_tiles_unit[t.last != 0xff][nr - 1](&t);
            else
                small_tiles[nv - 1][t.last != 0xff][nr - 1](&t);
        }
        j0 += nr;
    }
}
#else
void gemm_small_avx512(const gemm_problem *pr)
{
    gemm_small(pr);
}
#endif
