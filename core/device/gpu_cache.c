/* gpu_cache.c: the software cache of one GPU's memory (see gpu_cache.h): a list of entries,
 * indexed by a hash of their keys, over an nw_devmem, with policy-ordered eviction that either
 * makes room or changes nothing. */
#include "gpu_cache.h"

#include <stdlib.h>
#include <string.h>

#include "rng.h"

static const char *const policy_names[] = {"lru", "mru", "lfu", "mfu", "random", "none"};
#define NPOLICY (sizeof policy_names / sizeof policy_names[0])

int nw_cache_policy_parse(const char *name) {
  if (!name)
    return -1;
  for (size_t i = 0; i < NPOLICY; i++)
    if (strcmp(name, policy_names[i]) == 0)
      return (int)i;
  return -1;
}

const char *nw_cache_policy_name(nw_cache_policy p) {
  return (unsigned)p < NPOLICY ? policy_names[p] : "unknown";
}

enum { FIRST_BUCKETS = 64 };

nw_status nw_cache_init(nw_gpu_cache *c, uint64_t capacity, nw_cache_policy policy, uint64_t seed) {
  memset(c, 0, sizeof *c);
  if ((unsigned)policy >= NPOLICY)
    return NW_ERR_ARG;
  c->policy = policy;
  c->rng = seed;
  if (!(c->bucket = calloc(FIRST_BUCKETS, sizeof *c->bucket)))
    return NW_ERR_NOMEM;
  c->nbucket = FIRST_BUCKETS;
  nw_status st = nw_devmem_init(&c->mem, capacity);
  if (st != NW_OK) {
    free(c->bucket);
    c->bucket = NULL;
    c->nbucket = 0;
  }
  return st;
}

static uint64_t mix(uint64_t h, uint64_t v) { /* splitmix64's finaliser over h ^ v */
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return h ^ (h >> 31);
}

static nw_cache_entry **bucket_of(const nw_gpu_cache *c, const nw_cache_key *k) {
  uint64_t h = mix(mix(mix(mix(mix(0, k->space), k->row0), k->row1), k->col0), k->col1);
  return &c->bucket[h & (c->nbucket - 1)];
}

static void bucket_push(nw_gpu_cache *c, nw_cache_entry *e) {
  nw_cache_entry **b = bucket_of(c, &e->key);
  e->hprev = NULL;
  e->hnext = *b;
  if (*b)
    (*b)->hprev = e;
  *b = e;
}

/* Twice the buckets once there are twice as many entries. The entries go back in from the
 * oldest, each at the head of its chain, so every chain stays newest first. A failed
 * allocation keeps the table as it is: longer chains, the same answers. */
static void maybe_grow(nw_gpu_cache *c) {
  if (c->nentries <= 2 * c->nbucket || c->nbucket > SIZE_MAX / 2 / sizeof *c->bucket)
    return;
  nw_cache_entry **grown = calloc(2 * c->nbucket, sizeof *grown);
  if (!grown)
    return;
  free(c->bucket);
  c->bucket = grown;
  c->nbucket *= 2;
  nw_cache_entry *oldest = c->entries;
  while (oldest && oldest->next)
    oldest = oldest->next;
  for (nw_cache_entry *e = oldest; e; e = e->prev)
    bucket_push(c, e);
}

/* The recency list: entries by last_use, the least recent first. Every change of last_use
 * moves the entry to the end, and the clock never repeats, so the list stays sorted. */
static void recency_remove(nw_gpu_cache *c, nw_cache_entry *e) {
  if (e->rprev)
    e->rprev->rnext = e->rnext;
  else
    c->least_recent = e->rnext;
  if (e->rnext)
    e->rnext->rprev = e->rprev;
  else
    c->most_recent = e->rprev;
  e->rnext = e->rprev = NULL;
}

static void recency_append(nw_gpu_cache *c, nw_cache_entry *e) {
  e->rnext = NULL;
  e->rprev = c->most_recent;
  if (c->most_recent)
    c->most_recent->rnext = e;
  else
    c->least_recent = e;
  c->most_recent = e;
}

static void touch(nw_gpu_cache *c, nw_cache_entry *e) {
  e->last_use = ++c->clock;
  recency_remove(c, e);
  recency_append(c, e);
}

/* Forgets the entry; its memory is the caller's to give back. */
static void entry_unlink(nw_gpu_cache *c, nw_cache_entry *e) {
  recency_remove(c, e);
  if (e->prev)
    e->prev->next = e->next;
  else
    c->entries = e->next;
  if (e->next)
    e->next->prev = e->prev;
  if (e->hprev)
    e->hprev->hnext = e->hnext;
  else
    *bucket_of(c, &e->key) = e->hnext;
  if (e->hnext)
    e->hnext->hprev = e->hprev;
  c->nentries--;
  nw_region_free(&e->held);
  free(e);
}

static void entry_drop(nw_gpu_cache *c, nw_cache_entry *e) {
  nw_devmem_release(&c->mem, e->off, e->bytes);
  entry_unlink(c, e);
}

