/* chunked.c: a region set in chunks cut at band boundaries (see chunked.h). */
#include "chunked.h"

#include <stdlib.h>
#include <string.h>

void nw_chunked_init(nw_chunked *s, uint64_t pitch) {
  *s = (nw_chunked){.pitch = pitch ? pitch : 1, .chunk = NW_CHUNK};
}

void nw_chunked_clear(nw_chunked *s) {
  for (size_t k = 0; k < s->nchunks; k++)
    nw_region_free(&s->c[k]);
  s->nchunks = 0;
}

void nw_chunked_free(nw_chunked *s) {
  nw_chunked_clear(s);
  free(s->c);
  s->c = NULL;
  s->cap = 0;
}

size_t nw_chunked_rects(const nw_chunked *s) {
  size_t n = 0;
  for (size_t k = 0; k < s->nchunks; k++)
    n += s->c[k].n;
  return n;
}

uint64_t nw_chunked_bytes(const nw_chunked *s) {
  uint64_t b = 0;
  for (size_t k = 0; k < s->nchunks; k++)
    b += nw_region_bytes(&s->c[k]);
  return b;
}

static uint64_t first_row(const nw_region *c) {
  return c->r[0].row0;
}
static uint64_t last_row(const nw_region *c) {
  return c->r[c->n - 1].row1;
}

/* The first chunk whose last row ends at or after (touching) / after (overlapping) row y:
 * chunks are in row order, so their last rows increase. */
