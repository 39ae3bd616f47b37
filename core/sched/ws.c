/* ws.c: StarPU's work stealing (--sched ws) and locality work stealing (--sched lws).
 *
 * "StarPU: a Runtime System for Scheduling Tasks over Accelerator-Based Multicore Machines"
 * (Augonnet, Thibault, Namyst; INRIA research report RR-7240), section 5: ws keeps
 * one queue per worker and, in its pop, a worker whose queue is empty steals from another's
 * (Cilk-like). Here, over a cluster and across tasks:
 *   push: subtask s of a task goes to device (o + s) mod D of the cluster, D its device count
 *     and o the task's deal offset (the subtasks of the tasks running when it started:
 *     nw_task_state.deal_offset, the same on every node): StarPU's ws pushes round robin when
 *     the submitter is not a worker, as Narwhal's driver is not, and the round robin goes on
 *     from task to task instead of starting every task on device 0;
 *   pop: a dry device (nothing queued of any task) steals ONE subtask, of any task, from the
 *     tail of the victim's queue (StarPU's ws pops one task from its victim), never what the
 *     victim has in hand or has prefetched. Its own node's devices come first (no message),
 *     then other nodes' through a request/answer.
 * ws visits victims round robin: its node's devices in index order after itself, then nodes
 * id+1, id+2, ... (wrapping), each device of each. lws (StarPU's lws: local first, the most
 * loaded first) asks its node's most loaded device first, then each other node once, whose
 * answer comes from that node's most loaded device (one empty answer means all are empty).
 * A device whose every victim failed in a row retires until a task starts: work appears only
 * then.
 *
 * Messages (MSG_POLICY, control channel): task id (0 in a request or an empty answer; the
 * loot's task in an answer with work, so that it waits at the stealer for that task's start),
 * subtype, then
 *   WS_REQUEST: stealer's device with its round above it (u32: TAG_BITS of device, then the
 *     round, so that an answer to an abandoned round is known), victim device on the
 *     receiving node (u32; ANY_DEVICE: its most loaded one);
 *   WS_ANSWER:  the request's device word (u32), 0 or 1 (u8), the subtask (u64) when 1.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"

enum { WS_REQUEST = 1, WS_ANSWER = 2 };
#define ANY_DEVICE 0xffffffffu
#define TAG_BITS 10
#define TAG_DEVICE ((1u << TAG_BITS) - 1)
#define TAG_ROUND ((1u << (32 - TAG_BITS)) - 1)
_Static_assert(NW_MAX_DEVICES_PER_NODE <= (1 << TAG_BITS), "device index fits its field");

/* Per local device: its stealing round (which local devices it tried, how many victims). */
typedef struct ws_state {
  unsigned char *tried; /* [d * devices + v] */
  int *asked;           /* victims asked in this round */
  uint32_t *round;      /* rounds begun: an answer to an earlier round's request is stale */
} ws_state;

static ws_state *state_of(nw_node *n) {
  return n->sched;
}

static nw_status init(nw_node *n) {
  size_t devs = (size_t)n->cfg.devices;
  ws_state *w = calloc(1, sizeof *w);
  if (w && (!(w->tried = calloc(devs * devs, 1)) || !(w->asked = calloc(devs, sizeof(int))) ||
            !(w->round = calloc(devs, sizeof(uint32_t))))) {
    free(w->tried);
    free(w->asked);
    free(w);
    w = NULL;
  }
  n->sched = w;
  return w ? NW_OK : NW_ERR_NOMEM;
}

static void fini(nw_node *n) {
  ws_state *w = state_of(n);
  if (w) {
    free(w->tried);
    free(w->asked);
    free(w->round);
  }
  free(w);
  n->sched = NULL;
}

/* What sets lws apart from ws (nw_policy.variant): the order of a round's victims. */
typedef struct ws_variant {
  int by_load; /* the most loaded local device first, then each other node once */
} ws_variant;

static int ordered_by_load(const nw_node *n) {
  return ((const ws_variant *)n->policy->variant)->by_load;
}

/* How many victims a round asks: each other device (ws), or each other local device and each
 * other node (lws). */
static int round_length(const nw_node *n) {
  int local = n->cfg.devices - 1;
  return local + (ordered_by_load(n) ? n->cfg.nodes - 1 : nw_cluster_devices(n) - n->cfg.devices);
}

