/* compat.h — internal entry points of src/compat, the drop-in BLAS and LAPACK symbols:
 * Fortran-ABI routines (dgemm_, dtrsm_, dtrmm_, dsyrk_; dgetrf_, dgetrs_, dgesv_, dlaswp_,
 * dpotrf_, dpotrs_, dposv_; dgeqrf_, dorgqr_, dormqr_, dgelqf_, dorglq_, dormlq_, dgels_;
 * dsyevd_, dsyev_, dsyevr_, dsygvd_ and the pieces they are made of), the CBLAS twins of the BLAS
 * ones (cblas_dgemm, ...) and the two error hooks they report to.
 *
 * Every routine follows reference BLAS / LAPACK 3.11: its checks, in its order, with its
 * parameter numbers, then tela's kernel on the process default width. The hooks (xerbla_,
 * cblas_xerbla) are called through the PLT, never bound inside libtela, so the caller's definitions
 * win; tela's own are weak fallbacks that report through tela's error handler and never exit. */
#ifndef TELA_COMPAT_H
#define TELA_COMPAT_H

#include "tela.h"
#include "tela_cblas.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- the error hooks --------------------------------------------------------------------
 * Declared default-visibility so every call goes through the PLT: a program's or another
 * library's definition earlier in the lookup order is the one called. */

/* Reference BLAS's hook. srname is a Fortran string (blank-padded, no NUL) of srname_len
 * characters, "DGEMM " for dgemm; info the 1-based number of the bad argument. */
TELA_API void xerbla_(const char *srname, const int *info, size_t srname_len);

/* Reference CBLAS's hook (declared in tela_cblas.h), made default-visibility here likewise. */
TELA_API void cblas_xerbla(int p, const char *rout, const char *form, ...);

/* Reports bad argument info of the Fortran routine srname ("DGEMM ") through xerbla_, passing
 * the hidden length gfortran passes. */
void compat_xerbla(const char *srname, int info);

/* ---- CBLAS calls in progress --------------------------------------------------------------
 * Reference CBLAS keeps two globals (CBLAS_CallFromC, RowMajorStrg) so its xerbla_ knows that
 * a Fortran error came from a CBLAS entry and its cblas_xerbla can renumber row-major errors.
 * tela keeps the same facts per thread, for its own fallbacks only. */

/* What a CBLAS routine's errors need: its name and, for row-major calls, the pairs of
 * parameter numbers its operand swap exchanges (reference cblas_xerbla's table). */
typedef struct compat_cblas_routine {
    const char *name;          /* as reference CBLAS spells it: "cblas_dgemm" */
    int row_major_swaps[2][2]; /* raw number -> CBLAS number pairs, both ways; 0 = unused */
} compat_cblas_routine;

/* The CBLAS call this thread is inside, if any. */
typedef struct compat_cblas_call {
    const compat_cblas_routine *routine; /* NULL outside any CBLAS entry */
    bool row_major;                      /* the call's layout is CblasRowMajor */
} compat_cblas_call;

/* Marks the thread as inside routine (until compat_cblas_leave); returns what was there. */
compat_cblas_call compat_cblas_enter(const compat_cblas_routine *routine, bool row_major);
/* Restores what compat_cblas_enter returned. */
void compat_cblas_leave(compat_cblas_call previous);
/* The CBLAS call this thread is inside ({NULL, false} if none). */
compat_cblas_call compat_cblas_current(void);

/* ---- flag arguments (arguments.c) -----------------------------------------------------------
 * Reference LSAME compares the first character only, either case: "Left" and 'l' are 'L'. */

bool compat_is_side(char c);    /* 'L' or 'R' */
bool compat_is_uplo(char c);    /* 'U' or 'L' */
bool compat_is_trans(char c);   /* 'N', 'T' or 'C' */
bool compat_is_diag(char c);    /* 'U' or 'N' */
bool compat_is_notrans(char c); /* 'N' */
int compat_at_least_one(int x); /* reference's MAX(1, x), the least leading dimension */

/* Reference DTRSM's and DTRMM's checks, which are the same: side 1, uplo 2, transa 3, diag 4,
 * m 5, n 6, lda 9 (against m for side 'L', else n), ldb 11; the first failing number, or 0. */
int compat_triangular_info(char side, char uplo, char transa, char diag, int m, int n, int lda,
                           int ldb);

