/* test_compat_fallback — tela's own xerbla_ and cblas_xerbla, used when the program defines
 * neither (this one does not): they report through tela's error handler with the argument's
 * position in the caller's call (row-major CBLAS numbers swapped back), write nothing and
 * return, where reference BLAS would stop the process. */
#define _GNU_SOURCE
#include "testutil.h"
#include "tela_cblas.h"

void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc);

#define SENTINEL 1234.5

static struct report {
    int calls;         /* reports received */
    int status;        /* the last one's */
    char where[32];    /* its routine */
    char message[160]; /* its sentence */
} last;

static void record_report(int status, const char *where, const char *message, void *context)
{
    (void)context;
    last.calls++;
    last.status = status;
    snprintf(last.where, sizeof last.where, "%s", where);
    snprintf(last.message, sizeof last.message, "%s", message);
}

static int install_handler(void **state)
{
    (void)state;
    memset(&last, 0, sizeof last);
    tela_set_error_handler(record_report, NULL);
    return 0;
}

static int restore_handler(void **state)
{
    (void)state;
    tela_set_error_handler(NULL, NULL);
    return 0;
}

static double c[64];

static void fill_c(void)
{
    for (int i = 0; i < 64; i++)
        c[i] = SENTINEL;
}

static void expect_c_untouched(void)
{
    for (int i = 0; i < 64; i++)
        assert_true(c[i] == SENTINEL);
}

/* One report, from where, whose message starts with prefix. */
static void expect_report(const char *where, const char *prefix)
{
    assert_int_equal(last.calls, 1);
    assert_int_equal(last.status, TELA_EINVAL);
    assert_string_equal(last.where, where);
    if (strncmp(last.message, prefix, strlen(prefix)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", last.message, prefix);
    expect_c_untouched();
    memset(&last, 0, sizeof last);
}

static void test_fortran_error_reported_and_returns(void **state)
{
    (void)state;
    double a[4] = {0}, b[4] = {0};
    const double one = 1.0;
    const int two = 2, one_i = 1, minus = -1;
    fill_c();
    dgemm_("N", "N", &two, &two, &two, &one, a, &one_i, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 8 had an illegal value");
    dgemm_("N", "N", &minus, &two, &two, &one, a, &one_i, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 3 had an illegal value");
    dgemm_("Q", "N", &two, &two, &two, &one, a, &two, b, &two, &one, c, &two);
    expect_report("DGEMM", "parameter number 1 had an illegal value");
}

/* The Fortran routine's error is handed to cblas_xerbla one number up; in row-major tela's
 * cblas_xerbla swaps the numbers the operand swap exchanged, so each names its own argument. */
static void test_cblas_errors_name_the_callers_argument(void **state)
{
    (void)state;
    double a[4] = {0}, b[4] = {0};
    const CBLAS_LAYOUT col = CblasColMajor, row = CblasRowMajor;
    const CBLAS_TRANSPOSE nt = CblasNoTrans;
    fill_c();
    cblas_dgemm((CBLAS_LAYOUT)0, nt, nt, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 1 was incorrect: Illegal layout setting, 0");
    cblas_dgemm(row, (CBLAS_TRANSPOSE)-1, nt, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 2 was incorrect: Illegal TransA setting, -1");
    cblas_dgemm(col, nt, (CBLAS_TRANSPOSE)7, 2, 2, 2, 1.0, a, 2, b, 2, 1.0, c, 2);
    expect_report("cblas_dgemm", "parameter 3 was incorrect: Illegal TransB setting, 7");

    const struct {
        CBLAS_LAYOUT layout;
        int m, n, k, lda, ldb, ldc;
        int position; /* in the cblas_dgemm call */
    } cases[] = {
        {col, -1, 2, 2, 2, 2, 2, 4}, {col, 2, -1, 2, 2, 2, 2, 5}, {col, 2, 2, -1, 2, 2, 2, 6},
        {col, 2, 2, 2, 1, 2, 2, 9},  {col, 2, 2, 2, 2, 1, 2, 11}, {col, 2, 2, 2, 2, 2, 1, 14},
        {row, -1, 2, 2, 2, 2, 2, 4}, {row, 2, -1, 2, 2, 2, 2, 5}, {row, 2, 2, -1, 2, 2, 2, 6},
        {row, 2, 2, 2, 1, 2, 2, 9},  {row, 2, 2, 2, 2, 1, 2, 11}, {row, 2, 2, 2, 2, 2, 1, 14},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char prefix[48];
        snprintf(prefix, sizeof prefix, "parameter %d was incorrect", cases[i].position);
        cblas_dgemm(cases[i].layout, nt, nt, cases[i].m, cases[i].n, cases[i].k, 1.0, a,
                    cases[i].lda, b, cases[i].ldb, 1.0, c, cases[i].ldc);
        expect_report("cblas_dgemm", prefix);
    }
}

/* After errors, calls work and report nothing. */
static void test_good_calls_after_errors(void **state)
{
    (void)state;
    double a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, d[4] = {0};
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, d, 2);
    assert_int_equal(last.calls, 0);
    for (int i = 0; i < 4; i++)
        assert_true(d[i] == a[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fortran_error_reported_and_returns, install_handler,
                                        restore_handler),
        cmocka_unit_test_setup_teardown(test_cblas_errors_name_the_callers_argument,
                                        install_handler, restore_handler),
        cmocka_unit_test_setup_teardown(test_good_calls_after_errors, install_handler,
                                        restore_handler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
