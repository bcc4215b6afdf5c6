/* xerbla_hooks.h — the program's own xerbla_, as a Fortran program defines it, for the tests of
 * tela's LAPACK symbols (test_compat_lapack, test_compat_qr): it records the last report, and
 * a handler counts what reached tela's error handler instead. Include it in one file only. */
#ifndef TELA_TEST_XERBLA_HOOKS_H
#define TELA_TEST_XERBLA_HOOKS_H

#include "tela.h"

#include <stddef.h>
#include <string.h>

static struct hook_calls {
    int xerbla;             /* calls of xerbla_ */
    char srname[16];        /* its last srname, srname_len characters */
    size_t srname_len;      /* its last hidden length */
    int info;               /* its last info */
    int tela_handler_calls; /* reports that reached tela's error handler (tela's fallback) */
} hooks;

void xerbla_(const char *srname, const int *info, size_t srname_len)
{
    hooks.xerbla++;
    hooks.srname_len = srname_len;
    size_t n = srname_len < sizeof hooks.srname - 1 ? srname_len : sizeof hooks.srname - 1;
    memcpy(hooks.srname, srname, n);
    hooks.srname[n] = '\0';
    hooks.info = *info;
}

static void count_tela_report(int status, const char *where, const char *message, void *context)
{
    (void)status, (void)where, (void)message, (void)context;
    hooks.tela_handler_calls++;
}

static int reset_hooks(void **state)
{
    (void)state;
    memset(&hooks, 0, sizeof hooks);
    tela_set_error_handler(count_tela_report, NULL);
    return 0;
}

static void expect_no_reports(void)
{
    assert_int_equal(hooks.xerbla + hooks.tela_handler_calls, 0);
}

#endif /* TELA_TEST_XERBLA_HOOKS_H */
