/* tela_bench_vector.h — the memory-bound problems of tela-bench (dot, axpy, nrm2, gemv, symv, ger,
 * trsv), which tela_bench_problem.c's functions hand over to tela_bench_vector.c. Only these two
 * files include it. */
#ifndef TELA_BENCH_VECTOR_H
#define TELA_BENCH_VECTOR_H

#include "tela_bench_inputs.h"
#include "tela_bench_problem.h"

#include <stdint.h>

/* tb_problem_init's work for a memory-bound routine, once the common fields (routine, transa,
 * n) are set: the inputs from state, flops and bytes. Returns 0, or -1 out of memory (the
 * caller frees what was allocated). */
int tb_vector_problem_init(struct tb_problem *p, uint64_t *state);
/* Allocates the buffers one side's calls write; 0 or -1 (the caller frees). */
int tb_vector_state_init(const struct tb_problem *p, struct tb_state *s);
void tb_vector_state_reset(const struct tb_problem *p, struct tb_state *s);
/* One call on s; the routine's info (0, as the level-1 routines have none). */
int tb_vector_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s);
int tb_vector_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                            struct tb_state *s);
/* tb_problem_check's difference (see there) of one call of each side from the start. */
double tb_vector_difference(const struct tb_problem *p, const struct tb_state *tela,
                            const struct tb_state *openblas);

#endif
