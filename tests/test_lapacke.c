/* test_lapacke — the system's LAPACKE on top of libtela: this program links libtela before
 * liblapacke and liblapack (on Debian an alternative, often OpenBLAS's), so the Fortran symbols
 * LAPACKE calls (dgetrf_, dgetrs_, dgesv_, dlaswp_, dpotrf_, dpotrs_, dposv_; dgeqrf_, dorgqr_,
 * dormqr_, dgelqf_, dorglq_, dormlq_, dgels_; dsyevd_, dsyevr_, dsygvd_; the last ten have their
 * workspace sized by LAPACKE through their query) must resolve to tela's. Shown twice: by reading
 * liblapacke's own GOT slots for them after the calls (the addresses its PLT jumps to) and naming
 * their library with dladdr; and, in column-major, by results bit for bit those of the native
 * routines. Both layouts are checked by residuals. */
#define _GNU_SOURCE
#include "testutil.h"

#include <dlfcn.h>
#include <elf.h>
#include <float.h>
#include <link.h>
#include <math.h>

#include <lapacke.h>

static const char *const fortran_symbols[] = {"dgetrf_", "dgetrs_", "dgesv_",  "dlaswp_", "dpotrf_",
                                              "dpotrs_", "dposv_",  "dgeqrf_", "dorgqr_", "dormqr_",
                                              "dgelqf_", "dorglq_", "dormlq_", "dgels_",  "dsyevd_",
                                              "dsyevr_", "dsygvd_"};
#define SYMBOLS (sizeof fortran_symbols / sizeof fortran_symbols[0])

/* The symbol index of a relocation's info word, for this ELF class. */
#if __ELF_NATIVE_CLASS == 64
#define RELOCATION_SYMBOL(info) ELF64_R_SYM(info)
#else
#define RELOCATION_SYMBOL(info) ELF32_R_SYM(info)
#endif

/* ---- where LAPACKE's calls go ------------------------------------------------------------------
 */

/* The loaded object's memory at address: the one place addresses from ELF tables become
 * pointers. */
static const void *at_address(uintptr_t address)
{
    return (const void *)address; /* NOLINT(performance-no-int-to-ptr) */
}

/* A pointer from liblapacke's dynamic section: relocated in place by most loaders, not by some
 * (read-only dynamic sections), so a value below the load base is taken as unrelocated. */
/* cppcheck-suppress unknownMacro ; ElfW is <link.h>'s */
static const void *dynamic_pointer(ElfW(Addr) base, ElfW(Addr) value)
{
    return at_address(value < base ? base + value : value);
}

/* What liblapacke's GOT holds for each symbol (NULL: no relocation found). */
typedef struct got_scan {
    bool found_library;
    char library[256]; /* liblapacke's path */
    char libtela[256]; /* libtela's path, as loaded */
    void *slot_value[SYMBOLS];
} got_scan;

static void scan_relocations(got_scan *scan, ElfW(Addr) base, const ElfW(Rela) * rela, size_t bytes,
                             const ElfW(Sym) * symtab, const char *strtab)
{
    for (size_t i = 0; i < bytes / sizeof *rela; i++) {
        const char *name = strtab + symtab[RELOCATION_SYMBOL(rela[i].r_info)].st_name;
        for (size_t s = 0; s < SYMBOLS; s++)
            if (strcmp(name, fortran_symbols[s]) == 0)
                scan->slot_value[s] = *(void *const *)at_address(base + rela[i].r_offset);
    }
}

static int find_lapacke(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    got_scan *scan = arg;
    if (info->dlpi_name && strstr(info->dlpi_name, "/libtela.so"))
        snprintf(scan->libtela, sizeof scan->libtela, "%s", info->dlpi_name);
    if (!info->dlpi_name || !strstr(info->dlpi_name, "liblapacke.so") || scan->found_library)
        return 0;
    scan->found_library = true;
    snprintf(scan->library, sizeof scan->library, "%s", info->dlpi_name);
    const ElfW(Addr) base = info->dlpi_addr;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            dyn = at_address(base + info->dlpi_phdr[i].p_vaddr);
    if (!dyn)
        return 0;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *jmprel = NULL, *rela = NULL;
    size_t jmprel_bytes = 0, rela_bytes = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB:
            symtab = dynamic_pointer(base, dyn->d_un.d_ptr);
            break;
        case DT_STRTAB:
            strtab = dynamic_pointer(base, dyn->d_un.d_ptr);
            break;
        case DT_JMPREL:
            jmprel = dynamic_pointer(base, dyn->d_un.d_ptr);
            break;
        case DT_PLTRELSZ:
            jmprel_bytes = dyn->d_un.d_val;
            break;
        case DT_RELA:
            rela = dynamic_pointer(base, dyn->d_un.d_ptr);
            break;
        case DT_RELASZ:
            rela_bytes = dyn->d_un.d_val;
            break;
        default:
            break;
        }
    }
    if (symtab && strtab) {
        if (jmprel) /* calls through the PLT */
            scan_relocations(scan, base, jmprel, jmprel_bytes, symtab, strtab);
        if (rela) /* calls through the GOT (-fno-plt) */
            scan_relocations(scan, base, rela, rela_bytes, symtab, strtab);
    }
    return 0; /* go on: libtela may come later */
}

