/* trace.c: see trace.h. */
#include "trace.h"

#include <stdlib.h>

#include "wire.h"

void nw_trace_add(nw_trace *t, const nw_trace_rec *r) {
  if (!t->on || t->lost)
    return;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    nw_trace_rec *grown = realloc(t->rec, cap * sizeof *grown);
    if (!grown) { /* a trace must not fail the run: it says it is incomplete instead */
      t->lost = 1;
      return;
    }
    t->rec = grown, t->cap = cap;
  }
  t->rec[t->n++] = *r;
}

void nw_trace_free(nw_trace *t) {
  free(t->rec);
  *t = (nw_trace){0};
}

const char *nw_trace_message_name(uint64_t type) {
  static const char *const names[] = {
      [MSG_TASK_START] = "task start",
      [MSG_SUBTASK_DONE] = "subtask done",
      [MSG_TASK_FINISH] = "task finish",
      [MSG_OWN_UPDATE] = "ownership update",
      [MSG_OWN_PREV] = "ownership to previous owner",
      [MSG_OWN_PREV_ACK] = "previous owner's ack",
      [MSG_MASTER_DONE] = "master done",
      [MSG_FETCH] = "fetch",
      [MSG_DATA] = "data",
      [MSG_STEAL_REQ] = "steal request",
      [MSG_STEAL_RESP] = "steal response",
      [MSG_COPY_FINISHED] = "copy finished",
      [MSG_COPY_CANCEL] = "copy cancel",
      [MSG_PLACE] = "place",
      [MSG_PLACE_DIR] = "place in directory",
      [MSG_PLACE_ACK] = "place ack",
      [MSG_FAIL] = "fail",
      [MSG_END] = "end",
      [MSG_LOC_VECTOR] = "locality vector",
      [MSG_LOC_ASSIGN] = "locality assignment",
      [MSG_CLAIM] = "claim",
      [MSG_POLICY] = "policy",
      [MSG_PERF_SAMPLES] = "performance samples",
      [MSG_REDUCE] = "reduce",
      [MSG_BACKUP] = "backup",
      [MSG_RECOVER] = "recover",
      [MSG_RECOVER_READY] = "recover ready",
      [MSG_RECOVER_DONE] = "recover done",
  };
  return type < sizeof names / sizeof names[0] && names[type] ? names[type] : "message";
}