void nw_cache_free(nw_gpu_cache *c) {
  nw_cache_entry *e = c->entries;
  while (e) {
    nw_cache_entry *next = e->next;
    nw_region_free(&e->held);
    free(e);
    e = next;
  }
  c->entries = NULL;
  c->nentries = 0;
  c->least_recent = c->most_recent = NULL;
  free(c->bucket);
  c->bucket = NULL;
  c->nbucket = 0;
  nw_devmem_free_all(&c->mem);
}

static int key_equal(const nw_cache_key *a, const nw_cache_key *b) {
  return a->space == b->space && a->row0 == b->row0 && a->row1 == b->row1 && a->col0 == b->col0 &&
         a->col1 == b->col1;
}

nw_cache_entry *nw_cache_lookup(nw_gpu_cache *c, const nw_cache_key *key, const nw_region *need) {
  for (nw_cache_entry *e = *bucket_of(c, key); e; e = e->hnext)
    if (!e->dead && key_equal(&e->key, key) && (!need || nw_region_contains(&e->held, need))) {
      e->pins++;
      e->uses++;
      touch(c, e);
      c->stats.hits++;
      return e;
    }
  c->stats.misses++;
  return NULL;
}

int nw_cache_holds(const nw_gpu_cache *c, const nw_cache_key *key, const nw_region *need) {
  for (const nw_cache_entry *e = *bucket_of(c, key); e; e = e->hnext)
    if (!e->dead && key_equal(&e->key, key) && nw_region_contains(&e->held, need))
      return 1;
  return 0;
}

int nw_cache_fits(const nw_gpu_cache *c, uint64_t bytes) {
  /* What nw_devmem_alloc could ever grant: the rounded size within the budget (the same as
   * "no larger than the budget" whenever the budget is a multiple of the alignment). */
  uint64_t b = bytes ? bytes : 1;
  if (b > c->mem.capacity || b > UINT64_MAX - (NW_DEVMEM_ALIGN - 1))
    return 0;
  return ((b + NW_DEVMEM_ALIGN - 1) & ~(uint64_t)(NW_DEVMEM_ALIGN - 1)) <= c->mem.capacity;
}

/* True when the policy would evict a before b. Recency always breaks ties, and the clock
 * never repeats, so the order is total and does not depend on where entries sit in the list. */
static int evict_before(nw_cache_policy p, const nw_cache_entry *a, const nw_cache_entry *b) {
  /* Dead entries hold memory nobody can find: reclaim them before any live one. */
  if (a->dead != b->dead)
    return a->dead;
  switch (p) {
  case NW_CACHE_MRU:
    return a->last_use > b->last_use;
  case NW_CACHE_LFU:
    return a->uses != b->uses ? a->uses < b->uses : a->last_use < b->last_use;
  case NW_CACHE_MFU:
    return a->uses != b->uses ? a->uses > b->uses : a->last_use < b->last_use;
  default: /* LRU, and NONE, whose unpinned entries are normally already gone */
    return a->last_use < b->last_use;
  }
}

/* Index in cand[0, n) of the next entry to evict. */
static size_t pick_victim(nw_gpu_cache *c, nw_cache_entry **cand, size_t n) {
  if (c->policy == NW_CACHE_RANDOM) {
    for (size_t i = 0; i < n; i++)
      if (cand[i]->dead)
        return i;
    return (size_t)(nw_rng_next(&c->rng) % n);
  }
  size_t best = 0;
  for (size_t i = 1; i < n; i++)
    if (evict_before(c->policy, cand[i], cand[best]))
      best = i;
  return best;
}

/* Evicts unpinned entries in the policy's order until `bytes` can be allocated, and allocates
 * them. Victims are released on the books one at a time; when even all of them leave no room,
 * each release is undone (nw_devmem_claim, newest first), so a failure leaves the cache
 * exactly as it was (the promise in gpu_cache.h). Returns 1 and sets *off, or 0.
 *
 * LRU, MRU and NONE walk the recency list, skipping pinned entries; the other policies choose
 * among every unpinned entry. The order is evict_before's either way: no unpinned entry is
 * dead (a dead entry is freed when its last pin goes), so "dead first" never applies to the
 * recency walk. */
