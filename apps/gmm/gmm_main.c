/* gmm_main.c: the gmm application's parameters, driver and check (see gmm.h).
 *
 * The driver writes the points and the first parameters (gmm_data.h), then per iteration runs
 * one MapReduce task, waits for it, reads the sums, runs the M-step and writes the new
 * parameters, which the next task reads. In functional mode it compares the final parameters
 * with the serial reference bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/place.h"
#include "../common/run_task.h"
#include "gmm.h"
#include "gmm_data.h"
#include "gmm_math.h"
#include "gmm_ref.h"

#define F ((uint64_t)sizeof(float))
#define DBL ((uint64_t)sizeof(double))

typedef struct gm_params {
  uint64_t clusters, dims, iterations;
} gm_params;

/* Reads the --app-param keys; 0, or -1 with a one-line reason. */
static int gm_read_params(const nw_app_args *a, gm_params *p, char *why, size_t len) {
  if (nw_app_param_keys(a, "gmm", "clusters,dims,iterations", why, len) != 0)
    return -1;
  if (nw_app_param_uint(a, "gmm", "clusters", 1, GM_CLUSTERS_MAX, GM_CLUSTERS_DEFAULT, &p->clusters,
                        why, len) != 0 ||
      nw_app_param_uint(a, "gmm", "dims", 1, GM_DIMS_MAX, GM_DIMS_DEFAULT, &p->dims, why, len) != 0)
    return -1;
  return nw_app_param_uint(a, "gmm", "iterations", 1, GM_ITERATIONS_MAX, GM_ITERATIONS_DEFAULT,
                           &p->iterations, why, len);
}

static nw_status gm_check(const nw_app_args *a, char *why, size_t len) {
  gm_params p;
  if (gm_read_params(a, &p, why, len))
    return NW_ERR_ARG;
  uint64_t keys = p.clusters * gm_row((uint32_t)p.dims);
  if (keys > GM_KEYS_MAX) {
    snprintf(why, len,
             "gmm: %llu clusters of %llu dimensions give %llu sums per subtask; at most %llu",
             (unsigned long long)p.clusters, (unsigned long long)p.dims, (unsigned long long)keys,
             (unsigned long long)GM_KEYS_MAX);
    return NW_ERR_ARG;
  }
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, "gmm: --n (points) and --block (points per subtask) must be positive");
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, "gmm: --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > GM_POINTS_MAX) { /* the fixed point's bound (gmm_math.h) */
    snprintf(why, len,
             "gmm: --n %llu is more than 2^30 points, where the fixed-point sums could overflow",
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n < p.clusters) { /* the first means are the first points */
    snprintf(why, len, "gmm: --n %llu is fewer points than the %llu clusters",
             (unsigned long long)a->n, (unsigned long long)p.clusters);
    return NW_ERR_ARG;
  }
  if (a->n / a->block > GM_SUBTASKS_MAX) {
    snprintf(why, len, "gmm: --n %llu / --block %llu gives %llu subtasks; at most %d",
             (unsigned long long)a->n, (unsigned long long)a->block,
             (unsigned long long)(a->n / a->block), GM_SUBTASKS_MAX);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* One iteration: a MapReduce task over the points and the current parameters, leaving the sums
 * in `sums`. Every subtask subscribes every key (NW_MAPREDUCE_KEYS_COVERED: no fill). */
static nw_status iterate(nw_runtime *rt, const gmm_conf *conf, nw_space *points, nw_space *params,
                         nw_space *sums) {
  nw_space *inputs[] = {points, params};
  nw_mapreduce_spec m = {.kind = &nw_gmm_kind,
                         .subtasks = conf->n / conf->block,
                         .conf = conf,
                         .conf_size = sizeof *conf,
                         .inputs = inputs,
                         .ninputs = 2,
                         .output = sums,
                         .op = GM_OP,
                         .type = GM_TYPE,
                         .flags = NW_MAPREDUCE_KEYS_COVERED};
  return nw_app_run_mapreduce(rt, &m);
}

/* Compares the driver's final parameters with the reference run from the first ones. */
static nw_status check_final(const gmm_conf *c, const float *x, uint64_t iterations,
                             const double *got, int *equal) {
  uint64_t count = gm_keys(c), row = gm_row(c->dims);
  double *want = malloc(count * DBL);
  if (!want)
    return NW_ERR_NOMEM;
  gm_initial_params(x, c->clusters, c->dims, want);
  if (gm_reference(c, x, iterations, want) != 0) {
    free(want);
    return NW_ERR_NOMEM;
  }
  uint64_t differ = 0, first = 0;
  for (uint64_t q = 0; q < count; q++)
    if (memcmp(&got[q], &want[q], DBL) != 0 && differ++ == 0)
      first = q;
  *equal = differ == 0;
  if (differ)
    fprintf(stderr,
            "gmm: cluster %llu parameter %llu is %.17g, the reference %.17g (%llu of %llu "
            "differ)\n",
            (unsigned long long)(first / row), (unsigned long long)(first % row), got[first],
            want[first], (unsigned long long)differ, (unsigned long long)count);
  free(want);
  return NW_OK;
}

/* Runs the iterations, the parameters kept in `params` (the driver's copy) and the space. In
 * phantom mode the sums read are zeros (no bytes move), so the parameters stay as they were:
 * the driver's reads and writes still happen, as the model should charge them. */
static nw_status run(nw_runtime *rt, const gmm_conf *conf, uint64_t iterations, nw_space *points,
                     nw_space *params_space, double *params) {
  uint64_t keys = gm_keys(conf);
  int64_t *sums = calloc(keys, sizeof *sums);
  nw_space *out = NULL;
  nw_status st =
      sums ? nw_space_create(rt, keys * sizeof *sums, keys * sizeof *sums, &out) : NW_ERR_NOMEM;
  for (uint64_t k = 0; k < iterations && st == NW_OK; k++) {
    st = iterate(rt, conf, points, params_space, out);
    if (st == NW_OK)
      st = nw_space_read(out, 0, sums, keys * sizeof *sums);
    if (st == NW_OK)
      st = gm_update_params(sums, conf->clusters, conf->dims, params) == 0 ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK)
      st = nw_space_write(params_space, 0, params, keys * DBL);
  }
  nw_space_destroy(out);
  free(sums);
  return st;
}

