/* steal.c: work stealing (paper section 4.3.2), as policies behind one hook table.
 *
 * two-level (the paper's default): a device whose queue runs dry first asks its own node's
 * steal agent, then the agent of a random remote node not yet tried in this round. The agent
 * picks its local device expected to finish last (largest Q/R) and hands over
 * ceil(Q * Rs / (Rs + Rv)) subtasks; below one, the steal fails.
 * one-level (the paper's comparison): the device asks one random device of the cluster
 * directly, each at most once per round.
 *
 * Aggression (section 4.3.2): a subtask in pipeline stage k (1 queued, 2 waiting for data,
 * 3 ready, 4 executing) counts in Q, and may be taken, only if the stealer's aggression is at
 * least k. GPUs stay at 3; CPUs start at 1 and climb to 3 over N/2 consecutive failures (N =
 * nodes), falling back to 1 on success. Stolen subtasks come from the tail: the queue's end
 * first, then the prefetched subtask; the one a device is about to run stays with it.
 *
 * When a round fails everywhere, work has only been moving between queues, never appearing,
 * so by default the device stops stealing for the task, as the original Unicorn does after
 * (number of nodes) consecutive failures; steal_retry_s > 0 retries after a back-off doubling
 * up to 1024x instead.
 *
 * A round asks at most steal_probes remote agents (default 16; 0: every node). Asking every
 * node makes the end of a task cost each of the N x D devices up to 2N + 1 requests (a round
 * below maximum aggression, one at it): N^2 messages for work that grows with N, which is
 * what kept the simulator from large clusters (EXPERIMENTS.md, section 9) and would load a
 * real one alike. The bound keeps the balance because stealers are many when it matters:
 * when most devices have run dry, each asking K random nodes, a node that still has work is
 * asked about D x K times per round (all but certainly at least once, e^-DK), and a node with
 * work while most others still have theirs is found within a few asks. The CPUs' aggression
 * ladder climbs over the nodes one round can ask (K + 1, counting its own), so a CPU still
 * reaches maximum aggression by its second round. Up to K + 1 nodes the rule is the
 * original's exactly.
 *
 * With locality-aware scheduling (paper 4.3.4, locality_sched.c) a remote stealer draws its
 * victim node weighted by how much of that node's data it holds, and the agent answering a
 * remote stealer hands over the queued subtasks with the largest affinity difference instead
 * of the tail; a same-node steal keeps the tail rule (locality is the same for both devices).
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "steal_rules.h"

/* The tail rule takes from at most this many of the victim's last ranges (plus its prefetched
 * subtask). An affinity-aware steal may hand over up to one range per subtask; its response
 * is bounded by the victim's queue and checked against its own length on receipt. */
#define TAIL_RANGES 3

nw_status nw_loot_add(nw_loot *l, nw_range r) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 4;
    nw_range *a = realloc(l->r, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    l->r = a;
    l->cap = cap;
  }
  l->r[l->n++] = r;
  return NW_OK;
}

void nw_loot_free(nw_loot *l) {
  free(l->r);
  *l = (nw_loot){0};
}

/* The device has a subtask in hand: executing it, or waiting for its data or for room on its
 * GPU. Its rounds are proactive (ProSteal), it takes no copy of another's subtask (that would
 * replace the one in hand), and stealing never changes its pipeline state: only a device with
 * nothing in hand is "stealing", "backing off" or "retired", and only such a device waits for
 * steals to give it work (a device waiting for data resumes when the data arrives). */
static int in_hand(const nw_device_slot *s) {
  return s->current != NULL || s->state == DEV_EXECUTING;
}

static int stage_of(const nw_prepared *p) {
  return p->waiting ? 2 : 3;
}

/* Q of paper 4.3.2 as a stealer of aggression `aggr` sees a device. */
static uint64_t stealable(const nw_device_slot *s, int aggr) {
  return nw_steal_q(nw_pipeline_queued(s), s->next ? stage_of(s->next) : 0, aggr);
}

