/* lu_ref.c: see lu_ref.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../common/inputs.h"
#include "lu.h"
#include "lu_ref.h"

void lu_fill_input(float *a, uint64_t n, uint64_t seed) {
  uint64_t s = nw_app_splitmix64(seed);
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t j = 0; j < n; j++) {
      float u = nw_app_unit24(nw_app_splitmix64(s + i * n + j));
      a[i * n + j] = i == j ? (float)(n + 1) + u : 2.0f * u - 1.0f;
    }
}

int lu_reference(float *a, uint64_t n, uint64_t b) {
  uint64_t nb = n / b, bb = b * b;
  float *d = malloc(bb * sizeof *d), *scratch = malloc(bb * sizeof *scratch);
  float *r = malloc(n * b * sizeof *r), *c = malloc(n * b * sizeof *c);
  int ok = d && scratch && r && c;
  int ib = (int)b, in = (int)n;
  for (uint64_t k = 0; ok && k < nb; k++) {
    float *akk = a + k * b * n + k * b;
    lu_diag_op(ib, akk, in, d);
    for (uint64_t j = k + 1; j < nb; j++)
      lu_row_op(ib, akk + (j - k) * b, in, d, r + j * bb);
    for (uint64_t i = k + 1; i < nb; i++)
      lu_col_op(ib, akk + (i - k) * b * n, in, d, c + i * bb);
    for (uint64_t i = k + 1; i < nb; i++)
      for (uint64_t j = k + 1; j < nb; j++)
        lu_update_op(ib, a + i * b * n + j * b, in, c + i * bb, r + j * bb, scratch);
  }
  free(d);
  free(scratch);
  free(r);
  free(c);
  return ok ? 0 : -1;
}

double lu_residual(const float *a, const float *lu, uint64_t n) {
  double worst = 0.0, scale = 0.0;
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t j = 0; j < n; j++) {
      uint64_t top = i < j ? i : j; /* L's unit diagonal at p = i, U's zeros below */
      double sum = i <= j ? (double)lu[i * n + j] : 0.0;
      for (uint64_t p = 0; p < top + (i > j); p++)
        sum += (double)lu[i * n + p] * (double)lu[p * n + j];
      double diff = fabs(sum - (double)a[i * n + j]);
      worst = diff > worst ? diff : worst;
      scale = fabs((double)a[i * n + j]) > scale ? fabs((double)a[i * n + j]) : scale;
    }
  return scale > 0.0 ? worst / scale : worst;
}

double lu_residual_probed(const float *a, const float *lu, uint64_t n, int probes) {
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  double worst = 1.0; /* out of memory: a residual no rule accepts */
  if (x && y) {
    worst = 0.0;
    for (int v = 0; v < probes; v++) {
      uint64_t s = nw_app_splitmix64(0x4c55u + (uint64_t)v);
      for (uint64_t j = 0; j < n; j++)
        x[j] = 2.0 * nw_app_unit24(nw_app_splitmix64(s + j)) - 1.0;
      for (uint64_t i = 0; i < n; i++) { /* y = U x: U on and above the diagonal */
        double sum = 0.0;
        for (uint64_t j = i; j < n; j++)
          sum += (double)lu[i * n + j] * x[j];
        y[i] = sum;
      }
      double diff = 0.0, scale = 0.0;
      for (uint64_t i = n; i-- > 0;) { /* (L y)_i, L unit lower: bottom-up, y_p (p < i) unread */
        double z = y[i], ax = 0.0, abs_ax = 0.0;
        for (uint64_t p = 0; p < i; p++)
          z += (double)lu[i * n + p] * y[p];
        for (uint64_t j = 0; j < n; j++) {
          ax += (double)a[i * n + j] * x[j];
          abs_ax += fabs((double)a[i * n + j] * x[j]);
        }
        diff = fabs(z - ax) > diff ? fabs(z - ax) : diff;
        scale = abs_ax > scale ? abs_ax : scale;
      }
      double r = scale > 0.0 ? diff / scale : diff;
      worst = r > worst ? r : worst;
    }
  }
  free(x);
  free(y);
  return worst;
}

int lu_accept_rounded(const float *a, const float *lu, const float *ref, uint64_t n, double *mine,
                      double *theirs, double *bound) {
  *mine = lu_residual_probed(a, lu, n, LU_PROBES);
  *theirs = lu_residual_probed(a, ref, n, LU_PROBES);
  double eps_n = (double)n * FLT_EPSILON;
  *bound = 4 * *theirs > eps_n ? 4 * *theirs : eps_n;
  return *mine <= *bound;
}