/* Push: every node deals its devices' share of the round robin, one range per subtask. An idle
 * device in the middle of a round asked about the work there was: it begins a new round for
 * the new work (nw_pipeline_go offers it to dry again), and what its old round still awaits
 * comes back stale (a stolen subtask taken, an empty answer ignored). */
static void task_start(nw_node *n, nw_task_state *t) {
  for (int d = 0; d < n->cfg.devices; d++)
    if (!nw_pipeline_in_hand(n, d) && n->dev[d].asked) {
      state_of(n)->round[d]++;
      nw_pipeline_retire(n, d);
    }
  uint64_t total = (uint64_t)nw_cluster_devices(n);
  uint64_t first = (uint64_t)nw_cluster_first_device(n, n->cfg.id);
  uint64_t offset = t->deal_offset % total;
  for (int d = 0; d < n->cfg.devices; d++) {
    uint64_t g = first + (uint64_t)d; /* subtasks s with (offset + s) mod total == g */
    for (uint64_t s = (g + total - offset) % total; s < t->info.subtasks; s += total) {
      t->dev[d].range_len++;
      if (nw_queue_push(n, d, t, (nw_range){s, s + 1}) != NW_OK) {
        nw_node_fail(n, "node %d: out of memory", n->cfg.id);
        return;
      }
    }
  }
  nw_pipeline_go(n, t);
}

/* The task ends here: with no other task running no work is left anywhere, so every round
 * stops (its answers come back stale). */
static void task_end(nw_node *n, nw_task_state *t) {
  (void)t; /* finishing already */
  if (nw_tasks_running(n))
    return;
  for (int d = 0; d < n->cfg.devices; d++)
    if (n->dev[d].asked) {
      state_of(n)->round[d]++;
      nw_pipeline_retire(n, d);
    }
}

/* The local device with the most queued subtasks among those not yet tried in this round (lws),
 * marking it tried; -1 when none is left. */
static int most_loaded_untried(const nw_node *n, unsigned char *tried) {
  int best = -1;
  uint64_t most = 0;
  for (int v = 0; v < n->cfg.devices; v++) {
    uint64_t q = nw_queue_length(n, v, NULL);
    if (!tried[v] && (best < 0 || q > most)) {
      best = v;
      most = q;
    }
  }
  return best;
}

/* The local device with the most queued subtasks (lws's victim on a node); -1 if none has any. */
static int most_loaded(const nw_node *n) {
  int best = -1;
  uint64_t most = 0;
  for (int v = 0; v < n->cfg.devices; v++) {
    uint64_t q = nw_queue_length(n, v, NULL);
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
    int count = ordered_by_load(n) ? 1 : n->cfg.devices_per_node[node];
    if (k < count) {
      *dev = ordered_by_load(n) ? ANY_DEVICE : (uint32_t)k;
      return node;
    }
    k -= count;
  }
  return -1;
}

/* Takes one subtask from the tail of local device v's queue for device d. */
static int steal_local(nw_node *n, int d, int v) {
  n->stats.steals_attempted++;
  n->stats.steals_local_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_dev_stats(n, d)->steals_local_attempted++;
  nw_range r;
  nw_task_state *t;
  if (v < 0 || v == d || nw_queue_take_tail(n, v, NULL, 1, &t, &r) == 0)
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
static int local_victim(nw_node *n, int d, int k) {
  if (!ordered_by_load(n))
    return (d + 1 + k) % n->cfg.devices;
  unsigned char *tried = state_of(n)->tried + (size_t)d * (size_t)n->cfg.devices;
  tried[d] = 1;
  int v = most_loaded_untried(n, tried);
  if (v >= 0)
    tried[v] = 1;
  return v;
}

static void send_request(nw_node *n, int d, int node, uint32_t victim) {
  n->stats.steals_attempted++;
  nw_dev_stats(n, d)->steals_attempted++;
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, 0);
  nw_w_u8(&w, WS_REQUEST);
  nw_w_u32(&w, (uint32_t)d | (state_of(n)->round[d] & TAG_ROUND) << TAG_BITS);
  nw_w_u32(&w, victim);
  nw_pipeline_wait_for_work(n, d);
  nw_node_send(n, node, NW_CHANNEL_CONTROL, &w, 0);
}

