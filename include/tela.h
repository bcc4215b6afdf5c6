/* tela.h — the native API of tela, a parallel dense linear-algebra library.
 *
 * This part declares the thread machinery every kernel runs on: pools of
 * cached worker threads, teams leased from them, execution policies
 * (tela_par) and parallel regions. Kernels are declared in later sections.
 * Conventions: column-major, LAPACK argument order, return value is LAPACK's
 * info (0 ok, -i bad argument i, +i numerical condition). */
#ifndef TELA_H
#define TELA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define TELA_API
#else
#define TELA_API __attribute__((visibility("default")))
#endif

#define TELA_VERSION_MAJOR 0
#define TELA_VERSION_MINOR 1
#define TELA_VERSION_PATCH 0

/* Dimensions and leading dimensions: pointer-sized, so large problems work. */
typedef ptrdiff_t tela_int;

/* ---- errors --------------------------------------------------------------
 * Misuse of the thread API (NULL pool, width < 1, width above the pool's,
 * a team released twice, ...) never crashes or hangs: the call returns NULL
 * or a negative code below and reports through the error handler. The default
 * handler prints one line to stderr; tela never exits the process. */
enum tela_status {
    TELA_OK = 0,
    TELA_EINVAL = -1, /* an argument is invalid */
    TELA_EBUSY = -2,  /* the object is in use (a region runs on the team) */
    TELA_ENOMEM = -3, /* memory or threads could not be obtained */
    TELA_ESTATE = -4  /* wrong state (team already released, pool from before fork) */
};

/* where: the public function that failed; message: a sentence for people. */
typedef void (*tela_error_handler)(int status, const char *where, const char *message,
                                   void *context);

/* Installs handler (NULL restores the default, which prints to stderr).
 * Returns the previous handler. Process-wide; safe to call at any time. */
TELA_API tela_error_handler tela_set_error_handler(tela_error_handler handler, void *context);

/* ---- pools ---------------------------------------------------------------
 * A pool owns width-1 worker threads; the thread that leases a team from it
 * is member 0. Worker threads of a pool with default settings come from a
 * process-wide reserve and go back to it on destroy, so building a pool per
 * call costs no thread creation. Any of thread_name, stack_size, start_hook
 * makes the pool dedicated: its threads are its own and joined on destroy. */
typedef struct tela_pool tela_pool;

typedef struct tela_pool_opts {
    int width;               /* members including the caller; 0 = default width */
    const char *thread_name; /* name of the worker threads (<= 15 chars used) */
    size_t stack_size;       /* bytes of each worker's stack; 0 = system default
                              * (tela's kernels, called in a body, use up to ~64 KiB) */
    void (*start_hook)(int worker_index, void *arg); /* run once by each new worker */
    void *start_hook_arg;
} tela_pool_opts;

/* opts NULL or zeroed: width = CPUs in the caller's affinity mask, reduced by
 * a cgroup CPU quota where one is set. Returns NULL on error. */
TELA_API tela_pool *tela_pool_create(const tela_pool_opts *opts);

/* Destroys pool. If a team is still leased (for instance when called from a
 * region running on the pool), destruction is deferred to that team's
 * release; it never waits for it. NULL is ignored. */
TELA_API void tela_pool_destroy(tela_pool *pool);

/* Width the pool was built with (members including the caller); -1 for NULL. */
TELA_API int tela_pool_width(const tela_pool *pool);

/* ---- teams ---------------------------------------------------------------
 * A team is an exclusive lease of some of a pool's workers by one caller.
 * tela_team_acquire asks for width members; when other teams hold workers
 * of the same pool, the team is narrower (down to 1: the caller alone);
 * tela_team_width tells what was granted. Returns NULL on bad arguments. */
typedef struct tela_team tela_team;

TELA_API tela_team *tela_team_acquire(tela_pool *pool, int width);
/* Gives the workers back. Releasing twice reports TELA_ESTATE and does
 * nothing (detectable while the pool lives and the team was not re-leased). */
TELA_API int tela_team_release(tela_team *team);
TELA_API int tela_team_width(const tela_team *team);
/* Wakes the sleeping members among 1..width-1 of team (width <= 0: all) so
 * they spin, ready for a region that follows shortly: a caller with serial
 * work before its first region (argument checks, packing) overlaps their
 * wake-up with it (a halted vCPU takes ~100 us to wake on this project's
 * VMs). A woken member spins its usual budget, then sleeps again. Costs a
 * system call per sleeping member, nothing for spinning ones. Returns the
 * number of members woken, or a negative tela_status. */
