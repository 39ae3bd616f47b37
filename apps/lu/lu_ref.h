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

/* max_i |(L U x - A x)_i| / max_i (|A| |x|)_i, in double, over `probes` vectors x of fixed
 * pseudo-random entries in [-1, 1): a normwise backward error of the factors lu of a, probed
 * as Freivalds checks a matrix product, in O(probes n^2) where lu_residual takes O(n^3) (a
 * 6144 x 6144 factorisation: minutes there, a fraction of a second here). A wrong entry
 * (L U)_ij moves (L U x)_i by its error times x_j, which is zero for no probe but with
 * probability 0. */
double lu_residual_probed(const float *a, const float *lu, uint64_t n, int probes);
#define LU_PROBES 4

/* Where CUDA kernels ran (cuBLAS rounds otherwise than OpenBLAS, so the factors' bits cannot
 * match the reference's): factors `lu` of `a` pass when their probed residual
 * (lu_residual_probed) is at most four times the reference factors' (`ref`) or n eps.
 * LAPACK's own test of a factorisation (xGET01: |LU - A| / (n |A| eps) below 30) accepts 30
 * times more; a wrong or stale block gives a residual of the order of its entries, far above
 * either. Sets the residuals and the bound used; returns 1 to accept. */
int lu_accept_rounded(const float *a, const float *lu, const float *ref, uint64_t n, double *mine,
                      double *theirs, double *bound);

#endif
