/* loops_avx512.c — the level-1 loops on zmm registers (compiled with -mavx512f -mfma), for data
 * that fit in L1: there two 512-bit loads a cycle double what 256-bit ones bring. Longer stretches
 * run loops_avx2.c's loops instead: streamed from L2 or memory, 256-bit loads kept up with
 * OpenBLAS's AVX2 kernels on Zen 5 where 512-bit ones fell 5-20% behind (and further when both
 * operands were misaligned). Every AVX-512F CPU runs AVX2 and FMA, and the choice depends on the
 * length alone, so a stretch still gives the same bits wherever it is computed.
 *
 * Sums in four accumulators; the last partial vector through a mask, so no element takes a scalar
 * path. */
#include "level1/level1.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* Accumulators of the sums (and vectors a step): four, as the AVX2 loops (eight were slower). */
#define ACC ((tela_int)4)
/* Longest stretch, in elements, of a one- and a two-operand loop kept on zmm registers: 32 KiB
 * of data, in a 48 KiB L1 with room to spare. */
#define ZMM_MAX_1 4096
#define ZMM_MAX_2 2048
/* Elements whose largest |x| amax finds before looking for where it is: the second look reads
 * them from L1, and happens only when the largest so far grows. */
#define AMAX_CHUNK 512

/* The first r (< 8) lanes. */
static inline __mmask8 tail_mask(tela_int r)
{
    return (__mmask8)((1u << r) - 1u);
}

/* Adds the accumulators pairwise, always in the same order. */
static inline double sum_acc(__m512d acc[ACC])
{
    for (int w = ACC / 2; w >= 1; w /= 2)
        for (tela_int k = 0; k < w; k++)
            acc[k] = _mm512_add_pd(acc[k], acc[k + w]);
    return _mm512_reduce_add_pd(acc[0]);
}

/* The dot's steps of ACC vectors, elements [0, end) (end a multiple of 8 ACC), with x and y read
 * from their next line on: `head` elements before it. Where the steps put element e in lane e % 8
 * of acc[(e / 8) % ACC], the aligned vectors hold elements head + 8 v + r: each accumulator lane
 * is moved (two-source permutes, exact) to where those elements land, the vectors added, and the
 * lanes moved back. Every lane adds the same elements in the same order as the steps from
 * element 0 would, and the masked head and last vector leave the other lanes as they are: the
 * same bits wherever x and y sit. */
static inline void dot_steps_headed(const double *x, const double *y, tela_int end, tela_int head,
                                    __m512d acc[ACC])
{
    const __mmask8 first = tail_mask(head), last = tail_mask(8 - head);
    acc[0] = _mm512_mask3_fmadd_pd(_mm512_maskz_loadu_pd(first, x), _mm512_maskz_loadu_pd(first, y),
                                   acc[0], first);
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    /* Lane r of aligned vector v is element head + 8 v + r: lane (r + head) % 8 of the steps'
     * accumulator (v + [r + head >= 8]) % ACC. */
    const __m512i to_aligned = _mm512_add_epi64(lane, _mm512_set1_epi64(head));
    const __m512i back = _mm512_add_epi64(lane, _mm512_set1_epi64(8 - head));
    __m512d al[ACC];
    for (tela_int k = 0; k < ACC; k++)
        al[k] = _mm512_permutex2var_pd(acc[k], to_aligned, acc[(k + 1) % ACC]);
    const double *xa = x + head, *ya = y + head;
    const tela_int full = (end - head) / 8;
    tela_int v = 0;
    for (; v + ACC <= full; v += ACC)
        for (tela_int k = 0; k < ACC; k++)
            al[k] = _mm512_fmadd_pd(_mm512_load_pd(xa + 8 * (v + k)),
                                    _mm512_load_pd(ya + 8 * (v + k)), al[k]);
    for (; v < full; v++)
        al[v % ACC] =
            _mm512_fmadd_pd(_mm512_load_pd(xa + 8 * v), _mm512_load_pd(ya + 8 * v), al[v % ACC]);
    al[full % ACC] =
        _mm512_mask3_fmadd_pd(_mm512_maskz_load_pd(last, xa + 8 * full),
                              _mm512_maskz_load_pd(last, ya + 8 * full), al[full % ACC], last);
    for (tela_int k = 0; k < ACC; k++)
        acc[k] = _mm512_permutex2var_pd(al[(k + ACC - 1) % ACC], back, al[k]);
}

