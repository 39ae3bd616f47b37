/* dm.c: StarPU's deque-model policies: dm, dmda, dmdar, dmdas (heft = dmda).
 *
 * Augonnet, Thibault, Namyst: StarPU: a Runtime System for Scheduling Tasks over
 * Accelerator-Based Multicore Machines (INRIA RR-7240), section 5: HEFT on
 * performance models. Each ready subtask goes to the device whose predicted finish is the
 * earliest: exp_end(g) + duration(s, g), where exp_end(g) is when device g is predicted to have
 * run what it was given, and duration comes from the performance model of the subtask's kind
 * on g's kind (heft-tm, "dm"). dmda (heft-tmdp) adds the predicted time to bring the
 * subtask's data to g (a data penalty): the bytes of its reads that g's node does not hold,
 * over the network model, plus for a GPU every read byte over the host<->GPU link; as StarPU
 * does, the chosen device's exp_end grows by the part of that transfer its queued work does
 * not hide. fitness = (exp_end(g) + duration - best exp_end) + penalty (StarPU's alpha = beta
 * = 1). dmdar pops from its queue a subtask whose data is already here first (within the
 * first DMDAR_WINDOW); dmdas decides subtasks in priority order (larger first) instead of id
 * order. Every variant requests the reads of the first --prefetch-depth subtasks of each
 * device's queue as soon as they are placed, and keeps that window filled as the device takes
 * subtasks (the "-pr" variants of the report; StarPU prefetches on push).
 *
 * Within a task every subtask is ready at once, so node 0 decides all of them at the task's
 * start (as StarPU's dmda does when an application submits independent tasks together) and
 * sends each node its subtasks; nothing is stolen afterwards. dmda needs every node's local
 * bytes of every subtask: the affinity matrix of locality_sched.c, gathered first.
 *
 * Across tasks (StarPU's rule on a task graph): exp_end(g) counts what any running task queued
 * on g. Node 0 keeps each device's predicted end from one decision to the next, a new task's
 * subtask starting at max(now, exp_end(g)); a device on which no running task was placed is
 * free now. Each device runs its queue in decision order (dmdas: in priority order, larger
 * first, across tasks). The predictions are node 0's: a device that runs ahead of them shows
 * as free once now passes its predicted end; one that falls behind is not seen late.
 *
 * Durations: the run's measured model when one is loaded (--perfmodel) and calibrated for the
 * subtask's footprint; otherwise, in the simulator, the cost model (flops / the device's
 * nominal speed), which is exactly what the simulator charges; otherwise the kind is
 * uncalibrated on that device kind and, as StarPU does, the subtask goes to the uncalibrated
 * device with the fewest subtasks so far, so that every kind gets measured.
 *
 * A many-task GPU (--gpu-mode many-task) is not `lanes` independent devices: its subtasks pass
 * one at a time through a host stage before its worker warps run them, each at one worker's
 * speed (nw_device_desc.stage_s and lane_flops, which the simulator fills from the platform).
 * A lane's subtask is predicted to start once both the lane and its GPU's stage are free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "central.h"
#include "heft_rules.h"
#include "perfdata.h"
#include "policy.h"

#define DMDAR_WINDOW 16
enum { DM_ASSIGN = 1 };

/* What one dm table does differently from the others (its nw_policy.variant); dmdar's
 * difference is its pop hook. */
typedef struct dm_variant {
  int data_penalty; /* dmda and after: fitness counts moving the subtask's reads */
  int by_priority;  /* dmdas: decide and queue subtasks by priority, larger first */
} dm_variant;

static const dm_variant *variant(const nw_node *n) {
  return n->policy->variant;
}

/* Node 0's view of the cluster's devices across tasks: each one's predicted end (absolute
 * time), each many-task GPU's host stage's, and how many running tasks were placed on each. */
typedef struct dm_state {
  int total;
  double *exp_end;
  double *stage_end; /* [node * NW_MAX_GPUS_PER_NODE + gpu] */
  uint64_t *tasks_on;
  /* Subtasks each device was given to be measured (an uncalibrated kind), over every task: the
   * next one goes to the device with the fewest, so that many small tasks calibrate every
   * device rather than each task's first subtask landing on device 0. */
  uint64_t *calibrating;
} dm_state;

