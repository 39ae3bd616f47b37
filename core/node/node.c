/* node.c: a node's life: creation, the one event handler, sending, failure, the end.
 *
 * nw_node_handle() is the only entry point that changes a node; it decodes the event and hands
 * it to the file that owns the concept (space.c, task.c, pipeline.c, steal.c, driver.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata.h"
#include "policy.h"

static void handle_message(nw_node *n, int src, void *buf, size_t len);

nw_status nw_node_create(const nw_node_config *cfg, nw_backend backend, nw_node **out) {
  if (cfg->nodes < 1 || cfg->nodes > NW_MAX_NODES || cfg->id < 0 || cfg->id >= cfg->nodes)
    return NW_ERR_ARG;
  if (cfg->devices < 1 || cfg->devices > NW_MAX_DEVICES_PER_NODE || cfg->gpus < 0 ||
      cfg->gpus > NW_MAX_GPUS_PER_NODE || (cfg->gpus > 0 && !backend.ops->copy))
    return NW_ERR_ARG;
  for (int d = 0; d < cfg->devices; d++)
    if ((cfg->device_kind[d] == NW_DEVICE_GPU &&
         (cfg->device_gpu[d] < 0 || cfg->device_gpu[d] >= cfg->gpus)) ||
        cfg->device_cores[d] < 0 || cfg->device_cores[d] > NW_MAX_WORKGROUP_CORES)
      return NW_ERR_ARG;
  const nw_policy *policy = cfg->sched.policy[0] ? nw_policy_find(cfg->sched.policy) : NULL;
  if (cfg->sched.policy[0] && !policy)
    return NW_ERR_ARG;
  nw_node *n = calloc(1, sizeof *n);
  if (!n)
    return NW_ERR_NOMEM;
  n->cfg = *cfg;
  n->views.sizes_only = !cfg->functional; /* phantom data: which views are new, no bytes */
  n->hooks = (nw_node_hooks){.subtask_committed = nw_task_subtask_committed,
                             .exec_returned = nw_task_exec_returned,
                             .task_complete = nw_driver_task_complete,
                             .recovered = nw_driver_recovered,
                             .replay = handle_message};
  n->policy = policy ? policy : &nw_policy_unicorn;
  n->be = backend;
  n->stats.devices = cfg->devices;
  n->trace.on = cfg->trace;
  n->stats.net_bandwidth = cfg->net_bandwidth;
  n->stats.net_latency = cfg->net_latency;
  n->stats.pcie_bandwidth = cfg->pcie_bandwidth;
  n->stats.pcie_latency = cfg->pcie_latency;
  n->next_space_id = 1;
  n->next_task_id = 1;
  for (int d = 0; d < cfg->devices && d < NW_STATS_MAX_DEVICES; d++) {
    n->stats.device[d].kind = cfg->device_kind[d];
    if (cfg->device_kind[d] == NW_DEVICE_CPU)
      n->stats.device[d].cores = cfg->device_cores[d] > 1 ? cfg->device_cores[d] : 1;
  }
  if (nw_gpu_init(n) != NW_OK || nw_recover_init(n) != NW_OK || nw_pipeline_init(n) != NW_OK ||
      (n->policy->init && n->policy->init(n) != NW_OK)) {
    nw_pipeline_free(n);
    nw_recover_free(n);
    nw_gpu_free(n);
    free(n);
    return NW_ERR_NOMEM;
  }
  *out = n;
  return NW_OK;
}

void nw_node_destroy(nw_node *n) {
  if (!n)
    return;
  if (n->policy->fini)
    n->policy->fini(n);
  nw_pipeline_free(n); /* before the tasks its devices may still hold subtasks of */
  nw_idmap_free(&n->task_ids);
  nw_task_state *lists[2] = {n->tasks, n->zombies};
  for (int i = 0; i < 2; i++)
    while (lists[i]) {
      nw_task_state *t = lists[i];
      lists[i] = t->next;
      nw_task_free(t);
    }
  nw_perf_free(n);
  while (n->stash) {
    nw_stashed *s = n->stash;
    n->stash = s->next;
    free(s->buf);
    free(s);
  }
  nw_graph_clear(n, NULL, NULL);
  free(n->spawn_due);
  nw_space_free_all(n);
  nw_bufpool_free(&n->views);
  nw_gpu_free(n);
  nw_trace_free(&n->trace);
  nw_recover_free(n);
  free(n);
}

int nw_node_finished(const nw_node *n) {
  return n->ended;
}

const nw_stats *nw_node_stats(const nw_node *n) {
  return &n->stats;
}

const nw_trace *nw_node_trace_records(const nw_node *n) {
  return &n->trace;
}

/* A message for a task this node has not started yet waits for the task's start: the backends
 * promise no order between different senders. */
