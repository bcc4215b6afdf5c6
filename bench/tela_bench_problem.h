/* tela_bench_problem.h — the problems tela-bench times: inputs, one call of each side, flop
 * and byte counts, and the check of both sides' results. Both sides get the same inputs and write
 * their own buffers (a tb_state each), so results are checked before anything is timed. */
#ifndef TELA_BENCH_PROBLEM_H
#define TELA_BENCH_PROBLEM_H

#include "tela.h"
#include "tela_bench_openblas.h"

enum tb_routine {
    TB_GEMM,
    TB_TRSM,
    TB_TRMM,
    TB_SYRK,
    TB_SYMM,
    TB_SYR2K,
    TB_GETRF,
    TB_GETRS,
    TB_POTRF,
    TB_POTRS,
    TB_GESV,
    TB_POSV,
    TB_GEQRF, /* the QR family (tela_bench_qr.c): geqrf on n x n, 4n x n, 16n x n, ... */
    TB_GEQRF4,
    TB_GEQRF16,
    TB_TSQR, /* ... and on tsqr_rows x n (tall and skinny) */
    TB_GELQF,
    TB_ORGQR,
    TB_ORMQR,
    TB_QR, /* NumPy's qr: geqrf, R copied out, orgqr */
    TB_GELS,
    TB_GELS4,  /* gels on 4n x n */
    TB_SYEVD,  /* the symmetric eigen family (tela_bench_eig.c): dsyevd jobz V, uplo L ... */
    TB_SYEVDN, /* ... dsyevd values only */
    TB_SYEVR,  /* dsyevr range A, jobz V */
    TB_SYEVRI, /* dsyevr range I, the lowest tenth of the spectrum, jobz V */
    TB_SYEV,   /* dsyev jobz V */
    TB_SYGVD,  /* dsygvd itype 1, jobz V */
    TB_DOT,    /* the memory-bound routines from here on: level 1 ... */
    TB_AXPY,
    TB_NRM2,
    TB_GEMV, /* ... and level 2 */
    TB_SYMV,
    TB_GER,
    TB_TRSV,
    TB_ROUTINE_COUNT
};
extern const char *const tb_routine_names[TB_ROUTINE_COUNT];

/* 1 for the LAPACK routines (getrf ... posv, the QR and eigen families): every call starts
 * from the same inputs, restored before it outside the timed part. The level-3 routines chain
 * their calls on one buffer. */
int tb_routine_is_lapack(enum tb_routine routine);
/* 1 for the QR family (geqrf ... gels4): A is m x n, m from tb_routine_rows. */
static inline int tb_routine_is_qr(enum tb_routine routine)
{
    return routine >= TB_GEQRF && routine <= TB_GELS4;
}
/* 1 for the symmetric eigen family (syevd ... sygvd): A n x n symmetric in its lower triangle. */
static inline int tb_routine_is_eig(enum tb_routine routine)
{
    return routine >= TB_SYEVD && routine <= TB_SYGVD;
}
/* The rows m of a QR routine's A at n columns: n, 4n (geqrf4, gels4), 16n (geqrf16), or
 * tsqr_rows (tsqr); n for every other routine. */
int tb_routine_rows(enum tb_routine routine, int n, int tsqr_rows);
/* 1 for the solves (getrs, potrs, gesv, posv, gels, gels4): they have nrhs right-hand sides. */
int tb_routine_has_rhs(enum tb_routine routine);
static inline int tb_routine_is_gels(enum tb_routine routine)
{
    return routine == TB_GELS || routine == TB_GELS4;
}
/* 1 for the memory-bound routines (dot ... trsv): their figure is GB/s, of the bytes a call
 * must move at least, rather than GFLOP/s. Their calls chain on one buffer, as level 3's. */
