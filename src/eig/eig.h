/* eig.h — internal interface of the symmetric eigen family (src/eig): the reduction to
 * tridiagonal form and its back-transformation, the tridiagonal solvers (QL/QR, divide and
 * conquer, bisection and inverse iteration) with their workspace from the caller, and the
 * drivers' shared checks. Each section is owned by the files its heading names. */
#ifndef TELA_EIG_H
#define TELA_EIG_H

#include "tela.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- shared (support.c) --------------------------------------------------------------------- */

/* Scratch for an eigen routine's call, outside its regions (par's ROUTINE slot; NULL when out
 * of memory or inside a region that cannot allocate). Give it back with par_scratch_release. */
double *eig_scratch(tela_par par, size_t doubles, bool *owned);

/* A driver's data held through the routines it calls (syevd's vectors, tau and e), which take
 * eig_scratch memory of their own: par's DRIVER slot. */
double *eig_driver_scratch(tela_par par, size_t doubles, bool *owned);
/* Doubles that hold count tela_ints (integer arrays are carved from the one scratch block). */
static inline size_t eig_ints(size_t count)
{
    return (count * sizeof(tela_int) + sizeof(double) - 1) / sizeof(double);
}
/* Reports that a driver found no workspace through tela's error handler; returns
 * TELA_EIG_NO_MEMORY, what the driver returns (its outputs untouched). */
int eig_no_memory(const char *where);

/* Argument checks the routines share, in LAPACK's order: -i for bad argument i, else one of
 * these. EIG_ARGS_DONE: a quick return, answered (n = 0, or n = 1 written out). */
enum { EIG_ARGS_GO = 0, EIG_ARGS_DONE = 1, EIG_ARGS_VALUES = 2 };
/* dsteqr's and dstedc's (compz 1, n 2, d 3, e 4, z 5, ldz 6); EIG_ARGS_VALUES for compz 'N'. */
int eig_tridiagonal_args(char compz, tela_int n, double *d, double *e, double *z, tela_int ldz,
                         bool *identity);
/* dsyevd's and dsyev's (jobz 1, uplo 2, n 3, a 4, lda 5, w 6). */
int eig_driver_args(char jobz, char uplo, tela_int n, double *a, tela_int lda, double *w,
                    bool *vectors, bool *lower);

/* LAPACK's UPLO, JOBZ ('N'/'V') and COMPZ ('N'/'I'/'V') flags, either case. */
bool eig_uplo(char c, bool *lower);
bool eig_jobz(char c, bool *vectors);

/* The largest |a(i, j)| of the uplo triangle (LAPACK's dlansy 'M'); NaN if one is NaN. */
double eig_max_abs(bool lower, tela_int n, const double *a, tela_int lda);
/* LAPACK's drivers' scaling (dsyevd, dsyev; dsyevr bounds it its own way): the triangle is
 * multiplied by sigma so its largest entry lies in [sqrt(safmin / eps), sqrt(eps / safmin)];
 * returns sigma (1: untouched). The drivers divide the eigenvalues by it at the end. */
double eig_scale_triangle(bool lower, tela_int n, double *a, tela_int lda);

/* ---- reduction to tridiagonal form and back (sytrd.c, ormtr.c) ------------------------------ */

/* tela_dsytrd past its checks. */
void eig_sytrd(tela_par par, bool lower, tela_int n, double *a, tela_int lda, double *d, double *e,
               double *tau);
/* x[0 .. n) in reverse order (the upper forms are the lower ones of the reversed matrix). */
void eig_reverse_vector(tela_int n, double *x);
/* The tridiagonal (d, e) of A for a driver that wants values alone, by one or two stages as
 * the order decides (reduce.c); A's uplo triangle destroyed. work holds eig_reduce_values_len
 * doubles and must not be par's ROUTINE scratch (eig_driver_scratch's). */
size_t eig_reduce_values_len(bool lower, tela_int n);
void eig_reduce_values(tela_par par, bool lower, tela_int n, double *a, tela_int lda, double *d,
                       double *e, double *work);
/* tela_dormtr past its checks; false when the upper form found no workspace. */
bool eig_ormtr(tela_par par, bool left, bool lower, bool trans, tela_int m, tela_int n,
               const double *a, tela_int lda, const double *tau, double *c, tela_int ldc);

/* ---- QL/QR iterations (steqr.c, sterf.c) ---------------------------------------------------- */

/* The QL/QR iterations' splitting (rotations.c): the next unreduced block of (d, e) from
 * *start, as dsterf and dsteqr find it (the off-diagonals around it zeroed, *start moved past
 * it). False for a block with nothing to iterate (order 1, zero, or Inf/NaN, whose e's then stay
 * nonzero and count as not converged); else the block, scaled into the safe range as those
 * routines scale it, which eig_unscale_block undoes (e too unless NULL). */
