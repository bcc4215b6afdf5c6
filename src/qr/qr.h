/* qr.h — internal interface of the QR family (src/qr): Householder reflectors, the recursive
 * panel, the compact WY form (T factors and their application through tela's level 3), and the
 * cores of geqrf, orgqr and ormqr that take their workspace from the caller, so the LQ side and
 * gels can carve one scratch block for everything they call. */
#ifndef TELA_QR_H
#define TELA_QR_H

#include "gemm/level3.h"
#include "tela.h"

#include <stdbool.h>
#include <stddef.h>

/* LAPACK's dlarfg: H = I - tau v v^T with H (alpha; x) = (beta; 0), v = (1; x'), x' over x
 * (n - 1 elements, step incx > 0), beta over *alpha. tau = 0 when x is zero (H = I). */
void qr_reflector(tela_int n, double *alpha, double *x, tela_int incx, double *tau);

/* The QR of the m x n panel a (n <= m), recursively (Elmroth-Gustavson, LAPACK's dgeqrt3):
 * reflectors and tau as geqrf stores them, and the n x n upper triangular T of
 * H(1) ... H(n) = I - V T V^T in t (its strictly lower part untouched). want_t false: t is only
 * workspace (n x n) and ends holding no T; the reflectors and tau are the same bits. */
void qr_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau, double *t,
              tela_int ldt, bool want_t);

/* LAPACK's dgeqr2: the reflectors column by column, each applied to the columns right of it
 * (the panel's leaves, and what the routines fall back on without scratch memory). */
void qr_factor_columns(tela_int m, tela_int n, double *a, tela_int lda, double *tau);
/* The unblocked algorithms' step: H = I - tau v v^T, v = (1, v[incv], v[2 incv], ...) of len
 * elements, applied from the left to the len x cols block c, or from the right to the
 * rows x len block c. */
void qr_apply_reflector(tela_int len, tela_int cols, const double *v, tela_int incv, double tau,
                        double *c, tela_int ldc);
void qr_apply_reflector_right(tela_int rows, tela_int len, const double *v, tela_int incv,
                              double tau, double *c, tela_int ldc);

/* T of the k reflectors stored in v (m x k, unit lower trapezoidal) with scalars tau, built
 * from V^T V (LAPACK's dlarft, forward and by columns). */
void qr_build_t(tela_par par, tela_int m, tela_int k, const double *v, tela_int ldv,
                const double *tau, double *t, tela_int ldt);

/* T from V^T V in t's strict upper triangle (dlarft's recurrence: T(j, j) = tau(j),
 * T(0:j, j) = -tau(j) T(0:j, 0:j) V(:, 0:j)^T v(j), a zero column where tau(j) = 0), by halves
 * joined with trmms past 16 columns. t's lower triangle is not referenced. */
void qr_t_recurrence(tela_int k, const double *tau, double *t, tela_int ldt);

/* C = op(I - V T V^T) C (left) or C op(I - V T V^T) (right), op the transpose when trans;
 * V is m x k (left) or n x k (right), unit lower trapezoidal. work holds
 * qr_apply_block_len(left, m, n, k) doubles. */
size_t qr_apply_block_len(bool left, tela_int m, tela_int n, tela_int k);
void qr_apply_block(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
                    const double *v, tela_int ldv, const double *t, tela_int ldt, double *c,
                    tela_int ldc, double *work);

/* The first k columns of I - V T V^T (rows x k, V unit lower trapezoidal, read only below its
 * diagonal) written to q, which must not overlap v; x holds k x k doubles. */
void qr_form_q(tela_par par, tela_int rows, tela_int k, const double *v, tela_int ldv,
               const double *t, tela_int ldt, double *q, tela_int ldq, double *x);

/* A member's share of columns of C = op(I - V T V^T) C by five GEMMs under ctx (its whole_n
 * the whole C's width, so a column's bits do not depend on the share): V's first ib rows
 * explicit in top (unit lower, zero above), the rest at v2; T with its lower part zero; both
 * ib x ib at ldt; w holds 2 ldt cols doubles. */
void qr_apply_left_share(const level3_ctx *ctx, bool trans, tela_int rows, tela_int cols,
                         tela_int ib, const double *top, const double *v2, tela_int ldv,
                         const double *t, tela_int ldt, double *c, tela_int ldc, double *w);
/* What qr_apply_left_share needs of a block: T's lower part zeroed, V's first ib rows copied
 * into top as an explicit unit lower triangle. */
void qr_explicit_block(tela_int ib, const double *v, tela_int ldv, double *t, double *top,
                       tela_int ldt);

/* Members' shares of a matrix's columns are whole multiples of QR_SHARE_COLUMNS (every GEMM
 * kernel's nr divides it): a share's bits do not depend on it, its speed does. qr_share gives
 * part `part` of `parts` of the columns [from, to), cut at such multiples after from. */
#define QR_SHARE_COLUMNS 24
void qr_share(tela_int from, tela_int to, int part, int parts, tela_int *first, tela_int *last);
/* The shares of QR_SHARE_COLUMNS that cols columns make (the last one partial). */
static inline tela_int qr_shares(tela_int cols)
{
    return (cols + QR_SHARE_COLUMNS - 1) / QR_SHARE_COLUMNS;
}

