/* agglo.c: the accelerator FIFO of dynamic agglomeration (agglo.h). */
#include "agglo.h"

#include <stdlib.h>

nw_status nw_agglo_init(nw_agglo *q, int max) {
  *q = (nw_agglo){NULL, 0, 0, max > 0 ? max : 1};
  return NW_OK;
}

void nw_agglo_free(nw_agglo *q) {
  free(q->item);
  *q = (nw_agglo){NULL, 0, 0, q->max};
}

nw_status nw_agglo_push(nw_agglo *q, nw_agglo_item item) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 16;
    nw_agglo_item *grown = realloc(q->item, cap * sizeof *grown);
    if (!grown)
      return NW_ERR_NOMEM;
    q->item = grown;
    q->cap = cap;
  }
  q->item[q->n++] = item;
  return NW_OK;
}

size_t nw_agglo_queued(const nw_agglo *q) {
  return q->n;
}

int nw_agglo_take(nw_agglo *q, void **out) {
  if (q->n == 0)
    return 0;
  size_t first = 0;
  for (size_t i = 0; i < q->n; i++)
    if (q->item[i].high) {
      first = i;
      break;
    }
  nw_agglo_item lead = q->item[first];
  int alone = lead.high || !lead.batchable;
  int count = 0;
  size_t kept = 0;
  for (size_t i = 0; i < q->n; i++) {
    nw_agglo_item it = q->item[i];
    int joins = i == first || (!alone && i > first && count < q->max && !it.high && it.batchable &&
                               it.group == lead.group);
    if (joins)
      out[count++] = it.what;
    else
      q->item[kept++] = it;
  }
  q->n = kept;
  return count;
}