int tb_routine_is_memory_bound(enum tb_routine routine);
/* 1 for the level-1 routines (dot, axpy, nrm2): n is a vector's length, not a matrix order. */
static inline int tb_routine_is_vector(enum tb_routine routine)
{
    return routine == TB_DOT || routine == TB_AXPY || routine == TB_NRM2;
}

enum tb_side { TB_TELA, TB_OPENBLAS, TB_SIDE_COUNT };
extern const char *const tb_side_names[TB_SIDE_COUNT];  /* CSV: "tela", "openblas" */
extern const char *const tb_side_labels[TB_SIDE_COUNT]; /* tables: "tela", "OpenBLAS" */

/* One square problem (m = n = k):
 *   gemm  C = A op B + C with op from transa, transb (alpha 1, beta 1)
 *   trsm  B = A^{-1} B, A lower triangular, non-unit, side L, no transpose (alpha 1)
 *   trmm  B = A B, same A
 *   syrk  C = A A^T + C, lower triangle of C (alpha 1, beta 1)
 *   symm  C = A B + C, side L, A symmetric in its lower triangle (alpha 1, beta 1)
 *   syr2k C = A B^T + B A^T + C, lower triangle of C, trans N (alpha 1, beta 1)
 * For trsm and trmm A is built so that A A = I: a batch of calls on one buffer alternates
 * between two matrices instead of growing or shrinking towards overflow or denormals.
 *   getrf A = P L U, A n x n uniform in [-1, 1)
 *   getrs A X = B (trans N) with reference factors of that A (OpenBLAS's dgetrf, computed once)
 *   gesv  getrf then getrs
 *   potrf A = L L^T (uplo L), A symmetric positive definite in its lower triangle (uniform
 *         entries, n + |u| on the diagonal), the upper triangle random and not symmetric
 *   potrs A X = B with reference factors of that A (OpenBLAS's dpotrf, computed once)
 *   posv  potrf then potrs
 * B of the solves is n x nrhs, uniform in [-1, 1).
 * The QR family (tela_bench_qr.c), A m x n (lda = m) uniform in [-1, 1), 2 sqrt(n) added to the
 * diagonal of a square one:
 *   geqrf, geqrf4, geqrf16, tsqr  A = Q R, m = n, 4n, 16n, tsqr_rows
 *   gelqf A = L Q (square)
 *   orgqr Q (m x n, k = n) from reference reflectors of A (OpenBLAS's dgeqrf, computed once)
 *   ormqr C = Q^T C (side L), C n x n uniform, the same reference reflectors (square)
 *   qr    NumPy's path: geqrf, R copied out, orgqr (square)
 *   gels  min ||B - A X|| (trans N), B m x nrhs uniform; m = n (gels), 4n (gels4)
 * The eigen family (tela_bench_eig.c), A n x n symmetric in its lower triangle (uniform in
 * [-1, 1); the upper triangle holds other values), uplo L:
 *   syevd  values and vectors (jobz V)      syevdn  values only (jobz N)
 *   syevr  range A, jobz V                  syevri  range I, il = 1, iu = n/10 (at least 1)
 *   syev   jobz V
 *   sygvd  A x = lambda B x (itype 1, jobz V), B symmetric positive definite as potrf's
 * The memory-bound routines (tela_bench_vector.c), x and y of length n, A n x n:
 *   dot   x^T y            axpy  y = alpha x + y, alpha +1 and -1 in turn
 *   nrm2  ||x||_2          gemv  y = op(A) x + y, op from transa (alpha 1, beta 1)
 *   symv  y = A x + y, A symmetric in its lower triangle (alpha 1, beta 1)
 *   ger   A = alpha x y^T + A, alpha +1 and -1 in turn
 *   trsv  x = A^{-1} x, A lower triangular, non-unit, no transpose, built so that A A = I
 * so that chained calls on one buffer stay near their start. */
