/* random.c: StarPU's w-rand as a policy (--sched random).
 *
 * "StarPU: a Runtime System for Scheduling Tasks over Accelerator-Based Multicore Machines"
 * (Augonnet, Thibault, Namyst; INRIA research report RR-7240), section 5: w-rand
 * dispatches each task to a processing unit drawn with a probability proportional to its
 * computational power. Here every subtask of a task is ready at its start, so node 0 draws the
 * device of every subtask at once (n->be.ops->random: reproducible from the run's seed), keeps
 * its own share and sends every other node one message with the device of each subtask. Each
 * node appends its subtasks to its devices' queues (behind what other tasks queued there) in id
 * order and starts them. Nothing moves afterwards: a device that runs dry waits for the next
 * task's draws (w-rand never steals).
 *
 * A device's weight is its nominal flop/s when the backend knows it for every device of the
 * cluster (nw_node_config.cluster; the simulator does), otherwise StarPU's fixed relative
 * speed-ups per architecture: 1 per CPU core, 13.33 per GPU (StarPU 1.x's
 * starpu_worker_get_relative_speedup defaults, _STARPU_CPU_ALPHA and _STARPU_CUDA_ALPHA).
 *
 * The assignment message (MSG_POLICY): task id, subtype, subtask count, then one u16 device
 * index per subtask. u16 always suffices: the cluster has at most NW_MAX_NODES *
 * NW_MAX_DEVICES_PER_NODE = 65536 devices. It goes on the data channel with its real size and
 * counts in bytes_network, as locality_sched.c's messages do: the policy's own cost shows.
 */
#include <stdlib.h>

#include "policy.h"

#define RANDOM_ASSIGN 1 /* the subtype of the assignment message */
/* Cumulative weights of the cluster's devices: cum[g] = weight of devices 0..g. */
static void cumulative_weights(const nw_node *n, int total, double *cum) {
  int all_flops = 1;
  for (int g = 0; g < total; g++)
    all_flops &= nw_cluster_device(n, g).flops > 0;
  double sum = 0;
  for (int g = 0; g < total; g++) {
    nw_device_desc dd = nw_cluster_device(n, g);
    sum += all_flops ? dd.flops : nw_relative_speedup(dd.kind, dd.cores);
    cum[g] = sum;
  }
}

/* A device drawn with probability proportional to its weight. */
static int draw(nw_node *n, const double *cum, int total) {
  double u = (double)(n->be.ops->random(n->be.be) >> 11) * 0x1.0p-53 * cum[total - 1];
  int lo = 0, hi = total - 1;
  while (lo < hi) { /* the first g with u < cum[g] */
    int mid = lo + (hi - lo) / 2;
    if (u < cum[mid])
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* Deals this node's subtasks (device[s]: cluster device of subtask s) and starts its devices. */
static void deal_and_go(nw_node *n, nw_task_state *t, const uint16_t *device) {
  int first = nw_cluster_first_device(n, n->cfg.id);
  for (uint64_t s = 0; s < t->info.subtasks; s++) {
    int d = (int)device[s] - first;
    if (d < 0 || d >= n->cfg.devices)
      continue;
    t->dev[d].range_len++;
    if (nw_queue_push_one(n, d, t, s) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  nw_pipeline_go(n, t);
}

static void send_assignment(nw_node *n, nw_task_state *t, int dst, const uint16_t *device) {
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, t->id);
  nw_w_u8(&w, RANDOM_ASSIGN);
  nw_w_u64(&w, t->info.subtasks);
  unsigned char *p = nw_w_reserve(&w, 2 * (size_t)t->info.subtasks);
  for (uint64_t s = 0; p && s < t->info.subtasks; s++) {
    p[2 * s] = (unsigned char)(device[s] & 0xff);
    p[2 * s + 1] = (unsigned char)(device[s] >> 8);
  }
  if (!w.oom)
    n->stats.bytes_network += w.len;
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

static void task_start(nw_node *n, nw_task_state *t) {
  if (n->cfg.id != 0)
    return; /* waits for node 0's assignment (on_message) */
  int total = nw_cluster_devices(n);
  double *cum = malloc((size_t)total * sizeof *cum);
  uint16_t *device = malloc((t->info.subtasks ? t->info.subtasks : 1) * sizeof *device);
  if (!cum || !device || total < 1) {
    free(cum);
    free(device);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  cumulative_weights(n, total, cum);
  for (uint64_t s = 0; s < t->info.subtasks; s++)
    device[s] = (uint16_t)draw(n, cum, total);
  for (int k = 1; k < n->cfg.nodes; k++)
    send_assignment(n, t, k, device);
  deal_and_go(n, t, device);
  free(cum);
  free(device);
}

static void on_assignment(nw_node *n, nw_reader *r, uint64_t task) {
  uint64_t subtasks = nw_r_u64(r);
  if (r->bad || subtasks > (r->len - r->pos) / 2) {
    r->bad = 1;
    return;
  }
  const unsigned char *p = nw_r_bytes(r, 2 * (size_t)subtasks);
  nw_task_state *t = nw_node_task(n, task);
  if (!p || !t || t->finishing)
    return; /* a finished task: nothing left to deal */
  if (subtasks != t->info.subtasks) {
    r->bad = 1;
    return;
  }
  uint16_t *device = malloc((subtasks ? subtasks : 1) * sizeof *device);
  if (!device) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  int total = nw_cluster_devices(n);
  for (uint64_t s = 0; s < subtasks; s++) {
    device[s] = (uint16_t)(p[2 * s] | p[2 * s + 1] << 8);
    if (device[s] >= total) {
      free(device);
      r->bad = 1;
      return;
    }
  }
  deal_and_go(n, t, device);
  free(device);
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint8_t sub = nw_r_u8(r);
  if (r->bad || type != MSG_POLICY || sub != RANDOM_ASSIGN || src != 0) {
    r->bad = 1;
    return;
  }
  on_assignment(n, r, task);
}

const nw_policy nw_policy_random = {
    .name = "random",
    .summary = "StarPU's w-rand: each subtask to a device drawn in proportion to its speed",
    .task_start = task_start,
    .dry = nw_pipeline_retire,
    .on_message = on_message,
};
