/* test_policies.c: the StarPU policies (sched/eager.c, random.c, ws.c) decide as they should, on
 * scripted clusters of the loop backend, and their results stay exact.
 *
 * - ws and lws steal from their own node first, without a message: on 2 nodes of 3 devices,
 *   node 0's device 1 runs dry while its node-mates still have queued subtasks and its first
 *   stolen subtask comes from one of them before node 0 sends any steal request;
 * - ws visits its node's devices in index order after itself (device 2 first), lws the most
 *   loaded one (device 0, much slower, has more queued): the first stolen subtask's origin
 *   (subtask s is pushed to device s mod D) tells which;
 * - random gives a device described as a GPU (weight 13.33) far more subtasks than each CPU
 *   (weight 1), and the same seed gives the same assignment, another seed another one.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "loop_backend.h"
#include "matmul/matmul.h"
#include "node_internal.h"
#include "stencil_app.h"

#define MAX_SUBTASKS 1024

/* What the scripted callbacks saw: the device of each subtask's launch (-1: none yet), in
 * the order of events. */
typedef struct script {
  int nodes, devices;
  int by[MAX_SUBTASKS];     /* cluster device that launched subtask s */
  long at[MAX_SUBTASKS];    /* event number of that launch */
  long first_request_node0; /* event number of node 0's first steal request (-1: none) */
  long events;
  double delay[2][3]; /* [node][device]: seconds added to each exec */
} script;

static double exec_delay(void *ctx, int node, const nw_exec *e) {
  script *s = ctx;
  if (e->subtask < MAX_SUBTASKS && s->by[e->subtask] < 0) {
    s->by[e->subtask] = node * s->devices + e->device;
    s->at[e->subtask] = s->events;
  }
  s->events++;
  return node < 2 && e->device < 3 ? s->delay[node][e->device] : 0.0;
}

/* MSG_POLICY: type byte, task id, then the policy's subtype; ws's request is subtype 1. */
static double message_delay(void *ctx, int src, int dst, nw_channel ch, const void *buf,
                            size_t len) {
  script *s = ctx;
  const unsigned char *b = buf;
  (void)dst, (void)ch;
  if (src == 0 && len > 9 && b[0] == MSG_POLICY && b[9] == 1 && s->first_request_node0 < 0)
    s->first_request_node0 = s->events;
  s->events++;
  return 0.0;
}

static void script_reset(script *s, int nodes, int devices) {
  memset(s, 0, sizeof *s);
  s->nodes = nodes;
  s->devices = devices;
  s->first_request_node0 = -1;
  for (int i = 0; i < MAX_SUBTASKS; i++)
    s->by[i] = -1;
}

static void use_script(loop_config *c, script *s, const char *policy) {
  c->exec_delay = exec_delay;
  c->message_delay = message_delay;
  c->script = s;
  snprintf(c->sched.policy, sizeof c->sched.policy, "%s", policy);
}

/* Node 0: device 0 is slow (100 ms a subtask), device 1 quick, device 2 in between; node 1's
 * devices take 1 ms. When device 1 runs dry, device 0 has far more queued than device 2. */
static void local_first(const char *policy, int expect_origin) {
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 2;
  c.devices = 3;
  script s;
  script_reset(&s, 2, 3);
  s.delay[0][0] = 0.1, s.delay[0][1] = 0.0005, s.delay[0][2] = 0.001;
  s.delay[1][0] = s.delay[1][1] = s.delay[1][2] = 0.001;
  use_script(&c, &s, policy);
  nw_app_args mm = {.n = 192, .block = 16, .seed = 5, .verify = 1, .spread = 1};
  nw_run_result res;
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.subtasks == 144);
  /* Device 1's first stolen subtask: the earliest it launched that was pushed elsewhere. */
  int first = -1;
  for (int i = 0; i < 144; i++)
    if (s.by[i] == 1 && i % 6 != 1 && (first < 0 || s.at[i] < s.at[first]))
      first = i;
  CHECK(first >= 0);
  CHECK(first % 6 == expect_origin);
  CHECK(s.first_request_node0 < 0 || s.at[first] < s.first_request_node0);
  CHECK(res.devices[1].node == 0);
  CHECK(res.devices[1].s.steals_local_succeeded >= 1);
  CHECK(res.total.steals_succeeded >= res.total.steals_local_succeeded);
  CHECK(res.total.steals_attempted >= res.total.steals_succeeded);
  printf("%s: device 1's first steal from device %d; %llu of %llu steals succeeded (%llu local)\n",
         policy, first % 6, (unsigned long long)res.total.steals_succeeded,
         (unsigned long long)res.total.steals_attempted,
         (unsigned long long)res.total.steals_local_succeeded);
  nw_run_result_free(&res);
}

