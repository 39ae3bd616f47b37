/* unicorn.c: Unicorn's scheduler as a policy (the default, --sched unicorn).
 *
 * Paper section 4.3: a task starts with an equal share of contiguous subtask ids per device of
 * the cluster (or, with --locality on, the locality-aware assignment of 4.3.4,
 * locality_sched.c); a device that runs dry steals (steal.c: two-level or one-level, with
 * aggression), or steals before it runs dry (ProSteal, 4.3.2); an idle device at maximum
 * aggression may run a copy of a straggling subtask (multi-assign, 4.3.3, multiassign.c).
 * Tasks running at once share the devices: each task's ranges start past those of the tasks
 * already running, a device runs its queue in task order, and a device with nothing left of
 * any task steals from any running task (steal.c). This file only connects those parts to the
 * policy table.
 */
#include "policy.h"

/* Device g of the cluster gets [g*S/total, (g+1)*S/total): equal contiguous ranges. Counted
 * from the device after the ranges of the tasks already running (deal_offset), so that with
 * fewer subtasks than devices, tasks running at once start on different devices. */
static void deal_equal(nw_node *n, nw_task_state *t) {
  uint64_t total = 0, before = 0;
  for (int k = 0; k < n->cfg.nodes; k++) {
    if (k == n->cfg.id)
      before = total;
    total += (uint64_t)n->cfg.devices_per_node[k];
  }
  for (int d = 0; d < n->cfg.devices; d++) {
    uint64_t g = (before + (uint64_t)d + total - t->deal_offset % total) % total;
    uint64_t s = t->info.subtasks;
    nw_range r = {g * s / total, (g + 1) * s / total};
    t->dev[d].range_len = r.last - r.first;
    if (nw_queue_push(n, d, t, r) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  }
  nw_pipeline_go(n, t);
}

static int uses_affinity(const nw_node *n) {
  return n->cfg.sched.locality;
}

static void task_start(nw_node *n, nw_task_state *t) {
  nw_steal_task_started(n, t);
  if (n->cfg.sched.locality)
    nw_locality_start(n, t, NULL);
  else
    deal_equal(n, t);
}

/* A copy (paper 4.3.3) goes to its original's node, which decides who commits; an original
 * that finished before its copy wins and cancels the copy. */
static int take_result(nw_node *n, nw_exec *e) {
  nw_task_state *t = e->task;
  nw_prepared *p = e->prep;
  if (p->origin_node >= 0) {
    nw_multiassign_copy_finished(n, t, e);
    return 1;
  }
  if (p->copy_node >= 0)
    nw_multiassign_original_won(n, t, p);
  return 0;
}

static void on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  switch (type) {
  case MSG_STEAL_REQ:
    nw_steal_on_request(n, src, r);
    break;
  case MSG_STEAL_RESP:
    nw_steal_on_response(n, src, r);
    break;
  case MSG_COPY_FINISHED:
    nw_multiassign_on_finished(n, src, r);
    break;
  case MSG_COPY_CANCEL:
    nw_multiassign_on_cancel(n, r);
    break;
  case MSG_LOC_VECTOR:
    nw_locality_on_vector(n, src, r);
    break;
  case MSG_LOC_ASSIGN:
    nw_locality_on_assign(n, src, r);
    break;
  default:
    r->bad = 1;
  }
}

static void task_end(nw_node *n, nw_task_state *t) {
  nw_multiassign_task_ended(n, t);
  nw_steal_task_ended(n, t);
}

const nw_policy nw_policy_unicorn = {
    .name = "unicorn",
    .summary = "Unicorn: equal contiguous ranges, work stealing, ProSteal, multi-assign, locality",
    .uses_affinity = uses_affinity,
    .init = nw_steal_init,
    .fini = nw_steal_fini,
    .task_start = task_start,
    .dry = nw_steal_begin,
    .busy = nw_steal_busy,
    .executed = nw_steal_executed,
    .take_result = take_result,
    .may_run_twice = nw_multiassign_possible,
    .task_end = task_end,
    .on_message = on_message,
    .on_timer = nw_steal_on_timer,
};