/* The checks of the dimensions reference DGETRS, DGESV, DPOTRS and DPOSV share, in their order:
 * N, NRHS, then LDA and LDB against MAX(1, N). Each routine numbers them its own way: N is
 * n_arg, NRHS n_arg + 1, LDA lda_arg and LDB ldb_arg. 0 or the first failure's -number. */
int compat_solve_info(int n, int nrhs, int lda, int ldb, int n_arg, int lda_arg, int ldb_arg);

/* The Fortran characters of CBLAS enums, as reference CBLAS maps them; false (and *c untouched)
 * for a value that is none of the enum's. */
bool compat_cblas_side(CBLAS_SIDE side, char *c);
bool compat_cblas_uplo(CBLAS_UPLO uplo, char *c);
bool compat_cblas_trans(CBLAS_TRANSPOSE trans, char *c);
bool compat_cblas_diag(CBLAS_DIAG diag, char *c);

/* The Fortran-ABI core a triangular CBLAS routine calls: compat_dtrsm or compat_dtrmm. */
typedef void (*compat_triangular_core)(char side, char uplo, char transa, char diag, int m, int n,
                                       double alpha, const double *a, int lda, double *b, int ldb);

/* cblas_dtrsm and cblas_dtrmm, which differ only in their name and core: the thread marked as
 * inside routine for the call; the four flags mapped for the column-major call the CBLAS routine
 * makes, row-major as reference CBLAS maps it (side and uplo swapped, M and N too), a bad value
 * reported as reference CBLAS reports it, to cblas_xerbla under routine's name (layout 1, Side
 * 2, Uplo 3, Trans 4, Diag 5), with nothing done; else core on the column-major call. */
void compat_cblas_triangular(const compat_cblas_routine *routine, compat_triangular_core core,
                             CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo,
                             CBLAS_TRANSPOSE transa, CBLAS_DIAG diag, int m, int n, double alpha,
                             const double *a, int lda, double *b, int ldb);

/* Reference DTRMV's, DTRSV's, DTBMV's, DTBSV's, DTPMV's and DTPSV's first checks, which they
 * share: uplo 1, trans 2, diag 3, n 4; the first failing number, or 0 (each adds its own). */
int compat_vector_triangle_info(char uplo, char trans, char diag, int n);
/* The flags (uplo, trans, diag) of the column-major call a level-2 triangular CBLAS routine
 * makes (row-major: triangle and transpose flipped, every other argument in its place, so no
 * renumbering), or false with the bad value reported to cblas_xerbla under routine's name
 * (layout 1, Uplo 2, TransA 3, Diag 4) as reference CBLAS reports it. */
bool compat_cblas_vector_triangle(const char *routine, CBLAS_ORDER layout, CBLAS_UPLO uplo,
                                  CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, char flags[3]);

/* ---- routines ------------------------------------------------------------------------------ */

/* dgemm with Fortran semantics on values: the reference checks (reported through xerbla_ as
 * "DGEMM "), then tela_dgemm on tela_par_auto(). cblas_dgemm calls it directly, as reference
 * CBLAS calls the Fortran dgemm, so both entries check alike. */
void compat_dgemm(char transa, char transb, int m, int n, int k, double alpha, const double *a,
                  int lda, const double *b, int ldb, double beta, double *c, int ldc);

/* The Fortran symbol (hidden string-length arguments a Fortran caller appends are ignored). */
TELA_API void dgemm_(const char *transa, const char *transb, const int *m, const int *n,
                     const int *k, const double *alpha, const double *a, const int *lda,
                     const double *b, const int *ldb, const double *beta, double *c,
                     const int *ldc);

/* dtrsm, dtrmm and dsyrk likewise: the reference checks (reported as "DTRSM ", "DTRMM ",
 * "DSYRK "), then tela's kernel on tela_par_auto(). The CBLAS entries call these. */
void compat_dtrsm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                  const double *a, int lda, double *b, int ldb);
void compat_dtrmm(char side, char uplo, char transa, char diag, int m, int n, double alpha,
                  const double *a, int lda, double *b, int ldb);
void compat_dsyrk(char uplo, char trans, int n, int k, double alpha, const double *a, int lda,
                  double beta, double *c, int ldc);

TELA_API void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
                     const int *m, const int *n, const double *alpha, const double *a,
                     const int *lda, double *b, const int *ldb);
TELA_API void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag,
                     const int *m, const int *n, const double *alpha, const double *a,
                     const int *lda, double *b, const int *ldb);
TELA_API void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k,
                     const double *alpha, const double *a, const int *lda, const double *beta,
                     double *c, const int *ldc);