TELA_API int tela_team_prewake(tela_team *team, int width);
/* Acquires a team of up to width, calls fn(team, arg), releases it.
 * Returns 0, or a negative tela_status. */
TELA_API int tela_with_team(tela_pool *pool, int width, void (*fn)(tela_team *, void *), void *arg);

/* ---- execution policy ----------------------------------------------------
 * Every kernel takes one first. A small value: copy it freely. */
typedef enum tela_par_kind {
    TELA_PAR_SEQ = 0, /* run on the calling thread only */
    TELA_PAR_AUTO,    /* the process default pool (tela_set_num_threads) */
    TELA_PAR_POOL,    /* lease a team from this pool for the call */
    TELA_PAR_TEAM     /* run on this team, held by the caller */
} tela_par_kind;

typedef struct tela_par {
    tela_par_kind kind;
    int max_width; /* 0 = no limit beyond the pool's or team's width */
    tela_pool *pool;
    tela_team *team;
} tela_par;

TELA_API tela_par tela_par_seq(void);
TELA_API tela_par tela_par_auto(void);
TELA_API tela_par tela_par_pool(tela_pool *pool);
TELA_API tela_par tela_par_team(tela_team *team);
/* par with its width limited to max_width (>= 1). */
TELA_API tela_par tela_par_limit(tela_par par, int max_width);

/* ---- thread control --------------------------------------------------------
 * The process default width (the width of TELA_PAR_AUTO) starts from
 * TELA_NUM_THREADS, else OMP_NUM_THREADS (its first number), else the
 * affinity mask / cgroup quota. The thread-local setting, when non-zero,
 * replaces the default for this thread and also limits the width of every
 * region the thread starts, on any policy. tela_get_num_threads returns
 * the calling thread's effective width. */
TELA_API void tela_set_num_threads(int width);
TELA_API int tela_get_num_threads(void);
/* Sets this thread's width (0 resets to the process default); returns the
 * previous thread-local value (0 if none was set). Negative: ignored, -1. */
TELA_API int tela_set_num_threads_local(int width);

/* ---- parallel regions ------------------------------------------------------
 * A region runs body(self, arg) on members 0..w-1 of a team, the caller being
 * member 0. Inside, tela_barrier splits the body into sections. Members at or
 * above w are not woken. A region inside a region (or inside an OpenMP
 * parallel region of the caller) under TELA_PAR_AUTO runs on the caller alone.
 * No tela call inside a body allocates. */
typedef struct tela_member tela_member;
typedef void (*tela_body)(tela_member *self, void *arg);

TELA_API int tela_rank(const tela_member *self);
TELA_API int tela_width(const tela_member *self);
/* Waits until all w members of the region reach it. */
TELA_API void tela_barrier(tela_member *self);

/* Runs body on up to width members chosen by par (width <= 0: as wide as par
 * allows). Returns the width used (>= 1), or a negative tela_status. */
TELA_API int tela_parallel(tela_par par, int width, tela_body body, void *arg);

/* ---- the cost gate ---------------------------------------------------------
 * A region pays when its serial time covers PAYS times the dispatch of its
 * sections at the width it runs: estimate_ns / w >= TELA_PAYS *
 * (dispatch_cost(route, w) + (sections - 1) * dispatch_cost(team, w)); the
 * first section enters through the route, the others are barriers of a
 * running team. Dispatch costs come from a measured table
 * (tela-calibrate; docs/costs.md): the file named by TELA_COSTS, else the
 * per-user cache for this CPU model and count, else a built-in default. */
#define TELA_PAYS 3

typedef enum tela_route {
    TELA_ROUTE_TEAM = 0, /* the caller holds a team (TELA_PAR_TEAM) */
    TELA_ROUTE_POOL,     /* members leased from a pool per call (TELA_PAR_POOL) */
    TELA_ROUTE_OUTSIDE,  /* the default pool entered from outside it (TELA_PAR_AUTO) */
    TELA_ROUTE_COUNT
} tela_route;

/* ns to dispatch one section at width on route (0 at width <= 1); beyond
 * the widest measured width, a fit that keeps growing with width. */