/* Asks the round's next victims until one gives work, a request goes out, or every victim
 * has failed (the device retires until a task starts). */
static void next_victim(nw_node *n, int d) {
  int *asked = &state_of(n)->asked[d];
  int local = n->cfg.devices - 1, length = round_length(n);
  while (*asked < length) {
    int k = (*asked)++;
    if (k < local) {
      if (steal_local(n, d, local_victim(n, d, k)))
        return;
      continue;
    }
    uint32_t dev;
    int node = remote_victim(n, k - local, &dev);
    if (node >= 0) {
      send_request(n, d, node, dev);
      return;
    }
  }
  nw_pipeline_retire(n, d);
}

/* StarPU's pop for an idle worker: a new round of victims, local ones first (none while no
 * task runs here: nothing can be stolen until one starts). */
static void dry(nw_node *n, int d) {
  ws_state *w = state_of(n);
  if (!nw_tasks_running(n)) {
    nw_pipeline_retire(n, d);
    return;
  }
  memset(w->tried + (size_t)d * (size_t)n->cfg.devices, 0, (size_t)n->cfg.devices);
  w->asked[d] = 0;
  w->round[d]++;
  next_victim(n, d);
}

static void answer(nw_node *n, int dst, uint32_t dev, nw_task_state *t, const nw_range *r) {
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, r ? t->id : 0);
  nw_w_u8(&w, WS_ANSWER);
  nw_w_u32(&w, dev);
  nw_w_u8(&w, r != NULL);
  if (r)
    nw_w_u64(&w, r->first);
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

static void on_request(nw_node *n, int src, nw_reader *r) {
  uint32_t dev = nw_r_u32(r); /* the stealer's device and round, echoed */
  uint32_t victim = nw_r_u32(r);
  if (r->bad || (victim != ANY_DEVICE && victim >= (uint32_t)n->cfg.devices)) {
    r->bad = 1;
    return;
  }
  int v = victim == ANY_DEVICE ? most_loaded(n) : (int)victim;
  nw_range got;
  nw_task_state *t = NULL;
  int ok = v >= 0 && nw_queue_take_tail(n, v, NULL, 1, &t, &got) == 1;
  answer(n, src, dev, t, ok ? &got : NULL);
}

static void on_answer(nw_node *n, uint64_t task, nw_reader *r) {
  uint32_t word = nw_r_u32(r), dev = word & TAG_DEVICE, round = word >> TAG_BITS;
  uint8_t has = nw_r_u8(r);
  uint64_t s = has ? nw_r_u64(r) : 0;
  nw_task_state *t = has ? nw_node_task(n, task) : NULL;
  if (r->bad || has > 1 || dev >= (uint32_t)n->cfg.devices ||
      (has && (!t || s >= t->info.subtasks))) {
    r->bad = 1; /* stolen work is not done: its task still runs here */
    return;
  }
  if (has) { /* given even if the device stopped waiting, so that the subtask is never lost */
    n->stats.steals_succeeded++;
    nw_dev_stats(n, (int)dev)->steals_succeeded++;
    nw_node_trace(n, NW_TRACE_STEAL, (int)dev, t, 0, -1, 0);
    t->dev[dev].range_len = 1;
    nw_pipeline_give(n, t, (int)dev, (nw_range){s, s + 1});
  } else if (n->dev[dev].asked && round == (state_of(n)->round[dev] & TAG_ROUND)) {
    next_victim(n, (int)dev);
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
    on_request(n, src, r);
  else if (sub == WS_ANSWER)
    on_answer(n, task, r);
  else
    r->bad = 1;
}

static const ws_variant round_robin = {0}, by_load = {.by_load = 1};

const nw_policy nw_policy_ws = {
    .name = "ws",
    .summary = "StarPU's ws: round-robin push, dry devices steal one subtask, local first",
    .variant = &round_robin,
    .init = init,
    .fini = fini,
    .task_start = task_start,
    .dry = dry,
    .task_end = task_end,
    .on_message = on_message,
};

const nw_policy nw_policy_lws = {
    .name = "lws",
    .summary = "StarPU's lws: like ws, stealing from the most loaded device, local first",
    .variant = &by_load,
    .init = init,
    .fini = fini,
    .task_start = task_start,
    .dry = dry,
    .task_end = task_end,
    .on_message = on_message,
};
