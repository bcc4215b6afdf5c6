/* simd.h — the vector operations kernel_body.h is written in, for the ISA the including file is
 * compiled for: AVX-512F (8 lanes), AVX2 + FMA (4 lanes), or plain C vectors of 2 lanes (SSE2 on
 * x86-64). A partial vector (the last rows of a column) is loaded and stored with a mask, so its
 * lanes round exactly as full ones: where a member's rows end never changes a result.
 *
 * The plain build has no fused multiply-add; l2_fma multiplies then adds there, in every lane and
 * in the scalar l2_fma1 alike. */
#ifndef TELA_LEVEL2_SIMD_H
#define TELA_LEVEL2_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__AVX512F__) && defined(__FMA__)
#include <immintrin.h>

#define L2_LANES 8

typedef __m512d l2_vec;

static inline l2_vec l2_load(const double *p)
{
    return _mm512_loadu_pd(p);
}

static inline l2_vec l2_load_part(const double *p, int lanes)
{
    return _mm512_maskz_loadu_pd((__mmask8)((1u << lanes) - 1), p);
}

static inline void l2_store(double *p, l2_vec v)
{
    _mm512_storeu_pd(p, v);
}

static inline void l2_store_part(double *p, l2_vec v, int lanes)
{
    _mm512_mask_storeu_pd(p, (__mmask8)((1u << lanes) - 1), v);
}

static inline l2_vec l2_set1(double x)
{
    return _mm512_set1_pd(x);
}

static inline l2_vec l2_zero(void)
{
    return _mm512_setzero_pd();
}

static inline l2_vec l2_mul(l2_vec a, l2_vec b)
{
    return _mm512_mul_pd(a, b);
}

static inline l2_vec l2_add(l2_vec a, l2_vec b)
{
    return _mm512_add_pd(a, b);
}

/* a b + c, rounded once. */
static inline l2_vec l2_fma(l2_vec a, l2_vec b, l2_vec c)
{
    return _mm512_fmadd_pd(a, b, c);
}

/* The lanes' sum: halves added pairwise, always in this order. */
static inline double l2_sum(l2_vec v)
{
    const __m256d four = _mm256_add_pd(_mm512_castpd512_pd256(v), _mm512_extractf64x4_pd(v, 1));
    const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(four), _mm256_extractf128_pd(four, 1));
    return _mm_cvtsd_f64(two) + _mm_cvtsd_f64(_mm_unpackhi_pd(two, two));
}

static inline double l2_fma1(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}

/* Lanes first .. L2_LANES - 1 of p, the others zero (and not read). */
static inline l2_vec l2_load_high(const double *p, int first)
{
    return _mm512_maskz_loadu_pd((__mmask8)(0xffu << first), p);
}

/* The mask of lanes lo .. hi - 1. */
static inline __mmask8 l2_lanes(int lo, int hi)
{
    return (__mmask8)(((1u << hi) - 1) & (0xffu << lo));
}

/* a b + c in lanes lo .. hi - 1, c in the others (an Inf in a or b there cannot make a NaN, nor
 * a zero flip the sign of c's). */
static inline l2_vec l2_fma_lanes(l2_vec a, l2_vec b, l2_vec c, int lo, int hi)
{
    return _mm512_mask3_fmadd_pd(a, b, c, l2_lanes(lo, hi));
}

/* Lanes lo .. hi - 1 from first, first[0] in lane lo; the others zero. The vector's address is lo
 * lanes before first and only its masked lanes are read: computed as an integer, since no array
 * holds it. */
static inline l2_vec l2_load_lanes(const double *first, int lo, int hi)
{
    /* NOLINTNEXTLINE(performance-no-int-to-ptr): no array holds that address */
    const double *base = (const double *)((uintptr_t)first - (uintptr_t)lo * sizeof(double));
    return _mm512_maskz_loadu_pd(l2_lanes(lo, hi), base);
}

/* Lane k: the sum of v[k]'s lanes, for k < 8; pairs of neighbours added first, always in this
 * order. */
