/* due_heap.h: items ordered by the simulated time they are due, earliest first; items due at
 * the same time come out in the order they went in, so a simulated run stays reproducible.
 * The simulator delivers control messages from it (queued by sim_world.c, handed over by
 * sim_backend.c's postman). */
#ifndef NW_DUE_HEAP_H
#define NW_DUE_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct nw_due_item {
  double due;
  uint64_t seq; /* insertion order: breaks ties */
  void *item;
} nw_due_item;

typedef struct nw_due_heap {
  nw_due_item *a;
  size_t n, cap;
  uint64_t next_seq;
} nw_due_heap;

/* 0 on success, -1 when out of memory (the heap is unchanged). */
int nw_due_push(nw_due_heap *h, double due, void *item);
/* The earliest item's due time; the heap must not be empty. */
double nw_due_first(const nw_due_heap *h);
/* Removes and returns the earliest item; NULL when empty. */
void *nw_due_pop(nw_due_heap *h);
/* Frees the heap's array (not the items). */
void nw_due_free(nw_due_heap *h);

#endif
