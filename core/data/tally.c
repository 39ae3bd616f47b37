/* tally.c: a growing set counted part by part (see tally.h). */
#include "tally.h"

/* The small set joins the large one when it holds more than this many rectangles: merging
 * moves the large set once (O(n)), and that happens about every 2 sqrt(n) rectangles added,
 * while each addition moves at most the small set. The floor keeps small sets in one array. */
static size_t recent_limit(const nw_tally *t) {
  size_t s = 64;
  while (s * s < 4 * t->large.n)
    s *= 2;
  return s;
}

void nw_tally_init(nw_tally *t, uint64_t pitch) {
  nw_region_init(&t->large, pitch);
  nw_region_init(&t->recent, pitch);
}

void nw_tally_free(nw_tally *t) {
  nw_region_free(&t->large);
  nw_region_free(&t->recent);
}

nw_status nw_tally_add(nw_tally *t, const nw_region *part, uint64_t *fresh) {
  *fresh = 0;
  /* The two sets are disjoint, so their overlaps with part add up; counting them builds
   * nothing. A part seen before (an owner serving a block again) then costs two searches, and
   * a part wholly new (a node receiving a block) joins the small set as it is: only a part
   * that is both needs the difference built. */
  uint64_t bytes = nw_region_bytes(part);
  uint64_t known =
      nw_region_overlap_bytes(part, &t->large) + nw_region_overlap_bytes(part, &t->recent);
  if (known == bytes)
    return NW_OK;
  nw_status st = NW_OK;
  if (known == 0) {
    st = nw_region_add(&t->recent, part);
  } else {
    nw_region d; /* what the tally lacks of part */
    st = nw_region_copy(&d, part);
    if (st == NW_OK)
      st = nw_region_subtract(&d, &t->large);
    if (st == NW_OK)
      st = nw_region_subtract(&d, &t->recent);
    if (st == NW_OK)
      st = nw_region_add(&t->recent, &d);
    nw_region_free(&d);
  }
  if (st == NW_OK)
    *fresh = bytes - known;
  if (st == NW_OK && t->recent.n > recent_limit(t)) {
    st = nw_region_add(&t->large, &t->recent); /* unchanged when it fails */
    if (st == NW_OK)
      nw_region_clear(&t->recent);
  }
  return st;
}

uint64_t nw_tally_bytes(const nw_tally *t) {
  return nw_region_bytes(&t->large) + nw_region_bytes(&t->recent);
}
