/* bufpool.h: recycled buffers for subtasks' private write views.
 *
 * A view is a few MB that a kernel writes once; allocating it fresh each time costs a mapping
 * and a page fault per 4 KiB (about 5 ms per 4 MB view on the 2-core test machine, 5% of a
 * matmul run). Buffers come back to the pool at commit and are reused, smallest fit first.
 * A task's views all live until its commit, so the pool keeps as many as a task of a tiled
 * factorisation holds (LU 3072/384's first update: 49); with 16 slots the rest were freed and
 * faulted in anew by the next task (docs/experiments/read-write-view-fills.md).
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
} nw_bufpool;

/* A buffer of at least size bytes, not zeroed (NULL if memory runs out). */
void *nw_bufpool_get(nw_bufpool *p, size_t size, size_t *cap);
/* Takes a buffer back (frees it if the pool is full). */
void nw_bufpool_put(nw_bufpool *p, void *buf, size_t cap);
void nw_bufpool_free(nw_bufpool *p);

#endif