/* 2 nodes of 2 devices, node 1's device 0 described as a GPU: its weight is 13.33 of 16.33. */
static void random_run(uint64_t seed, script *s, uint64_t count[4], uint64_t *bytes) {
  static const nw_device_desc cluster[4] = {{.kind = NW_DEVICE_CPU, .cores = 1, .flops = 0},
                                            {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 0},
                                            {.kind = NW_DEVICE_GPU, .cores = 0, .flops = 0},
                                            {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 0}};
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 2;
  c.devices = 2;
  c.seed = seed;
  c.cluster = cluster;
  script_reset(s, 2, 2);
  use_script(&c, s, "random");
  nw_app_args mm = {.n = 256, .block = 8, .seed = 5, .verify = 1, .spread = 1};
  nw_run_result res;
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.subtasks == 1024);
  CHECK(res.ndevices == 4);
  CHECK(res.total.steals_attempted == 0); /* w-rand never steals */
  for (int g = 0; g < 4; g++)
    count[g] = res.devices[g].s.subtasks;
  *bytes = res.total.bytes_network;
  nw_run_result_free(&res);
}

static void random_weighted(void) {
  static script a, b;
  uint64_t ca[4], cb[4], bytes;
  random_run(11, &a, ca, &bytes);
  printf("random: subtasks per device %llu %llu %llu(GPU) %llu\n", (unsigned long long)ca[0],
         (unsigned long long)ca[1], (unsigned long long)ca[2], (unsigned long long)ca[3]);
  CHECK(ca[0] + ca[1] + ca[2] + ca[3] == 1024);
  for (int g = 0; g < 4; g++)
    CHECK(g == 2 || ca[2] > 5 * ca[g]); /* expected 13.33 : 1 */
  CHECK(bytes >= 2 * 1024);             /* node 0's assignment to node 1, a u16 per subtask */
  random_run(11, &b, cb, &bytes);
  CHECK(memcmp(a.by, b.by, sizeof a.by) == 0);
  random_run(12, &b, cb, &bytes);
  CHECK(memcmp(a.by, b.by, sizeof a.by) != 0);
}

/* roofline (PRS's static split) on 2 nodes of 2 devices described with speeds: node 0 a 1
 * GFlop/s CPU and a 9 GFlop/s GPU, node 1 two 1 GFlop/s CPUs. matmul's kind has no bytes model,
 * so it is compute-bound: the nodes get 10 : 2 of the 1024 subtasks (853, 171), node 0 p =
 * 1 / 10 to its CPU (85) and the rest to its GPU (768), node 1 its share by rounding (86, 85). A
 * fixed p
 * (--roofline-p 0.5) splits node 0's share evenly and leaves node 1, which has no GPU, alone.
 * Nothing is stolen, and the result is the reference's. */
static void roofline_split(int fixed, const uint64_t expect[4]) {
  static const nw_device_desc cluster[4] = {{.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
                                            {.kind = NW_DEVICE_GPU, .cores = 0, .flops = 9e9},
                                            {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9},
                                            {.kind = NW_DEVICE_CPU, .cores = 1, .flops = 1e9}};
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 2;
  c.devices = 2;
  c.cluster = cluster;
  static script s;
  script_reset(&s, 2, 2);
  use_script(&c, &s, "roofline");
  c.sched.roofline_fixed = fixed;
  c.sched.roofline_p = 0.5;
  nw_app_args mm = {.n = 256, .block = 8, .seed = 5, .verify = 1, .spread = 1};
  nw_run_result res;
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1 && res.subtasks == 1024 && res.ndevices == 4);
  CHECK(res.total.steals_attempted == 0);
  for (int g = 0; g < 4; g++)
    CHECK(res.devices[g].s.subtasks == expect[g]);
  CHECK(res.total.roofline_p == (fixed ? 0.5 : 0.1) && res.total.roofline_range == 3);
  CHECK(res.total.roofline_cpu_subtasks == expect[0] + expect[2] + expect[3]);
  nw_run_result_free(&res);
}