typedef struct eig_block {
    tela_int first, last; /* rows first .. last */
    double norm, to;      /* its max norm, and what it was scaled to (0: not scaled) */
} eig_block;
bool eig_next_block(tela_int n, double *d, double *e, tela_int *start, eig_block *block);
void eig_unscale_block(const eig_block *block, double *d, double *e);

/* LAPACK's dsterf: ascending values in d, e destroyed; the count of e's not converged (a block
 * holding a NaN or Inf is not iterated, its e's count; d is then left unsorted). */
tela_int eig_sterf(tela_int n, double *d, double *e);
/* LAPACK's dsteqr with vectors: z (n x n) is multiplied by the rotations (set to I first when
 * identity); values ascending in d, z's columns with them. work holds 2 max(n - 1, 1)
 * doubles. The count of e's not converged. */
tela_int eig_steqr(bool identity, tela_int n, double *d, double *e, double *z, tela_int ldz,
                   double *work);
/* eig_steqr under par, outside any region: Z's rows shared among members (bitwise the same at
 * every width), workspace its own. TELA_EIG_NO_MEMORY (unreported) without workspace. */
tela_int eig_steqr_par(tela_par par, bool identity, tela_int n, double *d, double *e, double *z,
                       tela_int ldz);
/* d[0 .. n) ascending (a NaN sorts last, -0 before +0), in place without allocation. */
void eig_sort_values(tela_int n, double *d);

/* The kernels both share (rotations.c), rounding as LAPACK's namesakes: sqrt(x^2 + y^2) with
 * a NaN kept (dlapy2); the eigenvalues rt1 (larger in magnitude), rt2 of [a b; b c] (dlae2),
 * and with them the rotation (cs, sn) whose first column is rt1's vector (dlaev2); the
 * rotation with [c s; -s c] [f; g] = [r; 0] (dlartg). */
double eig_hypot(double x, double y);
void eig_lae2(double a, double b, double c, double *rt1, double *rt2);
void eig_laev2(double a, double b, double c, double *rt1, double *rt2, double *cs, double *sn);
void eig_lartg(double f, double g, double *c, double *s, double *r);
/* Columns j, j + 1 of z (rows x cols) times [c[j] -s[j]; s[j] c[j]] from the right for
 * j = 0 .. cols - 2 (forward) or backwards (LAPACK's dlasr 'R', 'V'). */
void eig_rotate_columns(bool forward, tela_int rows, tela_int cols, const double *c,
                        const double *s, double *z, tela_int ldz);

/* ---- divide and conquer (dc_*.c) ------------------------------------------------------------ */

/* The eigenvectors of the tridiagonal (d, e) into q (n x n, as dstedc with compz 'I'), values
 * ascending in d, e destroyed; work and iwork of the sizes the _len functions give (n^2 + 4 n
 * doubles and 6 n integers past the leaf order). 0, or LAPACK's info; a NaN or infinity in d
 * or e gives NaN in all of d and q and info = (n + 1) + n (the whole matrix failed). Bitwise
 * the same at every width of par. */
size_t eig_stedc_len(tela_int n);
size_t eig_stedc_ilen(tela_int n);
tela_int eig_stedc(tela_par par, tela_int n, double *d, double *e, double *q, tela_int ldq,
                   double *work, tela_int *iwork);

/* Subproblems of at most this order are solved by QL/QR (LAPACK's SMLSIZ). */
#define EIG_DC_LEAF 25

/* One merge (dc_merge.c, LAPACK's dlaed1): d holds the values of the halves [0, n1) and
 * [n1, n), each ascending in the order indxq gives (local to its half), q (n x n) their
 * vectors block-diagonally; rho the tear's off-diagonal. Out: the whole's values in d, vectors
 * in q, indxq their ascending order. work and iwork of the _len sizes. 0, or 1 when a secular
 * root did not converge. */
size_t eig_dc_merge_len(tela_int n);
size_t eig_dc_merge_ilen(tela_int n);
tela_int eig_dc_merge(tela_par par, tela_int n, tela_int n1, double *d, double *q, tela_int ldq,
                      tela_int *indxq, double rho, double *work, tela_int *iwork);

/* The root of index i (0-based; the last lies above d[n-1]) of 1/rho + sum z_j^2/(d_j - x)
 * with d ascending, rho > 0 (LAPACK's dlaed4): *lambda, and delta_j = d_j - lambda (for
 * n <= 2 the normalized vector instead). 0, or 1 if not converged. */
int eig_dc_secular_root(tela_int n, tela_int i, const double *d, const double *z, double *delta,
                        double rho, double *lambda);

/* The halves' vectors after deflation, packed by kind (dc_merge.c): the top parts (n1 rows)
 * of the TOP and BOTH columns, then the bottom parts (n - n1 rows) of BOTH and BOTTOM;
 * room doubles from q2 on; rows[i] the row of U (in dlambda's order) that packed column i
 * multiplies. */
typedef struct eig_dc_packed {
    tela_int n1, top, both, bottom;
    double *q2;
    size_t room;
    const tela_int *rows;
} eig_dc_packed;

