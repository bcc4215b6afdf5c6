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

#ifdef __cplusplus
}
#endif

#endif /* TELA_CBLAS_H */