struct tb_problem {
    enum tb_routine routine;
    char transa, transb; /* gemm: 'N' or 'T'; gemv: transa */
    char uplo;           /* potrf, potrs, posv: the triangle 'L' or 'U' they are told; 'L' else */
    int m;               /* QR family: rows of A (tb_routine_rows); n otherwise */
    int n;
    int nrhs;         /* solves: columns of B; ormqr: columns of C (n); 0 otherwise */
    double flops;     /* per call: gemm, symm and syr2k 2n^3, trsm and trmm n^3 (m^2 n), syrk
                         n^3 (n^2 k), getrf 2/3 n^3, potrf 1/3 n^3, getrs and potrs 2 n^2 nrhs,
                         gesv and posv the factorization's plus the solve's; dot, axpy, nrm2
                         2n, gemv, symv, ger 2n^2, trsv n^2; the QR family as LAPACK counts
                         it (tela_bench_qr.c) */
    double bytes;     /* memory-bound routines: the bytes a call must read and write at least,
                         8 per element read and 8 per element written (dot 16n, axpy 24n,
                         nrm2 8n, gemv 8(n^2 + 3n), symv 8(n(n+1)/2 + 3n), ger 8(2n^2 + 2n),
                         trsv 8(n(n+1)/2 + 2n)); 0 otherwise */
    double *a;        /* n x n, lda = n: the input of every routine (for getrs, potrs the matrix the
                         factors are of, for the check) */
    double *b;        /* gemm: the second factor; trsm, trmm: the right-hand side B; solves: B,
                         n x nrhs; sygvd: B */
    double *c;        /* gemm, syrk, symm, syr2k: the C added to; NULL otherwise */
    double *factors;  /* getrs, potrs, orgqr, ormqr: the reference factors of a; NULL otherwise */
    double *tau;      /* orgqr, ormqr: the scalars of those reference reflectors */
    int lwork;        /* QR and eigen families: OpenBLAS's workspace, the optimal length its
                         query gave */
    int liwork;       /* eigen family: OpenBLAS's integer workspace, likewise (1 for syev) */
    tela_int *pivots; /* getrs: their pivots, 1-based, as tela takes them */
    int *pivots_lp64; /* getrs: the same, as OpenBLAS takes them */
    double *x;        /* memory-bound: the vector x (trsv: the right-hand side); NULL else */
    double *y;        /* dot, axpy, gemv, symv, ger: the vector y; NULL otherwise */
};

/* Builds the inputs from a seed fixed by routine and n (getrs, potrs, orgqr and ormqr factor
 * theirs with ob, and the QR family asks ob for its workspace length); transa is gemm's and
 * gemv's, transb gemm's, m the QR family's rows (tb_routine_rows; ignored otherwise).
 * Returns 0, or -1 out of memory or when the reference factorization fails. */
int tb_problem_init(struct tb_problem *p, enum tb_routine routine, char transa, char transb,
                    char uplo, int m, int n, int nrhs, const struct tb_openblas *ob);
/* 1 for the routines told a triangle of a symmetric matrix (potrf, potrs, posv). */
int tb_routine_has_uplo(enum tb_routine routine);
void tb_problem_free(struct tb_problem *p);

/* The buffers one side's calls write. */
struct tb_state {
    double *matrix;    /* level 3: the output updated in place (C; B of trsm and trmm);
                          getrf, potrf, gesv, posv, the QR family: A, factored in place (orgqr:
                          the reflectors, overwritten by Q); NULL for getrs, potrs, ormqr */
    double *rhs;       /* solves: B, overwritten by X; ormqr: C; sygvd: B, overwritten by its
                          Cholesky factor; NULL otherwise */
    double *tau;       /* geqrf, geqrf4, geqrf16, tsqr, gelqf, qr: the scalars written */
    double *triangle;  /* qr: R (n x n), copied out between geqrf and orgqr as NumPy does */
    double *work;      /* QR and eigen families: OpenBLAS's workspace, lwork doubles (tela's
                          side has one too, unused: a state does not know its side) */
    int *iwork;        /* eigen family: OpenBLAS's integer workspace, liwork ints */
    double *values;    /* eigen family: the eigenvalues w */
    double *vectors;   /* syevr, syevri: Z, n x n (the vectors found in its first columns) */
    tela_int *support; /* syevr, syevri on tela's side: isuppz, 2n */
    int *support_lp64; /* on OpenBLAS's side */
    int found;         /* syevr, syevri: m, the eigenvalues the last call found */
    tela_int *pivots;  /* getrf, gesv on tela's side: the pivots */
    int *pivots_lp64;  /* getrf, gesv on OpenBLAS's side */
    double *vector;    /* axpy, gemv, symv: y; trsv: x; updated in place; NULL otherwise */
    double scalar;     /* dot, nrm2: the last call's result */
    long calls;        /* calls since the last reset: axpy and ger take alpha's sign from it */
};

