/* level1.h — internal entry points of src/level1, the double-precision level-1 BLAS: the
 * serial contiguous kernels other folders may call, the per-ISA loop tables behind them, and
 * the block split every routine's region shares.
 *
 * A vector is cut into blocks whose length depends on n only (level1_block_len); a member of
 * a region takes whole consecutive blocks, and a reduction keeps one result per block, combined
 * in block order after the region. The serial path walks the same blocks, so every width gives
 * the same bits, and the per-block results fit on the caller's stack: no scratch memory. */
#ifndef TELA_LEVEL1_H
#define TELA_LEVEL1_H

#include "tela.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the serial contiguous kernels (increments 1), the same bits as the tela_ routines ---- */

/* sum x_i y_i, summed per block in block order (tela_ddot's bits with increments 1). */
double level1_dot(tela_int n, const double *x, const double *y);
/* y += alpha x (alpha = 0 too: the caller decides whether to skip). */
void level1_axpy(tela_int n, double alpha, const double *x, double *y);
/* x *= alpha (alpha = 0 multiplies too: NaN stays NaN, as reference 3.11). */
void level1_scal(tela_int n, double alpha, double *x);
/* y = x. */
void level1_copy(tela_int n, const double *x, double *y);
/* x <-> y. */
void level1_swap(tela_int n, double *x, double *y);
/* sum |x_i|, per block in block order (tela_dasum's bits with increment 1). */
double level1_asum(tela_int n, const double *x);
/* ||x||_2 by Blue's scaling (tela_dnrm2's bits with increment 1). */
double level1_nrm2(tela_int n, const double *x);
/* The 0-based first i of the largest |x_i|, NaN never chosen unless x_0 is NaN (then 0), as
 * reference IDAMAX minus one; -1 for n < 1. */
tela_int level1_iamax(tela_int n, const double *x);
/* (x_i, y_i) = (c x_i + s y_i, c y_i - s x_i). */
void level1_rot(tela_int n, double *x, double *y, double c, double s);

/* On the hot loops: address both operands from one index (x + i, y + i), as OpenBLAS's kernels
 * do, instead of the two pointers, each advanced mid-loop, that GCC's induction-variable pass makes
 * of them. On Zen 5 the indexed form streamed from L2 5-10% faster. */
#if defined(__GNUC__) && !defined(__clang__)
#define LEVEL1_INDEXED __attribute__((optimize("no-ivopts")))
#else
#define LEVEL1_INDEXED
#endif

/* ---- the loops of one instruction set (loops_generic.c, loops_avx2.c, loops_avx512.c) ----
 * Each works on one contiguous stretch (a block) and starts its sums from zero; what it returns
 * for a stretch is a function of the stretch's values alone (no alignment peeling), so a block
 * gives the same bits whichever member computes it. */

/* Blue's three sums of squares (LAPACK 3.10's dnrm2): |x| above LEVEL1_TBIG scaled by
 * LEVEL1_SBIG, below LEVEL1_TSML by LEVEL1_SSML, the rest (NaN included) unscaled. */
typedef struct level1_ssq {
    double small;  /* sum (|x| ssml)^2 of |x| < tsml */
    double medium; /* sum |x|^2 of the rest, NaN included */
    double big;    /* sum (|x| sbig)^2 of |x| > tbig */
} level1_ssq;

#define LEVEL1_TSML 0x1p-511 /* below: squares would underflow */
#define LEVEL1_TBIG 0x1p486  /* above: squares (times n) could overflow */
#define LEVEL1_SSML 0x1p537  /* scale of the small ones */
#define LEVEL1_SBIG 0x1p-538 /* scale of the big ones */

/* The largest |x_i| of a stretch and where it first occurs; NaN is never larger than anything. */
typedef struct level1_max {
    double value;   /* -1 when every element is NaN (or the stretch is empty) */
    tela_int index; /* 0-based within the stretch; 0 when value is -1 */
} level1_max;

/* One instruction set's loops, each on a stretch of n >= 1 elements (a copy is the C library's
 * memmove on every one). */
typedef struct level1_loops level1_loops;
struct level1_loops {
    const char *name;                                                   /* par_isa_name's */
    double (*dot)(tela_int n, const double *x, const double *y);        /* sum x_i y_i */
    void (*axpy)(tela_int n, double alpha, const double *x, double *y); /* y += alpha x */
    void (*scal)(tela_int n, double alpha, double *x);                  /* x *= alpha */
    void (*swap)(tela_int n, double *x, double *y);                     /* x <-> y */
    double (*asum)(tela_int n, const double *x);                        /* sum |x_i| */
    level1_ssq (*ssq)(tela_int n, const double *x);                     /* Blue's sums */
    level1_max (*amax)(tela_int n, const double *x);                    /* largest |x_i| */
    void (*rot)(tela_int n, double *x, double *y, double c, double s);  /* plane rotation */
    /* The loops for the blocks of a vector longer than one, streamed from L2 or memory: this
     * table, or AVX-512's mostly AVX2 one (loops_avx512.c). */
    const level1_loops *streaming;
};

extern const level1_loops level1_loops_generic;
extern const level1_loops level1_loops_avx2;
extern const level1_loops level1_loops_avx512;