static int stash_if_early(nw_node *n, uint64_t task, int src, void *buf, size_t len) {
  if (task <= n->last_started_task)
    return 0;
  nw_stashed *s = malloc(sizeof *s);
  if (!s) {
    free(buf);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return 1;
  }
  *s = (nw_stashed){.task = task, .src = src, .buf = buf, .len = len, .next = n->stash};
  n->stash = s;
  return 1;
}

static void handle_admitted(nw_node *n, int src, void *buf, size_t len);

/* Replays, oldest first, the messages stashed for tasks that have now started. */
static void replay_stash(nw_node *n) {
  nw_stashed *ready = NULL, **p = &n->stash;
  while (*p) {
    nw_stashed *s = *p;
    if (s->task <= n->last_started_task) {
      *p = s->next;
      s->next = ready;
      ready = s;
    } else {
      p = &s->next;
    }
  }
  while (ready) {
    nw_stashed *s = ready;
    ready = s->next;
    handle_admitted(n, s->src, s->buf, s->len);
    free(s);
  }
}

/* Messages that belong to a task carry its id right after the type byte (0 in a policy's
 * message about no task in particular). A steal's answer carries the task its loot is of, which
 * the stealer may not have started yet. */
static int task_scoped(nw_msg_type t) {
  return t == MSG_SUBTASK_DONE || t == MSG_TASK_FINISH || t == MSG_OWN_UPDATE ||
         t == MSG_OWN_PREV || t == MSG_OWN_PREV_ACK || t == MSG_MASTER_DONE ||
         t == MSG_LOC_VECTOR || t == MSG_LOC_ASSIGN || t == MSG_POLICY || t == MSG_REDUCE ||
         t == MSG_STEAL_RESP;
}

/* --trace: takes the sender's stamp (nw_node_send) off the end of a message and records the
 * message's span, from that stamp to now. */
static void trace_message(nw_node *n, int src, const unsigned char *buf, size_t *len) {
  if (*len <= 8)
    return;
  double now = n->be.ops->now(n->be.be);
  *len -= 8;
  nw_reader r;
  nw_r_init(&r, buf + *len, 8);
  double sent = nw_r_f64(&r);
  nw_r_init(&r, buf, *len);
  uint64_t type = nw_r_u8(&r), task = 0;
  if (task_scoped((nw_msg_type)type) || type == MSG_TASK_START)
    task = nw_r_u64(&r);
  nw_trace_rec rec = {.start_s = sent < now ? sent : now, /* clocks agree to a barrier's skew */
                      .end_s = now,
                      .task = r.bad ? 0 : task,
                      .subtask = type,
                      .node = nw_node_home(n),
                      .device = n->members ? nw_recover_backend_id(n, src) : src,
                      .kind = NW_TRACE_MESSAGE,
                      .task_kind = -1,
                      .bytes = *len};
  nw_trace_add(&n->trace, &rec);
}

/* A message as it arrived from the backend: in resilient runs its epoch and sender are checked
 * and its epoch taken off (recover.c); src becomes the sender's logical id. */
static void handle_message(nw_node *n, int src, void *buf, size_t len) {
  if (n->members && !nw_recover_admit(n, &src, buf, &len))
    return; /* dropped, or held for the end of a recovery */
  if (n->trace.on)
    trace_message(n, src, buf, &len);
  handle_admitted(n, src, buf, len);
}

