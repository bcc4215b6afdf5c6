/* tela_bench_openblas.c — finds OpenBLAS and loads it with dlmopen(LM_ID_NEWLM), so that
 * neither library's CBLAS names can bind to the other's code. The pthreads build comes first:
 * a serial or OpenMP OpenBLAS would change what a thread count compares. The kernel set is
 * named through OPENBLAS_CORETYPE in an environment given to the new namespace alone; whether
 * the build knows a name shows only by loading it and asking openblas_get_corename. */
#include "tela_bench_openblas.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

const char *const tb_isa_names[] = {
    [TB_ISA_OTHER] = "older than AVX2",
    [TB_ISA_AVX2] = "AVX2",
    [TB_ISA_AVX512] = "AVX-512",
};

/* OpenBLAS's x86-64 kernel sets with AVX2 or AVX-512 double kernels, as openblas_get_corename
 * spells them (OPENBLAS_CORETYPE takes the same names in any case). SapphireRapids and
 * Cooperlake add bfloat16 kernels to SkylakeX's; their double kernels are SkylakeX's. */
static const struct {
    const char *name;
    enum tb_isa isa;
} core_isas[] = {
    {"SapphireRapids", TB_ISA_AVX512}, /* CPUs with AMX-BF16; 0.3.21 does not know it */
    {"Cooperlake", TB_ISA_AVX512},     /* CPUs with AVX512-BF16 */
    {"SkylakeX", TB_ISA_AVX512},       /* AVX-512 F, VL, BW, DQ, CD */
    {"Zen", TB_ISA_AVX2},              /* AMD's AVX2 cores */
    {"Haswell", TB_ISA_AVX2},          /* AVX2 and FMA */
};
#define MAX_BEST_CORES 3

enum tb_isa tb_core_isa(const char *core)
{
    for (size_t i = 0; i < sizeof core_isas / sizeof core_isas[0]; i++) {
        if (!strcasecmp(core, core_isas[i].name))
            return core_isas[i].isa;
    }
    return TB_ISA_OTHER;
}

enum tb_isa tb_cpu_isa(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    /* SkylakeX's kernels use the VL, BW, DQ and CD extensions besides the foundation. */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512cd"))
        return TB_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return TB_ISA_AVX2;
#endif
    return TB_ISA_OTHER;
}

/* The kernel sets of the CPU's ISA worth naming, best first, the way OpenBLAS's own detection
 * ranks them; returns their count (0 below AVX2: then OpenBLAS's choice is kept). */
static int best_cores(const char *cores[MAX_BEST_CORES])
{
    int count = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    switch (tb_cpu_isa()) {
    case TB_ISA_AVX512: {
        /* AMX-BF16 from cpuid: clang has no __builtin_cpu_supports name for it. */
        const unsigned leaf7_edx_amx_bf16 = 1u << 22;
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        const int amx_bf16 =
            __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (edx & leaf7_edx_amx_bf16);
        const int avx512_bf16 = __builtin_cpu_supports("avx512bf16");
        if (amx_bf16 && avx512_bf16)
            cores[count++] = "SapphireRapids";
        if (avx512_bf16)
            cores[count++] = "Cooperlake";
        cores[count++] = "SkylakeX";
        break;
    }
    case TB_ISA_AVX2:
        if (__builtin_cpu_is("amd"))
            cores[count++] = "Zen";
        cores[count++] = "Haswell";
        break;
    case TB_ISA_OTHER:
        break;
    }
#else
    (void)cores;
#endif
    return count;
}

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

/* The address travels as bytes: ISO C has no conversion from void * to a function pointer. */
int tb_find_symbol(void *handle, const char *name, void *function_pointer, size_t size)
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

/* A copy of the process's environment with OPENBLAS_CORETYPE=core, or without the variable when
 * core is "": one allocation, the array followed by the assignment. NULL if out of memory. */
static char **environment_with_core(const char *core)
{
    static const char variable[] = "OPENBLAS_CORETYPE=";
    size_t count = 0;
    while (environ[count])
        count++;
    const size_t assignment_size = *core ? sizeof variable + strlen(core) : 0;
    char **copy = malloc((count + 2) * sizeof *copy + assignment_size);
    if (!copy)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(environ[i], variable, sizeof variable - 1) != 0)
            copy[n++] = environ[i];
    }
    if (*core) {
        char *assignment = (char *)(copy + count + 2);
        snprintf(assignment, assignment_size, "%s%s", variable, core);
        copy[n++] = assignment;
    }
    copy[n] = NULL;
    return copy;
}

static void unload(struct tb_openblas *ob)
{
    if (ob->handle)
        dlclose(ob->handle);
    free(ob->environment);
    ob->handle = NULL;
    ob->environment = NULL;
}

