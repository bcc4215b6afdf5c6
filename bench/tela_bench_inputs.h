/* tela_bench_inputs.h — the input and norm helpers tela-bench's problem files share
 * (tela_bench_problem.c, tela_bench_vector.c, tela_bench_qr.c). */
#ifndef TELA_BENCH_INPUTS_H
#define TELA_BENCH_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* The next value in [-1, 1) of the fixed-seed generator. */
double tb_next_uniform(uint64_t *state);
/* bytes (rounded up to whole lines), 64-byte aligned (free with free). */
void *tb_alloc_bytes(size_t bytes);
/* rows x cols doubles, likewise. */
double *tb_alloc_doubles(int rows, int cols);
/* Where the routines' operands (A, B, C, x, y and the arrays they update) sit: `bytes` past a
 * 64-byte line, a multiple of 8 below 64 (--offset; 0, the default: on the line). Callers'
 * arrays often sit 16 bytes past one (glibc's large blocks, NumPy's). */
void tb_set_operand_offset(int bytes);
int tb_operand_offset(void);
/* rows x cols doubles at the operand offset; free with tb_free_operand (any array of
 * tb_alloc_bytes too: it frees from the line the pointer is on). */
double *tb_alloc_operand(int rows, int cols);
void tb_free_operand(void *p);
/* count values from the generator. */
void tb_fill_uniform(double *x, size_t count, uint64_t *state);
/* The largest |x| over an n x n matrix (lda = n), or over its lower triangle. */
double tb_max_abs(const double *x, int n, int lower_only);
/* The largest |x| over an m x n matrix with leading dimension ld; NaN if any entry is NaN. */
double tb_max_abs_rect(const double *x, int m, int n, int ld);
/* ||x||_1 of an m x n matrix (the largest column sum of |x|); NaN if any entry is NaN. */
double tb_norm1(const double *x, int m, int n, int ld);

#endif
