/* pack.c — copying blocks of op(A) and op(B) into the panel order the
 * micro-kernels read: contiguous, 64-byte aligned, zero-padded to whole
 * tiles, alpha folded into A. Transposes are absorbed here. */
#include "gemm/gemm.h"

void gemm_transpose(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                    double *restrict t, ptrdiff_t ldt)
{
    for (ptrdiff_t i = 0; i < rows; i++)
        for (ptrdiff_t j = 0; j < cols; j++)
            t[j + i * ldt] = a[i + j * lda];
}

void gemm_pack_a(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc, double alpha,
                 int mr, double *restrict out)
{
    for (int r = 0; r < mc; r += mr) {
        int rows = mc - r < mr ? mc - r : mr;
        double *panel = out + (ptrdiff_t)r * kc;
        if (!a->trans) {
            /* Column p of the block is contiguous in A. */
            for (int p = 0; p < kc; p++) {
                const double *col = a->p + (i0 + r) + (p0 + p) * a->ld;
                double *dst = panel + (ptrdiff_t)p * mr;
                for (int i = 0; i < rows; i++)
                    dst[i] = alpha * col[i];
                for (int i = rows; i < mr; i++)
                    dst[i] = 0.0;
            }
        } else {
            /* Row i of op(A) is column i of A: contiguous along p. */
            for (int i = 0; i < mr; i++) {
                if (i >= rows) {
                    for (int p = 0; p < kc; p++)
                        panel[(ptrdiff_t)p * mr + i] = 0.0;
                    continue;
                }
                const double *row = a->p + (p0) + (i0 + r + i) * a->ld;
                for (int p = 0; p < kc; p++)
                    panel[(ptrdiff_t)p * mr + i] = alpha * row[p];
            }
        }
    }
}

void gemm_pack_b(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                 int first_panel, int last_panel, int nr, double *restrict out)
{
    for (int jp = first_panel; jp < last_panel; jp++) {
        int j_first = jp * nr;
        int cols = n_block - j_first < nr ? n_block - j_first : nr;
        double *panel = out + (ptrdiff_t)jp * nr * kc;
        if (!b->trans) {
            /* Column j of op(B) is contiguous along p: read the panel's
             * columns side by side, so the writes run contiguously. */
            const double *col[GEMM_NR_MAX];
            for (int j = 0; j < cols; j++)
                col[j] = b->p + p0 + (j0 + j_first + j) * b->ld;
            for (int p = 0; p < kc; p++) {
                double *dst = panel + (ptrdiff_t)p * nr;
                for (int j = 0; j < cols; j++)
                    dst[j] = col[j][p];
                for (int j = cols; j < nr; j++)
                    dst[j] = 0.0;
            }
        } else {
            /* Row p of op(B) is column p of B: contiguous along j. */
            for (int p = 0; p < kc; p++) {
                const double *row = b->p + (j0 + j_first) + (p0 + p) * b->ld;
                double *dst = panel + (ptrdiff_t)p * nr;
                for (int j = 0; j < cols; j++)
                    dst[j] = row[j];
                for (int j = cols; j < nr; j++)
                    dst[j] = 0.0;
            }
        }
    }
}