/* Takes up to `want` subtasks from device v for a stealer on node `stealer` into *out: queued
 * ones from the tail, or by affinity for a remote stealer with locality on; then the
 * prefetched one if the stealer's aggression allows. */
static uint64_t take(nw_node *n, nw_task_state *t, int v, uint64_t want, int aggr, int stealer,
                     nw_loot *out) {
  nw_device_slot *s = &t->dev[v];
  uint64_t got = 0;
  if (t->loc && t->loc->assigned && stealer != n->cfg.id) {
    got = nw_locality_take(n, t, v, stealer, want, out);
  } else {
    for (int ranges = 0; got < want && ranges < TAIL_RANGES; ranges++) {
      nw_range r;
      uint64_t k = nw_pipeline_take_tail(s, want - got, &r);
      if (k == 0)
        break;
      if (nw_loot_add(out, r) != NW_OK) {
        nw_pipeline_append(s, r); /* give it back: the tail it came from */
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
        return got;
      }
      got += k;
    }
  }
  if (got < want && s->next && stage_of(s->next) <= aggr) {
    if (nw_loot_add(out, (nw_range){s->next->subtask, s->next->subtask + 1}) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return got;
    }
    nw_pipeline_drop_prepared(n, t, v, s->next); /* its data stays resident on this node */
    s->next = NULL;
    got++;
  }
  return got;
}

/* Gives from device `target`, or when target < 0 from the local device expected to finish
 * last; never from `exclude`. Returns the number of subtasks in *out (empty on entry). */
static uint64_t agent_give(nw_node *n, nw_task_state *t, double rs, int aggr, int target,
                           int exclude, int stealer, nw_loot *out) {
  uint64_t q[NW_MAX_DEVICES_PER_NODE];
  double rate[NW_MAX_DEVICES_PER_NODE];
  for (int d = 0; d < n->cfg.devices; d++) {
    q[d] = (target < 0 || d == target) ? stealable(&t->dev[d], aggr) : 0;
    rate[d] = nw_pipeline_rate(&t->dev[d]);
  }
  int victim = nw_steal_victim(q, rate, n->cfg.devices, exclude);
  if (victim < 0)
    return 0;
  uint64_t quantum = nw_steal_quantum(q[victim], rs, rate[victim]);
  return quantum ? take(n, t, victim, quantum, aggr, stealer, out) : 0;
}

/* The nodes one round can ask, its own included: every node, or steal_probes + 1. */
static int round_span(const nw_node *n) {
  int k = n->cfg.sched.steal_probes;
  return k > 0 && k + 1 < n->cfg.nodes ? k + 1 : n->cfg.nodes;
}

static void record_outcome(nw_node *n, nw_device_slot *s, int success) {
  s->fails = success ? 0 : s->fails + 1;
  s->aggression = s->is_gpu ? 3 : success ? 1 : nw_steal_aggression(round_span(n), s->fails);
}

