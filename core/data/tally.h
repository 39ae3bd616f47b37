/* tally.h: a set that only grows, fed a stream of parts, counting the bytes each part adds.
 *
 * The transfer counts (nw_stats.bytes_received_unique and bytes_served_unique) join every
 * fetch's part to a node's set of the bytes it ever received or served and count what was new.
 * Under a scattered placement (dmda, random, --locality on) that set holds about one rectangle
 * per block: some 75,000 on one node of conv2d 8192/32 on four nodes. Adding a part in the
 * middle of a region's flat array moves the array's tail, so the counting alone was quadratic
 * in the run's subtasks, half of that run's time. A tally keeps two disjoint sets: a large one
 * and a small recent one. A part's new bytes are those in neither; they join the small set, which
 * joins the large one in one sweep once it holds more than about twice the square root of the
 * large one's rectangles. A part then costs O(sqrt n) moved rectangles amortised, not O(n).
 */
#ifndef NW_TALLY_H
#define NW_TALLY_H

#include "region.h"

typedef struct nw_tally {
  nw_region large, recent; /* disjoint; their union is every byte added */
} nw_tally;

void nw_tally_init(nw_tally *t, uint64_t pitch);
void nw_tally_free(nw_tally *t);

/* Adds the bytes of part; *fresh := how many of them the tally lacked before. Fails only out
 * of memory, and the tally then still holds every byte it held before. */
nw_status nw_tally_add(nw_tally *t, const nw_region *part, uint64_t *fresh);

/* Every byte ever added. */
uint64_t nw_tally_bytes(const nw_tally *t);

#endif
