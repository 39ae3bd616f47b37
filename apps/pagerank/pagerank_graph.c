/* pagerank_graph.c: the graph's parameters (see pagerank_graph.h for the model). */
#include "pagerank_graph.h"

void pr_graph_init(pr_graph *g, uint64_t n, uint64_t seed) {
  /* One splitmix64 step of the seed, so that seeds 1, 2, 3 start far apart in the stream. */
  uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  g->n = n;
  g->key = z ^ (z >> 31);
  /* Windows of 0.1% and 1% of the pages in diameter; on small graphs at least the two
   * neighbours. */
  g->near = n / 2000 > 0 ? n / 2000 : 1;
  g->mid = n / 200 > 0 ? n / 200 : 1;
}
