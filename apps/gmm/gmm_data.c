/* gmm_data.c: see gmm_data.h. */
#include "gmm_data.h"

#include <math.h>
#include <stdlib.h>

#include "../common/inputs.h"
#include "gmm.h"

#define LOG_2PI 1.8378770664093453 /* log(2 pi) */

/* A value uniform in [-1, 1) from a hash: 2u - 1 is exact in float (nw_app_unit24). */
static float sym(uint64_t h) {
  return 2.0f * nw_app_unit24(nw_app_splitmix64(h)) - 1.0f;
}

void gm_fill_points(float *x, uint64_t n, uint32_t clusters, uint32_t dims, uint64_t seed) {
  /* Four streams of the seed: the true centres, their spreads, each point's cluster, the noise. */
  uint64_t centre = nw_app_splitmix64(seed), spread = nw_app_splitmix64(seed + 1),
           which = nw_app_splitmix64(seed + 2), noise = nw_app_splitmix64(seed + 3);
  for (uint64_t i = 0; i < n; i++) {
    uint64_t j = nw_app_splitmix64(which + i) % clusters;
    float before = 0.0f; /* e_(k-1) */
    for (uint32_t k = 0; k < dims; k++) {
      uint64_t at = j * dims + k;
      float s = 1.0f + 3.0f * nw_app_unit24(nw_app_splitmix64(spread + at));
      float e = sym(noise + i * dims + k);
      x[i * dims + k] = 8.0f * sym(centre + at) + (s * e + 0.5f * before);
      before = e;
    }
  }
}

void gm_initial_params(const float *x, uint32_t clusters, uint32_t dims, double *params) {
  uint64_t row = gm_row(dims);
  for (uint32_t m = 0; m < clusters; m++) {
    double *p = params + m * row, *tri = p + 1 + dims;
    p[0] = -log((double)clusters) - 0.5 * dims * LOG_2PI;
    for (uint32_t k = 0; k < dims; k++) {
      p[1 + k] = (double)x[(uint64_t)m * dims + k];
      for (uint32_t l = 0; l <= k; l++)
        *tri++ = k == l ? 1.0 : 0.0;
    }
  }
}

/* Packed lower triangle: element (k, l), l <= k. */
#define TRI(k, l) ((uint64_t)(k) * ((k) + 1) / 2 + (l))

/* R = L L^t in place (packed lower triangle); 0, or -1 where a pivot is not positive. */
static int cholesky(double *a, uint32_t dims) {
  for (uint32_t k = 0; k < dims; k++) {
    for (uint32_t l = 0; l <= k; l++) {
      double s = a[TRI(k, l)];
      for (uint32_t j = 0; j < l; j++)
        s -= a[TRI(k, j)] * a[TRI(l, j)];
      if (l < k) {
        a[TRI(k, l)] = s / a[TRI(l, l)];
      } else {
        if (!(s > 0.0))
          return -1;
        a[TRI(k, k)] = sqrt(s);
      }
    }
  }
  return 0;
}

/* inv = L^-1 (both packed lower triangles), by forward substitution column by column. */
static void invert_lower(const double *lo, uint32_t dims, double *inv) {
  for (uint32_t c = 0; c < dims; c++)
    for (uint32_t k = c; k < dims; k++) {
      double s = k == c ? 1.0 : 0.0;
      for (uint32_t j = c; j < k; j++)
        s -= lo[TRI(k, j)] * inv[TRI(j, c)];
      inv[TRI(k, c)] = s / lo[TRI(k, k)];
    }
}

int gm_update_params(const int64_t *sums, uint32_t clusters, uint32_t dims, double *params) {
  uint64_t row = gm_row(dims), tri = row - 1 - dims;
  double *cov = malloc(tri * sizeof *cov), *inv = malloc(tri * sizeof *inv),
         *mean = malloc(dims * sizeof *mean);
  if (!cov || !inv || !mean) {
    free(cov);
    free(inv);
    free(mean);
    return -1;
  }
  double total = 0.0;
  for (uint32_t m = 0; m < clusters; m++)
    total += (double)sums[m * row];
  for (uint32_t m = 0; m < clusters; m++) {
    const int64_t *s = sums + m * row, *s1 = s + 1, *s2 = s + 1 + dims;
    if (s[0] <= 0)
      continue;
    /* All sums carry the same scale, which the divisions cancel. */
    double w = (double)s[0];
    for (uint32_t k = 0; k < dims; k++)
      mean[k] = (double)s1[k] / w;
    for (uint32_t k = 0; k < dims; k++)
      for (uint32_t l = 0; l <= k; l++)
        cov[TRI(k, l)] =
            (double)s2[TRI(k, l)] / w - mean[k] * mean[l] + (k == l ? GM_COV_FLOOR : 0);
    if (cholesky(cov, dims) != 0)
      continue;
    invert_lower(cov, dims, inv);
    double half_log_det = 0.0;
    for (uint32_t k = 0; k < dims; k++)
      half_log_det += log(cov[TRI(k, k)]);
    double *p = params + m * row;
    p[0] = log(w / total) - half_log_det - 0.5 * dims * LOG_2PI;
    for (uint32_t k = 0; k < dims; k++)
      p[1 + k] = mean[k];
    for (uint64_t t = 0; t < tri; t++)
      p[1 + dims + t] = inv[t];
  }
  free(cov);
  free(inv);
  free(mean);
  return 0;
}
