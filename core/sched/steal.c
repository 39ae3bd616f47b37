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
 * so by default the device stops stealing until a task starts (new work), as the original
 * Unicorn does after (number of nodes) consecutive failures; steal_retry_s > 0 retries after a
 * back-off doubling up to 1024x instead.
 *
 * Across tasks: a device steals when it has nothing left of any task, and takes work of any
 * running task. Its request names one task, whose figures it carries (the stealer's rate and
 * data wait for it): the task of the subtask it runs (ProSteal), or of the last one it got.
 * The agent gives from that task when it can, else from the other running tasks, oldest
 * first, by the same rules (a remote stealer's rate for those is unknown: half the quantum).
 * The answer names the task the loot is of. A device's round (what it tried, its aggression,
 * its back-off) is the device's, kept in this file's state on each node; each task starts the
 * CPUs' aggression ladder afresh, as a task's work is new.
 *
 * A round asks at most steal_probes remote agents (default 16; 0: every node). Asking every
 * node makes the end of a task cost each of the N x D devices up to 2N + 1 requests (a round
 * below maximum aggression, one at it): N^2 messages for work that grows with N, which is
 * what kept the simulator from large clusters (docs/experiments/sim-scale-growth.md) and would
 * load a real one alike. The bound keeps the balance because stealers are many when it
 * matters: when most devices have run dry, each asking K random nodes, a node that still has
 * work is asked about D x K times per round (all but certainly at least once, e^-DK), and a
 * node with work while most others still have theirs is found within a few asks. The CPUs'
 * aggression ladder climbs over the nodes one round can ask (K + 1, counting its own), so a CPU
 * still reaches maximum aggression by its second round. Up to K + 1 nodes the rule is the
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
#include "resend.h"
#include "steal_rules.h"

/* A request's device word carries the stealer's round above the device index (which
 * NW_MAX_DEVICES_PER_NODE keeps below 2^TAG_BITS), and the answer echoes it: an answer to an
 * abandoned round is known as such without a byte more on the wire. */
#define TAG_BITS 10
#define TAG_DEVICE ((1u << TAG_BITS) - 1)
#define TAG_ROUND ((1u << (32 - TAG_BITS)) - 1)
_Static_assert(NW_MAX_DEVICES_PER_NODE <= (1 << TAG_BITS), "device index fits its field");

static uint32_t tag(int d, uint32_t round) {
  return (uint32_t)d | (round & TAG_ROUND) << TAG_BITS;
}

/* The tail rule takes from at most this many of the victim's last ranges (plus its prefetched
 * subtask). An affinity-aware steal may hand over up to one range per subtask; its response
 * is bounded by the victim's queue and checked against its own length on receipt. */
#define TAIL_RANGES 3

/* One local device's stealing (paper 4.3.2). */
typedef struct steal_dev {
  unsigned char *tried; /* nodes, or the cluster's devices (one-level), tried in this round */
  int tried_count;
  int aggression;       /* 1..3 */
  int fails;            /* consecutive failed steal requests */
  int round_aggression; /* aggression when the current round began */
  int prosteal_off;     /* a proactive round failed everywhere: wait until dry next time */
  double backoff_s;
  uint64_t timer; /* its back-off timer's generation: an older timer is stale */
  double sent_s;  /* when the outstanding request left */
  uint64_t task;  /* the task the outstanding request named */
  uint64_t last;  /* the task of the last subtask it got */
  uint32_t round; /* rounds begun: an answer to an earlier round's request is stale */
} steal_dev;

typedef struct steal_state {
  steal_dev *dev;
  int entries; /* of each tried array */
} steal_state;

static steal_dev *sd_of(nw_node *n, int d) {
  return &((steal_state *)n->sched)->dev[d];
}

static int total_devices(const nw_node *n) {
  return nw_cluster_devices(n);
}

