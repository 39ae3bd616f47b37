/* bufpool.h: recycled buffers for subtasks' private write views.
 *
 * A view is a few MB that a kernel writes once; allocating it fresh each time costs a mapping
 * and a page fault per 4 KiB (about 5 ms per 4 MB view on the 2-core test machine, 5% of a
 * matmul run). Buffers come back to the pool at commit and are reused, smallest fit first.
 * A task's views all live until its commit, so the pool keeps as many as a task of a tiled
 * factorisation holds (LU 3072/384's first update: 49); with 16 slots the rest were freed and
 * faulted in anew by the next task (docs/experiments/read-write-view-fills.md).
 * The pool says which buffers are new, whose pages the node touches for the first time: the
 * simulator keeps the same pool with sizes only (phantom data, no bytes), so that it charges
 * those first touches where the real backend pays them (docs/experiments/fresh-view-pages.md).
 * Used only on the node's own thread.
 */
#ifndef NW_BUFPOOL_H
#define NW_BUFPOOL_H

#include <stddef.h>

#define NW_BUFPOOL_SLOTS 64

typedef struct nw_bufpool {
  void *buf[NW_BUFPOOL_SLOTS];
  size_t cap[NW_BUFPOOL_SLOTS];
  int n;
  int sizes_only; /* capacities alone, every buffer NULL (a simulation without bytes) */
} nw_bufpool;

/* Takes a buffer of at least size bytes, not zeroed, into *buf (NULL where sizes_only) and its
 * capacity into *cap. Returns 1 if it was made now (none of its pages touched yet), 0 if it
 * was recycled, -1 if memory ran out (*buf NULL, *cap 0). */
int nw_bufpool_get(nw_bufpool *p, size_t size, void **buf, size_t *cap);
/* Takes a buffer back (frees it if the pool is full); cap 0: nothing to take. */
void nw_bufpool_put(nw_bufpool *p, void *buf, size_t cap);
void nw_bufpool_free(nw_bufpool *p);

#endif
