/* test_devmem_property.c: the device-memory books (devmem) against a reference allocator, a map
 * of the capacity in NW_DEVMEM_ALIGN units. Random allocs and releases (fixed seeds) must agree
 * with the reference exactly: first fit predicts success and offset, `used` is the sum of live
 * rounded sizes, and the holes are exactly the maximal free runs (sorted, never touching), so
 * holes and live blocks tile [0, capacity). Also scripted merges, bytes = 0, huge requests and
 * capacities that are not a multiple of the alignment (the tail below one unit is never used). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "devmem.h"

#define U ((uint64_t)NW_DEVMEM_ALIGN)

/* splitmix64: the test's own deterministic generator. */
static uint64_t sm_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static uint64_t sm_below(uint64_t *s, uint64_t n) {
  return n ? sm_next(s) % n : 0;
}

/* Units a request takes, computed without the rounding devmem uses (0 counts as 1). */
static uint64_t units_of(uint64_t bytes) {
  return bytes == 0 ? 1 : bytes / U + (bytes % U != 0);
}

typedef struct live_block {
  uint64_t off, bytes, units;
} live_block;

/* The reference: unit u covers [u * U, min((u + 1) * U, cap)); only the `full` whole units can
 * ever be handed out, a partial last unit stays free for good. */
typedef struct ref {
  uint64_t cap, full, nunit;
  unsigned char *map; /* 1 = live */
  live_block *live;
  size_t nlive;
  nw_devmem_hole *want; /* maximal free runs, in bytes */
  size_t nwant;
  unsigned *cover;
} ref;

static void ref_init(ref *r, uint64_t cap) {
  r->cap = cap;
  r->full = cap / U;
  r->nunit = r->full + (cap % U != 0);
  r->map = calloc(r->nunit + 1, 1);
  r->live = malloc((r->full + 1) * sizeof *r->live);
  r->nlive = 0;
  r->want = malloc((r->nunit + 1) * sizeof *r->want);
  r->nwant = 0;
  r->cover = malloc((r->nunit + 1) * sizeof *r->cover);
  if (!r->map || !r->live || !r->want || !r->cover) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
}

static void ref_free(ref *r) {
  free(r->map);
  free(r->live);
  free(r->want);
  free(r->cover);
}

/* First fit on the reference: lowest unit starting a run of k free whole units, or -1. */
static int64_t ref_first_fit(const ref *r, uint64_t k) {
  if (k > r->full)
    return -1;
  uint64_t run = 0;
  for (uint64_t u = 0; u < r->full; u++) {
    run = r->map[u] ? 0 : run + 1;
    if (run == k)
      return (int64_t)(u + 1 - k);
  }
  return -1;
}

static uint64_t unit_end(const ref *r, uint64_t u) {
  return u + 1 >= r->nunit ? r->cap : (u + 1) * U;
}

static void ref_runs(ref *r) {
  r->nwant = 0;
  for (uint64_t u = 0; u < r->nunit;) {
    if (r->map[u]) {
      u++;
      continue;
    }
    uint64_t v = u;
    while (v < r->nunit && !r->map[v])
      v++;
    r->want[r->nwant++] = (nw_devmem_hole){u * U, unit_end(r, v - 1) - u * U};
    u = v;
  }
}

