/* ws.c: StarPU's work stealing (--sched ws) and locality work stealing (--sched lws).
 *
 * "StarPU: a Runtime System for Scheduling Tasks over Accelerator-Based Multicore Machines"
 * (Augonnet, Thibault, Namyst; INRIA research report RR-7240), section 5: ws keeps
 * one queue per worker and, in its pop, a worker whose queue is empty steals from another's
 * (Cilk-like). Here, over a cluster:
 *   push: subtask s goes to device (s mod D) of the cluster, D its device count: StarPU's ws
 *     pushes round robin when the submitter is not a worker, as Narwhal's driver is not;
 *   pop: a dry device steals ONE subtask (StarPU's ws pops one task from its victim) from the
 *     tail of the victim's queue, never what the victim has in hand or has prefetched. Its own
 *     node's devices come first (no message), then other nodes' through a request/answer.
 * ws visits victims round robin: its node's devices in index order after itself, then nodes
 * id+1, id+2, ... (wrapping), each device of each. lws (StarPU's lws: local first, the most
 * loaded first) asks its node's most loaded device first, then each other node once, whose
 * answer comes from that node's most loaded device (one empty answer means all are empty).
 * A device whose every victim failed in a row retires for the task: no new work appears
 * within a task, so nothing it could steal later can arise.
 *
 * Messages (MSG_POLICY, control channel): task id, subtype, then
 *   WS_REQUEST: stealer's device (u32), victim device on the receiving node (u32; ANY_DEVICE:
 *     its most loaded one);
 *   WS_ANSWER:  stealer's device (u32), 0 or 1 (u8), the subtask (u64) when 1.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"

enum { WS_REQUEST = 1, WS_ANSWER = 2 };
#define ANY_DEVICE 0xffffffffu

static int is_lws(const nw_node *n) {
  return n->policy == &nw_policy_lws;
}

static int total_devices(const nw_node *n) {
  int total = 0;
  for (int k = 0; k < n->cfg.nodes; k++)
    total += n->cfg.devices_per_node[k];
  return total;
}

/* How many victims a round asks: each other device (ws), or each other local device and each
 * other node (lws). */
static int round_length(const nw_node *n) {
  int local = n->cfg.devices - 1;
  return local + (is_lws(n) ? n->cfg.nodes - 1 : total_devices(n) - n->cfg.devices);
}

/* Push: every node deals its devices' share of the round robin, one range per subtask. */
static void task_start(nw_node *n, nw_task_state *t) {
  uint64_t total = (uint64_t)total_devices(n), first = 0;
  for (int k = 0; k < n->cfg.id; k++)
    first += (uint64_t)n->cfg.devices_per_node[k];
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_device_slot *slot = &t->dev[d];
    for (uint64_t s = first + (uint64_t)d; s < t->info.subtasks; s += total) {
      slot->range_len++;
      if (nw_pipeline_append(slot, (nw_range){s, s + 1}) != NW_OK) {
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
        return;
      }
    }
  }
  nw_pipeline_go(n, t);
}

/* The local device with the most queued subtasks among those not yet tried in this round (lws),
 * marking it tried; -1 when none is left. */
static int most_loaded_untried(nw_task_state *t, int ndev, const unsigned char *tried) {
  int best = -1;
  uint64_t most = 0;
  for (int v = 0; v < ndev; v++) {
    uint64_t q = nw_pipeline_queued(&t->dev[v]);
    if (!tried[v] && (best < 0 || q > most)) {
      best = v;
      most = q;
    }
  }
  return best;
}

/* The local device with the most queued subtasks (lws's victim on a node); -1 if none has any. */
static int most_loaded(nw_task_state *t, int ndev) {
  int best = -1;
  uint64_t most = 0;
  for (int v = 0; v < ndev; v++) {
    uint64_t q = nw_pipeline_queued(&t->dev[v]);
    if (q > most) {
      best = v;
      most = q;
    }
  }
  return best;
}

/* The k-th remote victim of a round, k from 0: nodes id+1, id+2, ... with each of their
 * devices (ws), or only the node (lws: *dev = ANY_DEVICE). */
static int remote_victim(const nw_node *n, int k, uint32_t *dev) {
  for (int j = 1; j < n->cfg.nodes; j++) {
    int node = (n->cfg.id + j) % n->cfg.nodes;
    int count = is_lws(n) ? 1 : n->cfg.devices_per_node[node];
    if (k < count) {
      *dev = is_lws(n) ? ANY_DEVICE : (uint32_t)k;
      return node;
    }
    k -= count;
  }
  return -1;
}

/* Takes one subtask from the tail of local device v's queue for device d. */
static int steal_local(nw_node *n, nw_task_state *t, int d, int v) {
  n->stats.steals_attempted++;
  n->stats.steals_local_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_dev_stats(n, d)->steals_local_attempted++;
  nw_range r;
  if (v < 0 || v == d || nw_pipeline_take_tail(&t->dev[v], 1, &r) == 0)
    return 0;
  n->stats.steals_succeeded++;
  n->stats.steals_local_succeeded++;
  nw_dev_stats(n, d)->steals_succeeded++;
  nw_node_trace(n, NW_TRACE_STEAL, d, NULL, 0, -1, 0);
  nw_dev_stats(n, d)->steals_local_succeeded++;
  t->dev[d].range_len = 1;
  nw_pipeline_give(n, t, d, r);
  return 1;
}

