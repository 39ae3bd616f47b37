/* test_gpu_cache.c: the device-memory books (devmem) and the GPU cache over them: which entry
 * each policy evicts, that pinned entries survive, that a refused insert changes nothing, that
 * the budget is never exceeded, what invalidation and private entries do, and that the hash
 * index finds what a scan of the entry list finds. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "devmem.h"
#include "gpu_cache.h"
#include "rng.h"

#define SLOT (4 * NW_DEVMEM_ALIGN) /* one cache entry's size in the scripted tests */

static nw_cache_key key_of(uint64_t space, uint64_t id) {
  return (nw_cache_key){space, id * 10, id * 10 + 10, 0, 64};
}

/* Whether a live entry with this key exists, found without touching stats or recency. */
static int live(const nw_gpu_cache *c, nw_cache_key k) {
  for (const nw_cache_entry *e = c->entries; e; e = e->next)
    if (!e->dead && e->key.space == k.space && e->key.row0 == k.row0 && e->key.row1 == k.row1 &&
        e->key.col0 == k.col0 && e->key.col1 == k.col1)
      return 1;
  return 0;
}

static int holds(const nw_gpu_cache *c, const nw_cache_entry *x) {
  for (const nw_cache_entry *e = c->entries; e; e = e->next)
    if (e == x)
      return 1;
  return 0;
}

static uint64_t rounded(uint64_t b) {
  b = b ? b : 1;
  return (b + NW_DEVMEM_ALIGN - 1) / NW_DEVMEM_ALIGN * NW_DEVMEM_ALIGN;
}

static void test_devmem(void) {
  nw_devmem m;
  const uint64_t cap = 16 * NW_DEVMEM_ALIGN;
  CHECK(nw_devmem_init(&m, cap) == NW_OK);
  uint64_t a, b, z, d;
  CHECK(nw_devmem_alloc(&m, 1, &a) && a == 0);
  CHECK(nw_devmem_alloc(&m, 300, &b) && b == NW_DEVMEM_ALIGN); /* 300 takes two units */
  CHECK(nw_devmem_alloc(&m, 0, &z) && z == 3 * NW_DEVMEM_ALIGN);
  CHECK(a % NW_DEVMEM_ALIGN == 0 && b % NW_DEVMEM_ALIGN == 0 && z % NW_DEVMEM_ALIGN == 0);
  CHECK(m.used == 4 * NW_DEVMEM_ALIGN);
  /* A hole of one unit at 0 and the big tail: first fit takes the low hole when it fits... */
  nw_devmem_release(&m, a, 1);
  CHECK(m.used == 3 * NW_DEVMEM_ALIGN);
  CHECK(nw_devmem_alloc(&m, 100, &d) && d == 0);
  nw_devmem_release(&m, d, 100);
  /* ...and skips it when it does not. */
  CHECK(nw_devmem_alloc(&m, NW_DEVMEM_ALIGN + 1, &d) && d == 4 * NW_DEVMEM_ALIGN);
  CHECK(!nw_devmem_alloc(&m, cap, &a));     /* too much is in use */
  CHECK(!nw_devmem_alloc(&m, cap + 1, &a)); /* beyond the budget, ever */
  uint64_t used = m.used;
  CHECK(!nw_devmem_alloc(&m, 12 * NW_DEVMEM_ALIGN, &a) && m.used == used); /* failure: no change */
  /* Release in an order that exercises joining the previous hole, the next one, and both. */
  nw_devmem_release(&m, z, 0);
  nw_devmem_release(&m, d, NW_DEVMEM_ALIGN + 1);
  nw_devmem_release(&m, b, 300);
  CHECK(m.used == 0 && m.nhole == 1);
  CHECK(nw_devmem_alloc(&m, cap, &a) && a == 0 && m.used == cap);
  nw_devmem_release(&m, a, cap);
  CHECK(m.used == 0);

  /* Many separate holes (beyond the initial hole array), then merged back into one. */
  uint64_t off[16];
  for (int i = 0; i < 16; i++)
    CHECK(nw_devmem_alloc(&m, NW_DEVMEM_ALIGN, &off[i]) && off[i] == (uint64_t)i * 256);
  CHECK(!nw_devmem_alloc(&m, 1, &a));
  for (int i = 0; i < 16; i += 2)
    nw_devmem_release(&m, off[i], NW_DEVMEM_ALIGN);
  CHECK(m.nhole == 8 && m.used == 8 * NW_DEVMEM_ALIGN);
  CHECK(!nw_devmem_alloc(&m, 2 * NW_DEVMEM_ALIGN, &a)); /* 8 units free, none adjacent */
  for (int i = 1; i < 16; i += 2)
    nw_devmem_release(&m, off[i], NW_DEVMEM_ALIGN);
  CHECK(m.nhole == 1 && m.used == 0);
  CHECK(nw_devmem_alloc(&m, cap, &a) && a == 0);
  nw_devmem_free_all(&m);
}

