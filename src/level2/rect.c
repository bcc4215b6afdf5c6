/* rect.c — the rectangular products the level-2 routines are made of: y = beta y + alpha A x
 * (gemv 'N', and the off-diagonal updates of trmv and trsv) and the column dots A^T x (gemv 'T',
 * trmv and trsv transposed), over any rows or columns a member owns.
 *
 * Strided vectors are gathered LEVEL2_CHUNK rows at a time into a buffer on the stack, so none
 * of this needs scratch memory, and since the kernels never let a row's arithmetic depend on
 * where a call starts, strided and contiguous vectors give the same bits. */
#include "level2/level2.h"

/* Whether column j is left out (see level2_gemv_n). */
static inline bool skipped(const unsigned char *skip, bool skip_zero, const double *x,
                           tela_int incx, tela_int j)
{
    return (skip && skip[j]) || (skip_zero && x[j * incx] == 0.0);
}

/* y[0:m) += alpha A x for the m rows at a, contiguous y: the kernel on each run of columns that
 * are not left out. */
static void apply_columns(const level2_kernels *kr, tela_int m, tela_int n, double alpha,
                          const double *a, tela_int lda, const double *x, tela_int incx,
                          const unsigned char *skip, bool skip_zero, double *y)
{
    if (!skip && !skip_zero) {
        kr->gemv_n(m, n, alpha, a, lda, x, incx, y);
        return;
    }
    tela_int j = 0;
    while (j < n) {
        while (j < n && skipped(skip, skip_zero, x, incx, j))
            j++;
        tela_int end = j;
        while (end < n && !skipped(skip, skip_zero, x, incx, end))
            end++;
        if (end > j)
            kr->gemv_n(m, end - j, alpha, a + j * lda, lda, x + j * incx, incx, y);
        j = end;
    }
}

void level2_gemv_n(const level2_kernels *kr, tela_int m, tela_int n, double alpha, const double *a,
                   tela_int lda, const double *x, tela_int incx, const unsigned char *skip,
                   bool skip_zero, double beta, double *y, tela_int incy)
{
    double buf[LEVEL2_CHUNK];
    for (tela_int r0 = 0; r0 < m; r0 += LEVEL2_CHUNK) {
        const tela_int rows = m - r0 < LEVEL2_CHUNK ? m - r0 : LEVEL2_CHUNK;
        double *yc = incy == 1 ? y + r0 : buf;
        if (incy != 1)
            level2_gather(rows, y + r0 * incy, incy, buf);
        level2_scale(rows, beta, yc, 1);
        if (n > 0)
            apply_columns(kr, rows, n, alpha, a + r0, lda, x, incx, skip, skip_zero, yc);
        if (incy != 1)
            level2_scatter(rows, buf, y + r0 * incy, incy);
    }
}

void level2_gemv_t(const level2_kernels *kr, tela_int m, tela_int n, const double *a, tela_int lda,
                   const double *x, tela_int incx, double *dots)
{
    if (m == 0) {
        for (tela_int j = 0; j < n; j++)
            dots[j] = 0.0;
        return;
    }
    if (incx == 1) {
        kr->gemv_t(m, n, a, lda, x, NULL, NULL, dots);
        return;
    }
    /* Strided: each LEVEL2_DOTS columns' accumulators carried across the gathered pieces. */
    double xc[LEVEL2_CHUNK];
    double acc[LEVEL2_DOTS * LEVEL2_ACC] __attribute__((aligned(64)));
    for (tela_int j0 = 0; j0 < n; j0 += LEVEL2_DOTS) {
        const tela_int cols = n - j0 < LEVEL2_DOTS ? n - j0 : LEVEL2_DOTS;
        for (tela_int r0 = 0; r0 < m; r0 += LEVEL2_CHUNK) {
            const tela_int rows = m - r0 < LEVEL2_CHUNK ? m - r0 : LEVEL2_CHUNK;
            const bool last = r0 + rows == m;
            level2_gather(rows, x + r0 * incx, incx, xc);
            /* cppcheck-suppress legacyUninitvar ; acc is read from the second chunk on */
            kr->gemv_t(rows, cols, a + r0 + j0 * lda, lda, xc, r0 > 0 ? acc : NULL,
                       last ? NULL : acc, last ? dots + j0 : NULL);
        }
    }
}