TELA_API double tela_dispatch_cost(tela_route route, int width);
/* The widest w <= max_width that pays (see above); 1 when no w >= 2 does. */
TELA_API int tela_gate_width(double estimate_ns, int sections, tela_route route, int max_width);
/* tela_parallel at the width the gate picks within par's limits: estimate_ns
 * is the region's serial time, sections its barrier-separated phases; name
 * labels it in the trace (TELA_TRACE). At width 1 no member is touched and
 * no pool is built. Returns the width used or a negative tela_status. */
TELA_API int tela_parallel_gated(tela_par par, const char *name, double estimate_ns, int sections,
                                 tela_body body, void *arg);
/* Replaces the cost table with the file at path (checked as a whole first;
 * the current table stays on any error, reported through the handler).
 * path NULL restores the start-up choice. Returns TELA_OK or a status. */
TELA_API int tela_costs_load(const char *path);
/* Where the active table came from ("built-in", or a file path). */
TELA_API const char *tela_costs_source(void);

/* Workspace owned by the team, for bodies that need scratch memory without
 * allocating: at least bytes, 64-byte aligned, valid until the next call
 * on this team with a larger size or the team's release. NULL on failure or
 * when called from inside a region. A destroyed pool's workspace is kept
 * for the next team that needs one (one block per process, the largest). */
TELA_API void *tela_team_workspace(tela_team *team, size_t bytes);

/* ---- level-3 BLAS -------------------------------------------------------------
 * Column-major, BLAS argument order and meaning (trans: 'N', 'T' or 'C',
 * either case). Returns 0, or -i for a bad argument i counted as BLAS counts
 * them (par not counted: transa is 1, ldc is 13), in BLAS's order of checks;
 * nothing is written then. beta = 0 overwrites C (NaN in C included);
 * alpha = 0 or k = 0 only scales C; m or n = 0 returns at once. Results are
 * bitwise the same at every width. */
TELA_API int tela_dgemm(tela_par par, char transa, char transb, tela_int m, tela_int n, tela_int k,
                        double alpha, const double *a, tela_int lda, const double *b, tela_int ldb,
                        double beta, double *c, tela_int ldc);

/* Solves op(A) X = alpha B (side 'L') or X op(A) = alpha B ('R') in place,
 * A triangular (uplo 'U'/'L', diag 'U' unit or 'N'). Argument numbers as
 * BLAS: side 1 ... ldb 11. No check for a zero diagonal (BLAS's rule). */
TELA_API int tela_dtrsm(tela_par par, char side, char uplo, char transa, char diag, tela_int m,
                        tela_int n, double alpha, const double *a, tela_int lda, double *b,
                        tela_int ldb);
/* B = alpha op(A) B (side 'L') or alpha B op(A) ('R') in place. */
TELA_API int tela_dtrmm(tela_par par, char side, char uplo, char transa, char diag, tela_int m,
                        tela_int n, double alpha, const double *a, tela_int lda, double *b,
                        tela_int ldb);
/* C = alpha A A^T + beta C (trans 'N') or alpha A^T A + beta C ('T', 'C'),
 * only the uplo triangle of C read or written. uplo 1 ... ldc 10. */
TELA_API int tela_dsyrk(tela_par par, char uplo, char trans, tela_int n, tela_int k, double alpha,
                        const double *a, tela_int lda, double beta, double *c, tela_int ldc);

/* C = alpha A B + beta C (side 'L') or alpha B A + beta C ('R'), A symmetric (m x m or n x n)
 * with only its uplo triangle read, B and C m x n. Argument numbers as BLAS: side 1, uplo 2,
 * m 3, n 4, lda 7, ldb 9, ldc 12; the beta and quick-return rules of tela_dgemm. */
TELA_API int tela_dsymm(tela_par par, char side, char uplo, tela_int m, tela_int n, double alpha,
                        const double *a, tela_int lda, const double *b, tela_int ldb, double beta,
                        double *c, tela_int ldc);
/* C = alpha (A B^T + B A^T) + beta C (trans 'N'; A, B n x k) or alpha (A^T B + B^T A) + beta C
 * ('T', 'C'; A, B k x n), only the uplo triangle of C read or written. uplo 1, trans 2, n 3,
 * k 4, lda 7, ldb 9, ldc 12. */
