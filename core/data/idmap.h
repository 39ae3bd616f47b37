/* idmap.h: a map from 64-bit ids to pointers (open addressing, linear probing), so that finding
 * a task or a space by its id costs O(1) whatever a run's size: a graph of 100,000 tasks looked
 * them up in lists, O(n) a message. Id 0 is never a key (ids are numbered from 1). */
#ifndef NW_IDMAP_H
#define NW_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

typedef struct nw_idmap {
  uint64_t *keys; /* 0: empty; UINT64_MAX: a removed entry the probe goes past */
  void **values;
  size_t cap, used, live; /* used counts removed entries too, live only the others */
} nw_idmap;

nw_status nw_idmap_put(nw_idmap *m, uint64_t id, void *value);
/* The value of id, or NULL. */
void *nw_idmap_get(const nw_idmap *m, uint64_t id);
void nw_idmap_remove(nw_idmap *m, uint64_t id);
void nw_idmap_free(nw_idmap *m);

#endif