/* Releases undone by claims, newest first, give back the very books (holes and used) they
 * started from, whatever merged in between; a claim of bytes that are not free is refused and
 * changes nothing. Random blocks over a fragmented budget, 300 rounds. */
static void test_devmem_claim(void) {
  enum { BLOCKS = 64, ROUNDS = 300 };
  nw_devmem m;
  CHECK(nw_devmem_init(&m, 4096 * (uint64_t)NW_DEVMEM_ALIGN) == NW_OK);
  uint64_t off[BLOCKS], len[BLOCKS], rng = 17;
  int live[BLOCKS] = {0}, restored = 0, refused = 0;
  for (int i = 0; i < BLOCKS; i++) {
    len[i] = 1 + nw_rng_next(&rng) % (40 * NW_DEVMEM_ALIGN);
    live[i] = nw_devmem_alloc(&m, len[i], &off[i]);
  }
  for (int i = 0; i < BLOCKS; i += 3) /* holes between the blocks */
    if (live[i]) {
      nw_devmem_release(&m, off[i], len[i]);
      live[i] = 0;
    }
  for (int round = 0; round < ROUNDS; round++) {
    nw_devmem_hole before[2 * BLOCKS + 2];
    size_t nbefore = m.nhole;
    uint64_t used = m.used;
    memcpy(before, m.hole, nbefore * sizeof *before);
    int order[BLOCKS], k = 0;
    CHECK(nw_devmem_reserve(&m, BLOCKS + 1));
    for (int i = 0; i < BLOCKS; i++)
      if (live[i] && nw_rng_next(&rng) % 3 == 0) {
        nw_devmem_release(&m, off[i], len[i]);
        order[k++] = i;
      }
    int ok = 1;
    while (k > 0) {
      int i = order[--k];
      ok &= nw_devmem_claim(&m, off[i], len[i]);
    }
    restored += ok && m.nhole == nbefore && m.used == used &&
                memcmp(before, m.hole, nbefore * sizeof *before) == 0;
    int busy = (int)(nw_rng_next(&rng) % BLOCKS); /* a claim over a live block */
    if (live[busy]) {
      int again = nw_devmem_claim(&m, off[busy], len[busy]);
      refused += !again && m.nhole == nbefore && m.used == used;
    } else {
      refused++;
    }
  }
  CHECK(restored == ROUNDS);
  CHECK(refused == ROUNDS);
  nw_devmem_free_all(&m);
}

/* A, B, C fill a 3-slot cache; `script` is a list of ids looked up (and released) in order;
 * then D goes in. Returns the id evicted (0, 1, 2), or -1 if not exactly one was. */
