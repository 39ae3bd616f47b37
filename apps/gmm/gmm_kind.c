/* gmm_kind.c: the gmm task kind: subscriptions, kernels, cost model (see gmm.h).
 *
 * A subtask works in two phases, on every device: first each point's responsibilities into a
 * scratch buffer (one point at a time, gmm_math.h), then each key's sum over the subtask's
 * points, in point order. The host runs the second phase point by point (each point's
 * contributions added to every key's running sum: one pass over the points), the CUDA kernel
 * key by key (one thread per key looping over the points): either way each key receives the
 * same addends, computed by the same operations, in the same order, so the same bits.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gmm.h"
#include "gmm_map.h"
#include "gmm_math.h"

#define F ((uint64_t)sizeof(float))
#define DBL ((uint64_t)sizeof(double))

/* The scratch buffer: the responsibilities (points x clusters), the differences (points x
 * dims), then the keys' sums in double. */
static uint64_t scratch_doubles(const gmm_conf *c) {
  return c->block * c->clusters + c->block * c->dims + gm_keys(c);
}

static nw_status gm_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const gmm_conf *c = t->conf;
  uint64_t point = c->dims * F, row = gm_row(c->dims) * DBL;
  nw_status st =
      nw_subscribe(s, GM_POINTS, NW_READ_ONLY, subtask * c->block * point, point, point, c->block);
  if (st == NW_OK)
    st = nw_subscribe(s, GM_PARAMS, NW_READ_ONLY, 0, row, row, c->clusters);
  if (st == NW_OK)
    st = nw_subscribe_keys(s, GM_SUMS, GM_TYPE, 0, gm_keys(c));
  if (st == NW_OK) /* working memory only: the kernels write it before reading it */
    st = nw_subscribe_scratch(s, scratch_doubles(c) * DBL, NULL);
  return st;
}

uint64_t gm_map_host(const gm_map *m, nw_emitter *out) {
  uint64_t row = gm_row(m->dims), keys = m->clusters * row;
  for (uint64_t i = 0; i < m->points; i++)
    gm_point_resp(m->x + i * m->ldx, m->p, m->ldp, m->clusters, m->dims, m->d,
                  m->r + i * m->clusters);
  for (uint64_t key = 0; key < keys; key++)
    m->acc[key] = 0.0;
  for (uint64_t i = 0; i < m->points; i++) {
    const float *x = m->x + i * m->ldx;
    for (uint32_t j = 0; j < m->clusters; j++) {
      double r = m->r[i * m->clusters + j], *acc = m->acc + j * row, *first = acc + 1,
             *second = acc + 1 + m->dims;
      acc[0] = GM_ADD(acc[0], r);
      for (uint32_t k = 0; k < m->dims; k++) {
        double rx = GM_MUL(r, (double)x[k]);
        first[k] = GM_ADD(first[k], rx);
        for (uint32_t l = 0; l <= k; l++, second++)
          *second = GM_ADD(*second, GM_MUL(rx, (double)x[l]));
      }
    }
  }
  for (uint64_t key = 0; key < keys; key++) {
    int64_t v = gm_fixed(m->acc[key]);
    nw_emit(out, key, &v);
  }
  return out->refused;
}

/* A kernel has no status to return: an output view that does not hold every key, or a key
 * refused, is a bug here, fatal. */
static void map_points(const gm_map *m, uint64_t subtask, nw_status opened, nw_emitter *out) {
  uint64_t refused = opened == NW_OK ? gm_map_host(m, out) : 0;
  if (opened != NW_OK || refused) {
    fprintf(stderr, "narwhal: gmm: subtask %llu: %s\n", (unsigned long long)subtask,
            opened != NW_OK ? "its output view does not hold every key" : "a key was refused");
    abort();
  }
}

static void scratch_parts(const gmm_conf *c, double *scratch, gm_map *m) {
  m->r = scratch;
  m->d = scratch + c->block * c->clusters;
  m->acc = m->d + c->block * c->dims;
}