static void handle_admitted(nw_node *n, int src, void *buf, size_t len) {
  nw_reader r;
  nw_r_init(&r, buf, len);
  nw_msg_type type = (nw_msg_type)nw_r_u8(&r);
  uint64_t space;
  if (task_scoped(type)) {
    nw_reader peek = r;
    uint64_t task = nw_r_u64(&peek);
    if (!peek.bad && stash_if_early(n, task, src, buf, len))
      return;
  } else if (type == MSG_TASK_START) {
    /* Tasks start here in their order: node 0 may complete a task that writes nothing
     * without this node and start the next, whose start can then overtake the earlier one's.
     * Started out of order, the earlier start would move last_started_task back, and the
     * later task's messages would wait in the stash for ever (found by the random-program
     * test on the loop backend). So task k's start waits until task k - 1 has started. */
    nw_reader peek = r;
    uint64_t task = nw_r_u64(&peek);
    if (!peek.bad && task > 0 && stash_if_early(n, task - 1, src, buf, len))
      return;
  }
  switch (type) {
  case MSG_TASK_START:
    nw_task_on_start(n, src, &r);
    break;
  case MSG_SUBTASK_DONE:
    nw_task_on_subtask_done(n, &r);
    break;
  case MSG_TASK_FINISH:
    nw_task_on_finish(n, &r);
    break;
  case MSG_OWN_UPDATE:
    nw_task_on_update(n, src, &r);
    break;
  case MSG_OWN_PREV:
    nw_task_on_prev(n, src, &r);
    break;
  case MSG_OWN_PREV_ACK:
    nw_task_on_prev_ack(n, &r);
    break;
  case MSG_MASTER_DONE:
    nw_task_on_master_done(n, &r);
    break;
  case MSG_FETCH:
    nw_space_on_fetch(n, &r);
    break;
  case MSG_DATA:
    if (nw_space_on_data(n, src, &r)) { /* waiting subtasks and driver reads go on */
      nw_pipeline_data_arrived(n);
      nw_driver_read_progress(n);
    }
    break;
  case MSG_PLACE:
    nw_space_on_place(n, src, &r);
    break;
  case MSG_PLACE_DIR:
    nw_space_on_place_dir(n, src, &r);
    break;
  case MSG_CLAIM:
    if ((space = nw_space_on_claim(n, src, &r)) != 0)
      nw_gpu_space_written(n, space); /* the driver rewrote bytes GPUs may cache */
    break;
  case MSG_PLACE_ACK:
    nw_driver_on_place_ack(n);
    break;
  case MSG_FAIL: {
    nw_status st = nw_r_u8(&r) == 1 ? NW_ERR_ARG : NW_ERR_INTERNAL;
    size_t text = len > 2 ? len - 2 : 0;
    const unsigned char *s = text ? nw_r_bytes(&r, text) : NULL;
    if (s && memchr(s, 0, text))
      (st == NW_ERR_ARG ? nw_node_fail_input : nw_node_fail)(n, "%s", (const char *)s);
    else
      nw_node_fail(n, "node %d: malformed failure report", src);
    break;
  }
  case MSG_END:
    n->ended = 1;
    break;
  case MSG_PERF_SAMPLES:
    nw_perf_on_samples(n, src, &r);
    break;
  case MSG_REDUCE:
    nw_task_on_reduce(n, src, &r);
    break;
  case MSG_BACKUP: /* these four: resilient runs only; recover.c refuses them otherwise */
    nw_recover_on_backup(n, &r);
    break;
  case MSG_RECOVER:
    nw_recover_on_recover(n, &r);
    break;
  case MSG_RECOVER_READY:
    nw_recover_on_ready(n, src, &r);
    break;
  case MSG_RECOVER_DONE:
    nw_recover_on_done(n, &r);
    break;
  default:
    if (nw_msg_is_policy(type) && n->policy->on_message)
      n->policy->on_message(n, src, type, &r);
    else
      r.bad = 1;
  }
  if (r.bad)
    nw_node_fail(n, "node %d: malformed message of type %d from node %d", n->cfg.id, (int)type,
                 src);
  free(buf);
  if (type == MSG_TASK_START && n->stash)
    replay_stash(n);
}

/* Timers belong to the policy, which reads its own tokens. */
static void on_timer(nw_node *n, uint64_t token) {
  if (n->policy->on_timer)
    n->policy->on_timer(n, token);
}

/* A node stopped (core/node/faults.h; `node` is the backend's id). A resilient run recovers
 * (recover.c), led by node 0. Otherwise its subtasks' results, not yet checked in, and the
 * bytes it owned are gone: node 0 ends the run with one line, the others leave that to it.
 * Node 0 hears of its own loss only so that the driver's run ends with the reason. */
static void on_node_lost(nw_node *n, int node, double at_s) {
  if (n->cfg.id != 0)
    return;
  if (node != 0 && n->members) {
    nw_recover_on_lost(n, node, at_s);
    return;
  }
  if (node == 0)
    nw_node_fail(n, "node 0, the driver's, was lost at %.6g s: the run cannot go on without it",
                 at_s);
  else
    nw_node_fail(n,
                 "node %d was lost at %.6g s (noticed at %.6g s): the run is lost, since it was "
                 "not set up to survive one (nw_node_config.resilient)",
                 node, at_s, n->be.ops->now(n->be.be));
}

void nw_node_handle(nw_node *n, nw_event *ev) {
  n->stats.events_handled++;
  switch (ev->kind) {
  case NW_EVENT_MESSAGE:
    handle_message(n, ev->src, ev->buf, ev->len);
    break;
  case NW_EVENT_EXEC_DONE: /* the model measures the kernel, then the pipeline goes on */
    nw_perf_observe(n, ev->exec,
                    ev->kernel_s > 0 ? ev->kernel_s
                                     : n->be.ops->now(n->be.be) - ev->exec->started_s);
    nw_pipeline_on_exec_done(n, ev->exec);
    break;
  case NW_EVENT_TIMER:
    on_timer(n, ev->token);
    break;
  case NW_EVENT_DRIVER:
    nw_driver_on_call(n, ev->call);
    break;
  case NW_EVENT_COPY_DONE:
    nw_pipeline_copy_done(n, ev->copy);
    break;
  case NW_EVENT_NODE_LOST:
    on_node_lost(n, ev->src, ev->at_s);
    break;
  }
}
