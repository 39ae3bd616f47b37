/* roofline.c: the PRS paper's static CPU/GPU split as a policy (--sched roofline).
 *
 * Li, Fox, von Laszewski, Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster"
 * (IEEE Cluster 2013), section III.B.3: "The task scheduler on master node can use Equation (8)
 * in order to split the input data among homogeneous or inhomogeneous fat nodes in cluster. The
 * sub-task scheduler on the worker node can also use Equation (8) to split the data partition
 * between the CPU and GPU." So, for each task:
 *
 * 1. The kind's arithmetic intensity: its cost model's flops over its bytes, summed over the
 *    task's subtasks, for a CPU (A_c) and for a GPU (A_g). A kind without a bytes model is
 *    taken as compute-bound.
 * 2. Each node's CPU and GPU rates at that intensity, equations (6) and (7)
 *    (roofline_model.h): peaks from the devices' nominal speeds (the simulator's platform),
 *    B_dram from the node configuration (the platform's dram_bw), B_pcie from the host<->GPU
 *    link. The nodes get contiguous ranges of subtask ids in proportion to their rate
 *    F_c + F_g; then each node's range goes p = F_c / (F_c + F_g) to its CPU devices (equation
 *    5, i.e. 8), in proportion to their cores, and the rest to its GPU streams, equally.
 *    --roofline-p replaces p, for the sweeps that find the best p by measurement.
 * 3. Nothing moves afterwards: a device that runs dry retires (the paper's static scheme; it
 *    also has a dynamic one, which is what unicorn and eager are).
 *
 * Across tasks the split is of the pool of ready subtasks, not of each task alone: node 0
 * carries, per device, how far the subtasks it was dealt so far fall short of (or beyond) its
 * share (a credit), and the next task's boundaries round the shares plus the credits, so that
 * many small tasks (one subtask each, say) spread over the devices in proportion to their
 * rates instead of all landing where one task's rounding puts them. Each device runs the oldest
 * ready subtask of its share first (its queue is in task order). The credits start from zero
 * whenever no task is running, so a task that runs alone is split exactly as by itself.
 *
 * Where the backend does not know the devices' speeds (the real backend: nw_device_desc.flops
 * 0), the rates are StarPU's relative speed-ups, 1 per CPU core and 13.33 per GPU (as random.c
 * weighs devices), without the bandwidth terms; the run's JSON says which ("roofline":
 * "range" 0). Calibrated rates on hardware are issue work not done yet (README).
 *
 * Node 0 decides and sends every other node the boundaries of every device's range, since
 * only node 0's configuration is sure to be the run's (the real backend measures the PCIe link
 * per rank). The message (MSG_POLICY): task id, subtype, device count G, then G + 1 u64
 * boundaries: device g of the cluster runs [b[g], b[g + 1]).
 */
#include <stdlib.h>

#include "policy.h"
#include "roofline_model.h"

#define ROOFLINE_ASSIGN 1 /* the subtype of the assignment message */

static int cores_of(nw_device_desc dd) {
  return dd.cores > 1 ? dd.cores : 1;
}

/* The task's flops per byte on a device kind (0: no bytes model, compute-bound). */
static double intensity(const nw_task_state *t, nw_device_kind kind) {
  if (!t->kind->flops || !t->kind->bytes)
    return 0.0;
  double flops = 0, bytes = 0;
  for (uint64_t s = 0; s < t->info.subtasks; s++) {
    flops += t->kind->flops(&t->info, s, kind);
    bytes += t->kind->bytes(&t->info, s, kind);
  }
  return bytes > 0 ? flops / bytes : 0.0;
}

/* Node k's machine for equations (6)-(8): its CPU devices' speeds summed, and its GPUs' (each
 * GPU once, however many streams list it, with their memories' bandwidth); B_pcie the link's
 * times the GPUs, since each GPU has its own (platforms/README.md). Without the devices' speeds
 * (`known` 0): StarPU's relative speed-ups, and no bandwidths. */
