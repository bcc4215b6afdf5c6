/* chol.h — internal interface of the Cholesky family (src/chol). */
#ifndef TELA_CHOL_H
#define TELA_CHOL_H

#include "tela.h"

#include <stdbool.h>

/* LAPACK's UPLO: 'U' or 'L', either case. */
bool chol_uplo(char c, bool *upper);

/* The unblocked factorization of an n x n diagonal block (LAPACK's dpotf2
 * order). Returns 0 or the order of the first minor not positive definite
 * (1-based), leaving that diagonal entry as computed. */
tela_int chol_block(bool upper, tela_int n, double *a, tela_int lda);

#endif /* TELA_CHOL_H */