static int evicted_by(nw_cache_policy p, const int *script, int n) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 3 * SLOT, p, 1) == NW_OK);
  for (uint64_t id = 0; id < 3; id++) {
    nw_cache_key k = key_of(1, id);
    nw_cache_entry *e = nw_cache_insert(&c, &k, SLOT, 0);
    CHECK(e != NULL);
    nw_cache_release(&c, e);
  }
  for (int i = 0; i < n; i++) {
    nw_cache_key k = key_of(1, (uint64_t)script[i]);
    nw_cache_entry *e = nw_cache_lookup(&c, &k, NULL);
    CHECK(e != NULL);
    nw_cache_release(&c, e);
  }
  CHECK(c.stats.hits == (uint64_t)n && c.stats.evictions == 0);
  nw_cache_key kd = key_of(1, 3);
  nw_cache_entry *d = nw_cache_insert(&c, &kd, SLOT, 0);
  CHECK(d != NULL && d->pins == 1 && !d->valid && !d->dead && d->uses == 1);
  CHECK(c.stats.evictions == 1);
  CHECK(nw_cache_used(&c) == 3 * SLOT);
  CHECK(live(&c, kd));
  int gone = -1, ngone = 0;
  for (int id = 0; id < 3; id++)
    if (!live(&c, key_of(1, (uint64_t)id))) {
      gone = id;
      ngone++;
    }
  nw_cache_release(&c, d);
  nw_cache_free(&c);
  return ngone == 1 ? gone : -1;
}

static void test_policies(void) {
  enum { A, B, C };
  /* A used 3 times (last at 5), C twice (at 6), B twice (at 7). */
  const int s1[] = {A, A, C, B};
  CHECK(evicted_by(NW_CACHE_LRU, s1, 4) == A);
  CHECK(evicted_by(NW_CACHE_MRU, s1, 4) == B);
  CHECK(evicted_by(NW_CACHE_LFU, s1, 4) == C); /* B and C tie on uses: C is less recent */
  CHECK(evicted_by(NW_CACHE_MFU, s1, 4) == A);
  /* Everyone used twice, B longest ago, C last: the frequency ties go to the least recent. */
  const int s2[] = {B, A, C};
  CHECK(evicted_by(NW_CACHE_LRU, s2, 3) == B);
  CHECK(evicted_by(NW_CACHE_MRU, s2, 3) == C);
  CHECK(evicted_by(NW_CACHE_LFU, s2, 3) == B);
  CHECK(evicted_by(NW_CACHE_MFU, s2, 3) == B);
  /* Untouched since insertion: LFU falls back to recency. */
  CHECK(evicted_by(NW_CACHE_LFU, NULL, 0) == A);
  CHECK(evicted_by(NW_CACHE_MRU, NULL, 0) == C);
}

/* Random: a pinned entry P and two unpinned ones share a 3-slot cache; each round inserts a
 * new entry and records which of the two unpinned ones (older = 0, newer = 1) went. */
static void random_rounds(uint64_t seed, int rounds, unsigned char *out) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 3 * SLOT, NW_CACHE_RANDOM, seed) == NW_OK);
  nw_cache_key kp = key_of(1, 1000);
  nw_cache_entry *p = nw_cache_insert(&c, &kp, SLOT, 0);
  uint64_t ids[2] = {0, 1};
  for (int i = 0; i < 2; i++) {
    nw_cache_key k = key_of(1, ids[i]);
    nw_cache_release(&c, nw_cache_insert(&c, &k, SLOT, 0));
  }
  for (int r = 0; r < rounds; r++) {
    uint64_t id = 2 + (uint64_t)r;
    nw_cache_key k = key_of(1, id);
    nw_cache_entry *e = nw_cache_insert(&c, &k, SLOT, 0);
    CHECK(e != NULL);
    CHECK(holds(&c, p) && live(&c, kp));
    int gone0 = !live(&c, key_of(1, ids[0])), gone1 = !live(&c, key_of(1, ids[1]));
    CHECK(gone0 + gone1 == 1);
    out[r] = (unsigned char)gone1;
    ids[gone1] = id;
    if (ids[0] > ids[1]) { /* keep ids[0] the older */
      uint64_t t = ids[0];
      ids[0] = ids[1];
      ids[1] = t;
    }
    nw_cache_release(&c, e);
  }
  CHECK(c.stats.evictions == (uint64_t)rounds);
  nw_cache_release(&c, p);
  nw_cache_free(&c);
}

