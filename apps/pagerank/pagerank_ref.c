/* pagerank_ref.c: see pagerank_ref.h. One loop over the whole graph per iteration, written
 * apart from the kernels (it shares only the graph and the rounding rule with them), so a
 * kernel that takes the wrong pages, views or offsets differs from it. */
#include <stdlib.h>
#include <string.h>

#include "pagerank_rank.h"
#include "pagerank_ref.h"

int pr_reference(const pr_graph *g, uint64_t iterations, uint64_t *ranks) {
  uint64_t n = g->n, *next = malloc(n * sizeof *next), *cur = ranks;
  if (!next)
    return -1;
  for (uint64_t it = 0; it < iterations; it++) {
    for (uint64_t q = 0; q < n; q++)
      next[q] = pr_teleport(n);
    for (uint64_t p = 0; p < n; p++) {
      uint32_t deg = pr_outdegree(g, p);
      for (uint32_t j = 0; j < deg; j++)
        next[pr_target(g, p, j)] += pr_share(cur[p], deg);
    }
    uint64_t *t = cur;
    cur = next;
    next = t;
  }
  if (cur != ranks) {
    memcpy(ranks, cur, n * sizeof *ranks);
    next = cur;
  }
  free(next);
  return 0;
}
