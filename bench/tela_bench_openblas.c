/* tela_bench_openblas.c — finds OpenBLAS and loads it with dlmopen(LM_ID_NEWLM), so that
 * neither library's CBLAS names can bind to the other's code. The pthreads build comes first:
 * a serial or OpenMP OpenBLAS would change what a thread count compares. */
#include "tela_bench_openblas.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where to look when no path is given, in order. TB_MULTIARCH is the Debian multiarch triplet
 * (CMAKE_LIBRARY_ARCHITECTURE, e.g. x86_64-linux-gnu) when the build knows one. */
static const char *const default_candidates[] = {
#ifdef TB_MULTIARCH
    "/usr/lib/" TB_MULTIARCH "/openblas-pthread/libopenblas.so.0", /* Debian, Ubuntu: pthreads */
#endif
    "libopenblasp.so.0", /* Fedora, RHEL: the pthreads build under its own name */
    "libopenblas.so.0",  /* the loader's search: Debian's alternative, most other systems */
    "libopenblas.so",    /* a development link, e.g. a source build in /usr/local/lib */
};

/* dlsym into a function pointer of any type: the address travels as bytes, since ISO C has no
 * conversion from void * to a function pointer. Returns 0 if the symbol is absent. */
static int find_symbol(void *handle, const char *name, void *function_pointer, size_t size)
{
    void *address = dlsym(handle, name);
    if (!address || size != sizeof address)
        return 0;
    memcpy(function_pointer, &address, size);
    return 1;
}

int tb_function_file(tb_any_function function, char *file, size_t file_size)
{
    void *address;
    memcpy(&address, &function, sizeof address);
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fname)
        return -1;
    char resolved[PATH_MAX];
    if (!realpath(info.dli_fname, resolved))
        return -1;
    snprintf(file, file_size, "%s", resolved);
    return 0;
}

int tb_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return -1;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Loads one candidate into a new namespace; returns the handle or NULL (dlerror in why). */
static void *open_candidate(const char *name, char *why, size_t why_size)
{
    void *handle = dlmopen(LM_ID_NEWLM, name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(why, why_size, "%s", error ? error : name);
    }
    return handle;
}

int tb_openblas_load(struct tb_openblas *ob, const char *path, char *why, size_t why_size)
{
    memset(ob, 0, sizeof *ob);
    if (path) {
        ob->handle = open_candidate(path, why, why_size);
    } else {
        size_t count = sizeof default_candidates / sizeof default_candidates[0];
        char last_error[512] = "";
        for (size_t i = 0; i < count && !ob->handle; i++)
            ob->handle = open_candidate(default_candidates[i], last_error, sizeof last_error);
        if (!ob->handle) {
            snprintf(why, why_size, "no OpenBLAS found (tried");
            for (size_t i = 0; i < count; i++) {
                size_t used = strlen(why);
                snprintf(why + used, why_size - used, "%s %s", i ? "," : "", default_candidates[i]);
            }
            size_t used = strlen(why);
            snprintf(why + used, why_size - used, "; last error: %s)", last_error);
        }
    }
    if (!ob->handle)
        return TB_OPENBLAS_NOT_FOUND;

    Lmid_t namespace_id = LM_ID_BASE;
    if (dlinfo(ob->handle, RTLD_DI_LMID, &namespace_id) == 0)
        ob->namespace_id = (long)namespace_id;

    static const struct {
        const char *name;
        size_t offset, size;
        int optional; /* older builds lack it; the header says "unknown" instead */
    } symbols[] = {
        {"cblas_dgemm", offsetof(struct tb_openblas, dgemm), sizeof(tb_cblas_dgemm_fn), 0},
        {"cblas_dtrsm", offsetof(struct tb_openblas, dtrsm), sizeof(tb_cblas_dtrxm_fn), 0},
        {"cblas_dtrmm", offsetof(struct tb_openblas, dtrmm), sizeof(tb_cblas_dtrxm_fn), 0},
        {"cblas_dsyrk", offsetof(struct tb_openblas, dsyrk), sizeof(tb_cblas_dsyrk_fn), 0},
        {"dgetrf_", offsetof(struct tb_openblas, dgetrf), sizeof(tb_dgetrf_fn), 0},
        {"dgetrs_", offsetof(struct tb_openblas, dgetrs), sizeof(tb_dgetrs_fn), 0},
        {"dgesv_", offsetof(struct tb_openblas, dgesv), sizeof(tb_dgesv_fn), 0},
        {"dpotrf_", offsetof(struct tb_openblas, dpotrf), sizeof(tb_dpotrf_fn), 0},
        {"dpotrs_", offsetof(struct tb_openblas, dpotrs), sizeof(tb_dpotrs_fn), 0},
        {"dposv_", offsetof(struct tb_openblas, dposv), sizeof(tb_dposv_fn), 0},
        {"openblas_get_corename", offsetof(struct tb_openblas, get_corename),
         sizeof(char *(*)(void)), 0},
        {"openblas_get_config", offsetof(struct tb_openblas, get_config), sizeof(char *(*)(void)),
         1},
        {"openblas_get_parallel", offsetof(struct tb_openblas, get_parallel), sizeof(int (*)(void)),
         1},
        {"openblas_set_num_threads", offsetof(struct tb_openblas, set_num_threads),
         sizeof(void (*)(int)), 0},
        {"openblas_get_num_threads", offsetof(struct tb_openblas, get_num_threads),
         sizeof(int (*)(void)), 0},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        if (!find_symbol(ob->handle, symbols[i].name, (char *)ob + symbols[i].offset,
                         symbols[i].size) &&
            !symbols[i].optional) {
            snprintf(why, why_size, "%s has no %s: not an OpenBLAS with CBLAS and LAPACK",
                     path ? path : "the library loaded", symbols[i].name);
            return TB_OPENBLAS_INCOMPLETE;
        }
    }
    if (tb_function_file((tb_any_function)ob->dgemm, ob->path, sizeof ob->path) != 0)
        snprintf(ob->path, sizeof ob->path, "%s", path ? path : "(unknown file)");
    return 0;
}