/* ---- level 1 (blas_level1.c, cblas_level1.c) ------------------------------------------------
 * No checks (reference has none): tela's routine on tela_par_auto(). */
TELA_API double ddot_(const int *n, const double *x, const int *incx, const double *y,
                      const int *incy);
TELA_API void daxpy_(const int *n, const double *alpha, const double *x, const int *incx, double *y,
                     const int *incy);
TELA_API void dscal_(const int *n, const double *alpha, double *x, const int *incx);
TELA_API void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy);
TELA_API void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy);
TELA_API double dnrm2_(const int *n, const double *x, const int *incx);
TELA_API double dasum_(const int *n, const double *x, const int *incx);
TELA_API int idamax_(const int *n, const double *x, const int *incx);
TELA_API void drot_(const int *n, double *x, const int *incx, double *y, const int *incy,
                    const double *c, const double *s);
TELA_API void drotg_(double *a, double *b, double *c, double *s);
TELA_API void drotm_(const int *n, double *x, const int *incx, double *y, const int *incy,
                     const double *param);
TELA_API void drotmg_(double *d1, double *d2, double *x1, const double *y1, double *param);

/* ---- level 2 and the rest of level 3 --------------------------------------------------------
 * Each compat_<routine> is the reference routine's checks, in its order with its numbers,
 * reported through xerbla_ under the routine's Fortran name ("DGEMV "), then tela's kernel on
 * tela_par_auto(); the Fortran symbol and the CBLAS entry both call it. */
void compat_dgemv(char trans, int m, int n, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy);
TELA_API void dgemv_(const char *trans, const int *m, const int *n, const double *alpha,
                     const double *a, const int *lda, const double *x, const int *incx,
                     const double *beta, double *y, const int *incy);
void compat_dgbmv(char trans, int m, int n, int kl, int ku, double alpha, const double *a, int lda,
                  const double *x, int incx, double beta, double *y, int incy);
TELA_API void dgbmv_(const char *trans, const int *m, const int *n, const int *kl, const int *ku,
                     const double *alpha, const double *a, const int *lda, const double *x,
                     const int *incx, const double *beta, double *y, const int *incy);
void compat_dsymv(char uplo, int n, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy);
TELA_API void dsymv_(const char *uplo, const int *n, const double *alpha, const double *a,
                     const int *lda, const double *x, const int *incx, const double *beta,
                     double *y, const int *incy);
void compat_dsbmv(char uplo, int n, int k, double alpha, const double *a, int lda, const double *x,
                  int incx, double beta, double *y, int incy);
TELA_API void dsbmv_(const char *uplo, const int *n, const int *k, const double *alpha,
                     const double *a, const int *lda, const double *x, const int *incx,
                     const double *beta, double *y, const int *incy);
void compat_dspmv(char uplo, int n, double alpha, const double *ap, const double *x, int incx,
                  double beta, double *y, int incy);
TELA_API void dspmv_(const char *uplo, const int *n, const double *alpha, const double *ap,
                     const double *x, const int *incx, const double *beta, double *y,
                     const int *incy);
void compat_dger(int m, int n, double alpha, const double *x, int incx, const double *y, int incy,
                 double *a, int lda);
TELA_API void dger_(const int *m, const int *n, const double *alpha, const double *x,
                    const int *incx, const double *y, const int *incy, double *a, const int *lda);
void compat_dsyr(char uplo, int n, double alpha, const double *x, int incx, double *a, int lda);
TELA_API void dsyr_(const char *uplo, const int *n, const double *alpha, const double *x,
                    const int *incx, double *a, const int *lda);
void compat_dsyr2(char uplo, int n, double alpha, const double *x, int incx, const double *y,
                  int incy, double *a, int lda);
TELA_API void dsyr2_(const char *uplo, const int *n, const double *alpha, const double *x,
                     const int *incx, const double *y, const int *incy, double *a, const int *lda);
void compat_dspr(char uplo, int n, double alpha, const double *x, int incx, double *ap);
TELA_API void dspr_(const char *uplo, const int *n, const double *alpha, const double *x,
                    const int *incx, double *ap);
void compat_dspr2(char uplo, int n, double alpha, const double *x, int incx, const double *y,
                  int incy, double *ap);
TELA_API void dspr2_(const char *uplo, const int *n, const double *alpha, const double *x,
                     const int *incx, const double *y, const int *incy, double *ap);
void compat_dtrmv(char uplo, char trans, char diag, int n, const double *a, int lda, double *x,
                  int incx);