static nw_roofline_machine machine_of(const nw_node *n, int k, int known) {
  nw_roofline_machine m = {0,
                           0,
                           known ? n->cfg.dram_bandwidth : 0,
                           known ? n->cfg.pcie_bandwidth : 0,
                           n->cfg.sched.roofline_resident,
                           0};
  int g0 = nw_cluster_first_device(n, k), seen[NW_MAX_GPUS_PER_NODE] = {0}, gpus = 0;
  for (int g = g0; g < g0 + n->cfg.devices_per_node[k]; g++) {
    nw_device_desc dd = nw_cluster_device(n, g);
    double speed = known ? dd.flops : nw_relative_speedup(dd.kind, dd.cores);
    if (dd.kind == NW_DEVICE_CPU)
      m.cpu_peak += speed;
    else if (dd.gpu < 0 || dd.gpu >= NW_MAX_GPUS_PER_NODE || !seen[dd.gpu]) {
      m.gpu_peak += speed;
      m.gpu_mem_bw += known ? dd.mem_bw : 0;
      gpus++;
      if (dd.gpu >= 0 && dd.gpu < NW_MAX_GPUS_PER_NODE)
        seen[dd.gpu] = 1;
    }
  }
  m.pcie_bw *= gpus;
  return m;
}

/* Each device's weight: its node's share of the cluster's rate, times its share of its
 * node's (p over the CPU devices by cores, 1 - p over the GPU streams equally). Node 0's split
 * goes into its statistics. */
static void device_weights(nw_node *n, nw_task_state *t, double *w) {
  double a_cpu = intensity(t, NW_DEVICE_CPU), a_gpu = intensity(t, NW_DEVICE_GPU);
  int known = 1;
  for (int g = 0; g < nw_cluster_devices(n); g++)
    known &= nw_cluster_device(n, g).flops > 0;
  for (int k = 0; k < n->cfg.nodes; k++) {
    nw_roofline_machine m = machine_of(n, k, known);
    nw_roofline_split s = nw_roofline_split_work(&m, known ? a_cpu : 0, known ? a_gpu : 0);
    if (!known)
      s.range = 0; /* no machine model: the speed-ups' ratio */
    double rate = s.cpu_rate + s.gpu_rate, p = s.p;
    int g0 = nw_cluster_first_device(n, k), cores = 0, streams = 0;
    for (int g = g0; g < g0 + n->cfg.devices_per_node[k]; g++) {
      nw_device_desc dd = nw_cluster_device(n, g);
      cores += dd.kind == NW_DEVICE_CPU ? cores_of(dd) : 0;
      streams += dd.kind == NW_DEVICE_GPU;
    }
    if (n->cfg.sched.roofline_fixed && cores && streams)
      p = n->cfg.sched.roofline_p; /* only where both kinds are there to share */
    for (int g = g0; g < g0 + n->cfg.devices_per_node[k]; g++) {
      nw_device_desc dd = nw_cluster_device(n, g);
      w[g] = rate * (dd.kind == NW_DEVICE_CPU ? p * cores_of(dd) / cores : (1 - p) / streams);
    }
    if (k == 0) {
      n->stats.roofline_p = p;
      n->stats.roofline_range = s.range;
      n->stats.roofline_intensity = a_cpu;
      n->stats.roofline_ridge_cpu = s.ridge_cpu;
      n->stats.roofline_ridge_gpu = s.ridge_gpu;
      n->stats.roofline_overlap = s.overlap;
    }
  }
}

/* b[g]: where device g's range starts; b[total]: the task's subtask count. Device g's share is
 * its weight's, plus its credit (what earlier tasks of the pool gave it too few), rounded along
 * the cumulative sum; the credits then take what the rounding left over. */
static void boundaries(uint64_t subtasks, const double *w, int total, double *credit, uint64_t *b) {
  double sum = 0, at = 0, carried = 0, before = 0;
  for (int g = 0; g < total; g++)
    sum += w[g] > 0 ? w[g] : 0;
  b[0] = 0;
  for (int g = 0; g < total; g++) {
    at += w[g] > 0 ? w[g] : 0;
    double ideal = sum > 0 ? (double)subtasks * (at / sum) : (double)subtasks * (g + 1) / total;
    carried += credit[g];
    double end = ideal + carried;
    uint64_t e = g + 1 == total             ? subtasks
                 : end + 0.5 < (double)b[g] ? b[g]
                                            : (uint64_t)(end + 0.5);
    b[g + 1] = e < b[g] ? b[g] : e > subtasks ? subtasks : e;
    credit[g] += (ideal - before) - (double)(b[g + 1] - b[g]);
    before = ideal;
  }
}