/* Node 0: the devices one task was placed on, to count it off when it is forgotten. */
typedef struct dm_task {
  uint32_t *devices;
  size_t count;
} dm_task;

static nw_status init(nw_node *n) {
  dm_state *m = calloc(1, sizeof *m);
  if (m && n->cfg.id == 0) {
    m->total = nw_cluster_devices(n);
    m->exp_end = calloc((size_t)m->total, sizeof *m->exp_end);
    m->tasks_on = calloc((size_t)m->total, sizeof *m->tasks_on);
    m->stage_end = calloc((size_t)n->cfg.nodes * NW_MAX_GPUS_PER_NODE, sizeof *m->stage_end);
    m->calibrating = calloc((size_t)m->total, sizeof *m->calibrating);
    if (!m->exp_end || !m->tasks_on || !m->stage_end || !m->calibrating) {
      free(m->exp_end);
      free(m->tasks_on);
      free(m->stage_end);
      free(m->calibrating);
      free(m);
      m = NULL;
    }
  }
  n->sched = m;
  return m ? NW_OK : NW_ERR_NOMEM;
}

static void fini(nw_node *n) {
  dm_state *m = n->sched;
  if (m) {
    free(m->exp_end);
    free(m->tasks_on);
    free(m->stage_end);
    free(m->calibrating);
  }
  free(m);
  n->sched = NULL;
}

static void dm_task_free(void *p) {
  dm_task *k = p;
  free(k->devices);
  free(k);
}

static void forget(nw_node *n, nw_task_state *t) {
  dm_state *m = n->sched;
  dm_task *k = t->policy_state;
  if (n->cfg.id != 0 || !k)
    return;
  for (size_t i = 0; i < k->count; i++)
    m->tasks_on[k->devices[i]]--;
  k->count = 0;
}

static int uses_affinity(const nw_node *n) {
  return variant(n)->data_penalty && n->cfg.nodes > 1;
}

/* Device g of the cluster: its node and local index. */
static int node_of(const nw_node *n, int g, int *local) {
  int k = 0;
  while (g >= n->cfg.devices_per_node[k])
    g -= n->cfg.devices_per_node[k++];
  *local = g;
  return k;
}

/* A subtask's footprint and data bytes, for the model. */
typedef struct dm_shape {
  uint64_t footprint, size;
} dm_shape;

/* Subtask s's subscriptions into sets (nw_subscription_sets: reads, then writes), its
 * footprint and data bytes, and the bytes it reads. The regions stay for the caller to free. */
static nw_status shape_of(nw_task_state *t, uint64_t s, nw_region *sets, dm_shape *out,
                          uint64_t *read) {
  int ns = t->info.nspaces;
  char why[64];
  nw_status st =
      nw_subscriptions(t->kind, &t->info, t->access, s, sets, sets + ns, why, sizeof why);
  *read = 0;
  if (st != NW_OK)
    return st;
  nw_perf_shape(t, sets, sets + ns, &out->footprint, &out->size);
  for (int i = 0; i < ns; i++)
    *read += nw_region_bytes(&sets[i]);
  return NW_OK;
}

/* Seconds subtask s takes on device g, or < 0 when uncalibrated: the measured model first,
 * then (not calibrating) the cost model over the device's nominal speed, or over its memory
 * bandwidth where the kind's bytes take longer (the roofline the simulator charges). */
static double predict(nw_node *n, nw_task_state *t, uint64_t s, dm_shape sh, nw_device_desc g) {
  double secs;
  double flops = t->kind->flops ? t->kind->flops(&t->info, s, g.kind) : 0;
  if (nw_perf_predict(n, t->kind, g.kind, g.cores, sh.footprint, sh.size, flops, &secs))
    return secs + g.lane_s; /* measured on the lane: its turn at a worker included */
  if (n->cfg.calibrate || g.flops <= 0 || !t->kind->flops)
    return -1.0;
  double speed = g.flops; /* a narrow launch gets its warps' share of a GPU (node.h) */
  if (g.lane_flops > 0)
    speed = g.lane_flops; /* a many-task worker's, whatever the kernel's width */
  else if (g.kind == NW_DEVICE_GPU && t->kind->gpu_threads)
    speed *= nw_gpu_launch_share(t->kind->gpu_threads(&t->info, s), g.fill_threads);
  secs = t->kind->flops(&t->info, s, g.kind) / speed;
  if (g.mem_bw > 0 && t->kind->bytes) {
    double memory = t->kind->bytes(&t->info, s, g.kind) / g.mem_bw;
    secs = memory > secs ? memory : secs;
  }
  if (g.lane_flops > 0) { /* a many-task lane's occupancy (node.h) */
    double turn = secs * g.lanes_per_worker;
    secs = secs + g.lane_s > turn ? secs + g.lane_s : turn;
  }
  return secs;
}

