/* cblas_call.c — which CBLAS entry the calling thread is inside, for tela's fallback hooks.
 *
 * Reference CBLAS marks a call with two process-wide globals, which races between threads;
 * tela keeps the same two facts in a thread-local, saved and restored around each entry. */
#include "compat/compat.h"

static _Thread_local compat_cblas_call current_call;

compat_cblas_call compat_cblas_enter(const compat_cblas_routine *routine, bool row_major)
{
    compat_cblas_call previous = current_call;
    current_call.routine = routine;
    current_call.row_major = row_major;
    return previous;
}

void compat_cblas_leave(compat_cblas_call previous)
{
    current_call = previous;
}

compat_cblas_call compat_cblas_current(void)
{
    return current_call;
}