/* The file that defines the code at address (dladdr), or "?". */
static const char *library_of(const void *address)
{
    Dl_info where;
    if (!address || !dladdr(address, &where) || !where.dli_fname)
        return "?";
    return where.dli_fname;
}

/* ---- matrices and residuals ------------------------------------------------------------------ */

/* A stored matrix of either layout; element (i, j) of the logical matrix. */
typedef struct stored {
    double *x;
    int rows, cols, ld, layout;
} stored;

static double *element(stored s, int i, int j)
{
    return s.layout == LAPACK_ROW_MAJOR ? &s.x[(size_t)i * s.ld + j] : &s.x[i + (size_t)j * s.ld];
}

/* rows x cols with leading dimension 3 beyond the least; random, plus shift on the diagonal;
 * symmetric if asked (then rows = cols). */
static stored make(int layout, int rows, int cols, double shift, bool symmetric, unsigned seed)
{
    stored s = {NULL, rows, cols, (layout == LAPACK_ROW_MAJOR ? cols : rows) + 3, layout};
    const size_t len = (size_t)s.ld * (layout == LAPACK_ROW_MAJOR ? rows : cols);
    s.x = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(s.x);
    for (size_t i = 0; i < len; i++)
        s.x[i] = NAN; /* padding: never read */
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            if (!symmetric || i <= j)
                *element(s, i, j) = tu_uniform(&seed) + (i == j ? shift : 0.0);
    if (symmetric)
        for (int j = 0; j < cols; j++)
            for (int i = j + 1; i < rows; i++)
                *element(s, i, j) = *element(s, j, i);
    return s;
}

static stored copy(stored s)
{
    stored c = s;
    const size_t len = (size_t)s.ld * (s.layout == LAPACK_ROW_MAJOR ? s.rows : s.cols);
    c.x = malloc(sizeof(double) * (len ? len : 1));
    assert_non_null(c.x);
    memcpy(c.x, s.x, sizeof(double) * len);
    return c;
}

static double max_abs(stored s)
{
    double m = 0;
    for (int j = 0; j < s.cols; j++)
        for (int i = 0; i < s.rows; i++)
            m = fmax(m, fabs(*element(s, i, j)));
    return m;
}

/* ||P A - L U|| / (max(m, n) ||A|| eps), max norms, for getrf's factors f of a0. */
static double lu_ratio(stored a0, stored f, const lapack_int *ipiv)
{
    const int m = a0.rows, n = a0.cols, mn = m < n ? m : n;
    stored pa = copy(a0);
    for (int i = 0; i < mn; i++) {
        const int p = ipiv[i] - 1;
        for (int j = 0; j < n && p != i; j++) {
            const double t = *element(pa, i, j);
            *element(pa, i, j) = *element(pa, p, j);
            *element(pa, p, j) = t;
        }
    }
    double worst = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            long double s = 0;
            const int kmax = i < j ? i : j;
            for (int k = 0; k <= kmax && k < mn; k++)
                s += (long double)(k == i ? 1.0 : *element(f, i, k)) * *element(f, k, j);
            worst = fmax(worst, fabs((double)(s - *element(pa, i, j))));
        }
    }
    free(pa.x);
    return worst / ((m > n ? m : n) * max_abs(a0) * DBL_EPSILON);
}

/* ||op(A) X - B|| / (n ||A|| ||X|| eps), max norms. */
static double solve_ratio(stored a, bool trans, stored x, stored b)
{
    const int n = a.rows;
    double worst = 0;
    for (int j = 0; j < b.cols; j++) {
        for (int i = 0; i < n; i++) {
            long double s = 0;
            for (int k = 0; k < n; k++)
                s += (long double)(trans ? *element(a, k, i) : *element(a, i, k)) *
                     *element(x, k, j);
            worst = fmax(worst, fabs((double)(s - *element(b, i, j))));
        }
    }
    return worst / (n * max_abs(a) * fmax(max_abs(x), DBL_MIN) * DBL_EPSILON);
}

