/* cholesky_lu_check.c: the check of the LU variant's factors (cholesky_check.h). The bound is
 * the Cholesky's argument with LU's backward error (Higham, "Accuracy and Stability of
 * Numerical Algorithms", Theorem 9.3: |A - L U| <= gamma_n |L| |U| for every form of the
 * factorisation, Crout's included), in the Frobenius norm (docs/apps/cholesky.md).
 */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#include "cholesky_check.h"

/* Row and column chunks of L U: one dgemm per pair into CHUNK^2 doubles. */
#define CHUNK 256

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

/* Sum of the squares of a - l u (a given) or of l u (a NULL): l lower, u upper, n x n. Only the
 * first min(i, j) + 1 terms of element (i, j)'s sum can be nonzero. */
static double square_sum(const float *a, const double *l, const double *u, uint64_t n, double *c) {
  double sum = 0.0;
  for (uint64_t i0 = 0; i0 < n; i0 += CHUNK)
    for (uint64_t j0 = 0; j0 < n; j0 += CHUNK) {
      uint64_t ni = min64(CHUNK, n - i0), nj = min64(CHUNK, n - j0);
      uint64_t k = min64(i0 + ni, j0 + nj);
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)ni, (int)nj, (int)k, 1.0,
                  l + i0 * n, (int)n, u + j0, (int)n, 0.0, c, (int)nj);
      for (uint64_t i = 0; i < ni; i++)
        for (uint64_t j = 0; j < nj; j++) {
          double v = c[i * nj + j], r = a ? (double)a[(i0 + i) * n + j0 + j] - v : v;
          sum += r * r;
        }
    }
  return sum;
}

int chol_lu_residual(const float *a, const float *f, uint64_t n, double *residual, double *bound) {
  double *l = calloc(n * n, sizeof *l), *u = calloc(n * n, sizeof *u);
  double *c = malloc(CHUNK * CHUNK * sizeof *c);
  int ok = l && u && c;
  double norm = 0.0, diff = 0.0, size = 0.0;
  if (ok) {
    for (uint64_t i = 0; i < n; i++)
      for (uint64_t j = 0; j < n; j++) {
        double x = (double)f[i * n + j];
        if (j <= i)
          l[i * n + j] = x;
        else
          u[i * n + j] = x;
        norm += (double)a[i * n + j] * (double)a[i * n + j];
      }
    for (uint64_t i = 0; i < n; i++)
      u[i * n + i] = 1.0;
    diff = square_sum(a, l, u, n, c);
    for (uint64_t e = 0; e < n * n; e++) {
      l[e] = fabs(l[e]);
      u[e] = fabs(u[e]);
    }
    size = square_sum(NULL, l, u, n, c);
  }
  free(l);
  free(u);
  free(c);
  if (!ok)
    return -1;
  double scale = norm > 0.0 ? sqrt(norm) : 1.0;
  *residual = sqrt(diff) / scale;
  *bound = chol_gamma(n) * sqrt(size) / scale;
  return 0;
}
