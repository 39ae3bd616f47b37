/* directory_index.h: a directory's owners' bytes as one list of pieces, for fetches to search
 * (directory.h, nw_directory_split). The rows of all owners' rectangles are cut into bands at
 * every rectangle's top and bottom, so that within a band every piece spans the band's rows;
 * a band's pieces are disjoint column intervals sorted by column, each with its owner. A block
 * layout cuts nothing (its rectangles already share bands); a layout whose owners' rows
 * interleave can multiply the pieces, so building gives up past a bound and the directory
 * keeps intersecting owner by owner. */
#ifndef NW_DIRECTORY_INDEX_H
#define NW_DIRECTORY_INDEX_H

#include "region.h"

typedef struct nw_dir_index nw_dir_index;

/* Builds the index of by_owner[0..nodes); NULL when out of memory or past the bound. */
nw_dir_index *nw_dir_index_build(const nw_region *by_owner, int nodes);
void nw_dir_index_free(nw_dir_index *x);

/* parts[k] := need intersected with owner k's bytes, for every k; parts are cleared first. */
nw_status nw_dir_index_split(const nw_dir_index *x, const nw_region *need, nw_region *parts,
                             int nodes);

#endif
