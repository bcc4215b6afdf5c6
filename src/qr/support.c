/* support.c — what every QR routine shares besides the kernels: the block size, the flags
 * LAPACK's QR routines accept, the scratch block a call works in, and the transposes the LQ side
 * goes through. */
#include "par/engine.h"
#include "qr/qr.h"

tela_int qr_block_size(tela_int m, tela_int n)
{
    const tela_int k = m < n ? m : n;
    /* Up to 64 columns one recursive panel costs little more than the blocked algorithm; above,
     * blocks wide enough that the trailing update's GEMMs (k = nb) run near their best. */
    if (k <= 64)
        return k > 0 ? k : 1;
    return k <= 512 ? 64 : 128;
}

bool qr_side(char c, bool *left)
{
    *left = c == 'L' || c == 'l';
    return *left || c == 'R' || c == 'r';
}

bool qr_trans(char c, bool *trans)
{
    *trans = c == 'T' || c == 't';
    return *trans || c == 'N' || c == 'n';
}

double *qr_scratch(tela_par par, size_t doubles, bool *owned)
{
    *owned = false;
    return par_scratch_region(par, PAR_SCRATCH_ROUTINE, (doubles ? doubles : 1) * sizeof(double),
                              owned);
}

void qr_transpose(tela_int m, tela_int n, const double *a, tela_int lda, double *b, tela_int ldb)
{
    /* Tiles of 32 x 32 keep both sides' lines in L1. */
    enum { TILE = 32 };
    for (tela_int j0 = 0; j0 < n; j0 += TILE)
        for (tela_int i0 = 0; i0 < m; i0 += TILE) {
            const tela_int j1 = j0 + TILE < n ? j0 + TILE : n;
            const tela_int i1 = i0 + TILE < m ? i0 + TILE : m;
            for (tela_int i = i0; i < i1; i++)
                for (tela_int j = j0; j < j1; j++)
                    b[j + i * ldb] = a[i + j * lda];
        }
}

int qr_factor_args(tela_int m, tela_int n, const double *a, tela_int lda, const double *tau)
{
    if (m < 0)
        return -1;
    if (n < 0)
        return -2;
    if (lda < (m > 1 ? m : 1))
        return -4;
    if (m == 0 || n == 0)
        return QR_ARGS_DONE;
    if (!a)
        return -3;
    return tau ? QR_ARGS_GO : -5;
}

int qr_multiply_args(bool lq, char side, char trans, tela_int m, tela_int n, tela_int k,
                     const double *a, tela_int lda, const double *tau, const double *c,
                     tela_int ldc, bool *left, bool *transpose)
{
    if (!qr_side(side, left))
        return -1;
    if (!qr_trans(trans, transpose))
        return -2;
    const tela_int nq = *left ? m : n, rows = lq ? k : nq; /* A's rows: the vectors' or k */
    if (m < 0)
        return -3;
    if (n < 0)
        return -4;
    if (k < 0 || k > nq)
        return -5;
    if (lda < (rows > 1 ? rows : 1))
        return -7;
    if (ldc < (m > 1 ? m : 1))
        return -10;
    if (m == 0 || n == 0 || k == 0)
        return QR_ARGS_DONE;
    if (!a)
        return -6;
    if (!tau)
        return -8;
    return c ? QR_ARGS_GO : -9;
}

void qr_share(tela_int from, tela_int to, int part, int parts, tela_int *first, tela_int *last)
{
    const tela_int units = qr_shares(to - from);
    const tela_int a = from + units * part / parts * QR_SHARE_COLUMNS;
    const tela_int b = from + units * (part + 1) / parts * QR_SHARE_COLUMNS;
    *first = a < to ? a : to;
    *last = b < to ? b : to;
}

void qr_copy_upper(tela_int n, const double *src, tela_int lds, double *dst, tela_int ldd)
{
    for (tela_int j = 0; j < n; j++)
        for (tela_int i = 0; i <= j; i++)
            dst[i + (size_t)j * (size_t)ldd] = src[i + (size_t)j * (size_t)lds];
}