static void test_random(void) {
  enum { R = 200 };
  unsigned char s1[R], s2[R], s1again[R];
  random_rounds(1, R, s1);
  random_rounds(2, R, s2);
  random_rounds(1, R, s1again);
  int n1 = 0, n2 = 0, same = 1, differ = 0;
  for (int i = 0; i < R; i++) {
    n1 += s1[i];
    n2 += s2[i];
    same &= s1[i] == s1again[i];
    differ |= s1[i] != s2[i];
  }
  CHECK(n1 > 0 && n1 < R); /* both outcomes occur */
  CHECK(n2 > 0 && n2 < R);
  CHECK(same);   /* reproducible from the seed */
  CHECK(differ); /* and the seed matters */
}

static void test_pinned(void) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 3 * SLOT, NW_CACHE_LRU, 1) == NW_OK);
  nw_cache_key ka = key_of(1, 0), kb = key_of(1, 1), kc = key_of(1, 2), kd = key_of(1, 3);
  nw_cache_entry *a = nw_cache_insert(&c, &ka, SLOT, 0);
  nw_cache_entry *b = nw_cache_insert(&c, &kb, SLOT, 0);
  nw_cache_entry *e = nw_cache_insert(&c, &kc, SLOT, 0);
  CHECK(a && b && e && a->off == 0 && b->off == SLOT && e->off == 2 * SLOT);
  /* Everything pinned: refused, nothing evicted. */
  CHECK(nw_cache_insert(&c, &kd, SLOT, 0) == NULL);
  CHECK(c.stats.evictions == 0 && c.nentries == 3 && nw_cache_used(&c) == 3 * SLOT);
  CHECK(live(&c, ka) && live(&c, kb) && live(&c, kc));
  /* Larger than the budget: refused whatever is unpinned. */
  CHECK(!nw_cache_fits(&c, 3 * SLOT + 1) && nw_cache_fits(&c, 3 * SLOT));
  CHECK(nw_cache_insert(&c, &kd, 3 * SLOT + 1, 0) == NULL);
  /* A and C unpinned around a pinned B: two slots free up, but never two adjacent ones, so a
   * two-slot entry is refused without evicting A or C. */
  nw_cache_release(&c, a);
  nw_cache_release(&c, e);
  CHECK(nw_cache_insert(&c, &kd, 2 * SLOT, 0) == NULL);
  CHECK(c.stats.evictions == 0 && live(&c, ka) && live(&c, kc));
  CHECK(nw_cache_used(&c) == 3 * SLOT);
  /* One slot is possible: the least recently used unpinned entry (A) goes, B stays. */
  nw_cache_entry *d = nw_cache_insert(&c, &kd, SLOT, 0);
  CHECK(d != NULL && d->off == 0 && c.stats.evictions == 1);
  CHECK(!live(&c, ka) && live(&c, kb) && live(&c, kc) && holds(&c, b));
  /* B released: now the two-slot entry fits by evicting B and C (D is pinned). */
  nw_cache_release(&c, b);
  nw_cache_key kf = key_of(1, 4);
  nw_cache_entry *f = nw_cache_insert(&c, &kf, 2 * SLOT, 0);
  CHECK(f != NULL && f->off == SLOT && c.stats.evictions == 3);
  CHECK(!live(&c, kb) && !live(&c, kc) && live(&c, kd) && holds(&c, d));
  CHECK(nw_cache_used(&c) == 3 * SLOT && c.nentries == 2);
  nw_cache_release(&c, d);
  nw_cache_release(&c, f);
  nw_cache_free(&c);
}

static int by_off(const void *x, const void *y) {
  const nw_cache_entry *a = *(nw_cache_entry *const *)x, *b = *(nw_cache_entry *const *)y;
  return a->off < b->off ? -1 : a->off > b->off;
}

/* The budget and the layout after a step: within capacity, no two blocks overlapping (not even
 * in their alignment padding), and the books agreeing with the entries. The indexes: the
 * recency list holds every entry in order of last use, and no unpinned entry is dead (the
 * recency walk of LRU and MRU relies on it). */
