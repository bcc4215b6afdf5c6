/* error.c — the replaceable error hook, version and diagnostics.
 *
 * tela never exits or aborts on a caller's mistake: it reports through one
 * handler (stderr by default) and returns NULL or a negative status. */
#include "par/par.h"

#include <stdio.h>

static pthread_mutex_t handler_lock = PTHREAD_MUTEX_INITIALIZER;
static tela_error_handler handler;
static void *handler_context;

tela_error_handler tela_set_error_handler(tela_error_handler new_handler, void *context)
{
    pthread_mutex_lock(&handler_lock);
    tela_error_handler old = handler;
    handler = new_handler;
    handler_context = context;
    pthread_mutex_unlock(&handler_lock);
    return old;
}

int par_error(int status, const char *where, const char *message)
{
    /* Errors are the cold path: a lock keeps handler and context paired. */
    pthread_mutex_lock(&handler_lock);
    tela_error_handler h = handler;
    void *context = handler_context;
    pthread_mutex_unlock(&handler_lock);
    if (h)
        h(status, where, message, context);
    else
        fprintf(stderr, "tela: %s: %s\n", where, message);
    return status;
}

const char *tela_version(void)
{
    return "0.1.0";
}

long tela_spawned_workers(void)
{
    return atomic_load(&par_stat_spawned);
}
