/* viewcheck.c: checked views (see viewcheck.h). */
#include "viewcheck.h"

#include <stdlib.h>
#include <string.h>

#include "node_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Calls f on each row segment of r in a buffer holding [lo, lo + len), with the same bytes'
 * place in `from` (which holds [from_lo, ...)) when from is not NULL. */
static void each_row(const nw_region *r, uint64_t lo, uint64_t len,
                     void (*f)(unsigned char *at, const unsigned char *from, uint64_t n),
                     unsigned char *buf, const unsigned char *from, uint64_t from_lo) {
  for (size_t k = 0; k < r->n; k++) {
    const nw_rect *x = &r->r[k];
    uint64_t w = x->col1 - x->col0;
    for (uint64_t row = x->row0; row < x->row1; row++) {
      uint64_t at = row * r->pitch + x->col0;
      if (at < lo || at + w > lo + len)
        continue; /* cannot happen: views span their regions */
      f(buf + (at - lo), from ? from + (at - from_lo) : NULL, w);
    }
  }
}

static void copy_in(unsigned char *at, const unsigned char *from, uint64_t n) {
  memcpy(at, from, n);
}
static void unpoison(unsigned char *at, const unsigned char *from, uint64_t n) {
  (void)from;
  UNPOISON(at, n);
}

nw_status nw_viewcheck_read_view(nw_exec *e, int i, const unsigned char *space, uint64_t size,
                                 const nw_region *read) {
  uint64_t lo, hi;
  nw_region_bounds(read, &lo, &hi);
  if (hi <= lo) {
    e->views[i] = (nw_view){.base = NULL, .lo = 0, .hi = 0}; /* subscribes to nothing */
    return NW_OK;
  }
  uint64_t margin = hi - lo > NW_VIEWCHECK_MARGIN ? hi - lo : NW_VIEWCHECK_MARGIN;
  lo = lo > margin ? lo - margin : 0;
  hi = size - hi > margin ? hi + margin : size;
  unsigned char *buf = malloc(hi - lo);
  if (!buf)
    return NW_ERR_NOMEM;
  /* The word at the space's own 4-byte alignment: an element's bytes, whatever its offset in
   * the buffer. */
  static const unsigned char nan_bytes[4] = {
      NW_VIEWCHECK_NAN & 0xFF, (NW_VIEWCHECK_NAN >> 8) & 0xFF, (NW_VIEWCHECK_NAN >> 16) & 0xFF,
      NW_VIEWCHECK_NAN >> 24};
  for (uint64_t k = 0; k < hi - lo; k++)
    buf[k] = nan_bytes[(lo + k) % 4];
  each_row(read, lo, hi - lo, copy_in, buf, space, 0);
  POISON(buf, hi - lo);
  each_row(read, lo, hi - lo, unpoison, buf, NULL, 0);
  e->check_read[i] = buf;
  e->check_len[i] = hi - lo;
  e->views[i] = (nw_view){.base = buf, .lo = lo, .hi = hi};
  return NW_OK;
}

nw_status nw_viewcheck_write_view(nw_exec *e, int i, const nw_region *read,
                                  const nw_region *write) {
  nw_view *v = &e->views[i];
  uint64_t len = v->hi - v->lo;
  if (!v->base || len == 0)
    return NW_OK;
  unsigned char *shadow = malloc(len);
  if (!shadow)
    return NW_ERR_NOMEM;
  memcpy(shadow, v->base, len);
  e->check_shadow[i] = shadow;
  e->check_len[i] = len;
  POISON(v->base, len);
  each_row(read, v->lo, len, unpoison, v->base, NULL, 0);
  each_row(write, v->lo, len, unpoison, v->base, NULL, 0);
  return NW_OK;
}

static void restore(unsigned char *at, const unsigned char *from, uint64_t n) {
  memcpy(at, from, n);
}

/* The first 4-byte-aligned word (of the space's offsets) inside r's rows, in buf holding
 * [lo, lo + len), that equals NW_VIEWCHECK_NAN: 1 and its offset, else 0. */
static int find_nan(const nw_region *r, const unsigned char *buf, uint64_t lo, uint64_t len,
                    uint64_t *byte) {
  for (size_t k = 0; k < r->n; k++) {
    const nw_rect *x = &r->r[k];
    for (uint64_t row = x->row0; row < x->row1; row++) {
      uint64_t a = row * r->pitch + x->col0, b = row * r->pitch + x->col1;
      for (uint64_t at = (a + 3) / 4 * 4; at + 4 <= b; at += 4) {
        if (at < lo || at + 4 > lo + len)
          continue;
        uint32_t w;
        memcpy(&w, buf + (at - lo), 4);
        if (w == NW_VIEWCHECK_NAN) {
          *byte = at;
          return 1;
        }
      }
    }
  }
  return 0;
}

int nw_viewcheck_finish(nw_exec *e, const nw_region *write, int *space, uint64_t *byte) {
  int found = 0, checked_reads = 0;
  for (int i = 0; i < e->task->info.nspaces; i++)
    checked_reads |= e->check_read[i] != NULL;
  for (int i = 0; i < e->task->info.nspaces; i++) {
    if (e->check_read[i]) {
      UNPOISON(e->check_read[i], e->check_len[i]);
      free(e->check_read[i]);
      e->check_read[i] = NULL;
      e->views[i].base = NULL;
      continue;
    }
    unsigned char *shadow = e->check_shadow[i];
    if (!shadow)
      continue;
    nw_view *v = &e->views[i];
    uint64_t len = e->check_len[i];
    UNPOISON(v->base, len);
    /* The kernel may change its writes' bytes only: put the shadow's bytes back there and
     * compare the whole buffer with the shadow. */
    unsigned char *seen = malloc(len);
    if (seen) {
      memcpy(seen, v->base, len);
      each_row(&write[i], v->lo, len, restore, seen, shadow, v->lo);
      for (uint64_t k = 0; !found && k < len; k++)
        if (seen[k] != shadow[k]) {
          found = 1;
          *space = i;
          *byte = v->lo + k;
        }
      free(seen);
    }
    if (!found && checked_reads && find_nan(&write[i], v->base, v->lo, len, byte)) {
      found = 2;
      *space = i;
    }
    free(shadow);
    e->check_shadow[i] = NULL;
  }
  return found;
}

void nw_viewcheck_drop(nw_exec *e) {
  for (int i = 0; i < e->task->info.nspaces; i++) {
    if (e->check_read[i])
      UNPOISON(e->check_read[i], e->check_len[i]);
    else if (e->check_shadow[i] && e->views[i].base)
      UNPOISON(e->views[i].base, e->check_len[i]);
    free(e->check_read[i]);
    free(e->check_shadow[i]);
    e->check_read[i] = e->check_shadow[i] = NULL;
  }
}
