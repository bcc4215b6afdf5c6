/* tela_cblas.h — CBLAS declarations for the routines tela implements, so a C program written
 * against CBLAS can call tela's kernels unchanged (link libtela, or preload it in front of a
 * reference BLAS). LP64: every dimension is an int, as in reference CBLAS.
 *
 * The enums are the reference ones, value for value. A system cblas.h (netlib's or OpenBLAS's,
 * both guarded by CBLAS_H) may be included too, but *before* this header: then its enums are
 * used and the prototypes below are compatible with its own. Included first, this header
 * defines the enums itself and a later cblas.h would define them again (a compile error). */
#ifndef TELA_CBLAS_H
#define TELA_CBLAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TELA_CBLAS_API
#else
#define TELA_CBLAS_API __attribute__((visibility("default")))
#endif

#ifndef CBLAS_H
/* No system cblas.h: the reference enums under the reference names. CBLAS_ORDER is the older
 * name of CBLAS_LAYOUT, kept by netlib as a macro and by OpenBLAS as the type itself; the
 * prototypes use it because it names the layout type under both. */
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE {
    CblasNoTrans = 111,
    CblasTrans = 112,
    CblasConjTrans = 113
} CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;
#define CBLAS_ORDER CBLAS_LAYOUT

/* The CBLAS error hook, as reference CBLAS declares it. A program may define its own: tela calls
 * it (never its own copy) with the parameter number reference CBLAS reports and the routine's
 * name, "cblas_dgemm". tela's fallback prints through tela's error handler and returns; it
 * never exits. (Declared only here: OpenBLAS's cblas.h declares it with non-const pointers.) */
void cblas_xerbla(int p, const char *rout, const char *form, ...);
#endif

/* C = alpha op(A) op(B) + beta C, op(X) = X, X^T (CblasTrans or CblasConjTrans). Row-major
 * is computed as the column-major C^T = op(B)^T op(A)^T. A bad argument is reported as
 * reference CBLAS reports it (layout 1, TransA 2, TransB 3 through cblas_xerbla; M, N, K and
 * the leading dimensions through xerbla_ as "DGEMM " with the number of the Fortran call, which
 * tela's fallback xerbla_ hands on to cblas_xerbla as that number + 1) and nothing is written.
 * Runs on the process default width (TELA_NUM_THREADS, tela_set_num_threads). */
TELA_CBLAS_API void cblas_dgemm(CBLAS_ORDER layout, CBLAS_TRANSPOSE transa, CBLAS_TRANSPOSE transb,
                                int m, int n, int k, double alpha, const double *a, int lda,
                                const double *b, int ldb, double beta, double *c, int ldc);

/* Solves op(A) X = alpha B (CblasLeft) or X op(A) = alpha B (CblasRight) in place of B, A
 * triangular (CblasUpper/CblasLower; CblasUnit: its diagonal taken as ones, not read). Row-major
 * is the column-major call with side and uplo flipped and M, N swapped. Errors as reference
 * CBLAS: layout 1, Side 2, Uplo 3, TransA 4, Diag 5 to cblas_xerbla; M, N and the leading
 * dimensions through xerbla_ as "DTRSM " with the Fortran call's numbers (in row-major M is
 * reported as 6, N as 5: the program's cblas_xerbla swaps 7/6 back after its xerbla_ adds one).
 * A zero on A's diagonal is not checked (reference's rule). */
TELA_CBLAS_API void cblas_dtrsm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo,
                                CBLAS_TRANSPOSE transa, CBLAS_DIAG diag, int m, int n, double alpha,
                                const double *a, int lda, double *b, int ldb);

/* B = alpha op(A) B (CblasLeft) or alpha B op(A) (CblasRight) in place, A triangular; the
 * mapping and errors are cblas_dtrsm's, the Fortran name "DTRMM ". */
TELA_CBLAS_API void cblas_dtrmm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo,
                                CBLAS_TRANSPOSE transa, CBLAS_DIAG diag, int m, int n, double alpha,
                                const double *a, int lda, double *b, int ldb);

/* C = alpha A A^T + beta C (CblasNoTrans; A is N x K) or alpha A^T A + beta C (CblasTrans or
 * CblasConjTrans; A is K x N), only the uplo triangle of the N x N matrix C read or written.
 * Row-major is the column-major call with uplo and trans flipped. Errors as reference CBLAS:
 * layout 1, Uplo 2, Trans 3 to cblas_xerbla; N, K, lda, ldc through xerbla_ as "DSYRK " with
 * the Fortran call's numbers (3, 4, 7, 10 in either layout). */
TELA_CBLAS_API void cblas_dsyrk(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n,
                                int k, double alpha, const double *a, int lda, double beta,
                                double *c, int ldc);

/* ---- level 1 --------------------------------------------------------------------------------
 * tela_ddot ... tela_drotmg on the process default width; no argument errors, as reference.
 * cblas_idamax is 0-based (the Fortran index minus one; 0 for n < 1 or incx <= 0). */
