/* rotg.c — tela_drotg and tela_drotmg, the routines that construct rotations (scalars only).
 *
 * drotg is reference 3.10's drotg.f90: r scaled by the larger of |a| and |b| (kept within
 * [safmin, safmax]) so neither overflows nor underflows. drotmg is reference DROTMG, with one
 * change: its rescaling loops fill in H's implied entries only when the flag is still 0 or 1.
 * Reference 3.11 fills h12 = 1, h21 = -1 whenever the flag is not 0, so a second pass (both d1
 * and d2 out of range, or one of them twice) overwrote entries already scaled and returned a
 * wrong H; later reference releases and OpenBLAS do it this way. A d1 or d2 that becomes
 * infinite is not rescaled (reference loops forever there). */
#include "level1/level1.h"

#include <float.h>
#include <math.h>

void tela_drotg(double *a, double *b, double *c, double *s)
{
    const double safmin = DBL_MIN;  /* 2^-1022 */
    const double safmax = 0x1p1023; /* 1 / safmin within range */
    const double anorm = fabs(*a), bnorm = fabs(*b);
    if (bnorm == 0.0) {
        *c = 1.0;
        *s = 0.0;
        *b = 0.0;
    } else if (anorm == 0.0) {
        *c = 0.0;
        *s = 1.0;
        *a = *b;
        *b = 1.0;
    } else {
        const double scale = fmin(safmax, fmax(safmin, fmax(anorm, bnorm)));
        const double sigma = anorm > bnorm ? copysign(1.0, *a) : copysign(1.0, *b);
        const double as = *a / scale, bs = *b / scale;
        const double r = sigma * (scale * sqrt(as * as + bs * bs));
        *c = *a / r;
        *s = *b / r;
        /* z, from which a caller rebuilds (c, s): s if |a| > |b|, else 1/c (1 when c = 0). */
        double z;
        if (anorm > bnorm)
            z = *s;
        else if (*c != 0.0)
            z = 1.0 / *c;
        else
            z = 1.0;
        *a = r;
        *b = z;
    }
}

/* DROTMG's rescaling constants: gam, gam^2 and the reference's literal for 1 / gam^2. */
#define ROTMG_GAM    4096.0
#define ROTMG_GAMSQ  16777216.0
#define ROTMG_RGAMSQ 5.9604645e-8

/* H's state while drotmg builds it: the flag and the four entries. */
typedef struct rotmg_h {
    double flag, h11, h12, h21, h22;
} rotmg_h;

/* Before a rescaling step: H made explicit (flag -1) with its implied entries, once. */
static void rotmg_explicit(rotmg_h *h)
{
    if (h->flag == 0.0) {
        h->h11 = 1.0;
        h->h22 = 1.0;
    } else if (h->flag == 1.0) {
        h->h21 = -1.0;
        h->h12 = 1.0;
    }
    h->flag = -1.0;
}

void tela_drotmg(double *d1, double *d2, double *x1, double y1, double *param)
{
    rotmg_h h = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (*d1 < 0.0) {
        /* Not a scaled rotation: H = 0 and everything zeroed. */
        h.flag = -1.0;
        *d1 = *d2 = *x1 = 0.0;
    } else {
        const double p2 = *d2 * y1;
        if (p2 == 0.0) {
            param[0] = -2.0; /* H = I: nothing else of param is set */
            return;
        }
        const double p1 = *d1 * *x1;
        const double q2 = p2 * y1, q1 = p1 * *x1;
        if (fabs(q1) > fabs(q2)) {
            h.h21 = -y1 / *x1;
            h.h12 = p2 / p1;
            const double u = 1.0 - h.h12 * h.h21;
            if (u > 0.0) {
                h.flag = 0.0;
                *d1 /= u;
                *d2 /= u;
                *x1 *= u;
            } else {
                h = (rotmg_h){-1.0, 0.0, 0.0, 0.0, 0.0};
                *d1 = *d2 = *x1 = 0.0;
            }
        } else if (q2 < 0.0) {
            h.flag = -1.0;
            *d1 = *d2 = *x1 = 0.0;
        } else {
            h.flag = 1.0;
            h.h11 = p1 / p2;
            h.h22 = *x1 / y1;
            const double u = 1.0 + h.h11 * h.h22;
            const double t = *d2 / u;
            *d2 = *d1 / u;
            *d1 = t;
            *x1 = y1 * u;
        }
        if (*d1 != 0.0)
            while ((*d1 <= ROTMG_RGAMSQ || *d1 >= ROTMG_GAMSQ) && isfinite(*d1)) {
                rotmg_explicit(&h);
                if (*d1 <= ROTMG_RGAMSQ) {
                    *d1 *= ROTMG_GAMSQ;
                    *x1 /= ROTMG_GAM;
                    h.h11 /= ROTMG_GAM;
                    h.h12 /= ROTMG_GAM;
                } else {
                    *d1 /= ROTMG_GAMSQ;
                    *x1 *= ROTMG_GAM;
                    h.h11 *= ROTMG_GAM;
                    h.h12 *= ROTMG_GAM;
                }
            }
        if (*d2 != 0.0)
            while ((fabs(*d2) <= ROTMG_RGAMSQ || fabs(*d2) >= ROTMG_GAMSQ) && isfinite(*d2)) {
                rotmg_explicit(&h);
                if (fabs(*d2) <= ROTMG_RGAMSQ) {
                    *d2 *= ROTMG_GAMSQ;
                    h.h21 /= ROTMG_GAM;
                    h.h22 /= ROTMG_GAM;
                } else {
                    *d2 /= ROTMG_GAMSQ;
                    h.h21 *= ROTMG_GAM;
                    h.h22 *= ROTMG_GAM;
                }
            }
    }
    /* param = (flag, h11, h21, h12, h22); the entries a flag implies are left as they were. */
    if (h.flag < 0.0) {
        param[1] = h.h11;
        param[2] = h.h21;
        param[3] = h.h12;
        param[4] = h.h22;
    } else if (h.flag == 0.0) {
        param[2] = h.h21;
        param[3] = h.h12;
    } else {
        param[1] = h.h11;
        param[4] = h.h22;
    }
    param[0] = h.flag;
}
