/* gmm.h: expectation maximisation of a Gaussian mixture, the GMM application of Li, Fox, von
 * Laszewski and Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster" (IEEE
 * Cluster 2013), section III-B-2: each iteration a MapReduce task whose map subtasks run the
 * E-step over their points (each point's log-density in each cluster, equation (15), and its
 * responsibilities) and emit the sufficient statistics of the M-step, reduced by the runtime;
 * the driver then computes the new weights, means and covariances.
 *
 * --n points of `--app-param dims=D` floats (default 60), `--app-param clusters=M` (default
 * 10), `--app-param iterations=K` (default 10), --block b points per subtask: n / b subtasks per
 * iteration. The paper's Table 5 gives GMM's intensity at M = 10, D = 60; its Fig. 6 runs
 * 100,000 points per node with D = 60, M = 100.
 *
 * Full covariances, as equation (15) has them: cluster m keeps its mixing weight pi_m, its mean
 * mu_m and the inverse L_m^-1 of the Cholesky factor of its covariance R_m = L_m L_m^t, so that
 * (y - mu)^t R^-1 (y - mu) = |L^-1 (y - mu)|^2.
 *
 * Spaces. Points (n x D floats, pitch one point): written once, read-only in every iteration,
 * so a GPU's cache keeps its blocks from one iteration to the next, as for C-means. Parameters
 * (M rows of gm_row doubles): row m holds g_m = log pi_m - log |L_m| - (D / 2) log 2 pi, then
 * mu_m (D), then L_m^-1's lower triangle row by row (D (D + 1) / 2); rewritten by the driver
 * after each iteration. Sums: M gm_row int64 keys, the output of every iteration: for cluster m
 * at key m gm_row, the sum of the responsibilities r_im, then the D sums of r_im x_i, then the
 * lower triangle of the sums of r_im x_i x_i^t, in the same order as a parameter row. Each sum
 * is in fixed point (gmm_math.h), added by the runtime (NW_REDUCE_ADD over int64); every
 * subtask subscribes every key. Every run, on any nodes and devices, equals the single-process
 * reference bit for bit.
 */
#ifndef NW_APP_GMM_H
#define NW_APP_GMM_H

#include "narwhal_app.h"

#define GM_CLUSTERS_DEFAULT 10 /* the paper's Table 5 (its Fig. 6: 100) */
#define GM_CLUSTERS_MAX 1024
#define GM_DIMS_DEFAULT 60 /* the paper's Table 5 and Fig. 6 */
#define GM_DIMS_MAX 256
#define GM_ITERATIONS_DEFAULT 10
#define GM_ITERATIONS_MAX 1000
#define GM_SUBTASKS_MAX 65536           /* each writes every key: submission checks them all */
#define GM_KEYS_MAX ((uint64_t)1 << 22) /* 32 MiB of int64 sums per subtask */

typedef struct gmm_conf {
  uint64_t n, block;       /* points, points per subtask */
  uint32_t clusters, dims; /* M, D */
} gmm_conf;

/* Bound spaces, in binding order: nw_mapreduce_create's two inputs, then its output. The
 * subtask's scratch buffer (nw_subscribe_scratch) follows them, at index GM_SCRATCH. */
enum { GM_POINTS = 0, GM_PARAMS = 1, GM_SUMS = 2, GM_SCRATCH = 3 };

#define GM_OP NW_REDUCE_ADD
#define GM_TYPE NW_TYPE_INT64

/* A cluster's row of parameters, and of keys: 1 + D + D (D + 1) / 2. */
static inline uint64_t gm_row(uint32_t dims) {
  return 1 + (uint64_t)dims + (uint64_t)dims * (dims + 1) / 2;
}

/* Keys per iteration. */
static inline uint64_t gm_keys(const gmm_conf *c) {
  return (uint64_t)c->clusters * gm_row(c->dims);
}

extern const nw_task_kind nw_gmm_kind;
extern const nw_app nw_gmm_app;

#endif