TELA_API int tela_dsyr2k(tela_par par, char uplo, char trans, tela_int n, tela_int k, double alpha,
                         const double *a, tela_int lda, const double *b, tela_int ldb, double beta,
                         double *c, tela_int ldc);

/* ---- level-1 BLAS --------------------------------------------------------------------------
 * Vectors of n elements, element i of x at x[i * incx] for incx > 0 and at
 * x[(n - 1 - i) * |incx|] for incx < 0, as BLAS addresses them. What each routine does with
 * n <= 0 and with incx = 0 is what reference BLAS 3.11 does (nothing, or a 0 result, unless
 * said). These routines have no argument errors. Results are bitwise the same at every width:
 * the reductions sum fixed blocks, whose boundaries depend on n only, in order. */
TELA_API double tela_ddot(tela_par par, tela_int n, const double *x, tela_int incx, const double *y,
                          tela_int incy);
/* y = alpha x + y (nothing when alpha = 0, as reference). */
TELA_API void tela_daxpy(tela_par par, tela_int n, double alpha, const double *x, tela_int incx,
                         double *y, tela_int incy);
/* x = alpha x (incx <= 0: nothing, as reference). */
TELA_API void tela_dscal(tela_par par, tela_int n, double alpha, double *x, tela_int incx);
TELA_API void tela_dcopy(tela_par par, tela_int n, const double *x, tela_int incx, double *y,
                         tela_int incy);
TELA_API void tela_dswap(tela_par par, tela_int n, double *x, tela_int incx, double *y,
                         tela_int incy);
/* The Euclidean norm without overflow or harmful underflow (Blue's scaling, as LAPACK 3.10's
 * dnrm2); NaN in x gives NaN, an infinity +Inf. */
TELA_API double tela_dnrm2(tela_par par, tela_int n, const double *x, tela_int incx);
/* sum |x_i| (incx <= 0: 0, as reference). */
TELA_API double tela_dasum(tela_par par, tela_int n, const double *x, tela_int incx);
/* The first 1-based i of the largest |x_i| (0 for n < 1 or incx <= 0). As reference, a NaN is
 * never larger than anything: it is returned only as x_1, when nothing after it is chosen. */
TELA_API tela_int tela_idamax(tela_par par, tela_int n, const double *x, tela_int incx);
/* (x_i, y_i) = (c x_i + s y_i, c y_i - s x_i). */
TELA_API void tela_drot(tela_par par, tela_int n, double *x, tela_int incx, double *y,
                        tela_int incy, double c, double s);
/* The plane rotation (c, s) with c a + s b = r, -s a + c b = 0 (reference 3.10's drotg): a gets
 * r, b gets z (the value drot's callers reconstruct c and s from). */
TELA_API void tela_drotg(double *a, double *b, double *c, double *s);
/* The modified rotation H of param (param[0] = flag -2, -1, 0, 1) applied to (x_i, y_i). */
TELA_API void tela_drotm(tela_par par, tela_int n, double *x, tela_int incx, double *y,
                         tela_int incy, const double *param);
/* The modified rotation that zeroes sqrt(d2) y1 against sqrt(d1) x1, as reference drotmg. */
TELA_API void tela_drotmg(double *d1, double *d2, double *x1, double y1, double *param);

/* ---- level-2 BLAS --------------------------------------------------------------------------
 * BLAS's argument order and meaning; par first, not counted: argument numbers are BLAS's
 * (tela_dgemv: trans 1, m 2, n 3, lda 6, incx 8, incy 11), checked in BLAS's order, the
 * first bad one returned as -i with nothing written. incx and incy must not be 0 (BLAS's
 * rule). beta = 0 overwrites y (NaN included); alpha = 0 only scales y. Results are bitwise the
 * same at every width: members split rows or columns at boundaries fixed by the sizes. */

/* y = alpha op(A) x + beta y, A m x n. */
TELA_API int tela_dgemv(tela_par par, char trans, tela_int m, tela_int n, double alpha,
                        const double *a, tela_int lda, const double *x, tela_int incx, double beta,
                        double *y, tela_int incy);
/* The same for A banded with kl sub- and ku super-diagonals, stored as BLAS's dgbmv stores it
 * (lda >= kl + ku + 1). trans 1, m 2, n 3, kl 4, ku 5, lda 8, incx 10, incy 13. */