/* Reflectors per block of the blocked algorithms, chosen by the problem alone. */
tela_int qr_block_size(tela_int m, tela_int n);

/* The cores behind tela_dgeqrf, tela_dorgqr and tela_dormqr, arguments checked, with work of
 * the size the _len function gives (doubles). */
size_t qr_factor_len(tela_par par, tela_int m, tela_int n);
void qr_factor(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
               double *work, double *t_keep);
/* The upper triangle of the n x n matrix src into dst: a T factor kept for gels, or taken back. */
void qr_copy_upper(tela_int n, const double *src, tela_int lds, double *dst, tela_int ldd);
/* tela_dgeqrf and tela_dormqr past their checks, their scratch taken and given back, the
 * fallbacks included. t_keep (qr_block_size(m, n) x min(m, n) doubles, or NULL) receives each
 * block's T where the blocked algorithm ran: qr_geqrf says whether it did, and qr_ormqr uses
 * such T (t_kept, for the same m x k reflectors) instead of building them again. gels's. */
bool qr_geqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
              double *t_keep);
/* Q C, Q^T C, C Q or C Q^T one reflector at a time (LAPACK's dorm2r): serial, no scratch, no T. */
void qr_multiply_by_reflectors(bool left, bool trans, tela_int m, tela_int n, tela_int k,
                               const double *a, tela_int lda, const double *tau, double *c,
                               tela_int ldc);
void qr_ormqr(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
              const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
              const double *t_kept);
size_t qr_generate_len(tela_int m, tela_int n, tela_int k);
void qr_generate(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                 const double *tau, double *work);
/* qr_multiply's work in doubles; kept: it will be given t_kept (geqrf's T, by geqrf's blocks). */
size_t qr_multiply_len(tela_par par, bool left, tela_int m, tela_int n, tela_int k, bool kept);
void qr_multiply(tela_par par, bool left, bool trans, tela_int m, tela_int n, tela_int k,
                 const double *a, tela_int lda, const double *tau, double *c, tela_int ldc,
                 double *work, const double *t_kept);

/* Tall and skinny QR (tsqr.c): the leaves (row blocks) an m x n matrix is cut into, by its
 * shape alone (1: TSQR does not apply), its flops, and the factorization itself, with geqrf's
 * output, in work of qr_tsqr_len doubles. */
tela_int qr_tsqr_leaves(tela_int m, tela_int n);
double qr_tsqr_flops(tela_int m, tela_int n);
size_t qr_tsqr_len(tela_par par, tela_int m, tela_int n);
void qr_tsqr(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, double *tau,
             double *work);

/* The LQ side without scratch memory (lq_rows.c): LAPACK's dgelq2, dorgl2 and dorml2, the
 * reflectors along A's rows. */
void qr_lq_factor_rows(tela_int m, tela_int n, double *a, tela_int lda, double *tau);
void qr_lq_generate_rows(tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                         const double *tau);
void qr_lq_multiply_rows(bool left, bool trans, tela_int m, tela_int n, tela_int k, const double *a,
                         tela_int lda, const double *tau, double *c, tela_int ldc);

/* A *= to / from without overflow or underflow on the way (LAPACK's dlascl, type 'G'): in
 * steps of at most 1/DBL_MIN when the quotient itself would leave the range (gels.c). */
void qr_rescale(double from, double to, tela_int m, tela_int n, double *a, tela_int lda);

/* b (n x m) = a^T for a m x n. */
void qr_transpose(tela_int m, tela_int n, const double *a, tela_int lda, double *b, tela_int ldb);

/* The argument checks the QR and LQ sides share, in LAPACK's order: -i for bad argument i,
 * QR_ARGS_DONE for a quick return, QR_ARGS_GO to go on. geqrf and gelqf share theirs (m 1, n 2,
 * a 3, lda 4, tau 5); ormqr and ormlq theirs (side 1, trans 2, m 3, n 4, k 5, a 6, lda 7 against
 * the reflectors' length for ormqr, k for ormlq (lq), tau 8, c 9, ldc 10). */
enum { QR_ARGS_GO = 0, QR_ARGS_DONE = 1 };
int qr_factor_args(tela_int m, tela_int n, const double *a, tela_int lda, const double *tau);
int qr_multiply_args(bool lq, char side, char trans, tela_int m, tela_int n, tela_int k,
                     const double *a, tela_int lda, const double *tau, const double *c,
                     tela_int ldc, bool *left, bool *transpose);

/* LAPACK's SIDE and TRANS ('N' or 'T' only, as dormqr), either case. */
bool qr_side(char c, bool *left);
bool qr_trans(char c, bool *trans);

/* Scratch for a QR routine's call, outside its regions (par's ROUTINE slot; NULL when out of
 * memory or inside a region that cannot allocate). */
double *qr_scratch(tela_par par, size_t doubles, bool *owned);

#endif /* TELA_QR_H */
