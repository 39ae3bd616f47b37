/* place.c: see place.h. */
#include "place.h"

nw_status nw_app_spread_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                               uint64_t seed) {
  return nw_app_spread_pixel_blocks(rt, s, n, bs, sizeof(float), seed);
}

/* The stream of nodes every spreading draws from the seed (xorshift64). */
static uint64_t first_draw(uint64_t seed) {
  return seed * 0xD1B54A32D192ED03ull + 0x9E3779B97F4A7C15ull;
}

static int next_node(nw_runtime *rt, uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return (int)(*x % (uint64_t)nw_runtime_nodes(rt));
}

nw_status nw_app_spread_pixel_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                                     uint64_t px, uint64_t seed) {
  return nw_app_place_pixel_blocks(rt, s, n, bs, px, seed, NW_PLACEMENT_BLOCKS);
}

nw_status nw_app_place_pixel_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                                    uint64_t px, uint64_t seed, nw_app_placement how) {
  uint64_t blocks = n / bs, row = n * px, brow = bs * px, x = first_draw(seed);
  nw_status st = NW_OK;
  /* A row (column) of blocks is one rectangle in the space's pitch: one placement, one draw. */
  if (how == NW_PLACEMENT_ROWS)
    for (uint64_t bi = 0; bi < blocks && st == NW_OK; bi++)
      st = nw_space_place(s, bi * bs * row, row, row, bs, next_node(rt, &x));
  else if (how == NW_PLACEMENT_COLUMNS)
    for (uint64_t bj = 0; bj < blocks && st == NW_OK; bj++)
      st = nw_space_place(s, bj * brow, brow, row, n, next_node(rt, &x));
  else
    for (uint64_t bi = 0; bi < blocks && st == NW_OK; bi++)
      for (uint64_t bj = 0; bj < blocks && st == NW_OK; bj++)
        st = nw_space_place(s, bi * bs * row + bj * brow, brow, row, bs, next_node(rt, &x));
  return st;
}

nw_status nw_app_spread_ranges(nw_runtime *rt, nw_space *s, uint64_t ranges, uint64_t bytes,
                               uint64_t seed) {
  uint64_t x = first_draw(seed);
  nw_status st = NW_OK;
  for (uint64_t k = 0; k < ranges && st == NW_OK; k++)
    st = nw_space_place(s, k * bytes, bytes, bytes, 1, next_node(rt, &x));
  return st;
}

nw_status nw_app_place_ranges(nw_runtime *rt, nw_space *s, uint64_t ranges, uint64_t bytes,
                              uint64_t seed, nw_app_placement how) {
  if (how != NW_PLACEMENT_LOCAL)
    return nw_app_spread_ranges(rt, s, ranges, bytes, seed);
  uint64_t nodes = (uint64_t)nw_runtime_nodes(rt), first = 0;
  nw_status st = NW_OK;
  /* Node j's ranges run from the first k with k * N / ranges >= j: one placement per node. */
  for (uint64_t j = 0; j < nodes && st == NW_OK; j++) {
    uint64_t end = ((j + 1) * ranges + nodes - 1) / nodes; /* ceil((j + 1) ranges / N) */
    if (end > first)
      st =
          nw_space_place(s, first * bytes, (end - first) * bytes, (end - first) * bytes, 1, (int)j);
    first = end;
  }
  return st;
}
