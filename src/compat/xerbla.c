/* xerbla.c — reporting a bad argument of a Fortran-ABI routine through xerbla_, and tela's
 * fallback xerbla_.
 *
 * Programs and test suites define xerbla_ to catch argument errors, so tela must call theirs:
 * the fallback is weak (a static link takes the program's) and default-visibility, and every
 * call goes through the PLT (a shared libtela binds to the program's or to the first library's
 * in lookup order). Unlike reference xerbla, the fallback returns instead of stopping. */
#include "compat/compat.h"
#include "par/engine.h"

#include <stdio.h>
#include <string.h>

/* The longest routine name printed; Fortran names are 6 characters. */
#define SRNAME_MAX 31

void compat_xerbla(const char *srname, int info)
{
    /* The hidden length argument gfortran passes after the string arguments. */
    xerbla_(srname, &info, strlen(srname));
}

__attribute__((weak, visibility("default"))) void xerbla_(const char *srname, const int *info,
                                                          size_t srname_len)
{
    compat_cblas_call call = compat_cblas_current();
    if (call.routine) {
        /* A Fortran routine run for a CBLAS entry: as reference CBLAS's own xerbla_ does, hand
         * the error to cblas_xerbla, one number further (the CBLAS call has the layout first). */
        cblas_xerbla(*info + 1, call.routine->name, "");
        return;
    }
    /* A Fortran string has no NUL; a C caller's may stop early. Trailing blanks are padding. */
    char name[SRNAME_MAX + 1];
    size_t len = 0;
    while (len < srname_len && len < SRNAME_MAX && srname[len] != '\0') {
        name[len] = srname[len];
        len++;
    }
    while (len > 0 && name[len - 1] == ' ')
        len--;
    name[len] = '\0';
    char message[64];
    snprintf(message, sizeof message, "parameter number %d had an illegal value", *info);
    par_error(TELA_EINVAL, name, message);
}
