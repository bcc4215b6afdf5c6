/* tela_bench_problem.h — the problems tela-bench times: inputs, one call of each side, flop
 * counts, and how closely two results agree. Both sides get the same inputs and write their
 * own outputs, so results are compared element by element before anything is timed. */
#ifndef TELA_BENCH_PROBLEM_H
#define TELA_BENCH_PROBLEM_H

#include "tela.h"
#include "tela_bench_openblas.h"

enum tb_routine { TB_GEMM, TB_TRSM, TB_TRMM, TB_SYRK, TB_ROUTINE_COUNT };
extern const char *const tb_routine_names[TB_ROUTINE_COUNT];

enum tb_side { TB_TELA, TB_OPENBLAS, TB_SIDE_COUNT };
extern const char *const tb_side_names[TB_SIDE_COUNT];  /* CSV: "tela", "openblas" */
extern const char *const tb_side_labels[TB_SIDE_COUNT]; /* tables: "tela", "OpenBLAS" */

/* One square problem (m = n = k):
 *   gemm  C = A op B + C with op from transa, transb (alpha 1, beta 1)
 *   trsm  B = A^{-1} B, A lower triangular, non-unit, side L, no transpose (alpha 1)
 *   trmm  B = A B, same A
 *   syrk  C = A A^T + C, lower triangle of C (alpha 1, beta 1)
 * For trsm and trmm A is built so that A A = I: a batch of calls on one buffer alternates
 * between two matrices instead of growing or shrinking towards overflow or denormals. */
struct tb_problem {
    enum tb_routine routine;
    char transa, transb; /* gemm: 'N' or 'T' */
    int n;
    double flops; /* per call: gemm 2n^3, trsm and trmm n^3 (m^2 n), syrk n^3 (n^2 k) */
    double *a;    /* n x n, lda = n */
    double *b;    /* gemm: the second factor; trsm, trmm: the right-hand side B */
    double *c;    /* gemm, syrk: the C added to; NULL otherwise */
};

/* Builds the inputs from a seed fixed by routine and n. Returns 0, or -1 out of memory. */
int tb_problem_init(struct tb_problem *p, enum tb_routine routine, char transa, char transb, int n);
void tb_problem_free(struct tb_problem *p);

/* Elements of the buffer a call updates in place (n * n), and its starting contents. */
size_t tb_problem_output_size(const struct tb_problem *p);
const double *tb_problem_output_start(const struct tb_problem *p);

/* One call, updating out (C for gemm and syrk, B for trsm and trmm) in place. */
int tb_call_tela(const struct tb_problem *p, tela_par par, double *out);
void tb_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob, double *out);

/* How far apart two results of one call from the starting output are, in units of the
 * rounding error to expect: max |x - y| / (k eps s) over the elements the routine writes,
 * with k the inner dimension (n) and s = max|A| max|B| (gemm, trmm), max|A|^2 (syrk),
 * max|A| max|X| (trsm, X the solution). NaN anywhere gives NaN. */
double tb_problem_difference(const struct tb_problem *p, const double *x, const double *y);

#endif