/* The dot on zmm registers at any length (select.c's choice on Intel's cores). */
LEVEL1_INDEXED double level1_dot_zmm(tela_int n, const double *x, const double *y)
{
    __m512d acc[ACC];
    for (tela_int k = 0; k < ACC; k++)
        acc[k] = _mm512_setzero_pd();
    tela_int i = 0;
    const tela_int steps_end = n / (8 * ACC) * (8 * ACC);
    const tela_int head = steps_end >= 16 * ACC ? level1_head(x, y, n, 64, 0) : 0;
    if (head) {
        dot_steps_headed(x, y, steps_end, head, acc);
        i = steps_end;
    }
    for (; i + 8 * ACC <= n; i += 8 * ACC)
        for (tela_int k = 0; k < ACC; k++)
            acc[k] = _mm512_fmadd_pd(_mm512_loadu_pd(x + i + 8 * k), _mm512_loadu_pd(y + i + 8 * k),
                                     acc[k]);
    for (; i + 8 <= n; i += 8)
        acc[0] = _mm512_fmadd_pd(_mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i), acc[0]);
    if (i < n) {
        const __mmask8 m = tail_mask(n - i);
        acc[ACC - 1] = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(m, x + i),
                                       _mm512_maskz_loadu_pd(m, y + i), acc[ACC - 1]);
    }
    return sum_acc(acc);
}

static double dot_avx512(tela_int n, const double *x, const double *y)
{
    return n > ZMM_MAX_2 ? level1_dot_avx2(n, x, y) : level1_dot_zmm(n, x, y);
}

static LEVEL1_INDEXED void axpy_avx512(tela_int n, double alpha, const double *x, double *y)
{
    if (n > ZMM_MAX_2) {
        level1_axpy_avx2(n, alpha, x, y);
        return;
    }
    const __m512d a = _mm512_set1_pd(alpha);
    tela_int i = 0;
    /* To x's and y's next line where they share an offset: one fma an element wherever its
     * vector starts, so the same bits (level1_head). */
    const tela_int head = level1_head(x, y, n, 64, 32);
    if (head) {
        const __mmask8 m = tail_mask(head);
        _mm512_mask_storeu_pd(
            y, m, _mm512_fmadd_pd(a, _mm512_maskz_loadu_pd(m, x), _mm512_maskz_loadu_pd(m, y)));
        i = head;
    }
    for (; i + 32 <= n; i += 32) {
        /* Every load of the step before any store (see loops_avx2.c). */
        __m512d v[4];
        for (tela_int k = 0; k < 4; k++)
            v[k] =
                _mm512_fmadd_pd(a, _mm512_loadu_pd(x + i + 8 * k), _mm512_loadu_pd(y + i + 8 * k));
        for (tela_int k = 0; k < 4; k++)
            _mm512_storeu_pd(y + i + 8 * k, v[k]);
    }
    for (; i + 8 <= n; i += 8)
        _mm512_storeu_pd(y + i, _mm512_fmadd_pd(a, _mm512_loadu_pd(x + i), _mm512_loadu_pd(y + i)));
    if (i < n) {
        const __mmask8 m = tail_mask(n - i);
        _mm512_mask_storeu_pd(
            y + i, m,
            _mm512_fmadd_pd(a, _mm512_maskz_loadu_pd(m, x + i), _mm512_maskz_loadu_pd(m, y + i)));
    }
}

static LEVEL1_INDEXED void scal_avx512(tela_int n, double alpha, double *x)
{
    if (n > ZMM_MAX_1) {
        level1_scal_avx2(n, alpha, x);
        return;
    }
    const __m512d a = _mm512_set1_pd(alpha);
    tela_int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512d v[4];
        for (tela_int k = 0; k < 4; k++)
            v[k] = _mm512_mul_pd(a, _mm512_loadu_pd(x + i + 8 * k));
        for (tela_int k = 0; k < 4; k++)
            _mm512_storeu_pd(x + i + 8 * k, v[k]);
    }
    for (; i + 8 <= n; i += 8)
        _mm512_storeu_pd(x + i, _mm512_mul_pd(a, _mm512_loadu_pd(x + i)));
    if (i < n) {
        const __mmask8 m = tail_mask(n - i);
        _mm512_mask_storeu_pd(x + i, m, _mm512_mul_pd(a, _mm512_maskz_loadu_pd(m, x + i)));
    }
}

