/* test_chunked.c: the chunked region set (core/data/chunked.h) against a plain region.
 *
 * Random sequences of additions and removals (quads of several shapes, byte ranges, whole
 * sets, reassignments) go to both, with chunks of 1, 3, 8 and 256 rectangles and pitches from
 * 1 to 61, so that chunks are cut, emptied and joined all the time. After every operation the
 * chunks, concatenated, must be exactly the plain region's canonical array; every chunk must
 * be non-empty and end at a band boundary; and contains and subtract_from must answer as the
 * plain region's contains and subtract do for a random probe. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "chunked.h"

static uint64_t rng_state = 424242;
static uint64_t rnd(uint64_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state % n;
}

enum { SIZE = 4096 };

static void random_set(nw_region *r, uint64_t pitch) {
  nw_region_init(r, pitch);
  int parts = 1 + (int)rnd(rnd(4) ? 2 : 12);
  for (int i = 0; i < parts; i++) {
    nw_quad q = {.length = 1 + rnd(rnd(3) ? 24 : 600), .count = 1 + rnd(10)};
    q.step = q.length + (rnd(2) ? rnd(3) * pitch : rnd(50));
    q.offset = rnd(SIZE);
    if (nw_quad_check(q, SIZE, NULL, 0) == NW_OK)
      nw_region_add_quad(r, q);
  }
}

/* The chunks are the plain set's array, cut at band boundaries into non-empty pieces. */
static int same(const nw_chunked *c, const nw_region *want) {
  size_t at = 0;
  for (size_t k = 0; k < c->nchunks; k++) {
    const nw_region *x = &c->c[k];
    if (x->n == 0 || at + x->n > want->n || memcmp(x->r, want->r + at, x->n * sizeof *x->r) != 0)
      return 0;
    if (k > 0 && x->r[0].row0 == c->c[k - 1].r[c->c[k - 1].n - 1].row0)
      return 0; /* a band split between two chunks */
    at += x->n;
  }
  return at == want->n && nw_chunked_rects(c) == want->n;
}

static void run(uint64_t pitch, size_t chunk, int ops) {
  nw_chunked c;
  nw_region plain;
  nw_chunked_init(&c, pitch);
  c.chunk = chunk;
  nw_region_init(&plain, pitch);
  int differ = 0, wrong_contains = 0, wrong_subtract = 0, contained = 0, largest = 0;
  for (int i = 0; i < ops; i++) {
    nw_region r;
    random_set(&r, pitch);
    uint64_t what = rnd(100);
    if (what < 50) {
      CHECK(nw_chunked_add(&c, &r) == NW_OK);
      nw_region_add(&plain, &r);
    } else if (what < 85) {
      CHECK(nw_chunked_subtract(&c, &r) == NW_OK);
      nw_region_subtract(&plain, &r);
    } else if (what < 97) {
      uint64_t lo = rnd(SIZE), hi = lo + rnd(SIZE - lo + 1);
      CHECK(nw_chunked_add_range(&c, lo, hi) == NW_OK);
      nw_region_add_range(&plain, lo, hi);
    } else {
      CHECK(nw_chunked_assign(&c, &r) == NW_OK);
      nw_region_free(&plain);
      nw_region_copy(&plain, &r);
    }
    nw_region_free(&r);
    differ += !same(&c, &plain);
    largest = c.nchunks > (size_t)largest ? (int)c.nchunks : largest;
    /* a probe: sometimes a piece of the set itself, so that contains is often true */
    nw_region probe, a, b;
    if (rnd(2) && plain.n) {
      nw_region_init(&probe, pitch);
      size_t k = rnd(plain.n), e = k + rnd(plain.n - k) + 1;
      for (size_t j = k; j < e; j++)
        nw_region_add_rect(&probe, plain.r[j]);
    } else {
      random_set(&probe, pitch);
    }
    int got = nw_chunked_contains(&c, &probe);
    wrong_contains += got != nw_region_contains(&plain, &probe);
    contained += got;
    nw_region_copy(&a, &probe);
    nw_region_copy(&b, &probe);
    CHECK(nw_chunked_subtract_from(&c, &a) == NW_OK);
    nw_region_subtract(&b, &plain);
    wrong_subtract += a.n != b.n || (a.n && memcmp(a.r, b.r, a.n * sizeof *a.r) != 0);
    nw_region_free(&probe);
    nw_region_free(&a);
    nw_region_free(&b);
  }
  nw_region flat;
  CHECK(nw_chunked_flatten(&c, &flat) == NW_OK);
  CHECK(flat.n == plain.n && (!flat.n || memcmp(flat.r, plain.r, flat.n * sizeof *flat.r) == 0));
  CHECK(differ == 0);
  CHECK(wrong_contains == 0);
  CHECK(wrong_subtract == 0);
  CHECK(contained > ops / 10 && contained < ops); /* both answers were exercised */
  CHECK(chunk > 8 || largest > 4);                /* and the sets were cut into chunks */
  if (differ || wrong_contains || wrong_subtract)
    fprintf(stderr, "pitch %llu chunk %zu: %d differ, %d contains, %d subtract\n",
            (unsigned long long)pitch, chunk, differ, wrong_contains, wrong_subtract);
  nw_region_free(&flat);
  nw_region_free(&plain);
  nw_chunked_free(&c);
}

/* Empty sets on either side, where the chunk array may not exist yet. */
static void empty_cases(void) {
  nw_chunked c;
  nw_region e, one, flat;
  nw_chunked_init(&c, 8);
  nw_region_init(&e, 8);
  nw_region_init(&one, 8);
  nw_region_add_range(&one, 3, 20);
  CHECK(nw_chunked_assign(&c, &e) == NW_OK && c.nchunks == 0);
  CHECK(nw_chunked_add(&c, &e) == NW_OK && nw_chunked_subtract(&c, &one) == NW_OK);
  CHECK(c.nchunks == 0 && nw_chunked_contains(&c, &e) && !nw_chunked_contains(&c, &one));
  CHECK(nw_chunked_flatten(&c, &flat) == NW_OK && flat.n == 0);
  CHECK(nw_chunked_subtract_from(&c, &one) == NW_OK && nw_region_bytes(&one) == 17);
  CHECK(nw_chunked_add(&c, &one) == NW_OK && nw_chunked_bytes(&c) == 17);
  CHECK(nw_chunked_assign(&c, &e) == NW_OK && c.nchunks == 0 && nw_chunked_bytes(&c) == 0);
  nw_region_free(&flat);
  nw_region_free(&one);
  nw_chunked_free(&c);
}

int main(void) {
  empty_cases();
  uint64_t pitches[] = {1, 5, 16, 61};
  size_t chunks[] = {1, 3, 8, 256};
  for (size_t i = 0; i < sizeof pitches / sizeof *pitches; i++)
    for (size_t j = 0; j < sizeof chunks / sizeof *chunks; j++)
      run(pitches[i], chunks[j], 1500);
  return check_report("chunked");
}