static size_t first_reaching(const nw_chunked *s, uint64_t y, int touching) {
  size_t lo = 0, hi = s->nchunks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint64_t end = last_row(&s->c[mid]);
    if (touching ? end >= y : end > y)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* The first chunk from k whose first row starts after (touching) / at or after (overlapping)
 * row y. */
static size_t first_beyond(const nw_chunked *s, size_t k, uint64_t y, int touching) {
  size_t lo = k, hi = s->nchunks;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    uint64_t start = first_row(&s->c[mid]);
    if (touching ? start > y : start >= y)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* Chunks [*k0, *k1) hold every band of s whose rows overlap, or (touching) also touch, the
 * rows of the non-empty set r. */
static void chunks_of(const nw_chunked *s, const nw_region *r, int touching, size_t *k0,
                      size_t *k1) {
  uint64_t r0 = r->r[0].row0, r1 = r->r[r->n - 1].row1;
  *k0 = first_reaching(s, r0, touching);
  *k1 = first_beyond(s, *k0, r1, touching);
}

/* The chunks [k0, k1) as one region, into out (initialised here). */
static nw_status concat(const nw_chunked *s, size_t k0, size_t k1, nw_region *out) {
  nw_region_init(out, s->pitch);
  size_t n = 0;
  for (size_t k = k0; k < k1; k++)
    n += s->c[k].n;
  if (n == 0)
    return NW_OK;
  out->r = malloc(n * sizeof *out->r);
  if (!out->r)
    return NW_ERR_NOMEM;
  out->cap = n;
  for (size_t k = k0; k < k1; k++) {
    memcpy(out->r + out->n, s->c[k].r, s->c[k].n * sizeof *out->r);
    out->n += s->c[k].n;
  }
  return NW_OK;
}

/* Where the piece starting at i ends: about s->chunk rectangles on, at a band boundary, and at
 * the end when less than half a chunk would be left. */
static size_t piece_end(const nw_chunked *s, const nw_region *r, size_t i) {
  size_t e = i + s->chunk;
  if (e + s->chunk / 2 >= r->n)
    return r->n;
  while (e < r->n && r->r[e].row0 == r->r[e - 1].row0) /* inside a band */
    e++;
  return e;
}

/* Replaces the chunks [k0, k1) with copies of r's pieces. r may be (a copy of the struct of)
 * one of the chunks replaced: its pieces are copied before those chunks are freed. On failure
 * (out of memory) s is unchanged. */
static nw_status replace(nw_chunked *s, size_t k0, size_t k1, const nw_region *r) {
  size_t pieces = 0;
  for (size_t i = 0; i < r->n; i = piece_end(s, r, i))
    pieces++;
  size_t want = s->nchunks - (k1 - k0) + pieces;
  if (want > s->cap) {
    size_t cap = s->cap ? s->cap : 4;
    while (cap < want)
      cap *= 2;
    nw_region *c = realloc(s->c, cap * sizeof *c);
    if (!c)
      return NW_ERR_NOMEM;
    s->c = c;
    s->cap = cap;
  }
  nw_region *made = pieces ? calloc(pieces, sizeof *made) : NULL;
  if (pieces && !made)
    return NW_ERR_NOMEM;
  size_t m = 0;
  for (size_t i = 0; i < r->n; i = piece_end(s, r, i), m++) {
    size_t e = piece_end(s, r, i);
    nw_region_init(&made[m], s->pitch);
    made[m].r = malloc((e - i) * sizeof *made[m].r);
    if (!made[m].r) {
      for (size_t j = 0; j < m; j++)
        nw_region_free(&made[j]);
      free(made);
      return NW_ERR_NOMEM;
    }
    memcpy(made[m].r, r->r + i, (e - i) * sizeof *r->r);
    made[m].n = made[m].cap = e - i;
  }
  for (size_t k = k0; k < k1; k++)
    nw_region_free(&s->c[k]);
  if (s->nchunks > k1) /* s->c may be NULL when nothing moves */
    memmove(s->c + k0 + pieces, s->c + k1, (s->nchunks - k1) * sizeof *s->c);
  if (pieces)
    memcpy(s->c + k0, made, pieces * sizeof *made);
  free(made);
  s->nchunks = want;
  return NW_OK;
}

/* After chunk k changed in place: an empty chunk goes; a large one is cut; a small one joins
 * its successor when both fit in two chunks. Only the layout moves, never the set, and a
 * failure here (out of memory) leaves a valid, merely uneven, layout. */
static void reshape(nw_chunked *s, size_t k) {
  nw_region *c = &s->c[k];
  if (c->n == 0) {
    nw_region_free(c);
    memmove(s->c + k, s->c + k + 1, (s->nchunks - k - 1) * sizeof *s->c);
    s->nchunks--;
    return;
  }
  /* a chunk of one band cannot be cut: cutting would only scan and copy it on every change */
  if (c->n > 2 * s->chunk && c->r[0].row0 != c->r[c->n - 1].row0) {
    nw_region whole = *c; /* replace() may move the chunk array */
    replace(s, k, k + 1, &whole);
    return;
  }
  if (c->n < s->chunk / 4 && k + 1 < s->nchunks && c->n + s->c[k + 1].n <= 2 * s->chunk) {
    nw_region *d = &s->c[k + 1];
    nw_rect *r = realloc(c->r, (c->n + d->n) * sizeof *r);
    if (!r)
      return;
    memcpy(r + c->n, d->r, d->n * sizeof *r);
    c->r = r;
    c->n = c->cap = c->n + d->n;
    nw_region_free(d);
    memmove(s->c + k + 1, s->c + k + 2, (s->nchunks - k - 2) * sizeof *s->c);
    s->nchunks--;
  }
}

/* s := s op o, for union (add) or difference. */
static nw_status apply(nw_chunked *s, int add, const nw_region *o) {
  if (o->n == 0)
    return NW_OK;
  size_t k0, k1;
  chunks_of(s, o, 1, &k0, &k1);
  if (k1 == k0 && !add)
    return NW_OK;
  if (k1 - k0 == 1) { /* the common case: one chunk changes in place */
    nw_status st = add ? nw_region_add(&s->c[k0], o) : nw_region_subtract(&s->c[k0], o);
    if (st == NW_OK)
      reshape(s, k0);
    return st;
  }
  nw_region t; /* the chunks o touches (none: o goes in between), changed, then cut again */
  nw_status st = concat(s, k0, k1, &t);
  if (st == NW_OK)
    st = add ? nw_region_add(&t, o) : nw_region_subtract(&t, o);
  if (st == NW_OK)
    st = replace(s, k0, k1, &t);
  nw_region_free(&t);
  return st;
}

nw_status nw_chunked_add(nw_chunked *s, const nw_region *other) {
  return apply(s, 1, other);
}

nw_status nw_chunked_subtract(nw_chunked *s, const nw_region *other) {
  return apply(s, 0, other);
}

nw_status nw_chunked_add_range(nw_chunked *s, uint64_t lo, uint64_t hi) {
  nw_region r;
  nw_region_init(&r, s->pitch);
  nw_status st = nw_region_add_range(&r, lo, hi);
  if (st == NW_OK)
    st = apply(s, 1, &r);
  nw_region_free(&r);
  return st;
}

nw_status nw_chunked_assign(nw_chunked *s, const nw_region *r) {
  return replace(s, 0, s->nchunks, r);
}

int nw_chunked_contains(const nw_chunked *s, const nw_region *b) {
  if (b->n == 0)
    return 1;
  size_t k0, k1;
  chunks_of(s, b, 0, &k0, &k1);
  if (k1 - k0 == 1)
    return nw_region_contains(&s->c[k0], b);
  /* The chunks are disjoint: b lies in their union when they overlap all of its bytes. Counting
   * allocates nothing, unlike joining the chunks. */
  uint64_t in = 0;
  for (size_t k = k0; k < k1; k++)
    in += nw_region_overlap_bytes(&s->c[k], b);
  return in == nw_region_bytes(b);
}

nw_status nw_chunked_subtract_from(const nw_chunked *s, nw_region *x) {
  if (x->n == 0)
    return NW_OK;
  size_t k0, k1;
  chunks_of(s, x, 0, &k0, &k1);
  nw_status st = NW_OK;
  for (size_t k = k0; k < k1 && st == NW_OK && x->n; k++)
    st = nw_region_subtract(x, &s->c[k]);
  return st;
}

nw_status nw_chunked_flatten(const nw_chunked *s, nw_region *out) {
  return concat(s, 0, s->nchunks, out);
}
