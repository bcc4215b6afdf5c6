/* segments_avx512.c — the segment loops of src/bandpack built for AVX-512F with FMA (this file is
 * compiled with -mavx512f -mfma, by its name).
 *
 * The loops are segments_body.h's; this file only compiles them for its ISA and names them in
 * one table, which bp_segments_get() hands out when par_isa_chosen() says avx512. */
#include "bandpack/segments_body.h"

static void axpy_avx512(tela_int len, double t, const double *a, double *y, tela_int incy)
{
    bp_axpy_body(len, t, a, y, incy);
}

static double dot_avx512(tela_int len, const double *a, const double *x, tela_int incx)
{
    return bp_dot_body(len, a, x, incx);
}

static double axpy_dot_avx512(tela_int len, double t, const double *a, const double *x,
                              tela_int incx, double *y, tela_int incy)
{
    return bp_axpy_dot_body(len, t, a, x, incx, y, incy);
}

static void rank1_avx512(tela_int len, double *a, const double *x, tela_int incx, double tx)
{
    bp_rank1_body(len, a, x, incx, tx);
}

static void rank2_avx512(tela_int len, double *a, const double *x, tela_int incx, double tx,
                         const double *y, tela_int incy, double ty)
{
    bp_rank2_body(len, a, x, incx, tx, y, incy, ty);
}

const bp_segments bp_segments_avx512 = {
    .axpy = axpy_avx512,
    .dot = dot_avx512,
    .axpy_dot = axpy_dot_avx512,
    .rank1 = rank1_avx512,
    .rank2 = rank2_avx512,
};
