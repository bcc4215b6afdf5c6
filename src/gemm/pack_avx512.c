/* pack_avx512.c — packing for the 16 x 12 AVX-512 kernel, compiled with its
 * flags (CMakeLists.txt). The portable packers in pack.c move two doubles
 * per instruction; these move eight and transpose 8 x 8 blocks in
 * registers, which took a good part of the packing's time off a large
 * GEMM (docs/gemm.md, "Micro-kernels"). */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* Micro-panels packed together (see gemm_pack_a_avx512). */
enum { MR = 16, NR = 12, PACK_GROUP = 4 };

static inline __mmask8 first_lanes(int count)
{
    return (__mmask8)(count >= 8 ? 0xffu : (1u << count) - 1u);
}

/* Reads `rows` strips of 8 contiguous doubles (strip i at src + i * ld),
 * writes them transposed: dst + q * ld_dst receives element q of each
 * strip in its first `rows` lanes and zeros up to `width` lanes (a panel's padding: as loops
 * of scalar zeros, GCC made them a memset call per row, a tenth of trmm 32). */
static inline void transpose_strips(const double *src, ptrdiff_t ld, int rows, int width,
                                    __m512d scale, double *dst, ptrdiff_t ld_dst)
{
    __m512d r[8];
    for (int i = 0; i < 8; i++)
        r[i] = i < rows ? _mm512_mul_pd(scale, _mm512_loadu_pd(src + i * ld)) : _mm512_setzero_pd();
    gemm_transpose8_avx512(r);
    const __mmask8 lanes = first_lanes(width);
    for (int q = 0; q < 8; q++)
        _mm512_mask_storeu_pd(dst + q * ld_dst, lanes, r[q]);
}

void gemm_transpose_avx512(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                           double *restrict t, ptrdiff_t ldt)
{
    /* 8 x 8 blocks in registers: the scalar copy, one strided store per
     * element, was slow (docs/gemm.md, "`tela_dsyrk`"). */
    const __m512d one = _mm512_set1_pd(1.0);
    const ptrdiff_t full = rows / 8 * 8;
    for (ptrdiff_t j0 = 0; j0 < cols; j0 += 8) {
        const int strips = cols - j0 < 8 ? (int)(cols - j0) : 8;
        for (ptrdiff_t i0 = 0; i0 < full; i0 += 8)
            transpose_strips(a + i0 + j0 * lda, lda, strips, strips, one, t + j0 + i0 * ldt, ldt);
        for (ptrdiff_t i = full; i < rows; i++)
            for (int j = 0; j < strips; j++)
                t[j0 + j + i * ldt] = a[i + (j0 + j) * lda];
    }
}

