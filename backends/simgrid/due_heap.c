/* due_heap.c: see due_heap.h. A binary min-heap on (due, seq). */
#include "due_heap.h"

#include <stdlib.h>

static int before(const nw_due_item *x, const nw_due_item *y) {
  return x->due < y->due || (x->due == y->due && x->seq < y->seq);
}

int nw_due_push(nw_due_heap *h, double due, void *item) {
  if (h->n == h->cap) {
    size_t cap = h->cap ? 2 * h->cap : 64;
    nw_due_item *a = realloc(h->a, cap * sizeof *a);
    if (!a)
      return -1;
    h->a = a;
    h->cap = cap;
  }
  nw_due_item it = {due, h->next_seq++, item};
  size_t i = h->n++;
  while (i > 0 && before(&it, &h->a[(i - 1) / 2])) {
    h->a[i] = h->a[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->a[i] = it;
  return 0;
}

double nw_due_first(const nw_due_heap *h) {
  return h->a[0].due;
}

void *nw_due_pop(nw_due_heap *h) {
  if (h->n == 0)
    return NULL;
  void *top = h->a[0].item;
  nw_due_item last = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n)
      break;
    if (c + 1 < h->n && before(&h->a[c + 1], &h->a[c]))
      c++;
    if (!before(&h->a[c], &last))
      break;
    h->a[i] = h->a[c];
    i = c;
  }
  if (h->n > 0)
    h->a[i] = last;
  return top;
}

void nw_due_free(nw_due_heap *h) {
  free(h->a);
  *h = (nw_due_heap){0};
}
