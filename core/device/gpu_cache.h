/* gpu_cache.h: the software cache of one GPU's memory (paper sections 4.1 and 4.4).
 *
 * An entry holds one subscription of one address space on the device: the bounding rectangle
 * of the subtask's region in that space (nw_cache_key), packed row after row. Subtasks of a
 * task that read the same block, and a later task that reads what an earlier one wrote on this
 * GPU, find it here instead of copying it again over PCIe. An entry is pinned while a subtask
 * uses it; eviction (UNICORN-NOTES, "GPU cache") walks the entries in the policy's order and
 * evicts the first unpinned one, again and again until the new entry's allocation succeeds.
 * Policies: LRU (default), MRU, LFU, MFU, Random, and NONE (nothing outlives its last user).
 * Memory comes from an nw_devmem of the GPU's budget, so the budget is never exceeded.
 *
 * Entries are found through a hash of their key: a GPU may hold tens of thousands of entries
 * (a modelled K20X's 6 GB in 32 x 32 tiles), and a scan of them all for every view of every
 * subtask made a run's cost grow with the square of its subtasks. Within a key the hash chain
 * keeps the entry list's order (newest first), so a lookup finds the same entry a scan of the
 * list would. For the same reason LRU and MRU (and NONE, which evicts as LRU) take their
 * victims from a list kept in order of last use, and an eviction that fails is undone on the
 * books themselves (nw_devmem_claim) instead of being tried on a copy of them.
 */
#ifndef NW_GPU_CACHE_H
#define NW_GPU_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "devmem.h"
#include "narwhal.h"
#include "region.h"

typedef enum {
  NW_CACHE_LRU = 0, /* evict the least recently used */
  NW_CACHE_MRU,     /* the most recently used */
  NW_CACHE_LFU,     /* the least frequently used (ties: least recently used) */
  NW_CACHE_MFU,     /* the most frequently used (ties: least recently used) */
  NW_CACHE_RANDOM,  /* a uniformly random unpinned entry */
  NW_CACHE_NONE     /* no cache: an entry is freed when its last user releases it */
} nw_cache_policy;

/* Parses "lru", "mru", "lfu", "mfu", "random", "none"; -1 for anything else. */
int nw_cache_policy_parse(const char *name);
const char *nw_cache_policy_name(nw_cache_policy p);

/* Rows [row0, row1) x byte columns [col0, col1) of space `space` (row pitch of the space). */
typedef struct nw_cache_key {
  uint64_t space;
  uint64_t row0, row1, col0, col1;
} nw_cache_key;

/* The rectangle's bytes: what its entry holds on the device. */
static inline uint64_t nw_cache_key_bytes(const nw_cache_key *k) {
  return (k->row1 - k->row0) * (k->col1 - k->col0);
}

typedef struct nw_cache_entry {
  nw_cache_key key;
  /* The bytes of the rectangle that hold the space's data: a subtask's read region copied in,
   * or the write region a kernel filled. The rest of the rectangle is whatever the node's copy
   * or the kernel left there, so a lookup finds an entry only for bytes it holds. */
  nw_region held;
  uint64_t off, bytes; /* where it lives in the GPU's memory, and its size */
  int pins;            /* subtasks using it now: never evicted while > 0 */
  int valid;           /* its bytes are on the device (the copy in finished) */
  int dead;            /* invalidated or private: freed when the last pin goes, never found */
  uint64_t uses;       /* lookups that found it, plus its insertion */
  uint64_t last_use;   /* the cache's clock at its last use */
  struct nw_cache_entry *next, *prev;   /* every entry, newest first */
  struct nw_cache_entry *hnext, *hprev; /* the entries of its hash bucket, newest first */
  struct nw_cache_entry *rnext, *rprev; /* by last_use, least recent first */
} nw_cache_entry;

typedef struct nw_cache_stats {
  uint64_t hits, misses, evictions;
} nw_cache_stats;

typedef struct nw_gpu_cache {
  nw_cache_policy policy;
  nw_devmem mem;
  nw_cache_entry *entries; /* every entry, live or dead, that holds memory */
  size_t nentries;
  nw_cache_entry **bucket; /* nbucket (a power of two) chains by key hash */
  size_t nbucket;
  nw_cache_entry *least_recent, *most_recent; /* the ends of the recency list */
  uint64_t clock;
  uint64_t rng; /* Random policy's state (splitmix64, seeded by the caller) */
  nw_cache_stats stats;
} nw_gpu_cache;

/* NW_ERR_ARG for an unknown policy, NW_ERR_NOMEM when the books cannot be allocated. */
nw_status nw_cache_init(nw_gpu_cache *c, uint64_t capacity, nw_cache_policy policy, uint64_t seed);
void nw_cache_free(nw_gpu_cache *c);

/* Finds a live entry with exactly this key that holds every byte of `need` (any live entry of
 * the key when need is NULL): pins it, counts a hit and a use, and returns it. Otherwise
 * counts a miss and returns NULL. A found entry may still be !valid (its copy is under way,
 * started by another subtask): the caller waits for it. */
nw_cache_entry *nw_cache_lookup(nw_gpu_cache *c, const nw_cache_key *key, const nw_region *need);

/* Whether a live entry with exactly this key holds every byte of `need`: nw_cache_lookup's
 * test, without pinning, counting or touching anything (a policy's question). */
int nw_cache_holds(const nw_gpu_cache *c, const nw_cache_key *key, const nw_region *need);

/* Makes a new pinned entry of `bytes` for key (not valid yet), evicting unpinned entries in
 * the policy's order until the memory fits; counts each eviction. `private_` entries (write
 * views, uncacheable data) are dead from the start: never found, freed on their last release.
 * Returns NULL, with nothing evicted, when even evicting every unpinned entry would not make
 * room (too much pinned, or bytes larger than the budget: see nw_cache_fits). */
nw_cache_entry *nw_cache_insert(nw_gpu_cache *c, const nw_cache_key *key, uint64_t bytes,
                                int private_);

/* True when `bytes` could ever fit, i.e. is no larger than the budget. */
int nw_cache_fits(const nw_gpu_cache *c, uint64_t bytes);

/* Drops one pin. An entry that is dead (or any entry under NW_CACHE_NONE) is freed when its
 * pins reach 0. */
void nw_cache_release(nw_gpu_cache *c, nw_cache_entry *e);

/* Makes a private entry findable (a result the kernel wrote and the node committed), unless a
 * live entry with its key already holds every byte it holds. */
void nw_cache_publish(nw_gpu_cache *c, nw_cache_entry *e);

/* A task is about to write rows [row0,row1) x columns [col0,col1) of `space`: every live entry
 * of that space that overlaps it becomes dead (freed now if unpinned). Returns how many. */
size_t nw_cache_invalidate(nw_gpu_cache *c, const nw_cache_key *written);

/* True when no entry is pinned (no subtask or copy uses any). */
int nw_cache_idle(const nw_gpu_cache *c);
/* Frees every unpinned entry (without counting evictions). */
void nw_cache_flush(nw_gpu_cache *c);

/* Bytes of the budget in use (live and dead entries that still hold memory). */
uint64_t nw_cache_used(const nw_gpu_cache *c);

#endif