void gemm_pack_a_avx512(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                        double alpha, int mr, double *restrict out)
{
    (void)mr; /* always MR */
    const __m512d va = _mm512_set1_pd(alpha);
    if (!a->trans) {
        /* PACK_GROUP micro-panels at a time, column by column: each column's
         * 64 rows are read as one run of whole lines. Panel by panel (16
         * rows of every column, then the next 16), each line read held half
         * a panel's rows and came back later from L3 (docs/gemm.md,
         * "Micro-kernels"); all panels at once spread the writes over as
         * many streams kc * 16 doubles apart, one L1 set. */
        const int full = mc / MR * MR, rest = mc - full;
        const __mmask8 lo = first_lanes(rest), hi = first_lanes(rest > 8 ? rest - 8 : 0);
        for (int g = 0; g < full; g += PACK_GROUP * MR) {
            const int g_end = full - g < PACK_GROUP * MR ? full : g + PACK_GROUP * MR;
            for (int p = 0; p < kc; p++) {
                const double *col = a->p + i0 + (p0 + p) * a->ld;
                double *dst = out + (ptrdiff_t)p * MR;
                for (int r = g; r < g_end; r += MR) {
                    _mm512_store_pd(dst + (ptrdiff_t)r * kc,
                                    _mm512_mul_pd(va, _mm512_loadu_pd(col + r)));
                    _mm512_store_pd(dst + (ptrdiff_t)r * kc + 8,
                                    _mm512_mul_pd(va, _mm512_loadu_pd(col + r + 8)));
                }
            }
        }
        if (rest > 0) {
            for (int p = 0; p < kc; p++) {
                const double *col = a->p + i0 + full + (p0 + p) * a->ld;
                double *dst = out + (ptrdiff_t)full * kc + (ptrdiff_t)p * MR;
                _mm512_store_pd(dst, _mm512_mul_pd(va, _mm512_maskz_loadu_pd(lo, col)));
                _mm512_store_pd(dst + 8, _mm512_mul_pd(va, _mm512_maskz_loadu_pd(hi, col + 8)));
            }
        }
        return;
    }
    for (int r = 0; r < mc; r += MR) {
        const int rows = mc - r < MR ? mc - r : MR;
        double *panel = out + (ptrdiff_t)r * kc;
        /* Row i of op(A) is column i of A, contiguous along p: 8 x 8 blocks
         * are transposed in registers. */
        const double *row = a->p + p0 + (i0 + r) * a->ld;
        int p = 0;
        for (; p + 8 <= kc; p += 8) {
            for (int half = 0; half < 2; half++) {
                const int strips = rows - 8 * half < 8 ? rows - 8 * half : 8;
                if (strips > 0)
                    transpose_strips(row + p + (ptrdiff_t)8 * half * a->ld, a->ld, strips, 8, va,
                                     panel + (ptrdiff_t)p * MR + (ptrdiff_t)8 * half, MR);
                else
                    for (int q = 0; q < 8; q++)
                        _mm512_store_pd(panel + (ptrdiff_t)(p + q) * MR + 8, _mm512_setzero_pd());
            }
        }
        for (; p < kc; p++)
            for (int i = 0; i < MR; i++)
                panel[p * MR + i] = i < rows ? alpha * row[p + i * a->ld] : 0.0;
    }
}

void gemm_pack_a_from_b_avx512(const double *b, int kc, ptrdiff_t r0, int rows, double alpha,
                               double *restrict out)
{
    const __m512d va = _mm512_set1_pd(alpha);
    for (int t = 0; t < rows; t += MR) {
        double *panel = out + (ptrdiff_t)t * kc;
        /* Each half (8 rows) of the micro-panel lies in at most two B panels (12 lanes wide):
         * n1 lanes from lane l of panel q, n2 from lane 0 of the next, merged by one permute;
         * rows past the end are zero, as gemm_pack_a_avx512 pads them. */
        const double *first[2], *second[2];
        __mmask8 take1[2], take2[2];
        __m512i merge[2];
        for (int h = 0; h < 2; h++) {
            const int wanted = rows - t - 8 * h, count = wanted < 0 ? 0 : wanted > 8 ? 8 : wanted;
            const ptrdiff_t r = r0 + t + (ptrdiff_t)8 * h, q = r / NR;
            const int l = (int)(r % NR), n1 = count < NR - l ? count : NR - l, n2 = count - n1;
            long long index[8];
            for (int i = 0; i < 8; i++)
                index[i] = i < n1 ? i : 8 + (i - n1);
            first[h] = count > 0 ? b + q * NR * kc + l : b; /* no panel past the block's */
            second[h] = n2 > 0 ? b + (q + 1) * NR * kc : first[h];
            take1[h] = first_lanes(n1);
            take2[h] = first_lanes(n2);
            merge[h] = _mm512_loadu_si512(index);
        }
        for (int p = 0; p < kc; p++) {
            for (int h = 0; h < 2; h++) {
                const __m512d x = _mm512_maskz_loadu_pd(take1[h], first[h] + (ptrdiff_t)p * NR);
                const __m512d y = _mm512_maskz_loadu_pd(take2[h], second[h] + (ptrdiff_t)p * NR);
                _mm512_store_pd(panel + (ptrdiff_t)p * MR + (ptrdiff_t)8 * h,
                                _mm512_mul_pd(va, _mm512_permutex2var_pd(x, merge[h], y)));
            }
        }
    }
}