static int consistent(const nw_gpu_cache *c, nw_cache_entry **tmp) {
  size_t n = 0, by_recency = 0;
  uint64_t sum = 0;
  for (nw_cache_entry *e = c->entries; e; e = e->next) {
    tmp[n++] = e;
    sum += rounded(e->bytes);
    if (e->dead && e->pins <= 0)
      return 0;
  }
  for (const nw_cache_entry *e = c->least_recent; e; e = e->rnext, by_recency++)
    if (e->rnext ? e->rnext->last_use <= e->last_use : e != c->most_recent)
      return 0;
  if (by_recency != n)
    return 0;
  if (n != c->nentries || sum != nw_cache_used(c) || nw_cache_used(c) > c->mem.capacity)
    return 0;
  qsort(tmp, n, sizeof *tmp, by_off);
  for (size_t i = 0; i < n; i++) {
    if (tmp[i]->off % NW_DEVMEM_ALIGN || tmp[i]->off + rounded(tmp[i]->bytes) > c->mem.capacity)
      return 0;
    if (i > 0 && tmp[i - 1]->off + rounded(tmp[i - 1]->bytes) > tmp[i]->off)
      return 0;
  }
  return 1;
}

static void test_workload(nw_cache_policy p, uint64_t seed) {
  enum { OPS = 10000, KEYS = 60, MAXHELD = 8 };
  const uint64_t cap = 64 * 1024 + 100; /* not a multiple of the alignment, on purpose */
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, cap, p, seed) == NW_OK);
  nw_cache_entry *held[MAXHELD];
  nw_cache_entry **tmp = malloc((OPS + 1) * sizeof *tmp);
  int nheld = 0, bad = 0, lost_pin = 0, refused = 0, inserted = 0;
  uint64_t rng = seed * 7 + 3;
  for (int op = 0; op < OPS; op++) {
    uint64_t r = nw_rng_next(&rng);
    if (nheld > 0 && (nheld == MAXHELD || r % 3 == 0)) {
      int i = (int)(nw_rng_next(&rng) % (uint64_t)nheld);
      nw_cache_release(&c, held[i]);
      held[i] = held[--nheld];
    } else if (r % 17 == 1) {
      uint64_t r0 = nw_rng_next(&rng) % (KEYS * 10);
      nw_cache_key w = {1, r0, r0 + 1 + nw_rng_next(&rng) % 30, 0, 64};
      nw_cache_invalidate(&c, &w);
    } else {
      nw_cache_key k = key_of(1, nw_rng_next(&rng) % KEYS);
      int priv = nw_rng_next(&rng) % 10 == 0;
      nw_cache_entry *e = priv ? NULL : nw_cache_lookup(&c, &k, NULL);
      if (!e) {
        e = nw_cache_insert(&c, &k, 1 + nw_rng_next(&rng) % (cap / 2), priv);
        if (e)
          inserted++;
        else
          refused++;
      }
      if (e)
        held[nheld++] = e;
    }
    bad += !consistent(&c, tmp);
    for (int i = 0; i < nheld; i++)
      lost_pin += !holds(&c, held[i]);
  }
  CHECK(bad == 0);
  CHECK(lost_pin == 0);
  CHECK(inserted > 1000 && refused > 0); /* the workload did exercise both paths */
  while (nheld > 0)
    nw_cache_release(&c, held[--nheld]);
  if (p == NW_CACHE_NONE)
    CHECK(nw_cache_used(&c) == 0 && c.entries == NULL);
  /* Everything unpinned: a full-budget entry must now fit, evicting all. */
  nw_cache_key big = key_of(2, 0);
  nw_cache_entry *e = nw_cache_insert(&c, &big, cap / NW_DEVMEM_ALIGN * NW_DEVMEM_ALIGN, 0);
  CHECK(e != NULL && c.nentries == 1);
  nw_cache_release(&c, e);
  free(tmp);
  nw_cache_free(&c);
}

