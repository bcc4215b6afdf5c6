/* rotm.c — tela_drotm: the modified rotation H of param applied to (x_i, y_i), as reference
 * DROTM. Its three forms (flag -1: all of H; 0: unit diagonal; 1: h12 = 1, h21 = -1) are one
 * loop over the full H with the implied entries filled in, which gives the reference's bits:
 * w * 1 and w * -1 are exact, and this file is built without fused multiply-adds. Contiguous
 * vectors run on blocks, in a region when it pays. */
#include "level1/level1.h"

/* x_i = h[0] x_i + h[1] y_i, y_i = h[2] x_i + h[3] y_i (h = h11, h12, h21, h22). */
static void rotm_loop(tela_int n, double *x, tela_int incx, double *y, tela_int incy,
                      const double h[4])
{
    const double h11 = h[0], h12 = h[1], h21 = h[2], h22 = h[3];
    if (incx == 1 && incy == 1) {
        for (tela_int i = 0; i < n; i++) {
            const double w = x[i], z = y[i];
            x[i] = w * h11 + z * h12;
            y[i] = w * h21 + z * h22;
        }
        return;
    }
    tela_int ix = level1_start(n, incx), iy = level1_start(n, incy);
    for (tela_int i = 0; i < n; i++, ix += incx, iy += incy) {
        const double w = x[ix], z = y[iy];
        x[ix] = w * h11 + z * h12;
        y[iy] = w * h21 + z * h22;
    }
}

static void rotm_block(const level1_job *job, tela_int b, tela_int first, tela_int len)
{
    (void)b;
    rotm_loop(len, job->out_x + first, 1, job->out_y + first, 1, job->param);
}

void tela_drotm(tela_par par, tela_int n, double *x, tela_int incx, double *y, tela_int incy,
                const double *param)
{
    const double flag = param[0];
    if (n <= 0 || flag + 2.0 == 0.0)
        return; /* flag -2: H is the identity */
    /* param = (flag, h11, h21, h12, h22). A flag neither negative nor 0 (NaN too) is reference's
     * third case. */
    double h[4];
    if (flag < 0) {
        h[0] = param[1], h[1] = param[3], h[2] = param[2], h[3] = param[4];
    } else if (flag == 0) {
        h[0] = 1.0, h[1] = param[3], h[2] = param[2], h[3] = 1.0;
    } else {
        h[0] = param[1], h[1] = 1.0, h[2] = -1.0, h[3] = param[4];
    }
    if (incx != 1 || incy != 1 || n <= LEVEL1_BLOCK) {
        rotm_loop(n, x, incx, y, incy, h);
        return;
    }
    level1_job job = {
        .block = rotm_block,
        .loops = level1_loops_for(n),
        .n = n,
        .block_len = level1_block_len(n),
        .x = x,
        .y = y,
        .out_x = x,
        .out_y = y,
        .param = h,
    };
    level1_run(par, "drotm", 4.0, &job);
}
