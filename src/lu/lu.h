/* lu.h — internal interface of the LU family (src/lu): the row interchanges
 * shared by getrf and getrs, the unblocked panel, LAPACK's flag parsing and
 * the solves' dimension checks (which src/chol's solves use too: chol
 * depends on lu, never lu on chol). */
#ifndef TELA_LU_H
#define TELA_LU_H

#include "tela.h"

#include <stdbool.h>
#include <stddef.h>

/* The interchanges of rows i <-> ipiv[i] - 1 for i in [from, to) (ipiv
 * holds 1-based row numbers of A), in that order, on columns [0, n) of A;
 * split among members through the gate when that pays. */
void lu_swap_rows(tela_par par, tela_int n, double *a, tela_int lda, tela_int from, tela_int to,
                  const tela_int *ipiv);

/* dgetf2: the m x n panel by columns (n small), pivots 1-based relative to
 * the panel in ipiv[0 .. min(m, n)). Returns the first zero pivot's column
 * (1-based) or 0. */
tela_int lu_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, tela_int *ipiv);
/* The serial time lu_panel's gate is told for an m x n panel. */
double lu_panel_estimate_ns(tela_int m, tela_int n);

/* getrf's two algorithms, chosen by size alone (so every width computes
 * the same bits): below LU_BLOCKED_MIN = min(m, n) the recursion of
 * LAPACK's dgetrf2, its GEMMs parallel; from there panels in one region
 * with look-ahead (blocked.c), the recursion factoring each panel. Both
 * return info as dgetrf does; pivots are 1-based and relative to a.
 * From 160 two members pay in the blocked region, which one thread alone
 * runs about as fast as the recursion; below, neither holds (docs/lu-chol.md,
 * "Where the blocked region starts"). */
#define LU_BLOCKED_MIN 160
tela_int lu_factor_recursive(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                             tela_int *ipiv);
tela_int lu_factor_blocked(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                           tela_int *ipiv);
/* Panel k's update of columns [from, to) of a (m rows), the panel being
 * columns [k0, k0 + b) with its pivots in ipiv[k0 .. k0 + b): interchanges,
 * U12 = L11^-1 A12, A22 -= L21 U12 (update.c). Each column is computed the
 * same way however the columns are split, with or without buf (the
 * member's buffer, lu_update_buffer_len doubles for up to n columns and
 * panels of up to nb; NULL or short: a slower way on the stack). */
struct gemm_kernel;
size_t lu_update_buffer_len(const struct gemm_kernel *kr, tela_int n, tela_int nb);
void lu_update_columns(const struct gemm_kernel *kr, double *a, tela_int lda, tela_int m,
                       tela_int k0, tela_int b, tela_int from, tela_int to, const tela_int *ipiv,
                       double *buf, size_t buf_len);
/* The same update, prepared once for any number of column ranges (what
 * the one-member schedule of blocked.c uses): L11 copied for the solve,
 * the coupling packed and, whole_l21, all of L21 packed as the GEMM's A,
 * in space (lu_step_len doubles for l21_rows = m - k0 - b; NULL: L11 read
 * in place, nothing packed ahead). */
typedef struct lu_step {
    const struct gemm_kernel *kernel;
    double *a;
    tela_int lda, m, k0, b;
    const tela_int *ipiv;
    const double *l; /* L11 (unit, strictly lower part): L(i, p) at l[i + p * l_col] */
    tela_int l_col;
    const double *coupling; /* -L11's rows [h, b) x columns [0, h) packed, or NULL */
    int h;                  /* the triangle's split for the solve (0: none) */
    const double *l21;      /* L21 packed whole (alpha -1), or NULL */
} lu_step;
size_t lu_step_len(const struct gemm_kernel *kr, tela_int l21_rows, tela_int nb);
void lu_step_prepare(lu_step *step, const struct gemm_kernel *kr, double *a, tela_int lda,
                     tela_int m, tela_int k0, tela_int b, const tela_int *ipiv, double *space,
                     bool whole_l21);
/* Columns [from, to) as one block: interchanges, U12, the GEMM from the
 * whole packed L21 (step prepared with it); b_buf holds the block's packed
 * B (gemm_b_buffer_len for to - from columns). */
void lu_step_update(const lu_step *step, tela_int from, tela_int to, double *b_buf);
/* Flops of the LU of an m x n matrix (2/3 n^3 when square). */
double lu_flops(tela_int m, tela_int n);

/* LAPACK's TRANS: 'N', 'T' or 'C', either case. */
bool lu_trans(char c, bool *trans);

/* The checks of the dimensions LAPACK's solves with an n x n factor share
 * (getrs, gesv; potrs and posv include this header for it), in their
 * order: N, NRHS, then LDA and LDB against max(1, N). Each solve numbers
 * its arguments its own way: N is n_arg, NRHS n_arg + 1, LDA lda_arg and
 * LDB ldb_arg. Returns 0 or the first failure's -number. */
int lu_solve_dims(tela_int n, tela_int nrhs, tela_int lda, tela_int ldb, int n_arg, int lda_arg,
                  int ldb_arg);

#endif /* TELA_LU_H */