nw_status nw_steal_init(nw_node *n) {
  steal_state *s = calloc(1, sizeof *s);
  int entries = total_devices(n) > n->cfg.nodes ? total_devices(n) : n->cfg.nodes;
  if (s && (s->dev = calloc((size_t)n->cfg.devices, sizeof *s->dev))) {
    s->entries = entries;
    for (int d = 0; d < n->cfg.devices; d++)
      if (!(s->dev[d].tried = calloc((size_t)entries, 1))) {
        n->sched = s;
        nw_steal_fini(n);
        return NW_ERR_NOMEM;
      }
  } else if (s) {
    free(s);
    s = NULL;
  }
  n->sched = s;
  return s ? NW_OK : NW_ERR_NOMEM;
}

void nw_steal_fini(nw_node *n) {
  steal_state *s = n->sched;
  if (!s)
    return;
  for (int d = 0; s->dev && d < n->cfg.devices; d++)
    free(s->dev[d].tried);
  free(s->dev);
  free(s);
  n->sched = NULL;
}

void nw_steal_task_started(nw_node *n, nw_task_state *t) {
  (void)t;
  for (int d = 0; d < n->cfg.devices; d++) {
    steal_dev *sd = sd_of(n, d);
    sd->aggression = nw_dev_is_gpu(n, d) ? 3 : 1;
    sd->fails = 0;
    sd->prosteal_off = 0;
    sd->backoff_s = 0;
    /* An idle device in the middle of a round asked about the work there was: it starts a new
     * round for the new work (nw_pipeline_go offers it to dry again), and what its old round
     * still awaits comes back stale (loot taken, nothing else). */
    if (!nw_pipeline_in_hand(n, d) && n->dev[d].asked) {
      sd->round++;
      nw_pipeline_retire(n, d);
    }
  }
}

void nw_steal_task_ended(nw_node *n, nw_task_state *t) {
  (void)t; /* finishing already */
  if (nw_tasks_running(n))
    return;                                /* work may be left elsewhere: rounds go on */
  for (int d = 0; d < n->cfg.devices; d++) /* no work anywhere: rounds stop, answers are stale */
    if (n->dev[d].asked) {
      sd_of(n, d)->round++;
      nw_pipeline_retire(n, d);
    }
}

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

static int stage_of(const nw_prepared *p) {
  return p->waiting ? 2 : 3;
}

/* Q of paper 4.3.2 of task t on device v, as a stealer of aggression `aggr` sees it. */
static uint64_t stealable(const nw_node *n, const nw_task_state *t, int v, int aggr) {
  const nw_prepared *next = nw_pipeline_next_of(n, v, t);
  return nw_steal_q(nw_queue_length(n, v, t), next ? stage_of(next) : 0, aggr);
}

/* Takes up to `want` subtasks of task t from device v for a stealer on node `stealer` into
 * *out: queued ones from the tail, or by affinity for a remote stealer with locality on; then
 * the prefetched one if it is t's and the stealer's aggression allows. */
static uint64_t take(nw_node *n, nw_task_state *t, int v, uint64_t want, int aggr, int stealer,
                     nw_loot *out) {
  uint64_t got = 0;
  if (t->loc && t->loc->assigned && stealer != n->cfg.id) {
    got = nw_locality_take(n, t, v, stealer, want, out);
  } else {
    for (int ranges = 0; got < want && ranges < TAIL_RANGES; ranges++) {
      nw_range r;
      uint64_t k = nw_queue_take_tail(n, v, t, want - got, NULL, &r);
      if (k == 0)
        break;
      if (nw_loot_add(out, r) != NW_OK) {
        nw_queue_push(n, v, t, r); /* give it back: the tail it came from */
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
        return got;
      }
      got += k;
    }
  }
  const nw_prepared *next = nw_pipeline_next_of(n, v, t);
  uint64_t s;
  if (got < want && next && stage_of(next) <= aggr) {
    if (nw_loot_add(out, (nw_range){next->subtask, next->subtask + 1}) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return got;
    }
    nw_pipeline_steal_next(n, v, t, &s); /* its data stays resident on this node */
    got++;
  }
  return got;
}

/* Gives task t's work from device `target`, or when target < 0 from the local device expected
 * to finish last; never from `exclude`. Returns the number of subtasks in *out (empty on
 * entry). */
