/* region.c: region sets as disjoint rectangles in a row pitch (see region.h).
 *
 * Sets stay small (a handful to a few thousand rectangles), so plain arrays and quadratic
 * merging are fast enough and easy to check against a byte bitmap (tests/unit/test_region.c).
 */
#include "region.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nw_region_init(nw_region *s, uint64_t pitch) {
  s->pitch = pitch ? pitch : 1;
  s->n = s->cap = 0;
  s->r = NULL;
}

void nw_region_free(nw_region *s) {
  free(s->r);
  s->r = NULL;
  s->n = s->cap = 0;
}

void nw_region_clear(nw_region *s) {
  s->n = 0;
}

static nw_status reserve(nw_region *s, size_t n) {
  if (n <= s->cap)
    return NW_OK;
  size_t cap = s->cap ? s->cap : 4;
  while (cap < n)
    cap *= 2;
  nw_rect *r = realloc(s->r, cap * sizeof *r);
  if (!r)
    return NW_ERR_NOMEM;
  s->r = r;
  s->cap = cap;
  return NW_OK;
}

nw_status nw_region_copy(nw_region *dst, const nw_region *src) {
  nw_region_init(dst, src->pitch);
  nw_status st = reserve(dst, src->n);
  if (st != NW_OK)
    return st;
  if (src->n)
    memcpy(dst->r, src->r, src->n * sizeof *src->r);
  dst->n = src->n;
  return NW_OK;
}

static int rect_empty(nw_rect a) {
  return a.row0 >= a.row1 || a.col0 >= a.col1;
}

static uint64_t max64(uint64_t a, uint64_t b) {
  return a > b ? a : b;
}
static uint64_t min64(uint64_t a, uint64_t b) {
  return a < b ? a : b;
}

static nw_rect rect_and(nw_rect a, nw_rect b) {
  nw_rect x = {max64(a.row0, b.row0), min64(a.row1, b.row1), max64(a.col0, b.col0),
               min64(a.col1, b.col1)};
  return x;
}

/* a minus b as up to 4 disjoint rectangles: bands above and below b, then left and right of
 * b within b's rows. Returns how many it wrote. */
static int rect_minus(nw_rect a, nw_rect b, nw_rect out[4]) {
  nw_rect x = rect_and(a, b);
  if (rect_empty(x)) {
    out[0] = a;
    return 1;
  }
  int k = 0;
  if (a.row0 < x.row0)
    out[k++] = (nw_rect){a.row0, x.row0, a.col0, a.col1};
  if (x.row1 < a.row1)
    out[k++] = (nw_rect){x.row1, a.row1, a.col0, a.col1};
  if (a.col0 < x.col0)
    out[k++] = (nw_rect){x.row0, x.row1, a.col0, x.col0};
  if (x.col1 < a.col1)
    out[k++] = (nw_rect){x.row0, x.row1, x.col1, a.col1};
  return k;
}

/* Two rectangles that together form a rectangle. */
static int mergeable(nw_rect a, nw_rect b, nw_rect *m) {
  if (a.col0 == b.col0 && a.col1 == b.col1 && (a.row1 == b.row0 || b.row1 == a.row0)) {
    *m = (nw_rect){min64(a.row0, b.row0), max64(a.row1, b.row1), a.col0, a.col1};
    return 1;
  }
  if (a.row0 == b.row0 && a.row1 == b.row1 && (a.col1 == b.col0 || b.col1 == a.col0)) {
    *m = (nw_rect){a.row0, a.row1, min64(a.col0, b.col0), max64(a.col1, b.col1)};
    return 1;
  }
  return 0;
}

/* Inserts a rectangle known to be disjoint from the set, merging it with neighbours; a merge
 * may enable another, so the merged rectangle is re-inserted. */
static nw_status insert_disjoint(nw_region *s, nw_rect x) {
  for (;;) {
    size_t i;
    nw_rect m;
    for (i = 0; i < s->n; i++)
      if (mergeable(s->r[i], x, &m))
        break;
    if (i == s->n)
      break;
    s->r[i] = s->r[--s->n];
    x = m;
  }
  nw_status st = reserve(s, s->n + 1);
  if (st != NW_OK)
    return st;
  s->r[s->n++] = x;
  return NW_OK;
}