static void expect_ratio(const char *what, int layout, int n, double ratio)
{
    if (!(ratio < 30.0))
        fail_msg("%s %s n=%d: residual ratio %g (LAPACK's threshold 30)", what,
                 layout == LAPACK_ROW_MAJOR ? "row-major" : "column-major", n, ratio);
}

/* ---- the tests ------------------------------------------------------------------------------ */

static const int layouts[] = {LAPACK_COL_MAJOR, LAPACK_ROW_MAJOR};
/* One past the 256 pivots tela converts on the stack. */
static const int sizes[] = {1, 7, 64, 150, 300};

static void test_lu(void **state)
{
    (void)state;
    unsigned seed = 1;
    for (size_t l = 0; l < 2; l++) {
        const int layout = layouts[l];
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int n = sizes[s], nrhs = 3;
            lapack_int *ipiv = malloc(sizeof(lapack_int) * (size_t)(n + 5));
            assert_non_null(ipiv);
            /* dgetrf, square, tall and wide */
            static const int shapes[][2] = {{0, 0}, {5, 0}, {0, 5}};
            for (int k = 0; k < 3; k++) {
                stored a0 = make(layout, n + shapes[k][0], n + shapes[k][1], 0.0, false, seed++);
                stored f = copy(a0);
                assert_int_equal(LAPACKE_dgetrf(layout, f.rows, f.cols, f.x, f.ld, ipiv), 0);
                expect_ratio("LAPACKE_dgetrf", layout, n, lu_ratio(a0, f, ipiv));
                free(a0.x), free(f.x);
            }
            /* dgetrf then dgetrs, N and T */
            stored a0 = make(layout, n, n, 0.0, false, seed++), f = copy(a0);
            assert_int_equal(LAPACKE_dgetrf(layout, n, n, f.x, f.ld, ipiv), 0);
            for (int t = 0; t < 2; t++) {
                stored b = make(layout, n, nrhs, 0.0, false, seed++), x = copy(b);
                assert_int_equal(
                    LAPACKE_dgetrs(layout, t ? 'T' : 'N', n, nrhs, f.x, f.ld, ipiv, x.x, x.ld), 0);
                expect_ratio(t ? "LAPACKE_dgetrs T" : "LAPACKE_dgetrs N", layout, n,
                             solve_ratio(a0, t, x, b));
                free(b.x), free(x.x);
            }
            /* dgesv */
            stored b = make(layout, n, nrhs, 0.0, false, seed++), x = copy(b), g = copy(a0);
            assert_int_equal(LAPACKE_dgesv(layout, n, nrhs, g.x, g.ld, ipiv, x.x, x.ld), 0);
            expect_ratio("LAPACKE_dgesv", layout, n, solve_ratio(a0, false, x, b));
            /* singular: info > 0, as LAPACK reports it */
            for (int i = 0; i < n; i++)
                *element(a0, i, n / 2) = 0.0;
            assert_true(LAPACKE_dgesv(layout, n, nrhs, a0.x, a0.ld, ipiv, b.x, b.ld) > 0);
            free(a0.x), free(f.x), free(b.x), free(x.x), free(g.x);
            free(ipiv);
        }
    }
}

static void test_cholesky(void **state)
{
    (void)state;
    unsigned seed = 100;
    for (size_t l = 0; l < 2; l++) {
        const int layout = layouts[l];
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int n = sizes[s], nrhs = 3;
            for (int u = 0; u < 2; u++) {
                const char uplo = u ? 'L' : 'U';
                stored a0 = make(layout, n, n, n, true, seed++), f = copy(a0);
                assert_int_equal(LAPACKE_dpotrf(layout, uplo, n, f.x, f.ld), 0);
                /* A = U^T U or L L^T from the triangle written */
                double worst = 0;
                for (int j = 0; j < n; j++)
                    for (int i = 0; i <= j; i++) {
                        long double sum = 0;
                        for (int k = 0; k <= i; k++)
                            sum += u ? (long double)*element(f, i, k) * *element(f, j, k)
                                     : (long double)*element(f, k, i) * *element(f, k, j);
                        worst = fmax(worst, fabs((double)(sum - *element(a0, i, j))));
                    }
                expect_ratio("LAPACKE_dpotrf", layout, n, worst / (n * max_abs(a0) * DBL_EPSILON));
                stored b = make(layout, n, nrhs, 0.0, false, seed++), x = copy(b), y = copy(b);
                assert_int_equal(LAPACKE_dpotrs(layout, uplo, n, nrhs, f.x, f.ld, x.x, x.ld), 0);
                expect_ratio("LAPACKE_dpotrs", layout, n, solve_ratio(a0, false, x, b));
                stored g = copy(a0);
                assert_int_equal(LAPACKE_dposv(layout, uplo, n, nrhs, g.x, g.ld, y.x, y.ld), 0);
                expect_ratio("LAPACKE_dposv", layout, n, solve_ratio(a0, false, y, b));
                /* not positive definite from order n/2 + 1: info says where */
                *element(a0, n / 2, n / 2) = -1.0;
                assert_int_equal(LAPACKE_dposv(layout, uplo, n, nrhs, a0.x, a0.ld, b.x, b.ld),
                                 n / 2 + 1);
                free(a0.x), free(f.x), free(b.x), free(x.x), free(y.x), free(g.x);
            }
        }
    }
}

