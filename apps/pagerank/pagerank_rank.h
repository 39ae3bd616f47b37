/* pagerank_rank.h: PageRank's arithmetic, in fixed point.
 *
 * A rank is a uint64 holding rank * 2^56 (PR_ONE is rank 1.0; ranks are probabilities and sum
 * to at most 1). Integers, not floats, because subtasks' contributions to a page are summed by
 * the runtime's reduction in an order that changes between runs and nodes (paper sections 4.5,
 * 4.6): integer addition gives the same bytes in any order, so every run, on any number of
 * nodes and devices, equals the serial reference bit for bit.
 *
 * One iteration: new[q] = (1 - d) / N + d * sum over links p -> q of rank[p] / outdeg(p), with
 * d = 0.85, rounded the one way everything here computes it: a page's share per outlink is
 * floor(floor(rank[p] * 85 / 100) / outdeg(p)), its teleport term floor(floor(PR_ONE * 15 /
 * 100) / N). Rounding only drops mass, so the ranks' sum stays at most PR_ONE and every rank
 * at most 2^56: rank * 85 < 2^63 never overflows. 2^56 leaves at least 2^24 units to a page
 * of rank 1/N for N up to 2^32 pages (the paper's 500 million included), so a share of such a
 * page is over 700000 units and floor rounding changes it by under 2e-6 of its value.
 */
#ifndef NW_APP_PAGERANK_RANK_H
#define NW_APP_PAGERANK_RANK_H

#include "pagerank_graph.h"

#define PR_ONE_BITS 56
#define PR_ONE ((uint64_t)1 << PR_ONE_BITS)
#define PR_DAMPING_PERCENT 85

/* What page p of rank `rank` gives each of its `outdegree` outlinks. */
static inline PR_HD uint64_t pr_share(uint64_t rank, uint32_t outdegree) {
  return rank * PR_DAMPING_PERCENT / 100 / outdegree;
}

/* What every page of n gets from the random surfer's jumps. */
static inline PR_HD uint64_t pr_teleport(uint64_t n) {
  return PR_ONE * (100 - PR_DAMPING_PERCENT) / 100 / n;
}

/* Every page's rank before the first iteration: 1/N. */
static inline uint64_t pr_initial_rank(uint64_t n) {
  return PR_ONE / n;
}

#endif
