/* mtc_queue.h: the host side of the many-task GPU mode's incoming queue: subtasks pushed by
 * several producers, taken by one consumer in bundles.
 *
 * Krieder, Wozniak, Armstrong, Wilde, Katz, Grimmer, Foster, Raicu, "GeMTC: GPU-enabled
 * Many-Task Computing", section 3: a resident worker kernel takes tasks from an incoming queue
 * that the host fills, and the host moves many tasks in one copy. Here the producers are a GPU's
 * lanes (compute threads on the real backend, actors in the simulator), each pushing the
 * subtasks it was dealt; the consumer is the bundler, which takes up to B of them at a time and
 * hands them to the GPU as one bundle. A lane never waits for the bundler: a push returns at
 * once, -1 if the queue is full (the lane keeps the subtask and tries again later).
 *
 * The queue is Dmitry Vyukov's "Bounded MPMC queue" (a ring whose every slot carries a sequence
 * number) with its consumer side reduced to one thread. A producer reserves a ticket with a
 * compare-and-swap on the tail, writes its slot, then publishes it by advancing the slot's
 * sequence number; the consumer reads a slot once its sequence number says published and frees
 * it by advancing the number a lap. No lock and no allocation after init. A producer that
 * stalls between its reservation and its publication holds up the consumer (tickets leave in
 * order, so a take stops at that ticket) but no other producer: their pushes still return at
 * once, -1 when the ring has filled behind it. Lock-free with C11 atomics, so any thread or
 * actor may call it without a backend's lock.
 */
#ifndef NW_MTC_QUEUE_H
#define NW_MTC_QUEUE_H

#include <stdatomic.h>
#include <stdint.h>

#include "narwhal.h"

typedef struct nw_mtcq_slot {
  /* == ticket: free for the producer holding that ticket; == ticket + 1: published, for the
   * consumer; the consumer frees it for the next lap by setting ticket + capacity. */
  _Atomic uint64_t seq;
  void *item;
} nw_mtcq_slot;

typedef struct nw_mtcq {
  nw_mtcq_slot *slot;
  uint32_t capacity; /* a power of two, >= 2; read-only after init */
  /* The pads keep the producers' word and the consumer's fields on cache lines of their own:
   * every push writes the tail, every take the head. Pads rather than _Alignas, so that a
   * structure that embeds a queue may still come from malloc. */
  char pad0[64];
  _Atomic uint64_t tail; /* the next ticket a producer reserves */
  char pad1[64];
  /* The consumer's: the next ticket it takes, and the statistics the simulator reports. */
  uint64_t head;
  uint64_t bundles; /* takes that returned at least one item */
  uint64_t items;   /* items taken */
  uint32_t largest; /* the largest bundle taken */
} nw_mtcq;

/* capacity is rounded up to a power of two, and to 2 at least (a one-slot ring cannot tell a
 * published slot from the next lap's free one). NW_ERR_ARG above 2^31, NW_ERR_NOMEM. */
nw_status nw_mtcq_init(nw_mtcq *q, uint32_t capacity);
/* Frees the ring; the items still queued are the caller's (they were never owned here). */
void nw_mtcq_free(nw_mtcq *q);
/* Any thread: 0, or -1 when the queue is full (the item was not queued). Never blocks. */
int nw_mtcq_push(nw_mtcq *q, void *item);
/* The consumer only: moves up to max published items into out, in ticket order, and returns
 * how many. It stops at the first ticket not yet published, even if later ones are: a producer
 * between its reservation and its write ends the bundle. A bundle may hold more than capacity
 * items: the slots it frees may be pushed to and published again before it ends. */
uint32_t nw_mtcq_take(nw_mtcq *q, void **out, uint32_t max);
/* The consumer only: tickets reserved and not yet taken. Exact when no push is in flight; a
 * push in flight may be counted before its item can be taken. */
uint32_t nw_mtcq_queued(const nw_mtcq *q);

#endif