/* LAPACKE_dlaswp: the interchanges, both layouts, forward and backward. */
static void test_laswp(void **state)
{
    (void)state;
    enum { N = 300, COLS = 4 };
    lapack_int ipiv[N];
    unsigned seed = 200;
    for (int i = 0; i < N; i++)
        ipiv[i] = i + 1 + (int)((tu_uniform(&seed) + 0.5) * (N - i));
    for (size_t l = 0; l < 2; l++) {
        for (int incx = -1; incx <= 1; incx += 2) {
            stored a = make(layouts[l], N, COLS, 0.0, false, seed++), want = copy(a);
            assert_int_equal(LAPACKE_dlaswp(layouts[l], COLS, a.x, a.ld, 1, N, ipiv, incx), 0);
            for (int q = 0; q < N; q++) {
                const int i = incx > 0 ? q : N - 1 - q, p = ipiv[i] - 1;
                for (int j = 0; j < COLS; j++) {
                    const double t = *element(want, i, j);
                    *element(want, i, j) = *element(want, p, j);
                    *element(want, p, j) = t;
                }
            }
            for (int j = 0; j < COLS; j++)
                for (int i = 0; i < N; i++)
                    if (*element(a, i, j) != *element(want, i, j))
                        fail_msg("LAPACKE_dlaswp incx=%d: (%d, %d) is %g, expected %g", incx, i, j,
                                 *element(a, i, j), *element(want, i, j));
            free(a.x), free(want.x);
        }
    }
}

/* ---- QR, LQ and least squares ------------------------------------------------------------------
 * LAPACKE asks each routine for its workspace (LWORK = -1), allocates what it answers and calls
 * it again; row-major, on transposed copies. */

static const int qr_sizes[] = {1, 7, 70, 150};

/* ||A - Q R|| (||A - L Q||), ||I - Q^T Q|| (||I - Q Q^T||) and ||Q^T A - [R; 0]||
 * (||A Q^T - [L 0]||) over (max(m, n) ||A|| eps), (max(m, n) eps) and again, max norms: the
 * factorization f (R or L in it, tau) of a0, q its explicit Q, c the product by dormqr
 * (dormlq). */
static void check_factorization(const char *what, bool lq, stored a0, stored f, stored q, stored c)
{
    const int m = a0.rows, n = a0.cols, k = m < n ? m : n, big = m > n ? m : n;
    double product = 0, orthogonal = 0, applied = 0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            long double s = 0;
            for (int p = 0; p < k && p <= (lq ? i : j); p++)
                s += lq ? (long double)*element(f, i, p) * *element(q, p, j)
                        : (long double)*element(q, i, p) * *element(f, p, j);
            product = fmax(product, fabs((double)(s - *element(a0, i, j))));
            const bool in_factor = lq ? j <= i && j < k : i <= j && i < k;
            applied = fmax(applied, fabs(*element(c, i, j) - (in_factor ? *element(f, i, j) : 0)));
        }
    }
    const int length = lq ? n : m; /* the length of Q's k orthonormal vectors */
    for (int j = 0; j < k; j++) {
        for (int i = 0; i < k; i++) {
            long double s = 0;
            for (int p = 0; p < length; p++)
                s += lq ? (long double)*element(q, i, p) * *element(q, j, p)
                        : (long double)*element(q, p, i) * *element(q, p, j);
            orthogonal = fmax(orthogonal, fabs((double)(s - (i == j ? 1.0 : 0.0))));
        }
    }
    const double scale = big * max_abs(a0) * DBL_EPSILON;
    char name[96];
    snprintf(name, sizeof name, "%s %d x %d: ||A - product||", what, m, n);
    expect_ratio(name, a0.layout, k, product / scale);
    snprintf(name, sizeof name, "%s %d x %d: orthogonality", what, m, n);
    expect_ratio(name, a0.layout, k, orthogonal / (big * DBL_EPSILON));
    snprintf(name, sizeof name, "%s %d x %d: the product by Q", what, m, n);
    expect_ratio(name, a0.layout, k, applied / scale);
}

