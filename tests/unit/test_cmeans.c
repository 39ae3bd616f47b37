/* test_cmeans.c: the C-means app's arithmetic (apps/cmeans/cmeans_math.h) and reference
 * (apps/cmeans/cmeans_ref.c), which the distributed runs are checked against bit for bit
 * (tests/sim, tests/real): memberships agree with the textbook formula (Li, Fox, von
 * Laszewski, Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster", equation 13
 * with m = 2) and sum to 1; a point on a centre belongs to the first such cluster only; the
 * map's keys are laid out and scaled as documented; the points stay within the fixed point's
 * bound; and the reference's iterations never raise the objective (equation 12), as fuzzy
 * c-means' alternating minimisation must not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmeans/cmeans.h"
#include "cmeans/cmeans_data.h"
#include "cmeans/cmeans_map.h"
#include "cmeans/cmeans_math.h"
#include "cmeans/cmeans_ref.h"

#define M 5
#define D 7

/* u_ij = 1 / sum_k (d_ij / d_ik), directly, against the weights' square roots. */
static void memberships(void) {
  float x[D], c[M * D];
  cm_fill_points(c, M, 3, D, 11);
  cm_fill_points(x, 1, 3, D, 12);
  double w[M], d[M], total = 0.0, worst = 0.0;
  cm_point_weights(x, c, D, M, D, w);
  for (int j = 0; j < M; j++) {
    d[j] = 0.0;
    for (int k = 0; k < D; k++)
      d[j] += ((double)x[k] - c[j * D + k]) * ((double)x[k] - c[j * D + k]);
  }
  for (int j = 0; j < M; j++) {
    double s = 0.0;
    for (int k = 0; k < M; k++)
      s += d[j] / d[k];
    worst = fmax(worst, fabs(sqrt(w[j]) - 1.0 / s) * s);
    total += sqrt(w[j]);
    CHECK(w[j] >= 0.0 && w[j] <= 1.0);
  }
  CHECK(worst < 1e-12);
  CHECK(fabs(total - 1.0) < 1e-12);

  /* On centres 2 and 4 at once (equal centres): all of it in cluster 2. */
  memcpy(c + 4 * D, c + 2 * D, sizeof x);
  cm_point_weights(c + 2 * D, c, D, M, D, w);
  CHECK(w[0] == 0.0 && w[1] == 0.0 && w[2] == 1.0 && w[3] == 0.0 && w[4] == 0.0);
}

/* One cluster: every weight is exactly 1, so key k is the block's coordinate sum and key D
 * the point count, each times 2^24. */
static void key_layout(void) {
  enum { B = 9 };
  float x[B * D], c[D];
  cm_fill_points(x, B, 2, D, 21);
  cm_fill_points(c, 1, 2, D, 22);
  double w[B], acc[D + 1];
  int64_t keys[D + 1];
  cm_map m = {.points = B,
              .clusters = 1,
              .dims = D,
              .x = x,
              .ldx = D,
              .c = c,
              .ldc = D,
              .w = w,
              .acc = acc};
  nw_emitter e;
  CHECK(nw_emitter_init_buffer(&e, keys, CM_OP, CM_TYPE, 0, D + 1) == NW_OK);
  CHECK(cm_map_host(&m, &e) == 0);
  int exact = 1;
  for (int k = 0; k < D; k++) {
    double sum = 0.0;
    for (int i = 0; i < B; i++)
      sum += x[i * D + k];
    exact &= keys[k] == llrint(sum * 16777216.0);
  }
  CHECK(exact);
  CHECK(keys[D] == (int64_t)B << 24);
}

/* The inputs: reproducible, within CM_COORD_MAX (the overflow bound's premise). */
static void inputs(void) {
  uint64_t n = 4096;
  float *a = malloc(n * 100 * sizeof *a), *b = malloc(n * 100 * sizeof *b);
  CHECK(a && b);
  if (a && b) {
    cm_fill_points(a, n, 10, 100, 3);
    cm_fill_points(b, n, 10, 100, 3);
    CHECK(memcmp(a, b, n * 100 * sizeof *a) == 0);
    int in_range = 1;
    for (uint64_t i = 0; i < n * 100; i++)
      in_range &= fabsf(a[i]) <= (float)CM_COORD_MAX;
    CHECK(in_range);
  }
  free(a);
  free(b);
}

/* J = sum_i sum_j u_ij^2 |x_i - c_j|^2 (equation 12, m = 2). */
static double objective(const float *x, uint64_t n, const float *c, uint32_t clusters,
                        uint32_t dims) {
  double w[16], j = 0.0;
  for (uint64_t i = 0; i < n; i++) {
    cm_point_weights(x + i * dims, c, dims, clusters, dims, w);
    for (uint32_t k = 0; k < clusters; k++)
      j += w[k] * cm_dist2(x + i * dims, c + k * dims, dims);
  }
  return j;
}

/* Each iteration of the reference, from the first points as centres, lowers J or leaves it
 * (up to the fixed point's and float's rounding), and twenty find the true clusters: J comes
 * within 5% of the noise's own share, n D 16/3 (uniform noise in [-4, 4) has variance 16/3),
 * where a centre left between two clusters would leave it orders of magnitude higher. */
static void descent(void) {
  cmeans_conf conf = {.n = 2048, .block = 256, .clusters = 4, .dims = 3};
  float *x = malloc(conf.n * conf.dims * sizeof *x), c[4 * 3];
  CHECK(x != NULL);
  if (!x)
    return;
  cm_fill_points(x, conf.n, conf.clusters, conf.dims, 5);
  memcpy(c, x, sizeof c);
  double first = objective(x, conf.n, c, conf.clusters, conf.dims), last = first;
  int descends = 1;
  for (int it = 0; it < 20; it++) {
    CHECK(cm_reference(&conf, x, 1, c) == 0);
    double now = objective(x, conf.n, c, conf.clusters, conf.dims);
    descends &= now <= last * (1.0 + 1e-9);
    last = now;
  }
  CHECK(descends);
  CHECK(last < 1.05 * (double)conf.n * conf.dims * 16.0 / 3.0);
  CHECK(last < first);
  free(x);
}

int main(void) {
  memberships();
  key_layout();
  inputs();
  descent();
  return check_report("cmeans");
}
