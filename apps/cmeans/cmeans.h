/* cmeans.h: fuzzy c-means clustering, the C-means application of Li, Fox, von Laszewski and
 * Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster" (IEEE Cluster 2013),
 * section IV.A.1: each iteration a MapReduce task whose map subtasks compute their points'
 * memberships and partial cluster centres, reduced into the new centres.
 *
 * --n points of `--app-param dims=D` floats (default 100), `--app-param clusters=M` (default
 * 10), `--app-param iterations=K` (default 10), --block b points per subtask: n / b subtasks
 * per iteration. The paper's Fig. 6 runs 10^6 points per node with D = 100, M = 10.
 *
 * Spaces. Points (n x D floats, pitch one point): written once, read-only in every iteration,
 * so a GPU's cache keeps its blocks from one iteration to the next (the paper's "iterative
 * support" for loop-invariant data). Centres (M x D floats, pitch one centre): rewritten by the
 * driver after each iteration. Sums: M (D + 1) int64 keys, the output of every iteration.
 *
 * Subtask s reads points [s b, (s + 1) b) and all the centres, and emits for each cluster j
 * the D sums of u_ij^2 x_i over its points (keys j (D + 1) .. j (D + 1) + D - 1) and the sum of
 * u_ij^2 (key j (D + 1) + D), in fixed point (cmeans_math.h), added by the runtime
 * (NW_REDUCE_ADD over int64). Every subtask subscribes every key. The driver, on node 0, reads
 * the sums, divides (double, rounded to float) and writes the new centres. Every run, on any
 * nodes and devices, equals the single-process reference bit for bit.
 */
#ifndef NW_APP_CMEANS_H
#define NW_APP_CMEANS_H

#include "narwhal_app.h"

#define CM_CLUSTERS_DEFAULT 10 /* the paper's Fig. 6 */
#define CM_CLUSTERS_MAX 1024
#define CM_DIMS_DEFAULT 100 /* the paper's Fig. 6 */
#define CM_DIMS_MAX 4096
#define CM_ITERATIONS_DEFAULT 10
#define CM_ITERATIONS_MAX 1000
#define CM_SUBTASKS_MAX 65536 /* each writes every key: submission checks them all */

typedef struct cmeans_conf {
  uint64_t n, block;       /* points, points per subtask */
  uint32_t clusters, dims; /* M, D */
} cmeans_conf;

/* Bound spaces, in binding order: nw_mapreduce_create's two inputs, then its output. The
 * subtask's scratch buffer (nw_subscribe_scratch) follows them, at index CM_SCRATCH. */
enum { CM_POINTS = 0, CM_CENTRES = 1, CM_SUMS = 2, CM_SCRATCH = 3 };

#define CM_OP NW_REDUCE_ADD
#define CM_TYPE NW_TYPE_INT64

/* Keys per iteration: per cluster, D coordinate sums and one weight sum. */
static inline uint64_t cm_keys(const cmeans_conf *c) {
  return (uint64_t)c->clusters * (c->dims + 1);
}

extern const nw_task_kind nw_cmeans_kind;
extern const nw_app nw_cmeans_app;

#endif
