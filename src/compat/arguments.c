/* arguments.c — what the drop-in routines share about their arguments: reference LSAME on the
 * flag characters, the check list DTRSM and DTRMM have in common and the one of the LAPACK
 * solves' dimensions, the CBLAS enums as the characters reference CBLAS passes to the Fortran
 * routine, and the body cblas_dtrsm and cblas_dtrmm have in common.
 *
 * Kept in one place so that every routine accepts exactly what reference accepts ('C' for a
 * real transpose included) and numbers what it rejects as reference does. */
#include "compat/compat.h"

bool compat_is_side(char c)
{
    return c == 'L' || c == 'l' || c == 'R' || c == 'r';
}

bool compat_is_uplo(char c)
{
    return c == 'U' || c == 'u' || c == 'L' || c == 'l';
}

bool compat_is_trans(char c)
{
    return compat_is_notrans(c) || c == 'T' || c == 't' || c == 'C' || c == 'c';
}

bool compat_is_diag(char c)
{
    return c == 'U' || c == 'u' || c == 'N' || c == 'n';
}

bool compat_is_notrans(char c)
{
    return c == 'N' || c == 'n';
}

int compat_at_least_one(int x)
{
    return x > 1 ? x : 1;
}

int compat_triangular_info(char side, char uplo, char transa, char diag, int m, int n, int lda,
                           int ldb)
{
    /* NROWA: reference takes n for anything that is not 'L', a bad side included; that side
     * is reported first anyway. */
    const int rows_a = side == 'L' || side == 'l' ? m : n;
    if (!compat_is_side(side))
        return 1;
    if (!compat_is_uplo(uplo))
        return 2;
    if (!compat_is_trans(transa))
        return 3;
    if (!compat_is_diag(diag))
        return 4;
    if (m < 0)
        return 5;
    if (n < 0)
        return 6;
    if (lda < compat_at_least_one(rows_a))
        return 9;
    if (ldb < compat_at_least_one(m))
        return 11;
    return 0;
}

int compat_solve_info(int n, int nrhs, int lda, int ldb, int n_arg, int lda_arg, int ldb_arg)
{
    if (n < 0)
        return -n_arg;
    if (nrhs < 0)
        return -(n_arg + 1);
    if (lda < compat_at_least_one(n))
        return -lda_arg;
    if (ldb < compat_at_least_one(n))
        return -ldb_arg;
    return 0;
}

bool compat_cblas_side(CBLAS_SIDE side, char *c)
{
    switch (side) {
    case CblasLeft:
        *c = 'L';
        return true;
    case CblasRight:
        *c = 'R';
        return true;
    default:
        return false;
    }
}

bool compat_cblas_uplo(CBLAS_UPLO uplo, char *c)
{
    switch (uplo) {
    case CblasUpper:
        *c = 'U';
        return true;
    case CblasLower:
        *c = 'L';
        return true;
    default:
        return false;
    }
}

bool compat_cblas_trans(CBLAS_TRANSPOSE trans, char *c)
{
    switch (trans) {
    case CblasNoTrans:
        *c = 'N';
        return true;
    case CblasTrans:
        *c = 'T';
        return true;
    case CblasConjTrans:
        *c = 'C';
        return true;
    default:
        return false;
    }
}

bool compat_cblas_diag(CBLAS_DIAG diag, char *c)
{
    switch (diag) {
    case CblasNonUnit:
        *c = 'N';
        return true;
    case CblasUnit:
        *c = 'U';
        return true;
    default:
        return false;
    }
}

/* The four flags (side, uplo, transa, diag) of the column-major call, or false with the bad
 * value reported (compat_cblas_triangular). */
