/* cmeans_kind.c: the cmeans task kind: subscriptions, kernels, cost model (see cmeans.h).
 *
 * A subtask works in two phases, on every device: first each point's weights u_ij^2 into a
 * scratch buffer (one point at a time, cmeans_math.h), then each key's sum over the subtask's
 * points, in point order. The host runs the second phase point by point (each point's weights
 * times its coordinates added to every key's running sum: one pass over the points), the CUDA
 * kernel key by key (one thread per key looping over the points): either way each key receives
 * the same addends in the same order, so the same bits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cmeans.h"
#include "cmeans_map.h"
#include "cmeans_math.h"

#define F ((uint64_t)sizeof(float))

/* The scratch buffer: the weights (points x clusters), then the keys' sums in double. */
static uint64_t scratch_doubles(const cmeans_conf *c) {
  return c->block * c->clusters + cm_keys(c);
}

static nw_status cm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const cmeans_conf *c = t->conf;
  uint64_t row = c->dims * F;
  nw_status st =
      nw_subscribe(s, CM_POINTS, NW_READ_ONLY, subtask * c->block * row, row, row, c->block);
  if (st == NW_OK)
    st = nw_subscribe(s, CM_CENTRES, NW_READ_ONLY, 0, row, row, c->clusters);
  if (st == NW_OK)
    st = nw_subscribe_keys(s, CM_SUMS, CM_TYPE, 0, cm_keys(c));
  if (st == NW_OK) /* working memory only: the kernels write it before reading it */
    st = nw_subscribe_scratch(s, scratch_doubles(c) * sizeof(double), NULL);
  return st;
}

uint64_t cm_map_host(const cm_map *m, nw_emitter *out) {
  uint64_t keys = (uint64_t)m->clusters * (m->dims + 1);
  for (uint64_t i = 0; i < m->points; i++)
    cm_point_weights(m->x + i * m->ldx, m->c, m->ldc, m->clusters, m->dims, m->w + i * m->clusters);
  for (uint64_t key = 0; key < keys; key++)
    m->acc[key] = 0.0;
  for (uint64_t i = 0; i < m->points; i++) {
    const float *x = m->x + i * m->ldx;
    for (uint32_t j = 0; j < m->clusters; j++) {
      double w = m->w[i * m->clusters + j], *acc = m->acc + (uint64_t)j * (m->dims + 1);
      for (uint32_t k = 0; k < m->dims; k++)
        acc[k] = CM_ADD(acc[k], CM_MUL(w, (double)x[k]));
      acc[m->dims] = CM_ADD(acc[m->dims], w);
    }
  }
  for (uint64_t key = 0; key < keys; key++) {
    int64_t v = cm_fixed(m->acc[key]);
    nw_emit(out, key, &v);
  }
  return out->refused;
}

/* A kernel has no status to return: an output view that does not hold every key, or a key
 * refused, is a bug here, fatal. */
static void map_points(const cm_map *m, uint64_t subtask, nw_status opened, nw_emitter *out) {
  uint64_t refused = opened == NW_OK ? cm_map_host(m, out) : 0;
  if (opened != NW_OK || refused) {
    fprintf(stderr, "narwhal: cmeans: subtask %llu: %s\n", (unsigned long long)subtask,
            opened != NW_OK ? "its output view does not hold every key" : "a key was refused");
    abort();
  }
}

static void cm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const cmeans_conf *c = t->conf;
  double *scratch = (double *)v[CM_SCRATCH].base;
  cm_map m = {.points = c->block,
              .clusters = c->clusters,
              .dims = c->dims,
              .x = nw_view_at(&v[CM_POINTS], subtask * c->block * c->dims * F),
              .ldx = c->dims,
              .c = nw_view_at(&v[CM_CENTRES], 0),
              .ldc = c->dims,
              .w = scratch,
              .acc = scratch + c->block * c->clusters};
  nw_emitter out;
  map_points(&m, subtask, nw_emitter_init(&out, &v[CM_SUMS], CM_OP, CM_TYPE, 0, cm_keys(c)), &out);
}

/* On a GPU each view holds its subscription's rectangle (narwhal.h, nw_gpu_view): the
 * subtask's points packed a view pitch apart, all the centres, the one row of keys. */
static void gpu_map(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, cm_map *m) {
  const cmeans_conf *c = t->conf;
  double *scratch = (double *)v[CM_SCRATCH].base;
  *m = (cm_map){.points = c->block,
                .clusters = c->clusters,
                .dims = c->dims,
                .x = nw_gpu_view_at(&v[CM_POINTS], subtask * c->block * c->dims * F),
                .ldx = v[CM_POINTS].pitch / F,
                .c = nw_gpu_view_at(&v[CM_CENTRES], 0),
                .ldc = v[CM_CENTRES].pitch / F,
                .w = scratch,
                .acc = scratch + c->block * c->clusters,
                .out = nw_gpu_view_at(&v[CM_SUMS], 0)};
}

static void cm_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  cm_map m;
  gpu_map(t, subtask, v, &m);
  nw_emitter out;
  nw_status opened = nw_emitter_init_gpu(&out, &v[CM_SUMS], CM_OP, CM_TYPE, 0, cm_keys(t->conf));
  map_points(&m, subtask, opened, &out);
}

static void cm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  cm_map m;
  gpu_map(t, subtask, v, &m);
  nw_cmeans_cuda_map(&m, stream);
}

/* Per point and cluster: the distance, 3 D (a subtraction, a multiplication and an addition
 * per coordinate); the membership and its weight, 4 (a reciprocal, its addition to the sum,
 * the division by the sum, the square); the weighted sums, 2 D + 1 (a multiplication and an
 * addition per coordinate, and the weight's addition). The subtask's conversions to fixed
 * point (M (D + 1), once per subtask) are left out. */
static double cm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const cmeans_conf *c = t->conf;
  return (double)c->block * c->clusters * (5.0 * c->dims + 5.0);
}

/* The subtask's points and all the centres read once (4 bytes a coordinate), every key
 * written once (8 bytes). Flops per byte: M (5D + 5) / 4D for large blocks, 12.6 at the
 * paper's M = 10, D = 100 (its Table 5 counts 5M per element). */
static double cm_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const cmeans_conf *c = t->conf;
  return (double)F * ((double)c->block * c->dims + (double)c->clusters * c->dims) +
         (double)sizeof(int64_t) * (double)cm_keys(c);
}

/* No cpu_work_item: every item would add into every key, so items would need keys of their
 * own and a combination in a fixed order; one core per subtask keeps the kernel simple. */
const nw_task_kind nw_cmeans_kind = {
    .name = "cmeans",
    .subscribe = cm_subscribe,
    .cpu_kernel = cm_cpu,
    .flops = cm_flops,
    .cuda_kernel = cm_cuda,
    .gpu_emulated_kernel = cm_gpu_emulated,
    .bytes = cm_bytes,
};
