/* tela_bench_openblas.h — OpenBLAS for tela-bench, loaded at run time into a link-map namespace
 * of its own: libtela exports cblas_dgemm, dgemm_ and dgetrf_ too, so a normal link could bind
 * either library's calls to the other's code. Nothing of OpenBLAS is linked at build time. It is
 * loaded with the kernel set of the best ISA that the CPU and the build share: an OpenBLAS that
 * does not know the CPU model falls back to far slower kernels, and a comparison with those
 * would flatter tela. */
#ifndef TELA_BENCH_OPENBLAS_H
#define TELA_BENCH_OPENBLAS_H

#include <stddef.h>

/* The CBLAS enumeration values (cblas.h, which is not included: its declarations are the very
 * names this program must not bind). Passed as int, which is how a C enum travels. */
enum {
    TB_CBLAS_COL_MAJOR = 102,
    TB_CBLAS_NO_TRANS = 111,
    TB_CBLAS_TRANS = 112,
    TB_CBLAS_UPPER = 121,
    TB_CBLAS_LOWER = 122,
    TB_CBLAS_NON_UNIT = 131,
    TB_CBLAS_UNIT = 132,
    TB_CBLAS_LEFT = 141,
    TB_CBLAS_RIGHT = 142
};

/* OpenBLAS's CBLAS signatures with LP64 integers (Debian's and most distributions' build). */
typedef void (*tb_cblas_dgemm_fn)(int layout, int transa, int transb, int m, int n, int k,
                                  double alpha, const double *a, int lda, const double *b, int ldb,
                                  double beta, double *c, int ldc);
/* cblas_dtrsm and cblas_dtrmm share this signature. */
typedef void (*tb_cblas_dtrxm_fn)(int layout, int side, int uplo, int transa, int diag, int m,
                                  int n, double alpha, const double *a, int lda, double *b,
                                  int ldb);
typedef void (*tb_cblas_dsyrk_fn)(int layout, int uplo, int trans, int n, int k, double alpha,
                                  const double *a, int lda, double beta, double *c, int ldc);

/* OpenBLAS's LAPACK through the Fortran ABI (LP64): every argument by address, and after them a
 * hidden length for each character argument, as gfortran passes it (size_t since gfortran 8;
 * OpenBLAS's own C versions of some routines simply ignore it). LAPACKE is not used: its
 * wrappers add work of their own (dpotrf's NaN check of the whole input) that tela's calls do
 * not do. */
typedef void (*tb_dgetrf_fn)(const int *m, const int *n, double *a, const int *lda, int *ipiv,
                             int *info);
typedef void (*tb_dgetrs_fn)(const char *trans, const int *n, const int *nrhs, const double *a,
                             const int *lda, const int *ipiv, double *b, const int *ldb, int *info,
                             size_t trans_length);
typedef void (*tb_dgesv_fn)(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv,
                            double *b, const int *ldb, int *info);
typedef void (*tb_dpotrf_fn)(const char *uplo, const int *n, double *a, const int *lda, int *info,
                             size_t uplo_length);
typedef void (*tb_dpotrs_fn)(const char *uplo, const int *n, const int *nrhs, const double *a,
                             const int *lda, double *b, const int *ldb, int *info,
                             size_t uplo_length);
typedef void (*tb_dposv_fn)(const char *uplo, const int *n, const int *nrhs, double *a,
                            const int *lda, double *b, const int *ldb, int *info,
                            size_t uplo_length);

/* The QR family: reference LAPACK inside OpenBLAS (on OpenBLAS's BLAS). Each takes a workspace
 * and its length lwork; lwork = -1 is the query, the optimal length returned in work[0].
 * dormlq_ serves gelqf's check only. */
typedef void (*tb_dgeqrf_fn)(const int *m, const int *n, double *a, const int *lda, double *tau,
                             double *work, const int *lwork, int *info);
