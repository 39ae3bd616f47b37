/* sendq.c: see sendq.h. */
#include "sendq.h"

#include <stdlib.h>
#include <string.h>

void nw_sendq_init(nw_sendq *q) {
  memset(q, 0, sizeof *q);
}

void nw_sendq_free(nw_sendq *q) {
  for (int c = 0; c < 2; c++)
    free(q->fifo[c].e);
  memset(q, 0, sizeof *q);
}

static nw_status fifo_push(nw_sendq_fifo *f, nw_sendq_entry x) {
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 16;
    nw_sendq_entry *a = malloc(cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    for (size_t i = 0; i < f->n; i++) /* unroll the ring into the new array's start */
      a[i] = f->e[(f->head + i) % f->cap];
    free(f->e);
    f->e = a;
    f->cap = cap;
    f->head = 0;
  }
  f->e[(f->head + f->n) % f->cap] = x;
  f->n++;
  return NW_OK;
}

static void *fifo_pop(nw_sendq_fifo *f) {
  if (f->n == 0)
    return NULL;
  void *item = f->e[f->head].item;
  f->head = (f->head + 1) % f->cap;
  f->n--;
  return item;
}

nw_status nw_sendq_push(nw_sendq *q, nw_send_class c, void *item) {
  if (!item || (c != NW_SEND_DEMAND && c != NW_SEND_PREFETCH))
    return NW_ERR_ARG;
  nw_status st = fifo_push(&q->fifo[c], (nw_sendq_entry){item, q->seq});
  if (st == NW_OK)
    q->seq++;
  return st;
}

void *nw_sendq_start(nw_sendq *q, nw_send_class *c) {
  nw_send_class pick;
  if (q->fifo[NW_SEND_DEMAND].n)
    pick = NW_SEND_DEMAND;
  else if (q->fifo[NW_SEND_PREFETCH].n && !q->inflight[NW_SEND_DEMAND] &&
           !q->inflight[NW_SEND_PREFETCH])
    pick = NW_SEND_PREFETCH;
  else
    return NULL;
  const nw_sendq_fifo *d = &q->fifo[NW_SEND_DEMAND], *p = &q->fifo[NW_SEND_PREFETCH];
  if (pick == NW_SEND_DEMAND && p->n && p->e[p->head].seq < d->e[d->head].seq)
    q->overtakes++;
  q->inflight[pick]++;
  *c = pick;
  return fifo_pop(&q->fifo[pick]);
}

void nw_sendq_done(nw_sendq *q, nw_send_class c) {
  if ((c == NW_SEND_DEMAND || c == NW_SEND_PREFETCH) && q->inflight[c] > 0)
    q->inflight[c]--;
}

size_t nw_sendq_queued(const nw_sendq *q, nw_send_class c) {
  return c == NW_SEND_DEMAND || c == NW_SEND_PREFETCH ? q->fifo[c].n : 0;
}

size_t nw_sendq_inflight(const nw_sendq *q, nw_send_class c) {
  return c == NW_SEND_DEMAND || c == NW_SEND_PREFETCH ? q->inflight[c] : 0;
}

void *nw_sendq_take_any(nw_sendq *q) {
  void *item = fifo_pop(&q->fifo[NW_SEND_DEMAND]);
  return item ? item : fifo_pop(&q->fifo[NW_SEND_PREFETCH]);
}
