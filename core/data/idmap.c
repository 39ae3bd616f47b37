/* idmap.c: open addressing over a power-of-two table, grown at half full (removed entries
 * count, and a rehash drops them). */
#include "idmap.h"

#include <stdlib.h>

#define GONE UINT64_MAX

static size_t slot(uint64_t id, size_t cap) {
  id ^= id >> 33; /* splitmix-style mixing: consecutive ids spread over the table */
  id *= 0xff51afd7ed558ccdull;
  id ^= id >> 33;
  return (size_t)id & (cap - 1);
}

static nw_status grow(nw_idmap *m) {
  size_t cap = m->cap ? m->cap : 16;
  while (cap < 4 * (m->live + 1))
    cap *= 2;
  uint64_t *keys = calloc(cap, sizeof *keys);
  void **values = malloc(cap * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    return NW_ERR_NOMEM;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (m->keys[i] == 0 || m->keys[i] == GONE)
      continue;
    size_t k = slot(m->keys[i], cap);
    while (keys[k])
      k = (k + 1) & (cap - 1);
    keys[k] = m->keys[i];
    values[k] = m->values[i];
  }
  free(m->keys);
  free(m->values);
  m->keys = keys;
  m->values = values;
  m->cap = cap;
  m->used = m->live;
  return NW_OK;
}

nw_status nw_idmap_put(nw_idmap *m, uint64_t id, void *value) {
  if (id == 0 || id == GONE)
    return NW_ERR_ARG;
  if (2 * (m->used + 1) > m->cap && grow(m) != NW_OK)
    return NW_ERR_NOMEM;
  size_t k = slot(id, m->cap), free_at = SIZE_MAX;
  while (m->keys[k]) {
    if (m->keys[k] == id) {
      m->values[k] = value;
      return NW_OK;
    }
    if (m->keys[k] == GONE && free_at == SIZE_MAX)
      free_at = k;
    k = (k + 1) & (m->cap - 1);
  }
  if (free_at != SIZE_MAX)
    k = free_at; /* reuses a removed entry: used does not grow */
  else
    m->used++;
  m->keys[k] = id;
  m->values[k] = value;
  m->live++;
  return NW_OK;
}

void *nw_idmap_get(const nw_idmap *m, uint64_t id) {
  if (!m->cap || id == 0 || id == GONE)
    return NULL;
  for (size_t k = slot(id, m->cap); m->keys[k]; k = (k + 1) & (m->cap - 1))
    if (m->keys[k] == id)
      return m->values[k];
  return NULL;
}

void nw_idmap_remove(nw_idmap *m, uint64_t id) {
  if (!m->cap || id == 0 || id == GONE)
    return;
  for (size_t k = slot(id, m->cap); m->keys[k]; k = (k + 1) & (m->cap - 1))
    if (m->keys[k] == id) {
      m->keys[k] = GONE;
      m->live--;
      return;
    }
}

void nw_idmap_free(nw_idmap *m) {
  free(m->keys);
  free(m->values);
  *m = (nw_idmap){0};
}
