/* test_region.c: region sets (core/region.h): the rectangle cases that keep the directory
 * small, and a brute-force cross-check of every operation against a byte bitmap. */
#include <string.h>

#include "check.h"
#include "region.h"

/* Bytes of the set, as a bitmap over a space of `size` bytes; -1 if rectangles overlap or
 * leave the space. */
static int to_bitmap(const nw_region *s, unsigned char *map, uint64_t size) {
  memset(map, 0, size);
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i];
    if (r->col1 > s->pitch || r->row0 >= r->row1 || r->col0 >= r->col1)
      return -1;
    for (uint64_t row = r->row0; row < r->row1; row++)
      for (uint64_t c = r->col0; c < r->col1; c++) {
        uint64_t b = row * s->pitch + c;
        if (b >= size || map[b])
          return -1;
        map[b] = 1;
      }
  }
  return 0;
}

static uint64_t rng_state = 12345;
static uint64_t rnd(uint64_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state % n;
}

static void quad_bits(nw_quad q, unsigned char *map, int value) {
  for (uint64_t i = 0; i < q.count; i++)
    for (uint64_t k = 0; k < q.length; k++)
      map[q.offset + i * q.step + k] = (unsigned char)value;
}

static void cross_check(void) {
  enum { SIZE = 384 };
  unsigned char want[SIZE], got[SIZE], space[SIZE], packed[SIZE], back[SIZE];
  int mismatches = 0, overlaps = 0, byte_errors = 0, roundtrip_errors = 0, contain_errors = 0,
      overlap_errors = 0;
  for (int trial = 0; trial < 300; trial++) {
    uint64_t pitch = 1 + rnd(24);
    nw_region s, other, inter;
    nw_region_init(&s, pitch);
    memset(want, 0, sizeof want);
    for (int op = 0; op < 12; op++) {
      nw_quad q;
      q.length = 1 + rnd(40);
      q.count = 1 + rnd(6);
      q.step = q.length + rnd(30);
      q.offset = rnd(SIZE);
      if (nw_quad_check(q, SIZE, NULL, 0) != NW_OK)
        continue;
      nw_region_init(&other, pitch);
      nw_region_add_quad(&other, q);
      /* contains(s, other) must match the bitmap before the operation */
      unsigned char qmap[SIZE];
      memset(qmap, 0, sizeof qmap);
      quad_bits(q, qmap, 1);
      int inside = 1;
      uint64_t common = 0;
      for (int b = 0; b < SIZE; b++) {
        inside &= !qmap[b] || want[b];
        common += qmap[b] && want[b];
      }
      contain_errors += nw_region_contains(&s, &other) != inside;
      /* overlap_bytes counts the common bytes, either way round */
      overlap_errors += nw_region_overlap_bytes(&s, &other) != common;
      overlap_errors += nw_region_overlap_bytes(&other, &s) != common;
      /* intersect must give exactly the common bytes */
      nw_region_init(&inter, pitch);
      nw_region_intersect(&inter, &s, &other);
      if (to_bitmap(&inter, got, SIZE) != 0)
        overlaps++;
      for (int b = 0; b < SIZE; b++)
        mismatches += got[b] != (want[b] && qmap[b]);
      nw_region_free(&inter);
      if (rnd(3) == 0) {
        nw_region_subtract(&s, &other);
        quad_bits(q, want, 0);
      } else {
        nw_region_add(&s, &other);
        quad_bits(q, want, 1);
      }
      nw_region_free(&other);
      if (to_bitmap(&s, got, SIZE) != 0)
        overlaps++;
      uint64_t count = 0;
      for (int b = 0; b < SIZE; b++) {
        mismatches += got[b] != want[b];
        count += want[b];
      }
      byte_errors += nw_region_bytes(&s) != count;
    }
    /* gather then scatter puts the same bytes back, and only those */
    for (int b = 0; b < SIZE; b++)
      space[b] = (unsigned char)(b * 7 + 1);
    memset(back, 0, sizeof back);
    nw_region_gather(&s, space, packed);
    nw_region_scatter(&s, packed, back);
    for (int b = 0; b < SIZE; b++)
      roundtrip_errors += back[b] != (want[b] ? space[b] : 0);
    nw_region_free(&s);
  }
  CHECK(mismatches == 0);
  CHECK(overlaps == 0);
  CHECK(byte_errors == 0);
  CHECK(roundtrip_errors == 0);
  CHECK(contain_errors == 0);
  CHECK(overlap_errors == 0);
}

int main(void) {
  const uint64_t n = 1024, b = 64, row = n * 4, brow = b * 4;
  nw_region s;

  /* A matmul column of blocks: n segments, step = pitch: one rectangle. */
  nw_region_init(&s, row);
  CHECK(nw_region_add_quad(&s, (nw_quad){3 * brow, brow, row, n}) == NW_OK);
  CHECK(s.n == 1);
  CHECK(nw_region_bytes(&s) == n * brow);
  /* Its neighbour merges into one rectangle; all columns give the whole space, one rect. */
  CHECK(nw_region_add_quad(&s, (nw_quad){4 * brow, brow, row, n}) == NW_OK);
  CHECK(s.n == 1);
  for (uint64_t j = 0; j < n / b; j++)
    nw_region_add_quad(&s, (nw_quad){j * brow, brow, row, n});
  CHECK(s.n == 1 && nw_region_bytes(&s) == n * row);
  nw_region_free(&s);

  /* A block row of A: b whole rows, contiguous. */
  nw_region_init(&s, row);
  nw_region_add_quad(&s, (nw_quad){2 * b * row, row, row, b});
  CHECK(s.n == 1 && nw_region_bytes(&s) == b * row);
  nw_region_free(&s);

  /* An unaligned contiguous range: partial first row, whole rows, partial last row. */
  nw_region_init(&s, 100);
  nw_region_add_range(&s, 150, 420);
  CHECK(s.n == 3);
  CHECK(nw_region_bytes(&s) == 270);
  uint64_t lo, hi;
  nw_region_bounds(&s, &lo, &hi);
  CHECK(lo == 150 && hi == 420);
  /* Subtracting it from itself leaves nothing. */
  nw_region copy;
  nw_region_copy(&copy, &s);
  nw_region_subtract(&s, &copy);
  CHECK(nw_region_empty(&s));
  nw_region_free(&copy);
  nw_region_free(&s);

  /* Quad checks. */
  char why[256];
  CHECK(nw_quad_check((nw_quad){0, 0, 1, 1}, 100, why, sizeof why) == NW_ERR_ARG);
  CHECK(nw_quad_check((nw_quad){0, 1, 1, 0}, 100, why, sizeof why) == NW_ERR_ARG);
  CHECK(nw_quad_check((nw_quad){0, 10, 5, 2}, 100, why, sizeof why) == NW_ERR_ARG);
  CHECK(nw_quad_check((nw_quad){0, 10, 20, 5}, 100, why, sizeof why) == NW_OK);  /* ends at 90 */
  CHECK(nw_quad_check((nw_quad){10, 10, 20, 5}, 100, why, sizeof why) == NW_OK); /* exact fit */
  CHECK(nw_quad_check((nw_quad){11, 10, 20, 5}, 100, why, sizeof why) == NW_ERR_RANGE);
  CHECK(strstr(why, "past the end") != NULL);
  CHECK(nw_quad_check((nw_quad){0, 8, 1ull << 63, 3}, 100, why, sizeof why) == NW_ERR_RANGE);

  cross_check();
  return check_report("region");
}
