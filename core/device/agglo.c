/* agglo.c: the accelerator FIFO of dynamic and static agglomeration (agglo.h). */
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

/* The launch led by item `first`: it alone when high priority or not batchable, else it and
 * the next batchable items of its group, oldest first, up to max. What stays keeps its order. */
static int launch_from(nw_agglo *q, void **out, size_t first) {
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

/* The oldest high-priority item's index, or n when there is none. */
static size_t first_high(const nw_agglo *q) {
  for (size_t i = 0; i < q->n; i++)
    if (q->item[i].high)
      return i;
  return q->n;
}

int nw_agglo_take(nw_agglo *q, void **out) {
  if (q->n == 0)
    return 0;
  size_t high = first_high(q);
  return launch_from(q, out, high < q->n ? high : 0);
}

int nw_agglo_take_static(nw_agglo *q, void **out, nw_agglo_more_fn more, void *ctx) {
  size_t high = first_high(q);
  if (high < q->n)
    return launch_from(q, out, high);
  /* No high-priority item is queued: only a batchable group waits, each item else goes. */
  for (size_t i = 0; i < q->n; i++) {
    nw_agglo_item it = q->item[i];
    if (!it.batchable)
      return launch_from(q, out, i);
    size_t before = 0, count = 0;
    for (size_t j = 0; j < q->n; j++)
      if (q->item[j].batchable && q->item[j].group == it.group) {
        if (j < i)
          before++;
        else
          count++;
      }
    if (before) /* its group was weighed at its oldest item */
      continue;
    if (count >= (size_t)q->max || !more(ctx, it.group))
      return launch_from(q, out, i);
  }
  return 0;
}

int nw_agglo_holds_lane(const nw_agglo *q, int lane) {
  for (size_t i = 0; i < q->n; i++)
    if (q->item[i].lane == lane)
      return 1;
  return 0;
}
