/* loops_avx2.c — the level-1 loops on ymm registers (compiled with -mavx2 -mfma), also what the
 * AVX-512 build runs on stretches longer than L1 (loops_avx512.c). Four vectors a step, summed
 * into four accumulators: on Zen 5 this streamed from L2 and memory as fast as OpenBLAS's AVX2
 * kernels, where eight accumulators were slower. The last few elements (fewer than four) one at
 * a time. */
#include "level1/level1.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <math.h>

/* Elements whose largest |x| amax finds before looking for where it is: the second look reads
 * them from L1, and happens only when the largest so far grows. */
#define AMAX_CHUNK 512

static inline __m256d abs_pd(__m256d x)
{
    return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
}

static inline double hsum(__m256d v)
{
    const __m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}

/* All-ones in the first `lanes` lanes. */
static inline __m256i l1_mask(tela_int lanes)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes), _mm256_setr_epi64x(0, 1, 2, 3));
}

/* The four accumulators added pairwise, always in the same order. */
static inline double sum4(const __m256d acc[4])
{
    return hsum(_mm256_add_pd(_mm256_add_pd(acc[0], acc[1]), _mm256_add_pd(acc[2], acc[3])));
}

/* Lane r of the result is lane r + s of a for r + s < 4, else lane r + s - 4 of b (s = 1-3). */
static inline __m256d shift_pair(__m256d a, __m256d b, tela_int s)
{
    const __m256d middle = _mm256_permute2f128_pd(a, b, 0x21); /* a2 a3 b0 b1 */
    switch (s) {
    case 1:
        return _mm256_shuffle_pd(a, middle, 0x5);
    case 2:
        return middle;
    default:
        return _mm256_shuffle_pd(middle, b, 0x5);
    }
}

/* The dot's steps of 4 vectors, elements [0, end) (end a multiple of 16), with x and y read from
 * their next 32-byte boundary on: loops_avx512.c's dot_steps_headed on ymm registers (element e
 * in lane e % 4 of acc[(e / 4) % 4]; lanes moved to where the aligned vectors' elements land,
 * and back), so the same bits wherever x and y sit. */
static inline void dot_steps_headed(const double *x, const double *y, tela_int end, tela_int head,
                                    __m256d acc[4])
{
    /* The accumulators are still zero: the head's empty lanes add +0 to +0. */
    const __m256i first = l1_mask(head), last = l1_mask(4 - head);
    acc[0] = _mm256_fmadd_pd(_mm256_maskload_pd(x, first), _mm256_maskload_pd(y, first), acc[0]);
    __m256d al[4];
    for (tela_int k = 0; k < 4; k++)
        al[k] = shift_pair(acc[k], acc[(k + 1) % 4], head);
    const double *xa = x + head, *ya = y + head;
    const tela_int full = (end - head) / 4;
    tela_int v = 0;
    for (; v + 4 <= full; v += 4)
        for (tela_int k = 0; k < 4; k++)
            al[k] = _mm256_fmadd_pd(_mm256_load_pd(xa + 4 * (v + k)),
                                    _mm256_load_pd(ya + 4 * (v + k)), al[k]);
    for (; v < full; v++)
        al[v % 4] =
            _mm256_fmadd_pd(_mm256_load_pd(xa + 4 * v), _mm256_load_pd(ya + 4 * v), al[v % 4]);
    /* The last vector's lanes only: the others may hold an exact -0 that +0 would turn. */
    const __m256d sum = _mm256_fmadd_pd(_mm256_maskload_pd(xa + 4 * full, last),
                                        _mm256_maskload_pd(ya + 4 * full, last), al[full % 4]);
    al[full % 4] = _mm256_blendv_pd(al[full % 4], sum, _mm256_castsi256_pd(last));
    for (tela_int k = 0; k < 4; k++)
        acc[k] = shift_pair(al[(k + 3) % 4], al[k], 4 - head);
}

LEVEL1_INDEXED double level1_dot_avx2(tela_int n, const double *x, const double *y)
{
    __m256d acc[4];
    for (tela_int k = 0; k < 4; k++)
        acc[k] = _mm256_setzero_pd();
    tela_int i = 0;
    const tela_int steps_end = n / 16 * 16;
    const tela_int head = steps_end >= 32 ? level1_head(x, y, n, 32, 0) : 0;
    if (head) {
        dot_steps_headed(x, y, steps_end, head, acc);
        i = steps_end;
    }
    for (; i + 16 <= n; i += 16)
        for (tela_int k = 0; k < 4; k++)
            acc[k] = _mm256_fmadd_pd(_mm256_loadu_pd(x + i + 4 * k), _mm256_loadu_pd(y + i + 4 * k),
                                     acc[k]);
    for (; i + 4 <= n; i += 4)
        acc[3] = _mm256_fmadd_pd(_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), acc[3]);
    double tail = 0;
    for (; i < n; i++)
        tail = fma(x[i], y[i], tail);
    return sum4(acc) + tail;
}