static LEVEL1_INDEXED void swap_avx512(tela_int n, double *x, double *y)
{
    if (n > ZMM_MAX_2) {
        level1_swap_avx2(n, x, y);
        return;
    }
    tela_int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512d xv[4], yv[4];
        for (tela_int k = 0; k < 4; k++) {
            xv[k] = _mm512_loadu_pd(x + i + 8 * k);
            yv[k] = _mm512_loadu_pd(y + i + 8 * k);
        }
        for (tela_int k = 0; k < 4; k++) {
            _mm512_storeu_pd(x + i + 8 * k, yv[k]);
            _mm512_storeu_pd(y + i + 8 * k, xv[k]);
        }
    }
    for (; i + 8 <= n; i += 8) {
        const __m512d xv = _mm512_loadu_pd(x + i), yv = _mm512_loadu_pd(y + i);
        _mm512_storeu_pd(x + i, yv);
        _mm512_storeu_pd(y + i, xv);
    }
    if (i < n) {
        const __mmask8 m = tail_mask(n - i);
        const __m512d xv = _mm512_maskz_loadu_pd(m, x + i), yv = _mm512_maskz_loadu_pd(m, y + i);
        _mm512_mask_storeu_pd(x + i, m, yv);
        _mm512_mask_storeu_pd(y + i, m, xv);
    }
}

static LEVEL1_INDEXED double asum_avx512(tela_int n, const double *x)
{
    if (n > ZMM_MAX_1)
        return level1_asum_avx2(n, x);
    __m512d acc[ACC];
    for (tela_int k = 0; k < ACC; k++)
        acc[k] = _mm512_setzero_pd();
    tela_int i = 0;
    for (; i + 8 * ACC <= n; i += 8 * ACC)
        for (tela_int k = 0; k < ACC; k++)
            acc[k] = _mm512_add_pd(acc[k], _mm512_abs_pd(_mm512_loadu_pd(x + i + 8 * k)));
    for (; i + 8 <= n; i += 8)
        acc[0] = _mm512_add_pd(acc[0], _mm512_abs_pd(_mm512_loadu_pd(x + i)));
    if (i < n)
        acc[ACC - 1] = _mm512_add_pd(acc[ACC - 1],
                                     _mm512_abs_pd(_mm512_maskz_loadu_pd(tail_mask(n - i), x + i)));
    return sum_acc(acc);
}

/* Blue's sums of 8 elements into one set of accumulators: each |x| squared into the sum of its
 * range, scaled first; lanes of the other ranges add exact zeros. */
static inline void ssq_step(__m512d x, __m512d *small, __m512d *medium, __m512d *big)
{
    const __m512d ax = _mm512_abs_pd(x);
    const __mmask8 is_big = _mm512_cmp_pd_mask(ax, _mm512_set1_pd(LEVEL1_TBIG), _CMP_GT_OQ);
    const __mmask8 is_small = _mm512_cmp_pd_mask(ax, _mm512_set1_pd(LEVEL1_TSML), _CMP_LT_OQ);
    /* Neither: the medium range, NaN included (both comparisons false). */
    const __mmask8 is_medium = (__mmask8) ~(is_big | is_small);
    const __m512d tb = _mm512_maskz_mul_pd(is_big, ax, _mm512_set1_pd(LEVEL1_SBIG));
    const __m512d ts = _mm512_maskz_mul_pd(is_small, ax, _mm512_set1_pd(LEVEL1_SSML));
    const __m512d tm = _mm512_maskz_mov_pd(is_medium, ax);
    *big = _mm512_fmadd_pd(tb, tb, *big);
    *small = _mm512_fmadd_pd(ts, ts, *small);
    *medium = _mm512_fmadd_pd(tm, tm, *medium);
}

static LEVEL1_INDEXED level1_ssq ssq_avx512(tela_int n, const double *x)
{
    __m512d s[2], m[2], b[2];
    for (tela_int k = 0; k < 2; k++)
        s[k] = m[k] = b[k] = _mm512_setzero_pd();
    tela_int i = 0;
    for (; i + 16 <= n; i += 16)
        for (tela_int k = 0; k < 2; k++)
            ssq_step(_mm512_loadu_pd(x + i + 8 * k), &s[k], &m[k], &b[k]);
    if (i + 8 <= n) {
        ssq_step(_mm512_loadu_pd(x + i), &s[0], &m[0], &b[0]);
        i += 8;
    }
    if (i < n) /* the missing lanes load as 0: small, adding 0 */
        ssq_step(_mm512_maskz_loadu_pd(tail_mask(n - i), x + i), &s[1], &m[1], &b[1]);
    level1_ssq acc = {
        .small = _mm512_reduce_add_pd(_mm512_add_pd(s[0], s[1])),
        .medium = _mm512_reduce_add_pd(_mm512_add_pd(m[0], m[1])),
        .big = _mm512_reduce_add_pd(_mm512_add_pd(b[0], b[1])),
    };
    return acc;
}

/* The largest |x_i| of len elements, NaN skipped (vmaxpd returns its second operand when either
 * is NaN), -1 if all are NaN. */