/* Every invariant of the books against the reference; returns how many CHECKs failed. */
static int agree(const nw_devmem *m, ref *r) {
  int before = check_failed;
  CHECK(m->capacity == r->cap);
  uint64_t sum = 0;
  for (size_t i = 0; i < r->nlive; i++)
    sum += r->live[i].units * U;
  CHECK(m->used == sum);

  int sorted = 1, inside = 1, aligned = 1, nonempty = 1;
  for (size_t i = 0; i < m->nhole; i++) {
    const nw_devmem_hole *h = &m->hole[i];
    nonempty &= h->len > 0;
    inside &= h->off < r->cap && h->len <= r->cap - h->off;
    aligned &= h->off % U == 0;
    /* Strictly apart: neither overlapping nor touching the next one. */
    if (i + 1 < m->nhole)
      sorted &= h->off + h->len < m->hole[i + 1].off;
  }
  CHECK(nonempty);
  CHECK(inside);
  CHECK(aligned);
  CHECK(sorted);

  ref_runs(r);
  int same = m->nhole == r->nwant;
  for (size_t i = 0; same && i < m->nhole; i++)
    same = m->hole[i].off == r->want[i].off && m->hole[i].len == r->want[i].len;
  CHECK(same);

  /* Tiling: every unit covered exactly once, by a live block or a hole. */
  int tiles = inside;
  if (tiles) {
    memset(r->cover, 0, r->nunit * sizeof *r->cover);
    for (size_t i = 0; i < r->nlive; i++)
      for (uint64_t u = r->live[i].off / U; u < r->live[i].off / U + r->live[i].units; u++)
        r->cover[u]++;
    for (size_t i = 0; i < m->nhole; i++) {
      uint64_t u0 = m->hole[i].off / U, u1 = (m->hole[i].off + m->hole[i].len + U - 1) / U;
      for (uint64_t u = u0; u < u1; u++)
        r->cover[u]++;
    }
    for (uint64_t u = 0; u < r->nunit; u++)
      tiles &= r->cover[u] == 1;
    uint64_t holes = 0;
    for (size_t i = 0; i < m->nhole; i++)
      holes += m->hole[i].len;
    tiles &= holes + sum == r->cap;
  }
  CHECK(tiles);
  return check_failed - before;
}

/* One alloc on both; checks the prediction and that a refusal changes nothing. */
static int do_alloc(nw_devmem *m, ref *r, uint64_t bytes) {
  int before = check_failed;
  uint64_t k = units_of(bytes);
  int64_t at = ref_first_fit(r, k);
  size_t nhole = m->nhole;
  uint64_t used = m->used;
  const uint64_t sentinel = 0xDEADBEEFDEADBEEFu;
  uint64_t off = sentinel;
  int ok = nw_devmem_alloc(m, bytes, &off);
  CHECK(ok == (at >= 0));
  if (ok && at >= 0) {
    CHECK(off == (uint64_t)at * U); /* lowest place that fits */
    int in = off % U == 0 && off < r->cap && k * U <= r->cap - off;
    CHECK(in);
    int free_before = in;
    for (uint64_t u = off / U; in && u < off / U + k; u++)
      free_before &= !r->map[u];
    CHECK(free_before); /* overlaps no live block */
    if (free_before) {
      memset(r->map + off / U, 1, k);
      r->live[r->nlive++] = (live_block){off, bytes, k};
    }
  } else if (!ok) {
    CHECK(off == sentinel); /* *off is set only on success */
    /* The holes themselves are compared with the (unchanged) reference by agree(). */
    CHECK(m->used == used && m->nhole == nhole);
  }
  return check_failed - before;
}

static void do_release(nw_devmem *m, ref *r, size_t i) {
  live_block b = r->live[i];
  nw_devmem_release(m, b.off, b.bytes);
  memset(r->map + b.off / U, 0, b.units);
  r->live[i] = r->live[--r->nlive];
}

/* A request size: 0, small, odd, aligned, large, near the capacity or the free space, huge.
 * `small` keeps almost all requests under 16 units, for books with hundreds of holes. */
