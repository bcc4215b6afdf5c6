/* level2.h — internal entry points of src/level2, the dense level-2 BLAS (gemv, ger, symv, syr,
 * syr2, trmv, trsv): the kernel set of the chosen ISA, the rectangular products the routines are
 * built from, vector helpers, and the block sizes that fix every element's order of summation.
 *
 * All of it is memory-bound: each routine reads A once, streaming down its columns. Members of a
 * region split rows or columns; an element's arithmetic never depends on which member computes
 * it or where a member's share starts (vector tails are masked, not done another way), so the
 * results are the same bits at every width. */
#ifndef TELA_LEVEL2_H
#define TELA_LEVEL2_H

#include "tela.h"
#include "par/engine.h"

#include <stdbool.h>
#include <stddef.h>

/* Rows of a vector operand gathered at a time when it is strided (on the stack, 8 KiB), and of
 * y that gemv's 'N' kernel keeps in L1 while it streams every column's segment past it. */
#define LEVEL2_CHUNK 1024
/* Columns whose dot products one pass of level2_gemv_t holds at once (on the stack). */
#define LEVEL2_DOTS 64
/* Doubles of a column's vector accumulator in gemv_t's acc (the widest ISA's lanes). */
#define LEVEL2_ACC 8
/* Order of the diagonal blocks of trmv and trsv: their rows or columns are what members share,
 * and the order every element is summed in follows them, so it is fixed. */
#define LEVEL2_TRI_BLOCK 128

/* ---- kernels (kernel_body.h, compiled per ISA by kernels_*.c) ---- */

typedef struct level2_kernels {
    const char *name; /* par_isa_name of the ISA it is built for */
    /* y[0:m) += sum over j < n of (alpha x_j) a[:, j], x_j at x[j * incx] (incx may be
     * negative, x then being element 0's address). Columns in groups of 8, then 4, then one at a
     * time from the first: a row's order of summation depends on n alone, not on m, nor on
     * where the rows start (the rows before A's first aligned vector go as a partial one). */
    void (*gemv_n)(tela_int m, tela_int n, double alpha, const double *a, tela_int lda,
                   const double *x, tela_int incx, double *y);
    /* For j < n, a dot product of column j with x over rows i < m, kept in a vector
     * accumulator, row i in the lane of its address when lda is a multiple of the lanes (so
     * A's loads are aligned), else in lane i mod lanes: started from acc_in[j * LEVEL2_ACC ..]
     * (NULL: zero), then stored to acc_out likewise, or (acc_out NULL) its lanes summed into
     * dots[j]. One accumulator per column, the same whether a column is in a group of 8 or
     * alone, and carried across calls: a dot over rows taken in pieces (each but the last a
     * multiple of 8 rows) is the dot taken at once, bit for bit. acc_in may be acc_out. */
    void (*gemv_t)(tela_int m, tela_int n, const double *a, tela_int lda, const double *x,
                   const double *acc_in, double *acc_out, double *dots);
    /* The stored upper triangle's columns c0 <= j < c1 of a symmetric A, in one pass:
     * p[i] += alpha a(i, j) x_j for i < j, p[j] += alpha (a(j, j) x_j + sum over i < j of
     * a(i, j) x_i). p holds rows 0 .. c1 - 1. stream: A's columns are prefetched ahead (one
     * stream per column besides x and p), for an A the caller expects from memory
     * (level2_symv_streams). */
    void (*symv_upper)(tela_int c0, tela_int c1, double alpha, const double *a, tela_int lda,
                       const double *x, double *p, bool stream);
    /* The lower triangle's columns c0 <= j < c1 of the n x n A likewise (rows j .. n - 1 of
     * each); p holds rows c0 .. n - 1, row i at p[i - c0]. */
    void (*symv_lower)(tela_int n, tela_int c0, tela_int c1, double alpha, const double *a,
                       tela_int lda, const double *x, double *p, bool stream);
    /* a[0:m) += x[0:m) t, fused. */
    void (*axpy)(tela_int m, double t, const double *x, double *a);
    /* a[0:m) += x[0:m) t + y[0:m) u, each term fused in that order. */
    void (*axpy2)(tela_int m, double t, const double *x, double u, const double *y, double *a);
} level2_kernels;

extern const level2_kernels level2_kernels_generic;
extern const level2_kernels level2_kernels_avx2;
extern const level2_kernels level2_kernels_avx512;

