/* test_sendq.c: the order in which a node starts its data transfers (core/data/sendq.h, paper
 * section 4.2: demand fetches before prefetches), rule by rule, then a long random mix
 * against a reference model of the rule. */
#include <stdint.h>

#include "check.h"
#include "rng.h"
#include "sendq.h"

/* Items are small integers disguised as pointers: demand d<k> = 1000 + k, prefetch p<k> = k. */
#define D(k) ((void *)(uintptr_t)(1000 + (k)))
#define P(k) ((void *)(uintptr_t)(1 + (k)))

static void *start(nw_sendq *q, nw_send_class *c) {
  *c = (nw_send_class)-1;
  return nw_sendq_start(q, c);
}

int main(void) {
  nw_sendq q;
  nw_send_class c;

  /* Empty: nothing to start, nothing to take. */
  nw_sendq_init(&q);
  CHECK(start(&q, &c) == NULL);
  CHECK(nw_sendq_take_any(&q) == NULL);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, NULL) == NW_ERR_ARG);
  CHECK(nw_sendq_push(&q, (nw_send_class)7, D(0)) == NW_ERR_ARG);

  /* A demand queued after prefetches overtakes them; FIFO within each class. */
  CHECK(nw_sendq_push(&q, NW_SEND_PREFETCH, P(0)) == NW_OK);
  CHECK(nw_sendq_push(&q, NW_SEND_PREFETCH, P(1)) == NW_OK);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, D(0)) == NW_OK);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, D(1)) == NW_OK);
  CHECK(nw_sendq_queued(&q, NW_SEND_PREFETCH) == 2 && nw_sendq_queued(&q, NW_SEND_DEMAND) == 2);
  CHECK(start(&q, &c) == D(0) && c == NW_SEND_DEMAND);
  /* Demand transfers may run together (MPI posts them all); the simulator takes one at a
   * time by calling done before the next start. */
  CHECK(start(&q, &c) == D(1) && c == NW_SEND_DEMAND);
  CHECK(nw_sendq_inflight(&q, NW_SEND_DEMAND) == 2);
  /* A prefetch waits while any demand transfer is in flight... */
  CHECK(start(&q, &c) == NULL);
  nw_sendq_done(&q, NW_SEND_DEMAND);
  CHECK(start(&q, &c) == NULL);
  nw_sendq_done(&q, NW_SEND_DEMAND);
  /* ...and goes, oldest first, when none is pending: no starvation once demand stops. */
  CHECK(start(&q, &c) == P(0) && c == NW_SEND_PREFETCH);
  /* One prefetch at a time: a demand arriving now waits behind at most that one. */
  CHECK(start(&q, &c) == NULL);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, D(2)) == NW_OK);
  CHECK(start(&q, &c) == D(2) && c == NW_SEND_DEMAND); /* started prefetch is not preempted */
  nw_sendq_done(&q, NW_SEND_PREFETCH);
  CHECK(start(&q, &c) == NULL); /* D(2) still in flight */
  nw_sendq_done(&q, NW_SEND_DEMAND);
  CHECK(start(&q, &c) == P(1) && c == NW_SEND_PREFETCH);
  nw_sendq_done(&q, NW_SEND_PREFETCH);
  CHECK(start(&q, &c) == NULL);
  CHECK(nw_sendq_inflight(&q, NW_SEND_DEMAND) == 0 && nw_sendq_inflight(&q, NW_SEND_PREFETCH) == 0);
  nw_sendq_done(&q, NW_SEND_DEMAND); /* a stray done does not underflow */
  CHECK(nw_sendq_inflight(&q, NW_SEND_DEMAND) == 0);
  CHECK(q.overtakes == 3); /* D(0), D(1) ahead of P(0); D(2) ahead of P(1) */
  nw_sendq_free(&q);

  /* A demand queued before a prefetch goes first by FIFO alone: no overtake. */
  nw_sendq_init(&q);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, D(0)) == NW_OK);
  CHECK(nw_sendq_push(&q, NW_SEND_PREFETCH, P(0)) == NW_OK);
  CHECK(start(&q, &c) == D(0));
  nw_sendq_done(&q, NW_SEND_DEMAND);
  CHECK(start(&q, &c) == P(0));
  CHECK(q.overtakes == 0);
  nw_sendq_free(&q);

  /* take_any empties both classes (what a stopped run frees), demand first. */
  nw_sendq_init(&q);
  CHECK(nw_sendq_push(&q, NW_SEND_PREFETCH, P(5)) == NW_OK);
  CHECK(nw_sendq_push(&q, NW_SEND_DEMAND, D(5)) == NW_OK);
  CHECK(nw_sendq_take_any(&q) == D(5));
  CHECK(nw_sendq_take_any(&q) == P(5));
  CHECK(nw_sendq_take_any(&q) == NULL);
  nw_sendq_free(&q);

  /* A random mix through ring wrap-around and growth, against a reference: every item
   * comes out exactly once, in FIFO order per class, and no prefetch ever starts while a
   * demand is queued or in flight or another prefetch is in flight. */
  enum { N = 5000 };
  nw_sendq_init(&q);
  uint64_t rng = 42;
  int next_in[2] = {0, 0}, next_out[2] = {0, 0};
  static uint64_t seq_of[2][N]; /* arrival order over both classes */
  uint64_t arrivals = 0, overtakes = 0;
  size_t live[2] = {0, 0};
  int order_ok = 1, rule_ok = 1, push_ok = 1;
  while (next_out[0] < N || next_out[1] < N) {
    uint64_t r = nw_rng_next(&rng) % 8;
    if (r < 3) { /* queue a few */
      int cls = (int)(nw_rng_next(&rng) % 2);
      for (int k = 0; k < 3 && next_in[cls] < N; k++) {
        void *item = cls == NW_SEND_DEMAND ? D(next_in[cls]) : P(next_in[cls]);
        push_ok &= nw_sendq_push(&q, (nw_send_class)cls, item) == NW_OK;
        seq_of[cls][next_in[cls]++] = arrivals++;
      }
    } else if (r < 6) { /* start what may start */
      size_t dq = nw_sendq_queued(&q, NW_SEND_DEMAND);
      void *item = start(&q, &c);
      if (!item) {
        rule_ok &= dq == 0; /* a queued demand can always start */
        continue;
      }
      if (c == NW_SEND_PREFETCH)
        rule_ok &= dq == 0 && live[0] == 0 && live[1] == 0;
      int want = c == NW_SEND_DEMAND ? 1000 + next_out[0] : 1 + next_out[1];
      if (c == NW_SEND_DEMAND && next_out[1] < next_in[1] &&
          seq_of[1][next_out[1]] < seq_of[0][next_out[0]])
        overtakes++;
      order_ok &= (uintptr_t)item == (uintptr_t)want;
      next_out[c]++;
      live[c]++;
    } else { /* a transfer completes */
      int cls = live[0] && (!live[1] || nw_rng_next(&rng) % 2) ? 0 : 1;
      if (live[cls]) {
        nw_sendq_done(&q, (nw_send_class)cls);
        live[cls]--;
      }
    }
    if (next_in[0] == N && next_in[1] == N && !nw_sendq_queued(&q, 0) && !nw_sendq_queued(&q, 1))
      break;
  }
  CHECK(push_ok);
  CHECK(order_ok);
  CHECK(rule_ok);
  CHECK(next_out[0] == N && next_out[1] == N); /* nothing lost, nothing twice */
  CHECK(overtakes > 0 && q.overtakes == overtakes);
  CHECK(q.fifo[0].cap >= 16 && q.fifo[1].cap >= 16);
  nw_sendq_free(&q);

  return check_report("sendq");
}