static uint64_t agent_give(nw_node *n, nw_task_state *t, double rs, int aggr, int target,
                           int exclude, int stealer, nw_loot *out) {
  uint64_t q[NW_MAX_DEVICES_PER_NODE];
  double rate[NW_MAX_DEVICES_PER_NODE];
  for (int d = 0; d < n->cfg.devices; d++) {
    q[d] = (target < 0 || d == target) ? stealable(n, t, d, aggr) : 0;
    rate[d] = nw_pipeline_rate(&t->dev[d]);
  }
  int victim = nw_steal_victim(q, rate, n->cfg.devices, exclude);
  if (victim < 0)
    return 0;
  uint64_t quantum = nw_steal_quantum(q[victim], rs, rate[victim]);
  return quantum ? take(n, t, victim, quantum, aggr, stealer, out) : 0;
}

/* The tasks an agent serves a request naming task `first` from, one after another: that one
 * first, then the others this node has queued subtasks of, then those it holds a prefetched
 * or running subtask of (the only ones a steal or a copy can come from). A task held on two
 * devices comes twice: the second time finds nothing more. */
typedef struct walk {
  nw_task_state *first, *queued;
  int stage; /* 0: first; 1: the queued list; 2 + k: device k / 2's next (k even) or current */
} walk;

static nw_task_state *next_candidate(const nw_node *n, walk *w) {
  for (;;) {
    nw_task_state *t;
    if (w->stage == 0) {
      w->stage = 1;
      t = w->first;
    } else if (w->stage == 1) {
      if (!w->queued) {
        w->stage = 2;
        continue;
      }
      t = w->queued;
      w->queued = t->queued_next;
      if (t == w->first)
        continue;
    } else {
      int k = w->stage++ - 2;
      if (k >= 2 * n->cfg.devices)
        return NULL;
      const nw_prepared *p = k % 2 ? n->dev[k / 2].current : n->dev[k / 2].next;
      t = p ? p->task : NULL;
      if (t && (t->queued_here > 0 || t == w->first))
        continue; /* seen already */
    }
    if (t && !t->finishing && !t->aborted)
      return t;
  }
}

/* The stealer's rate on task t: a local stealer's is known; a remote one's only for the task
 * its request named (0 otherwise: unknown). */
static double stealer_rate(const nw_task_state *t, uint64_t named, double rs, int local_dev) {
  if (local_dev >= 0)
    return nw_pipeline_rate(&t->dev[local_dev]);
  return t->id == named ? rs : 0.0;
}

/* The agent's answer to one request: loot of one task into *out (its task in *from), else a
 * copy of a straggling subtask when `multi` allows (*copy, *origin_dev, its task in *from).
 * Returns 1 with loot, 2 with a copy, 0 with nothing. */
/* Whether a device the request may take from holds queued or prefetched work of any task:
 * take() takes nothing else, so without any the walk over tasks cannot find loot. Idle devices
 * ask often and mostly find nothing (a chain of one-subtask tasks: twice per task and device). */
static int anything_to_take(const nw_node *n, int target, int exclude) {
  for (int v = 0; v < n->cfg.devices; v++)
    if (v != exclude && (target < 0 || v == target) &&
        (nw_queue_length(n, v, NULL) > 0 || n->dev[v].next))
      return 1;
  return 0;
}

/* Whether any device here could be a copy's victim for this stealer, by the kinds alone
 * (nw_multiassign_eligible at its most permissive): a CPU stealer of this node never can. */
static int copy_possible(const nw_node *n, int stealer, int stealer_dev, nw_device_kind kind) {
  if (stealer != n->cfg.id)
    return 1;
  for (int v = 0; v < n->cfg.devices; v++)
    if (v != stealer_dev && nw_multiassign_eligible(1, kind, n->cfg.device_kind[v], 0, 0, 0))
      return 1;
  return 0;
}