/* eager hands subtasks out in FIFO order: one device launches them in id order, and on two
 * nodes of two devices every device's subtasks come in increasing ids (each request gets the
 * queue's head), all 144 of them exactly once. */
static void eager_fifo(int nodes, int devices) {
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = nodes;
  c.devices = devices;
  static script s;
  script_reset(&s, nodes, devices);
  use_script(&c, &s, "eager");
  nw_app_args mm = {.n = 192, .block = 16, .seed = 5, .verify = 1, .spread = 1};
  nw_run_result res;
  CHECK(loop_run(&c, &nw_matmul_app, &mm, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(res.subtasks == 144);
  int in_order = 1;
  for (int i = 0; i < 144; i++) {
    CHECK(s.by[i] >= 0);
    for (int j = i + 1; j < 144; j++)
      if (s.by[j] == s.by[i] && s.at[j] < s.at[i])
        in_order = 0;
  }
  CHECK(in_order);
  if (nodes * devices == 1)
    for (int i = 1; i < 144; i++)
      CHECK(s.at[i] > s.at[i - 1]);
  printf("eager on %d x %d devices: each device's subtasks in FIFO order\n", nodes, devices);
  nw_run_result_free(&res);
}

/* The launches of one device, in order: (task, subtask). */
typedef struct launches {
  uint64_t task[256], subtask[256];
  int n;
} launches;

static double record_launch(void *ctx, int node, const nw_exec *e) {
  launches *l = ctx;
  (void)node;
  if (l->n < 256) {
    l->task[l->n] = e->task->id;
    l->subtask[l->n++] = e->subtask;
  }
  return 0.0;
}

/* prio respects priorities: on one device, each smooth step of the stencil app (rows with
 * priority i % 3) runs its rows 2, 5, 8, ... first, then 1, 4, ..., then 0, 3, ...; eager
 * runs them in id order. The results stay exact. */
static void prio_order(const char *policy, int by_priority) {
  loop_config c;
  loop_config_defaults(&c);
  c.nodes = 1;
  c.devices = 1;
  static launches l;
  memset(&l, 0, sizeof l);
  c.exec_delay = record_launch;
  c.script = &l;
  snprintf(c.sched.policy, sizeof c.sched.policy, "%s", policy);
  nw_app_args args = {.n = 0, .block = 0, .seed = 1, .verify = 1, .spread = 0};
  nw_run_result res;
  CHECK(loop_run(&c, &nw_test_stencil_app, &args, &res) == NW_OK);
  CHECK(res.verified == 1);
  CHECK(l.n == STENCIL_ROWS * (1 + STENCIL_STEPS));
  int in_order = 1;
  for (int i = 1; i < l.n; i++) {
    if (l.task[i] != l.task[i - 1] || l.task[i] == 1) /* a new task, or init (no priority) */
      continue;
    uint64_t a = l.subtask[i - 1], b = l.subtask[i];
    int pa = by_priority ? (int)(a % 3) : 0, pb = by_priority ? (int)(b % 3) : 0;
    if (pa < pb || (pa == pb && a > b))
      in_order = 0;
  }
  CHECK(in_order);
  printf("%s: every smooth step's rows in %s order\n", policy, by_priority ? "priority" : "id");
  nw_run_result_free(&res);
}

int main(void) {
  prio_order("prio", 1);
  prio_order("eager", 0);
  eager_fifo(1, 1);
  eager_fifo(2, 2);
  local_first("ws", 2);
  local_first("lws", 0);
  random_weighted();
  roofline_split(0, (const uint64_t[4]){85, 768, 86, 85});
  roofline_split(1, (const uint64_t[4]){427, 426, 86, 85});
  return check_report("policies");
}