TELA_API int tela_dgbmv(tela_par par, char trans, tela_int m, tela_int n, tela_int kl, tela_int ku,
                        double alpha, const double *a, tela_int lda, const double *x, tela_int incx,
                        double beta, double *y, tela_int incy);
/* y = alpha A x + beta y, A symmetric n x n, its uplo triangle read once (both halves of the
 * product from one pass). uplo 1, n 2, lda 5, incx 7, incy 10. */
TELA_API int tela_dsymv(tela_par par, char uplo, tela_int n, double alpha, const double *a,
                        tela_int lda, const double *x, tela_int incx, double beta, double *y,
                        tela_int incy);
/* The same, A banded with k off-diagonals (dsbmv's storage). uplo 1, n 2, k 3, lda 6, incx 8,
 * incy 11. */
TELA_API int tela_dsbmv(tela_par par, char uplo, tela_int n, tela_int k, double alpha,
                        const double *a, tela_int lda, const double *x, tela_int incx, double beta,
                        double *y, tela_int incy);
/* The same, A packed (dspmv's storage, n (n + 1) / 2 elements). uplo 1, n 2, incx 6, incy 9. */
TELA_API int tela_dspmv(tela_par par, char uplo, tela_int n, double alpha, const double *ap,
                        const double *x, tela_int incx, double beta, double *y, tela_int incy);
/* A = alpha x y^T + A, A m x n. m 1, n 2, incx 5, incy 7, lda 9. */
TELA_API int tela_dger(tela_par par, tela_int m, tela_int n, double alpha, const double *x,
                       tela_int incx, const double *y, tela_int incy, double *a, tela_int lda);
/* A = alpha x x^T + A on A's uplo triangle. uplo 1, n 2, incx 5, lda 7. */
TELA_API int tela_dsyr(tela_par par, char uplo, tela_int n, double alpha, const double *x,
                       tela_int incx, double *a, tela_int lda);
/* A = alpha (x y^T + y x^T) + A on A's uplo triangle. uplo 1, n 2, incx 5, incy 7, lda 9. */
TELA_API int tela_dsyr2(tela_par par, char uplo, tela_int n, double alpha, const double *x,
                        tela_int incx, const double *y, tela_int incy, double *a, tela_int lda);
/* Packed forms of dsyr and dsyr2. uplo 1, n 2, incx 5 (dspr2: incy 7). */
TELA_API int tela_dspr(tela_par par, char uplo, tela_int n, double alpha, const double *x,
                       tela_int incx, double *ap);
TELA_API int tela_dspr2(tela_par par, char uplo, tela_int n, double alpha, const double *x,
                        tela_int incx, const double *y, tela_int incy, double *ap);
/* x = op(A) x (trmv) or solves op(A) x = b in place (trsv), A triangular n x n. uplo 1,
 * trans 2, diag 3, n 4, lda 6, incx 8. No check for a zero diagonal (BLAS's rule). */
TELA_API int tela_dtrmv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *a,
                        tela_int lda, double *x, tela_int incx);
TELA_API int tela_dtrsv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *a,
                        tela_int lda, double *x, tela_int incx);
/* Banded triangular forms (k off-diagonals). uplo 1, trans 2, diag 3, n 4, k 5, lda 7,
 * incx 9. */
TELA_API int tela_dtbmv(tela_par par, char uplo, char trans, char diag, tela_int n, tela_int k,
                        const double *a, tela_int lda, double *x, tela_int incx);
TELA_API int tela_dtbsv(tela_par par, char uplo, char trans, char diag, tela_int n, tela_int k,
                        const double *a, tela_int lda, double *x, tela_int incx);
/* Packed triangular forms. uplo 1, trans 2, diag 3, n 4, incx 7. */
TELA_API int tela_dtpmv(tela_par par, char uplo, char trans, char diag, tela_int n,
                        const double *ap, double *x, tela_int incx);
TELA_API int tela_dtpsv(tela_par par, char uplo, char trans, char diag, tela_int n,
                        const double *ap, double *x, tela_int incx);

/* ---- LU and Cholesky (LAPACK) ------------------------------------------------
 * LAPACK's argument order, meaning and checks (par not counted: for
 * tela_dgetrf m is 1, lda 4). Returns LAPACK's info: 0, -i for bad argument
 * i (nothing written), +i for a numerical condition. Pivot indices are
 * 1-based row numbers as LAPACK records them. Results are bitwise the same
 * at every width. */

