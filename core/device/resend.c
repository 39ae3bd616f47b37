/* resend.c: what was fetched for a subtask before it moved (resend.h). A node keeps few entries
 * (a steal takes at most one prefetched subtask per device), so a list searched in full is
 * enough. */
#include <stdlib.h>

#include "resend.h"
#include "task_state.h"

static void regions_free(nw_region *r, int ns) {
  for (int i = 0; r && i < ns; i++)
    nw_region_free(&r[i]);
  free(r);
}

static nw_fetched_before *find(nw_task_state *t, uint64_t s) {
  for (size_t k = 0; k < t->resend.n; k++)
    if (t->resend.e[k].subtask == s)
      return &t->resend.e[k];
  return NULL;
}

static void remove_entry(nw_task_state *t, nw_fetched_before *e) {
  regions_free(e->region, t->info.nspaces);
  *e = t->resend.e[--t->resend.n];
}

/* Adds the regions (one per bound space) to the entry for s, made if it has none. */
static nw_status add(nw_task_state *t, uint64_t s, const nw_region *region) {
  int ns = t->info.nspaces;
  nw_fetched_before *e = find(t, s);
  if (!e) {
    if (t->resend.n == t->resend.cap) {
      size_t cap = t->resend.cap ? 2 * t->resend.cap : 4;
      nw_fetched_before *a = realloc(t->resend.e, cap * sizeof *a);
      if (!a)
        return NW_ERR_NOMEM;
      t->resend.e = a;
      t->resend.cap = cap;
    }
    nw_region *r = calloc((size_t)ns, sizeof *r);
    if (!r)
      return NW_ERR_NOMEM;
    for (int i = 0; i < ns; i++)
      nw_region_init(&r[i], t->bound[i].space->pitch);
    e = &t->resend.e[t->resend.n++];
    *e = (nw_fetched_before){s, r};
  }
  nw_status st = NW_OK;
  for (int i = 0; st == NW_OK && i < ns; i++)
    st = nw_region_add(&e->region[i], &region[i]);
  return st;
}

static int any_bytes(const nw_region *r, int ns) {
  for (int i = 0; i < ns; i++)
    if (!nw_region_empty(&r[i]))
      return 1;
  return 0;
}

nw_status nw_resend_keep(nw_task_state *t, const nw_prepared *p) {
  return any_bytes(p->fetched, t->info.nspaces) ? add(t, p->subtask, p->fetched) : NW_OK;
}

uint64_t nw_resend_take(nw_task_state *t, nw_prepared *p) {
  nw_fetched_before *e = t->resend.n ? find(t, p->subtask) : NULL;
  if (!e)
    return 0;
  uint64_t again = 0;
  for (int i = 0; i < t->info.nspaces; i++) {
    again += nw_region_overlap_bytes(&p->fetched[i], &e->region[i]);
    /* Whoever prepares it after this device has these fetches behind it too. Out of memory,
     * the counter only misses them. */
    (void)nw_region_add(&p->fetched[i], &e->region[i]);
  }
  remove_entry(t, e);
  return again;
}

static int in_ranges(uint64_t s, const nw_range *r, size_t nr) {
  for (size_t k = 0; k < nr; k++)
    if (s >= r[k].first && s < r[k].last)
      return 1;
  return 0;
}

static void write_entry(nw_writer *w, uint64_t s, const nw_region *region, int ns) {
  nw_w_u64(w, s);
  for (int i = 0; i < ns; i++)
    nw_w_region(w, &region[i]);
}

nw_status nw_resend_write(nw_writer *w, nw_task_state *t, const nw_range *r, size_t nr,
                          const nw_prepared *copy) {
  int ns = t->info.nspaces, with_copy = copy && any_bytes(copy->fetched, ns);
  uint32_t count = (uint32_t)with_copy;
  for (size_t k = 0; k < t->resend.n; k++)
    count += in_ranges(t->resend.e[k].subtask, r, nr);
  if (count == 0)
    return NW_OK;
  size_t start = w->len;
  nw_w_u32(w, count);
  if (with_copy)
    write_entry(w, copy->subtask, copy->fetched, ns);
  for (size_t k = 0; k < t->resend.n;) {
    nw_fetched_before *e = &t->resend.e[k];
    if (!in_ranges(e->subtask, r, nr)) {
      k++;
      continue;
    }
    write_entry(w, e->subtask, e->region, ns);
    remove_entry(t, e); /* the last entry moves to k */
  }
  w->uncharged += w->len - start; /* only the counter needs them (wire.h) */
  return w->oom ? NW_ERR_NOMEM : NW_OK;
}

void nw_resend_read(nw_reader *r, nw_task_state *t) {
  if (r->bad || r->pos == r->len)
    return; /* no tail */
  if (!t) {
    r->pos = r->len; /* its task ended here: nothing to carry */
    return;
  }
  int ns = t->info.nspaces;
  uint32_t count = nw_r_u32(r);
  /* An entry takes at least a subtask id and a count per space. */
  if (r->bad || count > (r->len - r->pos) / (8 * (1 + (size_t)ns))) {
    r->bad = 1;
    return;
  }
  nw_region *region = calloc((size_t)ns ? (size_t)ns : 1, sizeof *region);
  if (!region) {
    r->bad = 1;
    return;
  }
  for (uint32_t k = 0; k < count && !r->bad; k++) {
    uint64_t s = nw_r_u64(r);
    for (int i = 0; i < ns; i++) {
      nw_region_free(&region[i]);
      nw_r_region(r, &region[i], t->bound[i].space->pitch);
    }
    if (!r->bad && s >= t->info.subtasks)
      r->bad = 1;
    if (!r->bad && add(t, s, region) != NW_OK)
      r->bad = 1;
  }
  regions_free(region, ns);
}

void nw_resend_drop(nw_task_state *t, uint64_t s) {
  nw_fetched_before *e = find(t, s);
  if (e)
    remove_entry(t, e);
}

void nw_resend_free(nw_task_state *t) {
  while (t->resend.n)
    remove_entry(t, &t->resend.e[t->resend.n - 1]);
  free(t->resend.e);
  t->resend = (nw_resend_list){0};
}