TELA_CBLAS_API double cblas_ddot(int n, const double *x, int incx, const double *y, int incy);
TELA_CBLAS_API void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y,
                                int incy);
TELA_CBLAS_API void cblas_dscal(int n, double alpha, double *x, int incx);
TELA_CBLAS_API void cblas_dcopy(int n, const double *x, int incx, double *y, int incy);
TELA_CBLAS_API void cblas_dswap(int n, double *x, int incx, double *y, int incy);
TELA_CBLAS_API double cblas_dnrm2(int n, const double *x, int incx);
TELA_CBLAS_API double cblas_dasum(int n, const double *x, int incx);
TELA_CBLAS_API size_t cblas_idamax(int n, const double *x, int incx);
TELA_CBLAS_API void cblas_drot(int n, double *x, int incx, double *y, int incy, double c, double s);
TELA_CBLAS_API void cblas_drotg(double *a, double *b, double *c, double *s);
TELA_CBLAS_API void cblas_drotm(int n, double *x, int incx, double *y, int incy, const double *p);
TELA_CBLAS_API void cblas_drotmg(double *d1, double *d2, double *b1, double b2, double *p);

/* ---- level 2 --------------------------------------------------------------------------------
 * Reference CBLAS's mappings: row-major is the column-major call on the transposed storage
 * (dgemv and dgbmv: trans flipped, m and n swapped, kl and ku too; the symmetric and triangular
 * ones: uplo flipped, the triangular trans flipped; dger: x and y, m and n swapped). A bad enum
 * goes to cblas_xerbla as reference numbers it (layout 1, then the flags in order); the other
 * checks are the Fortran routine's, reported through xerbla_ (renumbered by cblas_xerbla for
 * row-major dgemv, dgbmv and dger as reference's table does). */
TELA_CBLAS_API void cblas_dgemv(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, int m, int n,
                                double alpha, const double *a, int lda, const double *x, int incx,
                                double beta, double *y, int incy);
TELA_CBLAS_API void cblas_dgbmv(CBLAS_ORDER layout, CBLAS_TRANSPOSE trans, int m, int n, int kl,
                                int ku, double alpha, const double *a, int lda, const double *x,
                                int incx, double beta, double *y, int incy);
TELA_CBLAS_API void cblas_dtrmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, const double *a, int lda, double *x,
                                int incx);
TELA_CBLAS_API void cblas_dtbmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, int k, const double *a, int lda, double *x,
                                int incx);
TELA_CBLAS_API void cblas_dtpmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, const double *ap, double *x, int incx);
TELA_CBLAS_API void cblas_dtrsv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, const double *a, int lda, double *x,
                                int incx);
TELA_CBLAS_API void cblas_dtbsv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, int k, const double *a, int lda, double *x,
                                int incx);
TELA_CBLAS_API void cblas_dtpsv(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans,
                                CBLAS_DIAG diag, int n, const double *ap, double *x, int incx);
TELA_CBLAS_API void cblas_dsymv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                                const double *a, int lda, const double *x, int incx, double beta,
                                double *y, int incy);
TELA_CBLAS_API void cblas_dsbmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, int k, double alpha,
                                const double *a, int lda, const double *x, int incx, double beta,
                                double *y, int incy);
TELA_CBLAS_API void cblas_dspmv(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                                const double *ap, const double *x, int incx, double beta, double *y,
                                int incy);
TELA_CBLAS_API void cblas_dger(CBLAS_ORDER layout, int m, int n, double alpha, const double *x,
                               int incx, const double *y, int incy, double *a, int lda);
TELA_CBLAS_API void cblas_dsyr(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                               const double *x, int incx, double *a, int lda);
TELA_CBLAS_API void cblas_dspr(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                               const double *x, int incx, double *ap);
TELA_CBLAS_API void cblas_dsyr2(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                                const double *x, int incx, const double *y, int incy, double *a,
                                int lda);
TELA_CBLAS_API void cblas_dspr2(CBLAS_ORDER layout, CBLAS_UPLO uplo, int n, double alpha,
                                const double *x, int incx, const double *y, int incy, double *a);

/* ---- level 3, completed --------------------------------------------------------------------
 * Row-major dsymm is the column-major call with side and uplo flipped and m, n swapped;
 * row-major dsyr2k flips uplo and trans. Errors as the other level-3 routines. */
TELA_CBLAS_API void cblas_dsymm(CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo, int m, int n,
                                double alpha, const double *a, int lda, const double *b, int ldb,
                                double beta, double *c, int ldc);
TELA_CBLAS_API void cblas_dsyr2k(CBLAS_ORDER layout, CBLAS_UPLO uplo, CBLAS_TRANSPOSE trans, int n,
                                 int k, double alpha, const double *a, int lda, const double *b,
                                 int ldb, double beta, double *c, int ldc);

#ifdef __cplusplus
}
#endif

#endif /* TELA_CBLAS_H */