static void gm_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const gmm_conf *c = t->conf;
  gm_map m = {.points = c->block,
              .clusters = c->clusters,
              .dims = c->dims,
              .x = nw_view_at(&v[GM_POINTS], subtask * c->block * c->dims * F),
              .ldx = c->dims,
              .p = nw_view_at(&v[GM_PARAMS], 0),
              .ldp = gm_row(c->dims)};
  scratch_parts(c, (double *)v[GM_SCRATCH].base, &m);
  nw_emitter out;
  map_points(&m, subtask, nw_emitter_init(&out, &v[GM_SUMS], GM_OP, GM_TYPE, 0, gm_keys(c)), &out);
}

/* On a GPU each view holds its subscription's rectangle (narwhal.h, nw_gpu_view): the
 * subtask's points packed a view pitch apart, all the parameters, the one row of keys. */
static void gpu_map(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, gm_map *m) {
  const gmm_conf *c = t->conf;
  *m = (gm_map){.points = c->block,
                .clusters = c->clusters,
                .dims = c->dims,
                .x = nw_gpu_view_at(&v[GM_POINTS], subtask * c->block * c->dims * F),
                .ldx = v[GM_POINTS].pitch / F,
                .p = nw_gpu_view_at(&v[GM_PARAMS], 0),
                .ldp = v[GM_PARAMS].pitch / DBL,
                .out = nw_gpu_view_at(&v[GM_SUMS], 0)};
  scratch_parts(c, (double *)v[GM_SCRATCH].base, m);
}

static void gm_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  gm_map m;
  gpu_map(t, subtask, v, &m);
  nw_emitter out;
  nw_status opened = nw_emitter_init_gpu(&out, &v[GM_SUMS], GM_OP, GM_TYPE, 0, gm_keys(t->conf));
  map_points(&m, subtask, opened, &out);
}

static void gm_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  gm_map m;
  gpu_map(t, subtask, v, &m);
  nw_gmm_cuda_map(&m, stream);
}

/* Per point and cluster, as gm_point_resp and gm_map_host count them. The log-density:
 * the differences, D; z = L^-1 d, a multiplication and an addition per element of the
 * triangle, D (D + 1); q = |z|^2, 2 D; g - q / 2, 2: D^2 + 4 D + 2. The responsibility: the
 * comparison with the largest, 1; the subtraction of the largest, 1; the exponential,
 * GM_EXP_FLOPS; its addition to the sum, 1; the division by the sum, 1. The statistics: the
 * weight's addition, 1; r x_k and its addition, 2 D; r x_k x_l and its addition, D (D + 1):
 * D^2 + 3 D + 1. In all 2 D^2 + 7 D + 7 + GM_EXP_FLOPS, 7673 at D = 60. The subtask's
 * conversions to fixed point (M gm_row, once per subtask) are left out.
 *
 * The paper's Table 5 counts 11 M D flops per element of the input (11 M D^2 per point): its
 * kernel (Pangborn's CUDA GMM) forms the quadratic form over the full D x D inverse and the
 * covariance sums over all D^2 pairs of centred coordinates; this one uses the triangular
 * factor and the symmetry, about 2 M D per element: the same order, O(M D), against C-means'
 * O(M). */
static double gm_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const gmm_conf *c = t->conf;
  double d = c->dims;
  return (double)c->block * c->clusters * (2.0 * d * d + 7.0 * d + 7.0 + GM_EXP_FLOPS);
}

/* The subtask's points (4 bytes a coordinate) and all the parameters (8 bytes each) read once,
 * every key written once (8 bytes). Flops per byte: M (2 D^2 + 7 D + 53) / 4 D for large blocks,
 * 320 at the paper's M = 10, D = 60. */
static double gm_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const gmm_conf *c = t->conf;
  return (double)F * (double)c->block * c->dims + 2.0 * (double)DBL * (double)gm_keys(c);
}

/* No cpu_work_item: every item would add into every key, so items would need keys of their
 * own and a combination in a fixed order; one core per subtask keeps the kernel simple. */
const nw_task_kind nw_gmm_kind = {
    .name = "gmm",
    .subscribe = gm_subscribe,
    .cpu_kernel = gm_cpu,
    .flops = gm_flops,
    .cuda_kernel = gm_cuda,
    .gpu_emulated_kernel = gm_gpu_emulated,
    .bytes = gm_bytes,
};
