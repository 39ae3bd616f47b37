/* steal.c: two-level random work stealing (paper section 4.3.2).
 *
 * A device whose queue runs dry first asks its own node's steal agent, then the agent of a
 * random remote node not yet tried in this round. The agent picks the local device expected
 * to finish its queue last (largest Q/R) and hands over ceil(Q * Rs / (Rs + Rv)) subtasks from
 * the tail of its queue; below one, the steal fails. When every node has failed, the round
 * ends. Work only moves between queues, never appears, so by default the device then stops
 * stealing for this task, as the original Unicorn does after (number of nodes) consecutive
 * failures; with steal_retry_s > 0 it retries after a back-off doubling up to 1024x.
 *
 * This walking-skeleton version steals only queued (not yet prepared) subtasks: aggression 1
 * for every device. Aggression levels, ProSteal and multi-assign build on it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "node_internal.h"

#define TOKEN(task, dev) (((task) << 16) | (uint64_t)(dev))

/* The local steal agent: gives up to the paper's quantum from its most loaded device, other
 * than `exclude`. Returns the number of subtasks placed in *out. */
static uint64_t agent_give(nw_node *n, nw_task_state *t, double rs, int exclude, nw_range *out) {
  int victim = -1;
  double worst = 0;
  for (int d = 0; d < n->cfg.devices; d++) {
    if (d == exclude)
      continue;
    uint64_t q = nw_sched_queued(&t->dev[d]);
    if (q == 0)
      continue;
    double rv = nw_sched_rate(&t->dev[d]);
    /* A device with no measured rate yet counts as rate 1: then Q alone orders them. */
    double finish = (double)q / (rv > 0 ? rv : 1.0);
    if (victim < 0 || finish > worst) {
      victim = d;
      worst = finish;
    }
  }
  if (victim < 0)
    return 0;
  nw_device_slot *v = &t->dev[victim];
  double q = (double)nw_sched_queued(v), rv = nw_sched_rate(v);
  /* Unknown rates count as equal: the stealer takes half. */
  double share = (rs > 0 && rv > 0) ? rs / (rs + rv) : 0.5;
  double quantum = ceil(q * share);
  if (quantum < 1)
    return 0;
  return nw_sched_take_tail(v, (uint64_t)quantum, out);
}

static void got_work(nw_node *n, nw_task_state *t, int d, nw_range r) {
  nw_device_slot *slot = &t->dev[d];
  if (nw_sched_append(slot, r) != NW_OK) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  n->stats.steals_succeeded++;
  slot->state = DEV_IDLE;
  slot->backoff_s = 0;
  nw_sched_advance(n, t, d);
}

/* Asks a random remote node not yet tried in this round, or ends the round. */
static void try_remote(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  int untried = n->cfg.nodes - slot->tried_count;
  if (untried <= 0) {
    double base = n->cfg.sched.steal_retry_s;
    if (base <= 0) {
      slot->state = DEV_RETIRED;
      return;
    }
    slot->backoff_s = slot->backoff_s > 0 ? slot->backoff_s * 2 : base;
    if (slot->backoff_s > 1024 * base)
      slot->backoff_s = 1024 * base;
    slot->state = DEV_BACKOFF;
    n->be.ops->timer(n->be.be, slot->backoff_s, TOKEN(t->id, d));
    return;
  }
  int pick = (int)(n->be.ops->random(n->be.be) % (uint64_t)untried);
  int victim = 0;
  for (int k = 0; k < n->cfg.nodes; k++) {
    if (slot->tried[k])
      continue;
    if (pick-- == 0) {
      victim = k;
      break;
    }
  }
  slot->tried[victim] = 1;
  slot->tried_count++;
  n->stats.steals_attempted++;
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_REQ);
  nw_w_u64(&w, t->id);
  nw_w_u32(&w, (uint32_t)d);
  nw_w_f64(&w, nw_sched_rate(slot));
  nw_node_send(n, victim, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_steal_begin(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  if (!slot->tried) {
    slot->tried = calloc((size_t)n->cfg.nodes, 1);
    if (!slot->tried) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  memset(slot->tried, 0, (size_t)n->cfg.nodes);
  slot->tried_count = 0;
  slot->state = DEV_STEALING;
  /* First level: this node's own agent, answered without a message. */
  n->stats.steals_attempted++;
  n->stats.steals_local_attempted++;
  slot->tried[n->cfg.id] = 1;
  slot->tried_count = 1;
  nw_range r;
  if (agent_give(n, t, nw_sched_rate(slot), d, &r)) {
    n->stats.steals_local_succeeded++;
    got_work(n, t, d, r);
    return;
  }
  try_remote(n, t, d);
}

void nw_steal_on_request(nw_node *n, int src, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint32_t dev = nw_r_u32(r);
  double rs = nw_r_f64(r);
  if (r->bad)
    return;
  nw_task_state *t = nw_node_task(n, task);
  nw_range got = {0, 0};
  if (t && !t->finishing)
    agent_give(n, t, rs, -1, &got);
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_RESP);
  nw_w_u64(&w, task);
  nw_w_u32(&w, dev);
  nw_w_u64(&w, got.first);
  nw_w_u64(&w, got.last);
  nw_node_send(n, src, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_steal_on_response(nw_node *n, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint32_t dev = nw_r_u32(r);
  nw_range got = {nw_r_u64(r), nw_r_u64(r)};
  if (r->bad)
    return;
  nw_task_state *t = nw_node_task(n, task);
  if (!t || t->finishing || dev >= (uint32_t)n->cfg.devices || t->dev[dev].state != DEV_STEALING)
    return;
  if (got.last > got.first && got.last <= t->info.subtasks)
    got_work(n, t, (int)dev, got);
  else
    try_remote(n, t, (int)dev);
}

void nw_steal_on_timer(nw_node *n, uint64_t token) {
  nw_task_state *t = nw_node_task(n, token >> 16);
  int d = (int)(token & 0xffff);
  if (!t || t->finishing || d >= n->cfg.devices || t->dev[d].state != DEV_BACKOFF)
    return;
  nw_steal_begin(n, t, d);
}
