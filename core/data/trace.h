/* trace.h: a node's execution trace (--trace FILE): what each of its devices did and when, as
 * records the backend collects from every node and the tool writes as a Chrome trace
 * (lib/trace_json.c) or a Paje file (lib/trace_paje.c). Spans: a subtask's execution on a
 * device, from its launch to its completion being handled (exactly what the device's busy_s
 * sums), a GPU copy from its issue to its completion, a device's wait for a subtask's data
 * (what its demand_wait_s sums), a fetch's bytes crossing the network to this node, and every
 * protocol message this node handled, from its sending to its handling. Instants: a steal, a
 * multi-assigned copy, a cancellation. Recording is off unless the node's config asks for it; it
 * costs one append per event (a transfer also keeps its request's region and time until the
 * bytes arrive; a message carries its send time, 8 bytes the network model does not charge). */
#ifndef NW_TRACE_H
#define NW_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef enum nw_trace_kind {
  NW_TRACE_EXEC = 0,         /* span: a subtask ran on `device` */
  NW_TRACE_COPY_IN = 1,      /* span: a copy to GPU `device` (the GPU's index, not a stream's) */
  NW_TRACE_COPY_OUT = 2,     /* span: a copy from GPU `device` */
  NW_TRACE_STEAL = 3,        /* instant: `device` stole `subtask` */
  NW_TRACE_MULTI_ASSIGN = 4, /* instant: `device`'s straggling `subtask` was copied elsewhere */
  NW_TRACE_CANCEL = 5,       /* instant: `device`'s copy of `subtask` was cancelled */
  NW_TRACE_DATA_WAIT = 6,    /* span: `device` waited for `subtask`'s data, from the subtask
                              * becoming its current one to the data being resident */
  NW_TRACE_TRANSFER = 7,     /* span: `bytes` of space `task` came from node `device`, from
                              * this node asking for them to their arrival (its network lane) */
  NW_TRACE_MESSAGE = 8,      /* span: a message from node `device` (this node itself too) of
                              * type `subtask` (nw_trace_message_name), `bytes` long, for task
                              * `task` (0: none), from its sending, on the sender's clock, to the
                              * start of its handling here. Ranks' clocks are aligned at one
                              * barrier, so a span is never given a start after its end. */
} nw_trace_kind;

/* One record: fixed size, no pointers, so ranks can send them to rank 0 as bytes. */
typedef struct nw_trace_rec {
  double start_s, end_s; /* the backend's clock; end_s == start_s for instants */
  uint64_t task, subtask;
  int32_t node, device, kind, task_kind; /* task_kind: index in the app's kinds, -1 none */
  uint64_t bytes;                        /* copies: bytes moved */
} nw_trace_rec;

typedef struct nw_trace {
  int on;
  int lost; /* memory ran out: records from then on were dropped */
  nw_trace_rec *rec;
  size_t n, cap;
} nw_trace;

void nw_trace_add(nw_trace *t, const nw_trace_rec *r);
void nw_trace_free(nw_trace *t);
/* A message type's name ("task start", "fetch", ...; wire.h), or "message" for one unknown. */
const char *nw_trace_message_name(uint64_t type);

#endif
