/* small_avx512.c — dgemm's small path for AVX-512F + FMA: no packing, C's columns in blocks of
 * 4 and rows in blocks of 8 (masked at the edge) held in registers over k, for products too small
 * to amortise packing. Compiled with -mavx512f -mfma (CMakeLists.txt), chosen by the registry. */
#include "gemm/gemm.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* A is read in place when untransposed; op(A) = A^T is read row by row as dot products along k
 * (contiguous in A). Serial only: nothing here is split. */

/* Up to 8 rows of one column: C = alpha acc + beta C (beta = 0: C not read). */
static inline void small_store_half(double *c, __mmask8 rows, __m512d acc, __m512d va, __m512d vb,
                                    double beta)
{
    __m512d r = _mm512_mul_pd(va, acc);
    if (beta != 0.0)
        r = _mm512_fmadd_pd(vb, _mm512_maskz_loadu_pd(rows, c), r);
    _mm512_mask_storeu_pd(c, rows, r);
}

/* One column of a 16-row block. */
static inline void small_store(double *c, __mmask8 lo, __mmask8 hi, __m512d acc0, __m512d acc1,
                               __m512d va, __m512d vb, double beta)
{
    small_store_half(c, lo, acc0, va, vb, beta);
    small_store_half(c + 8, hi, acc1, va, vb, beta);
}

/* 16 rows x up to 4 columns of C: 8 independent FMA chains. Missing
 * columns repeat the last one (computed, never stored): the accumulators
 * stay in registers without a branch per column. */
