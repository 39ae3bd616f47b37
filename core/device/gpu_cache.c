/* gpu_cache.c: the software cache of one GPU's memory (see gpu_cache.h): a list of entries
 * over an nw_devmem, with policy-ordered eviction that either makes room or changes nothing. */
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

nw_status nw_cache_init(nw_gpu_cache *c, uint64_t capacity, nw_cache_policy policy, uint64_t seed) {
  memset(c, 0, sizeof *c);
  if ((unsigned)policy >= NPOLICY)
    return NW_ERR_ARG;
  c->policy = policy;
  c->rng = seed;
  return nw_devmem_init(&c->mem, capacity);
}

/* Forgets the entry; its memory is the caller's to give back. */
static void entry_unlink(nw_gpu_cache *c, nw_cache_entry *e) {
  for (nw_cache_entry **p = &c->entries; *p; p = &(*p)->next)
    if (*p == e) {
      *p = e->next;
      break;
    }
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
  nw_devmem_free_all(&c->mem);
}

static int key_equal(const nw_cache_key *a, const nw_cache_key *b) {
  return a->space == b->space && a->row0 == b->row0 && a->row1 == b->row1 && a->col0 == b->col0 &&
         a->col1 == b->col1;
}

nw_cache_entry *nw_cache_lookup(nw_gpu_cache *c, const nw_cache_key *key, const nw_region *need) {
  for (nw_cache_entry *e = c->entries; e; e = e->next)
    if (!e->dead && key_equal(&e->key, key) && (!need || nw_region_contains(&e->held, need))) {
      e->pins++;
      e->uses++;
      e->last_use = ++c->clock;
      c->stats.hits++;
      return e;
    }
  c->stats.misses++;
  return NULL;
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
 * them. The evictions are played on a scratch copy of the books and committed only when the
 * allocation succeeds there, so a failure leaves the cache exactly as it was (the promise in
 * gpu_cache.h). Returns 1 and sets *off, or 0. */
static int evict_and_alloc(nw_gpu_cache *c, uint64_t bytes, uint64_t *off) {
  size_t n = 0;
  for (nw_cache_entry *e = c->entries; e; e = e->next)
    n += e->pins <= 0;
  if (n == 0)
    return 0;
  nw_cache_entry **cand = malloc(n * sizeof *cand);
  /* Each release adds at most one hole, so with this many the scratch copy never grows and
   * never loses a block to a failed realloc: the trial is exact. */
  size_t caphole = c->mem.nhole + n + 1;
  nw_devmem_hole *hole = malloc(caphole * sizeof *hole);
  if (!cand || !hole) {
    free(cand);
    free(hole);
    return 0;
  }
  n = 0;
  for (nw_cache_entry *e = c->entries; e; e = e->next)
    if (e->pins <= 0)
      cand[n++] = e;
  nw_devmem trial = c->mem;
  memcpy(hole, c->mem.hole, c->mem.nhole * sizeof *hole);
  trial.hole = hole;
  trial.caphole = caphole;
  uint64_t rng = c->rng;

  /* Victims are swapped to the tail cand[left, total). */
  size_t total = n, left = n;
  int ok = 0;
  while (left > 0 && !ok) {
    size_t v = pick_victim(c, cand, left);
    nw_cache_entry *e = cand[v];
    cand[v] = cand[left - 1];
    cand[--left] = e;
    nw_devmem_release(&trial, e->off, e->bytes);
    ok = nw_devmem_alloc(&trial, bytes, off);
  }
  if (!ok) {
    c->rng = rng; /* a refused insert leaves the Random policy's sequence untouched */
    free(hole);
    free(cand);
    return 0;
  }
  for (size_t i = left; i < total; i++) {
    nw_cache_entry *e = cand[i];
    if (!e->dead)
      c->stats.evictions++;
    entry_unlink(c, e);
  }
  free(c->mem.hole);
  c->mem = trial; /* the books already include the victims' release and the new block */
  free(cand);
  return 1;
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
  e->next = c->entries;
  c->entries = e;
  c->nentries++;
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
  for (nw_cache_entry *x = c->entries; x; x = x->next)
    if (x != e && !x->dead && key_equal(&x->key, &e->key) && nw_region_contains(&x->held, &e->held))
      return; /* it would never be found before that one */
  e->dead = 0;
  e->last_use = ++c->clock;
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
