/* mtc_queue.c: the many-task mode's incoming queue (mtc_queue.h), after Vyukov's bounded queue.
 *
 * Tickets are 64-bit and never wrap in practice (2^64 pushes), so a slot's sequence number
 * compared with a ticket as a signed difference says whether the slot is a lap behind (full),
 * on this lap (free or published) or ahead (another producer took the ticket first). */
#include "mtc_queue.h"

#include <stdlib.h>

nw_status nw_mtcq_init(nw_mtcq *q, uint32_t capacity) {
  *q = (nw_mtcq){0};
  if (capacity > (UINT32_C(1) << 31))
    return NW_ERR_ARG;
  uint32_t cap = 2;
  while (cap < capacity)
    cap *= 2;
  q->slot = malloc((size_t)cap * sizeof *q->slot);
  if (!q->slot)
    return NW_ERR_NOMEM;
  for (uint32_t i = 0; i < cap; i++) {
    atomic_init(&q->slot[i].seq, i);
    q->slot[i].item = NULL;
  }
  q->capacity = cap;
  atomic_init(&q->tail, 0);
  return NW_OK;
}

void nw_mtcq_free(nw_mtcq *q) {
  free(q->slot);
  *q = (nw_mtcq){0};
}

int nw_mtcq_push(nw_mtcq *q, void *item) {
  uint64_t mask = q->capacity - 1;
  uint64_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
  nw_mtcq_slot *s;
  for (;;) {
    s = &q->slot[t & mask];
    /* Acquire: the consumer's read of this slot's previous item comes before our write. */
    uint64_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
    int64_t dif = (int64_t)(seq - t);
    if (dif == 0) {
      /* Free on this lap: reserve ticket t. Relaxed: the slot's sequence number orders the
       * item, the tail only hands out tickets. On failure t is the tail another producer left. */
      if (atomic_compare_exchange_weak_explicit(&q->tail, &t, t + 1, memory_order_relaxed,
                                                memory_order_relaxed))
        break;
    } else if (dif < 0) {
      return -1; /* the slot still holds ticket t - capacity: full */
    } else {
      t = atomic_load_explicit(&q->tail, memory_order_relaxed); /* t was taken: look again */
    }
  }
  s->item = item;
  /* Release: the item is written before the consumer can see the slot published. */
  atomic_store_explicit(&s->seq, t + 1, memory_order_release);
  return 0;
}

uint32_t nw_mtcq_take(nw_mtcq *q, void **out, uint32_t max) {
  uint64_t mask = q->capacity - 1;
  uint32_t n = 0;
  while (n < max) {
    nw_mtcq_slot *s = &q->slot[q->head & mask];
    /* Acquire: pairs with the producer's release, so its item is visible. */
    if (atomic_load_explicit(&s->seq, memory_order_acquire) != q->head + 1)
      break; /* not yet published (or nothing reserved): the bundle ends here */
    out[n++] = s->item;
    /* Release: our read of the item comes before the next lap's producer overwrites it. */
    atomic_store_explicit(&s->seq, q->head + q->capacity, memory_order_release);
    q->head++;
  }
  if (n) {
    q->bundles++;
    q->items += n;
    if (n > q->largest)
      q->largest = n;
  }
  return n;
}

uint32_t nw_mtcq_queued(const nw_mtcq *q) {
  /* Never above capacity: a ticket is reserved only once the slot a lap behind was taken. */
  uint64_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
  return (uint32_t)(t - q->head);
}