static LEVEL1_INDEXED double chunk_max(tela_int len, const double *x)
{
    const __m512d none = _mm512_set1_pd(-1.0);
    __m512d acc[4] = {none, none, none, none};
    tela_int i = 0;
    for (; i + 32 <= len; i += 32)
        for (tela_int k = 0; k < 4; k++)
            acc[k] = _mm512_max_pd(_mm512_abs_pd(_mm512_loadu_pd(x + i + 8 * k)), acc[k]);
    for (; i + 8 <= len; i += 8)
        acc[0] = _mm512_max_pd(_mm512_abs_pd(_mm512_loadu_pd(x + i)), acc[0]);
    if (i < len) {
        const __mmask8 m = tail_mask(len - i);
        acc[1] =
            _mm512_max_pd(_mm512_mask_abs_pd(none, m, _mm512_maskz_loadu_pd(m, x + i)), acc[1]);
    }
    return _mm512_reduce_max_pd(
        _mm512_max_pd(_mm512_max_pd(acc[0], acc[1]), _mm512_max_pd(acc[2], acc[3])));
}

/* The first i with |x_i| == value, which is there (value came from chunk_max). */
static tela_int chunk_find(tela_int len, const double *x, double value)
{
    const __m512d v = _mm512_set1_pd(value);
    tela_int i = 0;
    for (; i + 8 <= len; i += 8) {
        const __mmask8 eq =
            _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_loadu_pd(x + i)), v, _CMP_EQ_OQ);
        if (eq)
            return i + __builtin_ctz(eq);
    }
    const __mmask8 m = tail_mask(len - i);
    const __mmask8 eq =
        _mm512_mask_cmp_pd_mask(m, _mm512_abs_pd(_mm512_maskz_loadu_pd(m, x + i)), v, _CMP_EQ_OQ);
    return eq ? i + __builtin_ctz(eq) : 0;
}

static level1_max amax_avx512(tela_int n, const double *x)
{
    if (n > ZMM_MAX_1)
        return level1_amax_avx2(n, x);
    level1_max best = {-1.0, 0};
    for (tela_int c = 0; c < n; c += AMAX_CHUNK) {
        const tela_int len = n - c < AMAX_CHUNK ? n - c : AMAX_CHUNK;
        const double value = chunk_max(len, x + c);
        if (value > best.value) { /* strictly: an equal one later is not the first */
            best.value = value;
            best.index = c + chunk_find(len, x + c, value);
        }
    }
    return best;
}

static inline void rot_step(double *x, double *y, __mmask8 m, __m512d c, __m512d s)
{
    const __m512d xv = _mm512_maskz_loadu_pd(m, x), yv = _mm512_maskz_loadu_pd(m, y);
    _mm512_mask_storeu_pd(x, m, _mm512_fmadd_pd(c, xv, _mm512_mul_pd(s, yv)));
    _mm512_mask_storeu_pd(y, m, _mm512_fmsub_pd(c, yv, _mm512_mul_pd(s, xv)));
}

static LEVEL1_INDEXED void rot_avx512(tela_int n, double *x, double *y, double c, double s)
{
    if (n > ZMM_MAX_2) {
        level1_rot_avx2(n, x, y, c, s);
        return;
    }
    const __m512d cv = _mm512_set1_pd(c), sv = _mm512_set1_pd(s);
    tela_int i = 0;
    for (; i + 32 <= n; i += 32)
        for (tela_int k = 0; k < 4; k++)
            rot_step(x + i + 8 * k, y + i + 8 * k, 0xff, cv, sv);
    for (; i + 8 <= n; i += 8)
        rot_step(x + i, y + i, 0xff, cv, sv);
    if (i < n)
        rot_step(x + i, y + i, tail_mask(n - i), cv, sv);
}

/* Blocks of a longer vector come from L2 or memory: AVX2's loops, but Blue's sums, whose
 * arithmetic outweighs the loads, on zmm registers. */
static const level1_loops level1_loops_avx512_streaming = {
    .name = "avx512 streaming",
    .dot = level1_dot_avx2,
    .axpy = level1_axpy_avx2,
    .scal = level1_scal_avx2,
    .swap = level1_swap_avx2,
    .asum = level1_asum_avx2,
    .ssq = ssq_avx512,
    .amax = level1_amax_avx2,
    .rot = level1_rot_avx2,
    .streaming = &level1_loops_avx512_streaming,
};

const level1_loops level1_loops_avx512 = {
    .name = "avx512",
    .dot = dot_avx512,
    .axpy = axpy_avx512,
    .scal = scal_avx512,
    .swap = swap_avx512,
    .asum = asum_avx512,
    .ssq = ssq_avx512,
    .amax = amax_avx512,
    .rot = rot_avx512,
    .streaming = &level1_loops_avx512_streaming,
};
#endif
