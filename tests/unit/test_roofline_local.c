/* test_roofline_local.c: the roofline split follows the data where it starts on its nodes
 * (sched/roofline.c with --locality on; apps' --placement local), on the loop backend.
 *
 * C-means, 40 subtasks of 100 points, 3 iterations, on 4 nodes of 2 devices described with
 * speeds: node 0 a 1 GFlop/s CPU and a 9 GFlop/s GPU, nodes 1 to 3 two 1 GFlop/s CPUs. The
 * kind is compute-bound here (no bandwidths), so the rates are 10 : 2 : 2 : 2 and node 0's
 * p = 0.1. `--placement local` gives each node 10 subtasks' points (node k: subtasks 10k to
 * 10k + 9).
 * - Following the data, each node runs exactly its own 10 subtasks every iteration: node 0's
 *   split 1 : 9 between its CPU and its GPU, the others' 5 : 5; no point crosses the network:
 *   the bytes fetched are the centres nodes 1 to 3 read and the sums the driver reads, each
 *   iteration, nothing else. The result is the reference's.
 * - Without --locality the split is the rates' as before (25 subtasks to node 0: 3 and 22,
 *   then 5 per node, 3 and 2 each): at least the points of 15 subtasks cross to node 0.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cmeans/cmeans.h"
#include "loop_backend.h"
#include "node_internal.h"

enum { NODES = 4, DEVICES = 2, SUBTASKS = 40, BLOCK = 100, DIMS = 8, CLUSTERS = 4, ITER = 3 };

/* The node that first launched each subtask, -1 none yet; `elsewhere`: launches of a subtask
 * on another node than its first (a later iteration dealt it elsewhere). */
typedef struct script {
  int node[SUBTASKS];
  int elsewhere;
} script;

static double exec_delay(void *ctx, int node, const nw_exec *e) {
  script *s = ctx;
  if (e->subtask < SUBTASKS) {
    if (s->node[e->subtask] < 0)
      s->node[e->subtask] = node;
    s->elsewhere += s->node[e->subtask] != node;
  }
  return 0.0;
}

static void run(int locality, const uint64_t expect[NODES * DEVICES], uint64_t *fetched) {
  static const nw_device_desc cluster[NODES * DEVICES] = {
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_GPU, .flops = 9e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
      {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9}};
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = NODES;
  c.devices = DEVICES;
  c.cluster = cluster;
  static script s;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < SUBTASKS; i++)
    s.node[i] = -1;
  c.exec_delay = exec_delay;
  c.script = &s;
  snprintf(c.sched.policy, sizeof c.sched.policy, "roofline");
  c.sched.locality = locality;
  nw_app_args a = {.n = SUBTASKS * BLOCK,
                   .block = BLOCK,
                   .seed = 3,
                   .verify = 1,
                   .spread = 1,
                   .placement = NW_PLACEMENT_LOCAL};
  CHECK(nw_app_param_set(&a, "dims", "8") == 0 && nw_app_param_set(&a, "clusters", "4") == 0 &&
        nw_app_param_set(&a, "iterations", "3") == 0);
  nw_run_result res;
  CHECK(loop_run(&c, &nw_cmeans_app, &a, &res) == NW_OK);
  if (res.error[0])
    printf("error: %s\n", res.error);
  CHECK(res.verified == 1 && res.ndevices == NODES * DEVICES);
  CHECK(res.total.steals_attempted == 0);
  printf("roofline, locality %s: subtasks per device", locality ? "on" : "off");
  for (int g = 0; g < NODES * DEVICES; g++) {
    printf(" %llu", (unsigned long long)res.devices[g].s.subtasks);
    CHECK(res.devices[g].s.subtasks == ITER * expect[g]);
  }
  printf("; %llu bytes fetched\n", (unsigned long long)res.total.bytes_received);
  CHECK(s.elsewhere == 0); /* a static split: every iteration the same node per subtask */
  if (locality)
    for (int i = 0; i < SUBTASKS; i++)
      CHECK(s.node[i] == i / (SUBTASKS / NODES)); /* where --placement local put its points */
  *fetched = res.total.bytes_received;
  nw_run_result_free(&res);
}

int main(void) {
  uint64_t on = 0, off = 0;
  run(1, (const uint64_t[NODES * DEVICES]){1, 9, 5, 5, 5, 5, 5, 5}, &on);
  /* No point travels: each iteration, the centres (CLUSTERS x DIMS floats) to each of nodes 1
   * to 3, and the sums (CLUSTERS x (DIMS + 1) 64-bit integers) to the driver. */
  CHECK(on == (uint64_t)ITER * ((NODES - 1) * CLUSTERS * DIMS * sizeof(float) +
                                CLUSTERS * (DIMS + 1) * sizeof(int64_t)));
  run(0, (const uint64_t[NODES * DEVICES]){3, 22, 3, 2, 3, 2, 3, 2}, &off);
  /* The rates' split moves the points of 15 subtasks to node 0 (read-only: fetched once). */
  CHECK(off >= on + 15ull * BLOCK * DIMS * sizeof(float));
  return check_report("roofline_local");
}
