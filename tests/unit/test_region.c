/* test_region.c: region sets (core/region.h): the rectangle cases that keep the directory
 * small, a brute-force cross-check of every operation against a byte bitmap, a randomized
 * property test of the canonical form over many pitches, and the fragmented one-row workload
 * that was quadratic (its sizes would take hours with pairwise merging). */
#include <stdlib.h>
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

/* The canonical form of region.c: rectangles sorted by (row0, col0), nonempty, inside the
 * pitch; each band (rectangles of equal rows) disjoint from and above the next; within a band,
 * intervals that neither overlap nor touch; touching bands with different intervals. */
static int canonical(const nw_region *s) {
  size_t prev = 0, band = 0; /* starts of the band above and of the current band */
  for (size_t i = 0; i < s->n; i++) {
    const nw_rect *r = &s->r[i], *b = &s->r[band];
    if (r->row0 >= r->row1 || r->col0 >= r->col1 || r->col1 > s->pitch)
      return 0;
    if (i == 0)
      continue;
    if (r->row0 == b->row0) { /* same band: same rows, intervals apart */
      if (r->row1 != b->row1 || r->col0 <= s->r[i - 1].col1)
        return 0;
    } else if (r->row0 < b->row1) {
      return 0; /* bands overlap, or are out of order */
    } else {
      prev = band;
      band = i;
    }
    /* the current band, complete when i ends it, must differ from a touching band above */
    int band_ends = i + 1 == s->n || s->r[i + 1].row0 != s->r[band].row0;
    if (band_ends && band > 0 && s->r[prev].row1 == s->r[band].row0 &&
        band - prev == i + 1 - band) {
      int same = 1;
      for (size_t k = 0; k < band - prev; k++)
        same &= s->r[prev + k].col0 == s->r[band + k].col0 &&
                s->r[prev + k].col1 == s->r[band + k].col1;
      if (same)
        return 0;
    }
  }
  return 1;
}

static int same_array(const nw_region *a, const nw_region *b) {
  return a->n == b->n && (a->n == 0 || memcmp(a->r, b->r, a->n * sizeof *a->r) == 0);
}

static void shuffle(uint64_t *v, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)rnd(i);
    uint64_t t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

/* The set of a bitmap, built from its maximal byte runs added in random order, or (bytes) from
 * each of its bytes added alone in random order: either way it must equal, array for array,
 * the set that the operations built. */
static void from_bitmap(nw_region *s, uint64_t pitch, const unsigned char *map, uint64_t size,
                        int bytes) {
  uint64_t *lo = malloc((size + 1) * sizeof *lo);
  size_t n = 0;
  for (uint64_t b = 0; b < size; b++)
    if (map[b] && (bytes || b == 0 || !map[b - 1]))
      lo[n++] = b;
  shuffle(lo, n);
  nw_region_init(s, pitch);
  for (size_t i = 0; i < n; i++) {
    uint64_t hi = lo[i] + 1;
    while (!bytes && hi < size && map[hi])
      hi++;
    nw_region_add_range(s, lo[i], hi);
  }
  free(lo);
}

/* Random quads (one to three) as a set and a bitmap. */
static void random_set(nw_region *s, uint64_t pitch, unsigned char *map, uint64_t size) {
  nw_region_init(s, pitch);
  memset(map, 0, size);
  int quads = 1 + (int)rnd(3);
  for (int k = 0; k < quads; k++) {
    nw_quad q;
    q.length = 1 + rnd(rnd(2) ? 8 : size / 3 + 1);
    q.count = 1 + rnd(rnd(2) ? 4 : 40);
    q.step = q.length + rnd(rnd(2) ? 4 : pitch + 3);
    q.offset = rnd(size);
    if (nw_quad_check(q, size, NULL, 0) != NW_OK)
      continue;
    CHECK(nw_region_add_quad(s, q) == NW_OK);
    quad_bits(q, map, 1);
  }
}

/* Every operation against a bitmap, over many seeds, space sizes and pitches (1, the whole
 * space as one row, dividing the size or not), with the canonical form checked after each:
 * sorted, disjoint, bands joined, and equal sets stored as identical arrays. */