nw_status nw_region_add_rect(nw_region *s, nw_rect x) {
  if (rect_empty(x))
    return NW_OK;
  /* Subtract what is already there, then insert the remaining pieces. */
  size_t cap = 8, n = 1;
  nw_rect *pieces = malloc(cap * sizeof *pieces);
  if (!pieces)
    return NW_ERR_NOMEM;
  pieces[0] = x;
  for (size_t i = 0; i < s->n && n > 0; i++) {
    nw_rect *next = malloc((4 * n) * sizeof *next);
    if (!next) {
      free(pieces);
      return NW_ERR_NOMEM;
    }
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
      m += (size_t)rect_minus(pieces[j], s->r[i], next + m);
    free(pieces);
    pieces = next;
    n = m;
  }
  nw_status st = NW_OK;
  for (size_t j = 0; j < n && st == NW_OK; j++)
    st = insert_disjoint(s, pieces[j]);
  free(pieces);
  return st;
}

nw_status nw_region_add_range(nw_region *s, uint64_t lo, uint64_t hi) {
  if (lo >= hi)
    return NW_OK;
  uint64_t p = s->pitch, r0 = lo / p, c0 = lo % p, r1 = (hi - 1) / p, c1 = (hi - 1) % p + 1;
  if (r0 == r1)
    return nw_region_add_rect(s, (nw_rect){r0, r0 + 1, c0, c1});
  nw_status st = NW_OK;
  uint64_t full0 = r0, full1 = r1 + 1; /* rows wholly covered: [full0, full1) */
  if (c0 > 0) {
    st = nw_region_add_rect(s, (nw_rect){r0, r0 + 1, c0, p});
    full0 = r0 + 1;
  }
  if (st == NW_OK && c1 < p) {
    st = nw_region_add_rect(s, (nw_rect){r1, r1 + 1, 0, c1});
    full1 = r1;
  }
  if (st == NW_OK && full0 < full1)
    st = nw_region_add_rect(s, (nw_rect){full0, full1, 0, p});
  return st;
}

nw_status nw_quad_check(nw_quad q, uint64_t space_size, char *why, size_t why_len) {
  char dummy[1];
  if (!why) {
    why = dummy;
    why_len = sizeof dummy;
  }
  if (q.length == 0 || q.count == 0) {
    snprintf(why, why_len, "quad (offset %llu, length %llu, step %llu, count %llu) is empty",
             (unsigned long long)q.offset, (unsigned long long)q.length, (unsigned long long)q.step,
             (unsigned long long)q.count);
    return NW_ERR_ARG;
  }
  if (q.count > 1 && q.step < q.length) {
    snprintf(why, why_len,
             "quad (offset %llu, length %llu, step %llu, count %llu) has a step shorter than "
             "its length",
             (unsigned long long)q.offset, (unsigned long long)q.length, (unsigned long long)q.step,
             (unsigned long long)q.count);
    return NW_ERR_ARG;
  }
  /* end = offset + (count-1)*step + length, checked for overflow at each step */
  uint64_t span = 0;
  int overflow = q.count > 1 && q.step > 0 && q.count - 1 > UINT64_MAX / q.step;
  if (!overflow)
    span = (q.count - 1) * q.step;
  overflow = overflow || span > UINT64_MAX - q.length || span + q.length > UINT64_MAX - q.offset;
  if (overflow || q.offset + span + q.length > space_size) {
    if (overflow)
      snprintf(why, why_len,
               "quad (offset %llu, length %llu, step %llu, count %llu) ends past 2^64, outside "
               "the %llu-byte space",
               (unsigned long long)q.offset, (unsigned long long)q.length,
               (unsigned long long)q.step, (unsigned long long)q.count,
               (unsigned long long)space_size);
    else
      snprintf(why, why_len,
               "quad (offset %llu, length %llu, step %llu, count %llu) ends at byte %llu, past "
               "the end of the %llu-byte space",
               (unsigned long long)q.offset, (unsigned long long)q.length,
               (unsigned long long)q.step, (unsigned long long)q.count,
               (unsigned long long)(q.offset + span + q.length), (unsigned long long)space_size);
    return NW_ERR_RANGE;
  }
  return NW_OK;
}

nw_status nw_region_add_quad(nw_region *s, nw_quad q) {
  uint64_t p = s->pitch;
  if (q.length == 0 || q.count == 0)
    return NW_OK;
  if (q.count == 1 || q.length == q.step)
    return nw_region_add_range(s, q.offset, q.offset + (q.count - 1) * q.step + q.length);
  /* One segment per row, all in the same columns: one rectangle. */
  if (q.step == p && q.offset % p + q.length <= p)
    return nw_region_add_rect(
        s, (nw_rect){q.offset / p, q.offset / p + q.count, q.offset % p, q.offset % p + q.length});
  nw_status st = NW_OK;
  for (uint64_t i = 0; i < q.count && st == NW_OK; i++)
    st = nw_region_add_range(s, q.offset + i * q.step, q.offset + i * q.step + q.length);
  return st;
}