/* A = P L U, partial pivoting, m x n; A overwritten by L (unit diagonal,
 * not stored) and U; ipiv[0 .. min(m,n)) the row interchanges. info = i > 0:
 * U(i, i) is exactly zero (the first such); the factorization is completed. */
TELA_API int tela_dgetrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                         tela_int *ipiv);
/* Solves op(A) X = B with tela_dgetrf's factors (trans 'N', 'T' or 'C'). */
TELA_API int tela_dgetrs(tela_par par, char trans, tela_int n, tela_int nrhs, const double *a,
                         tela_int lda, const tela_int *ipiv, double *b, tela_int ldb);
/* tela_dgetrf then tela_dgetrs: A X = B, X in B (not solved when info > 0). */
TELA_API int tela_dgesv(tela_par par, tela_int n, tela_int nrhs, double *a, tela_int lda,
                        tela_int *ipiv, double *b, tela_int ldb);
/* The row interchanges ipiv[k1-1 .. k2-1] (1-based k1 <= k2, step incx: forward
 * for incx > 0, backward for incx < 0, none for 0) on the n columns of A, as
 * LAPACK's dlaswp. Returns 0, or -1 for n < 0, -2/-6 for a NULL A/ipiv used,
 * -3 for lda < 1. */
TELA_API int tela_dlaswp(tela_par par, tela_int n, double *a, tela_int lda, tela_int k1,
                         tela_int k2, const tela_int *ipiv, tela_int incx);

/* A = U^T U (uplo 'U') or L L^T ('L'), only that triangle read and written.
 * info = i > 0: the leading minor of order i is not positive definite (or
 * holds a NaN); the factorization stopped there. */
TELA_API int tela_dpotrf(tela_par par, char uplo, tela_int n, double *a, tela_int lda);
/* Solves A X = B with tela_dpotrf's factor. */
TELA_API int tela_dpotrs(tela_par par, char uplo, tela_int n, tela_int nrhs, const double *a,
                         tela_int lda, double *b, tela_int ldb);
/* tela_dpotrf then tela_dpotrs (not solved when info > 0). */
TELA_API int tela_dposv(tela_par par, char uplo, tela_int n, tela_int nrhs, double *a, tela_int lda,
                        double *b, tela_int ldb);

/* ---- QR, LQ and least squares (LAPACK) -----------------------------------------
 * LAPACK's argument order, meaning and checks without the workspace (par not counted: for
 * tela_dgeqrf m is 1, lda 4). Workspace comes from par's scratch service. Reflectors and tau
 * are stored exactly as LAPACK stores them; results are bitwise the same at every width.
 * Returns 0, -i for bad argument i (nothing written), +i as LAPACK's info. */

/* A = Q R, m x n: R in and above the diagonal, the Householder vectors of
 * Q = H(1) ... H(k) below it (unit first element implied), their scalars in tau[0 .. k),
 * k = min(m, n). */
TELA_API int tela_dgeqrf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                         double *tau);
/* The m x n matrix Q of orthonormal columns, the first n columns of H(1) ... H(k) as
 * tela_dgeqrf left them in a (0 <= k <= n <= m); overwrites a. */
TELA_API int tela_dorgqr(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                         const double *tau);
/* C = op(Q) C (side 'L') or C op(Q) ('R'), op 'N' or 'T', Q = H(1) ... H(k) from
 * tela_dgeqrf (a is m x k for 'L', n x k for 'R'; its vectors are read, not changed). */
TELA_API int tela_dormqr(tela_par par, char side, char trans, tela_int m, tela_int n, tela_int k,
                         const double *a, tela_int lda, const double *tau, double *c, tela_int ldc);
/* A = L Q, m x n: L in and below the diagonal, the vectors of Q = H(k) ... H(1) to the right
 * of it in rows, tau[0 .. min(m, n)). */
TELA_API int tela_dgelqf(tela_par par, tela_int m, tela_int n, double *a, tela_int lda,
                         double *tau);
/* The m x n matrix Q of orthonormal rows, the first m rows of H(k) ... H(1) as tela_dgelqf
 * left them (0 <= k <= m <= n); overwrites a. */
TELA_API int tela_dorglq(tela_par par, tela_int m, tela_int n, tela_int k, double *a, tela_int lda,
                         const double *tau);