static void got_work(nw_node *n, nw_task_state *t, int d, const nw_loot *l) {
  nw_device_slot *slot = &t->dev[d];
  slot->range_len = 0;
  for (size_t i = 0; i < l->n; i++) {
    slot->range_len += l->r[i].last - l->r[i].first;
    if (nw_pipeline_append(slot, l->r[i]) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  n->stats.steals_succeeded++;
  nw_dev_stats(n, d)->steals_succeeded++;
  nw_node_trace(n, NW_TRACE_STEAL, d, NULL, 0, -1, 0);
  record_outcome(n, slot, 1);
  slot->steal_active = 0;
  slot->backoff_s = 0;
  if (slot->state == DEV_STEALING)
    slot->state = DEV_IDLE;
  nw_pipeline_advance(n, t, d); /* runs the loot, or, while executing, prefetches it */
}

/* The round failed everywhere. A round begun below maximum aggression is followed by one at
 * maximum (the ladder exists so that later requests may take more, copies of running
 * subtasks included); after that, stop or retry after a back-off. */
static void end_round(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  slot->steal_active = 0;
  if (in_hand(slot)) { /* a proactive round: nothing yet; steal when dry */
    slot->prosteal_off = 1;
    return;
  }
  if (slot->round_aggression < 3 && slot->aggression >= 3) {
    nw_steal_begin(n, t, d);
    return;
  }
  double base = n->cfg.sched.steal_retry_s;
  if (base <= 0) {
    slot->state = DEV_RETIRED;
    return;
  }
  slot->backoff_s = slot->backoff_s > 0 ? slot->backoff_s * 2 : base;
  if (slot->backoff_s > 1024 * base)
    slot->backoff_s = 1024 * base;
  slot->state = DEV_BACKOFF;
  n->be.ops->timer(n->be.be, slot->backoff_s, nw_policy_token(t->id, d));
}

/* Picks an untried entry of slot->tried[0..count) at random, marking it; -1 if none. The
 * entries are nodes, or with per_device the devices of the cluster. With locality on the draw
 * is weighted (locality_sched.c); otherwise uniform. */
static int pick_untried(nw_node *n, nw_task_state *t, int d, int count, int per_device) {
  nw_device_slot *slot = &t->dev[d];
  int untried = count - slot->tried_count;
  if (untried <= 0)
    return -1;
  if (t->loc && t->loc->assigned) {
    int k = nw_locality_pick_victim(n, t, d, count, per_device);
    slot->tried_count += k >= 0;
    return k;
  }
  int pick = (int)(n->be.ops->random(n->be.be) % (uint64_t)untried);
  for (int k = 0; k < count; k++) {
    if (slot->tried[k])
      continue;
    if (pick-- == 0) {
      slot->tried[k] = 1;
      slot->tried_count++;
      return k;
    }
  }
  return -1;
}

static void send_request(nw_node *n, nw_task_state *t, int d, int node, int target) {
  nw_device_slot *slot = &t->dev[d];
  n->stats.steals_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_REQ);
  nw_w_u64(&w, t->id);
  nw_w_u32(&w, (uint32_t)d);
  nw_w_f64(&w, nw_pipeline_rate(slot));
  nw_w_u8(&w, (uint8_t)slot->aggression);
  nw_w_u32(&w, (uint32_t)(target + 1)); /* 0: the agent chooses */
  nw_w_f64(&w, slot->fetches ? slot->fetch_wait_s / (double)slot->fetches : 0.0);
  /* At maximum aggression an idle stealer also accepts a copy of a running subtask (4.3.3). */
  nw_w_u8(&w, (uint8_t)(slot->aggression >= 3 && n->cfg.sched.multi_assign && !in_hand(slot)));
  nw_w_u8(&w, (uint8_t)n->cfg.device_kind[d]);
  slot->steal_sent_s = n->be.ops->now(n->be.be);
  nw_node_send(n, node, NW_CHANNEL_CONTROL, &w, 0);
}

/* A steal from this node's own devices, answered without a message. */
static int steal_here(nw_node *n, nw_task_state *t, int d, int target) {
  nw_device_slot *slot = &t->dev[d];
  n->stats.steals_attempted++;
  n->stats.steals_local_attempted++;
  nw_dev_stats(n, d)->steals_local_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_loot l = {0};
  if (agent_give(n, t, nw_pipeline_rate(slot), slot->aggression, target, d, n->cfg.id, &l)) {
    n->stats.steals_local_succeeded++;
    nw_dev_stats(n, d)->steals_local_succeeded++;
    got_work(n, t, d, &l);
    nw_loot_free(&l);
    return 1;
  }
  nw_loot_free(&l);
  /* Multi-assign inside a node only between device types (UNICORN-NOTES): a GPU may copy a
   * straggling CPU subtask of its own node, and the reverse. */
  uint64_t copy;
  int origin_dev;
  if (slot->aggression >= 3 && n->cfg.sched.multi_assign && !in_hand(slot) &&
      nw_multiassign_offer(n, t, n->cfg.id, d, n->cfg.device_kind[d], nw_pipeline_rate(slot),
                           slot->fetches ? slot->fetch_wait_s / (double)slot->fetches : 0.0, &copy,
                           &origin_dev)) {
    n->stats.steals_local_succeeded++;
    nw_dev_stats(n, d)->steals_local_succeeded++;
    n->stats.steals_succeeded++;
    nw_dev_stats(n, d)->steals_succeeded++;
    nw_node_trace(n, NW_TRACE_STEAL, d, NULL, 0, -1, 0);
    record_outcome(n, slot, 1);
    slot->backoff_s = 0;
    slot->steal_active = 0;
    nw_multiassign_accept(n, t, d, n->cfg.id, origin_dev, copy);
    return 1;
  }
  record_outcome(n, slot, 0);
  return 0;
}

/* ---- two-level: this node's agent, then random remote agents */

static void two_level_next(nw_node *n, nw_task_state *t, int d) {
  int node = t->dev[d].tried_count < round_span(n) ? pick_untried(n, t, d, n->cfg.nodes, 0) : -1;
  if (node < 0)
    end_round(n, t, d);
  else
    send_request(n, t, d, node, -1);
}

static void two_level_begin(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  slot->tried[n->cfg.id] = 1;
  slot->tried_count = 1;
  if (!steal_here(n, t, d, -1))
    two_level_next(n, t, d);
}

/* ---- one-level: random devices of the whole cluster, one at a time */

static int total_devices(const nw_node *n) {
  int total = 0;
  for (int k = 0; k < n->cfg.nodes; k++)
    total += n->cfg.devices_per_node[k];
  return total;
}

/* One-level asks devices: a round may ask as many as round_span nodes hold, on average. */
static void one_level_next(nw_node *n, nw_task_state *t, int d) {
  int total = total_devices(n);
  int limit = (int)((int64_t)total * round_span(n) / n->cfg.nodes); /* all when span = nodes */
  for (;;) {
    int g = t->dev[d].tried_count < limit ? pick_untried(n, t, d, total, 1) : -1;
    if (g < 0) {
      end_round(n, t, d);
      return;
    }
    int node = 0;
    while (g >= n->cfg.devices_per_node[node])
      g -= n->cfg.devices_per_node[node++];
    if (node != n->cfg.id) {
      send_request(n, t, d, node, g);
      return;
    }
    if (steal_here(n, t, d, g))
      return;
  }
}

static void one_level_begin(nw_node *n, nw_task_state *t, int d) {
  int self = 0;
  for (int k = 0; k < n->cfg.id; k++)
    self += n->cfg.devices_per_node[k];
  t->dev[d].tried[self + d] = 1; /* never itself */
  t->dev[d].tried_count = 1;
  one_level_next(n, t, d);
}

typedef struct nw_steal_policy {
  const char *name;
  void (*begin)(nw_node *n, nw_task_state *t, int d); /* device d ran dry */
  void (*next)(nw_node *n, nw_task_state *t, int d);  /* its last request failed */
} nw_steal_policy;

static const nw_steal_policy policies[] = {
    [NW_STEAL_TWO_LEVEL] = {"two-level", two_level_begin, two_level_next},
    [NW_STEAL_ONE_LEVEL] = {"one-level", one_level_begin, one_level_next},
};

static const nw_steal_policy *policy(const nw_node *n) {
  return &policies[n->cfg.sched.steal_policy == NW_STEAL_ONE_LEVEL ? NW_STEAL_ONE_LEVEL
                                                                   : NW_STEAL_TWO_LEVEL];
}

/* Starts a stealing round: device d is dry, or (ProSteal) about to be. */
void nw_steal_begin(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *slot = &t->dev[d];
  int entries = total_devices(n) > n->cfg.nodes ? total_devices(n) : n->cfg.nodes;
  if (!slot->tried) {
    slot->tried = calloc((size_t)entries, 1);
    if (!slot->tried) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  memset(slot->tried, 0, (size_t)entries);
  slot->tried_count = 0;
  if (slot->aggression < 1 || slot->is_gpu)
    slot->aggression = slot->is_gpu ? 3 : 1;
  slot->round_aggression = slot->aggression;
  slot->steal_active = 1;
  if (!in_hand(slot))
    slot->state = DEV_STEALING;
  policy(n)->begin(n, t, d);
}

void nw_steal_on_request(nw_node *n, int src, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint32_t dev = nw_r_u32(r);
  double rs = nw_r_f64(r);
  int aggr = nw_r_u8(r);
  int target = (int)nw_r_u32(r) - 1;
  double fetch_s = nw_r_f64(r);
  int multi = nw_r_u8(r);
  int kind = nw_r_u8(r);
  if (r->bad || aggr < 1 || aggr > 4 || target >= n->cfg.devices || kind > NW_DEVICE_GPU) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, task);
  nw_loot l = {0};
  uint64_t copy = 0;
  int origin_dev = -1, grant = 0;
  if (t && !t->finishing && !agent_give(n, t, rs, aggr, target, -1, src, &l) && multi)
    grant = nw_multiassign_offer(n, t, src, (int)dev, (nw_device_kind)kind, rs, fetch_s, &copy,
                                 &origin_dev);
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_RESP);
  nw_w_u64(&w, task);
  nw_w_u32(&w, dev);
  nw_w_u32(&w, (uint32_t)l.n);
  for (size_t i = 0; i < l.n; i++) {
    nw_w_u64(&w, l.r[i].first);
    nw_w_u64(&w, l.r[i].last);
  }
  nw_loot_free(&l);
  nw_w_u8(&w, (uint8_t)grant);
  nw_w_u64(&w, copy);
  nw_w_u32(&w, (uint32_t)origin_dev);
  nw_node_send(n, src, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_steal_on_response(nw_node *n, int src, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint32_t dev = nw_r_u32(r);
  uint32_t count = nw_r_u32(r);
  /* Each range takes 16 bytes: a count the message cannot hold is malformed, and bounds what
   * is allocated for it. */
  if (r->bad || count > (r->len - r->pos) / 16) {
    r->bad = 1;
    return;
  }
  nw_loot l = {.r = malloc((count ? count : 1) * sizeof(nw_range)), .n = count, .cap = count};
  if (!l.r) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  for (uint32_t i = 0; i < count; i++)
    l.r[i] = (nw_range){nw_r_u64(r), nw_r_u64(r)};
  int grant = nw_r_u8(r);
  uint64_t copy = nw_r_u64(r);
  int origin_dev = (int)nw_r_u32(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, task);
  if (!t || t->finishing || dev >= (uint32_t)n->cfg.devices || !t->dev[dev].steal_active) {
    nw_loot_free(&l);
    return;
  }
  nw_device_slot *slot = &t->dev[dev];
  slot->steal_wait_s += n->be.ops->now(n->be.be) - slot->steal_sent_s;
  slot->steal_answers++;
  for (size_t i = 0; i < l.n; i++)
    if (l.r[i].first >= l.r[i].last || l.r[i].last > t->info.subtasks) {
      nw_loot_free(&l);
      r->bad = 1;
      return;
    }
  if (grant && copy < t->info.subtasks && !in_hand(slot)) {
    n->stats.steals_succeeded++;
    nw_dev_stats(n, (int)dev)->steals_succeeded++;
    nw_node_trace(n, NW_TRACE_STEAL, (int)dev, t, copy, -1, 0);
    record_outcome(n, slot, 1);
    slot->backoff_s = 0;
    slot->steal_active = 0;
    nw_multiassign_accept(n, t, (int)dev, src, origin_dev, copy);
  } else if (l.n > 0) {
    got_work(n, t, (int)dev, &l);
  } else {
    record_outcome(n, &t->dev[dev], 0);
    policy(n)->next(n, t, (int)dev);
  }
  nw_loot_free(&l);
}