static void property_check(void) {
  enum { MAXSIZE = 700 };
  unsigned char want[MAXSIZE], got[MAXSIZE], omap[MAXSIZE], space[MAXSIZE], packed[MAXSIZE],
      back[MAXSIZE];
  int bitmap_errors = 0, not_canonical = 0, not_identical = 0, byte_errors = 0, bound_errors = 0,
      contain_errors = 0, overlap_errors = 0, inter_errors = 0, roundtrip_errors = 0;
  for (int seed = 1; seed <= 400; seed++) {
    rng_state = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
    uint64_t size = 1 + rnd(MAXSIZE);
    uint64_t pitches[] = {1, size, 2 + rnd(30), size / 2 + 1, size - rnd(size) / 3, 7};
    uint64_t pitch = pitches[seed % 6];
    if (pitch == 0)
      pitch = 1;
    nw_region s, other, inter, again;
    nw_region_init(&s, pitch);
    memset(want, 0, size);
    for (int op = 0; op < 16; op++) {
      random_set(&other, pitch, omap, size);
      not_canonical += !canonical(&other);
      /* queries against s before the change */
      int inside = 1;
      uint64_t common = 0;
      for (uint64_t b = 0; b < size; b++) {
        inside &= !omap[b] || want[b];
        common += omap[b] && want[b];
      }
      contain_errors += nw_region_contains(&s, &other) != inside;
      overlap_errors += nw_region_overlap_bytes(&s, &other) != common;
      overlap_errors += nw_region_overlap_bytes(&other, &s) != common;
      nw_region_init(&inter, pitch);
      nw_region_init(&again, pitch);
      CHECK(nw_region_intersect(&inter, &s, &other) == NW_OK);
      not_canonical += !canonical(&inter);
      if (to_bitmap(&inter, got, size) != 0)
        inter_errors++;
      for (uint64_t b = 0; b < size; b++)
        inter_errors += got[b] != (want[b] && omap[b]);
      CHECK(nw_region_intersect(&again, &other, &s) == NW_OK); /* same set: same array */
      not_identical += !same_array(&inter, &again);
      nw_region_free(&inter);
      nw_region_free(&again);
      /* the change: a set, a quad, a range or a rectangle added, or a set subtracted */
      switch (rnd(6)) {
      case 0:
      case 1:
        CHECK(nw_region_subtract(&s, &other) == NW_OK);
        for (uint64_t b = 0; b < size; b++)
          want[b] &= !omap[b];
        break;
      case 2: {
        uint64_t lo = rnd(size), hi = lo + 1 + rnd(size - lo);
        CHECK(nw_region_add_range(&s, lo, hi) == NW_OK);
        memset(want + lo, 1, hi - lo);
        break;
      }
      case 3: {
        uint64_t rows = (size + pitch - 1) / pitch, r0 = rnd(rows), c0 = rnd(pitch);
        nw_rect x = {r0, r0 + 1 + rnd(rows - r0), c0, c0 + 1 + rnd(pitch - c0)};
        while (x.row0 < x.row1 && (x.row1 - 1) * pitch + x.col1 > size)
          x.row1--; /* keep it inside the space */
        CHECK(nw_region_add_rect(&s, x) == NW_OK);
        for (uint64_t r = x.row0; r < x.row1; r++)
          memset(want + r * pitch + x.col0, 1, x.col1 - x.col0);
        break;
      }
      default:
        CHECK(nw_region_add(&s, &other) == NW_OK);
        for (uint64_t b = 0; b < size; b++)
          want[b] |= omap[b];
      }
      nw_region_free(&other);
      not_canonical += !canonical(&s);
      if (to_bitmap(&s, got, size) != 0)
        bitmap_errors++;
      uint64_t count = 0, lo = 0, hi = 0, blo, bhi;
      for (uint64_t b = 0; b < size; b++) {
        bitmap_errors += got[b] != want[b];
        count += want[b];
        if (want[b] && count == 1)
          lo = b;
        if (want[b])
          hi = b + 1;
      }
      byte_errors += nw_region_bytes(&s) != count;
      nw_region_bounds(&s, &blo, &bhi);
      bound_errors += blo != lo || bhi != hi;
      /* the same bytes built another way give the same array */
      from_bitmap(&again, pitch, want, size, op % 4 == 3);
      not_identical += !same_array(&s, &again);
      nw_region_free(&again);
    }
    /* gather then scatter puts the same bytes back, in the array's order */
    for (uint64_t b = 0; b < size; b++)
      space[b] = (unsigned char)(b * 7 + 1);
    memset(back, 0, size);
    nw_region_gather(&s, space, packed);
    nw_region_scatter(&s, packed, back);
    for (uint64_t b = 0; b < size; b++)
      roundtrip_errors += back[b] != (want[b] ? space[b] : 0);
    nw_region_free(&s);
  }
  CHECK(bitmap_errors == 0);
  CHECK(not_canonical == 0);
  CHECK(not_identical == 0);
  CHECK(byte_errors == 0);
  CHECK(bound_errors == 0);
  CHECK(contain_errors == 0);
  CHECK(overlap_errors == 0);
  CHECK(inter_errors == 0);
  CHECK(roundtrip_errors == 0);
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
  property_check();
  return check_report("region");
}
