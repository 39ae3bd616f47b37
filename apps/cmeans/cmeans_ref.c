/* cmeans_ref.c: see cmeans_ref.h. Written apart from the kernels: it shares the per-point
 * arithmetic, the fixed point (cmeans_math.h) and the centres' update with them, but not their
 * loops, views or offsets, and it sums each key over a subtask's points key by key (as the
 * CUDA kernel does) where the host kernels go point by point: any difference in grouping or
 * order would show. Integer sums across subtasks, as the runtime's reduction adds them. */
#include <stdlib.h>

#include "cmeans_data.h"
#include "cmeans_math.h"
#include "cmeans_ref.h"

/* Adds subtask s's fixed-point sums into `total`, its points' weights computed into w. */
static void subtask_sums(const cmeans_conf *c, const float *x, uint64_t s, const float *centres,
                         double *w, int64_t *total) {
  uint64_t first = s * c->block, m = c->clusters, d = c->dims;
  for (uint64_t i = 0; i < c->block; i++)
    cm_point_weights(x + (first + i) * d, centres, d, c->clusters, c->dims, w + i * m);
  for (uint64_t j = 0; j < m; j++)
    for (uint64_t k = 0; k <= d; k++) {
      double sum = 0.0;
      for (uint64_t i = 0; i < c->block; i++)
        sum = k < d ? CM_ADD(sum, CM_MUL(w[i * m + j], (double)x[(first + i) * d + k]))
                    : CM_ADD(sum, w[i * m + j]);
      total[j * (d + 1) + k] += cm_fixed(sum);
    }
}

int cm_reference(const cmeans_conf *c, const float *x, uint64_t iterations, float *centres) {
  double *w = malloc(c->block * c->clusters * sizeof *w);
  int64_t *total = malloc(cm_keys(c) * sizeof *total);
  if (!w || !total) {
    free(w);
    free(total);
    return -1;
  }
  for (uint64_t it = 0; it < iterations; it++) {
    for (uint64_t key = 0; key < cm_keys(c); key++)
      total[key] = 0;
    for (uint64_t s = 0; s < c->n / c->block; s++)
      subtask_sums(c, x, s, centres, w, total);
    cm_update_centres(total, c->clusters, c->dims, centres);
  }
  free(w);
  free(total);
  return 0;
}