/* Loads file into a new namespace and finds its symbols. core NULL: the process's environment;
 * else OPENBLAS_CORETYPE=core ("": removed). OpenBLAS reads the variable in its constructor,
 * through the new namespace's own libc, which takes the environment current when dlmopen runs:
 * so environ points to the copy during the call (the program has no other thread yet), and the
 * process's environment never changes. Returns as tb_openblas_load. */
static int load_file(struct tb_openblas *ob, const char *file, const char *core, char *why,
                     size_t why_size)
{
    memset(ob, 0, sizeof *ob);
    if (core && !(ob->environment = environment_with_core(core))) {
        snprintf(why, why_size, "out of memory");
        return TB_OPENBLAS_NOT_FOUND;
    }
    char **process_environment = environ;
    if (ob->environment)
        environ = ob->environment;
    ob->handle = dlmopen(LM_ID_NEWLM, file, RTLD_NOW | RTLD_LOCAL);
    environ = process_environment;
    if (!ob->handle) {
        const char *error = dlerror();
        snprintf(why, why_size, "%s", error ? error : file);
        unload(ob);
        return TB_OPENBLAS_NOT_FOUND;
    }

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
        {"dgeqrf_", offsetof(struct tb_openblas, dgeqrf), sizeof(tb_dgeqrf_fn), 0},
        {"dgelqf_", offsetof(struct tb_openblas, dgelqf), sizeof(tb_dgeqrf_fn), 0},
        {"dorgqr_", offsetof(struct tb_openblas, dorgqr), sizeof(tb_dorgqr_fn), 0},
        {"dormqr_", offsetof(struct tb_openblas, dormqr), sizeof(tb_dormqr_fn), 0},
        {"dormlq_", offsetof(struct tb_openblas, dormlq), sizeof(tb_dormqr_fn), 0},
        {"dgels_", offsetof(struct tb_openblas, dgels), sizeof(tb_dgels_fn), 0},
        {"dsyevd_", offsetof(struct tb_openblas, dsyevd), sizeof(tb_dsyevd_fn), 0},
        {"dsyevr_", offsetof(struct tb_openblas, dsyevr), sizeof(tb_dsyevr_fn), 0},
        {"dsyev_", offsetof(struct tb_openblas, dsyev), sizeof(tb_dsyev_fn), 0},
        {"dsygvd_", offsetof(struct tb_openblas, dsygvd), sizeof(tb_dsygvd_fn), 0},
        {"dsytrd_", offsetof(struct tb_openblas, dsytrd), sizeof(tb_dsytrd_fn), 0},
        {"dstedc_", offsetof(struct tb_openblas, dstedc), sizeof(tb_dstedc_fn), 0},
        {"dormtr_", offsetof(struct tb_openblas, dormtr), sizeof(tb_dormtr_fn), 0},
        {"dsymm_", offsetof(struct tb_openblas, dsymm), sizeof(tb_dsymm_fn), 0},
        {"dsyr2k_", offsetof(struct tb_openblas, dsyr2k), sizeof(tb_dsyr2k_fn), 0},
        {"ddot_", offsetof(struct tb_openblas, ddot), sizeof(tb_ddot_fn), 0},
        {"daxpy_", offsetof(struct tb_openblas, daxpy), sizeof(tb_daxpy_fn), 0},
        {"dnrm2_", offsetof(struct tb_openblas, dnrm2), sizeof(tb_dnrm2_fn), 0},
        {"dgemv_", offsetof(struct tb_openblas, dgemv), sizeof(tb_dgemv_fn), 0},
        {"dsymv_", offsetof(struct tb_openblas, dsymv), sizeof(tb_dsymv_fn), 0},
        {"dger_", offsetof(struct tb_openblas, dger), sizeof(tb_dger_fn), 0},
        {"dtrsv_", offsetof(struct tb_openblas, dtrsv), sizeof(tb_dtrsv_fn), 0},
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
        if (!tb_find_symbol(ob->handle, symbols[i].name, (char *)ob + symbols[i].offset,
                            symbols[i].size) &&
            !symbols[i].optional) {
            snprintf(why, why_size, "%s has no %s: not an OpenBLAS with CBLAS and LAPACK", file,
                     symbols[i].name);
            unload(ob);
            return TB_OPENBLAS_INCOMPLETE;
        }
    }
    if (tb_function_file((tb_any_function)ob->dgemm, ob->path, sizeof ob->path) != 0)
        snprintf(ob->path, sizeof ob->path, "%s", file);
    return 0;
}

/* load_file of path, or of the first default candidate that loads. */
static int load_found(struct tb_openblas *ob, const char *path, const char *core, char *why,
                      size_t why_size)
{
    if (path)
        return load_file(ob, path, core, why, why_size);
    const size_t count = sizeof default_candidates / sizeof default_candidates[0];
    char last_error[512] = "";
    for (size_t i = 0; i < count; i++) {
        int status = load_file(ob, default_candidates[i], core, last_error, sizeof last_error);
        if (status != TB_OPENBLAS_NOT_FOUND) {
            snprintf(why, why_size, "%s", last_error);
            return status;
        }
    }
    snprintf(why, why_size, "no OpenBLAS found (tried");
    for (size_t i = 0; i < count; i++) {
        size_t used = strlen(why);
        snprintf(why + used, why_size - used, "%s %s", i ? "," : "", default_candidates[i]);
    }
    size_t used = strlen(why);
    snprintf(why + used, why_size - used, "; last error: %s)", last_error);
    return TB_OPENBLAS_NOT_FOUND;
}

