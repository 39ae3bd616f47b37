/* test_region.c: region sets (core/data/region.h): the rectangle cases that keep the directory
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

/* The canonical form of the bytes of map[0..size) in a pitch, counted straight from the bitmap:
 * each row's runs of bytes are its intervals, and a row with the same intervals as the row
 * above continues that row's band (no new rectangles). */
static size_t bitmap_rects(const unsigned char *map, uint64_t size, uint64_t pitch) {
  uint64_t w = pitch < size ? pitch : size; /* a row holds at most w bytes of the bitmap */
  uint64_t *prev = malloc((w + 1) * sizeof *prev), *cur = malloc((w + 1) * sizeof *cur);
  size_t rects = 0, np = 0; /* prev[0..np): the row above's run starts and ends, alternating */
  for (uint64_t row = 0; row * pitch < size; row++) {
    uint64_t base = row * pitch, end = size - base < pitch ? size : base + pitch;
    size_t nc = 0;
    for (uint64_t x = base; x < end; x++)
      if (map[x] && (x == base || !map[x - 1]))
        cur[nc++] = x - base;
      else if (!map[x] && x > base && map[x - 1])
        cur[nc++] = x - base;
    if (nc % 2)
      cur[nc++] = end - base; /* a run to the row's end */
    if (nc != np || memcmp(cur, prev, nc * sizeof *cur) != 0)
      rects += nc / 2;
    uint64_t *t = prev;
    prev = cur;
    cur = t;
    np = nc;
  }
  free(prev);
  free(cur);
  return rects;
}

/* The set matches the bitmap byte for byte, and has exactly its canonical rectangle count. */
static int matches(const nw_region *s, const unsigned char *want, uint64_t size,
                   unsigned char *scratch) {
  if (to_bitmap(s, scratch, size) != 0 || memcmp(scratch, want, size) != 0)
    return 0;
  return canonical(s) && s->n == bitmap_rects(want, size, s->pitch);
}

/* Ranges [lo[i], hi[i]) added one call each, in the given order, to a small staging set that is
 * merged into a larger one every 64 ranges, merged in turn into s every 4096: how a caller adds
 * many scattered pieces (each add into a sorted array moves its tail; each merge is a sweep). */
static void add_staged(nw_region *s, const uint64_t *lo, const uint64_t *hi, size_t n) {
  nw_region stage, mid;
  nw_region_init(&stage, s->pitch);
  nw_region_init(&mid, s->pitch);
  int failures = 0;
  for (size_t i = 0; i < n; i++) {
    failures += nw_region_add_range(&stage, lo[i], hi[i]) != NW_OK;
    if (stage.n >= 64 || i + 1 == n) {
      failures += nw_region_add(&mid, &stage) != NW_OK;
      nw_region_clear(&stage);
    }
    if (mid.n >= 4096 || i + 1 == n) {
      failures += nw_region_add(s, &mid) != NW_OK;
      nw_region_clear(&mid);
    }
  }
  CHECK(failures == 0);
  nw_region_free(&stage);
  nw_region_free(&mid);
}

/* The workload that was quadratic: a space one row wide (pitch = size, 2^40 bytes)
 * fragmented by 200000 short ranges added in random order, and set operations between two
 * such sets; then the same in many rows (pitch 4096, quads whose step is not the pitch).
 * Pairwise merging needs about 10^10 rectangle steps to build each set and about 10^15 for
 * the subtraction; here each step is a sweep. Counts are exact, from bitmaps or by design. */