/* C = op(Q) C or C op(Q) with Q = H(k) ... H(1) from tela_dgelqf (a is k x m for 'L',
 * k x n for 'R'). */
TELA_API int tela_dormlq(tela_par par, char side, char trans, tela_int m, tela_int n, tela_int k,
                         const double *a, tela_int lda, const double *tau, double *c, tela_int ldc);
/* Least squares or minimum norm solutions of op(A) X = B as LAPACK's dgels (trans 'N' or 'T',
 * A m x n of full rank, B max(m, n) x nrhs, the solutions in its first rows). A is overwritten
 * by its QR (m >= n) or LQ factorization. info = i > 0: the i-th diagonal element of the
 * triangular factor is zero, so A has not full rank and no solution is computed. */
TELA_API int tela_dgels(tela_par par, char trans, tela_int m, tela_int n, tela_int nrhs, double *a,
                        tela_int lda, double *b, tela_int ldb);

/* ---- symmetric eigenproblems (LAPACK) ------------------------------------------
 * LAPACK's argument order, meaning and checks without the workspace (par not counted: for
 * tela_dsyevd jobz is 1, lda 5). Workspace comes from par's scratch service. Eigenvalues are
 * ascending; vectors orthonormal, column j for w[j]. Reflectors and tau are stored exactly as
 * LAPACK stores them; results are bitwise the same at every width. Returns 0, -i for bad
 * argument i (nothing written), +i as LAPACK's info. Without workspace (out of memory, or a
 * call nested in a region that needs more than its thread keeps) a routine reports TELA_ENOMEM
 * to the error handler and returns TELA_EIG_NO_MEMORY, its outputs untouched. */
#define TELA_EIG_NO_MEMORY (-1000)

/* Q^T A Q = T, A symmetric n x n (its uplo triangle), T tridiagonal: diagonal d[0 .. n),
 * off-diagonal e[0 .. n-1); the reflectors of Q in A and tau[0 .. n-1) as LAPACK's dsytrd
 * ('U': Q = H(n-1) ... H(1), 'L': Q = H(1) ... H(n-1)). uplo 1, n 2, lda 4. */
TELA_API int tela_dsytrd(tela_par par, char uplo, tela_int n, double *a, tela_int lda, double *d,
                         double *e, double *tau);
/* The n x n matrix Q of tela_dsytrd's reflectors, over a. uplo 1, n 2, lda 4. */
TELA_API int tela_dorgtr(tela_par par, char uplo, tela_int n, double *a, tela_int lda,
                         const double *tau);
/* C = op(Q) C (side 'L', Q of order m) or C op(Q) ('R', order n), Q from tela_dsytrd's
 * reflectors in a. side 1, uplo 2, trans 3, m 4, n 5, lda 7, ldc 10. */
TELA_API int tela_dormtr(tela_par par, char side, char uplo, char trans, tela_int m, tela_int n,
                         const double *a, tela_int lda, const double *tau, double *c, tela_int ldc);
/* The eigenvalues of the symmetric tridiagonal (d, e), ascending in d, by the square-root-free
 * QL/QR iteration (LAPACK's dsterf); e is destroyed. info = i > 0: i off-diagonals did not
 * converge. n 1. */
TELA_API int tela_dsterf(tela_par par, tela_int n, double *d, double *e);
/* The eigenvalues, and with compz 'I' (Z = I first) or 'V' (Z = Q on entry, Q Z out) the
 * vectors, of the tridiagonal (d, e) by implicit QL/QR (LAPACK's dsteqr); compz 'N' as
 * tela_dsterf. compz 1, n 2, ldz 6. */
TELA_API int tela_dsteqr(tela_par par, char compz, tela_int n, double *d, double *e, double *z,
                         tela_int ldz);
/* The same by divide and conquer (LAPACK's dstedc), merges through tela's GEMM. info > 0:
 * an eigenvalue of the submatrix in rows and columns info / (n + 1) .. info mod (n + 1) did
 * not converge. compz 1, n 2, ldz 6. */
TELA_API int tela_dstedc(tela_par par, char compz, tela_int n, double *d, double *e, double *z,
                         tela_int ldz);
