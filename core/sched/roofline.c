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
 *
 * With --locality on (on more than one node) the split follows the data instead, as the
 * paper's SPMD nodes compute the points they start with (section IV-B's weak scaling; the apps'
 * `--placement local`): node 0 gathers every node's local bytes of every subtask
 * (locality_sched.c) and gives each subtask to the node holding most of its reads, counted
 * above what that node holds of every subtask's (shared inputs; ties: the lower id); a subtask
 * no node holds any of goes where the rate-proportional split puts it.
 * Each node's subtasks, in id order, then go p to its CPUs and the rest to its GPUs as above,
 * the credits carried per device as above. Other nodes get their own runs (subtype
 * ROOFLINE_RUNS: task id, subtype, run count R, then R x (u32 device of the node, u64 first,
 * u64 last)): with data placed in contiguous shares a node's subtasks are one range, so the
 * message stays small. Without --locality the split is the rate-proportional one, whatever
 * the placement.
 */
#include <stdlib.h>

#include "policy.h"
#include "roofline_model.h"

#define ROOFLINE_ASSIGN 1 /* the subtype of the assignment message */
#define ROOFLINE_RUNS 2   /* the subtype of a node's runs, when the split follows the data */

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

/* Node 0: counts task t in the pool, whose credits start from zero when it was empty. */
static void pool_enter(nw_node *n, nw_task_state *t) {
  roofline_pool *p = n->sched;
  if (p->running == 0) /* the pool was empty: nothing is owed */
    for (int g = 0; g < p->total; g++)
      p->credit[g] = 0;
  p->running++;
  t->policy_state = p; /* marks it counted (not owned: no policy_state_free) */
}

static int follows_data(const nw_node *n) {
  return n->cfg.sched.locality && n->cfg.nodes > 1;
}

/* A run of subtasks [first, last) for device `dev` of its node. */
typedef struct roofline_run {
  uint32_t dev;
  uint64_t first, last;
} roofline_run;

