/* tela_bench_eig.h — the symmetric eigen family of tela-bench (syevd, syevdn, syevr, syevri,
 * syev, sygvd), which tela_bench_problem.c's functions hand over to tela_bench_eig.c, and the
 * per-phase timing of syevd (--eig-phases) that tela_bench.c runs. */
#ifndef TELA_BENCH_EIG_H
#define TELA_BENCH_EIG_H

#include "tela_bench_inputs.h"
#include "tela_bench_problem.h"

#include <stdint.h>

/* The conventional flop count of one call (an eigensolver has no standard one; the tables print
 * seconds, the CSV's and plot's GFLOP/s and the % peak use this): with vectors 4n^3 (reduction
 * 4/3 n^3, back-transformation 2n^3, divide and conquer about 2/3 n^3), the same for syev and
 * syevr so that their figures compare as inverse times; values only 4/3 n^3; syevri
 * 4/3 n^3 + 2n^2 k for k vectors; sygvd 19/3 n^3 (potrf 1/3, sygst 1, syevd 4, the triangular
 * back-substitution 1). */
double tb_eig_flops(enum tb_routine routine, int n);
/* The flop formula as the tables and docs word it. */
const char *tb_eig_flops_formula(enum tb_routine routine);
/* 1 unless the routine computes values only (syevdn). */
int tb_eig_has_vectors(enum tb_routine routine);
/* syevri's upper index iu (1-based; il = 1): the lowest tenth of the spectrum, at least 1. */
int tb_eig_upper_index(int n);

/* tb_problem_init's work for an eigen routine, once the common fields are set: A (and sygvd's
 * B) from state, the flops, OpenBLAS's workspace lengths from its query (lwork = liwork = -1).
 * Returns 0, or -1 out of memory or when OpenBLAS reports an error (the caller frees). */
int tb_eig_problem_init(struct tb_problem *p, uint64_t *state, const struct tb_openblas *ob);
/* Allocates the buffers one side's calls write; 0 or -1 (the caller frees). */
int tb_eig_state_init(const struct tb_problem *p, struct tb_state *s);
void tb_eig_state_reset(const struct tb_problem *p, struct tb_state *s);
/* One call on s; the routine's info (0: fine). */
int tb_eig_call_tela(const struct tb_problem *p, tela_par par, struct tb_state *s);
int tb_eig_call_openblas(const struct tb_problem *p, const struct tb_openblas *ob,
                         struct tb_state *s);
/* tb_problem_check for an eigen routine (tela_bench_problem.h); 0, or -1 out of memory. */
int tb_eig_check(const struct tb_problem *p, const struct tb_openblas *ob,
                 const struct tb_state *tela, const struct tb_state *openblas,
                 struct tb_check *check);

/* --eig-phases: syevd with vectors (uplo L) cut where LAPACK's dsyevd cuts it, dsytrd, dstedc
 * (compz I) on the tridiagonal, dormtr (side L, trans N) of the tridiagonal's vectors, each
 * side's phases chained on its own results. */
enum { TB_EIG_SYTRD, TB_EIG_STEDC, TB_EIG_ORMTR, TB_EIG_PHASE_COUNT };
extern const char *const tb_eig_phase_names[TB_EIG_PHASE_COUNT]; /* "dsytrd", ... */
struct tb_eig_phases;
/* The input of order n (syevd's, same seed) and both sides' buffers, OpenBLAS's workspace
 * queried and allocated here; NULL out of memory or on an OpenBLAS error. */
struct tb_eig_phases *tb_eig_phases_create(int n, const struct tb_openblas *ob);
void tb_eig_phases_free(struct tb_eig_phases *phases);
/* One run of side's three phases from the input (copied in first, untimed); ns[k] gets phase
 * k's time. par is tela's policy (unused for OpenBLAS). Returns 0, or the failing phase's info. */
int tb_eig_phases_run(struct tb_eig_phases *phases, enum tb_side side, tela_par par,
                      const struct tb_openblas *ob, int64_t ns[TB_EIG_PHASE_COUNT]);
/* After a run of each side: tela's ||A Z - Z diag(w)|| / (n ||A|| eps) with Z and w its phases'
 * result, and max |w - w_OpenBLAS| / (n eps ||A||); 0, or -1 out of memory. */
int tb_eig_phases_check(const struct tb_eig_phases *phases, const struct tb_openblas *ob,
                        double *residual, double *agreement);

#endif
