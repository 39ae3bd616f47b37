/* place.c: see place.h. */
#include "place.h"

nw_status nw_app_spread_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                               uint64_t seed) {
  return nw_app_spread_pixel_blocks(rt, s, n, bs, sizeof(float), seed);
}

nw_status nw_app_spread_pixel_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                                     uint64_t px, uint64_t seed) {
  uint64_t blocks = n / bs, row = n * px, brow = bs * px;
  uint64_t x = seed * 0xD1B54A32D192ED03ull + 0x9E3779B97F4A7C15ull;
  nw_status st = NW_OK;
  for (uint64_t bi = 0; bi < blocks && st == NW_OK; bi++)
    for (uint64_t bj = 0; bj < blocks && st == NW_OK; bj++) {
      x ^= x << 13; /* xorshift64 */
      x ^= x >> 7;
      x ^= x << 17;
      int node = (int)(x % (uint64_t)nw_runtime_nodes(rt));
      st = nw_space_place(s, bi * bs * row + bj * brow, brow, row, bs, node);
    }
  return st;
}