/* Predicted seconds to bring s's reads to device g on node k (dmda's data penalty): from the
 * other nodes, the bytes node k lacks (the locality matrix, gathered at the task's start on
 * several nodes); to a GPU, what it would copy in: for node 0's own GPUs (to_gpu >= 0) the
 * reads its cache does not hold (StarPU's dmda knows where each piece of data is), for another
 * node's every read byte. */
static double data_penalty(const nw_node *n, const nw_task_state *t, uint64_t s, int k,
                           nw_device_desc g, uint64_t read, int64_t to_gpu) {
  const nw_task_locality *l = t->loc;
  double secs = 0.0;
  uint64_t local = l ? l->local[(uint64_t)k * t->info.subtasks + s] : read;
  if (read > local && n->cfg.net_bandwidth > 0)
    secs += n->cfg.net_latency + (double)(read - local) / n->cfg.net_bandwidth;
  uint64_t copy = to_gpu >= 0 ? (uint64_t)to_gpu : read;
  if (g.kind == NW_DEVICE_GPU && copy > 0 && n->cfg.pcie_bandwidth > 0)
    secs += n->cfg.pcie_latency + (double)copy / n->cfg.pcie_bandwidth;
  return secs;
}

/* A device of the cluster as decide() sees it, looked up once per task. */
typedef struct dm_device {
  nw_device_desc desc;
  int node;
  size_t stage; /* a many-task lane's GPU host stage: one per GPU of the cluster */
} dm_device;

/* Says once per run and kind that a kind is being calibrated. */
static void say_calibrating(nw_node *n, const nw_task_kind *k) {
  int i = 0;
  while (n->cfg.kinds && n->cfg.kinds[i] && n->cfg.kinds[i] != k)
    i++;
  uint64_t bit = i < 64 ? 1ull << i : 0;
  if (n->said_calibrating & bit)
    return;
  n->said_calibrating |= bit;
  fprintf(stderr,
          "narwhal: policy %s: task kind '%s' has no performance model on some device kinds: "
          "calibrating (its subtasks go to those devices until they are measured)\n",
          n->policy->name, k->name);
}

/* Node 0: task t was placed on the devices with given[g] > 0: each counts it as running there
 * until it is forgotten. */
static nw_status count_on(nw_node *n, nw_task_state *t, const uint64_t *given) {
  dm_state *m = n->sched;
  dm_task *k = calloc(1, sizeof *k);
  size_t used = 0;
  for (int g = 0; g < m->total; g++)
    used += given[g] > 0;
  if (!k || !(k->devices = malloc((used ? used : 1) * sizeof *k->devices))) {
    free(k);
    return NW_ERR_NOMEM;
  }
  for (int g = 0; g < m->total; g++)
    if (given[g] > 0) {
      k->devices[k->count++] = (uint32_t)g;
      m->tasks_on[g]++;
    }
  t->policy_state = k;
  t->policy_state_free = dm_task_free;
  return NW_OK;
}

/* Node 0: HEFT over the subtasks in `order` (heft_rules.h), with StarPU's calibration: a
 * subtask that some device cannot predict goes to the unpredictable device with the fewest
 * subtasks so far, so that the model learns every device kind. */
