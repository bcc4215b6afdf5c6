/* tela_bench_qr.h — the QR family of tela-bench (geqrf, geqrf4, geqrf16, tsqr, gelqf, orgqr,
 * ormqr, qr, gels, gels4), which tela_bench_problem.c's functions hand over to tela_bench_qr.c.
 * Only these two files include it. */
#ifndef TELA_BENCH_QR_H
#define TELA_BENCH_QR_H

#include "tela_bench_inputs.h"
#include "tela_bench_problem.h"

#include <stdint.h>

/* tb_problem_init's work for a QR routine, once the common fields (routine, m, n, nrhs) are
 * set: the inputs from state, the flops, the reference reflectors of orgqr and ormqr, and
 * OpenBLAS's workspace length from its query (lwork = -1). Returns 0, or -1 out of memory or
 * when OpenBLAS reports an error (the caller frees what was allocated). */
int tb_qr_problem_init(struct tb_problem *p, uint64_t *state, const struct tb_openblas *ob);
/* Allocates the buffers one side's calls write, OpenBLAS's workspace among them; 0 or -1 (the
 * caller frees). */
int tb_qr_state_init(const struct tb_problem *p, struct tb_state *s);
void tb_qr_state_reset(const struct tb_problem *p, struct tb_state *s);
/* One call on s; the routine's info (0: fine). */
int tb_qr_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s);
int tb_qr_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                        struct tb_state *s);
/* tb_problem_check for a QR routine (see there and tela_bench_qr.c); 0, or -1 out of memory or
 * when an OpenBLAS routine of the check reports an error. */
int tb_qr_check(const struct tb_problem *p, const struct tb_openblas *ob,
                const struct tb_state *tela, const struct tb_state *openblas,
                struct tb_check *check);

#endif