nw_status nw_region_add(nw_region *s, const nw_region *other) {
  nw_status st = NW_OK;
  for (size_t i = 0; i < other->n && st == NW_OK; i++)
    st = nw_region_add_rect(s, other->r[i]);
  return st;
}

nw_status nw_region_subtract(nw_region *s, const nw_region *other) {
  for (size_t j = 0; j < other->n; j++) {
    nw_rect b = other->r[j];
    /* Rebuild the set from each rectangle minus b; pieces stay disjoint. */
    size_t n = s->n;
    nw_rect *old = s->r;
    s->r = NULL;
    s->n = s->cap = 0;
    nw_status st = NW_OK;
    for (size_t i = 0; i < n && st == NW_OK; i++) {
      nw_rect out[4];
      int k = rect_minus(old[i], b, out);
      for (int m = 0; m < k && st == NW_OK; m++)
        st = insert_disjoint(s, out[m]);
    }
    free(old);
    if (st != NW_OK)
      return st;
  }
  return NW_OK;
}

nw_status nw_region_intersect(nw_region *out, const nw_region *a, const nw_region *b) {
  nw_region_clear(out);
  out->pitch = a->pitch;
  nw_status st = NW_OK;
  for (size_t i = 0; i < a->n && st == NW_OK; i++)
    for (size_t j = 0; j < b->n && st == NW_OK; j++) {
      nw_rect x = rect_and(a->r[i], b->r[j]);
      if (!rect_empty(x))
        st = insert_disjoint(out, x); /* pieces of disjoint sets are disjoint */
    }
  return st;
}

uint64_t nw_region_overlap_bytes(const nw_region *a, const nw_region *b) {
  uint64_t bytes = 0; /* both sets are disjoint rectangles, so the pieces are disjoint too */
  for (size_t i = 0; i < a->n; i++)
    for (size_t j = 0; j < b->n; j++) {
      nw_rect x = rect_and(a->r[i], b->r[j]);
      if (!rect_empty(x))
        bytes += (x.row1 - x.row0) * (x.col1 - x.col0);
    }
  return bytes;
}

int nw_region_empty(const nw_region *s) {
  return s->n == 0;
}

uint64_t nw_region_bytes(const nw_region *s) {
  uint64_t b = 0;
  for (size_t i = 0; i < s->n; i++)
    b += (s->r[i].row1 - s->r[i].row0) * (s->r[i].col1 - s->r[i].col0);
  return b;
}

int nw_region_contains(const nw_region *a, const nw_region *b) {
  /* b is inside a when the bytes of b that a covers are all of b's bytes. */
  uint64_t covered = 0;
  for (size_t j = 0; j < b->n; j++)
    for (size_t i = 0; i < a->n; i++) {
      nw_rect x = rect_and(a->r[i], b->r[j]);
      if (!rect_empty(x))
        covered += (x.row1 - x.row0) * (x.col1 - x.col0);
    }
  return covered == nw_region_bytes(b);
}

void nw_region_bounds(const nw_region *s, uint64_t *lo, uint64_t *hi) {
  *lo = *hi = 0;
  for (size_t i = 0; i < s->n; i++) {
    uint64_t l = s->r[i].row0 * s->pitch + s->r[i].col0;
    uint64_t h = (s->r[i].row1 - 1) * s->pitch + s->r[i].col1;
    if (i == 0 || l < *lo)
      *lo = l;
    if (i == 0 || h > *hi)
      *hi = h;
  }
}

void nw_region_gather_from(const nw_region *s, const unsigned char *space, uint64_t lo,
                           unsigned char *packed) {
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    uint64_t w = r->col1 - r->col0;
    for (uint64_t row = r->row0; row < r->row1; row++, packed += w)
      memcpy(packed, space + (row * s->pitch + r->col0 - lo), w);
  }
}

void nw_region_gather(const nw_region *s, const unsigned char *space, unsigned char *packed) {
  nw_region_gather_from(s, space, 0, packed);
}

void nw_region_scatter(const nw_region *s, const unsigned char *packed, unsigned char *space) {
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    uint64_t w = r->col1 - r->col0;
    for (uint64_t row = r->row0; row < r->row1; row++, packed += w)
      memcpy(space + row * s->pitch + r->col0, packed, w);
  }
}
