/* cmeans_main.c: the cmeans application's parameters, driver and check (see cmeans.h).
 *
 * The driver writes the points and the initial centres (the first M points), then per
 * iteration runs one MapReduce task, waits for it, reads the sums and writes the new centres
 * (cmeans_data.h), which the next task reads. In functional mode it compares the final centres
 * with the serial reference bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/place.h"
#include "../common/run_task.h"
#include "cmeans.h"
#include "cmeans_data.h"
#include "cmeans_math.h"
#include "cmeans_ref.h"

#define F ((uint64_t)sizeof(float))

typedef struct cm_params {
  uint64_t clusters, dims, iterations;
} cm_params;

/* Reads the --app-param keys; 0, or -1 with a one-line reason. */
static int cm_read_params(const nw_app_args *a, cm_params *p, char *why, size_t len) {
  if (nw_app_param_keys(a, "cmeans", "clusters,dims,iterations", why, len) != 0)
    return -1;
  if (nw_app_param_uint(a, "cmeans", "clusters", 1, CM_CLUSTERS_MAX, CM_CLUSTERS_DEFAULT,
                        &p->clusters, why, len) != 0 ||
      nw_app_param_uint(a, "cmeans", "dims", 1, CM_DIMS_MAX, CM_DIMS_DEFAULT, &p->dims, why, len) !=
          0)
    return -1;
  return nw_app_param_uint(a, "cmeans", "iterations", 1, CM_ITERATIONS_MAX, CM_ITERATIONS_DEFAULT,
                           &p->iterations, why, len);
}

