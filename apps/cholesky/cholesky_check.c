/* cholesky_check.c: see cholesky_check.h.
 *
 * Why M M^T / n + I rather than a random symmetric matrix plus n on the diagonal: in the
 * latter the diagonal dwarfs everything the trailing updates change (its Frobenius norm is
 * sqrt(n) times the off-diagonal part's), so a wrong update kernel moves ||A - L L^T||_F by
 * less than rounding is allowed to (docs/apps/cholesky.md has the numbers). Here the updates
 * carry about a tenth of ||A||_F, and the matrix stays well conditioned (eigenvalues of
 * M M^T / n lie in [0, 4/3] as n grows: Marchenko and Pastur's law for entries of variance 1/3).
 */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../common/inputs.h"
#include "cholesky_check.h"

/* Row chunks of the products below: a chunk pair's product is one dgemm into a buffer of
 * CHUNK^2 doubles, so neither product needs a second n x n matrix. */
#define CHUNK 256

/* c := rows [i0, i0 + ni) of x times rows [j0, j0 + nj) of x, transposed, over x's columns
 * [0, k): x is n x n, row-major. */
static void chunk_product(const double *x, uint64_t n, uint64_t i0, uint64_t ni, uint64_t j0,
                          uint64_t nj, uint64_t k, double *c) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ni, (int)nj, (int)k, 1.0, x + i0 * n,
              (int)n, x + j0 * n, (int)n, 0.0, c, (int)nj);
}

static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

/* The input: M M^T / n + I, plus K if skew (cholesky_check.h). */
static int fill(float *a, uint64_t n, uint64_t seed, int skew) {
  double *m = malloc(n * n * sizeof *m), *c = malloc(CHUNK * CHUNK * sizeof *c);
  if (!m || !c) {
    free(m);
    free(c);
    return -1;
  }
  uint64_t s = nw_app_splitmix64(seed), r = nw_app_splitmix64(s ^ 0x5EC0DE5EC0DEull);
  double scale = 1.0 / sqrt((double)n);
  for (uint64_t e = 0; e < n * n; e++)
    m[e] = 2.0 * (double)nw_app_unit24(nw_app_splitmix64(s + e)) - 1.0;
  for (uint64_t i0 = 0; i0 < n; i0 += CHUNK)
    for (uint64_t j0 = 0; j0 <= i0; j0 += CHUNK) {
      uint64_t ni = min64(CHUNK, n - i0), nj = min64(CHUNK, n - j0);
      chunk_product(m, n, i0, ni, j0, nj, n, c);
      for (uint64_t i = i0; i < i0 + ni; i++)
        for (uint64_t j = j0; j < j0 + nj && j <= i; j++) {
          double sym = c[(i - i0) * nj + (j - j0)] / (double)n + (i == j ? 1.0 : 0.0), k = 0.0;
          if (skew && i != j)
            k = (2.0 * (double)nw_app_unit24(nw_app_splitmix64(r + i * n + j)) - 1.0) * scale;
          a[i * n + j] = (float)(sym + k);
          a[j * n + i] = (float)(sym - k);
        }
    }
  free(m);
  free(c);
  return 0;
}

int chol_fill_input(float *a, uint64_t n, uint64_t seed) {
  return fill(a, n, seed, 0);
}

int chol_lu_fill_input(float *a, uint64_t n, uint64_t seed) {
  return fill(a, n, seed, 1);
}

double chol_gamma(uint64_t n) {
  double ku = (double)(n + 2) * (double)FLT_EPSILON / 2.0;
  return ku / (1.0 - ku);
}

/* Sum over the whole symmetric matrix of the squares of (a - x x^T) (a given) or of x x^T (a
 * NULL), x lower triangular, n x n, in double: the lower triangle once and the strict lower
 * twice. */
static double square_sum(const float *a, const double *x, uint64_t n, double *c) {
  double sum = 0.0;
  for (uint64_t i0 = 0; i0 < n; i0 += CHUNK)
    for (uint64_t j0 = 0; j0 <= i0; j0 += CHUNK) {
      uint64_t ni = min64(CHUNK, n - i0), nj = min64(CHUNK, n - j0);
      chunk_product(x, n, i0, ni, j0, nj, j0 + nj, c); /* x's columns past j0 + nj are 0 */
      for (uint64_t i = i0; i < i0 + ni; i++)
        for (uint64_t j = j0; j < j0 + nj && j <= i; j++) {
          double v = c[(i - i0) * nj + (j - j0)];
          double r = a ? (double)a[i * n + j] - v : v;
          sum += (i == j ? 1.0 : 2.0) * r * r;
        }
    }
  return sum;
}

int chol_residual(const float *a, const float *l, uint64_t n, double *residual, double *bound) {
  double *x = calloc(n * n, sizeof *x), *c = malloc(CHUNK * CHUNK * sizeof *c);
  if (!x || !c) {
    free(x);
    free(c);
    return -1;
  }
  double norm = 0.0;
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t j = 0; j <= i; j++) {
      x[i * n + j] = (double)l[i * n + j];
      norm += (i == j ? 1.0 : 2.0) * (double)a[i * n + j] * (double)a[i * n + j];
    }
  double diff = square_sum(a, x, n, c);
  for (uint64_t e = 0; e < n * n; e++)
    x[e] = fabs(x[e]);
  double size = square_sum(NULL, x, n, c);
  free(x);
  free(c);
  double scale = norm > 0.0 ? sqrt(norm) : 1.0;
  *residual = sqrt(diff) / scale;
  *bound = chol_gamma(n) * sqrt(size) / scale;
  return 0;
}