static void test_qr(void **state)
{
    (void)state;
    unsigned seed = 400;
    for (size_t l = 0; l < 2; l++) {
        const int layout = layouts[l];
        for (size_t s = 0; s < sizeof qr_sizes / sizeof qr_sizes[0]; s++) {
            const int k = qr_sizes[s];
            for (int lq = 0; lq < 2; lq++) {
                /* QR of a tall matrix, LQ of a wide one: k reflectors either way */
                const int m = lq ? k : k + 5, n = lq ? k + 5 : k;
                stored a0 = make(layout, m, n, 0.0, false, seed++), f = copy(a0);
                double *tau = malloc(sizeof(double) * (size_t)k);
                assert_non_null(tau);
                stored q = copy(f), c = copy(a0);
                const size_t len = (size_t)f.ld * (size_t)(layout == LAPACK_ROW_MAJOR ? m : n);
                if (lq) {
                    assert_int_equal(LAPACKE_dgelqf(layout, m, n, f.x, f.ld, tau), 0);
                    memcpy(q.x, f.x, sizeof(double) * len);
                    assert_int_equal(LAPACKE_dorglq(layout, k, n, k, q.x, q.ld, tau), 0);
                    assert_int_equal(
                        LAPACKE_dormlq(layout, 'R', 'T', m, n, k, f.x, f.ld, tau, c.x, c.ld), 0);
                } else {
                    assert_int_equal(LAPACKE_dgeqrf(layout, m, n, f.x, f.ld, tau), 0);
                    memcpy(q.x, f.x, sizeof(double) * len);
                    assert_int_equal(LAPACKE_dorgqr(layout, m, k, k, q.x, q.ld, tau), 0);
                    assert_int_equal(
                        LAPACKE_dormqr(layout, 'L', 'T', m, n, k, f.x, f.ld, tau, c.x, c.ld), 0);
                }
                check_factorization(lq ? "LAPACKE_dgelqf" : "LAPACKE_dgeqrf", lq, a0, f, q, c);
                free(a0.x), free(f.x), free(q.x), free(c.x), free(tau);
            }
        }
    }
}

/* op(A) X = B by LAPACKE_dgels: overdetermined, ||op(A)^T (B - op(A) X)|| / (max(m, n) ||A||
 * (||A|| ||X|| + ||B||) eps), the normal equations; else ||B - op(A) X|| / (max(m, n) ||A|| ||X||
 * eps), a solution. */
static double gels_ratio(stored a, bool trans, stored b, stored x)
{
    const int rows = trans ? a.cols : a.rows, cols = trans ? a.rows : a.cols;
    const int big = a.rows > a.cols ? a.rows : a.cols;
    double worst = 0, a_norm = max_abs(a), x_norm = 0, b_norm = max_abs(b);
    double *r = malloc(sizeof(double) * (size_t)rows);
    assert_non_null(r);
    for (int j = 0; j < b.cols; j++) {
        for (int i = 0; i < cols; i++)
            x_norm = fmax(x_norm, fabs(*element(x, i, j)));
        for (int i = 0; i < rows; i++) {
            long double s = *element(b, i, j);
            for (int p = 0; p < cols; p++)
                s -= (long double)(trans ? *element(a, p, i) : *element(a, i, p)) *
                     *element(x, p, j);
            r[i] = (double)s;
        }
        if (rows <= cols) {
            for (int i = 0; i < rows; i++)
                worst = fmax(worst, fabs(r[i]));
            continue;
        }
        for (int p = 0; p < cols; p++) {
            long double s = 0;
            for (int i = 0; i < rows; i++)
                s += (long double)(trans ? *element(a, p, i) : *element(a, i, p)) * r[i];
            worst = fmax(worst, fabs((double)s));
        }
    }
    free(r);
    if (rows <= cols)
        return worst / (big * a_norm * fmax(x_norm, DBL_MIN) * DBL_EPSILON);
    return worst / (big * a_norm * (a_norm * x_norm + b_norm) * DBL_EPSILON);
}

static void test_gels(void **state)
{
    (void)state;
    unsigned seed = 500;
    for (size_t l = 0; l < 2; l++) {
        const int layout = layouts[l];
        for (size_t s = 0; s < sizeof qr_sizes / sizeof qr_sizes[0]; s++) {
            const int n = qr_sizes[s], nrhs = 3;
            for (int shape = 0; shape < 4; shape++) {
                /* tall and wide A, each with N and T: both least squares and minimum norm */
                const bool tall = shape < 2, trans = shape % 2 == 1;
                const int m = tall ? n + 5 : n, cols = tall ? n : n + 5;
                const int rows = trans ? cols : m; /* B's rows in use */
                stored a0 = make(layout, m, cols, 0.0, false, seed++), a = copy(a0);
                stored b0 = make(layout, n + 5, nrhs, 0.0, false, seed++), x = copy(b0);
                b0.rows = rows;
                assert_int_equal(
                    LAPACKE_dgels(layout, trans ? 'T' : 'N', m, cols, nrhs, a.x, a.ld, x.x, x.ld),
                    0);
                char what[64];
                snprintf(what, sizeof what, "LAPACKE_dgels %c %d x %d", trans ? 'T' : 'N', m, cols);
                expect_ratio(what, layout, n, gels_ratio(a0, trans, b0, x));
                free(a0.x), free(a.x), free(b0.x), free(x.x);
            }
        }
    }
}