/* The AVX2 loops by name: AVX-512's tables use them for data beyond L1. */
double level1_dot_avx2(tela_int n, const double *x, const double *y);
void level1_axpy_avx2(tela_int n, double alpha, const double *x, double *y);
void level1_scal_avx2(tela_int n, double alpha, double *x);
void level1_swap_avx2(tela_int n, double *x, double *y);
double level1_asum_avx2(tela_int n, const double *x);
level1_max level1_amax_avx2(tela_int n, const double *x);
void level1_rot_avx2(tela_int n, double *x, double *y, double c, double s);
/* AVX-512's dot on zmm registers at every length (select.c: Intel's cores). */
double level1_dot_zmm(tela_int n, const double *x, const double *y);

/* The loops for an n-vector of the ISA par_isa_chosen() names (chosen once): its table for one
 * block, its streaming table for more. Every block of a call thus runs the same loops, in a
 * region or not. */
const level1_loops *level1_loops_for(tela_int n);

/* ---- blocks and regions (blocks.c) ---- */

/* Least elements of a block (64 KiB of a vector): a member's smallest share. Each block ends its
 * loops and adds up its accumulators; with 4096, dot from L2 lost a few percent to that. */
#define LEVEL1_BLOCK 8192
/* Most blocks of a vector: a reduction's per-block results live on the caller's stack. */
#define LEVEL1_BLOCKS_MAX 256

/* Elements of every block of an n-vector but the last: LEVEL1_BLOCK, or more (a multiple of 64)
 * so that there are at most LEVEL1_BLOCKS_MAX. */
static inline tela_int level1_block_len(tela_int n)
{
    if (n <= (tela_int)LEVEL1_BLOCK * LEVEL1_BLOCKS_MAX)
        return LEVEL1_BLOCK;
    const tela_int len = (n + LEVEL1_BLOCKS_MAX - 1) / LEVEL1_BLOCKS_MAX;
    return (len + 63) & ~(tela_int)63;
}

/* Level 1's loops taken once for many calls on vectors of at most n elements, where n fits one
 * block (else NULL): level1_dot_by and level1_axpy_by then give level1_dot's and level1_axpy's
 * results without looking the loops up on every call (a once-guard and a table: ~12% of a
 * 16 x 16 dgeqrf, whose leaves call them column by column). */
static inline const level1_loops *level1_loops_upto(tela_int n)
{
    return n <= LEVEL1_BLOCK ? level1_loops_for(n) : NULL;
}

static inline double level1_dot_by(const level1_loops *loops, tela_int n, const double *x,
                                   const double *y)
{
    return !loops ? level1_dot(n, x, y) : n > 0 ? loops->dot(n, x, y) : 0.0;
}

static inline void level1_axpy_by(const level1_loops *loops, tela_int n, double alpha,
                                  const double *x, double *y)
{
    if (!loops)
        level1_axpy(n, alpha, x, y);
    else if (n > 0)
        loops->axpy(n, alpha, x, y);
}

static inline tela_int level1_block_count(tela_int n)
{
    const tela_int len = level1_block_len(n);
    return (n + len - 1) / len;
}

typedef struct level1_job level1_job;
/* Does block number b, elements [first, first + len), of job. */
typedef void (*level1_block_fn)(const level1_job *job, tela_int b, tela_int first, tela_int len);

/* One call's work, split in blocks. */
struct level1_job {
    level1_block_fn block;     /* the routine's work on one block */
    const level1_loops *loops; /* level1_loops_for(n) */
    tela_int n;                /* elements */
    tela_int block_len;        /* level1_block_len(n) */
    const double *x, *y;       /* operands read */
    double *out_x, *out_y;     /* operands written (the same arrays), NULL when read only */
    double alpha, beta;        /* the routine's scalars: alpha, or a rotation's (c, s) */
    const double *param;       /* drotm's H */
    double *sums;              /* per-block results of a sum, [block count] */
    level1_ssq *ssqs;          /* of dnrm2 */
    level1_max *maxes;         /* of idamax */
};

/* Runs job->block on each of job's blocks: in a region under par when the gate finds that
 * moving moved_per_element doubles per element pays (members take consecutive blocks), else on
 * the caller in order. job->block_len must be level1_block_len(job->n). */
void level1_run(tela_par par, const char *name, double moved_per_element, level1_job *job);

/* sums[0] + sums[1] + ... in that order: how every reduction combines its blocks. */
static inline double level1_sum_in_order(const double *sums, tela_int count)
{
    double sum = sums[0];
    for (tela_int b = 1; b < count; b++)
        sum += sums[b];
    return sum;
}

/* Elements before x's next `bytes` boundary where x and y sit at the same offset from one (the
 * arrays of one allocator: glibc's and NumPy's large blocks start 16 bytes past a page) and at
 * least `least` elements follow, else 0. Off its line, every 64-byte load (every other 32-byte
 * one) is split: on the Xeon (model 207) ddot from L1 and L2 ran 1.7-1.9x slower 16 bytes off,
 * daxpy 1.3-1.6x, and OpenBLAS's kernels alike. */
static inline tela_int level1_head(const double *x, const double *y, tela_int n, uintptr_t bytes,
                                   tela_int least)
{
    const uintptr_t off = (uintptr_t)x % bytes;
    if (off == 0 || off % sizeof(double) != 0 || (uintptr_t)y % bytes != off)
        return 0;
    const tela_int head = (tela_int)((bytes - off) / sizeof(double));
    return n - head >= least ? head : 0;
}

/* The offset of element 0 of an n-vector with increment inc, as reference BLAS starts: element
 * i is at i * inc for inc >= 0, at (n - 1 - i) |inc| for inc < 0. */
static inline tela_int level1_start(tela_int n, tela_int inc)
{
    return inc < 0 ? (1 - n) * inc : 0;
}

#endif /* TELA_LEVEL1_H */
