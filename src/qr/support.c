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