static void test_none(void) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 3 * SLOT, NW_CACHE_NONE, 1) == NW_OK);
  nw_cache_key ka = key_of(1, 0);
  nw_cache_entry *a = nw_cache_insert(&c, &ka, SLOT, 0);
  /* Shared while in use... */
  CHECK(a != NULL && nw_cache_lookup(&c, &ka, NULL) == a && a->pins == 2);
  nw_cache_release(&c, a);
  CHECK(live(&c, ka) && nw_cache_used(&c) == SLOT);
  /* ...and gone with its last user. */
  nw_cache_release(&c, a);
  CHECK(!live(&c, ka) && nw_cache_used(&c) == 0 && c.nentries == 0);
  CHECK(nw_cache_lookup(&c, &ka, NULL) == NULL && c.stats.misses == 1 && c.stats.hits == 1);
  nw_cache_free(&c);
}

static void test_invalidate(void) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 8 * SLOT, NW_CACHE_LRU, 1) == NW_OK);
  nw_cache_key kx = {1, 0, 10, 0, 64};   /* overlaps the write */
  nw_cache_key ky = {1, 10, 20, 0, 64};  /* rows touch the write's end: no overlap */
  nw_cache_key kw = {1, 0, 10, 64, 128}; /* same rows, other columns */
  nw_cache_key kz = {2, 0, 10, 0, 64};   /* same rectangle, other space */
  nw_cache_key kp = {1, 30, 40, 0, 64};  /* overlaps a later write while pinned */
  nw_cache_key keys[4] = {kx, ky, kw, kz};
  for (int i = 0; i < 4; i++)
    nw_cache_release(&c, nw_cache_insert(&c, &keys[i], SLOT, 0));
  nw_cache_entry *p = nw_cache_insert(&c, &kp, SLOT, 0);
  CHECK(nw_cache_used(&c) == 5 * SLOT);
  nw_cache_key w = {1, 5, 10, 32, 64};
  CHECK(nw_cache_invalidate(&c, &w) == 1);
  CHECK(!live(&c, kx) && live(&c, ky) && live(&c, kw) && live(&c, kz));
  CHECK(nw_cache_used(&c) == 4 * SLOT); /* X was unpinned: freed now */
  CHECK(nw_cache_lookup(&c, &kx, NULL) == NULL);
  nw_cache_entry *y = nw_cache_lookup(&c, &ky, NULL);
  CHECK(y != NULL);
  nw_cache_release(&c, y);
  /* A pinned entry: unreachable at once, its memory kept until its user is done. */
  nw_cache_key w2 = {1, 39, 50, 63, 64};
  CHECK(nw_cache_invalidate(&c, &w2) == 1);
  CHECK(p->dead && nw_cache_lookup(&c, &kp, NULL) == NULL);
  CHECK(nw_cache_used(&c) == 4 * SLOT && holds(&c, p));
  CHECK(nw_cache_invalidate(&c, &w2) == 0); /* already dead: not counted again */
  nw_cache_release(&c, p);
  CHECK(nw_cache_used(&c) == 3 * SLOT && c.nentries == 3);
  /* A fresh copy of X can come back after the write. */
  nw_cache_entry *x = nw_cache_insert(&c, &kx, SLOT, 0);
  CHECK(x != NULL && !x->dead);
  nw_cache_release(&c, x);
  CHECK(live(&c, kx));
  nw_cache_free(&c);
}

static void test_private(void) {
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 4 * SLOT, NW_CACHE_LRU, 1) == NW_OK);
  nw_cache_key k = key_of(1, 0);
  nw_cache_entry *v = nw_cache_insert(&c, &k, SLOT, 1);
  CHECK(v != NULL && v->dead && v->pins == 1);
  CHECK(nw_cache_lookup(&c, &k, NULL) == NULL);
  nw_cache_entry *s = nw_cache_insert(&c, &k, SLOT, 0);
  nw_cache_release(&c, s);
  CHECK(nw_cache_lookup(&c, &k, NULL) == s); /* the shared one, never the private one */
  nw_cache_release(&c, s);
  CHECK(nw_cache_used(&c) == 2 * SLOT);
  nw_cache_release(&c, v); /* freed on its last release */
  CHECK(nw_cache_used(&c) == SLOT && c.nentries == 1 && c.entries == s);
  nw_cache_free(&c);
}

