/* segments_body.h — the loops over one contiguous run of a band or packed column, written once
 * and compiled per ISA by segments_generic.c, segments_avx2.c and segments_avx512.c (each includes
 * this after bandpack.h and names its table).
 *
 * Unit increments take vector loops over chunks of sixteen elements (two zmm, four ymm or eight
 * xmm: GCC vectors of the ISA's width), then a scalar tail; any other increment a plain loop
 * (rare in callers, and reference's own loops are no faster there). Every multiply-add is one
 * fused operation where the ISA has FMA and a multiply then an add where it has not, in the
 * vector body, the tail and the aligning head alike, so an element of y or A gets the same bits
 * whichever part of a run it falls in. The dot products keep sixteen running sums, added in a
 * fixed tree: their bits depend on the run's length only, never on its address. */
#ifndef TELA_BANDPACK_SEGMENTS_BODY_H
#define TELA_BANDPACK_SEGMENTS_BODY_H

#include "bandpack/bandpack.h"

#include <stdint.h>
#include <string.h>

#if defined(__AVX512F__) || defined(__FMA__)
#include <immintrin.h>
#endif

/* One register of doubles of the ISA the file is built for; a chunk is BP_VECS of them. */
#if defined(__AVX512F__)
#define BP_LANES 8
#elif defined(__AVX__)
#define BP_LANES 4
#else
#define BP_LANES 2
#endif
#define BP_CHUNK 16
#define BP_VECS  (BP_CHUNK / BP_LANES)
typedef double bp_vec __attribute__((vector_size(BP_LANES * sizeof(double))));

/* a b + c, one rounding where the ISA has FMA. Explicit in both forms, so no compiler setting
 * (-ffp-contract) can fuse the vectors and not the tail, or the other way round. */
static inline double bp_madd(double a, double b, double c)
{
#ifdef __FMA__
    return __builtin_fma(a, b, c);
#else
    return a * b + c;
#endif
}

static inline bp_vec bp_vmadd(bp_vec a, bp_vec b, bp_vec c)
{
#if defined(__AVX512F__)
    return _mm512_fmadd_pd(a, b, c);
#elif defined(__FMA__)
    return _mm256_fmadd_pd(a, b, c);
#else
    return a * b + c;
#endif
}

