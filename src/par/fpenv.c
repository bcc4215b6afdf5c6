/* fpenv.c — members compute in the caller's floating-point environment.
 *
 * Rounding mode and the flush-to-zero / denormals-are-zero bits change
 * results, so a worker takes the caller's before running a body: a result
 * must not depend on which thread computed it. Reading and comparing the
 * control registers costs a few cycles; writing happens only on change. */
#include "par/par.h"

#include <fenv.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* MXCSR bits that control computation: exception masks (7-12), rounding
 * (13-14), flush-to-zero (15) and denormals-are-zero (6). The status flags
 * (0-5) are per-thread history, not environment. */
#define SSE_CONTROL_BITS 0xffc0u

void par_fpenv_capture(par_fpenv *env)
{
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    env->sse_csr = _mm_getcsr() & SSE_CONTROL_BITS;
    env->x87_control = cw;
    env->rounding = 0;
}

void par_fpenv_apply(const par_fpenv *env)
{
    unsigned csr = _mm_getcsr();
    if ((csr & SSE_CONTROL_BITS) != env->sse_csr)
        _mm_setcsr((csr & ~SSE_CONTROL_BITS) | env->sse_csr);
    unsigned short cw;
    __asm__ __volatile__("fnstcw %0" : "=m"(cw));
    if (cw != env->x87_control) {
        unsigned short want = (unsigned short)env->x87_control;
        __asm__ __volatile__("fldcw %0" : : "m"(want));
    }
}
#else
void par_fpenv_capture(par_fpenv *env)
{
    env->sse_csr = 0;
    env->x87_control = 0;
    env->rounding = fegetround();
}

void par_fpenv_apply(const par_fpenv *env)
{
    if (fegetround() != env->rounding)
        fesetround(env->rounding);
}
#endif