/* Node 0's pool: the credits of the cluster's devices, and how many dealt tasks still run. */
typedef struct roofline_pool {
  double *credit;
  int total;
  uint64_t running;
} roofline_pool;

static nw_status init(nw_node *n) {
  roofline_pool *p = calloc(1, sizeof *p);
  if (p && n->cfg.id == 0) {
    p->total = nw_cluster_devices(n);
    if (!(p->credit = calloc((size_t)p->total, sizeof *p->credit))) {
      free(p);
      p = NULL;
    }
  }
  n->sched = p;
  return p ? NW_OK : NW_ERR_NOMEM;
}

static void fini(nw_node *n) {
  roofline_pool *p = n->sched;
  if (p)
    free(p->credit);
  free(p);
  n->sched = NULL;
}

static void forget(nw_node *n, nw_task_state *t) {
  roofline_pool *p = n->sched;
  if (n->cfg.id == 0 && t->policy_state == p && p->running > 0) /* dealt here: counted */
    p->running--;
}

/* Deals this node's ranges and starts its devices. */
static void deal_and_go(nw_node *n, nw_task_state *t, const uint64_t *b) {
  int first = nw_cluster_first_device(n, n->cfg.id);
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_range r = {b[first + d], b[first + d + 1]};
    t->dev[d].range_len = r.last - r.first;
    if (nw_queue_push(n, d, t, r) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  nw_pipeline_go(n, t);
}

static void send_assignment(nw_node *n, nw_task_state *t, int dst, const uint64_t *b, int total) {
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, t->id);
  nw_w_u8(&w, ROOFLINE_ASSIGN);
  nw_w_u32(&w, (uint32_t)total);
  for (int g = 0; g <= total; g++)
    nw_w_u64(&w, b[g]);
  if (!w.oom)
    n->stats.bytes_network += w.len;
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

static void task_start(nw_node *n, nw_task_state *t) {
  if (n->cfg.id != 0)
    return; /* waits for node 0's boundaries (on_message) */
  int total = nw_cluster_devices(n);
  double *w = malloc((size_t)total * sizeof *w);
  uint64_t *b = malloc((size_t)(total + 1) * sizeof *b);
  if (!w || !b || total < 1) {
    free(w);
    free(b);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  roofline_pool *p = n->sched;
  if (p->running == 0) /* the pool was empty: nothing is owed */
    for (int g = 0; g < total; g++)
      p->credit[g] = 0;
  p->running++;
  t->policy_state = p; /* marks it counted (not owned: no policy_state_free) */
  device_weights(n, t, w);
  boundaries(t->info.subtasks, w, total, p->credit, b);
  for (int g = 0; g < total; g++)
    if (nw_cluster_device(n, g).kind == NW_DEVICE_CPU)
      n->stats.roofline_cpu_subtasks += b[g + 1] - b[g];
  for (int k = 1; k < n->cfg.nodes; k++)
    send_assignment(n, t, k, b, total);
  deal_and_go(n, t, b);
  free(w);
  free(b);
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint8_t sub = nw_r_u8(r);
  uint32_t total = nw_r_u32(r);
  if (r->bad || type != MSG_POLICY || sub != ROOFLINE_ASSIGN || src != 0 ||
      (int)total != nw_cluster_devices(n) || (r->len - r->pos) / 8 < (size_t)total + 1) {
    r->bad = 1;
    return;
  }
  uint64_t *b = malloc(((size_t)total + 1) * sizeof *b);
  if (!b) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  for (uint32_t g = 0; g <= total; g++)
    b[g] = nw_r_u64(r);
  nw_task_state *t = nw_node_task(n, task);
  int ordered = b[0] == 0;
  for (uint32_t g = 0; g < total; g++)
    ordered &= b[g] <= b[g + 1];
  if (!ordered || (t && b[total] != t->info.subtasks))
    r->bad = 1;
  else if (t && !t->finishing)
    deal_and_go(n, t, b);
  free(b);
}

const nw_policy nw_policy_roofline = {
    .name = "roofline",
    .summary = "PRS's static split: each node's subtasks p to CPUs by equation (8), no stealing",
    .init = init,
    .fini = fini,
    .task_start = task_start,
    .dry = nw_pipeline_retire,
    .task_forget = forget,
    .on_message = on_message,
};