static int agent_serve(nw_node *n, uint64_t named, double rs, int aggr, int target, int local_dev,
                       int stealer, int stealer_dev, nw_device_kind kind, int multi, double fetch_s,
                       nw_loot *out, nw_task_state **from, uint64_t *copy, int *origin_dev) {
  nw_task_state *first = named ? nw_node_task(n, named) : NULL, *t;
  walk w = {first, n->queued_tasks, 0};
  int got = 0;
  if (!anything_to_take(n, target, local_dev))
    w.stage = 2 + 2 * n->cfg.devices; /* past every candidate */
  while (!got && (t = next_candidate(n, &w)))
    if (agent_give(n, t, stealer_rate(t, named, rs, local_dev), aggr, target, local_dev, stealer,
                   out)) {
      *from = t;
      got = 1;
    }
  if (!multi || got || !copy_possible(n, stealer, stealer_dev, kind))
    return got;
  w = (walk){first, n->queued_tasks, 0};
  while (!got && (t = next_candidate(n, &w)))
    if (nw_multiassign_offer(n, t, stealer, stealer_dev, kind,
                             stealer_rate(t, named, rs, local_dev), fetch_s, copy, origin_dev)) {
      *from = t;
      got = 2;
    }
  return got;
}

/* The nodes one round can ask, its own included: every node, or steal_probes + 1. */
static int round_span(const nw_node *n) {
  int k = n->cfg.sched.steal_probes;
  return k > 0 && k + 1 < n->cfg.nodes ? k + 1 : n->cfg.nodes;
}

static void record_outcome(nw_node *n, int d, int success) {
  steal_dev *sd = sd_of(n, d);
  sd->fails = success ? 0 : sd->fails + 1;
  sd->aggression = nw_dev_is_gpu(n, d) ? 3
                   : success           ? 1
                                       : nw_steal_aggression(round_span(n), sd->fails);
}

/* The task whose figures device d's requests carry: of the subtask in hand, else of the last
 * one it got, if that task still runs; else none (0). */
static nw_task_state *named_task(nw_node *n, int d) {
  if (n->dev[d].current)
    return n->dev[d].current->task;
  nw_task_state *t = sd_of(n, d)->last ? nw_node_task(n, sd_of(n, d)->last) : NULL;
  return t && !t->finishing ? t : NULL;
}