TELA_API void dtrmv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const double *a, const int *lda, double *x, const int *incx);
void compat_dtrsv(char uplo, char trans, char diag, int n, const double *a, int lda, double *x,
                  int incx);
TELA_API void dtrsv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const double *a, const int *lda, double *x, const int *incx);
void compat_dtbmv(char uplo, char trans, char diag, int n, int k, const double *a, int lda,
                  double *x, int incx);
TELA_API void dtbmv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const int *k, const double *a, const int *lda, double *x, const int *incx);
void compat_dtbsv(char uplo, char trans, char diag, int n, int k, const double *a, int lda,
                  double *x, int incx);
TELA_API void dtbsv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const int *k, const double *a, const int *lda, double *x, const int *incx);
void compat_dtpmv(char uplo, char trans, char diag, int n, const double *ap, double *x, int incx);
TELA_API void dtpmv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const double *ap, double *x, const int *incx);
void compat_dtpsv(char uplo, char trans, char diag, int n, const double *ap, double *x, int incx);
TELA_API void dtpsv_(const char *uplo, const char *trans, const char *diag, const int *n,
                     const double *ap, double *x, const int *incx);
void compat_dsymm(char side, char uplo, int m, int n, double alpha, const double *a, int lda,
                  const double *b, int ldb, double beta, double *c, int ldc);
TELA_API void dsymm_(const char *side, const char *uplo, const int *m, const int *n,
                     const double *alpha, const double *a, const int *lda, const double *b,
                     const int *ldb, const double *beta, double *c, const int *ldc);
void compat_dsyr2k(char uplo, char trans, int n, int k, double alpha, const double *a, int lda,
                   const double *b, int ldb, double beta, double *c, int ldc);
TELA_API void dsyr2k_(const char *uplo, const char *trans, const int *n, const int *k,
                      const double *alpha, const double *a, const int *lda, const double *b,
                      const int *ldb, const double *beta, double *c, const int *ldc);

/* ---- LAPACK pivot indices (pivots.c) ---------------------------------------------------------
 * The Fortran routines take LP64 int pivots, tela's kernels tela_int ones (ptrdiff_t, twice the
 * bytes). No conversion in place is possible: an int array cannot hold the tela_int one, and the
 * pivots of dgetrs_ and dlaswp_ are the caller's input, which other threads may be reading at
 * the same time. So a call converts through a buffer: on the stack for up to
 * COMPAT_PIVOTS_STACK pivots, else par's scratch (the thread's kept block, which every thread
 * holds for COMPAT_PIVOTS_KEPT pivots and a call outside a region grows). Only inside a region
 * with more pivots than that, or out of memory, does a routine take a path that needs no more
 * than the stack buffer (compat_laswp, and per routine). */

/* Pivots converted on the stack, 2 KB: small enough for any thread's stack, and the panel width
 * of dgetrf_'s unbuffered path. */
#define COMPAT_PIVOTS_STACK 256
/* Pivots every thread keeps room for (64 KiB): dgetrf_ called inside a region body is
 * tela_dgetrf bit for bit up to this order. */
#define COMPAT_PIVOTS_KEPT 8192

/* A pivot buffer for one call; compat_pivots_get says which part is used. */
typedef struct compat_pivots {
    tela_int *block;                     /* par's scratch, or NULL */
    bool owned;                          /* block is to be freed by compat_pivots_release */
    tela_int stack[COMPAT_PIVOTS_STACK]; /* used when count fits */
} compat_pivots;

/* Room for count pivots: pivots->stack if they fit, else par's scratch; NULL when that would
 * need allocating inside a tela region, or out of memory. */
tela_int *compat_pivots_get(compat_pivots *pivots, size_t count);
/* Gives back what compat_pivots_get took, if anything. */
void compat_pivots_release(compat_pivots *pivots);

/* Reference DLASWP on int pivots (no checks, nothing done for n <= 0, incx = 0 or k2 < k1; row
 * r's pivot is ipiv[(k1 - 1) + (r - k1) |incx|], rows k1..k2 in order for incx > 0, backwards
 * for incx < 0): through tela_dlaswp on par, converting the pivots in stack-sized chunks, so it
 * never allocates. The same interchanges in the same order as one tela_dlaswp call. */
void compat_laswp(tela_par par, int n, double *a, int lda, int k1, int k2, const int *ipiv,
                  int incx);

