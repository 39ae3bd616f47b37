/* directory.c: master ownership directory as one region set per owner (see directory.h). */
#include "directory.h"

#include <stdlib.h>

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
  free(d);
}

nw_status nw_directory_split(const nw_directory *d, const nw_region *need, nw_region *parts) {
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
