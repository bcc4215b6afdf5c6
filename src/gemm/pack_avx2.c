/* pack_avx2.c — packing for the 8 x 6 AVX2 kernel, and the transposer of its small path: four
 * doubles an instruction and 4 x 4 transposes in registers where the portable code (pack.c)
 * moves two, or one. Compiled with -mavx2 -mfma (CMakeLists.txt). Exact copies (alpha's product
 * rounded once, as there): the same bits as pack.c. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* Micro-panels packed together, as gemm_pack_a_avx512 does (docs/gemm.md, "Micro-kernels"). */
enum { MR = 8, NR = 6, PACK_GROUP = 4 };

/* r[q] lane i = c[i] lane q. */
static inline void transpose4(const __m256d c[4], __m256d r[4])
{
    const __m256d t0 = _mm256_unpacklo_pd(c[0], c[1]), t1 = _mm256_unpackhi_pd(c[0], c[1]),
                  t2 = _mm256_unpacklo_pd(c[2], c[3]), t3 = _mm256_unpackhi_pd(c[2], c[3]);
    r[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    r[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    r[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    r[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}

void gemm_transpose_avx2(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                         double *restrict t, ptrdiff_t ldt)
{
    const ptrdiff_t rows4 = rows / 4 * 4, cols4 = cols / 4 * 4;
    for (ptrdiff_t j = 0; j < cols4; j += 4) {
        for (ptrdiff_t i = 0; i < rows4; i += 4) {
            __m256d c[4], r[4];
            for (int q = 0; q < 4; q++)
                c[q] = _mm256_loadu_pd(a + i + (j + q) * lda);
            transpose4(c, r);
            for (int q = 0; q < 4; q++)
                _mm256_storeu_pd(t + j + (i + q) * ldt, r[q]);
        }
        for (ptrdiff_t i = rows4; i < rows; i++)
            for (ptrdiff_t q = j; q < j + 4; q++)
                t[q + i * ldt] = a[i + q * lda];
    }
    for (ptrdiff_t j = cols4; j < cols; j++)
        for (ptrdiff_t i = 0; i < rows; i++)
            t[j + i * ldt] = a[i + j * lda];
}

/* op(A) = A^T: row i of op(A) is column i of A, contiguous along p; 4 x 4 blocks transposed in
 * registers, a whole micro-panel of 8 rows at a time, the last one through pack.c. */
static void pack_a_transposed(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                              double alpha, double *restrict out)
{
    const __m256d va = _mm256_set1_pd(alpha);
    const int full = mc / MR * MR;
    for (int r = 0; r < full; r += MR) {
        double *panel = out + (ptrdiff_t)r * kc;
        const double *row = a->p + p0 + (i0 + r) * a->ld;
        int p = 0;
        for (; p + 4 <= kc; p += 4)
            for (int half = 0; half < 2; half++) {
                __m256d c[4], t[4];
                for (int q = 0; q < 4; q++)
                    c[q] = _mm256_mul_pd(
                        va, _mm256_loadu_pd(row + p + (ptrdiff_t)(4 * half + q) * a->ld));
                transpose4(c, t);
                for (int q = 0; q < 4; q++)
                    _mm256_store_pd(panel + (ptrdiff_t)(p + q) * MR + (ptrdiff_t)4 * half, t[q]);
            }
        for (; p < kc; p++)
            for (int i = 0; i < MR; i++)
                panel[(ptrdiff_t)p * MR + i] = alpha * row[p + i * a->ld];
    }
    if (full < mc)
        gemm_pack_a(a, i0 + full, mc - full, p0, kc, alpha, MR, out + (ptrdiff_t)full * kc);
}

void gemm_pack_a_avx2(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                      double alpha, int mr, double *restrict out)
{
    if (mr != MR) {
        gemm_pack_a(a, i0, mc, p0, kc, alpha, mr, out);
        return;
    }
    if (a->trans) {
        pack_a_transposed(a, i0, mc, p0, kc, alpha, out);
        return;
    }
    const __m256d va = _mm256_set1_pd(alpha);
    /* PACK_GROUP micro-panels at a time, column by column: each column's rows of the group are
     * read as one run of whole lines. */
    const int full = mc / MR * MR, rest = mc - full;
    for (int g = 0; g < full; g += PACK_GROUP * MR) {
        const int g_end = full - g < PACK_GROUP * MR ? full : g + PACK_GROUP * MR;
        for (int p = 0; p < kc; p++) {
            const double *col = a->p + i0 + (p0 + p) * a->ld;
            double *dst = out + (ptrdiff_t)p * MR;
            for (int r = g; r < g_end; r += MR) {
                _mm256_store_pd(dst + (ptrdiff_t)r * kc,
                                _mm256_mul_pd(va, _mm256_loadu_pd(col + r)));
                _mm256_store_pd(dst + (ptrdiff_t)r * kc + 4,
                                _mm256_mul_pd(va, _mm256_loadu_pd(col + r + 4)));
            }
        }
    }
    if (rest > 0) {
        const __m256i lo = gemm_first_lanes_avx2(rest), hi = gemm_first_lanes_avx2(rest - 4);
        for (int p = 0; p < kc; p++) {
            const double *col = a->p + i0 + full + (p0 + p) * a->ld;
            double *dst = out + (ptrdiff_t)full * kc + (ptrdiff_t)p * MR;
            _mm256_store_pd(dst, _mm256_mul_pd(va, _mm256_maskload_pd(col, lo)));
            _mm256_store_pd(dst + 4, _mm256_mul_pd(va, _mm256_maskload_pd(col + 4, hi)));
        }
    }
}

/* Rows [p, p + 4) of a whole panel: 4 doubles of each of its 6 columns, a 4 x 4 transpose for
 * columns 0-3 and pairs for 4-5, each packed row stored as 4 + 2 doubles. */
static inline void pack_b_rows4(const double *const col[NR], int p, double *dst)
{
    __m256d c[NR], r[4];
    for (int j = 0; j < NR; j++)
        c[j] = _mm256_loadu_pd(col[j] + p);
    transpose4(c, r);
    const __m256d lo = _mm256_unpacklo_pd(c[4], c[5]), hi = _mm256_unpackhi_pd(c[4], c[5]);
    const __m128d pairs[4] = {_mm256_castpd256_pd128(lo), _mm256_castpd256_pd128(hi),
                              _mm256_extractf128_pd(lo, 1), _mm256_extractf128_pd(hi, 1)};
    for (int q = 0; q < 4; q++) {
        _mm256_storeu_pd(dst + (ptrdiff_t)(p + q) * NR, r[q]);
        _mm_storeu_pd(dst + (ptrdiff_t)(p + q) * NR + 4, pairs[q]);
    }
}

void gemm_pack_b_avx2(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                      int first_panel, int last_panel, int nr, double *restrict out)
{
    if (nr != NR) {
        gemm_pack_b(b, p0, kc, j0, n_block, first_panel, last_panel, nr, out);
        return;
    }
    for (int jp = first_panel; jp < last_panel; jp++) {
        const int j_first = jp * NR;
        if (n_block - j_first < NR) { /* the last panel, zero-padded */
            gemm_pack_b(b, p0, kc, j0, n_block, jp, jp + 1, nr, out);
            continue;
        }
        double *panel = out + (ptrdiff_t)jp * NR * kc;
        if (b->trans) {
            /* Row p of op(B) is column p of B: 6 contiguous doubles, as 4 + 2. */
            for (int p = 0; p < kc; p++) {
                const double *row = b->p + (j0 + j_first) + (p0 + p) * b->ld;
                _mm256_storeu_pd(panel + (ptrdiff_t)p * NR, _mm256_loadu_pd(row));
                _mm_storeu_pd(panel + (ptrdiff_t)p * NR + 4, _mm_loadu_pd(row + 4));
            }
            continue;
        }
        const double *col[NR];
        for (int j = 0; j < NR; j++)
            col[j] = b->p + p0 + (j0 + j_first + j) * b->ld;
        int p = 0;
        for (; p + 4 <= kc; p += 4)
            pack_b_rows4(col, p, panel);
        for (; p < kc; p++)
            for (int j = 0; j < NR; j++)
                panel[(ptrdiff_t)p * NR + j] = col[j][p];
    }
}
#else
void gemm_transpose_avx2(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                         double *restrict t, ptrdiff_t ldt)
{
    gemm_transpose(a, lda, rows, cols, t, ldt);
}

void gemm_pack_a_avx2(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                      double alpha, int mr, double *restrict out)
{
    gemm_pack_a(a, i0, mc, p0, kc, alpha, mr, out);
}

void gemm_pack_b_avx2(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                      int first_panel, int last_panel, int nr, double *restrict out)
{
    gemm_pack_b(b, p0, kc, j0, n_block, first_panel, last_panel, nr, out);
}
#endif