/* Allocates a state for p and fills it with the starting values. Returns 0 or -1. */
int tb_state_init(const struct tb_problem *p, struct tb_state *s);
/* Restores the starting values (the inputs a call overwrites). */
void tb_state_reset(const struct tb_problem *p, struct tb_state *s);
void tb_state_free(struct tb_state *s);

/* One call on s. Returns the routine's info (0: fine). */
int tb_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s);
int tb_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob, struct tb_state *s);

/* The check of one call of each side from the starting values.
 *
 * Level 3: difference = max |x - y| / (k eps s) over the elements the routine writes, with k
 * the inner dimension (n) and s = max|A| max|B| (gemm, trmm, symm, syr2k), max|A|^2 (syrk),
 * max|A| max|X| (trsm, X the solution), max|A| over the triangle read; reference = NaN.
 * Memory-bound: the same measure, k the inner length and s the operands' scale: dot n,
 * max|x| max|y|; nrm2 n, max|x|; axpy 1, max|x| + max|y|; gemv, symv n, max|A| max|x|; ger 1,
 * max|A| + max|x| max|y|; trsv n, max|A| max|X| (X OpenBLAS's solution).
 *
 * LAPACK: residuals as LAPACK's tests measure them, in units of n eps (1-norms): getrf
 * ||P A - L U|| / (n ||A|| eps), potrf ||A - L L^T|| / (n ||A|| eps), solves the largest over
 * the columns of ||b - A x|| / (n ||A|| ||x|| eps). difference is tela's, reference
 * OpenBLAS's (the residual products are computed with OpenBLAS's BLAS). pivots_differ: getrf,
 * gesv: rows whose pivot differs between the two sides (-1 for other routines); potrf, posv:
 * other_triangle_written is set when tela changed the upper triangle. NaN anywhere gives NaN.
 *
 * QR family (tela_bench_qr.h): difference and reference are each side's residual as LAPACK's
 * tests measure it; agreement compares the two sides' results (R, Q, C or X), in units of
 * m eps times the result's scale; signs_differ counts rows of R (columns of L) whose sign
 * differs between the sides (compared up to that sign). agreement is NaN and signs_differ -1
 * for the other routines.
 *
 * Eigen family (tela_bench_eig.h): difference and reference are each side's residual, the
 * larger of ||A Z - Z diag(w)|| / (n ||A|| eps) and ||I - Z^T Z|| / (n eps) (sygvd:
 * ||A Z - B Z diag(w)|| / (n ||A|| ||Z|| eps)); NaN for syevdn, which has no vectors;
 * agreement is max |w - w_OpenBLAS| / (n eps ||A||) (sygvd: n eps max|w_OpenBLAS|). */
struct tb_check {
    double difference;
    double reference;
    double agreement;
    int pivots_differ;
    int signs_differ;
    int other_triangle_written;
};
/* Returns 0, or -1 out of memory. */
int tb_problem_check(const struct tb_problem *p, const struct tb_openblas *ob,
                     const struct tb_state *tela, const struct tb_state *openblas,
                     struct tb_check *check);

#endif