static uint64_t pick_bytes(uint64_t *s, const ref *r, int small) {
  uint64_t c = small && sm_below(s, 50) ? sm_below(s, 65) : sm_below(s, 100);
  if (c < 5)
    return 0;
  if (c < 25)
    return 1 + sm_below(s, U);
  if (c < 45)
    return sm_below(s, 16 * U) | 1;
  if (c < 65)
    return U * (1 + sm_below(s, 16));
  if (c < 78)
    return 1 + sm_below(s, r->cap / 4 + 1);
  if (c < 90) {
    /* Exactly the largest free run of whole units, or a little off it. */
    uint64_t best = 0, run = 0;
    for (uint64_t u = 0; u < r->full; u++) {
      run = r->map[u] ? 0 : run + 1;
      best = run > best ? run : best;
    }
    uint64_t b = best * U;
    switch (sm_below(s, 4)) {
    case 0:
      return b;
    case 1:
      return b + 1;
    case 2:
      return b > 1 ? b - 1 : b;
    default:
      return b > U ? b - U + 1 : b;
    }
  }
  if (c < 96) {
    static const int64_t d[] = {-(int64_t)U, -1, 0, 1, (int64_t)U};
    int64_t x = (int64_t)r->cap + d[sm_below(s, 5)];
    return x < 0 ? 0 : (uint64_t)x;
  }
  static const uint64_t huge[] = {UINT64_MAX, UINT64_MAX - U + 1, UINT64_MAX - U + 2,
                                  UINT64_MAX / 2};
  return huge[sm_below(s, 4)];
}

static int seeds_run, ops_run;

static void property(uint64_t seed, uint64_t cap, int small, int ops) {
  nw_devmem m;
  ref r;
  CHECK(nw_devmem_init(&m, cap) == NW_OK);
  ref_init(&r, cap);
  uint64_t s = seed;
  int bad = agree(&m, &r);
  for (int op = 0; op < ops && !bad; op++) {
    /* Drift between filling and emptying so that both full and sparse books are visited. */
    uint64_t p_alloc = (op / (small ? 2500 : 500)) % 2 ? 35 : 65;
    if (r.nlive == 0 || sm_below(&s, 100) < p_alloc)
      bad += do_alloc(&m, &r, pick_bytes(&s, &r, small));
    else
      do_release(&m, &r, (size_t)sm_below(&s, r.nlive));
    bad += agree(&m, &r);
    if (bad)
      fprintf(stderr, "  seed %#llx cap %llu: first failure at op %d\n", (unsigned long long)seed,
              (unsigned long long)cap, op);
    ops_run++;
  }
  /* Release everything in random order: one hole [0, capacity), nothing used. */
  while (!bad && r.nlive > 0) {
    do_release(&m, &r, (size_t)sm_below(&s, r.nlive));
    bad += agree(&m, &r);
    if (bad)
      fprintf(stderr, "  seed %#llx cap %llu: first failure releasing all\n",
              (unsigned long long)seed, (unsigned long long)cap);
    ops_run++;
  }
  if (!bad) {
    CHECK(m.used == 0);
    CHECK(m.nhole == 1 && m.hole[0].off == 0 && m.hole[0].len == cap);
  }
  nw_devmem_free_all(&m);
  CHECK(m.hole == NULL && m.nhole == 0 && m.used == 0);
  ref_free(&r);
  seeds_run++;
}

static void expect_holes(const nw_devmem *m, const nw_devmem_hole *h, size_t n) {
  int same = m->nhole == n;
  for (size_t i = 0; same && i < n; i++)
    same = m->hole[i].off == h[i].off && m->hole[i].len == h[i].len;
  CHECK(same);
}

/* Scripted releases: a new hole in the middle, joining the next hole, the previous one, both,
 * and the same at the two ends of the range. */