static void fragmented(void) {
  enum { N = 200000 };
  const uint64_t row = 1ull << 40, span = 8ull * N;
  uint64_t *lo = malloc(N * sizeof *lo), *hi = malloc(N * sizeof *hi);
  unsigned char *want = malloc(1u << 24), *other = malloc(1u << 24), *scratch = malloc(1u << 24);
  nw_region a, b, c, d;

  /* a: [8k, 8k+3) and b: [8k+2, 8k+7) for k < N, each in its own random order. */
  for (size_t k = 0; k < N; k++)
    lo[k] = 8 * k;
  shuffle(lo, N);
  for (size_t k = 0; k < N; k++)
    hi[k] = lo[k] + 3;
  nw_region_init(&a, row);
  add_staged(&a, lo, hi, N);
  CHECK(a.n == N && nw_region_bytes(&a) == 3ull * N && canonical(&a));
  shuffle(lo, N);
  for (size_t k = 0; k < N; k++) {
    lo[k] += 2;
    hi[k] = lo[k] + 5;
  }
  nw_region_init(&b, row);
  add_staged(&b, lo, hi, N);
  CHECK(b.n == N && nw_region_bytes(&b) == 5ull * N && canonical(&b));
  /* b again as one quad of N segments: the same array */
  nw_region_init(&c, row);
  CHECK(nw_region_add_quad(&c, (nw_quad){2, 5, 8, N}) == NW_OK);
  CHECK(same_array(&b, &c));
  nw_region_free(&c);

  /* a - b = [8k, 8k+2); a & b = [8k+2, 8k+3); a | b = [8k, 8k+7) */
  nw_region_init(&c, row);
  CHECK(nw_region_intersect(&c, &a, &b) == NW_OK);
  CHECK(c.n == N && nw_region_bytes(&c) == (uint64_t)N && canonical(&c));
  CHECK(nw_region_overlap_bytes(&a, &b) == (uint64_t)N);
  CHECK(nw_region_copy(&d, &a) == NW_OK);
  CHECK(nw_region_subtract(&d, &b) == NW_OK);
  CHECK(d.n == N && nw_region_bytes(&d) == 2ull * N && canonical(&d));
  CHECK(nw_region_add(&c, &d) == NW_OK); /* (a & b) | (a - b) = a */
  CHECK(same_array(&c, &a));
  nw_region_free(&c);
  CHECK(nw_region_copy(&c, &a) == NW_OK);
  CHECK(nw_region_add(&c, &b) == NW_OK);
  CHECK(c.n == N && nw_region_bytes(&c) == 7ull * N && canonical(&c));
  CHECK(nw_region_contains(&c, &a) && nw_region_contains(&c, &b) && !nw_region_contains(&a, &b));
  CHECK(nw_region_subtract(&c, &b) == NW_OK); /* (a | b) - b = a - b */
  CHECK(same_array(&c, &d));
  nw_region_free(&c);
  nw_region_free(&d);

  /* Overlapping ranges of 1 to 16 bytes at random places in the first 2^24 bytes, checked
   * against a bitmap, then subtracted from and intersected with a. */
  memset(want, 0, 1u << 24);
  for (size_t k = 0; k < N; k++) {
    lo[k] = rnd((1u << 24) - 16);
    hi[k] = lo[k] + 1 + rnd(16);
    memset(want + lo[k], 1, hi[k] - lo[k]);
  }
  nw_region_init(&c, row);
  add_staged(&c, lo, hi, N);
  CHECK(matches(&c, want, 1u << 24, scratch));
  memset(other, 0, 1u << 24);
  for (uint64_t k = 0; k < N; k++)
    memset(other + 8 * k, 1, 3); /* a */
  nw_region_init(&d, row);
  CHECK(nw_region_intersect(&d, &c, &a) == NW_OK);
  for (uint64_t x = 0; x < span; x++)
    scratch[x] = want[x] && other[x];
  memcpy(other, scratch, span); /* other := want & a, on a's span (a has nothing after) */
  memset(other + span, 0, (1u << 24) - span);
  CHECK(matches(&d, other, 1u << 24, scratch));
  CHECK(nw_region_overlap_bytes(&a, &c) == nw_region_bytes(&d));
  CHECK(nw_region_subtract(&c, &a) == NW_OK);
  for (uint64_t x = 0; x < (1u << 24); x++)
    want[x] = want[x] && !(x < span && x % 8 < 3);
  CHECK(matches(&c, want, 1u << 24, scratch));
  nw_region_free(&c);
  nw_region_free(&d);
  nw_region_free(&a);
  nw_region_free(&b);

  /* A few ranges one call each straight into the set (no staging): O(log n) and a memmove. */
  memset(want, 0, 1u << 24);
  nw_region_init(&c, row);
  for (size_t k = 0; k < 10000; k++) {
    uint64_t x = rnd((1u << 24) - 16), len = 1 + rnd(16);
    CHECK(nw_region_add_range(&c, x, x + len) == NW_OK);
    memset(want + x, 1, len);
  }
  CHECK(matches(&c, want, 1u << 24, scratch));
  nw_region_free(&c);

  /* Many rows: 4096 rows of 4096 bytes; eight interleaved quads (segments of 300 bytes every
   * 3000, 50 bytes apart, crossing rows) added in random order, then every third one taken
   * out again by a quad of wider segments. */
  const uint64_t pitch = 4096, size = 1u << 24;
  uint64_t order[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  shuffle(order, 8);
  memset(want, 0, size);
  nw_region_init(&c, pitch);
  for (int i = 0; i < 8; i++) {
    nw_quad q = {order[i] * 350, 300, 3000, 5000};
    CHECK(nw_region_add_quad(&c, q) == NW_OK);
    quad_bits(q, want, 1);
  }
  CHECK(matches(&c, want, size, scratch));
  for (int i = 0; i < 8; i += 3) {
    nw_quad q = {i * 350 + 100, 340, 3000, 5000};
    nw_region_init(&d, pitch);
    CHECK(nw_region_add_quad(&d, q) == NW_OK);
    CHECK(nw_region_subtract(&c, &d) == NW_OK);
    quad_bits(q, want, 0);
    nw_region_free(&d);
  }
  CHECK(matches(&c, want, size, scratch));
  nw_region_free(&c);

  free(lo);
  free(hi);
  free(want);
  free(other);
  free(scratch);
}

/* copy_into fills a view holding [lo, ...) with the set's bytes and nothing else; copy_from
 * puts them back: a tile of a wide matrix moves its own bytes, not the span of its rows. */
static void view_copies(void) {
  enum { PITCH = 96, ROWS = 12 };
  unsigned char space[PITCH * ROWS], view[PITCH * ROWS], back[PITCH * ROWS];
  for (int i = 0; i < PITCH * ROWS; i++)
    space[i] = (unsigned char)(i * 7 + 3);
  nw_region s;
  nw_region_init(&s, PITCH);
  nw_region_add_quad(&s, (nw_quad){2 * PITCH + 10, 16, PITCH, 5}); /* rows 2-6, cols 10-25 */
  nw_region_add_quad(&s, (nw_quad){8 * PITCH + 40, 8, PITCH, 2});  /* rows 8-9, cols 40-47 */
  uint64_t lo, hi;
  nw_region_bounds(&s, &lo, &hi);
  CHECK(lo == 2 * PITCH + 10 && hi == 9 * PITCH + 48);
  memset(view, 0xEE, sizeof view);
  nw_region_copy_into(&s, space, view, lo);
  unsigned char map[PITCH * ROWS];
  CHECK(to_bitmap(&s, map, sizeof map) == 0);
  int right = 1, untouched = 1;
  for (uint64_t b = lo; b < hi; b++) {
    if (map[b] && view[b - lo] != space[b])
      right = 0;
    if (!map[b] && view[b - lo] != 0xEE)
      untouched = 0;
  }
  CHECK(right);
  CHECK(untouched);
  CHECK(view[hi - lo] == 0xEE); /* nothing past the span */
  memset(back, 0, sizeof back);
  nw_region_copy_from(&s, view, lo, back);
  int same = 1;
  for (int b = 0; b < PITCH * ROWS; b++)
    if (back[b] != (map[b] ? space[b] : 0))
      same = 0;
  CHECK(same);
  nw_region_free(&s);
}

/* The pages a new view's buffer holds a region's bytes in (nw_region_pages), against the pages
 * of its bytes counted one by one: exact for one rectangle, whatever its pitch (rows sharing a
 * page, rows pages apart) and offset. Then LU 2304/288's tile: 288 rows of 1152 bytes at a
 * pitch of 9216: a page each, and a second for the one row in four that starts 3072 bytes into
 * its page. */
static void view_pages(void) {
  uint64_t seed = 12345;
  int exact = 1;
  for (int trial = 0; trial < 400; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t pitch = 1 + (seed >> 33) % 20000, rows = 1 + (seed >> 20) % 40;
    uint64_t col0 = (seed >> 5) % pitch, col1 = col0 + 1 + (seed >> 45) % (pitch - col0);
    uint64_t row0 = (seed >> 40) % 8, page = trial % 2 ? 4096 : 512;
    nw_region s;
    nw_region_init(&s, pitch);
    nw_region_add_rect(&s, (nw_rect){row0, row0 + rows, col0, col1});
    uint64_t lo = row0 * pitch + col0 - (seed >> 52) % (row0 * pitch + col0 + 1);
    uint64_t count = 0, last = UINT64_MAX; /* pages of its bytes, in increasing order */
    for (uint64_t r = row0; r < row0 + rows; r++)
      for (uint64_t c = col0; c < col1; c++) {
        uint64_t pg = (r * pitch + c - lo) / page;
        count += pg != last;
        last = pg;
      }
    exact &= nw_region_pages(&s, lo, page) == count;
    nw_region_free(&s);
  }
  CHECK(exact);
  nw_region t;
  nw_region_init(&t, 9216);
  nw_region_add_quad(&t, (nw_quad){288 * 9216 + 1152, 1152, 9216, 288});
  CHECK(nw_region_pages(&t, 288 * 9216 + 1152, 4096) == 360);
  nw_region_free(&t);
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
  fragmented();
  view_copies();
  view_pages();
  return check_report("region");
}
