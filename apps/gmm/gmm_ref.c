/* gmm_ref.c: see gmm_ref.h. Written apart from the kernels: it shares the per-point arithmetic,
 * the fixed point (gmm_math.h) and the M-step (gmm_data.c) with them, but not their loops,
 * views or offsets, and it sums each key over a subtask's points key by key (as the CUDA kernel
 * does) where the host kernels go point by point: any difference in grouping or order would
 * show. Integer sums across subtasks, as the runtime's reduction adds them. */
#include <stdlib.h>

#include "gmm_data.h"
#include "gmm_math.h"
#include "gmm_ref.h"

/* Adds subtask s's fixed-point sums into `total`, its points' responsibilities computed into
 * r (block x clusters), d being dims doubles of workspace. */
static void subtask_sums(const gmm_conf *c, const float *x, uint64_t s, const double *params,
                         double *r, double *d, int64_t *total) {
  uint64_t first = s * c->block, m = c->clusters, dims = c->dims, row = gm_row(c->dims);
  for (uint64_t i = 0; i < c->block; i++)
    gm_point_resp(x + (first + i) * dims, params, row, c->clusters, c->dims, d, r + i * m);
  for (uint64_t j = 0; j < m; j++) {
    int64_t *t = total + j * row;
    uint64_t key = 0;
    /* Key 0: sum r; keys 1 .. D: sum r x_k; then (k, l), l <= k: sum (r x_k) x_l. */
    for (uint64_t k = 0; k <= dims; k++) {
      double sum = 0.0;
      for (uint64_t i = 0; i < c->block; i++) {
        double w = r[i * m + j];
        sum =
            k == 0 ? GM_ADD(sum, w) : GM_ADD(sum, GM_MUL(w, (double)x[(first + i) * dims + k - 1]));
      }
      t[key++] += gm_fixed(sum);
    }
    for (uint64_t k = 0; k < dims; k++)
      for (uint64_t l = 0; l <= k; l++) {
        double sum = 0.0;
        for (uint64_t i = 0; i < c->block; i++) {
          const float *p = x + (first + i) * dims;
          sum = GM_ADD(sum, GM_MUL(GM_MUL(r[i * m + j], (double)p[k]), (double)p[l]));
        }
        t[key++] += gm_fixed(sum);
      }
  }
}

int gm_reference(const gmm_conf *c, const float *x, uint64_t iterations, double *params) {
  double *r = malloc(c->block * c->clusters * sizeof *r), *d = malloc(c->dims * sizeof *d);
  int64_t *total = malloc(gm_keys(c) * sizeof *total);
  int st = r && d && total ? 0 : -1;
  for (uint64_t it = 0; it < iterations && st == 0; it++) {
    for (uint64_t key = 0; key < gm_keys(c); key++)
      total[key] = 0;
    for (uint64_t s = 0; s < c->n / c->block; s++)
      subtask_sums(c, x, s, params, r, d, total);
    st = gm_update_params(total, c->clusters, c->dims, params);
  }
  free(r);
  free(d);
  free(total);
  return st;
}