static void test_merges(void) {
  nw_devmem m;
  CHECK(nw_devmem_init(&m, 8 * U) == NW_OK);
  uint64_t a[8];
  for (int i = 0; i < 8; i++)
    CHECK(nw_devmem_alloc(&m, U, &a[i]) && a[i] == (uint64_t)i * U);
  expect_holes(&m, NULL, 0);
  nw_devmem_release(&m, a[2], U); /* alone */
  expect_holes(&m, (nw_devmem_hole[]){{2 * U, U}}, 1);
  nw_devmem_release(&m, a[5], U); /* alone, after it */
  expect_holes(&m, (nw_devmem_hole[]){{2 * U, U}, {5 * U, U}}, 2);
  nw_devmem_release(&m, a[1], U); /* joins the next hole */
  expect_holes(&m, (nw_devmem_hole[]){{U, 2 * U}, {5 * U, U}}, 2);
  nw_devmem_release(&m, a[3], U); /* joins the previous hole */
  expect_holes(&m, (nw_devmem_hole[]){{U, 3 * U}, {5 * U, U}}, 2);
  nw_devmem_release(&m, a[7], U); /* alone, at the end */
  expect_holes(&m, (nw_devmem_hole[]){{U, 3 * U}, {5 * U, U}, {7 * U, U}}, 3);
  nw_devmem_release(&m, a[4], U); /* joins both */
  expect_holes(&m, (nw_devmem_hole[]){{U, 5 * U}, {7 * U, U}}, 2);
  nw_devmem_release(&m, a[0], U); /* joins the next, at offset 0 */
  expect_holes(&m, (nw_devmem_hole[]){{0, 6 * U}, {7 * U, U}}, 2);
  CHECK(m.used == U);
  nw_devmem_release(&m, a[6], U); /* joins both, the last one reaching the capacity */
  expect_holes(&m, (nw_devmem_hole[]){{0, 8 * U}}, 1);
  CHECK(m.used == 0);

  /* Blocks of several units, released with the byte counts they were taken with. */
  uint64_t x, y, z;
  CHECK(nw_devmem_alloc(&m, 2 * U - 7, &x) && x == 0);
  CHECK(nw_devmem_alloc(&m, 3 * U, &y) && y == 2 * U);
  CHECK(nw_devmem_alloc(&m, U + 1, &z) && z == 5 * U);
  expect_holes(&m, (nw_devmem_hole[]){{7 * U, U}}, 1);
  nw_devmem_release(&m, z, U + 1); /* joins the tail hole from before */
  expect_holes(&m, (nw_devmem_hole[]){{5 * U, 3 * U}}, 1);
  nw_devmem_release(&m, x, 2 * U - 7);
  expect_holes(&m, (nw_devmem_hole[]){{0, 2 * U}, {5 * U, 3 * U}}, 2);
  nw_devmem_release(&m, y, 3 * U);
  expect_holes(&m, (nw_devmem_hole[]){{0, 8 * U}}, 1);
  CHECK(m.used == 0);
  nw_devmem_free_all(&m);
}

/* bytes = 0 takes one whole unit; huge requests fail without overflowing. */
static void test_zero_and_huge(void) {
  nw_devmem m;
  CHECK(nw_devmem_init(&m, 4 * U) == NW_OK);
  uint64_t a, b;
  CHECK(nw_devmem_alloc(&m, 0, &a) && a == 0);
  CHECK(nw_devmem_alloc(&m, 0, &b) && b == U); /* distinct blocks */
  CHECK(m.used == 2 * U);
  expect_holes(&m, (nw_devmem_hole[]){{2 * U, 2 * U}}, 1);
  const uint64_t huge[] = {UINT64_MAX, UINT64_MAX - U + 1, UINT64_MAX - U + 2, 4 * U + 1};
  for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
    uint64_t o = 42;
    CHECK(!nw_devmem_alloc(&m, huge[i], &o) && o == 42);
    CHECK(m.used == 2 * U);
    expect_holes(&m, (nw_devmem_hole[]){{2 * U, 2 * U}}, 1);
  }
  nw_devmem_release(&m, a, 0);
  nw_devmem_release(&m, b, 0);
  expect_holes(&m, (nw_devmem_hole[]){{0, 4 * U}}, 1);
  CHECK(m.used == 0);
  nw_devmem_free_all(&m);

  /* The largest representable request, on a capacity that takes it. */
  CHECK(nw_devmem_init(&m, UINT64_MAX) == NW_OK);
  CHECK(nw_devmem_alloc(&m, UINT64_MAX - U + 1, &a) && a == 0 && m.used == UINT64_MAX - U + 1);
  expect_holes(&m, (nw_devmem_hole[]){{UINT64_MAX - U + 1, U - 1}}, 1);
  CHECK(!nw_devmem_alloc(&m, 1, &b));
  nw_devmem_release(&m, a, UINT64_MAX - U + 1);
  expect_holes(&m, (nw_devmem_hole[]){{0, UINT64_MAX}}, 1);
  CHECK(m.used == 0);
  nw_devmem_free_all(&m);
}