/* ---- symmetric eigenproblems ------------------------------------------------------------------
 * LAPACKE asks dsyevd_, dsyevr_ and dsygvd_ for WORK and IWORK (LWORK = LIWORK = -1), allocates
 * what they answer and calls them again; row-major on transposed copies. */

static const int eig_sizes[] = {1, 7, 40};

/* ||A Z - B Z diag(w)|| / (n ||A|| ||B|| eps) and ||I - Z^T B Z|| / (n ||B|| eps), max norms,
 * for the k vectors z of the symmetric a0 (b0 NULL: B = I). */
static void check_eigenpairs(const char *what, stored a0, const stored *b0, const double *w,
                             stored z, int k)
{
    const int n = a0.rows;
    double residual = 0, orthogonal = 0;
    double *bz = malloc(sizeof(double) * (size_t)n * (size_t)(k ? k : 1));
    assert_non_null(bz);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < n; i++) {
            long double s = 0;
            for (int p = 0; p < n; p++)
                s += (long double)(b0 ? *element(*b0, i, p) : i == p) * *element(z, p, j);
            bz[i + (size_t)j * n] = (double)s;
        }
    for (int j = 0; j < k; j++) {
        for (int i = 0; i < n; i++) {
            long double s = -(long double)bz[i + (size_t)j * n] * w[j];
            for (int p = 0; p < n; p++)
                s += (long double)*element(a0, i, p) * *element(z, p, j);
            residual = fmax(residual, fabs((double)s));
        }
        for (int i = 0; i < k; i++) {
            long double s = i == j ? -1.0L : 0.0L;
            for (int p = 0; p < n; p++)
                s += (long double)*element(z, p, i) * bz[p + (size_t)j * n];
            orthogonal = fmax(orthogonal, fabs((double)s));
        }
    }
    free(bz);
    const double b_norm = b0 ? max_abs(*b0) : 1.0;
    char name[96];
    snprintf(name, sizeof name, "%s: ||A Z - B Z W||", what);
    expect_ratio(name, a0.layout, n, residual / (n * max_abs(a0) * b_norm * DBL_EPSILON));
    snprintf(name, sizeof name, "%s: orthonormality", what);
    expect_ratio(name, a0.layout, n, orthogonal / (n * b_norm * DBL_EPSILON));
}

static void test_eigen(void **state)
{
    (void)state;
    unsigned seed = 600;
    for (size_t l = 0; l < 2; l++) {
        const int layout = layouts[l];
        for (size_t s = 0; s < sizeof eig_sizes / sizeof eig_sizes[0]; s++) {
            const int n = eig_sizes[s];
            for (int u = 0; u < 2; u++) {
                const char uplo = u ? 'U' : 'L';
                double *w = malloc(sizeof(double) * (size_t)n);
                lapack_int *isuppz = malloc(sizeof(lapack_int) * 2 * (size_t)n);
                assert_non_null(w);
                assert_non_null(isuppz);
                char what[64];
                /* dsyevd: all pairs */
                stored a0 = make(layout, n, n, 0.0, true, seed++), z = copy(a0);
                assert_int_equal(LAPACKE_dsyevd(layout, 'V', uplo, n, z.x, z.ld, w), 0);
                snprintf(what, sizeof what, "LAPACKE_dsyevd %c n=%d", uplo, n);
                check_eigenpairs(what, a0, NULL, w, z, n);
                /* dsyevr: the 2nd to the (n - 1)th pairs by index (all when n = 1) */
                stored g = copy(a0), zr = make(layout, n, n, 0.0, false, seed++);
                const int il = n > 2 ? 2 : 1, iu = n > 2 ? n - 1 : n;
                lapack_int m = -1;
                assert_int_equal(LAPACKE_dsyevr(layout, 'V', 'I', uplo, n, g.x, g.ld, 0.0, 0.0, il,
                                                iu, 0.0, &m, w, zr.x, zr.ld, isuppz),
                                 0);
                assert_int_equal(m, iu - il + 1);
                snprintf(what, sizeof what, "LAPACKE_dsyevr %c n=%d", uplo, n);
                check_eigenpairs(what, a0, NULL, w, zr, m);
                /* dsygvd, A x = lambda B x */
                stored b0 = make(layout, n, n, n, true, seed++), b = copy(b0), zg = copy(a0);
                assert_int_equal(LAPACKE_dsygvd(layout, 1, 'V', uplo, n, zg.x, zg.ld, b.x, b.ld, w),
                                 0);
                snprintf(what, sizeof what, "LAPACKE_dsygvd %c n=%d", uplo, n);
                check_eigenpairs(what, a0, &b0, w, zg, n);
                free(a0.x), free(z.x), free(g.x), free(zr.x), free(b0.x), free(b.x), free(zg.x);
                free(w), free(isuppz);
            }
        }
    }
}

