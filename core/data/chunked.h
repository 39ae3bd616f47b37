/* chunked.h: a large region set that changes a little at a time, stored in chunks.
 *
 * A region (region.h) is one flat canonical array, so adding or removing a rectangle in its
 * middle moves the array's tail. A node's resident bytes (the temporary ownership directory)
 * change with every fetch that arrives, and under a scattered placement (dmda, random,
 * --locality on) they hold about one rectangle per block: some 50,000 on one node of conv2d
 * 8192/32 on four nodes, 200,000 at 16384, where moving tails took 43% of the run.
 *
 * A chunked set is the same canonical array cut at band boundaries into chunks of about
 * NW_CHUNK rectangles, each itself a canonical region (any band boundary of a canonical array
 * is a valid cut: two bands that touch always differ). An operation with a small set changes
 * only the chunks whose rows that set overlaps or touches, the only bands the flat operation
 * would change or join (region.c's apply), so it costs O(NW_CHUNK) instead of O(n). Queries run
 * on the chunks the other set's rows overlap. Concatenated, the chunks are exactly the region
 * the same operations would have built.
 */
#ifndef NW_CHUNKED_H
#define NW_CHUNKED_H

#include "region.h"

/* Rectangles a chunk is cut to; a chunk may hold up to twice this, or one band of any size. */
#define NW_CHUNK 256

typedef struct nw_chunked {
  uint64_t pitch;
  size_t chunk; /* the target chunk size: NW_CHUNK, smaller in tests */
  size_t nchunks, cap;
  nw_region *c; /* in row order, none empty */
} nw_chunked;

void nw_chunked_init(nw_chunked *s, uint64_t pitch);
void nw_chunked_free(nw_chunked *s);
void nw_chunked_clear(nw_chunked *s);

/* s := s op other. On failure (out of memory) s holds what it held before. */
nw_status nw_chunked_add(nw_chunked *s, const nw_region *other);
nw_status nw_chunked_subtract(nw_chunked *s, const nw_region *other);
nw_status nw_chunked_add_range(nw_chunked *s, uint64_t lo, uint64_t hi);
/* s := a copy of r. */
nw_status nw_chunked_assign(nw_chunked *s, const nw_region *r);

/* True when every byte of b is in s. */
int nw_chunked_contains(const nw_chunked *s, const nw_region *b);
/* x := x minus s. */
nw_status nw_chunked_subtract_from(const nw_chunked *s, nw_region *x);
/* out := the whole set as one region (out is initialised here). */
nw_status nw_chunked_flatten(const nw_chunked *s, nw_region *out);

size_t nw_chunked_rects(const nw_chunked *s);
uint64_t nw_chunked_bytes(const nw_chunked *s);

#endif
