/* trace.c: see trace.h. */
#include "trace.h"

#include <stdlib.h>

void nw_trace_add(nw_trace *t, const nw_trace_rec *r) {
  if (!t->on || t->lost)
    return;
  if (t->n == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 1024;
    nw_trace_rec *grown = realloc(t->rec, cap * sizeof *grown);
    if (!grown) { /* a trace must not fail the run: it says it is incomplete instead */
      t->lost = 1;
      return;
    }
    t->rec = grown, t->cap = cap;
  }
  t->rec[t->n++] = *r;
}

void nw_trace_free(nw_trace *t) {
  free(t->rec);
  *t = (nw_trace){0};
}