/* Column-major LAPACKE hands the caller's arrays to the Fortran routine as they are, so the
 * results are tela's own, bit for bit (another LAPACK would differ in the last bits). */
static void test_column_major_is_tela_bit_for_bit(void **state)
{
    (void)state;
    enum { N = 200, NRHS = 2 };
    const int layout = LAPACK_COL_MAJOR;
    stored a = make(layout, N, N, 0.0, false, 300), b = make(layout, N, NRHS, 0.0, false, 301);
    stored ta = copy(a), tb = copy(b);
    lapack_int ipiv[N];
    tela_int tela_ipiv[N];
    assert_int_equal(LAPACKE_dgesv(layout, N, NRHS, a.x, a.ld, ipiv, b.x, b.ld), 0);
    assert_int_equal(tela_dgesv(tela_par_auto(), N, NRHS, ta.x, ta.ld, tela_ipiv, tb.x, tb.ld), 0);
    assert_memory_equal(a.x, ta.x, sizeof(double) * (size_t)a.ld * N);
    assert_memory_equal(b.x, tb.x, sizeof(double) * (size_t)b.ld * NRHS);
    for (int i = 0; i < N; i++)
        assert_int_equal(ipiv[i], tela_ipiv[i]);
    stored s = make(layout, N, N, N, true, 302), ts = copy(s);
    assert_int_equal(LAPACKE_dpotrf(layout, 'L', N, s.x, s.ld), 0);
    assert_int_equal(tela_dpotrf(tela_par_auto(), 'L', N, ts.x, ts.ld), 0);
    assert_memory_equal(s.x, ts.x, sizeof(double) * (size_t)s.ld * N);
    /* QR, Q and least squares: LAPACKE's workspace from the query, tela's bits */
    stored r = make(layout, N + 9, N, 0.0, false, 303), tr = copy(r);
    double tau[N], tela_tau[N];
    assert_int_equal(LAPACKE_dgeqrf(layout, N + 9, N, r.x, r.ld, tau), 0);
    assert_int_equal(tela_dgeqrf(tela_par_auto(), N + 9, N, tr.x, tr.ld, tela_tau), 0);
    assert_memory_equal(r.x, tr.x, sizeof(double) * (size_t)r.ld * N);
    assert_memory_equal(tau, tela_tau, sizeof tau);
    assert_int_equal(LAPACKE_dorgqr(layout, N + 9, N, N, r.x, r.ld, tau), 0);
    assert_int_equal(tela_dorgqr(tela_par_auto(), N + 9, N, N, tr.x, tr.ld, tela_tau), 0);
    assert_memory_equal(r.x, tr.x, sizeof(double) * (size_t)r.ld * N);
    stored g = make(layout, N + 9, N, 0.0, false, 304), tg = copy(g);
    stored x = make(layout, N + 9, NRHS, 0.0, false, 305), tx = copy(x);
    assert_int_equal(LAPACKE_dgels(layout, 'N', N + 9, N, NRHS, g.x, g.ld, x.x, x.ld), 0);
    assert_int_equal(tela_dgels(tela_par_auto(), 'N', N + 9, N, NRHS, tg.x, tg.ld, tx.x, tx.ld), 0);
    assert_memory_equal(g.x, tg.x, sizeof(double) * (size_t)g.ld * N);
    assert_memory_equal(x.x, tx.x, sizeof(double) * (size_t)x.ld * NRHS);
    free(a.x), free(b.x), free(ta.x), free(tb.x), free(s.x), free(ts.x);
    free(r.x), free(tr.x), free(g.x), free(tg.x), free(x.x), free(tx.x);
    /* eigenvalues and vectors: dsyevd, dsyevr (all, with supports), dsygvd */
    enum { E = 60 };
    stored e = make(layout, E, E, 0.0, true, 306), te = copy(e);
    double w[E], tela_w[E];
    assert_int_equal(LAPACKE_dsyevd(layout, 'V', 'U', E, e.x, e.ld, w), 0);
    assert_int_equal(tela_dsyevd(tela_par_auto(), 'V', 'U', E, te.x, te.ld, tela_w), 0);
    assert_memory_equal(e.x, te.x, sizeof(double) * (size_t)e.ld * E);
    assert_memory_equal(w, tela_w, sizeof w);
    stored f = make(layout, E, E, 0.0, true, 307), tf = copy(f);
    stored z = make(layout, E, E, 0.0, false, 308), tz = copy(z);
    lapack_int m = -1, isuppz[2 * E];
    tela_int tela_m = -2, tela_isuppz[2 * E];
    assert_int_equal(LAPACKE_dsyevr(layout, 'V', 'A', 'L', E, f.x, f.ld, 0.0, 0.0, 0, 0, 0.0, &m, w,
                                    z.x, z.ld, isuppz),
                     0);
    assert_int_equal(tela_dsyevr(tela_par_auto(), 'V', 'A', 'L', E, tf.x, tf.ld, 0.0, 0.0, 0, 0,
                                 0.0, &tela_m, tela_w, tz.x, tz.ld, tela_isuppz),
                     0);
    assert_int_equal(m, tela_m);
    assert_memory_equal(w, tela_w, sizeof w);
    assert_memory_equal(z.x, tz.x, sizeof(double) * (size_t)z.ld * E);
    for (int i = 0; i < 2 * m; i++)
        assert_int_equal(isuppz[i], tela_isuppz[i]);
    stored h = make(layout, E, E, 0.0, true, 309), th = copy(h);
    stored k = make(layout, E, E, E, true, 310), tk = copy(k);
    assert_int_equal(LAPACKE_dsygvd(layout, 2, 'V', 'L', E, h.x, h.ld, k.x, k.ld, w), 0);
    assert_int_equal(tela_dsygvd(tela_par_auto(), 2, 'V', 'L', E, th.x, th.ld, tk.x, tk.ld, tela_w),
                     0);
    assert_memory_equal(h.x, th.x, sizeof(double) * (size_t)h.ld * E);
    assert_memory_equal(k.x, tk.x, sizeof(double) * (size_t)k.ld * E);
    assert_memory_equal(w, tela_w, sizeof w);
    free(e.x), free(te.x), free(f.x), free(tf.x), free(z.x), free(tz.x);
    free(h.x), free(th.x), free(k.x), free(tk.x);
}

