/* sendq.h: the order in which a node starts its bulk data transfers (paper section 4.2).
 *
 * "Subtask data fetch requests are given high priority while the prefetch requests for
 * subtasks anticipated to run in the future are given lower priority." A backend queues each
 * outgoing data message here in its class (NW_CHANNEL_DATA: demand; NW_CHANNEL_PREFETCH:
 * prefetch) and asks which one to start next. The rule, in one place so that the simulator's
 * sender actor, the real backend's network thread and the unit-test backend cannot disagree:
 *
 *   - a demand transfer may start at once (the backend decides how many run together: the
 *     simulator sends one at a time, MPI posts them all);
 *   - a prefetch transfer starts only when no demand transfer is queued or in flight and no
 *     other prefetch transfer is in flight, so demand data waits behind at most one prefetch
 *     transfer that had already started (a transfer is never preempted);
 *   - within a class, first in, first out. Nothing is dropped: when no demand is pending,
 *     prefetches go, so a prefetch waits only while demand keeps coming.
 *
 * Items are the backend's opaque pointers; the queue neither frees nor looks at them.
 */
#ifndef NW_SENDQ_H
#define NW_SENDQ_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

typedef enum { NW_SEND_DEMAND = 0, NW_SEND_PREFETCH = 1 } nw_send_class;

typedef struct nw_sendq_entry {
  void *item;
  uint64_t seq; /* order of arrival over both classes */
} nw_sendq_entry;

typedef struct nw_sendq_fifo {
  nw_sendq_entry *e; /* ring buffer */
  size_t head, n, cap;
} nw_sendq_fifo;

typedef struct nw_sendq {
  nw_sendq_fifo fifo[2]; /* indexed by nw_send_class */
  size_t inflight[2];    /* started, not yet done */
  uint64_t seq;
  /* Demand transfers started ahead of a prefetch queued before them: how often the priority
   * changed the order (a plain FIFO would have sent that prefetch first). */
  uint64_t overtakes;
} nw_sendq;

void nw_sendq_init(nw_sendq *q);
/* Frees the queue's own memory; items still queued are the caller's (see nw_sendq_take_any). */
void nw_sendq_free(nw_sendq *q);
/* Queues item (not NULL) in class c. NW_ERR_NOMEM leaves the queue as it was. */
nw_status nw_sendq_push(nw_sendq *q, nw_send_class c, void *item);
/* The transfer to start now under the rule above, or NULL when none may start yet. The
 * returned item counts as in flight in class *c until nw_sendq_done(q, *c). */
void *nw_sendq_start(nw_sendq *q, nw_send_class *c);
/* A transfer of class c that nw_sendq_start returned has completed. */
void nw_sendq_done(nw_sendq *q, nw_send_class c);
size_t nw_sendq_queued(const nw_sendq *q, nw_send_class c);
size_t nw_sendq_inflight(const nw_sendq *q, nw_send_class c);
/* Removes and returns any queued item, ignoring the rule (to free what is left when a run
 * stops), or NULL when none is queued. */
void *nw_sendq_take_any(nw_sendq *q);

#endif