typedef void (*tb_dorgqr_fn)(const int *m, const int *n, const int *k, double *a, const int *lda,
                             const double *tau, double *work, const int *lwork, int *info);
typedef void (*tb_dormqr_fn)(const char *side, const char *trans, const int *m, const int *n,
                             const int *k, const double *a, const int *lda, const double *tau,
                             double *c, const int *ldc, double *work, const int *lwork, int *info,
                             size_t side_length, size_t trans_length);
typedef void (*tb_dgels_fn)(const char *trans, const int *m, const int *n, const int *nrhs,
                            double *a, const int *lda, double *b, const int *ldb, double *work,
                            const int *lwork, int *info, size_t trans_length);

/* The symmetric eigen family (tela_bench_eig.c): reference LAPACK's drivers inside OpenBLAS,
 * and the three phases of dsyevd for --eig-phases. The drivers take a double workspace and
 * (not dsyev_) an integer one; lwork = liwork = -1 is the query, the optimal lengths returned in
 * work[0] and iwork[0]. */
typedef void (*tb_dsyevd_fn)(const char *jobz, const char *uplo, const int *n, double *a,
                             const int *lda, double *w, double *work, const int *lwork, int *iwork,
                             const int *liwork, int *info, size_t jobz_length, size_t uplo_length);
typedef void (*tb_dsyevr_fn)(const char *jobz, const char *range, const char *uplo, const int *n,
                             double *a, const int *lda, const double *vl, const double *vu,
                             const int *il, const int *iu, const double *abstol, int *m, double *w,
                             double *z, const int *ldz, int *isuppz, double *work, const int *lwork,
                             int *iwork, const int *liwork, int *info, size_t jobz_length,
                             size_t range_length, size_t uplo_length);
typedef void (*tb_dsyev_fn)(const char *jobz, const char *uplo, const int *n, double *a,
                            const int *lda, double *w, double *work, const int *lwork, int *info,
                            size_t jobz_length, size_t uplo_length);
typedef void (*tb_dsygvd_fn)(const int *itype, const char *jobz, const char *uplo, const int *n,
                             double *a, const int *lda, double *b, const int *ldb, double *w,
                             double *work, const int *lwork, int *iwork, const int *liwork,
                             int *info, size_t jobz_length, size_t uplo_length);
typedef void (*tb_dsytrd_fn)(const char *uplo, const int *n, double *a, const int *lda, double *d,
                             double *e, double *tau, double *work, const int *lwork, int *info,
                             size_t uplo_length);
typedef void (*tb_dstedc_fn)(const char *compz, const int *n, double *d, double *e, double *z,
                             const int *ldz, double *work, const int *lwork, int *iwork,
                             const int *liwork, int *info, size_t compz_length);
typedef void (*tb_dormtr_fn)(const char *side, const char *uplo, const char *trans, const int *m,
                             const int *n, const double *a, const int *lda, const double *tau,
                             double *c, const int *ldc, double *work, const int *lwork, int *info,
                             size_t side_length, size_t uplo_length, size_t trans_length);

/* OpenBLAS's BLAS through the same Fortran ABI for dsymm, dsyr2k and the memory-bound level-1
 * and level-2 routines. ddot_ and dnrm2_ return their double as a C function does, which is what
 * gfortran does for a REAL*8 function. */
typedef void (*tb_dsymm_fn)(const char *side, const char *uplo, const int *m, const int *n,
                            const double *alpha, const double *a, const int *lda, const double *b,
                            const int *ldb, const double *beta, double *c, const int *ldc,
                            size_t side_length, size_t uplo_length);
typedef void (*tb_dsyr2k_fn)(const char *uplo, const char *trans, const int *n, const int *k,
                             const double *alpha, const double *a, const int *lda, const double *b,
                             const int *ldb, const double *beta, double *c, const int *ldc,
                             size_t uplo_length, size_t trans_length);
