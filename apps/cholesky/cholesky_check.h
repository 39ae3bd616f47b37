/* cholesky_check.h: the Cholesky's and the LU variant's input matrices, and the checks of their
 * factors against them (cholesky_check.c, cholesky_lu_check.c). */
#ifndef NW_APP_CHOLESKY_CHECK_H
#define NW_APP_CHOLESKY_CHECK_H

#include <stdint.h>

/* The n x n row-major input of `seed`, both triangles: A = M M^T / n + I, M's entries uniform
 * in [-1, 1), each a hash of (seed, row, column). Symmetric positive definite with eigenvalues
 * in about [1, 2.4], whatever n; formed in double and rounded once to float, so rounding cannot
 * make it indefinite. O(n^3) (one dsyrk). Returns 0, or -1 when out of memory. */
int chol_fill_input(float *a, uint64_t n, uint64_t seed);

/* Checks the factor l of a (both n x n, row-major; l in its lower triangle, what lies above
 * the diagonal ignored): sets *residual to ||A - L L^T||_F / ||A||_F over the whole symmetric
 * matrix and *bound to gamma_{n+2} || |L| |L|^T ||_F / ||A||_F, the bound a correct factor's
 * residual stays below (gamma_k = k u / (1 - k u), u = FLT_EPSILON / 2; docs/apps/cholesky.md
 * says why), both in double. O(n^3): two dsyrk. Returns 0, or -1 when out of memory. */
int chol_residual(const float *a, const float *l, uint64_t n, double *residual, double *bound);

/* The LU variant's input of `seed`: chol_fill_input's matrix plus a skew-symmetric K whose
 * entries below the diagonal are uniform in [-1, 1) / sqrt(n), formed in double and rounded once.
 * Its symmetric part is the Cholesky's input, positive definite, so every leading block is
 * invertible (x^T A x = x^T (A + A^T) x / 2 > 0) and LU without pivoting exists and stays
 * stable. Returns 0, or -1 when out of memory. */
int chol_lu_fill_input(float *a, uint64_t n, uint64_t seed);

/* Checks the LU factors f of a (both n x n, row-major; f holds L on and below the diagonal, U
 * above it with a unit diagonal, Crout's form): *residual := ||A - L U||_F / ||A||_F and
 * *bound := gamma_{n+2} || |L| |U| ||_F / ||A||_F, in double. O(n^3). Returns 0, or -1 when out
 * of memory. */
int chol_lu_residual(const float *a, const float *f, uint64_t n, double *residual, double *bound);

/* gamma_{n+2} = (n + 2) u / (1 - (n + 2) u), u = FLT_EPSILON / 2: both checks' constant. */
double chol_gamma(uint64_t n);

#endif
