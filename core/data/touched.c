/* touched.c: see touched.h. */
#include "touched.h"

#include <stdlib.h>

#define LEAF_WORDS (NW_TOUCHED_LEAF_PAGES / 64)

void nw_touched_init(nw_touched *t, uint64_t bytes) {
  uint64_t pages = bytes / NW_TOUCHED_PAGE + (bytes % NW_TOUCHED_PAGE != 0);
  *t = (nw_touched){.leaf = NULL, .pages = pages, .left = pages, .bytes = bytes};
}

static uint64_t leaves(const nw_touched *t) {
  return t->pages / NW_TOUCHED_LEAF_PAGES + (t->pages % NW_TOUCHED_LEAF_PAGES != 0);
}

void nw_touched_free(nw_touched *t) {
  for (uint64_t i = 0; t->leaf && i < leaves(t); i++)
    free(t->leaf[i]);
  free(t->leaf);
  t->leaf = NULL;
}

/* Out of memory the count stops (0 from then on): a cost the simulator leaves out, never a
 * failed run. */
static uint64_t *leaf_of(nw_touched *t, uint64_t page) {
  if (t->lost)
    return NULL;
  if (!t->leaf && !(t->leaf = calloc((size_t)leaves(t), sizeof *t->leaf))) {
    t->lost = 1;
    return NULL;
  }
  uint64_t **l = &t->leaf[page / NW_TOUCHED_LEAF_PAGES];
  if (!*l && !(*l = calloc(LEAF_WORDS, sizeof **l)))
    t->lost = 1;
  return *l;
}

static unsigned popcount64(uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Pages [first, last] of t: marks them, returns how many were new; 64 pages a step (a row of
 * a large space spans dozens). */
static uint64_t mark(nw_touched *t, uint64_t first, uint64_t last) {
  if (last >= t->pages)
    last = t->pages - 1;
  uint64_t fresh = 0;
  for (uint64_t p = first; p <= last && t->left > 0;) {
    uint64_t *l = leaf_of(t, p);
    if (!l)
      return fresh;
    uint64_t w = p % NW_TOUCHED_LEAF_PAGES, bit0 = w % 64;
    uint64_t n = 64 - bit0; /* pages of this word from p on */
    if (n > last - p + 1)
      n = last - p + 1;
    uint64_t mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << bit0;
    uint64_t add = mask & ~l[w / 64];
    l[w / 64] |= add;
    unsigned k = popcount64(add);
    fresh += k;
    t->left -= k;
    p += n;
  }
  return fresh;
}

uint64_t nw_touched_range(nw_touched *t, uint64_t lo, uint64_t hi) {
  if (hi <= lo || lo >= t->bytes || t->left == 0)
    return 0;
  return mark(t, lo / NW_TOUCHED_PAGE, (hi - 1) / NW_TOUCHED_PAGE);
}

uint64_t nw_touched_region(nw_touched *t, const nw_region *r) {
  uint64_t fresh = 0;
  for (size_t i = 0; i < r->n && t->left > 0 && !t->lost; i++) {
    const nw_rect *x = &r->r[i];
    for (uint64_t row = x->row0; row < x->row1 && t->left > 0 && !t->lost; row++)
      fresh += nw_touched_range(t, row * r->pitch + x->col0, row * r->pitch + x->col1);
  }
  return fresh;
}