typedef double (*tb_ddot_fn)(const int *n, const double *x, const int *incx, const double *y,
                             const int *incy);
typedef void (*tb_daxpy_fn)(const int *n, const double *alpha, const double *x, const int *incx,
                            double *y, const int *incy);
typedef double (*tb_dnrm2_fn)(const int *n, const double *x, const int *incx);
typedef void (*tb_dgemv_fn)(const char *trans, const int *m, const int *n, const double *alpha,
                            const double *a, const int *lda, const double *x, const int *incx,
                            const double *beta, double *y, const int *incy, size_t trans_length);
typedef void (*tb_dsymv_fn)(const char *uplo, const int *n, const double *alpha, const double *a,
                            const int *lda, const double *x, const int *incx, const double *beta,
                            double *y, const int *incy, size_t uplo_length);
typedef void (*tb_dger_fn)(const int *m, const int *n, const double *alpha, const double *x,
                           const int *incx, const double *y, const int *incy, double *a,
                           const int *lda);
typedef void (*tb_dtrsv_fn)(const char *uplo, const char *trans, const char *diag, const int *n,
                            const double *a, const int *lda, double *x, const int *incx,
                            size_t uplo_length, size_t trans_length, size_t diag_length);

/* Vector ISAs, in increasing order, as far as OpenBLAS's double kernels tell them apart. */
enum tb_isa { TB_ISA_OTHER, TB_ISA_AVX2, TB_ISA_AVX512 };
extern const char *const tb_isa_names[]; /* "older than AVX2", "AVX2", "AVX-512" */

/* The best ISA the CPU (and the OS) runs, of those above. */
enum tb_isa tb_cpu_isa(void);

/* The ISA of an OpenBLAS kernel set, by its openblas_get_corename name. */
enum tb_isa tb_core_isa(const char *core);

/* How the kernel set (OPENBLAS_CORETYPE, which OpenBLAS reads once, when it loads) is chosen. */
enum tb_core_choice {
    TB_CORE_BEST,  /* OpenBLAS's own choice, unless the CPU has a better ISA than that choice:
                      then the best set of the CPU's ISA that this build knows; the
                      environment's OPENBLAS_CORETYPE is not used */
    TB_CORE_NAMED, /* a name given by the user */
    TB_CORE_AUTO   /* OpenBLAS's own choice with the environment as given */
};