static int evict_and_alloc(nw_gpu_cache *c, uint64_t bytes, uint64_t *off) {
  int mru = c->policy == NW_CACHE_MRU;
  int walk_recency = mru || c->policy == NW_CACHE_LRU || c->policy == NW_CACHE_NONE;
  /* Each release adds at most one hole, and undoing them never needs more than that. */
  if (!nw_devmem_reserve(&c->mem, c->nentries + 1))
    return 0;
  nw_cache_entry **cand = NULL;
  size_t left = 0;
  if (!walk_recency) {
    for (nw_cache_entry *e = c->entries; e; e = e->next)
      left += e->pins <= 0;
    if (left == 0 || !(cand = malloc(left * sizeof *cand)))
      return 0;
    left = 0;
    for (nw_cache_entry *e = c->entries; e; e = e->next)
      if (e->pins <= 0)
        cand[left++] = e;
  }
  nw_cache_entry **victim = NULL, *walk = mru ? c->most_recent : c->least_recent;
  size_t nvictim = 0, capvictim = 0;
  uint64_t rng = c->rng;
  int ok = 0;
  for (;;) {
    nw_cache_entry *e = NULL;
    if (walk_recency) {
      while (walk && walk->pins > 0)
        walk = mru ? walk->rprev : walk->rnext;
      e = walk;
      if (walk)
        walk = mru ? walk->rprev : walk->rnext;
    } else if (left > 0) {
      size_t v = pick_victim(c, cand, left);
      e = cand[v];
      cand[v] = cand[--left];
    }
    if (!e)
      break;
    if (nvictim == capvictim) {
      size_t cap = capvictim ? 2 * capvictim : 8;
      nw_cache_entry **grown = realloc(victim, cap * sizeof *grown);
      if (!grown)
        break;
      victim = grown;
      capvictim = cap;
    }
    victim[nvictim++] = e;
    nw_devmem_release(&c->mem, e->off, e->bytes);
    if (nw_devmem_alloc(&c->mem, bytes, off)) {
      ok = 1;
      break;
    }
  }
  if (!ok) {
    while (nvictim > 0) {
      nw_cache_entry *e = victim[--nvictim];
      nw_devmem_claim(&c->mem, e->off, e->bytes); /* cannot fail: just released, reserved */
    }
    c->rng = rng; /* a refused insert leaves the Random policy's sequence untouched */
  }
  for (size_t i = 0; i < nvictim; i++) {
    if (!victim[i]->dead)
      c->stats.evictions++;
    entry_unlink(c, victim[i]);
  }
  free(victim);
  free(cand);
  return ok;
}

nw_cache_entry *nw_cache_insert(nw_gpu_cache *c, const nw_cache_key *key, uint64_t bytes,
                                int private_) {
  if (!nw_cache_fits(c, bytes))
    return NULL;
  /* Allocated first, so that nothing can fail once entries have been evicted. */
  nw_cache_entry *e = calloc(1, sizeof *e);
  if (!e)
    return NULL;
  uint64_t off;
  if (!nw_devmem_alloc(&c->mem, bytes, &off) && !evict_and_alloc(c, bytes, &off)) {
    free(e);
    return NULL;
  }
  e->key = *key;
  nw_region_init(&e->held, 1);
  e->off = off;
  e->bytes = bytes;
  e->pins = 1;
  e->valid = 0;
  e->dead = private_ != 0;
  e->uses = 1;
  e->last_use = ++c->clock;
  recency_append(c, e);
  e->prev = NULL;
  e->next = c->entries;
  if (c->entries)
    c->entries->prev = e;
  c->entries = e;
  bucket_push(c, e);
  c->nentries++;
  maybe_grow(c);
  return e;
}

void nw_cache_release(nw_gpu_cache *c, nw_cache_entry *e) {
  if (!e || e->pins <= 0)
    return; /* a release without a pin: nothing to drop */
  if (--e->pins == 0 && (e->dead || c->policy == NW_CACHE_NONE))
    entry_drop(c, e);
}

static int ranges_meet(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1) {
  return a0 < b1 && b0 < a1;
}

size_t nw_cache_invalidate(nw_gpu_cache *c, const nw_cache_key *w) {
  size_t n = 0;
  nw_cache_entry *e = c->entries;
  while (e) {
    nw_cache_entry *next = e->next;
    if (!e->dead && e->key.space == w->space &&
        ranges_meet(e->key.row0, e->key.row1, w->row0, w->row1) &&
        ranges_meet(e->key.col0, e->key.col1, w->col0, w->col1)) {
      e->dead = 1;
      n++;
      if (e->pins <= 0)
        entry_drop(c, e);
    }
    e = next;
  }
  return n;
}

uint64_t nw_cache_used(const nw_gpu_cache *c) {
  return c->mem.used;
}

void nw_cache_publish(nw_gpu_cache *c, nw_cache_entry *e) {
  for (nw_cache_entry *x = *bucket_of(c, &e->key); x; x = x->hnext)
    if (x != e && !x->dead && key_equal(&x->key, &e->key) && nw_region_contains(&x->held, &e->held))
      return; /* it would never be found before that one */
  e->dead = 0;
  touch(c, e);
}

int nw_cache_idle(const nw_gpu_cache *c) {
  for (const nw_cache_entry *e = c->entries; e; e = e->next)
    if (e->pins > 0)
      return 0;
  return 1;
}

void nw_cache_flush(nw_gpu_cache *c) {
  nw_cache_entry *e = c->entries;
  while (e) {
    nw_cache_entry *next = e->next;
    if (e->pins <= 0)
      entry_drop(c, e);
    e = next;
  }
}