static void test_names(void) {
  const char *names[] = {"lru", "mru", "lfu", "mfu", "random", "none"};
  for (int i = 0; i < 6; i++) {
    CHECK(nw_cache_policy_parse(names[i]) == i);
    CHECK(nw_cache_policy_name((nw_cache_policy)i)[0] == names[i][0]);
    CHECK(nw_cache_policy_parse(nw_cache_policy_name((nw_cache_policy)i)) == i);
  }
  CHECK(nw_cache_policy_parse("LRU") == -1 && nw_cache_policy_parse("") == -1);
  CHECK(nw_cache_policy_parse(NULL) == -1);
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, SLOT, (nw_cache_policy)99, 1) == NW_ERR_ARG);
}

/* What a lookup must return: the first live entry of the key in the list (newest first). */
static nw_cache_entry *scan(const nw_gpu_cache *c, const nw_cache_key *k) {
  for (nw_cache_entry *e = c->entries; e; e = e->next)
    if (!e->dead && e->key.space == k->space && e->key.row0 == k->row0 && e->key.row1 == k->row1 &&
        e->key.col0 == k->col0 && e->key.col1 == k->col1)
      return e;
  return NULL;
}

/* Thousands of entries over a few hundred keys, several entries a key (private entries
 * published, or inserted beside a live one), with releases, invalidations and evictions: every
 * lookup and publish must pick the entry a scan of the list picks, while the table grows. */
static void test_index(void) {
  enum { OPS = 40000, KEYS = 400 };
  nw_gpu_cache c;
  CHECK(nw_cache_init(&c, 3000 * (uint64_t)NW_DEVMEM_ALIGN, NW_CACHE_LRU, 5) == NW_OK);
  size_t first_buckets = c.nbucket;
  uint64_t rng = 99;
  int differ = 0, found = 0;
  nw_cache_entry *held[64];
  int nheld = 0;
  for (int op = 0; op < OPS; op++) {
    uint64_t r = nw_rng_next(&rng);
    nw_cache_key k = key_of(1 + r % 3, (r >> 8) % KEYS);
    if (nheld == 64 || (nheld > 0 && r % 4 == 0)) {
      int i = (int)((r >> 20) % (uint64_t)nheld);
      if ((r >> 30) % 2)
        nw_cache_publish(&c, held[i]);
      nw_cache_release(&c, held[i]);
      held[i] = held[--nheld];
    } else if (r % 97 == 5) {
      nw_cache_key w = {1 + r % 3, (r >> 12) % (KEYS * 10), 0, 0, 64};
      w.row1 = w.row0 + 1 + (r >> 40) % 50;
      nw_cache_invalidate(&c, &w);
    } else if (r % 5 == 1) { /* another entry of the key, whatever is there */
      nw_cache_entry *e = nw_cache_insert(&c, &k, NW_DEVMEM_ALIGN, (r >> 16) % 2);
      if (e)
        held[nheld++] = e;
    } else {
      nw_cache_entry *want = scan(&c, &k), *got = nw_cache_lookup(&c, &k, NULL);
      differ += got != want;
      if (got) {
        found++;
        held[nheld++] = got;
      }
    }
  }
  CHECK(differ == 0);
  CHECK(found > 1000 && c.nbucket > first_buckets); /* it did find, and the table did grow */
  while (nheld > 0)
    nw_cache_release(&c, held[--nheld]);
  nw_cache_free(&c);
}

int main(void) {
  test_devmem();
  test_devmem_claim();
  test_policies();
  test_random();
  test_pinned();
  for (int p = NW_CACHE_LRU; p <= NW_CACHE_NONE; p++)
    test_workload((nw_cache_policy)p, 11 + (uint64_t)p);
  test_none();
  test_invalidate();
  test_private();
  test_names();
  test_index();
  return check_report("gpu_cache");
}