static void small_block4(const gemm_problem *pr, ptrdiff_t i0, __mmask8 lo, __mmask8 hi,
                         const double *b, ptrdiff_t step_p, ptrdiff_t step_j, int cols, double *cq,
                         __m512d va, __m512d vb)
{
    const double *b0 = b;
    const double *b1 = b0 + (cols > 1 ? 1 : 0) * step_j;
    const double *b2 = b0 + (cols > 2 ? 2 : cols - 1) * step_j;
    const double *b3 = b0 + (cols > 3 ? 3 : cols - 1) * step_j;
    __m512d c0 = _mm512_setzero_pd(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
    const double *a = pr->a.p + i0;
    const ptrdiff_t lda = pr->a.ld, k = pr->k;
    for (ptrdiff_t p = 0; p < k; p++, a += lda) {
        const __m512d a0 = _mm512_maskz_loadu_pd(lo, a);
        const __m512d a1 = _mm512_maskz_loadu_pd(hi, a + 8);
        const ptrdiff_t off = p * step_p;
        const __m512d v0 = _mm512_set1_pd(b0[off]), v1 = _mm512_set1_pd(b1[off]);
        const __m512d v2 = _mm512_set1_pd(b2[off]), v3 = _mm512_set1_pd(b3[off]);
        c0 = _mm512_fmadd_pd(a0, v0, c0);
        c1 = _mm512_fmadd_pd(a1, v0, c1);
        c2 = _mm512_fmadd_pd(a0, v1, c2);
        c3 = _mm512_fmadd_pd(a1, v1, c3);
        c4 = _mm512_fmadd_pd(a0, v2, c4);
        c5 = _mm512_fmadd_pd(a1, v2, c5);
        c6 = _mm512_fmadd_pd(a0, v3, c6);
        c7 = _mm512_fmadd_pd(a1, v3, c7);
    }
    const double beta = pr->beta;
    small_store(cq, lo, hi, c0, c1, va, vb, beta);
    if (cols > 1)
        small_store(cq + pr->ldc, lo, hi, c2, c3, va, vb, beta);
    if (cols > 2)
        small_store(cq + 2 * pr->ldc, lo, hi, c4, c5, va, vb, beta);
    if (cols > 3)
        small_store(cq + 3 * pr->ldc, lo, hi, c6, c7, va, vb, beta);
}

/* 16 rows x 5 to 8 columns: 16 chains, so the FMA units stay fed while
 * the loads of A and B (no packing here) keep up. */
static void small_block8(const gemm_problem *pr, ptrdiff_t i0, __mmask8 lo, __mmask8 hi,
                         const double *b, ptrdiff_t step_p, ptrdiff_t step_j, int cols, double *cq,
                         __m512d va, __m512d vb)
{
    const double *bj[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        bj[j] = b + (j < cols ? j : cols - 1) * step_j;
    __m512d c_lo[8], c_hi[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        c_lo[j] = c_hi[j] = _mm512_setzero_pd();
    const double *a = pr->a.p + i0;
    const ptrdiff_t lda = pr->a.ld, k = pr->k;
    for (ptrdiff_t p = 0; p < k; p++, a += lda) {
        const __m512d a0 = _mm512_maskz_loadu_pd(lo, a);
        const __m512d a1 = _mm512_maskz_loadu_pd(hi, a + 8);
        const ptrdiff_t off = p * step_p;
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++) {
            const __m512d v = _mm512_set1_pd(bj[j][off]);
            c_lo[j] = _mm512_fmadd_pd(a0, v, c_lo[j]);
            c_hi[j] = _mm512_fmadd_pd(a1, v, c_hi[j]);
        }
    }
    /* Constant indices only: a variable one made gcc keep the
     * accumulators in memory inside the k loop. */
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        if (j < cols)
            small_store(cq + j * pr->ldc, lo, hi, c_lo[j], c_hi[j], va, vb, pr->beta);
}

/* A whole 16 x 8 block: no masks, and B's columns reached from two
 * pointers, four columns apart, so the k loop keeps its 16 accumulators,
 * A's two vectors and the broadcast in registers (small_block8's eight
 * clamped pointers and its masks were spilled to the stack there, reloaded
 * every step). The same operations in the same order as small_block8. */
static void small_whole8(const gemm_problem *pr, ptrdiff_t i0, const double *b, ptrdiff_t step_p,
                         ptrdiff_t step_j, double *cq, __m512d va, __m512d vb)
{
    __m512d c_lo[8], c_hi[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        c_lo[j] = c_hi[j] = _mm512_setzero_pd();
    const double *a = pr->a.p + i0, *b4 = b + 4 * step_j;
    const ptrdiff_t lda = pr->a.ld, k = pr->k;
    for (ptrdiff_t p = 0; p < k; p++, a += lda, b += step_p, b4 += step_p) {
        const __m512d a0 = _mm512_loadu_pd(a);
        const __m512d a1 = _mm512_loadu_pd(a + 8);
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            const __m512d v = _mm512_set1_pd(b[j * step_j]);
            c_lo[j] = _mm512_fmadd_pd(a0, v, c_lo[j]);
            c_hi[j] = _mm512_fmadd_pd(a1, v, c_hi[j]);
        }
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) {
            const __m512d v = _mm512_set1_pd(b4[j * step_j]);
            c_lo[4 + j] = _mm512_fmadd_pd(a0, v, c_lo[4 + j]);
            c_hi[4 + j] = _mm512_fmadd_pd(a1, v, c_hi[4 + j]);
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        small_store(cq + j * pr->ldc, 0xff, 0xff, c_lo[j], c_hi[j], va, vb, pr->beta);
}

/* At most 8 rows x 8 columns: one vector a column (the blocks above also
 * compute a second, masked-off one), the mask held in one register. */
static void small_short8(const gemm_problem *pr, ptrdiff_t i0, __mmask8 lo, const double *b,
                         ptrdiff_t step_p, ptrdiff_t step_j, double *cq, __m512d va, __m512d vb)
{
    __m512d acc[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        acc[j] = _mm512_setzero_pd();
    const double *a = pr->a.p + i0;
    const ptrdiff_t lda = pr->a.ld, k = pr->k;
    for (ptrdiff_t p = 0; p < k; p++, a += lda, b += step_p) {
        const __m512d a0 = _mm512_maskz_loadu_pd(lo, a);
#pragma GCC unroll 8
        for (int j = 0; j < 8; j++)
            acc[j] = _mm512_fmadd_pd(a0, _mm512_set1_pd(b[j * step_j]), acc[j]);
    }
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        small_store_half(cq + j * pr->ldc, lo, acc[j], va, vb, pr->beta);
}

void gemm_small_avx512(const gemm_problem *pr)
{
    const ptrdiff_t m = pr->m, n = pr->n, k = pr->k;
    const double alpha = pr->alpha, beta = pr->beta;
    if (pr->a.trans && m * k <= GEMM_SMALL_TRANSPOSE_MAX) {
        /* op(A) = A^T, small: transposed onto the stack, then the fast form. */
        double at[GEMM_SMALL_TRANSPOSE_MAX];
        gemm_transpose_avx512(pr->a.p, pr->a.ld, k, m, at, m);
        gemm_problem copy = *pr;
        copy.a = (gemm_operand){at, m, false};
        gemm_small_avx512(&copy);
        return;
    }
    if (pr->a.trans) {
        for (ptrdiff_t j = 0; j < n; j++) {
            for (ptrdiff_t i = 0; i < m; i++) {
                const double *row = pr->a.p + i * pr->a.ld;
                __m512d acc = _mm512_setzero_pd();
                ptrdiff_t p = 0;
                for (; p + 8 <= k; p += 8) {
                    __m512d bv =
                        pr->b.trans
                            ? _mm512_set_pd(gemm_at(&pr->b, p + 7, j), gemm_at(&pr->b, p + 6, j),
                                            gemm_at(&pr->b, p + 5, j), gemm_at(&pr->b, p + 4, j),
                                            gemm_at(&pr->b, p + 3, j), gemm_at(&pr->b, p + 2, j),
                                            gemm_at(&pr->b, p + 1, j), gemm_at(&pr->b, p, j))
                            : _mm512_loadu_pd(pr->b.p + p + j * pr->b.ld);
                    acc = _mm512_fmadd_pd(_mm512_loadu_pd(row + p), bv, acc);
                }
                double sum = _mm512_reduce_add_pd(acc);
                for (; p < k; p++)
                    sum += row[p] * gemm_at(&pr->b, p, j);
                double *cij = pr->c + i + j * pr->ldc;
                *cij = beta == 0.0 ? alpha * sum : alpha * sum + beta * *cij;
            }
        }
        return;
    }
    const __m512d va = _mm512_set1_pd(alpha), vb = _mm512_set1_pd(beta);
    /* op(B)(p, j) = bb[p * step_p + j * step_j]. */
    const ptrdiff_t step_p = pr->b.trans ? pr->b.ld : 1, step_j = pr->b.trans ? 1 : pr->b.ld;
    for (ptrdiff_t j0 = 0; j0 < n;) {
        const int cols = n - j0 < 8 ? (int)(n - j0) : 8;
        for (ptrdiff_t i0 = 0; i0 < m; i0 += 16) {
            const int rows = m - i0 < 16 ? (int)(m - i0) : 16;
            const __mmask8 lo = (__mmask8)(rows >= 8 ? 0xffu : (1u << rows) - 1u);
            const __mmask8 hi = (__mmask8)(rows <= 8 ? 0u : (1u << (rows - 8)) - 1u);
            double *cq = pr->c + i0 + j0 * pr->ldc;
            if (cols == 8 && rows == 16)
                small_whole8(pr, i0, pr->b.p + j0 * step_j, step_p, step_j, cq, va, vb);
            else if (cols == 8 && rows <= 8)
                small_short8(pr, i0, lo, pr->b.p + j0 * step_j, step_p, step_j, cq, va, vb);
            else if (cols > 4)
                small_block8(pr, i0, lo, hi, pr->b.p + j0 * step_j, step_p, step_j, cols, cq, va,
                             vb);
            else
                small_block4(pr, i0, lo, hi, pr->b.p + j0 * step_j, step_p, step_j, cols, cq, va,
                             vb);
        }
        j0 += cols > 4 ? 8 : 4;
    }
}
#else
void gemm_small_avx512(const gemm_problem *pr)
{
    gemm_small(pr);
}
#endif