/* ---- LAPACK routines ---------------------------------------------------------------------------
 * Reference LAPACK 3.11's checks in its order: INFO = -i and xerbla_ with the routine's name as
 * LAPACK spells it ("DGETRF", "DGESV ", blank-padded to six), nothing written; then tela's
 * kernel on tela_par_auto(). A NULL array that would be read or written (reference would crash)
 * is not an xerbla error: INFO gets tela's -i and nothing is written. The hidden string lengths a
 * Fortran caller appends are ignored. dlaswp_ checks nothing, as reference. */

/* The LU of the m x n A with int pivots, in tela_dgetrf's place when there is no buffer for its
 * tela_int ones: LAPACK's blocked DGETRF with tela_dgetrf on panels of COMPAT_PIVOTS_STACK
 * columns. Its arguments must have passed the checks. Returns INFO (>= 0); the factors are
 * tela_dgetrf's up to rounding, not bit for bit (the trailing updates are summed in another
 * order). */
int compat_getrf_unbuffered(tela_par par, int m, int n, double *a, int lda, int *ipiv);
/* DGETRS's solve with int pivots and no buffer: the interchanges through compat_laswp and the
 * two triangular solves of tela_dgetrs. Checked arguments, a, ipiv and b not NULL. */
void compat_getrs_unbuffered(tela_par par, char trans, int n, int nrhs, const double *a, int lda,
                             const int *ipiv, double *b, int ldb);

/* Reference DPOTRS's checks, which DPOSV shares number for number: UPLO 1, N 2, NRHS 3, LDA 5,
 * LDB 7; 0 or the first failure's -i. */
int compat_potrs_info(char uplo, int n, int nrhs, int lda, int ldb);

TELA_API void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
TELA_API void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
                      const int *lda, const int *ipiv, double *b, const int *ldb, int *info);
TELA_API void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
                     const int *ldb, int *info);
TELA_API void dlaswp_(const int *n, double *a, const int *lda, const int *k1, const int *k2,
                      const int *ipiv, const int *incx);
TELA_API void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);
TELA_API void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a,
                      const int *lda, double *b, const int *ldb, int *info);
TELA_API void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda,
                     double *b, const int *ldb, int *info);

/* ---- QR, LQ and least squares ----------------------------------------------------------------
 * The checks as above, LWORK's among them (a too small LWORK is reference's number). tela's
 * routines take their workspace from tela's scratch, so WORK only reports sizes: LWORK = -1 writes
 * the optimal size to WORK(1) and nothing else; any LWORK from reference's least up does the same
 * work, bit for bit tela's routine; WORK(1) then holds the optimal size, or 1 after the quick
 * returns reference writes 1 on. The optimal sizes are reference 3.11's formulas with ILAENV's
 * block size, at least the least LWORK. A NULL WORK (once the checks pass) gives WORK's -i, no
 * report, nothing written. Reference writes WORK(1) before some of its checks (DORGQR, DORGLQ,
 * 3.11's DGELQF; DGELS on a bad LWORK): here nothing is written on a bad argument. */

/* The block size reference ILAENV gives every routine below, in its optimal sizes. */
#define COMPAT_QR_BLOCK 32
/* 3.11's DORMQR and DORMLQ keep T of up to 64 reflectors (leading dimension 65) in WORK, part of
 * their optimal size. */
#define COMPAT_QR_T_ROOM (65 * 64)

TELA_API void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                      double *work, const int *lwork, int *info);
TELA_API void dorgqr_(const int *m, const int *n, const int *k, double *a, const int *lda,
                      const double *tau, double *work, const int *lwork, int *info);
TELA_API void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
                      const double *a, const int *lda, const double *tau, double *c, const int *ldc,
                      double *work, const int *lwork, int *info);
TELA_API void dgelqf_(const int *m, const int *n, double *a, const int *lda, double *tau,
                      double *work, const int *lwork, int *info);
TELA_API void dorglq_(const int *m, const int *n, const int *k, double *a, const int *lda,
                      const double *tau, double *work, const int *lwork, int *info);
TELA_API void dormlq_(const char *side, const char *trans, const int *m, const int *n, const int *k,
                      const double *a, const int *lda, const double *tau, double *c, const int *ldc,
                      double *work, const int *lwork, int *info);
TELA_API void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
                     const int *lda, double *b, const int *ldb, double *work, const int *lwork,
                     int *info);