/* The eigenvectors of the tridiagonal (d, e) for m of its eigenvalues w by inverse iteration
 * (LAPACK's dstein), as dstebz returns them: iblock[j] the block (1-based) of w[j], ascending,
 * w ascending within a block, isplit[b - 1] the last row (1-based) of block b. Column j of z:
 * w[j]'s vector, unit 2-norm, its largest entry positive, zero outside its block; vectors of
 * eigenvalues within 1e-3 ||T_b|| of each other orthogonalised against each other. info = i >
 * 0: i vectors did not converge in 5 solves, their indices (1-based) first in ifail (m entries
 * when not NULL; 0 after them). n 1, d 2, e 3, m 4, w 5, iblock 6, isplit 7, z 8, ldz 9. */
TELA_API int tela_dstein(tela_par par, tela_int n, const double *d, const double *e, tela_int m,
                         const double *w, const tela_int *iblock, const tela_int *isplit, double *z,
                         tela_int ldz, tela_int *ifail);

/* The eigenvalues w of the symmetric n x n A (its uplo triangle), with jobz 'V' the
 * vectors over A, by reduction to tridiagonal form and divide and conquer (dsyevd) or QL/QR
 * (dsyev). Without vectors A's triangle is destroyed. jobz 1, uplo 2, n 3, lda 5. */
TELA_API int tela_dsyevd(tela_par par, char jobz, char uplo, tela_int n, double *a, tela_int lda,
                         double *w);
TELA_API int tela_dsyev(tela_par par, char jobz, char uplo, tela_int n, double *a, tela_int lda,
                        double *w);
/* Selected eigenvalues and vectors as LAPACK's dsyevr: range 'A' all, 'V' those in (vl, vu],
 * 'I' the il-th to iu-th (1-based); abstol the absolute tolerance of the values; *m how many
 * were found, w[0 .. m) ascending, their vectors in z's first m columns and, where computed,
 * each vector's nonzero rows isuppz[2j] .. isuppz[2j+1] (1-based). A is destroyed. jobz 1,
 * range 2, uplo 3, n 4, lda 6, vl/vu 8, il 9, iu 10, ldz 15. */
TELA_API int tela_dsyevr(tela_par par, char jobz, char range, char uplo, tela_int n, double *a,
                         tela_int lda, double vl, double vu, tela_int il, tela_int iu,
                         double abstol, tela_int *m, double *w, double *z, tela_int ldz,
                         tela_int *isuppz);
/* The generalized problem A x = lambda B x (itype 1), A B x = lambda x (2) or B A x = lambda x
 * (3), A symmetric, B symmetric positive definite, as LAPACK's dsygvd: B is overwritten by
 * its Cholesky factor, A by the vectors (B-orthonormal for itype 1 and 2) with jobz 'V'.
 * info = n + i: B's leading minor of order i is not positive definite. itype 1, jobz 2,
 * uplo 3, n 4, lda 6, ldb 8. */
TELA_API int tela_dsygvd(tela_par par, tela_int itype, char jobz, char uplo, tela_int n, double *a,
                         tela_int lda, double *b, tela_int ldb, double *w);
/* A over inv(U^T) A inv(U) or inv(L) A inv(L^T) (itype 1), U A U^T or L^T A L (2 and 3), B
 * holding tela_dpotrf's factor in its uplo triangle (LAPACK's dsygst). itype 1, uplo 2, n 3,
 * lda 5, ldb 7. */
TELA_API int tela_dsygst(tela_par par, tela_int itype, char uplo, tela_int n, double *a,
                         tela_int lda, const double *b, tela_int ldb);

/* ---- diagnostics ---------------------------------------------------------- */
typedef struct tela_stats {
    long spawned_workers; /* worker threads started in this process so far */
    long reused_workers;  /* workers taken from the reserve instead of spawned */
    long joined_workers;  /* worker threads joined (dedicated pools, surplus) */
    long reserve_idle;    /* workers idle in the reserve now */
    long reserve_cap;     /* most workers the reserve keeps */
    long region_wakeups;  /* times a worker was woken to run a region */
    long cpu_moves;       /* times a worker left the CPU its waker ran on
                             (a scheduler that packs threads, docs/team.md) */
} tela_stats;

TELA_API long tela_spawned_workers(void);
TELA_API void tela_get_stats(tela_stats *stats);
TELA_API const char *tela_version(void);

#ifdef __cplusplus
}
#endif
#endif /* TELA_H */
