/* multiassign.c: running a straggling subtask twice (paper section 4.3.3).
 *
 * A stealer at maximum aggression whose steal finds nothing queued may take a copy of a
 * victim's running subtask, if
 *   - it is on another node, or is of another device type (same-type devices of one node are
 *     alike), and the victim is not a GPU (its data is on the device already: UNICORN-NOTES),
 *   - that subtask is the victim's last (nothing queued or prefetched behind it),
 *   - it has no copy yet and is not itself a copy (at most two holders: UNICORN-NOTES),
 *   - the stealer would finish it first (nw_multiassign_worth, steal_rules.h).
 * The victim becomes the original assignee and records where the copy runs; the copy records
 * its original. The protocol of the paper: a holder that finishes tells the original
 * assignee; the original sends the cancellation naming the winner to the others; the
 * finisher commits when the cancellation names it, everyone else discards its private views.
 * The original decides locally when it finishes first. A losing instance that is still
 * computing runs to its end and is discarded then (kernels are not preempted).
 */
#include <stdlib.h>

#include "policy.h"
#include "steal_rules.h"

/* Asks the eligibility rule about every stealer there could be: a device of another node
 * (of any kind), or another device of this one. */
int nw_multiassign_possible(const nw_node *n, int d) {
  if (!n->cfg.sched.multi_assign)
    return 0;
  nw_device_kind victim = n->cfg.device_kind[d];
  if (n->cfg.nodes > 1 && nw_multiassign_eligible(0, NW_DEVICE_CPU, victim, 0, 0, 0))
    return 1;
  for (int e = 0; e < n->cfg.devices; e++)
    if (e != d && nw_multiassign_eligible(1, n->cfg.device_kind[e], victim, 0, 0, 0))
      return 1;
  return 0;
}

int nw_multiassign_offer(nw_node *n, nw_task_state *t, int stealer_node, int stealer_dev,
                         nw_device_kind stealer_kind, double rs, double fetch_s, uint64_t *subtask,
                         int *origin_dev) {
  if (!n->cfg.sched.multi_assign || t->finishing)
    return 0;
  int local = stealer_node == n->cfg.id;
  double now = n->be.ops->now(n->be.be);
  int best = -1;
  double best_left = 0;
  for (int d = 0; d < n->cfg.devices; d++) {
    const nw_device *v = &n->dev[d];
    nw_prepared *p = nw_pipeline_current_of(n, d, t);
    /* The victim's last subtask: nothing of any task queued or prefetched behind it. */
    if (v->state != DEV_EXECUTING || !p || p->lost || (local && d == stealer_dev) ||
        !nw_multiassign_eligible(local, stealer_kind, n->cfg.device_kind[d],
                                 nw_queue_length(n, d, NULL) + (v->next ? 1 : 0), p->copy_node >= 0,
                                 p->origin_node >= 0))
      continue;
    double rv = nw_pipeline_rate(&t->dev[d]), elapsed = now - p->started_s;
    if (!nw_multiassign_worth(rs, fetch_s, rv, elapsed))
      continue;
    double left = rv > 0 ? 1.0 / rv - elapsed : elapsed; /* copy the worst straggler */
    if (best < 0 || left > best_left) {
      best = d;
      best_left = left;
    }
  }
  if (best < 0)
    return 0;
  nw_prepared *p = n->dev[best].current;
  p->copy_node = stealer_node;
  p->copy_dev = stealer_dev;
  n->stats.multi_assigned++;
  nw_dev_stats(n, best)->multi_assigned++;
  nw_node_trace(n, NW_TRACE_MULTI_ASSIGN, best, t, p->subtask, -1, 0);
  *subtask = p->subtask;
  *origin_dev = best;
  return 1;
}

void nw_multiassign_accept(nw_node *n, nw_task_state *t, int d, int origin_node, int origin_dev,
                           uint64_t subtask) {
  nw_prepared *p = nw_pipeline_prepare(n, t, d, subtask, 0); /* the copy runs now: demand */
  if (!p)
    return;
  p->origin_node = origin_node;
  p->origin_dev = origin_dev;
  n->dev[d].current = p; /* the device had nothing in hand */
  nw_pipeline_resume(n, d);
}