void gemm_pack_b_avx512(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                        int first_panel, int last_panel, int nr, double *restrict out)
{
    (void)nr; /* always NR */
    const __m512d one = _mm512_set1_pd(1.0);
    if (b->trans) {
        /* Row p of op(B) is column p of B, contiguous along j: PACK_GROUP
         * panels at a time, row by row, so each row's 48 doubles are read
         * as one run (see gemm_pack_a_avx512). */
        const int full_end =
            n_block / NR * NR < last_panel * NR ? n_block / NR * NR : last_panel * NR;
        const int rest = last_panel * NR > full_end ? n_block - full_end : 0;
        for (int g = first_panel * NR; g < full_end; g += PACK_GROUP * NR) {
            const int g_end = full_end - g < PACK_GROUP * NR ? full_end : g + PACK_GROUP * NR;
            for (int p = 0; p < kc; p++) {
                const double *row = b->p + j0 + (p0 + p) * b->ld;
                double *dst = out + (ptrdiff_t)p * NR;
                for (int j = g; j < g_end; j += NR) {
                    _mm512_storeu_pd(dst + (ptrdiff_t)j * kc, _mm512_loadu_pd(row + j));
                    _mm256_storeu_pd(dst + (ptrdiff_t)j * kc + 8, _mm256_loadu_pd(row + j + 8));
                }
            }
        }
        if (rest > 0) {
            const __mmask8 lo = first_lanes(rest), hi = first_lanes(rest > 8 ? rest - 8 : 0);
            for (int p = 0; p < kc; p++) {
                const double *row = b->p + j0 + full_end + (p0 + p) * b->ld;
                double *dst = out + (ptrdiff_t)full_end * kc + (ptrdiff_t)p * NR;
                _mm512_storeu_pd(dst, _mm512_maskz_loadu_pd(lo, row));
                _mm512_mask_storeu_pd(dst + 8, 0x0f, _mm512_maskz_loadu_pd(hi, row + 8));
            }
        }
        return;
    }
    for (int jp = first_panel; jp < last_panel; jp++) {
        const int j_first = jp * NR;
        const int cols = n_block - j_first < NR ? n_block - j_first : NR;
        double *panel = out + (ptrdiff_t)jp * NR * kc;
        /* Column j of op(B) is contiguous along p: columns 0-7 and 8-11 of
         * the panel are transposed in 8-deep steps. */
        const double *col = b->p + p0 + (j0 + j_first) * b->ld;
        const int left = cols < 8 ? cols : 8, right = cols > 8 ? cols - 8 : 0;
        int p = 0;
        for (; p + 8 <= kc; p += 8) {
            transpose_strips(col + p, b->ld, left, 8, one, panel + (ptrdiff_t)p * NR, NR);
            transpose_strips(right > 0 ? col + p + 8 * b->ld : col, b->ld, right, NR - 8, one,
                             panel + (ptrdiff_t)p * NR + 8, NR);
        }
        for (; p < kc; p++)
            for (int j = 0; j < NR; j++)
                panel[p * NR + j] = j < cols ? col[p + j * b->ld] : 0.0;
    }
}
#else
void gemm_pack_a_avx512(const gemm_operand *a, ptrdiff_t i0, int mc, ptrdiff_t p0, int kc,
                        double alpha, int mr, double *restrict out)
{
    gemm_pack_a(a, i0, mc, p0, kc, alpha, mr, out); /* never selected off x86-64 */
}

void gemm_pack_a_from_b_avx512(const double *b, int kc, ptrdiff_t r0, int rows, double alpha,
                               double *restrict out)
{
    (void)b, (void)kc, (void)r0, (void)rows, (void)alpha, (void)out; /* never selected */
}

void gemm_pack_b_avx512(const gemm_operand *b, ptrdiff_t p0, int kc, ptrdiff_t j0, int n_block,
                        int first_panel, int last_panel, int nr, double *restrict out)
{
    gemm_pack_b(b, p0, kc, j0, n_block, first_panel, last_panel, nr, out);
}

void gemm_transpose_avx512(const double *a, ptrdiff_t lda, ptrdiff_t rows, ptrdiff_t cols,
                           double *restrict t, ptrdiff_t ldt)
{
    gemm_transpose(a, lda, rows, cols, t, ldt);
}
#endif