/* A capacity off the alignment: only whole units are handed out; the tail below one unit stays
 * in the last hole, merges with what is released next to it, and is never allocated. */
static void test_odd_capacity(void) {
  nw_devmem m;
  const uint64_t cap = 4 * U + 100;
  CHECK(nw_devmem_init(&m, cap) == NW_OK);
  expect_holes(&m, (nw_devmem_hole[]){{0, cap}}, 1);
  uint64_t a, b;
  CHECK(!nw_devmem_alloc(&m, cap, &a));       /* rounds to 5 units > cap */
  CHECK(!nw_devmem_alloc(&m, 4 * U + 1, &a)); /* likewise */
  CHECK(nw_devmem_alloc(&m, 4 * U, &a) && a == 0);
  CHECK(m.used == 4 * U);
  expect_holes(&m, (nw_devmem_hole[]){{4 * U, 100}}, 1);
  CHECK(!nw_devmem_alloc(&m, 0, &b) && !nw_devmem_alloc(&m, 100, &b));
  nw_devmem_release(&m, a, 4 * U);
  expect_holes(&m, (nw_devmem_hole[]){{0, cap}}, 1);
  CHECK(nw_devmem_alloc(&m, 3 * U, &a) && a == 0);
  CHECK(nw_devmem_alloc(&m, 1, &b) && b == 3 * U);
  nw_devmem_release(&m, a, 3 * U);
  expect_holes(&m, (nw_devmem_hole[]){{0, 3 * U}, {4 * U, 100}}, 2);
  nw_devmem_release(&m, b, 1); /* joins both, the next one being the partial tail */
  expect_holes(&m, (nw_devmem_hole[]){{0, cap}}, 1);
  CHECK(m.used == 0);
  nw_devmem_free_all(&m);

  /* Below one unit, and nothing at all: every request fails. */
  const uint64_t tiny[] = {U - 1, 0};
  for (size_t i = 0; i < 2; i++) {
    CHECK(nw_devmem_init(&m, tiny[i]) == NW_OK);
    CHECK(m.nhole == (tiny[i] ? 1u : 0u) && m.used == 0);
    CHECK(!nw_devmem_alloc(&m, 0, &a) && !nw_devmem_alloc(&m, 1, &a));
    CHECK(m.nhole == (tiny[i] ? 1u : 0u) && m.used == 0);
    nw_devmem_free_all(&m);
  }
  CHECK(nw_devmem_init(&m, U) == NW_OK);
  CHECK(nw_devmem_alloc(&m, U, &a) && a == 0 && m.nhole == 0);
  CHECK(!nw_devmem_alloc(&m, 0, &b));
  nw_devmem_release(&m, a, U);
  expect_holes(&m, (nw_devmem_hole[]){{0, U}}, 1);
  nw_devmem_free_all(&m);
}

int main(void) {
  test_merges();
  test_zero_and_huge();
  test_odd_capacity();
  /* Capacities from 64 KiB to 1 MiB, several off the alignment. */
  static const struct {
    uint64_t seed, cap;
    int small;
  } runs[] = {
      {0x1, 64 << 10, 0},
      {0x2, (64 << 10) + 1, 0},
      {0x3, (64 << 10) + U - 1, 1},
      {0xC0FFEE, 96 << 10, 1},
      {0xBADC0DE, 200 * U + 77, 0},
      {0x5EED, 256 << 10, 1},
      {0xFACADE, (512 << 10) + 5, 0},
      {0x1234567, 1 << 20, 0},
      {0xDEC0DE, (1 << 20) - 1, 1},
      {0xA11CE, 1 << 20, 1},
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
    property(runs[i].seed, runs[i].cap, runs[i].small, 10000);
  printf("devmem_property: %d seeds, %d random operations\n", seeds_run, ops_run);
  return check_report("devmem_property");
}