/* Runs last, after every routine was called: liblapacke's GOT slots for the 17 symbols must
 * hold libtela's definitions, while the liblapack it was built against defines them too. */
static void test_lapacke_calls_reach_tela(void **state)
{
    (void)state;
    got_scan scan;
    memset(&scan, 0, sizeof scan);
    dl_iterate_phdr(find_lapacke, &scan);
    if (!scan.found_library)
        fail_msg("%s", "liblapacke is not loaded in this process");
    if (!scan.libtela[0])
        fail_msg("%s", "libtela is not loaded in this process");
    const char *libtela = scan.libtela;
    void *tela = dlopen(libtela, RTLD_LAZY | RTLD_NOLOAD);
    assert_non_null(tela);
    void *lapack = dlopen("liblapack.so.3", RTLD_LAZY | RTLD_NOLOAD);
    for (size_t s = 0; s < SYMBOLS; s++) {
        const char *name = fortran_symbols[s];
        void *mine = dlsym(tela, name); /* libtela's own definition */
        void *theirs = lapack ? dlsym(lapack, name) : NULL;
        printf("  %s: liblapacke calls %p in %s; liblapack's is %p in %s\n", name,
               scan.slot_value[s], library_of(scan.slot_value[s]), theirs, library_of(theirs));
        if (!scan.slot_value[s])
            fail_msg("%s: no relocation for it in %s", name, scan.library);
        if (strcmp(library_of(scan.slot_value[s]), libtela) != 0 || scan.slot_value[s] != mine)
            fail_msg("%s: %s calls %p in %s, not libtela's %p (%s)", name, scan.library,
                     scan.slot_value[s], library_of(scan.slot_value[s]), mine, libtela);
        if (theirs == scan.slot_value[s])
            fail_msg("%s: liblapack's and libtela's are the same address", name);
    }
    if (lapack)
        dlclose(lapack);
    dlclose(tela);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lu),
        cmocka_unit_test(test_cholesky),
        cmocka_unit_test(test_laswp),
        cmocka_unit_test(test_qr),
        cmocka_unit_test(test_gels),
        cmocka_unit_test(test_eigen),
        cmocka_unit_test(test_column_major_is_tela_bit_for_bit),
        cmocka_unit_test(test_lapacke_calls_reach_tela),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