/* The local victim of the round's k-th ask (k < devices - 1). */
static int local_victim(nw_node *n, nw_task_state *t, int d, int k) {
  nw_device_slot *slot = &t->dev[d];
  if (!is_lws(n))
    return (d + 1 + k) % n->cfg.devices;
  slot->tried[d] = 1;
  int v = most_loaded_untried(t, n->cfg.devices, slot->tried);
  if (v >= 0)
    slot->tried[v] = 1;
  return v;
}

static void send_request(nw_node *n, nw_task_state *t, int d, int node, uint32_t victim) {
  n->stats.steals_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, t->id);
  nw_w_u8(&w, WS_REQUEST);
  nw_w_u32(&w, (uint32_t)d);
  nw_w_u32(&w, victim);
  t->dev[d].steal_sent_s = n->be.ops->now(n->be.be);
  nw_pipeline_wait_for_work(n, t, d);
  nw_node_send(n, node, NW_CHANNEL_CONTROL, &w, 0);
}

/* Asks the round's next victims until one gives work, a request goes out, or every victim
 * has failed (the device retires). slot->tried_count: victims asked in this round. */
static void next_victim(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  int local = n->cfg.devices - 1, length = round_length(n);
  while (slot->tried_count < length) {
    int k = slot->tried_count++;
    if (k < local) {
      if (steal_local(n, t, d, local_victim(n, t, d, k)))
        return;
      continue;
    }
    uint32_t dev;
    int node = remote_victim(n, k - local, &dev);
    if (node >= 0) {
      send_request(n, t, d, node, dev);
      return;
    }
  }
  nw_pipeline_retire(n, t, d);
}

/* StarPU's pop for an idle worker: a new round of victims, local ones first. */
static void dry(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  size_t entries = (size_t)n->cfg.devices;
  if (!slot->tried && !(slot->tried = calloc(entries, 1))) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  memset(slot->tried, 0, entries);
  slot->tried_count = 0;
  next_victim(n, t, d);
}

static void answer(nw_node *n, int dst, uint64_t task, uint32_t dev, const nw_range *r) {
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, task);
  nw_w_u8(&w, WS_ANSWER);
  nw_w_u32(&w, dev);
  nw_w_u8(&w, r != NULL);
  if (r)
    nw_w_u64(&w, r->first);
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

static void on_request(nw_node *n, int src, uint64_t task, nw_reader *r) {
  uint32_t dev = nw_r_u32(r);
  uint32_t victim = nw_r_u32(r);
  if (r->bad || (victim != ANY_DEVICE && victim >= (uint32_t)n->cfg.devices)) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, task);
  nw_range got;
  if (!t || t->finishing) { /* the task is over here: nothing to give */
    answer(n, src, task, dev, NULL);
    return;
  }
  int v = victim == ANY_DEVICE ? most_loaded(t, n->cfg.devices) : (int)victim;
  int ok = v >= 0 && nw_pipeline_take_tail(&t->dev[v], 1, &got) == 1;
  answer(n, src, task, dev, ok ? &got : NULL);
}

static void on_answer(nw_node *n, uint64_t task, nw_reader *r) {
  uint32_t dev = nw_r_u32(r);
  uint8_t has = nw_r_u8(r);
  uint64_t s = has ? nw_r_u64(r) : 0;
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, task);
  if (r->bad || has > 1 || dev >= (uint32_t)n->cfg.devices || (t && has && s >= t->info.subtasks)) {
    r->bad = 1;
    return;
  }
  if (!t || t->finishing)
    return; /* the task ended meanwhile (an answer carrying work cannot come then) */
  nw_device_slot *slot = &t->dev[dev];
  slot->steal_wait_s += n->be.ops->now(n->be.be) - slot->steal_sent_s;
  slot->steal_answers++;
  if (has) { /* given even if the device stopped waiting, so that the subtask is never lost */
    n->stats.steals_succeeded++;
    nw_dev_stats(n, (int)dev)->steals_succeeded++;
    nw_node_trace(n, NW_TRACE_STEAL, (int)dev, t, 0, -1, 0);
    slot->range_len = 1;
    nw_pipeline_give(n, t, (int)dev, (nw_range){s, s + 1});
  } else if (slot->steal_active) {
    next_victim(n, t, (int)dev);
  }
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint8_t sub = nw_r_u8(r);
  if (r->bad || type != MSG_POLICY || src < 0 || src >= n->cfg.nodes) {
    r->bad = 1;
    return;
  }
  if (sub == WS_REQUEST)
    on_request(n, src, task, r);
  else if (sub == WS_ANSWER)
    on_answer(n, task, r);
  else
    r->bad = 1;
}

const nw_policy nw_policy_ws = {
    .name = "ws",
    .summary = "StarPU's ws: round-robin push, dry devices steal one subtask, local first",
    .task_start = task_start,
    .dry = dry,
    .on_message = on_message,
};

const nw_policy nw_policy_lws = {
    .name = "lws",
    .summary = "StarPU's lws: like ws, stealing from the most loaded device, local first",
    .task_start = task_start,
    .dry = dry,
    .on_message = on_message,
};
