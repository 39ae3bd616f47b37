/* region.h: sets of address-space bytes, as disjoint rectangles in a row pitch.
 *
 * Unicorn stores data regions as quad tuples (paper section 3) and "aggressively reduces
 * fragmentation by combining adjacent directory records". Narwhal views a space of pitch P as
 * rows of P bytes: byte b is at (row b / P, column b % P). A subscription quad whose step is P
 * is then one rectangle, however many segments it has, so a 65536-row column of blocks costs
 * one record instead of 65536. Any other quad is split into rectangles exactly (at most three
 * per segment). Sets keep their rectangles disjoint and merge neighbours that form a rectangle.
 */
#ifndef NW_REGION_H
#define NW_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

/* Rows [row0, row1) x byte columns [col0, col1) of a pitch; never empty when stored. */
typedef struct nw_rect {
  uint64_t row0, row1, col0, col1;
} nw_rect;

typedef struct nw_region {
  uint64_t pitch;
  size_t n, cap;
  nw_rect *r;
} nw_region;

/* The quad (offset, length, step, count) of paper section 3. */
typedef struct nw_quad {
  uint64_t offset, length, step, count;
} nw_quad;

void nw_region_init(nw_region *s, uint64_t pitch);
void nw_region_free(nw_region *s);
void nw_region_clear(nw_region *s);
nw_status nw_region_copy(nw_region *dst, const nw_region *src);

/* Checks that the quad lies inside a space of space_size bytes: length > 0, count > 0,
 * step >= length when count > 1, and offset + (count-1)*step + length <= space_size, with no
 * overflow. Writes a one-line reason to why (may be NULL) when it does not. */
nw_status nw_quad_check(nw_quad q, uint64_t space_size, char *why, size_t why_len);

/* Adds the bytes of a (checked) quad / a rectangle / another set. Merges neighbours. */
nw_status nw_region_add_quad(nw_region *s, nw_quad q);
nw_status nw_region_add_rect(nw_region *s, nw_rect r);
nw_status nw_region_add(nw_region *s, const nw_region *other);
/* Adds the contiguous byte range [lo, hi). */
nw_status nw_region_add_range(nw_region *s, uint64_t lo, uint64_t hi);

/* s := s minus other. */
nw_status nw_region_subtract(nw_region *s, const nw_region *other);
/* out := a intersected with b (out is cleared first; a, b and out are distinct). */
nw_status nw_region_intersect(nw_region *out, const nw_region *a, const nw_region *b);

/* Bytes of a that are also in b, without building the intersection. */
uint64_t nw_region_overlap_bytes(const nw_region *a, const nw_region *b);

int nw_region_empty(const nw_region *s);
uint64_t nw_region_bytes(const nw_region *s);
/* The runs of bytes the set's copies (gather, scatter, copy_from) move one memcpy each: one
 * per row of each rectangle. A copy costs per byte and per run (a column of 8-byte elements
 * costs many times its bytes' worth), so the runtime's copying is priced by both. */
uint64_t nw_region_runs(const nw_region *s);
/* The pages of `page` bytes a buffer holding the set's bytes at offset (byte - lo) has them
 * in: what touching them in a new buffer faults in. Exact for a set of one rectangle; a page
 * that two rectangles share is counted for each. */
uint64_t nw_region_pages(const nw_region *s, uint64_t lo, uint64_t page);
/* True when every byte of b is in a. */
int nw_region_contains(const nw_region *a, const nw_region *b);
/* Smallest byte range [*lo, *hi) covering the set; 0, 0 when empty. */
void nw_region_bounds(const nw_region *s, uint64_t *lo, uint64_t *hi);

/* Packs the bytes of the set out of / into a buffer laid out as the whole space (byte b of the
 * space at space[b]); the packed order is rectangle by rectangle, row by row. */
void nw_region_gather(const nw_region *s, const unsigned char *space, unsigned char *packed);
void nw_region_scatter(const nw_region *s, const unsigned char *packed, unsigned char *space);
/* Copies the bytes of the set from a buffer holding [lo, ...) of the space (byte b at
 * view[b - lo]: a subtask's private view) into one laid out as the whole space. */
void nw_region_copy_from(const nw_region *s, const unsigned char *view, uint64_t lo,
                         unsigned char *space);
/* The reverse: copies the bytes of the set from one laid out as the whole space into a view
 * holding [lo, ...). */
void nw_region_copy_into(const nw_region *s, const unsigned char *space, unsigned char *view,
                         uint64_t lo);
/* Scatters into a buffer that holds only [lo, ...) of the space: byte b at space[b - lo]. */
void nw_region_scatter_to(const nw_region *s, const unsigned char *packed, uint64_t lo,
                          unsigned char *space);
/* Same, where the space side holds only [lo, ...): byte b at space[b - lo]. */
void nw_region_gather_from(const nw_region *s, const unsigned char *space, uint64_t lo,
                           unsigned char *packed);

#endif