static inline l2_vec l2_sums(const l2_vec *v)
{
    l2_vec pair[4], quad[2];
    for (ptrdiff_t h = 0; h < 4; h++)
        pair[h] = _mm512_add_pd(_mm512_unpacklo_pd(v[2 * h], v[2 * h + 1]),
                                _mm512_unpackhi_pd(v[2 * h], v[2 * h + 1]));
    for (ptrdiff_t h = 0; h < 2; h++)
        quad[h] = _mm512_add_pd(_mm512_shuffle_f64x2(pair[2 * h], pair[2 * h + 1], 0x88),
                                _mm512_shuffle_f64x2(pair[2 * h], pair[2 * h + 1], 0xdd));
    return _mm512_add_pd(_mm512_shuffle_f64x2(quad[0], quad[1], 0x88),
                         _mm512_shuffle_f64x2(quad[0], quad[1], 0xdd));
}

/* Lane r of the result is lane (r + shift) % 8 of v: lanes moved, nothing computed. */
static inline l2_vec l2_rotate(l2_vec v, int shift)
{
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i from =
        _mm512_and_si512(_mm512_add_epi64(lane, _mm512_set1_epi64(shift)), _mm512_set1_epi64(7));
    return _mm512_permutexvar_pd(from, v);
}

/* Whether a column's rows are started on a vector boundary (a whole line) with a partial head
 * vector and rotated lanes (kernel_body.h, symv_span_headed). */
#define L2_ALIGN_HEADS 1

#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#define L2_LANES       4

typedef __m256d l2_vec;

/* All-ones in the first lanes. */
static inline __m256i l2_mask(int lanes)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(lanes), _mm256_setr_epi64x(0, 1, 2, 3));
}

static inline l2_vec l2_load(const double *p)
{
    return _mm256_loadu_pd(p);
}

static inline l2_vec l2_load_part(const double *p, int lanes)
{
    return _mm256_maskload_pd(p, l2_mask(lanes));
}

static inline void l2_store(double *p, l2_vec v)
{
    _mm256_storeu_pd(p, v);
}

static inline void l2_store_part(double *p, l2_vec v, int lanes)
{
    _mm256_maskstore_pd(p, l2_mask(lanes), v);
}

static inline l2_vec l2_set1(double x)
{
    return _mm256_set1_pd(x);
}

static inline l2_vec l2_zero(void)
{
    return _mm256_setzero_pd();
}

static inline l2_vec l2_mul(l2_vec a, l2_vec b)
{
    return _mm256_mul_pd(a, b);
}

static inline l2_vec l2_add(l2_vec a, l2_vec b)
{
    return _mm256_add_pd(a, b);
}

static inline l2_vec l2_fma(l2_vec a, l2_vec b, l2_vec c)
{
    return _mm256_fmadd_pd(a, b, c);
}

static inline double l2_sum(l2_vec v)
{
    const __m128d two = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(two) + _mm_cvtsd_f64(_mm_unpackhi_pd(two, two));
}

static inline double l2_fma1(double a, double b, double c)
{
    return __builtin_fma(a, b, c);
}

/* All-ones in lanes first and above. */
static inline __m256i l2_mask_from(int first)
{
    return _mm256_cmpgt_epi64(_mm256_setr_epi64x(0, 1, 2, 3), _mm256_set1_epi64x(first - 1));
}

static inline l2_vec l2_load_high(const double *p, int first)
{
    return _mm256_maskload_pd(p, l2_mask_from(first));
}

static inline __m256i l2_lanes(int lo, int hi)
{
    return _mm256_and_si256(l2_mask(hi), l2_mask_from(lo));
}

static inline l2_vec l2_fma_lanes(l2_vec a, l2_vec b, l2_vec c, int lo, int hi)
{
    return _mm256_blendv_pd(c, _mm256_fmadd_pd(a, b, c), _mm256_castsi256_pd(l2_lanes(lo, hi)));
}

static inline l2_vec l2_load_lanes(const double *first, int lo, int hi)
{
    /* NOLINTNEXTLINE(performance-no-int-to-ptr): no array holds that address */
    const double *base = (const double *)((uintptr_t)first - (uintptr_t)lo * sizeof(double));
    return _mm256_maskload_pd(base, l2_lanes(lo, hi));
}

static inline l2_vec l2_sums(const l2_vec *v)
{
    const __m256d low = _mm256_hadd_pd(v[0], v[1]), high = _mm256_hadd_pd(v[2], v[3]);
    return _mm256_add_pd(_mm256_permute2f128_pd(low, high, 0x20),
                         _mm256_permute2f128_pd(low, high, 0x31));
}

