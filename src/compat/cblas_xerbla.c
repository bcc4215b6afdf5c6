/* cblas_xerbla.c — tela's fallback cblas_xerbla, called when neither the program nor a library
 * before libtela defines one.
 *
 * Reference CBLAS reports a row-major error with the number of the swapped Fortran call and has
 * cblas_xerbla swap it back; the fallback does the same from the routine's table, so the number
 * printed is the argument's position in the caller's call. Weak and default-visibility like
 * xerbla_ (see xerbla.c); it prints through tela's error handler and returns, never exits. */
#include "compat/compat.h"
#include "par/engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The CBLAS parameter number of raw number info reported by a row-major call of routine. */
static int row_major_position(const compat_cblas_routine *routine, int info)
{
    for (int i = 0; i < 2; i++) {
        const int *pair = routine->row_major_swaps[i];
        if (pair[0] == 0)
            continue;
        if (info == pair[0])
            return pair[1];
        if (info == pair[1])
            return pair[0];
    }
    return info;
}

__attribute__((weak, visibility("default"))) void cblas_xerbla(int p, const char *rout,
                                                               const char *form, ...)
{
    char detail[96];
    va_list args;
    va_start(args, form);
    /* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized): started on the line above */
    vsnprintf(detail, sizeof detail, form, args);
    va_end(args);
    size_t len = strlen(detail);
    while (len > 0 && detail[len - 1] == '\n')
        detail[--len] = '\0';

    compat_cblas_call call = compat_cblas_current();
    if (call.routine && call.row_major && strcmp(rout, call.routine->name) == 0)
        p = row_major_position(call.routine, p);

    char message[160];
    if (p != 0)
        snprintf(message, sizeof message, "parameter %d was incorrect%s%s", p, len ? ": " : "",
                 detail);
    else
        snprintf(message, sizeof message, "%s", detail);
    par_error(TELA_EINVAL, rout, message);
}
