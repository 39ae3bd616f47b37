/* node_services.c: the node's services to every layer: fail the run, send a message, record a
 * trace event, find a task by id, and the membership's id maps a message's address needs. They
 * live in the bottom layer so that every layer may call them, and they call only down (the
 * wire, the id maps, the trace's records, the backend's ops); the one thing a failure must tell
 * the layers above (node 0 ends the run) goes through the hook the node installed
 * (n->hooks.task_complete, node_state.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "node_state.h"

/* ---- the membership's id maps (recover.c keeps the membership; a run that is not resilient
 * has none, and every id is its own) */

int nw_node_home(const nw_node *n) {
  return n->members ? n->members->home : n->cfg.id;
}

int nw_recover_backend_id(const nw_node *n, int logical) {
  return n->members ? n->members->to_backend[logical] : logical;
}

int nw_recover_logical_id(const nw_node *n, int backend) {
  const nw_membership *m = n->members;
  if (!m)
    return backend;
  return backend >= 0 && backend < m->original_nodes ? m->to_logical[backend] : -1;
}

void nw_recover_tag(const nw_node *n, nw_writer *w) {
  if (n->members)
    nw_w_u32(w, n->members->epoch);
}

int nw_recover_busy(const nw_node *n) {
  return n->members && (n->members->ready_pending > 0 || n->members->awaiting_done);
}

/* ---- trace, find, send, fail */

void nw_node_trace(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                   uint64_t subtask, double start_s, uint64_t bytes) {
  if (!n->trace.on)
    return;
  double now = n->be.ops->now(n->be.be);
  nw_node_trace_span(n, kind, device, t, subtask, start_s < 0 ? now : start_s, now, bytes);
}

void nw_node_trace_span(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                        uint64_t subtask, double start_s, double end_s, uint64_t bytes) {
  if (!n->trace.on)
    return;
  nw_trace_rec r = {.start_s = start_s,
                    .end_s = end_s,
                    .task = t ? t->id : 0,
                    .subtask = subtask,
                    .node = nw_node_home(n),
                    .device = device,
                    .kind = (int32_t)kind,
                    .task_kind = -1,
                    .bytes = bytes};
  for (int k = 0; t && n->cfg.kinds && n->cfg.kinds[k]; k++)
    if (n->cfg.kinds[k] == t->kind)
      r.task_kind = k;
  nw_trace_add(&n->trace, &r);
}

nw_task_state *nw_node_task(nw_node *n, uint64_t id) {
  return nw_idmap_get(&n->task_ids, id);
}

void nw_node_send(nw_node *n, int dst, nw_channel ch, nw_writer *w, uint64_t payload_bytes) {
  if (w->oom) {
    nw_w_free(w);
    nw_node_fail(n, "node %d: out of memory building a message", n->cfg.id);
    return;
  }
  if (dst != n->cfg.id) {
    if (ch == NW_CHANNEL_DATA || ch == NW_CHANNEL_PREFETCH) {
      n->stats.messages_data++;
      n->stats.bytes_network += payload_bytes;
      if (ch == NW_CHANNEL_PREFETCH)
        n->stats.bytes_prefetched += payload_bytes;
    } else {
      n->stats.messages_control++;
    }
  }
  size_t stamp = 0; /* the receiver's trace spans the message from here (trace.h) */
  if (n->trace.on)
    nw_w_f64(w, n->be.ops->now(n->be.be)), stamp = 8;
  nw_recover_tag(n, w); /* resilient runs: the epoch, last */
  /* In phantom mode the payload is not in the buffer; the wire still carries it. The trace's
   * stamp is not charged, so tracing a run does not change its simulated times; nor are the
   * bytes that only feed a counter (w->uncharged). */
  uint64_t wire = w->len - stamp - w->uncharged + (n->cfg.functional ? 0 : payload_bytes);
  if (w->oom) {
    nw_w_free(w);
    nw_node_fail(n, "node %d: out of memory building a message", n->cfg.id);
    return;
  }
  n->be.ops->send(n->be.be, nw_recover_backend_id(n, dst), ch, w->buf, w->len, wire);
  memset(w, 0, sizeof *w);
}

static void node_fail_va(nw_node *n, nw_status st, const char *fmt, va_list ap) {
  char msg[sizeof n->error];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (n->cfg.id == 0) {
    if (!n->error[0])
      snprintf(n->error, sizeof n->error, "%s", msg);
    n->hooks.task_complete(n, 0, st); /* task 0: the driver's call under way */
    return;
  }
  nw_writer w;
  nw_w_init(&w, MSG_FAIL);
  nw_w_u8(&w, st == NW_ERR_ARG); /* 1: the input's fault */
  nw_w_bytes(&w, msg, strlen(msg) + 1);
  nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_node_fail(nw_node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  node_fail_va(n, NW_ERR_INTERNAL, fmt, ap);
  va_end(ap);
}

void nw_node_fail_input(nw_node *n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  node_fail_va(n, NW_ERR_ARG, fmt, ap);
  va_end(ap);
}