LEVEL1_INDEXED void level1_axpy_avx2(tela_int n, double alpha, const double *x, double *y)
{
    const __m256d a = _mm256_set1_pd(alpha);
    tela_int i = 0;
    /* Each element is one fma wherever its vector starts: a head to x's and y's 32-byte
     * boundary changes no bit (level1_head). */
    for (const tela_int head = level1_head(x, y, n, 32, 16); i < head; i++)
        y[i] = fma(alpha, x[i], y[i]);
    for (; i + 16 <= n; i += 16) {
        /* Every load of the step before any store: x and y may overlap, so the compiler would
         * keep each store before the next step's loads as written. */
        __m256d v[4];
        for (tela_int k = 0; k < 4; k++)
            v[k] =
                _mm256_fmadd_pd(a, _mm256_loadu_pd(x + i + 4 * k), _mm256_loadu_pd(y + i + 4 * k));
        for (tela_int k = 0; k < 4; k++)
            _mm256_storeu_pd(y + i + 4 * k, v[k]);
    }
    for (; i + 4 <= n; i += 4)
        _mm256_storeu_pd(y + i, _mm256_fmadd_pd(a, _mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i)));
    for (; i < n; i++)
        y[i] = fma(alpha, x[i], y[i]);
}

LEVEL1_INDEXED void level1_scal_avx2(tela_int n, double alpha, double *x)
{
    const __m256d a = _mm256_set1_pd(alpha);
    tela_int i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256d v[4];
        for (tela_int k = 0; k < 4; k++)
            v[k] = _mm256_mul_pd(a, _mm256_loadu_pd(x + i + 4 * k));
        for (tela_int k = 0; k < 4; k++)
            _mm256_storeu_pd(x + i + 4 * k, v[k]);
    }
    for (; i + 4 <= n; i += 4)
        _mm256_storeu_pd(x + i, _mm256_mul_pd(a, _mm256_loadu_pd(x + i)));
    for (; i < n; i++)
        x[i] *= alpha;
}

LEVEL1_INDEXED void level1_swap_avx2(tela_int n, double *x, double *y)
{
    tela_int i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256d xv[4], yv[4];
        for (tela_int k = 0; k < 4; k++) {
            xv[k] = _mm256_loadu_pd(x + i + 4 * k);
            yv[k] = _mm256_loadu_pd(y + i + 4 * k);
        }
        for (tela_int k = 0; k < 4; k++) {
            _mm256_storeu_pd(x + i + 4 * k, yv[k]);
            _mm256_storeu_pd(y + i + 4 * k, xv[k]);
        }
    }
    for (; i < n; i++) {
        const double t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

LEVEL1_INDEXED double level1_asum_avx2(tela_int n, const double *x)
{
    __m256d acc[4];
    for (tela_int k = 0; k < 4; k++)
        acc[k] = _mm256_setzero_pd();
    tela_int i = 0;
    for (; i + 16 <= n; i += 16)
        for (tela_int k = 0; k < 4; k++)
            acc[k] = _mm256_add_pd(acc[k], abs_pd(_mm256_loadu_pd(x + i + 4 * k)));
    for (; i + 4 <= n; i += 4)
        acc[3] = _mm256_add_pd(acc[3], abs_pd(_mm256_loadu_pd(x + i)));
    double tail = 0;
    for (; i < n; i++)
        tail += fabs(x[i]);
    return sum4(acc) + tail;
}

/* Blue's sums of 4 elements into one set of accumulators (see loops_avx512.c): the lanes of
 * the other ranges are masked to zero before they are scaled and squared. */
static inline void ssq_step(__m256d x, __m256d *small, __m256d *medium, __m256d *big)
{
    const __m256d ax = abs_pd(x);
    const __m256d is_big = _mm256_cmp_pd(ax, _mm256_set1_pd(LEVEL1_TBIG), _CMP_GT_OQ);
    const __m256d is_small = _mm256_cmp_pd(ax, _mm256_set1_pd(LEVEL1_TSML), _CMP_LT_OQ);
    /* Neither: the medium range, NaN included (both comparisons false). */
    const __m256d tm = _mm256_andnot_pd(_mm256_or_pd(is_big, is_small), ax);
    const __m256d tb = _mm256_mul_pd(_mm256_and_pd(is_big, ax), _mm256_set1_pd(LEVEL1_SBIG));
    const __m256d ts = _mm256_mul_pd(_mm256_and_pd(is_small, ax), _mm256_set1_pd(LEVEL1_SSML));
    *big = _mm256_fmadd_pd(tb, tb, *big);
    *small = _mm256_fmadd_pd(ts, ts, *small);
    *medium = _mm256_fmadd_pd(tm, tm, *medium);
}

static LEVEL1_INDEXED level1_ssq ssq_avx2(tela_int n, const double *x)
{
    __m256d s[2], m[2], b[2];
    for (tela_int k = 0; k < 2; k++)
        s[k] = m[k] = b[k] = _mm256_setzero_pd();
    tela_int i = 0;
    for (; i + 8 <= n; i += 8)
        for (tela_int k = 0; k < 2; k++)
            ssq_step(_mm256_loadu_pd(x + i + 4 * k), &s[k], &m[k], &b[k]);
    if (i + 4 <= n) {
        ssq_step(_mm256_loadu_pd(x + i), &s[0], &m[0], &b[0]);
        i += 4;
    }
    if (i < n) { /* the lanes past the end load as 0: small, adding 0 */
        const __m256i lanes = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n - i)),
                                                 _mm256_setr_epi64x(0, 1, 2, 3));
        ssq_step(_mm256_maskload_pd(x + i, lanes), &s[1], &m[1], &b[1]);
    }
    level1_ssq acc = {
        .small = hsum(_mm256_add_pd(s[0], s[1])),
        .medium = hsum(_mm256_add_pd(m[0], m[1])),
        .big = hsum(_mm256_add_pd(b[0], b[1])),
    };
    return acc;
}

