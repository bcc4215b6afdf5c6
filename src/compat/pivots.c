/* pivots.c — LAPACK's int pivot indices next to tela's tela_int ones: the per-call buffer the
 * Fortran routines convert through (par's scratch), and dlaswp on int pivots without any buffer
 * beyond the stack.
 *
 * Why a buffer and not a conversion in place, and why none is allocated in a region: compat.h. */
#include "compat/compat.h"
#include "par/engine.h"

/* Declared when the library is loaded, before any worker starts, so every thread keeps it. */
__attribute__((constructor)) static void declare_pivot_scratch(void)
{
    par_scratch_declare(PAR_SCRATCH_CALL, COMPAT_PIVOTS_KEPT * sizeof(tela_int));
}

tela_int *compat_pivots_get(compat_pivots *pivots, size_t count)
{
    pivots->block = NULL;
    pivots->owned = false;
    if (count <= COMPAT_PIVOTS_STACK)
        return pivots->stack;
    pivots->block = par_scratch_thread(PAR_SCRATCH_CALL, count * sizeof(tela_int), &pivots->owned);
    return pivots->block;
}

void compat_pivots_release(compat_pivots *pivots)
{
    par_scratch_release(pivots->block, pivots->owned);
    pivots->block = NULL;
    pivots->owned = false;
}

/* Row r's pivot, rows and pivots 1-based as reference DLASWP reads them. */
static tela_int pivot_of(const int *ipiv, tela_int k1, tela_int step, tela_int r)
{
    return ipiv[(k1 - 1) + (r - k1) * step];
}

static tela_int smaller(tela_int x, tela_int y)
{
    return x < y ? x : y;
}

/* Interchanges rows r and p (1-based) over the n columns of a: one interchange whose pivot lies
 * too far above its row for a chunk (reference allows any row of A). */
static void swap_two_rows(int n, double *a, int lda, tela_int r, tela_int p)
{
    double *x = a + (r - 1), *y = a + (p - 1);
    for (tela_int c = 0; c < n; c++) {
        const double t = x[c * lda];
        x[c * lda] = y[c * lda];
        y[c * lda] = t;
    }
}

void compat_laswp(tela_par par, int n, double *a, int lda, int k1, int k2, const int *ipiv,
                  int incx)
{
    if (n <= 0 || incx == 0 || k2 < k1 || !a || !ipiv)
        return;
    const bool forward = incx > 0;
    const tela_int step = forward ? incx : -(tela_int)incx;
    tela_int buf[COMPAT_PIVOTS_STACK];
    /* Chunks of consecutive rows [lo, hi], taken in the order reference walks the rows. A chunk
     * is one tela_dlaswp on the rows from base, the least of lo and the chunk's pivots, with
     * rows and pivots renumbered from there (so every number stays >= 1): it reads buf from
     * lo - base to hi - base, so hi - base < COMPAT_PIVOTS_STACK. */
    tela_int next = forward ? k1 : k2;
    while (forward ? next <= k2 : next >= k1) {
        tela_int lo = next, hi = next, base = smaller(next, pivot_of(ipiv, k1, step, next));
        if (hi - base >= COMPAT_PIVOTS_STACK) {
            swap_two_rows(n, a, lda, next, base);
            next += forward ? 1 : -1;
            continue;
        }
        while (forward && hi < k2) {
            const tela_int b = smaller(base, pivot_of(ipiv, k1, step, hi + 1));
            if (hi + 1 - b >= COMPAT_PIVOTS_STACK)
                break;
            hi++, base = b;
        }
        while (!forward && lo > k1) {
            const tela_int b = smaller(smaller(base, lo - 1), pivot_of(ipiv, k1, step, lo - 1));
            if (hi - b >= COMPAT_PIVOTS_STACK)
                break;
            lo--, base = b;
        }
        for (tela_int r = lo; r <= hi; r++)
            buf[r - base] = pivot_of(ipiv, k1, step, r) - base + 1;
        (void)tela_dlaswp(par, n, a + (base - 1), lda, lo - base + 1, hi - base + 1, buf,
                          forward ? 1 : -1);
        next = forward ? hi + 1 : lo - 1;
    }
}