static void send_cancel(nw_node *n, int dst, uint64_t task, uint64_t subtask, int winner_node,
                        int winner_dev) {
  nw_writer w;
  nw_w_init(&w, MSG_COPY_CANCEL);
  nw_w_u64(&w, task);
  nw_w_u64(&w, subtask);
  nw_w_u32(&w, (uint32_t)winner_node);
  nw_w_u32(&w, (uint32_t)winner_dev);
  nw_node_send(n, dst, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_multiassign_original_won(nw_node *n, nw_task_state *t, nw_prepared *p) {
  send_cancel(n, p->copy_node, t->id, p->subtask, n->cfg.id, -1);
}

void nw_multiassign_copy_finished(nw_node *n, nw_task_state *t, nw_exec *e) {
  if (t->nparked == t->capparked) {
    size_t cap = t->capparked ? 2 * t->capparked : 4;
    nw_exec **a = realloc(t->parked, cap * sizeof *a);
    if (!a) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      nw_exec_discard(n, e);
      return;
    }
    t->parked = a;
    t->capparked = cap;
  }
  t->parked[t->nparked++] = e;
  nw_writer w;
  nw_w_init(&w, MSG_COPY_FINISHED);
  nw_w_u64(&w, t->id);
  nw_w_u64(&w, e->subtask);
  nw_w_u32(&w, (uint32_t)e->prep->origin_dev);
  nw_w_u32(&w, (uint32_t)e->device);
  nw_node_send(n, e->prep->origin_node, NW_CHANNEL_CONTROL, &w, 0);
}

/* At the original assignee: a copy finished. If the original still runs, the copy wins. */
void nw_multiassign_on_finished(nw_node *n, int src, nw_reader *r) {
  uint64_t task = nw_r_u64(r), subtask = nw_r_u64(r);
  uint32_t origin_dev = nw_r_u32(r), copy_dev = nw_r_u32(r);
  if (r->bad)
    return;
  nw_task_state *t = nw_node_task(n, task);
  if (!t || t->finishing || origin_dev >= (uint32_t)n->cfg.devices)
    return; /* the original won already and said so */
  nw_prepared *p = nw_pipeline_current_of(n, (int)origin_dev, t);
  if (!p || p->subtask != subtask || p->copy_node != src || p->lost)
    return;
  p->lost = 1; /* discarded when it ends */
  n->stats.cancelled++;
  nw_dev_stats(n, (int)origin_dev)->cancelled++;
  nw_node_trace(n, NW_TRACE_CANCEL, (int)origin_dev, t, subtask, -1, 0);
  send_cancel(n, src, task, subtask, src, (int)copy_dev);
}

/* Device d's copy (its current subtask) lost: drop it if it has not started, else discard it
 * when its kernel ends. Returns 1 when the device is free again. */
static int lose_copy(nw_node *n, nw_task_state *t, int d) {
  nw_device *v = &n->dev[d];
  n->stats.cancelled++;
  nw_dev_stats(n, d)->cancelled++;
  nw_node_trace(n, NW_TRACE_CANCEL, d, t, v->current ? v->current->subtask : 0, -1, 0);
  if (v->state == DEV_EXECUTING) {
    v->current->lost = 1;
    return 0;
  }
  nw_prepared *p = v->current;
  v->current = NULL;
  v->state = DEV_IDLE;
  nw_pipeline_drop_prepared(n, d, p);
  return 1;
}

static nw_exec *unpark(nw_task_state *t, uint64_t subtask) {
  for (size_t i = 0; i < t->nparked; i++)
    if (t->parked[i]->subtask == subtask) {
      nw_exec *e = t->parked[i];
      t->parked[i] = t->parked[--t->nparked];
      return e;
    }
  return NULL;
}

/* At a copy's node: the verdict. Commit if it names us, else discard. */
void nw_multiassign_on_cancel(nw_node *n, nw_reader *r) {
  uint64_t task = nw_r_u64(r), subtask = nw_r_u64(r);
  int winner_node = (int)nw_r_u32(r), winner_dev = (int)nw_r_u32(r);
  if (r->bad)
    return;
  nw_task_state *t = nw_node_task(n, task);
  if (!t || t->finishing)
    return;
  nw_exec *e = unpark(t, subtask);
  if (e) {
    if (winner_node == n->cfg.id && winner_dev == e->device) {
      n->stats.multi_assign_wins++;
      nw_dev_stats(n, e->device)->multi_assign_wins++;
      nw_pipeline_commit_result(n, t, e); /* last: may free t */
    } else {
      n->stats.cancelled++;
      nw_dev_stats(n, e->device)->cancelled++;
      nw_node_trace(n, NW_TRACE_CANCEL, e->device, t, e->subtask, -1, 0);
      nw_exec_discard(n, e);
    }
    return;
  }
  /* The copy has not finished. */
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_prepared *p = nw_pipeline_current_of(n, d, t);
    if (p && p->subtask == subtask && p->origin_node >= 0) {
      if (lose_copy(n, t, d))
        nw_pipeline_advance(n, d);
      return;
    }
  }
}

/* The task ended here: every subtask is committed somewhere, so each copy still waiting for
 * a verdict, for its data, or for its kernel to end has lost. */
void nw_multiassign_task_ended(nw_node *n, nw_task_state *t) {
  for (size_t i = 0; i < t->nparked; i++) {
    n->stats.cancelled++;
    nw_dev_stats(n, t->parked[i]->device)->cancelled++;
    nw_exec_discard(n, t->parked[i]);
  }
  t->nparked = 0;
  for (int d = 0; d < n->cfg.devices; d++) {
    nw_prepared *p = nw_pipeline_current_of(n, d, t);
    if (p && p->origin_node >= 0 && !p->lost && lose_copy(n, t, d))
      nw_pipeline_advance(n, d); /* the device goes on with other tasks' work */
  }
}
