/* touched.h: which 4 KiB pages of a node's copy of a space were ever written (by its handlers or
 * by kernels in place).
 *
 * A copy is allocated lazily (calloc of fresh memory maps zero pages), so the first write to
 * each page is a page fault on the thread that writes it, about 1.2 us on the 2-core VM the
 * project was measured on: two-rank conv2d 6144/1536's handlers write about 127,000 such pages
 * first (docs/experiments/space-first-touches.md). Kept in runs with bytes only (space.c).
 * Page i holds the copy's bytes [4096 i, 4096 (i + 1)): offsets, not addresses (an allocation's
 * start is not page-aligned; at most one page per written range is counted off by one).
 */
#ifndef NW_TOUCHED_H
#define NW_TOUCHED_H

#include <stdint.h>

#include "region.h"

#define NW_TOUCHED_PAGE 4096

/* One bit a page, in leaves of NW_TOUCHED_LEAF_PAGES made at their first write: a node of a
 * large simulated cluster writes a small part of each space, and its set takes memory in
 * proportion to that part (128 MiB of a space per 4 KiB leaf). */
#define NW_TOUCHED_LEAF_PAGES 32768

typedef struct nw_touched {
  uint64_t **leaf; /* NULL until the first write */
  uint64_t pages;  /* of the copy */
  uint64_t left;   /* pages never written: 0 ends every count at once */
  uint64_t bytes;  /* the copy's size */
  int lost;        /* memory ran out: counting stopped */
} nw_touched;

void nw_touched_init(nw_touched *t, uint64_t bytes);
void nw_touched_free(nw_touched *t);
/* Marks the pages of bytes [lo, hi) written; returns how many were not before. */
uint64_t nw_touched_range(nw_touched *t, uint64_t lo, uint64_t hi);
/* The same for every byte of r (its rows laid out at r's pitch). */
uint64_t nw_touched_region(nw_touched *t, const nw_region *r);

#endif