/* The largest |x_i| of len elements, NaN skipped (vmaxpd returns its second operand when either
 * is NaN), -1 if all are NaN. */
static LEVEL1_INDEXED double chunk_max(tela_int len, const double *x)
{
    const __m256d none = _mm256_set1_pd(-1.0);
    __m256d acc[4] = {none, none, none, none};
    tela_int i = 0;
    for (; i + 16 <= len; i += 16)
        for (tela_int k = 0; k < 4; k++)
            acc[k] = _mm256_max_pd(abs_pd(_mm256_loadu_pd(x + i + 4 * k)), acc[k]);
    for (; i + 4 <= len; i += 4)
        acc[0] = _mm256_max_pd(abs_pd(_mm256_loadu_pd(x + i)), acc[0]);
    const __m256d v = _mm256_max_pd(_mm256_max_pd(acc[0], acc[1]), _mm256_max_pd(acc[2], acc[3]));
    const __m128d h = _mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    double best = _mm_cvtsd_f64(_mm_max_sd(h, _mm_unpackhi_pd(h, h)));
    for (; i < len; i++)
        if (fabs(x[i]) > best)
            best = fabs(x[i]);
    return best;
}

/* The first i with |x_i| == value, which is there (value came from chunk_max). */
static tela_int chunk_find(tela_int len, const double *x, double value)
{
    const __m256d v = _mm256_set1_pd(value);
    tela_int i = 0;
    for (; i + 4 <= len; i += 4) {
        const int eq =
            _mm256_movemask_pd(_mm256_cmp_pd(abs_pd(_mm256_loadu_pd(x + i)), v, _CMP_EQ_OQ));
        if (eq)
            return i + __builtin_ctz((unsigned)eq);
    }
    for (; i < len; i++)
        if (fabs(x[i]) == value)
            return i;
    return 0;
}

level1_max level1_amax_avx2(tela_int n, const double *x)
{
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

LEVEL1_INDEXED void level1_rot_avx2(tela_int n, double *x, double *y, double c, double s)
{
    const __m256d cv = _mm256_set1_pd(c), sv = _mm256_set1_pd(s);
    tela_int i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d xv[2], yv[2];
        for (tela_int k = 0; k < 2; k++) {
            xv[k] = _mm256_loadu_pd(x + i + 4 * k);
            yv[k] = _mm256_loadu_pd(y + i + 4 * k);
        }
        for (tela_int k = 0; k < 2; k++) {
            _mm256_storeu_pd(x + i + 4 * k, _mm256_fmadd_pd(cv, xv[k], _mm256_mul_pd(sv, yv[k])));
            _mm256_storeu_pd(y + i + 4 * k, _mm256_fmsub_pd(cv, yv[k], _mm256_mul_pd(sv, xv[k])));
        }
    }
    for (; i < n; i++) {
        const double xi = x[i], yi = y[i];
        x[i] = fma(c, xi, s * yi);
        y[i] = fma(c, yi, -(s * xi));
    }
}

const level1_loops level1_loops_avx2 = {
    .name = "avx2",
    .dot = level1_dot_avx2,
    .axpy = level1_axpy_avx2,
    .scal = level1_scal_avx2,
    .swap = level1_swap_avx2,
    .asum = level1_asum_avx2,
    .ssq = ssq_avx2,
    .amax = level1_amax_avx2,
    .rot = level1_rot_avx2,
    .streaming = &level1_loops_avx2,
};
#endif