/* ---- symmetric eigenproblems (lapack_dsyevd.c, lapack_dsyev.c, lapack_dsyevr.c,
 * lapack_dsygvd.c, lapack_dsytrd.c, lapack_dormtr.c, lapack_dstedc.c) -----------------------------
 * The checks as above, LWORK's and LIWORK's among them, and the queries: LWORK = -1 (and, where
 * there is one, LIWORK = -1) writes WORK(1) and IWORK(1) and nothing else. tela's routines take
 * their workspace from tela's scratch, so WORK and IWORK only report sizes: reference 3.11's
 * formulas with ILAENV's block size (at least the least LWORK: DSYTRD's query says 1 for N = 0
 * where 3.11 says 0), left in WORK(1) and IWORK(1) after the call where reference leaves them.
 * The sizes are computed in doubles, not in int: reference's LP64 arithmetic overflows for N >=
 * 32768 (NumPy #25564; 2 N^2 + 6 N + 1 for DSYEVD), tela's WORK(1) holds the true size. A least
 * size past INT_MAX, which no LP64 LWORK can state, asks for INT_MAX. Nothing is written on a
 * bad argument (reference writes WORK(1) and IWORK(1) before its LWORK checks); a NULL WORK,
 * IWORK or output once the checks pass gives its -i, no report, nothing written. */

/* ILAENV's block size for DSYTRD, DORMTR (DORMQL, DORMQR) and DORGTR (DORGQL, DORGQR). */
#define COMPAT_EIG_BLOCK 32
/* ILAENV(9, 'DSTEDC'): the order up to which DSTEDC solves by QL/QR (SMLSIZ). */
#define COMPAT_EIG_SMALL 25

/* A routine's workspace sizes, as doubles (see above). */
typedef struct compat_eig_sizes {
    double lwork_least;   /* LWMIN */
    double lwork_optimal; /* the query's WORK(1) */
    double liwork_least;  /* LIWMIN, the query's IWORK(1) */
} compat_eig_sizes;

/* JOBZ: 'V' (*vectors true) or 'N', either case. */
bool compat_is_jobz(char c, bool *vectors);
/* Whether LWORK (or LIWORK) lies below least, capped at INT_MAX. */
bool compat_work_short(int lwork, double least);
/* size as IWORK(1) holds it: capped at INT_MAX. */
int compat_iwork_size(double size);
/* 3.11's DSYEVD sizes for order n, with or without vectors (DSYGVD's least ones too). */
compat_eig_sizes compat_syevd_sizes(bool vectors, int n);

TELA_API void dsyevd_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
                      double *w, double *work, const int *lwork, int *iwork, const int *liwork,
                      int *info);
TELA_API void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
                     double *w, double *work, const int *lwork, int *info);
TELA_API void dsyevr_(const char *jobz, const char *range, const char *uplo, const int *n,
                      double *a, const int *lda, const double *vl, const double *vu, const int *il,
                      const int *iu, const double *abstol, int *m, double *w, double *z,
                      const int *ldz, int *isuppz, double *work, const int *lwork, int *iwork,
                      const int *liwork, int *info);
TELA_API void dsygvd_(const int *itype, const char *jobz, const char *uplo, const int *n, double *a,
                      const int *lda, double *b, const int *ldb, double *w, double *work,
                      const int *lwork, int *iwork, const int *liwork, int *info);
TELA_API void dsygst_(const int *itype, const char *uplo, const int *n, double *a, const int *lda,
                      const double *b, const int *ldb, int *info);
TELA_API void dsytrd_(const char *uplo, const int *n, double *a, const int *lda, double *d,
                      double *e, double *tau, double *work, const int *lwork, int *info);
TELA_API void dorgtr_(const char *uplo, const int *n, double *a, const int *lda, const double *tau,
                      double *work, const int *lwork, int *info);
TELA_API void dormtr_(const char *side, const char *uplo, const char *trans, const int *m,
                      const int *n, const double *a, const int *lda, const double *tau, double *c,
                      const int *ldc, double *work, const int *lwork, int *info);
TELA_API void dstedc_(const char *compz, const int *n, double *d, double *e, double *z,
                      const int *ldz, double *work, const int *lwork, int *iwork, const int *liwork,
                      int *info);
TELA_API void dsterf_(const int *n, double *d, double *e, int *info);
TELA_API void dsteqr_(const char *compz, const int *n, double *d, double *e, double *z,
                      const int *ldz, double *work, int *info);
TELA_API void dstein_(const int *n, const double *d, const double *e, const int *m, const double *w,
                      const int *iblock, const int *isplit, double *z, const int *ldz,
                      const double *work, const int *iwork, int *ifail, int *info);

#endif /* TELA_COMPAT_H */