/* Lane r of the result is lane (r + shift) % 4 of v (the permute takes its order as a constant). */
static inline l2_vec l2_rotate(l2_vec v, int shift)
{
    switch (shift & 3) {
    case 1:
        return _mm256_permute4x64_pd(v, 0x39);
    case 2:
        return _mm256_permute4x64_pd(v, 0x4e);
    case 3:
        return _mm256_permute4x64_pd(v, 0x93);
    default:
        return v;
    }
}

/* A 32-byte vector 16 bytes off its line splits every other load: dsymv ran 1.23-1.33x slower
 * at 128-512 under TELA_ARCH=avx2 on the Xeon. */
#define L2_ALIGN_HEADS 1

#else

#define L2_LANES 2

typedef double l2_vec __attribute__((vector_size(16)));

static inline l2_vec l2_load(const double *p)
{
    l2_vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline l2_vec l2_load_part(const double *p, int lanes)
{
    l2_vec v = {0.0, 0.0};
    memcpy(&v, p, sizeof(double) * (size_t)lanes);
    return v;
}

static inline void l2_store(double *p, l2_vec v)
{
    memcpy(p, &v, sizeof v);
}

static inline void l2_store_part(double *p, l2_vec v, int lanes)
{
    memcpy(p, &v, sizeof(double) * (size_t)lanes);
}

static inline l2_vec l2_set1(double x)
{
    return (l2_vec){x, x};
}

static inline l2_vec l2_zero(void)
{
    return (l2_vec){0.0, 0.0};
}

static inline l2_vec l2_mul(l2_vec a, l2_vec b)
{
    return a * b;
}

static inline l2_vec l2_add(l2_vec a, l2_vec b)
{
    return a + b;
}

/* Two roundings: this build has no fused multiply-add to use. */
static inline l2_vec l2_fma(l2_vec a, l2_vec b, l2_vec c)
{
    return l2_add(l2_mul(a, b), c);
}

static inline double l2_sum(l2_vec v)
{
    return v[0] + v[1];
}

static inline double l2_fma1(double a, double b, double c)
{
    const double product = a * b;
    return product + c;
}

static inline l2_vec l2_load_high(const double *p, int first)
{
    l2_vec v = {0.0, 0.0};
    for (int k = first; k < 2; k++)
        v[k] = p[k];
    return v;
}

static inline l2_vec l2_fma_lanes(l2_vec a, l2_vec b, l2_vec c, int lo, int hi)
{
    const l2_vec sum = l2_fma(a, b, c);
    for (int k = lo; k < hi; k++)
        c[k] = sum[k];
    return c;
}

static inline l2_vec l2_load_lanes(const double *first, int lo, int hi)
{
    l2_vec v = {0.0, 0.0};
    for (int k = lo; k < hi; k++)
        v[k] = first[k - lo];
    return v;
}

static inline l2_vec l2_sums(const l2_vec *v)
{
    return (l2_vec){v[0][0] + v[0][1], v[1][0] + v[1][1]};
}

#endif

#ifndef L2_ALIGN_HEADS
/* 16-byte vectors, which a column of doubles at 16-byte alignment never splits. */
#define L2_ALIGN_HEADS 0
static inline l2_vec l2_rotate(l2_vec v, int shift)
{
    (void)shift;
    return v;
}
#endif

/* Keeps v in a register from here on: GCC would otherwise fold the load of a vector that is used
 * twice into both uses, reading it from L1 twice (symv's columns: half the kernel's loads). */
static inline __attribute__((always_inline)) void l2_pin(l2_vec *v)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("" : "+v"(*v));
#else
    (void)v;
#endif
}

/* A vector of lanes elements (L2_LANES: a whole one), the rest zero; inlined with lanes a
 * constant where the caller knows it. */
static inline __attribute__((always_inline)) l2_vec l2_get(const double *p, int lanes)
{
    return lanes == L2_LANES ? l2_load(p) : l2_load_part(p, lanes);
}

static inline __attribute__((always_inline)) void l2_put(double *p, l2_vec v, int lanes)
{
    if (lanes == L2_LANES)
        l2_store(p, v);
    else
        l2_store_part(p, v, lanes);
}

#endif /* TELA_LEVEL2_SIMD_H */