/* Queues this node's runs and starts its devices. */
static void push_runs(nw_node *n, nw_task_state *t, const roofline_run *r, size_t count) {
  for (size_t i = 0; i < count; i++) {
    t->dev[r[i].dev].range_len += r[i].last - r[i].first;
    if (nw_queue_push(n, (int)r[i].dev, t, (nw_range){r[i].first, r[i].last}) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  nw_pipeline_go(n, t);
}

/* Node k's subtasks (node_of[s] == k), in id order, dealt over its devices as their weights
 * and credits say (boundaries), as runs of consecutive ids. Returns the run count, or -1 out
 * of memory; counts the subtasks dealt to CPUs. */
static long node_runs(nw_node *n, nw_task_state *t, int k, const uint32_t *node_of, const double *w,
                      roofline_run **out) {
  roofline_pool *p = n->sched;
  uint64_t subtasks = t->info.subtasks, mine = 0;
  int g0 = nw_cluster_first_device(n, k), devs = n->cfg.devices_per_node[k];
  for (uint64_t s = 0; s < subtasks; s++)
    mine += node_of[s] == (uint32_t)k;
  uint64_t *c = malloc(((size_t)devs + 1) * sizeof *c);
  roofline_run *r = malloc((mine ? mine : 1) * sizeof *r);
  if (!c || !r) {
    free(c);
    free(r);
    return -1;
  }
  boundaries(mine, w + g0, devs, p->credit + g0, c);
  for (int d = 0; d < devs; d++)
    if (nw_cluster_device(n, g0 + d).kind == NW_DEVICE_CPU)
      n->stats.roofline_cpu_subtasks += c[d + 1] - c[d];
  long runs = 0;
  uint64_t at = 0;
  int d = 0;
  for (uint64_t s = 0; s < subtasks; s++) {
    if (node_of[s] != (uint32_t)k)
      continue;
    while (at >= c[d + 1])
      d++;
    at++;
    if (runs > 0 && r[runs - 1].dev == (uint32_t)d && r[runs - 1].last == s)
      r[runs - 1].last++;
    else
      r[runs++] = (roofline_run){(uint32_t)d, s, s + 1};
  }
  free(c);
  *out = r;
  return runs;
}

/* Node 0, every node's local bytes in (locality_sched.c): each subtask to the node holding
 * most of its reads beyond what it holds of every subtask's, or where the rates put it when
 * none holds any; then each node's runs. */
static void deal_by_data(nw_node *n, nw_task_state *t) {
  const nw_task_locality *l = t->loc;
  int total = nw_cluster_devices(n), nodes = n->cfg.nodes;
  uint64_t subtasks = t->info.subtasks;
  double *w = malloc((size_t)total * sizeof *w), *rate = calloc(2 * (size_t)nodes, sizeof *rate);
  double *zero = rate ? rate + nodes : NULL; /* no credits: the rates' split of this task alone */
  uint64_t *nb = malloc((2 * (size_t)nodes + 1) * sizeof *nb);
  uint64_t *base = nb ? nb + nodes + 1 : NULL; /* what each node holds of every subtask */
  uint32_t *node_of = malloc((subtasks ? subtasks : 1) * sizeof *node_of);
  if (!w || !rate || !nb || !node_of) {
    free(w);
    free(rate);
    free(nb);
    free(node_of);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  device_weights(n, t, w);
  for (int k = 0; k < nodes; k++)
    for (int g = nw_cluster_first_device(n, k);
         g < nw_cluster_first_device(n, k) + n->cfg.devices_per_node[k]; g++)
      rate[k] += w[g];
  boundaries(subtasks, rate, nodes, zero, nb); /* the rates' split, for subtasks held nowhere */
  /* What a node holds of every subtask's reads (inputs all subtasks share, such as GMM's
   * parameters on node 0) it holds wherever the subtasks go, and each node running any
   * subtask fetches it once: it does not tell where a subtask belongs, so only the bytes
   * above it count. Else the node holding shared inputs larger than a subtask's own would
   * take every subtask. */
  for (int j = 0; j < nodes; j++) {
    const uint64_t *row = l->local + (uint64_t)j * subtasks;
    base[j] = subtasks ? row[0] : 0;
    for (uint64_t s = 1; s < subtasks; s++)
      base[j] = row[s] < base[j] ? row[s] : base[j];
  }
  for (uint64_t s = 0, k = 0; s < subtasks; s++) {
    while (s >= nb[k + 1])
      k++;
    uint32_t best = (uint32_t)k;
    uint64_t most = 0;
    for (int j = 0; j < nodes; j++)
      if (l->local[(uint64_t)j * subtasks + s] - base[j] > most) {
        most = l->local[(uint64_t)j * subtasks + s] - base[j];
        best = (uint32_t)j;
      }
    node_of[s] = best;
  }
  roofline_run *mine = NULL;
  long count = 0;
  for (int k = nodes - 1; k >= 0 && count >= 0; k--) { /* node 0 last: its devices start after */
    roofline_run *r = NULL;
    long runs = node_runs(n, t, k, node_of, w, &r);
    if (runs >= 0 && k > 0) {
      nw_writer wr;
      nw_w_init(&wr, MSG_POLICY);
      nw_w_u64(&wr, t->id);
      nw_w_u8(&wr, ROOFLINE_RUNS);
      nw_w_u32(&wr, (uint32_t)runs);
      for (long i = 0; i < runs; i++) {
        nw_w_u32(&wr, r[i].dev);
        nw_w_u64(&wr, r[i].first);
        nw_w_u64(&wr, r[i].last);
      }
      if (!wr.oom)
        n->stats.bytes_network += wr.len;
      nw_node_send(n, k, NW_CHANNEL_CONTROL, &wr, 0);
      free(r);
    } else
      mine = r;
    count = runs;
  }
  free(w);
  free(rate);
  free(nb);
  free(node_of);
  if (count < 0)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  else
    push_runs(n, t, mine, (size_t)count);
  free(mine);
}

static void task_start(nw_node *n, nw_task_state *t) {
  if (follows_data(n)) { /* every node sends node 0 its local bytes; node 0 deals */
    if (n->cfg.id == 0)
      pool_enter(n, t);
    nw_locality_start(n, t, deal_by_data);
    return;
  }
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
  pool_enter(n, t);
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

/* A node's runs from node 0 (ROOFLINE_RUNS). */
static void on_runs(nw_node *n, int src, nw_reader *r, uint64_t task) {
  uint32_t count = nw_r_u32(r);
  if (r->bad || src != 0 || (r->len - r->pos) != (size_t)count * 20) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, task);
  roofline_run *runs = malloc((count ? count : 1) * sizeof *runs);
  if (!runs) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  for (uint32_t i = 0; i < count; i++) {
    runs[i].dev = nw_r_u32(r);
    runs[i].first = nw_r_u64(r);
    runs[i].last = nw_r_u64(r);
    if (runs[i].dev >= (uint32_t)n->cfg.devices || runs[i].first >= runs[i].last ||
        (t && runs[i].last > t->info.subtasks))
      r->bad = 1;
  }
  if (!r->bad && t && !t->finishing)
    push_runs(n, t, runs, count);
  free(runs);
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  if (type == MSG_LOC_VECTOR) { /* a node's local bytes, for deal_by_data */
    nw_locality_on_vector(n, src, r);
    return;
  }
  uint64_t task = nw_r_u64(r);
  uint8_t sub = nw_r_u8(r);
  if (!r->bad && type == MSG_POLICY && sub == ROOFLINE_RUNS) {
    on_runs(n, src, r, task);
    return;
  }
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
    .uses_affinity = follows_data,
    .init = init,
    .fini = fini,
    .task_start = task_start,
    .dry = nw_pipeline_retire,
    .task_forget = forget,
    .on_message = on_message,
};
