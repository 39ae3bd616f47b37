/* directory.h: the master copy of an address space's ownership directory (paper section 3).
 *
 * The master of a space knows the true owner of every byte. It splits fetch requests by owner
 * and, at task end, records new owners and reports which regions each previous owner lost.
 * Pure data structure: no messages, so the protocol's bookkeeping is unit-tested directly.
 */
#ifndef NW_DIRECTORY_H
#define NW_DIRECTORY_H

#include "region.h"

typedef struct nw_dir_index nw_dir_index;

typedef struct nw_directory {
  int nodes;
  nw_region *by_owner; /* by_owner[k]: the bytes node k owns; disjoint, covering the space */
  /* Every owner's bytes as one list, searched by a split (directory_index.c); rebuilt after an
   * assignment, once splits follow (splits_since_change; UINT_MAX: building gave up). */
  nw_dir_index *index;
  unsigned splits_since_change;
} nw_directory;

/* A directory where initial_owner owns the whole space of `size` bytes. */
nw_status nw_directory_create(int nodes, uint64_t pitch, uint64_t size, int initial_owner,
                              nw_directory **out);
void nw_directory_free(nw_directory *d);

/* parts[k] := need intersected with what node k owns, for every k (parts has `nodes` sets,
 * initialized by the caller with the space's pitch). Intersecting need with every owner's set
 * costs O(nodes + the directory's rectangles in need's rows), which grows with the cluster
 * (a column panel of a matrix spread block by block crosses every owner's every band); from
 * the fourth split after a change on, the directory searches an index of all owners' bytes
 * instead: O(log n + the pieces need overlaps). Both give the same sets (sets are canonical). */
nw_status nw_directory_split(nw_directory *d, const nw_region *need, nw_region *parts);

/* Records that `writer` now owns `written`; adds to lost[k] the part that node k owned before
 * (k != writer) and removes `written` from lost[writer], so that after several assignments
 * lost[k] holds exactly what k owned before them and does not own after. lost has `nodes`
 * sets, initialized by the caller. */
nw_status nw_directory_assign(nw_directory *d, int writer, const nw_region *written,
                              nw_region *lost);

const nw_region *nw_directory_owned_by(const nw_directory *d, int node);

#endif