static void got_work(nw_node *n, nw_task_state *t, int d, const nw_loot *l) {
  steal_dev *sd = sd_of(n, d);
  t->dev[d].range_len = 0;
  for (size_t i = 0; i < l->n; i++) {
    t->dev[d].range_len += l->r[i].last - l->r[i].first;
    if (nw_queue_push(n, d, t, l->r[i]) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  n->stats.steals_succeeded++;
  nw_dev_stats(n, d)->steals_succeeded++;
  nw_node_trace(n, NW_TRACE_STEAL, d, NULL, 0, -1, 0);
  record_outcome(n, d, 1);
  sd->backoff_s = 0;
  sd->last = t->id;
  nw_pipeline_resume(n, d); /* runs the loot, or, while executing, prefetches it */
}

/* The round failed everywhere. A round begun below maximum aggression is followed by one at
 * maximum (the ladder exists so that later requests may take more, copies of running
 * subtasks included); after that, stop or retry after a back-off. */
static void end_round(nw_node *n, int d) {
  steal_dev *sd = sd_of(n, d);
  if (nw_pipeline_in_hand(n, d)) { /* a proactive round: nothing yet; steal when dry */
    sd->prosteal_off = 1;
    nw_pipeline_retire(n, d); /* no answer to wait for: it asks again once dry */
    return;
  }
  if (sd->round_aggression < 3 && sd->aggression >= 3) {
    nw_steal_begin(n, d);
    return;
  }
  double base = n->cfg.sched.steal_retry_s;
  if (base <= 0) {
    nw_pipeline_retire(n, d);
    return;
  }
  sd->backoff_s = sd->backoff_s > 0 ? sd->backoff_s * 2 : base;
  if (sd->backoff_s > 1024 * base)
    sd->backoff_s = 1024 * base;
  nw_pipeline_backoff(n, d);
  sd->timer++;
  n->be.ops->timer(n->be.be, sd->backoff_s, sd->timer << 16 | (uint64_t)d);
}

void nw_steal_on_timer(nw_node *n, uint64_t token) {
  int d = (int)(token & 0xffff);
  if (d < n->cfg.devices && token >> 16 == sd_of(n, d)->timer && n->dev[d].state == DEV_BACKOFF)
    nw_steal_begin(n, d);
}

/* Picks an untried entry of the round's tried[0..count) at random, marking it; -1 if none.
 * The entries are nodes, or with per_device the devices of the cluster. With locality on (in
 * the task the round names) the draw is weighted (locality_sched.c); otherwise uniform. */
static int pick_untried(nw_node *n, int d, int count, int per_device) {
  steal_dev *sd = sd_of(n, d);
  int untried = count - sd->tried_count;
  if (untried <= 0)
    return -1;
  nw_task_state *t = named_task(n, d);
  if (t && t->loc && t->loc->assigned) {
    int k = nw_locality_pick_victim(n, t, sd->tried, count, per_device);
    sd->tried_count += k >= 0;
    return k;
  }
  int pick = (int)(n->be.ops->random(n->be.be) % (uint64_t)untried);
  for (int k = 0; k < count; k++) {
    if (sd->tried[k])
      continue;
    if (pick-- == 0) {
      sd->tried[k] = 1;
      sd->tried_count++;
      return k;
    }
  }
  return -1;
}

/* The figures a request carries: the stealer's rate and mean data wait on task t. */
static double rate_on(const nw_task_state *t, int d) {
  return t ? nw_pipeline_rate(&t->dev[d]) : 0.0;
}

static double fetch_on(const nw_task_state *t, int d) {
  return t && t->dev[d].fetches ? t->dev[d].fetch_wait_s / (double)t->dev[d].fetches : 0.0;
}

static int may_copy(nw_node *n, int d) {
  return sd_of(n, d)->aggression >= 3 && n->cfg.sched.multi_assign && !nw_pipeline_in_hand(n, d);
}

static void send_request(nw_node *n, int d, int node, int target) {
  steal_dev *sd = sd_of(n, d);
  nw_task_state *t = named_task(n, d);
  n->stats.steals_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_REQ);
  nw_w_u64(&w, t ? t->id : 0);
  nw_w_u32(&w, tag(d, sd->round));
  nw_w_f64(&w, rate_on(t, d));
  nw_w_u8(&w, (uint8_t)sd->aggression);
  nw_w_u32(&w, (uint32_t)(target + 1)); /* 0: the agent chooses */
  nw_w_f64(&w, fetch_on(t, d));
  /* At maximum aggression an idle stealer also accepts a copy of a running subtask (4.3.3). */
  nw_w_u8(&w, (uint8_t)may_copy(n, d));
  nw_w_u8(&w, (uint8_t)n->cfg.device_kind[d]);
  sd->sent_s = n->be.ops->now(n->be.be);
  sd->task = t ? t->id : 0;
  nw_node_send(n, node, NW_CHANNEL_CONTROL, &w, 0);
}

static void accept_copy(nw_node *n, nw_task_state *t, int d, int origin_node, int origin_dev,
                        uint64_t copy) {
  n->stats.steals_succeeded++;
  nw_dev_stats(n, d)->steals_succeeded++;
  nw_node_trace(n, NW_TRACE_STEAL, d, t, copy, -1, 0);
  record_outcome(n, d, 1);
  sd_of(n, d)->backoff_s = 0;
  sd_of(n, d)->last = t->id;
  nw_multiassign_accept(n, t, d, origin_node, origin_dev, copy);
}

/* A steal from this node's own devices, answered without a message. */
static int steal_here(nw_node *n, int d, int target) {
  nw_task_state *named = named_task(n, d);
  n->stats.steals_attempted++;
  n->stats.steals_local_attempted++;
  nw_dev_stats(n, d)->steals_local_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_loot l = {0};
  nw_task_state *from = NULL;
  uint64_t copy = 0;
  int origin_dev = -1;
  /* Multi-assign inside a node only between device types (UNICORN-NOTES): a GPU may copy a
   * straggling CPU subtask of its own node, and the reverse. */
  int got = agent_serve(n, named ? named->id : 0, 0.0, sd_of(n, d)->aggression, target, d,
                        n->cfg.id, d, n->cfg.device_kind[d], may_copy(n, d), fetch_on(named, d), &l,
                        &from, &copy, &origin_dev);
  if (got) {
    n->stats.steals_local_succeeded++;
    nw_dev_stats(n, d)->steals_local_succeeded++;
  }
  if (got == 1)
    got_work(n, from, d, &l);
  else if (got == 2)
    accept_copy(n, from, d, n->cfg.id, origin_dev, copy);
  else
    record_outcome(n, d, 0);
  nw_loot_free(&l);
  return got != 0;
}

/* ---- two-level: this node's agent, then random remote agents */

static void two_level_next(nw_node *n, int d) {
  int node = sd_of(n, d)->tried_count < round_span(n) ? pick_untried(n, d, n->cfg.nodes, 0) : -1;
  if (node < 0)
    end_round(n, d);
  else
    send_request(n, d, node, -1);
}

static void two_level_begin(nw_node *n, int d) {
  steal_dev *sd = sd_of(n, d);
  sd->tried[n->cfg.id] = 1;
  sd->tried_count = 1;
  if (!steal_here(n, d, -1))
    two_level_next(n, d);
}

/* ---- one-level: random devices of the whole cluster, one at a time */

/* One-level asks devices: a round may ask as many as round_span nodes hold, on average. */
static void one_level_next(nw_node *n, int d) {
  int total = total_devices(n);
  int limit = (int)((int64_t)total * round_span(n) / n->cfg.nodes); /* all when span = nodes */
  for (;;) {
    int g = sd_of(n, d)->tried_count < limit ? pick_untried(n, d, total, 1) : -1;
    if (g < 0) {
      end_round(n, d);
      return;
    }
    int node = 0;
    while (g >= n->cfg.devices_per_node[node])
      g -= n->cfg.devices_per_node[node++];
    if (node != n->cfg.id) {
      send_request(n, d, node, g);
      return;
    }
    if (steal_here(n, d, g))
      return;
  }
}

static void one_level_begin(nw_node *n, int d) {
  steal_dev *sd = sd_of(n, d);
  sd->tried[nw_cluster_first_device(n, n->cfg.id) + d] = 1; /* never itself */
  sd->tried_count = 1;
  one_level_next(n, d);
}

typedef struct nw_steal_policy {
  const char *name;
  void (*begin)(nw_node *n, int d); /* device d ran dry */
  void (*next)(nw_node *n, int d);  /* its last request failed */
} nw_steal_policy;

static const nw_steal_policy policies[] = {
    [NW_STEAL_TWO_LEVEL] = {"two-level", two_level_begin, two_level_next},
    [NW_STEAL_ONE_LEVEL] = {"one-level", one_level_begin, one_level_next},
};

static const nw_steal_policy *policy(const nw_node *n) {
  return &policies[n->cfg.sched.steal_policy == NW_STEAL_ONE_LEVEL ? NW_STEAL_ONE_LEVEL
                                                                   : NW_STEAL_TWO_LEVEL];
}

/* Starts a stealing round: device d is dry, or (ProSteal) about to be. With no task running
 * here there is nothing to steal: it waits for one to start. */
void nw_steal_begin(nw_node *n, int d) {
  steal_dev *sd = sd_of(n, d);
  if (!nw_tasks_running(n)) {
    nw_pipeline_retire(n, d);
    return;
  }
  memset(sd->tried, 0, (size_t)((steal_state *)n->sched)->entries);
  sd->tried_count = 0;
  sd->round++;
  if (sd->aggression < 1 || nw_dev_is_gpu(n, d))
    sd->aggression = nw_dev_is_gpu(n, d) ? 3 : 1;
  sd->round_aggression = sd->aggression;
  nw_pipeline_wait_for_work(n, d);
  policy(n)->begin(n, d);
}

/* ProSteal: when what is left of the device's work falls to k, start a stealing round while
 * it still computes, so that new work arrives before it runs dry. k comes from the figures of
 * the task it runs. */
void nw_steal_busy(nw_node *n, int d) {
  const nw_device *v = &n->dev[d];
  steal_dev *sd = sd_of(n, d);
  if (!n->cfg.sched.prosteal || v->asked || sd->prosteal_off || !v->current)
    return;
  const nw_device_slot *slot = &v->current->task->dev[d];
  uint64_t left = nw_queue_length(n, d, NULL) + (v->next ? 1 : 0);
  double wait = slot->steal_answers ? slot->steal_wait_s / (double)slot->steal_answers : 0.0;
  uint64_t k = nw_prosteal_k(slot->range_len, wait, slot->max_fetch_s, nw_pipeline_rate(slot));
  if (k == 0 || left > k)
    return;
  n->stats.prosteal_rounds++;
  nw_steal_begin(n, d);
}

/* Device d ran a subtask of e's task: its requests speak for that task until it gets another. */
void nw_steal_executed(nw_node *n, nw_exec *e) {
  sd_of(n, e->device)->last = e->task->id;
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
  if (r->bad || aggr < 1 || aggr > 4 || target >= n->cfg.devices || kind > NW_DEVICE_GPU ||
      multi > 1) {
    r->bad = 1;
    return;
  }
  nw_loot l = {0};
  nw_task_state *from = NULL;
  uint64_t copy = 0;
  int origin_dev = -1;
  int got = agent_serve(n, task, rs, aggr, target, -1, src, (int)(dev & TAG_DEVICE),
                        (nw_device_kind)kind, multi, fetch_s, &l, &from, &copy, &origin_dev);
  nw_writer w;
  nw_w_init(&w, MSG_STEAL_RESP);
  nw_w_u64(&w, got ? from->id : 0); /* the stealer may start that task after this arrives */
  nw_w_u32(&w, dev);
  nw_w_u32(&w, (uint32_t)l.n);
  for (size_t i = 0; i < l.n; i++) {
    nw_w_u64(&w, l.r[i].first);
    nw_w_u64(&w, l.r[i].last);
  }
  nw_w_u8(&w, (uint8_t)(got == 2));
  nw_w_u64(&w, copy);
  nw_w_u32(&w, (uint32_t)origin_dev);
  /* What was fetched here for what it hands over goes with it (resend.h): the loot's
   * prefetched subtasks', or the copy's original's. */
  const nw_prepared *original = got == 2 ? nw_pipeline_current_of(n, origin_dev, from) : NULL;
  if (got && nw_resend_write(&w, from, l.r, l.n, original) != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
  nw_loot_free(&l);
  nw_node_send(n, src, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_steal_on_response(nw_node *n, int src, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  uint32_t word = nw_r_u32(r), dev = word & TAG_DEVICE, round = word >> TAG_BITS;
  uint32_t count = nw_r_u32(r);
  /* Each range takes 16 bytes: a count the message cannot hold is malformed, and bounds what
   * is allocated for it. */
  if (r->bad || count > (r->len - r->pos) / 16 || dev >= (uint32_t)n->cfg.devices) {
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
  nw_task_state *t = r->bad || !task ? NULL : nw_node_task(n, task);
  nw_resend_read(r, t); /* the victim's fetches for what it hands over */
  if (r->bad || grant > 1 || (count > 0 && (!t || grant))) {
    nw_loot_free(&l); /* loot is work not done: its task runs here (the message waited for it) */
    r->bad = 1;
    return;
  }
  for (size_t i = 0; i < l.n; i++)
    if (l.r[i].first >= l.r[i].last || l.r[i].last > t->info.subtasks) {
      nw_loot_free(&l);
      r->bad = 1;
      return;
    }
  steal_dev *sd = sd_of(n, (int)dev);
  int current = round == (sd->round & TAG_ROUND); /* else an earlier round's: only loot counts */
  nw_task_state *named = current && sd->task ? nw_node_task(n, sd->task) : NULL;
  if (named) { /* the wait counts for the task the request spoke for (ProSteal's k) */
    named->dev[dev].steal_wait_s += n->be.ops->now(n->be.be) - sd->sent_s;
    named->dev[dev].steal_answers++;
  }
  int accepted = current && grant && t && !t->finishing && copy < t->info.subtasks &&
                 !nw_pipeline_in_hand(n, (int)dev);
  if (grant && t && !accepted)
    nw_resend_drop(t, copy); /* runs elsewhere: not fetched here */
  if (accepted)
    accept_copy(n, t, (int)dev, src, origin_dev, copy);
  else if (l.n > 0)
    got_work(n, t, (int)dev, &l);
  else if (current && n->dev[dev].asked) {
    record_outcome(n, (int)dev, 0);
    policy(n)->next(n, (int)dev);
  }
  nw_loot_free(&l);
}