int tb_openblas_load(struct tb_openblas *ob, const char *path, const char *coretype, char *why,
                     size_t why_size)
{
    const enum tb_core_choice choice = !coretype                       ? TB_CORE_BEST
                                       : !strcasecmp(coretype, "auto") ? TB_CORE_AUTO
                                                                       : TB_CORE_NAMED;
    const char *given = getenv("OPENBLAS_CORETYPE");
    /* TB_CORE_BEST first lets OpenBLAS detect the CPU, whatever the environment says. */
    const char *first = choice == TB_CORE_AUTO ? NULL : choice == TB_CORE_NAMED ? coretype : "";
    int status = load_found(ob, path, first, why, why_size);
    if (status != 0)
        return status;
    ob->core_choice = choice;
    snprintf(ob->core_environment, sizeof ob->core_environment, "%s", given ? given : "");
    if (choice == TB_CORE_NAMED)
        snprintf(ob->core_named, sizeof ob->core_named, "%s", coretype);
    if (choice != TB_CORE_BEST)
        return 0;
    snprintf(ob->core_detected, sizeof ob->core_detected, "%s", ob->get_corename());
    if (tb_core_isa(ob->core_detected) >= tb_cpu_isa())
        return 0;

    /* The same file again, once per better set, until the build reports the set named. */
    const char *cores[MAX_BEST_CORES];
    const int count = best_cores(cores);
    char file[sizeof ob->path];
    snprintf(file, sizeof file, "%s", ob->path);
    for (int i = 0; i < count; i++) {
        struct tb_openblas trial;
        char trial_why[512];
        if (load_file(&trial, file, cores[i], trial_why, sizeof trial_why) != 0)
            continue;
        if (!strcasecmp(trial.get_corename(), cores[i])) {
            trial.core_choice = choice;
            memcpy(trial.core_environment, ob->core_environment, sizeof trial.core_environment);
            memcpy(trial.core_detected, ob->core_detected, sizeof trial.core_detected);
            memcpy(trial.cores_unknown, ob->cores_unknown, sizeof trial.cores_unknown);
            snprintf(trial.core_named, sizeof trial.core_named, "%s", cores[i]);
            unload(ob);
            *ob = trial;
            return 0;
        }
        unload(&trial);
        size_t used = strlen(ob->cores_unknown);
        snprintf(ob->cores_unknown + used, sizeof ob->cores_unknown - used, "%s%s",
                 used ? ", " : "", cores[i]);
    }
    return 0;
}

const char *tb_openblas_core_origin(const struct tb_openblas *ob, char *text, size_t size)
{
    const char *core = ob->get_corename();
    int used = 0;
    switch (ob->core_choice) {
    case TB_CORE_BEST:
        if (ob->core_named[0])
            used = snprintf(text, size, "named by tela-bench: it detected %s on this CPU",
                            ob->core_detected);
        else if (tb_core_isa(core) >= tb_cpu_isa())
            used = snprintf(text, size, "OpenBLAS's own choice for this CPU");
        else
            used = snprintf(text, size, "OpenBLAS's own choice: this build has no %s kernels",
                            tb_isa_names[tb_cpu_isa()]);
        if (ob->cores_unknown[0] && used >= 0 && (size_t)used < size)
            snprintf(text + used, size - (size_t)used, "; this build does not know %s",
                     ob->cores_unknown);
        break;
    case TB_CORE_NAMED:
        if (!strcasecmp(core, ob->core_named))
            snprintf(text, size, "named with --openblas-coretype");
        else
            snprintf(text, size, "--openblas-coretype named %s, which this build does not know",
                     ob->core_named);
        break;
    case TB_CORE_AUTO:
        if (ob->core_environment[0])
            snprintf(text, size,
                     "--openblas-coretype auto: OPENBLAS_CORETYPE=%s from the "
                     "environment",
                     ob->core_environment);
        else
            snprintf(text, size, "--openblas-coretype auto: OpenBLAS's own choice");
        break;
    }
    return text;
}

const char *tb_openblas_version(const struct tb_openblas *ob, char *text, size_t size)
{
    static const char prefix[] = "OpenBLAS ";
    const char *config = ob->get_config ? ob->get_config() : NULL;
    if (config && !strncmp(config, prefix, sizeof prefix - 1))
        snprintf(text, size, "%.*s", (int)strcspn(config + sizeof prefix - 1, " "),
                 config + sizeof prefix - 1);
    else
        snprintf(text, size, "(version unknown)");
    return text;
}