/* The set of par_isa_chosen() (select.c). */
const level2_kernels *level2_kernels_get(void);
/* Whether symv's kernels prefetch the columns of a triangle reaching `order` rows (select.c). */
bool level2_symv_streams(tela_int order);

/* ---- flags, as reference LSAME reads them (first character, either case) ---- */

static inline bool level2_uplo(char c, bool *upper)
{
    *upper = c == 'U' || c == 'u';
    return *upper || c == 'L' || c == 'l';
}

/* 'N' is false; 'T' and 'C' (A is real) true. */
static inline bool level2_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't' || c == 'C' || c == 'c';
    return *trans || c == 'N' || c == 'n';
}

static inline bool level2_diag(char c, bool *unit)
{
    *unit = c == 'U' || c == 'u';
    return *unit || c == 'N' || c == 'n';
}

/* The checks tela_dtrmv and tela_dtrsv share, in BLAS's order (uplo 1, trans 2, diag 3, n 4,
 * lda 6, incx 8; then a NULL a 5 or x 7 that n > 0 would use): the first failure's -i, else 0
 * with the flags parsed. */
static inline int level2_triangle_args(char uplo, char trans, char diag, tela_int n,
                                       const double *a, tela_int lda, const double *x,
                                       tela_int incx, bool *upper, bool *t, bool *unit)
{
    if (!level2_uplo(uplo, upper))
        return -1;
    if (!level2_trans(trans, t))
        return -2;
    if (!level2_diag(diag, unit))
        return -3;
    if (n < 0)
        return -4;
    if (lda < (n > 1 ? n : 1))
        return -6;
    if (incx == 0)
        return -8;
    if (n > 0 && !a)
        return -5;
    if (n > 0 && !x)
        return -7;
    return 0;
}

/* ---- vectors (vectors.c) ----
 * A vector of n elements with increment inc is passed as the address of its element 0 and inc:
 * element i at p[i * inc], as BLAS addresses it (for inc < 0, element 0 is the last in memory). */

/* Offset of element 0 from the array's start. */
static inline tela_int level2_origin(tela_int n, tela_int inc)
{
    return inc < 0 ? (n - 1) * -inc : 0;
}

void level2_gather(tela_int n, const double *x, tela_int inc, double *out);
void level2_scatter(tela_int n, const double *in, double *x, tela_int inc);
/* y = beta y as reference starts: beta = 0 writes zeros (NaN in y gone), beta = 1 nothing. */
void level2_scale(tela_int n, double beta, double *y, tela_int inc);

/* The column c where the first share of fraction f (0..1) of the uplo triangle of an n x n
 * matrix ends, columns taken from the first: members split its columns by elements, not by
 * columns. */
tela_int level2_triangle_cut(tela_int n, bool upper, double f);

/* Rows [*from, *to) of column j in the uplo triangle of an n x n matrix, diagonal included. */
static inline void level2_column_rows(bool upper, tela_int n, tela_int j, tela_int *from,
                                      tela_int *to)
{
    *from = upper ? 0 : j;
    *to = upper ? j + 1 : n;
}

/* ---- regions (run.c) ---- */

/* Runs body as a region of at most max_width members under par, gated on a memory-bound
 * estimate of elements moved over sections; on the caller alone (still as a region of width 1,
 * so barriers work) when no width could pay, or when par is bad (reported by par). */
void level2_run(tela_par par, const char *name, double elements, int sections, tela_int max_width,
                tela_body body, void *arg);

/* ---- rectangular products (rect.c): what gemv is, and the off-diagonal parts of trmv and trsv.
 * Strided vectors are gathered LEVEL2_CHUNK rows at a time on the stack: no scratch needed. */

/* y = beta y + alpha A x for the m x n A: y's rows are independent, so any member may take any of
 * them with the same bits. Column j is left out where skip[j] is set (skip NULL: none) or, with
 * skip_zero, where x_j == 0 (reference trmv's and trsv's rule); then a column block's grouping
 * starts again after it. */
void level2_gemv_n(const level2_kernels *kr, tela_int m, tela_int n, double alpha, const double *a,
                   tela_int lda, const double *x, tela_int incx, const unsigned char *skip,
                   bool skip_zero, double beta, double *y, tela_int incy);
/* dots[j] = sum over i < m of a(i, j) x_i for the n columns: the kernel's dot, the same bits
 * whether x is strided or not. */
void level2_gemv_t(const level2_kernels *kr, tela_int m, tela_int n, const double *a, tela_int lda,
                   const double *x, tela_int incx, double *dots);

#endif /* TELA_LEVEL2_H */