struct tb_openblas {
    void *handle;                 /* from dlmopen(LM_ID_NEWLM, ...) */
    char **environment;           /* the environment OpenBLAS's namespace got (its libc keeps
                                     reading it), or NULL: the process's own */
    char path[4096];              /* the file loaded, symbolic links resolved */
    long namespace_id;            /* its link-map namespace (0 would be the program's own) */
    tb_cblas_dgemm_fn dgemm;      /* cblas_dgemm */
    tb_cblas_dtrxm_fn dtrsm;      /* cblas_dtrsm */
    tb_cblas_dtrxm_fn dtrmm;      /* cblas_dtrmm */
    tb_cblas_dsyrk_fn dsyrk;      /* cblas_dsyrk */
    tb_dgetrf_fn dgetrf;          /* dgetrf_ */
    tb_dgetrs_fn dgetrs;          /* dgetrs_ */
    tb_dgesv_fn dgesv;            /* dgesv_ */
    tb_dpotrf_fn dpotrf;          /* dpotrf_ */
    tb_dpotrs_fn dpotrs;          /* dpotrs_ */
    tb_dposv_fn dposv;            /* dposv_ */
    tb_dgeqrf_fn dgeqrf;          /* dgeqrf_ */
    tb_dgeqrf_fn dgelqf;          /* dgelqf_ (dgeqrf_'s signature) */
    tb_dorgqr_fn dorgqr;          /* dorgqr_ */
    tb_dormqr_fn dormqr;          /* dormqr_ */
    tb_dormqr_fn dormlq;          /* dormlq_ (dormqr_'s signature) */
    tb_dgels_fn dgels;            /* dgels_ */
    tb_dsyevd_fn dsyevd;          /* dsyevd_ */
    tb_dsyevr_fn dsyevr;          /* dsyevr_ */
    tb_dsyev_fn dsyev;            /* dsyev_ */
    tb_dsygvd_fn dsygvd;          /* dsygvd_ */
    tb_dsytrd_fn dsytrd;          /* dsytrd_ (--eig-phases) */
    tb_dstedc_fn dstedc;          /* dstedc_ (--eig-phases) */
    tb_dormtr_fn dormtr;          /* dormtr_ (--eig-phases) */
    tb_dsymm_fn dsymm;            /* dsymm_ */
    tb_dsyr2k_fn dsyr2k;          /* dsyr2k_ */
    tb_ddot_fn ddot;              /* ddot_ */
    tb_daxpy_fn daxpy;            /* daxpy_ */
    tb_dnrm2_fn dnrm2;            /* dnrm2_ */
    tb_dgemv_fn dgemv;            /* dgemv_ */
    tb_dsymv_fn dsymv;            /* dsymv_ */
    tb_dger_fn dger;              /* dger_ */
    tb_dtrsv_fn dtrsv;            /* dtrsv_ */
    char *(*get_corename)(void);  /* openblas_get_corename: the kernels chosen at load */
    char *(*get_config)(void);    /* openblas_get_config; NULL if this build lacks it */
    int (*get_parallel)(void);    /* openblas_get_parallel (0 serial, 1 pthreads, 2 OpenMP),
                                     or NULL */
    void (*set_num_threads)(int); /* openblas_set_num_threads */
    int (*get_num_threads)(void); /* openblas_get_num_threads */
    enum tb_core_choice core_choice;
    char core_environment[64]; /* OPENBLAS_CORETYPE in the process's environment; "" if unset */
    char core_named[64];       /* the name OpenBLAS got in OPENBLAS_CORETYPE; "" if none */
    char core_detected[64];    /* TB_CORE_BEST: what OpenBLAS chose by itself */
    char cores_unknown[128];   /* TB_CORE_BEST: sets tried that this build does not know */
};

/* Loads OpenBLAS from path, or when path is NULL from the first of the usual places that
 * loads (the pthread build first), with the kernel set coretype names: NULL for TB_CORE_BEST,
 * "auto" for TB_CORE_AUTO, else the name. Returns 0; TB_OPENBLAS_NOT_FOUND when nothing could
 * be loaded, TB_OPENBLAS_INCOMPLETE when a needed symbol is missing; why gets a sentence. */
enum { TB_OPENBLAS_NOT_FOUND = -1, TB_OPENBLAS_INCOMPLETE = -2 };
int tb_openblas_load(struct tb_openblas *ob, const char *path, const char *coretype, char *why,
                     size_t why_size);

/* Where the kernel set came from, for the header: e.g. "named by tela-bench: it detected
 * Prescott on this CPU". */
const char *tb_openblas_core_origin(const struct tb_openblas *ob, char *text, size_t size);

/* OpenBLAS's version from openblas_get_config ("0.3.21"), or "(version unknown)". */
const char *tb_openblas_version(const struct tb_openblas *ob, char *text, size_t size);

/* The file (symbolic links resolved) holding the code of function, any function cast to this
 * type; 0, or -1 if dladdr or realpath fails. */
typedef void (*tb_any_function)(void);
int tb_function_file(tb_any_function function, char *file, size_t file_size);

/* 1 if paths a and b name the same file (device and inode), 0 if not, -1 if either fails. */
int tb_same_file(const char *a, const char *b);

/* dlsym of name in handle into a function pointer of any type, of size bytes (function_pointer
 * points to it). Returns 1, or 0 if the symbol is absent. */
int tb_find_symbol(void *handle, const char *name, void *function_pointer, size_t size);

#endif
