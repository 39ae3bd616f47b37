/* bufpool.c: see bufpool.h. */
#include "bufpool.h"

#include <stdlib.h>

int nw_bufpool_get(nw_bufpool *p, size_t size, void **buf, size_t *cap) {
  int best = -1;
  for (int i = 0; i < p->n; i++)
    if (p->cap[i] >= size && (best < 0 || p->cap[i] < p->cap[best]))
      best = i;
  if (best >= 0) {
    *buf = p->buf[best];
    *cap = p->cap[best];
    p->buf[best] = p->buf[--p->n];
    p->cap[best] = p->cap[p->n];
    return 0;
  }
  *buf = NULL;
  *cap = 0;
  if (!p->sizes_only && !(*buf = malloc(size ? size : 1)))
    return -1;
  *cap = size ? size : 1;
  return 1;
}

void nw_bufpool_put(nw_bufpool *p, void *buf, size_t cap) {
  if (!cap || (!buf && !p->sizes_only))
    return;
  if (p->n == NW_BUFPOOL_SLOTS) {
    /* Keep the larger buffers: they are the expensive ones to make. */
    int smallest = 0;
    for (int i = 1; i < p->n; i++)
      if (p->cap[i] < p->cap[smallest])
        smallest = i;
    if (p->cap[smallest] >= cap) {
      free(buf);
      return;
    }
    free(p->buf[smallest]);
    p->buf[smallest] = buf;
    p->cap[smallest] = cap;
    return;
  }
  p->buf[p->n] = buf;
  p->cap[p->n++] = cap;
}

void nw_bufpool_free(nw_bufpool *p) {
  for (int i = 0; i < p->n; i++)
    free(p->buf[i]);
  p->n = 0;
}