static nw_status decide(nw_node *n, nw_task_state *t, const uint64_t *order, uint32_t *device) {
  dm_state *m = n->sched;
  int total = m->total;
  double now = n->be.ops->now(n->be.be);
  /* Times relative to now: a device no running task was placed on is free now (0), exactly as
   * for a task that runs alone. */
  double *exp_end = calloc((size_t)total, sizeof *exp_end);
  double *len = malloc((size_t)total * sizeof *len), *pen = malloc((size_t)total * sizeof *pen);
  uint64_t *given = calloc((size_t)total, sizeof *given);
  /* Many-task GPUs: when each one's host stage is predicted free (heft_rules.h), and when each
   * lane could start its next subtask through it. */
  double *stage_end = calloc((size_t)n->cfg.nodes * NW_MAX_GPUS_PER_NODE, sizeof *stage_end);
  double *start = malloc((size_t)total * sizeof *start);
  dm_device *dev = malloc((size_t)total * sizeof *dev);
  nw_status st = exp_end && len && pen && given && stage_end && start && dev ? NW_OK : NW_ERR_NOMEM;
  for (int g = 0; st == NW_OK && g < total; g++) {
    int local;
    dev[g].desc = nw_cluster_device(n, g);
    dev[g].node = node_of(n, g, &local);
    int gpu = dev[g].desc.gpu > 0 ? dev[g].desc.gpu : 0;
    dev[g].stage = (size_t)dev[g].node * NW_MAX_GPUS_PER_NODE + (size_t)gpu;
    if (m->tasks_on[g] > 0) {
      exp_end[g] = m->exp_end[g] > now ? m->exp_end[g] - now : 0.0;
      double stage = m->stage_end[dev[g].stage] - now;
      stage_end[dev[g].stage] = stage > stage_end[dev[g].stage] ? stage : stage_end[dev[g].stage];
    }
  }
  int data = variant(n)->data_penalty, ns = t->info.nspaces;
  int first = nw_cluster_first_device(n, n->cfg.id); /* node 0's own devices: g - first */
  nw_region *sets = nw_subscription_sets(ns);
  if (!sets)
    st = NW_ERR_NOMEM;
  for (uint64_t i = 0; st == NW_OK && i < t->info.subtasks; i++) {
    uint64_t s = order ? order[i] : i, read = 0;
    dm_shape sh = {0, 0};
    /* checked at submission: fails only if a callback changed */
    st = shape_of(t, s, sets, &sh, &read);
    int calib = -1;
    for (int g = 0; st == NW_OK && g < total; g++) {
      const nw_device_desc *dg = &dev[g].desc;
      len[g] = predict(n, t, s, sh, *dg);
      int local = g - first;
      int64_t to_gpu = data && dg->kind == NW_DEVICE_GPU && local >= 0 && local < n->cfg.devices
                           ? (int64_t)nw_gpu_bytes_to_stage(n, local, t, sets, sets + ns)
                           : -1;
      pen[g] = data ? data_penalty(n, t, s, dev[g].node, *dg, read, to_gpu) : 0.0;
      start[g] = dg->stage_s > 0
                     ? nw_heft_staged_start(exp_end[g], stage_end[dev[g].stage], dg->stage_s)
                     : exp_end[g];
      if (len[g] < 0 && (calib < 0 || m->calibrating[g] < m->calibrating[calib]))
        calib = g;
    }
    if (st != NW_OK)
      break;
    int best = calib >= 0 ? calib : nw_heft_pick(total, start, len, pen);
    if (calib >= 0) {
      say_calibrating(n, t->kind);
      m->calibrating[calib]++;
    } else {
      if (dev[best].desc.stage_s > 0)
        stage_end[dev[best].stage] = start[best]; /* the stage has passed it on */
      exp_end[best] = start[best];
      nw_heft_commit(exp_end, best, len[best], pen[best]);
    }
    given[best]++;
    device[s] = (uint32_t)best;
    for (int k = 0; k < 2 * ns; k++)
      nw_region_free(&sets[k]);
  }
  nw_subscription_sets_free(sets, ns);
  for (int g = 0; st == NW_OK && g < total; g++) { /* kept for the next task's decisions */
    m->exp_end[g] = now + exp_end[g];
    m->stage_end[dev[g].stage] = now + stage_end[dev[g].stage];
  }
  if (st == NW_OK)
    st = count_on(n, t, given);
  free(exp_end);
  free(len);
  free(pen);
  free(given);
  free(stage_end);
  free(start);
  free(dev);
  return st;
}

