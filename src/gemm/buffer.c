/* buffer.c — a packing buffer per thread, kept between calls (and a
 * second one for a routine's own data while its GEMMs pack into the first).
 *
 * A serial GEMM (and the caller's workspace for pool and auto routes) would
 * otherwise allocate per call. Inside a region nothing is allocated: a call
 * there uses the buffer it has or gets NULL (the caller falls back to the
 * unpacked path), which keeps the promise of tela.h that no tela call in a
 * body allocates. So every worker reserves the largest serial GEMM's buffer
 * when it starts, and a caller before each region: a serial call in any
 * body packs as it would outside (unpacked, GEMM on a worker ran at half
 * speed). The buffers are freed when their thread exits. */
#include "gemm/gemm.h"
#include "par/par.h"

#include <pthread.h>
#include <stdlib.h>

/* Larger requests are allocated per call and not kept: a thread should
 * not hold more than one big GEMM's worth (~9 MB) for good. */
#define KEEP_BYTES (16u << 20)

typedef struct thread_buffer {
    double *p;
    size_t len; /* doubles */
} thread_buffer;

/* Slot 0 packs GEMMs; slot 1 is a routine's data that must outlive the
 * GEMMs it calls meanwhile (getrf's prepared steps). */
typedef struct thread_buffers {
    thread_buffer slot[2];
} thread_buffers;

static pthread_key_t buffer_key;
static pthread_once_t buffer_once = PTHREAD_ONCE_INIT;

static void buffer_free(void *p)
{
    thread_buffers *b = p;
    free(b->slot[0].p);
    free(b->slot[1].p);
    free(b);
}

static void buffer_key_init(void)
{
    pthread_key_create(&buffer_key, buffer_free);
}

/* The largest serial GEMM's buffer: B's kc x nc block and A's mc x kc. */
static size_t serial_max_len(void)
{
    const ptrdiff_t any = (ptrdiff_t)1 << 30;
    const size_t len = gemm_serial_buffer_len(gemm_kernel_get(), any, any, any);
    return len < KEEP_BYTES / sizeof(double) ? len : KEEP_BYTES / sizeof(double);
}

static double *kept_get(int slot, size_t len, bool *owned)
{
    *owned = false;
    /* Slot 0 never holds less than a serial GEMM's need: so reserving it
     * (below) never replaces a buffer already handed out for a region. */
    const size_t floor = slot == 0 ? serial_max_len() : 0;
    if (len < floor)
        len = floor;
    pthread_once(&buffer_once, buffer_key_init);
    thread_buffers *all = pthread_getspecific(buffer_key);
    thread_buffer *b = all ? &all->slot[slot] : NULL;
    if (b && b->len >= len)
        return b->p;
    if (par_current_member())
        return NULL;
    size_t bytes = (len * sizeof(double) + 63) / 64 * 64;
    if (bytes > KEEP_BYTES) {
        *owned = true;
        return aligned_alloc(64, bytes);
    }
    if (!all) {
        all = calloc(1, sizeof *all);
        if (!all || pthread_setspecific(buffer_key, all) != 0) {
            free(all);
            return NULL;
        }
        b = &all->slot[slot];
    }
    double *p = aligned_alloc(64, bytes);
    if (!p)
        return NULL;
    free(b->p);
    b->p = p;
    b->len = bytes / sizeof(double);
    return p;
}

double *gemm_buffer_get(size_t len, bool *owned)
{
    return kept_get(0, len, owned);
}

void gemm_buffer_reserve(void)
{
    /* Once per thread: it runs before every region, where ~10 ns counted
     * (getrf 128 on a held team makes ~30 gated calls). */
    static _Thread_local bool reserved;
    bool owned;
    if (!reserved && !par_current_member())
        reserved = kept_get(0, 0, &owned) != NULL;
}

double *gemm_routine_buffer(tela_par par, size_t len, bool *owned)
{
    *owned = false;
    if (par.kind == TELA_PAR_TEAM && par.team)
        return tela_team_workspace(par.team, len * sizeof(double));
    return kept_get(1, len, owned);
}

double *gemm_member_buffers(tela_par par, int members, size_t len, size_t *stride, bool *owned)
{
    *stride = (len + 7) / 8 * 8; /* each member's buffer 64-byte aligned */
    *owned = false;
    const size_t total = (size_t)members * *stride;
    if (par.kind == TELA_PAR_TEAM && par.team)
        return tela_team_workspace(par.team, total * sizeof(double));
    return gemm_buffer_get(total, owned);
}
