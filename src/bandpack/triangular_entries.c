/* triangular_entries.c — tela_dtbmv, tela_dtbsv, tela_dtpmv and tela_dtpsv: the checks of
 * reference DTBMV, DTBSV, DTPMV and DTPSV (the same list, numbered alike within each storage),
 * then the walk of triangular.c. These run on the calling thread whatever par says (see there
 * why); par is taken for the API's uniformity. */
#include "bandpack/bandpack.h"

/* UPLO 1, TRANS 2, DIAG 3, N 4: 0 or the first failure's -number. */
static int flags_info(char uplo, char trans, char diag, tela_int n, bool *upper, bool *t,
                      bool *unit)
{
    if (!bp_uplo(uplo, upper))
        return -1;
    if (!bp_trans(trans, t))
        return -2;
    if (!bp_diag(diag, unit))
        return -3;
    if (n < 0)
        return -4;
    return 0;
}

/* Band storage: K 5, LDA 7 (at least K + 1), INCX 9; A 6, X 8 must not be NULL. */
static int band_info(char uplo, char trans, char diag, tela_int n, tela_int k, const double *a,
                     tela_int lda, const double *x, tela_int incx, bp_shape *s, bool *t, bool *unit)
{
    bool upper;
    int info = flags_info(uplo, trans, diag, n, &upper, t, unit);
    if (info != 0)
        return info;
    if (k < 0)
        return -5;
    if (lda < 1 || lda - 1 < k)
        return -7;
    if (incx == 0)
        return -9;
    if (n > 0 && !a)
        return -6;
    if (n > 0 && !x)
        return -8;
    *s = bp_band(a, lda, n, k, upper);
    return 0;
}

/* Packed storage: INCX 7; AP 5, X 6 must not be NULL. */
static int packed_info(char uplo, char trans, char diag, tela_int n, const double *ap,
                       const double *x, tela_int incx, bp_shape *s, bool *t, bool *unit)
{
    bool upper;
    int info = flags_info(uplo, trans, diag, n, &upper, t, unit);
    if (info != 0)
        return info;
    if (incx == 0)
        return -7;
    if (n > 0 && !ap)
        return -5;
    if (n > 0 && !x)
        return -6;
    *s = bp_packed(ap, n, upper);
    return 0;
}

int tela_dtbmv(tela_par par, char uplo, char trans, char diag, tela_int n, tela_int k,
               const double *a, tela_int lda, double *x, tela_int incx)
{
    (void)par;
    bp_shape s;
    bool t, unit;
    int info = band_info(uplo, trans, diag, n, k, a, lda, x, incx, &s, &t, &unit);
    if (info == 0 && n > 0)
        bp_triangular_multiply(&s, t, unit, x + bp_first(n, incx), incx);
    return info;
}

int tela_dtbsv(tela_par par, char uplo, char trans, char diag, tela_int n, tela_int k,
               const double *a, tela_int lda, double *x, tela_int incx)
{
    (void)par;
    bp_shape s;
    bool t, unit;
    int info = band_info(uplo, trans, diag, n, k, a, lda, x, incx, &s, &t, &unit);
    if (info == 0 && n > 0)
        bp_triangular_solve(&s, t, unit, x + bp_first(n, incx), incx);
    return info;
}

int tela_dtpmv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *ap,
               double *x, tela_int incx)
{
    (void)par;
    bp_shape s;
    bool t, unit;
    int info = packed_info(uplo, trans, diag, n, ap, x, incx, &s, &t, &unit);
    if (info == 0 && n > 0)
        bp_triangular_multiply(&s, t, unit, x + bp_first(n, incx), incx);
    return info;
}

int tela_dtpsv(tela_par par, char uplo, char trans, char diag, tela_int n, const double *ap,
               double *x, tela_int incx)
{
    (void)par;
    bp_shape s;
    bool t, unit;
    int info = packed_info(uplo, trans, diag, n, ap, x, incx, &s, &t, &unit);
    if (info == 0 && n > 0)
        bp_triangular_solve(&s, t, unit, x + bp_first(n, incx), incx);
    return info;
}