static nw_status gm_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  gm_params p;
  if (gm_read_params(a, &p, why, sizeof why))
    return NW_ERR_ARG; /* gm_check has said why */
  gmm_conf conf = {
      .n = a->n, .block = a->block, .clusters = (uint32_t)p.clusters, .dims = (uint32_t)p.dims};
  uint64_t point = conf.dims * F, row = gm_row(conf.dims) * DBL;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *points = NULL, *params_space = NULL;
  float *x = NULL;
  double *params = calloc(gm_keys(&conf), DBL);
  nw_status st = params ? nw_space_create(rt, conf.n * point, point, &points) : NW_ERR_NOMEM;
  if (st == NW_OK)
    st = nw_space_create(rt, conf.clusters * row, row, &params_space);
  if (st == NW_OK && functional) {
    x = malloc(conf.n * point);
    st = x ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      gm_fill_points(x, conf.n, conf.clusters, conf.dims, a->seed);
      gm_initial_params(x, conf.clusters, conf.dims, params);
      st = nw_space_write(points, 0, x, conf.n * point);
    }
  }
  if (st == NW_OK)
    st = nw_space_write(params_space, 0, params, conf.clusters * row);
  /* As C-means places its points: each subtask's block on a node drawn from the seed (the
   * paper's inputs start spread over the nodes), or with `--placement local` each node its own
   * slice (the PRS paper's SPMD nodes); the parameters, rewritten every iteration, start on
   * node 0. */
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_place_ranges(rt, points, conf.n / conf.block, conf.block * point, a->seed,
                             a->placement);
  if (st == NW_OK)
    st = run(rt, &conf, p.iterations, points, params_space, params);
  if (st == NW_OK && functional && a->verify != 0) {
    int equal = 0;
    st = check_final(&conf, x, p.iterations, params, &equal);
    out->verified = equal;
  }
  nw_space_destroy(points);
  nw_space_destroy(params_space);
  free(x);
  free(params);
  return st;
}

const nw_app nw_gmm_app = {
    .name = "gmm",
    .kinds = (const nw_task_kind *const[]){&nw_gmm_kind, NULL},
    .check_args = gm_check,
    .main = gm_main,
};