/* The k roots into d[0 .. k), and q's first k columns (n rows) = the packed vectors times the
 * eigenvectors of diag(dlambda) + rho w w^T (dc_vectors.c, LAPACK's dlaed3). w is destroyed.
 * 0, or 1 when a root did not converge. */
tela_int eig_dc_vectors(tela_par par, tela_int k, tela_int n, double *d, double *q, tela_int ldq,
                        double rho, const double *dlambda, double *w, const eig_dc_packed *packed);

/* ---- bisection and inverse iteration (bisect.c, invit.c) ------------------------------------ */

/* LAPACK's RANGE: 'A' every eigenvalue, 'V' those in (vl, vu], 'I' the il-th to iu-th. */
typedef enum eig_range { EIG_RANGE_ALL, EIG_RANGE_VALUES, EIG_RANGE_INDICES } eig_range;
bool eig_range_flag(char c, eig_range *range);

/* The eigenvalues of the tridiagonal (d, e) in range by bisection (LAPACK's dstebz with order
 * 'B'; il, iu 1-based, checked by the caller), groups of a block's values side by side on
 * par's members (the bits the same at every width): *m values in w, block by block and ascending
 * within a block, block[j] the 0-based block of w[j]; the *nsplit blocks end before rows
 * split[0] < split[1] < ... = n. Each value to max(abstol, 2 ulp |w|), abstol <= 0 meaning
 * ulp ||T_b||_1 of its block. d and e are read only; work and iwork hold the _len counts.
 * 0, or dstebz's info: 1 a value did not converge, 2 range 'I' found fewer than asked (ties
 * the tolerance could not split), 4 the Gershgorin bounds failed. */
size_t eig_stebz_len(tela_int n);
size_t eig_stebz_ilen(tela_int n);
tela_int eig_stebz(tela_par par, eig_range range, tela_int n, double vl, double vu, tela_int il,
                   tela_int iu, double abstol, const double *d, const double *e, tela_int *m,
                   tela_int *nsplit, double *w, tela_int *block, tela_int *split, double *work,
                   tela_int *iwork);
/* order[k] = the index of w's k-th smallest value (stable: ties keep their order); tmp holds
 * m. */
void eig_sort_order(tela_int m, const double *w, tela_int *order, tela_int *tmp);

/* The eigenvectors of the tridiagonal (d, e) for eig_stebz's m values (w, block, split) by
 * inverse iteration (LAPACK's dstein): vector j, unit 2-norm with its largest entry positive
 * and zero outside its block, into z's column column[j] (a permutation of 0 .. m - 1), ldz
 * >= n. Clusters run side by side on par's members, the bits the same at every width. work
 * and iwork hold the _len counts. Returns how many vectors did not converge in 5 solves, their
 * indices j in ifail (if not NULL, m entries). */
size_t eig_stein_len(tela_par par, tela_int n, tela_int m);
size_t eig_stein_ilen(tela_par par, tela_int n, tela_int m);
tela_int eig_stein(tela_par par, tela_int n, const double *d, const double *e, tela_int m,
                   const double *w, const tela_int *block, const tela_int *split,
                   const tela_int *column, double *z, tela_int ldz, double *work, tela_int *iwork,
                   tela_int *ifail);

/* ---- two-stage reduction (band.c, bulge.c) ------------------------------------------------- */

/* Values only, lower triangle: Q^T A Q = T through a band of width eig_band_width(n), T's
 * diagonal in d[0 .. n) and off-diagonal in e[0 .. n-1), orthogonally similar to A (its lower
 * triangle read and destroyed; Q not kept). Stage 1 is level 3 under par (the same bits at
 * every width), stage 2 serial. work holds eig_twostage_len(n, eig_band_width(n)) doubles and
 * must not be par's ROUTINE scratch (tela_dsymm takes that): eig_driver_scratch's, or the
 * caller's own. Any n >= 0; n <= b + 1 has no stage 1 and stage 2 is dsytd2's work. */
tela_int eig_band_width(tela_int n);
size_t eig_twostage_len(tela_int n, tela_int b);
void eig_sytrd_twostage(tela_par par, tela_int n, double *a, tela_int lda, double *d, double *e,
                        double *work);

/* The stages, for any 1 <= b <= EIG_BAND_MAX. Stage 1: A's lower triangle to a band of width
 * b, stored compact (A(j + r, j) at band[r + j ldb], ldb >= 2 b, the rows past b zeroed), A
 * destroyed; work holds 2 n b + b^2 + b doubles (eig_twostage_len(n, b) is those and a band at
 * ldb = 2 b). Stage 2: that band, chased down to the tridiagonal (d, e) in place. */
#define EIG_BAND_MAX 128
void eig_sy2sb(tela_par par, tela_int n, tela_int b, double *a, tela_int lda, double *band,
               tela_int ldb, double *work);
void eig_sb2st(tela_int n, tela_int b, double *band, tela_int ldb, double *d, double *e);

#endif /* TELA_EIG_H */
