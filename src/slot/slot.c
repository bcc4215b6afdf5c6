/* slot.c — the resolver behind a system-slot wrapper (libblas.so.3 or liblapack.so.3): each
 * exported name is a trampoline through slot_table; on its first call it lands here and is
 * bound to libtela's definition if libtela has one, else to the reference library's. */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tela.h"

#ifndef SLOT_KIND
#error "SLOT_KIND (blas or lapack) must be defined"
#endif

#define SLOT_STRING2(x)         #x
#define SLOT_STRING(x)          SLOT_STRING2(x)
#define SLOT_JOIN3(a, b, c)     a##b##c
#define SLOT_PUBLIC(kind, what) SLOT_JOIN3(tela_, kind, what)

/* Written by the generated trampolines file: one entry per name, first the address of the
 * name's lazy stub (which calls slot_resolve), then the bound target. */
extern void *slot_table[];

static const char *const slot_names[] = {
#include "slot_names.inc"
};
enum { SLOT_COUNT = (int)(sizeof slot_names / sizeof slot_names[0]) };

static pthread_once_t reference_once = PTHREAD_ONCE_INIT;
static void *reference_handle;

/* The reference is opened by path, privately: its soname is the slot's own, so opening it by
 * that name would find this wrapper again. Its own calls of BLAS names still resolve through
 * the process's global scope, which is how its routines reach tela's kernels. */
static void open_reference(void)
{
    const char *path = secure_getenv("TELA_REFERENCE_" SLOT_KIND_UPPER);
    if (path == NULL || path[0] == '\0')
        path = SLOT_REFERENCE;
    reference_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (reference_handle == NULL)
        fprintf(stderr, "tela %s slot: cannot open the reference library %s: %s\n",
                SLOT_STRING(SLOT_KIND), path, dlerror());
}

static pthread_once_t tela_once = PTHREAD_ONCE_INIT;
static void *tela_handle;
static const void *tela_base; /* where libtela is mapped, to tell its symbols from its deps' */

#define TELA_SONAME "libtela.so." SLOT_STRING(TELA_VERSION_MAJOR)

/* libtela is found at run time, not through DT_NEEDED: the loader reaches the wrapper through
 * update-alternatives' symlinks, where $ORIGIN names the symlink's folder. In order: the
 * libtela already in the process, the one beside the wrapper's real file (lib/tela/.. in an
 * install, the build tree's root beside slot/), the loader's search path. */
static void open_tela(void)
{
    char own_path[PATH_MAX];
    Dl_info own;
    tela_handle = dlopen(TELA_SONAME, RTLD_NOW | RTLD_NOLOAD);
    if (tela_handle == NULL && dladdr((void *)open_tela, &own) != 0 && own.dli_fname != NULL &&
        realpath(own.dli_fname, own_path) != NULL) {
        char candidate[PATH_MAX + sizeof "/../" TELA_SONAME];
        snprintf(candidate, sizeof candidate, "%s/../" TELA_SONAME, dirname(own_path));
        tela_handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL);
    }
    if (tela_handle == NULL)
        tela_handle = dlopen(TELA_SONAME, RTLD_NOW | RTLD_LOCAL);
    Dl_info tela_info;
    void *version = tela_handle == NULL ? NULL : dlsym(tela_handle, "tela_version");
    if (version == NULL || dladdr(version, &tela_info) == 0) {
        fprintf(stderr, "tela %s slot: cannot find %s; every routine goes to the reference\n",
                SLOT_STRING(SLOT_KIND), TELA_SONAME);
        return;
    }
    tela_base = tela_info.dli_fbase;
}

/* libtela's definition of name, or NULL. dlsym on libtela's handle also searches libtela's
 * own dependencies (libc, libm), so the answer must be checked to lie in libtela itself. */
static void *tela_definition(const char *name)
{
    pthread_once(&tela_once, open_tela);
    if (tela_base == NULL)
        return NULL;
    Dl_info found;
    void *target = dlsym(tela_handle, name);
    if (target == NULL || dladdr(target, &found) == 0 || found.dli_fbase != tela_base)
        return NULL;
    return target;
}

/* TELA_SLOT_VERBOSE=1 names each routine as it is bound to the reference: what a program still
 * runs outside tela. */
static void *find_target(int index)
{
    void *target = tela_definition(slot_names[index]);
    if (target != NULL)
        return target;
    pthread_once(&reference_once, open_reference);
    target = reference_handle == NULL ? NULL : dlsym(reference_handle, slot_names[index]);
    const char *verbose = secure_getenv("TELA_SLOT_VERBOSE");
    if (target != NULL && verbose != NULL && verbose[0] == '1')
        fprintf(stderr, "tela %s slot: %s from the reference library\n", SLOT_STRING(SLOT_KIND),
                slot_names[index]);
    return target;
}

/* Finds name index's target and, if there is one, points its trampoline at it. Two threads
 * binding the same name both find the same target, so the race is benign. */
static void *bind_target(int index)
{
    void *target = find_target(index);
    if (target != NULL)
        __atomic_store_n(&slot_table[index], target, __ATOMIC_RELEASE);
    return target;
}

/* Called by the lazy stubs with the index of the name called; returns where to jump. */
__attribute__((visibility("hidden"))) void *slot_resolve(int index)
{
    void *target = bind_target(index);
    if (target == NULL) {
        fprintf(stderr, "tela %s slot: %s is in neither libtela nor the reference library\n",
                SLOT_STRING(SLOT_KIND), slot_names[index]);
        abort();
    }
    return target;
}

/* Introspection for tests and for users checking where a name goes: the number of names the
 * slot exports, the i-th name, and the definition a name is bound to (binding it now if it was
 * not yet called; NULL for a name the slot does not export or cannot bind). */
__attribute__((visibility("default"))) int SLOT_PUBLIC(SLOT_KIND, _slot_count)(void)
{
    return SLOT_COUNT;
}

__attribute__((visibility("default"))) const char *SLOT_PUBLIC(SLOT_KIND, _slot_name)(int index)
{
    return index >= 0 && index < SLOT_COUNT ? slot_names[index] : NULL;
}

__attribute__((visibility("default"))) void *SLOT_PUBLIC(SLOT_KIND, _slot_target)(const char *name)
{
    for (int index = 0; index < SLOT_COUNT; index++)
        if (strcmp(slot_names[index], name) == 0)
            return bind_target(index);
    return NULL;
}
