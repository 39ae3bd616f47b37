/* test_tally.c: the growing set behind the transfer counts (core/data/tally.h), against a byte
 * bitmap. Random parts (quads of several shapes, in pitches from 1 to 97) are added one by one:
 * each part's fresh count must be the bytes the bitmap lacked, the tally's bytes the bitmap's,
 * its two sets disjoint, and the small set must have joined the large one along the way (the
 * runs are long enough to pass the merge threshold several times). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tally.h"

static uint64_t rng_state = 99991;
static uint64_t rnd(uint64_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state % n;
}

enum { SIZE = 1 << 16 };

static void run(uint64_t pitch, int parts) {
  static unsigned char seen[SIZE];
  memset(seen, 0, sizeof seen);
  nw_tally t;
  nw_tally_init(&t, pitch);
  int wrong_fresh = 0, merges = 0;
  uint64_t total = 0;
  for (int i = 0; i < parts; i++) {
    nw_quad q = {.length = 1 + rnd(48), .count = 1 + rnd(8)};
    q.step = q.length + rnd(3) * pitch; /* steps of whole rows make rectangles */
    q.offset = rnd(SIZE);
    if (nw_quad_check(q, SIZE, NULL, 0) != NW_OK)
      continue;
    nw_region part;
    nw_region_init(&part, pitch);
    CHECK(nw_region_add_quad(&part, q) == NW_OK);
    uint64_t want = 0;
    for (uint64_t s = 0; s < q.count; s++)
      for (uint64_t b = q.offset + s * q.step; b < q.offset + s * q.step + q.length; b++)
        if (!seen[b]) {
          seen[b] = 1;
          want++;
        }
    uint64_t large_before = nw_region_bytes(&t.large);
    uint64_t fresh = 1234567;
    CHECK(nw_tally_add(&t, &part, &fresh) == NW_OK);
    wrong_fresh += fresh != want;
    merges += nw_region_bytes(&t.large) != large_before; /* only a merge changes it */
    total += want;
    nw_region_free(&part);
  }
  CHECK(wrong_fresh == 0);
  CHECK(nw_tally_bytes(&t) == total);
  CHECK(nw_region_overlap_bytes(&t.large, &t.recent) == 0);
  CHECK(merges >= 2);
  nw_tally_free(&t);
}

int main(void) {
  uint64_t pitches[] = {1, 7, 64, 97, 256};
  for (size_t i = 0; i < sizeof pitches / sizeof *pitches; i++)
    run(pitches[i], 4000);
  return check_report("tally");
}
