/* directory.c: master ownership directory as one region set per owner (see directory.h). */
#include "directory.h"

#include <limits.h>
#include <stdlib.h>

#include "directory_index.h"

nw_status nw_directory_create(int nodes, uint64_t pitch, uint64_t size, int initial_owner,
                              nw_directory **out) {
  if (nodes < 1 || initial_owner < 0 || initial_owner >= nodes)
    return NW_ERR_ARG;
  nw_directory *d = calloc(1, sizeof *d);
  if (!d)
    return NW_ERR_NOMEM;
  d->nodes = nodes;
  d->by_owner = calloc((size_t)nodes, sizeof *d->by_owner);
  if (!d->by_owner) {
    free(d);
    return NW_ERR_NOMEM;
  }
  for (int k = 0; k < nodes; k++)
    nw_region_init(&d->by_owner[k], pitch);
  nw_status st = size ? nw_region_add_range(&d->by_owner[initial_owner], 0, size) : NW_OK;
  if (st != NW_OK) {
    nw_directory_free(d);
    return st;
  }
  *out = d;
  return NW_OK;
}

void nw_directory_free(nw_directory *d) {
  if (!d)
    return;
  for (int k = 0; k < d->nodes; k++)
    nw_region_free(&d->by_owner[k]);
  free(d->by_owner);
  nw_dir_index_free(d->index);
  free(d);
}

/* Splits right after a change are few (the fetches of a task's first subtasks, a driver's
 * read): the index is built once several follow, so a chain of small tasks that change the
 * directory each time does not rebuild it for every fetch. */
#define SPLITS_BEFORE_INDEX 4

nw_status nw_directory_split(nw_directory *d, const nw_region *need, nw_region *parts) {
  if (!d->index && d->splits_since_change != UINT_MAX &&
      ++d->splits_since_change >= SPLITS_BEFORE_INDEX) {
    d->index = nw_dir_index_build(d->by_owner, d->nodes);
    if (!d->index) /* past its bound or out of memory: owner by owner until the next change */
      d->splits_since_change = UINT_MAX;
  }
  if (d->index)
    return nw_dir_index_split(d->index, need, parts, d->nodes);
  for (int k = 0; k < d->nodes; k++) {
    nw_region_clear(&parts[k]);
    if (nw_region_empty(&d->by_owner[k]))
      continue;
    nw_status st = nw_region_intersect(&parts[k], need, &d->by_owner[k]);
    if (st != NW_OK)
      return st;
  }
  return NW_OK;
}

nw_status nw_directory_assign(nw_directory *d, int writer, const nw_region *written,
                              nw_region *lost) {
  if (writer < 0 || writer >= d->nodes)
    return NW_ERR_ARG;
  nw_dir_index_free(d->index);
  d->index = NULL;
  d->splits_since_change = 0;
  nw_region part;
  nw_region_init(&part, written->pitch);
  nw_status st = NW_OK;
  for (int k = 0; k < d->nodes && st == NW_OK; k++) {
    if (k == writer || nw_region_empty(&d->by_owner[k]))
      continue;
    st = nw_region_intersect(&part, written, &d->by_owner[k]);
    if (st == NW_OK && !nw_region_empty(&part)) {
      st = nw_region_add(&lost[k], &part);
      if (st == NW_OK)
        st = nw_region_subtract(&d->by_owner[k], &part);
    }
  }
  if (st == NW_OK)
    st = nw_region_add(&d->by_owner[writer], written);
  /* The writer may have lost these bytes earlier in the same update round (another node's
   * update applied first): it owns them again, so it must not be told to drop them. */
  if (st == NW_OK)
    st = nw_region_subtract(&lost[writer], written);
  nw_region_free(&part);
  return st;
}

const nw_region *nw_directory_owned_by(const nw_directory *d, int node) {
  return &d->by_owner[node];
}