/* Requests the reads of a placed subtask now, at prefetch priority (the "-pr" variants). */
static void prefetch(nw_node *n, nw_task_state *t, int d, uint64_t s) {
  nw_prepared *p = nw_pipeline_prepare(n, t, d, s, 1);
  nw_prepared_free(p, t->info.nspaces);
}

/* Keeps the reads of the first prefetch_depth queued subtasks of device d (of any task) on
 * their way. A window, not the whole queue: requesting every placed subtask's data at once
 * floods the network in an order the devices do not follow (matmul on 14 paper-cluster nodes:
 * 57.6 s against 33.8 s without; EXPERIMENTS.md). */
static void prefetch_window(nw_node *n, int d) {
  nw_task_state *t;
  uint64_t id;
  for (uint64_t k = 0; k < (uint64_t)n->cfg.sched.prefetch_depth; k++)
    if (nw_queue_at(n, d, k, &t, &id))
      prefetch(n, t, d, id);
}

/* This node's part: subtasks in decision order, each to its local device (dmdas: in priority
 * order behind what other tasks queued there); then go. */
static void apply(nw_node *n, nw_task_state *t, const uint64_t *ids, const uint16_t *devs,
                  uint64_t count) {
  int by_priority = variant(n)->by_priority;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t s = ids[i];
    t->dev[devs[i]].range_len++;
    nw_status st = by_priority
                       ? nw_queue_push_prio(n, devs[i], t, s,
                                            t->kind->priority ? t->kind->priority(&t->info, s) : 0)
                       : nw_queue_push_one(n, devs[i], t, s);
    if (st != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  for (int d = 0; d < n->cfg.devices && !n->error[0]; d++)
    prefetch_window(n, d);
  nw_pipeline_go(n, t);
}

/* Node 0: decide every subtask, send every node its part, start here. */
static void assign(nw_node *n, nw_task_state *t) {
  uint64_t count = t->info.subtasks;
  uint64_t *order = variant(n)->by_priority ? nw_order_by_priority(t) : NULL;
  uint32_t *device = malloc((count ? count : 1) * sizeof *device);
  uint64_t *ids = malloc((count ? count : 1) * sizeof *ids);
  uint16_t *devs = malloc((count ? count : 1) * sizeof *devs);
  if ((variant(n)->by_priority && !order) || !device || !ids || !devs ||
      decide(n, t, order, device) != NW_OK) {
    free(order);
    free(device);
    free(ids);
    free(devs);
    nw_node_fail(n,
                 "node 0, task %llu: policy %s could not place its subtasks (out of memory, "
                 "or a subscription callback that answers differently than at submission)",
                 (unsigned long long)t->id, n->policy->name);
    return;
  }
  uint64_t mine = 0;
  for (int k = n->cfg.nodes - 1; k >= 0; k--) { /* node 0 last: its devices start after */
    uint64_t part = 0;
    for (uint64_t i = 0; i < count; i++) {
      uint64_t s = order ? order[i] : i;
      int local;
      if (node_of(n, (int)device[s], &local) == k) {
        ids[part] = s;
        devs[part++] = (uint16_t)local;
      }
    }
    if (k == 0) {
      mine = part;
      break;
    }
    nw_writer w;
    nw_w_init(&w, MSG_POLICY);
    nw_w_u64(&w, t->id);
    nw_w_u8(&w, DM_ASSIGN);
    nw_w_u64(&w, part);
    for (uint64_t i = 0; i < part; i++) {
      nw_w_u64(&w, ids[i]);
      nw_w_u32(&w, devs[i]);
    }
    if (!w.oom)
      n->stats.bytes_network += w.len; /* the decision travels with its real size */
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
  }
  apply(n, t, ids, devs, mine);
  free(order);
  free(device);
  free(ids);
  free(devs);
}

static void task_start(nw_node *n, nw_task_state *t) {
  if (uses_affinity(n))
    nw_locality_start(n, t, assign); /* node 0 assigns once every row is in */
  else if (n->cfg.id == 0)
    assign(n, t);
  /* other nodes wait for DM_ASSIGN */
}

static void on_assign(nw_node *n, int src, nw_reader *r, nw_task_state *t) {
  uint64_t count = nw_r_u64(r);
  if (r->bad || src != 0 || count > t->info.subtasks || (r->len - r->pos) != count * 12) {
    r->bad = 1;
    return;
  }
  uint64_t *ids = malloc((count ? count : 1) * sizeof *ids);
  uint16_t *devs = malloc((count ? count : 1) * sizeof *devs);
  if (!ids || !devs) {
    free(ids);
    free(devs);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  for (uint64_t i = 0; i < count; i++) {
    ids[i] = nw_r_u64(r);
    uint32_t dev = nw_r_u32(r);
    devs[i] = (uint16_t)dev;
    if (ids[i] >= t->info.subtasks || dev >= (uint32_t)n->cfg.devices)
      r->bad = 1;
  }
  if (!r->bad)
    apply(n, t, ids, devs, count);
  free(ids);
  free(devs);
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  if (type == MSG_LOC_VECTOR) {
    nw_locality_on_vector(n, src, r);
    return;
  }
  uint64_t task = nw_r_u64(r);
  int kind = nw_r_u8(r);
  if (r->bad || type != MSG_POLICY || kind != DM_ASSIGN) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, task);
  if (t && !t->finishing) /* finished: the others ran everything while this travelled */
    on_assign(n, src, r, t);
}

/* Nothing is stolen: a device whose queue is empty waits for the next task's decisions. */
static void dry(nw_node *n, int d) {
  nw_pipeline_retire(n, d);
}

static int reads_here(nw_task_state *t, uint64_t s) {
  int ns = t->info.nspaces;
  nw_region *sets = nw_subscription_sets(ns);
  char why[64];
  int here = sets && nw_subscriptions(t->kind, &t->info, t->access, s, sets, sets + ns, why,
                                      sizeof why) == NW_OK;
  for (int i = 0; here && i < ns; i++)
    here = nw_region_empty(&sets[i]) || nw_space_has(t->bound[i].space, &sets[i]);
  nw_subscription_sets_free(sets, ns);
  return here;
}

/* The queue's head, and the window's next subtask starts to come. */
static int pop_fifo(nw_node *n, int d, nw_task_state **t, uint64_t *id) {
  if (!nw_queue_pop(n, d, t, id))
    return 0;
  prefetch_window(n, d);
  return 1;
}

/* dmdar: the first of the queue's first DMDAR_WINDOW subtasks whose reads are all here, else
 * the head. */
static int pop_ready(nw_node *n, int d, nw_task_state **t, uint64_t *id) {
  uint64_t pick = 0, s;
  nw_task_state *k;
  for (uint64_t i = 0; i < DMDAR_WINDOW && nw_queue_at(n, d, i, &k, &s); i++)
    if (reads_here(k, s)) {
      pick = i;
      break;
    }
  int got = nw_queue_take_at(n, d, pick, t, id);
  if (got < 0)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  if (got <= 0)
    return 0;
  prefetch_window(n, d);
  return 1;
}

static const dm_variant durations_only = {0}, with_data = {.data_penalty = 1},
                        data_by_priority = {.data_penalty = 1, .by_priority = 1};

#define DM_POLICY(var, nm, sum, popper, params)                                                    \
  const nw_policy var = {                                                                          \
      .name = nm,                                                                                  \
      .summary = sum,                                                                              \
      .variant = &params,                                                                          \
      .uses_affinity = uses_affinity,                                                              \
      .init = init,                                                                                \
      .fini = fini,                                                                                \
      .task_start = task_start,                                                                    \
      .dry = dry,                                                                                  \
      .pop = popper,                                                                               \
      .task_forget = forget,                                                                       \
      .on_message = on_message,                                                                    \
  }

DM_POLICY(nw_policy_dm, "dm", "StarPU dm: HEFT on duration models (earliest predicted finish)",
          pop_fifo, durations_only);
DM_POLICY(nw_policy_dmda, "dmda", "StarPU dmda: dm plus the predicted time to move the data",
          pop_fifo, with_data);
DM_POLICY(nw_policy_heft, "heft", "StarPU heft: the same as dmda", pop_fifo, with_data);
DM_POLICY(nw_policy_dmdar, "dmdar", "StarPU dmdar: dmda, a device runs ready subtasks first",
          pop_ready, with_data);
DM_POLICY(nw_policy_dmdas, "dmdas", "StarPU dmdas: dmda deciding subtasks by priority", pop_fifo,
          data_by_priority);
