/* lu.h — internal interface of the LU family (src/lu): the row interchanges
 * shared by getrf and getrs, the unblocked panel, LAPACK's flag parsing. */
#ifndef TELA_LU_H
#define TELA_LU_H

#include "tela.h"

#include <stdbool.h>

/* The interchanges of rows i <-> ipiv[i] - 1 for i in [from, to) (ipiv
 * holds 1-based row numbers of A), in that order, on columns [0, n) of A;
 * split among members through the gate when that pays. */
void lu_swap_rows(tela_par par, tela_int n, double *a, tela_int lda, tela_int from, tela_int to,
                  const tela_int *ipiv);

/* dgetf2: the m x n panel by columns (n small), pivots 1-based relative to
 * the panel in ipiv[0 .. min(m, n)). Returns the first zero pivot's column
 * (1-based) or 0. */
tela_int lu_panel(tela_par par, tela_int m, tela_int n, double *a, tela_int lda, tela_int *ipiv);

/* LAPACK's TRANS: 'N', 'T' or 'C', either case. */
bool lu_trans(char c, bool *trans);

#endif /* TELA_LU_H */
