/* lu_ref.h: the LU's input matrix, its single-process reference, and a check of a
 * factorisation against the matrix it came from. */
#ifndef NW_APP_LU_REF_H
#define NW_APP_LU_REF_H

#include <stdint.h>

/* The n x n row-major input of `seed`: off-diagonal entries uniform in [-1, 1), the diagonal
 * n + 1 + a value in [0, 1), so every row is strictly diagonally dominant and LU without
 * pivoting exists and is stable. Each entry is a hash of (seed, i, j): the same on any node. */
void lu_fill_input(float *a, uint64_t n, uint64_t seed);

/* Factorises a (n x n, row-major) in place with blocks of b, running the distributed run's
 * block operations (lu_block.c) in the order its tasks do. Returns 0, or -1 when out of
 * memory (a unchanged). */
int lu_reference(float *a, uint64_t n, uint64_t b);

/* max |(L U - A)_ij| / max |A_ij|, in double, for the factors lu (unit lower L below the
 * diagonal, U on and above) of a. O(n^3): for tests. */
double lu_residual(const float *a, const float *lu, uint64_t n);

/* Where CUDA kernels ran (cuBLAS rounds otherwise than OpenBLAS, so the factors' bits cannot
 * match the reference's): factors `lu` of `a` pass when their residual is at most four times
 * the reference factors' (`ref`) or n eps. LAPACK's own test of a factorisation (xGET01:
 * |LU - A| / (n |A| eps) below 30) accepts 30 times more; a wrong or stale block gives a
 * residual of the order of its entries, far above either. Sets the residuals and the bound
 * used; returns 1 to accept. */
int lu_accept_rounded(const float *a, const float *lu, const float *ref, uint64_t n, double *mine,
                      double *theirs, double *bound);

#endif