static nw_status cm_check(const nw_app_args *a, char *why, size_t len) {
  cm_params p;
  if (cm_read_params(a, &p, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, "cmeans: --n (points) and --block (points per subtask) must be positive");
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, "cmeans: --block %llu does not divide --n %llu",
             (unsigned long long)a->block, (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > CM_POINTS_MAX) { /* the fixed point's bound (cmeans_math.h) */
    snprintf(why, len,
             "cmeans: --n %llu is more than 2^31 points, where the fixed-point sums "
             "could overflow",
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n < p.clusters) { /* the initial centres are the first points */
    snprintf(why, len, "cmeans: --n %llu is fewer points than the %llu clusters",
             (unsigned long long)a->n, (unsigned long long)p.clusters);
    return NW_ERR_ARG;
  }
  if (a->n / a->block > CM_SUBTASKS_MAX) {
    snprintf(why, len, "cmeans: --n %llu / --block %llu gives %llu subtasks; at most %d",
             (unsigned long long)a->n, (unsigned long long)a->block,
             (unsigned long long)(a->n / a->block), CM_SUBTASKS_MAX);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* One iteration: a MapReduce task over the points and the current centres, leaving the sums
 * in `sums`. Every subtask subscribes every key (NW_MAPREDUCE_KEYS_COVERED: no fill). */
static nw_status iterate(nw_runtime *rt, const cmeans_conf *conf, nw_space *points,
                         nw_space *centres, nw_space *sums) {
  nw_space *inputs[] = {points, centres};
  nw_mapreduce_spec m = {.kind = &nw_cmeans_kind,
                         .subtasks = conf->n / conf->block,
                         .conf = conf,
                         .conf_size = sizeof *conf,
                         .inputs = inputs,
                         .ninputs = 2,
                         .output = sums,
                         .op = CM_OP,
                         .type = CM_TYPE,
                         .flags = NW_MAPREDUCE_KEYS_COVERED};
  return nw_app_run_mapreduce(rt, &m);
}

/* Compares the driver's final centres with the reference run from the initial ones. */
static nw_status check_final(const cmeans_conf *c, const float *x, uint64_t iterations,
                             const float *got, int *equal) {
  uint64_t count = (uint64_t)c->clusters * c->dims;
  float *want = malloc(count * F);
  if (!want)
    return NW_ERR_NOMEM;
  memcpy(want, x, count * F); /* the initial centres: the first points */
  if (cm_reference(c, x, iterations, want) != 0) {
    free(want);
    return NW_ERR_NOMEM;
  }
  uint64_t differ = 0, first = 0;
  for (uint64_t q = 0; q < count; q++)
    if (memcmp(&got[q], &want[q], F) != 0 && differ++ == 0)
      first = q;
  *equal = differ == 0;
  if (differ)
    fprintf(stderr,
            "cmeans: centre %llu coordinate %llu is %.9g, the reference %.9g (%llu of %llu "
            "differ)\n",
            (unsigned long long)(first / c->dims), (unsigned long long)(first % c->dims),
            (double)got[first], (double)want[first], (unsigned long long)differ,
            (unsigned long long)count);
  free(want);
  return NW_OK;
}

/* Runs the iterations, the centres kept in `centres` (the driver's copy) and the space. In
 * phantom mode the sums read are zeros (no bytes move), so the centres stay as they were: the
 * driver's reads and writes still happen, as the model should charge them. */
static nw_status run(nw_runtime *rt, const cmeans_conf *conf, uint64_t iterations, nw_space *points,
                     nw_space *centres_space, float *centres) {
  uint64_t keys = cm_keys(conf), bytes = (uint64_t)conf->clusters * conf->dims * F;
  int64_t *sums = calloc(keys, sizeof *sums);
  nw_space *out = NULL;
  nw_status st =
      sums ? nw_space_create(rt, keys * sizeof *sums, keys * sizeof *sums, &out) : NW_ERR_NOMEM;
  for (uint64_t k = 0; k < iterations && st == NW_OK; k++) {
    st = iterate(rt, conf, points, centres_space, out);
    if (st == NW_OK)
      st = nw_space_read(out, 0, sums, keys * sizeof *sums);
    if (st == NW_OK) {
      cm_update_centres(sums, conf->clusters, conf->dims, centres);
      st = nw_space_write(centres_space, 0, centres, bytes);
    }
  }
  nw_space_destroy(out);
  free(sums);
  return st;
}

static nw_status cm_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  cm_params p;
  if (cm_read_params(a, &p, why, sizeof why))
    return NW_ERR_ARG; /* cm_check has said why */
  cmeans_conf conf = {
      .n = a->n, .block = a->block, .clusters = (uint32_t)p.clusters, .dims = (uint32_t)p.dims};
  uint64_t row = conf.dims * F;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *points = NULL, *centres_space = NULL;
  float *x = NULL, *centres = calloc((size_t)conf.clusters * conf.dims, F);
  nw_status st = centres ? nw_space_create(rt, conf.n * row, row, &points) : NW_ERR_NOMEM;
  if (st == NW_OK)
    st = nw_space_create(rt, conf.clusters * row, row, &centres_space);
  if (st == NW_OK && functional) {
    x = malloc(conf.n * row);
    st = x ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      cm_fill_points(x, conf.n, conf.clusters, conf.dims, a->seed);
      memcpy(centres, x, conf.clusters * row);
      st = nw_space_write(points, 0, x, conf.n * row);
    }
  }
  if (st == NW_OK)
    st = nw_space_write(centres_space, 0, centres, conf.clusters * row);
  /* Each subtask's block of points on a node drawn from the seed (the paper's inputs start
   * spread over the nodes), or with `--placement local` each node its own slice (the PRS
   * paper's SPMD nodes); the centres, rewritten every iteration, start on node 0. */
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_place_ranges(rt, points, conf.n / conf.block, conf.block * row, a->seed,
                             a->placement);
  if (st == NW_OK)
    st = run(rt, &conf, p.iterations, points, centres_space, centres);
  if (st == NW_OK && functional && a->verify != 0) {
    int equal = 0;
    st = check_final(&conf, x, p.iterations, centres, &equal);
    out->verified = equal;
  }
  nw_space_destroy(points);
  nw_space_destroy(centres_space);
  free(x);
  free(centres);
  return st;
}

const nw_app nw_cmeans_app = {
    .name = "cmeans",
    .kinds = (const nw_task_kind *const[]){&nw_cmeans_kind, NULL},
    .check_args = cm_check,
    .main = cm_main,
};
