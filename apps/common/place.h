/* place.h: where an application's inputs start, before its first task (not timed). */
#ifndef NW_APP_PLACE_H
#define NW_APP_PLACE_H

#include "narwhal_app.h"

/* Places every bs x bs block of an n x n float matrix held in space s (row pitch n floats) on
 * a node drawn from the seed, as the paper's experiments do ("input address spaces are
 * randomly distributed (as 2048x2048 blocks) over the cluster nodes", section 5). bs divides
 * n. The same seed gives the same placement. */
nw_status nw_app_spread_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs, uint64_t seed);

/* The same for an n x n image of px-byte pixels (row pitch n * px): block (i, j) lands on the
 * node nw_app_spread_blocks would pick for it, whatever px. */
nw_status nw_app_spread_pixel_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                                     uint64_t px, uint64_t seed);

/* The same with a scheme of the paper's Fig. 13 (rows or columns of blocks, each drawn one node
 * from the seed's stream in order: row 0 or column 0 first). NW_PLACEMENT_BLOCKS is
 * nw_app_spread_pixel_blocks; NW_PLACEMENT_ROWS_COLUMNS names two inputs, which the caller
 * places by rows and by columns. */
nw_status nw_app_place_pixel_blocks(nw_runtime *rt, nw_space *s, uint64_t n, uint64_t bs,
                                    uint64_t px, uint64_t seed, nw_app_placement how);

/* Places consecutive ranges of `bytes` bytes of space s (range k: [k * bytes, (k + 1) * bytes),
 * `ranges` of them) each on a node drawn from the seed, the draws nw_app_spread_blocks makes
 * for its first blocks: row stripes of a matrix, slices of a vector. */
nw_status nw_app_spread_ranges(nw_runtime *rt, nw_space *s, uint64_t ranges, uint64_t bytes,
                               uint64_t seed);

/* The same ranges placed as `how` says: NW_PLACEMENT_LOCAL gives node j of N the ranges k with
 * k * N / ranges == j (integer division), a contiguous, equal share (to one range) with node 0
 * first, as an SPMD program's nodes each start with their own slice; every other scheme is
 * nw_app_spread_ranges. */
nw_status nw_app_place_ranges(nw_runtime *rt, nw_space *s, uint64_t ranges, uint64_t bytes,
                              uint64_t seed, nw_app_placement how);

#endif
