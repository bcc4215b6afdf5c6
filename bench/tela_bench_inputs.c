/* tela_bench_inputs.c — what every problem file of tela-bench builds its inputs and checks from:
 * the fixed-seed generator, aligned arrays, the largest |x| of a matrix and its 1-norm. Apart from
 * the problem files so that neither includes the other's helpers. */
#include "tela_bench_inputs.h"

#include <math.h>
#include <stdlib.h>

/* Arrays are 64-byte aligned, as a caller that cares about speed would allocate them. */
#define TB_ALIGNMENT 64

/* xorshift64*: small, fast, and the same sequence on every platform. */
double tb_next_uniform(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    /* The top 53 bits as a double in [0, 1), then mapped to [-1, 1). */
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

void *tb_alloc_bytes(size_t bytes)
{
    bytes = (bytes + TB_ALIGNMENT - 1) / TB_ALIGNMENT * TB_ALIGNMENT;
    return aligned_alloc(TB_ALIGNMENT, bytes ? bytes : TB_ALIGNMENT);
}

/* rows x cols doubles. */
double *tb_alloc_doubles(int rows, int cols)
{
    return tb_alloc_bytes((size_t)rows * (size_t)cols * sizeof(double));
}

static int operand_offset;

void tb_set_operand_offset(int bytes)
{
    operand_offset = bytes;
}

int tb_operand_offset(void)
{
    return operand_offset;
}

double *tb_alloc_operand(int rows, int cols)
{
    const size_t bytes = (size_t)rows * (size_t)cols * sizeof(double);
    if (operand_offset == 0)
        return tb_alloc_bytes(bytes);
    char *line = tb_alloc_bytes(bytes + TB_ALIGNMENT);
    return line ? (double *)(void *)(line + operand_offset) : NULL;
}

void tb_free_operand(void *p)
{
    if (!p)
        return;
    /* The pointer is less than a line past the start of its block, which is on a line. */
    free((char *)p - (uintptr_t)p % TB_ALIGNMENT);
}

void tb_fill_uniform(double *x, size_t count, uint64_t *state)
{
    for (size_t i = 0; i < count; i++)
        x[i] = tb_next_uniform(state);
}

/* Largest |x| over the matrix, or over its lower triangle (the part of A trsm, trmm and symm
 * read). */
double tb_max_abs(const double *x, int n, int lower_only)
{
    double most = 0.0;
    for (int j = 0; j < n; j++) {
        for (int i = lower_only ? j : 0; i < n; i++)
            most = fmax(most, fabs(x[i + (size_t)j * (size_t)n]));
    }
    return most;
}

double tb_max_abs_rect(const double *x, int m, int n, int ld)
{
    double most = 0.0;
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) {
            double v = fabs(x[i + (size_t)j * (size_t)ld]);
            if (isnan(v))
                return NAN;
            most = v > most ? v : most;
        }
    }
    return most;
}

double tb_norm1(const double *x, int m, int n, int ld)
{
    double most = 0.0;
    for (int j = 0; j < n; j++) {
        double sum = 0.0;
        for (int i = 0; i < m; i++)
            sum += fabs(x[i + (size_t)j * (size_t)ld]);
        if (isnan(sum))
            return NAN;
        most = sum > most ? sum : most;
    }
    return most;
}
