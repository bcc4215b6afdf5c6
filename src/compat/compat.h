/* compat.h — internal entry points of src/compat, the drop-in BLAS symbols: Fortran-ABI
 * routines (dgemm_, dtrsm_, dtrmm_, dsyrk_), their CBLAS twins (cblas_dgemm, ...) and the two
 * error hooks they report to.
 *
 * Every routine follows reference BLAS: its checks, in its order, with its parameter numbers,
 * then tela's kernel on the process default width. The hooks (xerbla_, cblas_xerbla) are called
 * through the PLT, never bound inside libtela, so the caller's definitions win; tela's own are
 * weak fallbacks that report through tela's error handler and never exit. */
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

/* The Fortran characters of CBLAS enums, as reference CBLAS maps them; false (and *c untouched)
 * for a value that is none of the enum's. */
bool compat_cblas_side(CBLAS_SIDE side, char *c);
bool compat_cblas_uplo(CBLAS_UPLO uplo, char *c);
bool compat_cblas_trans(CBLAS_TRANSPOSE trans, char *c);
bool compat_cblas_diag(CBLAS_DIAG diag, char *c);

/* The four flags of cblas_dtrsm and cblas_dtrmm for the column-major call the CBLAS routine
 * makes (flags = side, uplo, transa, diag), row-major mapped as reference CBLAS maps it (side
 * and uplo swapped). A bad value is reported as reference CBLAS reports it, to cblas_xerbla
 * under routine's name (layout 1, Side 2, Uplo 3, Trans 4, Diag 5), and false returned. */
bool compat_cblas_triangular_flags(const char *routine, CBLAS_ORDER layout, CBLAS_SIDE side,
                                   CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa, CBLAS_DIAG diag,
                                   char flags[4]);

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

#endif /* TELA_COMPAT_H */