static inline bp_vec bp_load(const double *p)
{
    bp_vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void bp_store(double *p, bp_vec v)
{
    memcpy(p, &v, sizeof v);
}

static inline bp_vec bp_splat(double t)
{
    bp_vec v = {0};
    for (int l = 0; l < BP_LANES; l++)
        v[l] = t;
    return v;
}

/* The two cache lines BP_PREFETCH_AHEAD doubles after a: a long column streams from memory, and
 * the hardware prefetchers, which start over at each column, fall behind on their own (dspmv of
 * order 6000 runs ~15% faster with it). Past the run's end it only touches the next column. */
#define BP_PREFETCH_AHEAD 256

static inline void bp_prefetch_ahead(const double *a)
{
    __builtin_prefetch(a + BP_PREFETCH_AHEAD);
    __builtin_prefetch(a + BP_PREFETCH_AHEAD + 8);
}

/* How many of len elements from p to step over one by one before p is aligned to a whole vector:
 * an element-wise loop stores aligned vectors after them (an unaligned zmm store always splits a
 * cache line, and that halves an axpy's speed). Each element gets the same operation either way;
 * a dot product never peels, its sums must not depend on addresses. */
static inline tela_int bp_peel(const double *p, tela_int len)
{
    const tela_int off = (tela_int)((uintptr_t)p / sizeof(double) % BP_LANES);
    const tela_int head = off == 0 ? 0 : BP_LANES - off;
    return head < len ? head : len;
}

/* The sixteen running sums (sum e holds the elements e mod 16 of the chunks, and of the half
 * chunk after them) added in one fixed tree: e pairs with e + 8, then e + 4, e + 2, e + 1,
 * whatever the ISA; then the scalar tail. A run shorter than half a chunk has only the tail. */
static inline double bp_sum16(const bp_vec s[BP_VECS], double tail)
{
    double e[BP_CHUNK];
    for (int v = 0; v < BP_VECS; v++)
        for (int l = 0; l < BP_LANES; l++)
            e[v * BP_LANES + l] = s[v][l];
    const double q0 = (e[0] + e[8]) + (e[4] + e[12]), q1 = (e[1] + e[9]) + (e[5] + e[13]);
    const double q2 = (e[2] + e[10]) + (e[6] + e[14]), q3 = (e[3] + e[11]) + (e[7] + e[15]);
    return ((q0 + q2) + (q1 + q3)) + tail;
}

static inline void bp_axpy_body(tela_int len, double t, const double *restrict a,
                                double *restrict y, tela_int incy)
{
    tela_int i = 0;
    if (incy == 1) {
        const bp_vec vt = bp_splat(t);
        for (const tela_int head = bp_peel(y, len); i < head; i++)
            y[i] = bp_madd(t, a[i], y[i]);
        for (; i + BP_CHUNK <= len; i += BP_CHUNK) {
            bp_prefetch_ahead(a + i);
            for (tela_int v = 0; v < BP_VECS; v++) {
                const tela_int e = i + v * BP_LANES;
                bp_store(y + e, bp_vmadd(vt, bp_load(a + e), bp_load(y + e)));
            }
        }
        for (; i < len; i++)
            y[i] = bp_madd(t, a[i], y[i]);
    } else {
        for (; i < len; i++)
            y[i * incy] = bp_madd(t, a[i], y[i * incy]);
    }
}

static inline double bp_dot_body(tela_int len, const double *restrict a, const double *restrict x,
                                 tela_int incx)
{
    bp_vec s[BP_VECS] = {{0}};
    double tail = 0.0;
    tela_int i = 0;
    if (incx == 1) {
        for (; i + BP_CHUNK <= len; i += BP_CHUNK) {
            bp_prefetch_ahead(a + i);
            for (tela_int v = 0; v < BP_VECS; v++) {
                const tela_int e = i + v * BP_LANES;
                s[v] = bp_vmadd(bp_load(a + e), bp_load(x + e), s[v]);
            }
        }
        if (i + BP_CHUNK / 2 <= len) { /* half a chunk, into sums 0-7 */
            for (tela_int v = 0; v < BP_VECS / 2; v++) {
                const tela_int e = i + v * BP_LANES;
                s[v] = bp_vmadd(bp_load(a + e), bp_load(x + e), s[v]);
            }
            i += BP_CHUNK / 2;
        }
        for (; i < len; i++)
            tail = bp_madd(a[i], x[i], tail);
    } else {
        for (; i < len; i++)
            tail = bp_madd(a[i], x[i * incx], tail);
    }
    return len < BP_CHUNK / 2 || incx != 1 ? tail : bp_sum16(s, tail);
}

static inline double bp_axpy_dot_body(tela_int len, double t, const double *restrict a,
                                      const double *restrict x, tela_int incx, double *restrict y,
                                      tela_int incy)
{
    bp_vec s[BP_VECS] = {{0}};
    double tail = 0.0;
    tela_int i = 0;
    if (incx == 1 && incy == 1) {
        const bp_vec vt = bp_splat(t);
        for (; i + BP_CHUNK <= len; i += BP_CHUNK) {
            bp_prefetch_ahead(a + i);
            for (tela_int v = 0; v < BP_VECS; v++) {
                const tela_int e = i + v * BP_LANES;
                const bp_vec av = bp_load(a + e);
                bp_store(y + e, bp_vmadd(vt, av, bp_load(y + e)));
                s[v] = bp_vmadd(av, bp_load(x + e), s[v]);
            }
        }
        if (i + BP_CHUNK / 2 <= len) { /* half a chunk, into sums 0-7 */
            for (tela_int v = 0; v < BP_VECS / 2; v++) {
                const tela_int e = i + v * BP_LANES;
                const bp_vec av = bp_load(a + e);
                bp_store(y + e, bp_vmadd(vt, av, bp_load(y + e)));
                s[v] = bp_vmadd(av, bp_load(x + e), s[v]);
            }
            i += BP_CHUNK / 2;
        }
        for (; i < len; i++) {
            y[i] = bp_madd(t, a[i], y[i]);
            tail = bp_madd(a[i], x[i], tail);
        }
    } else {
        for (; i < len; i++) {
            y[i * incy] = bp_madd(t, a[i], y[i * incy]);
            tail = bp_madd(a[i], x[i * incx], tail);
        }
    }
    return len < BP_CHUNK / 2 || incx != 1 || incy != 1 ? tail : bp_sum16(s, tail);
}

static inline void bp_rank1_body(tela_int len, double *restrict a, const double *restrict x,
                                 tela_int incx, double tx)
{
    tela_int i = 0;
    if (incx == 1) {
        const bp_vec vt = bp_splat(tx);
        for (const tela_int head = bp_peel(a, len); i < head; i++)
            a[i] = bp_madd(x[i], tx, a[i]);
        for (; i + BP_CHUNK <= len; i += BP_CHUNK) {
            bp_prefetch_ahead(a + i);
            for (tela_int v = 0; v < BP_VECS; v++) {
                const tela_int e = i + v * BP_LANES;
                bp_store(a + e, bp_vmadd(bp_load(x + e), vt, bp_load(a + e)));
            }
        }
        for (; i < len; i++)
            a[i] = bp_madd(x[i], tx, a[i]);
    } else {
        for (; i < len; i++)
            a[i] = bp_madd(x[i * incx], tx, a[i]);
    }
}

static inline void bp_rank2_body(tela_int len, double *restrict a, const double *restrict x,
                                 tela_int incx, double tx, const double *restrict y, tela_int incy,
                                 double ty)
{
    /* (a + x tx) + y ty, reference's order of the two terms. */
    tela_int i = 0;
    if (incx == 1 && incy == 1) {
        const bp_vec vx = bp_splat(tx), vy = bp_splat(ty);
        for (const tela_int head = bp_peel(a, len); i < head; i++)
            a[i] = bp_madd(y[i], ty, bp_madd(x[i], tx, a[i]));
        for (; i + BP_CHUNK <= len; i += BP_CHUNK) {
            bp_prefetch_ahead(a + i);
            for (tela_int v = 0; v < BP_VECS; v++) {
                const tela_int e = i + v * BP_LANES;
                const bp_vec ax = bp_vmadd(bp_load(x + e), vx, bp_load(a + e));
                bp_store(a + e, bp_vmadd(bp_load(y + e), vy, ax));
            }
        }
        for (; i < len; i++)
            a[i] = bp_madd(y[i], ty, bp_madd(x[i], tx, a[i]));
    } else {
        for (; i < len; i++)
            a[i] = bp_madd(y[i * incy], ty, bp_madd(x[i * incx], tx, a[i]));
    }
}

#endif /* TELA_BANDPACK_SEGMENTS_BODY_H */