static bool triangular_flags(const char *routine, CBLAS_ORDER layout, CBLAS_SIDE side,
                             CBLAS_UPLO uplo, CBLAS_TRANSPOSE transa, CBLAS_DIAG diag,
                             char flags[4])
{
    const bool row_major = layout == CblasRowMajor;
    if (!row_major && layout != CblasColMajor) {
        cblas_xerbla(1, routine, "Illegal layout setting, %d\n", (int)layout);
        return false;
    }
    if (!compat_cblas_side(side, &flags[0])) {
        cblas_xerbla(2, routine, "Illegal Side setting, %d\n", (int)side);
        return false;
    }
    if (!compat_cblas_uplo(uplo, &flags[1])) {
        cblas_xerbla(3, routine, "Illegal Uplo setting, %d\n", (int)uplo);
        return false;
    }
    if (!compat_cblas_trans(transa, &flags[2])) {
        cblas_xerbla(4, routine, "Illegal Trans setting, %d\n", (int)transa);
        return false;
    }
    if (!compat_cblas_diag(diag, &flags[3])) {
        cblas_xerbla(5, routine, "Illegal Diag setting, %d\n", (int)diag);
        return false;
    }
    if (row_major) {
        /* Row-major arrays read column-major are the transposes: op(A) X = B is
         * X^T op(A^T) = B^T, so the side flips and A^T's triangle is the other one, while the
         * transpose stays as given. */
        flags[0] = flags[0] == 'L' ? 'R' : 'L';
        flags[1] = flags[1] == 'U' ? 'L' : 'U';
    }
    return true;
}

void compat_cblas_triangular(const compat_cblas_routine *routine, compat_triangular_core core,
                             CBLAS_ORDER layout, CBLAS_SIDE side, CBLAS_UPLO uplo,
                             CBLAS_TRANSPOSE transa, CBLAS_DIAG diag, int m, int n, double alpha,
                             const double *a, int lda, double *b, int ldb)
{
    const bool row_major = layout == CblasRowMajor;
    compat_cblas_call previous = compat_cblas_enter(routine, row_major);
    char f[4]; /* side, uplo, transa, diag of the column-major call */
    if (triangular_flags(routine->name, layout, side, uplo, transa, diag, f)) {
        if (row_major)
            core(f[0], f[1], f[2], f[3], n, m, alpha, a, lda, b, ldb);
        else
            core(f[0], f[1], f[2], f[3], m, n, alpha, a, lda, b, ldb);
    }
    compat_cblas_leave(previous);
}

int compat_vector_triangle_info(char uplo, char trans, char diag, int n)
{
    if (!compat_is_uplo(uplo))
        return 1;
    if (!compat_is_trans(trans))
        return 2;
    if (!compat_is_diag(diag))
        return 3;
    if (n < 0)
        return 4;
    return 0;
}

bool compat_cblas_vector_triangle(const char *routine, CBLAS_ORDER layout, CBLAS_UPLO uplo,
                                  CBLAS_TRANSPOSE trans, CBLAS_DIAG diag, char flags[3])
{
    const bool row_major = layout == CblasRowMajor;
    if (!row_major && layout != CblasColMajor) {
        cblas_xerbla(1, routine, "Illegal layout setting, %d\n", (int)layout);
        return false;
    }
    if (!compat_cblas_uplo(uplo, &flags[0])) {
        cblas_xerbla(2, routine, "Illegal Uplo setting, %d\n", (int)uplo);
        return false;
    }
    if (!compat_cblas_trans(trans, &flags[1])) {
        cblas_xerbla(3, routine, "Illegal TransA setting, %d\n", (int)trans);
        return false;
    }
    if (!compat_cblas_diag(diag, &flags[2])) {
        /* Reference 3.11's row-major branches of cblas_dtbmv and a few others print "Illegal
         * Uplo setting" with Uplo's value here (fixed later); the number, 4, is the same. */
        cblas_xerbla(4, routine, "Illegal Diag setting, %d\n", (int)diag);
        return false;
    }
    if (row_major) {
        /* Row-major A is the column-major A^T: op(A) x is op'(A^T) x with the triangle and the
         * transpose both flipped (Trans and ConjTrans become 'N', NoTrans 'T'). */
        flags[0] = flags[0] == 'U' ? 'L' : 'U';
        flags[1] = compat_is_notrans(flags[1]) ? 'T' : 'N';
    }
    return true;
}
