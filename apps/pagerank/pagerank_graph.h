/* pagerank_graph.h: the random web graph of the PageRank experiment (Beri et al., "Unicorn: a
 * programming model and runtime for hybrid CPU-GPU clusters", IEEE TPDS, section 5.1), as a
 * pure function of (seed, page).
 *
 * The paper keeps the graph in files on NFS that every node maps. Here nothing is stored: any
 * subtask on any node, CPU or GPU, regenerates its pages' outlinks from the run's seed, so no
 * address space holds the graph and no byte of it crosses the network or the PCIe bus. The
 * per-link functions are inline and compile for the GPU too (PR_HD), so the CUDA kernel draws
 * exactly the links the host code draws.
 *
 * The paper's sentence ("with 90% probability, a page's outlinks point to nearby pages (within
 * an imaginary circle centered at this web page and having a diameter of 0.1% of total web
 * pages), with 9% probability ... within a diameter of 1%, and with 1% probability they are
 * linked to farther off pages") is read as follows. Page p has 1 to 20 outlinks (a per-page
 * draw, uniform; no page is dangling). Each outlink draws its class independently: with
 * probability 0.90 its target is p +- d for d uniform in [1, near], near = n / 2000 (half of
 * 0.1% of the pages, at least 1); with 0.09, the same with mid = n / 200 (half of 1%), so a
 * 1% link may land inside the 0.1% window too; with 0.01, any page, uniform. Pages wrap around
 * modulo n. A page may link to the same target twice (each link carries its share).
 */
#ifndef NW_APP_PAGERANK_GRAPH_H
#define NW_APP_PAGERANK_GRAPH_H

#include <stdint.h>

#ifdef __CUDACC__
#define PR_HD __host__ __device__
#else
#define PR_HD
#endif

#define PR_MAX_OUTDEGREE 20

typedef struct pr_graph {
  uint64_t n;    /* pages */
  uint64_t key;  /* the seed, mixed: the start of every page's stream of draws */
  uint64_t near; /* radius of the 0.1% window */
  uint64_t mid;  /* radius of the 1% window */
} pr_graph;

#ifdef __cplusplus
extern "C" {
#endif
/* The graph of n >= 1 pages drawn from `seed`. */
void pr_graph_init(pr_graph *g, uint64_t n, uint64_t seed);
#ifdef __cplusplus
}
#endif

/* Draw k of page p: splitmix64 (Steele et al., "Fast splittable pseudorandom number
 * generators", OOPSLA 2014) at position 64 p + k of the stream that starts at the graph's key.
 * A counter-based draw: no state, so pages can be generated in any order, anywhere. */
static inline PR_HD uint64_t pr_draw(const pr_graph *g, uint64_t p, uint64_t k) {
  uint64_t z = g->key + (p * 64 + k + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The number of outlinks of page p, 1 to PR_MAX_OUTDEGREE (draw 0). */
static inline PR_HD uint32_t pr_outdegree(const pr_graph *g, uint64_t p) {
  return 1 + (uint32_t)(pr_draw(g, p, 0) % PR_MAX_OUTDEGREE);
}

/* The class thresholds on a 32-bit draw: 0.90 and 0.99 of 2^32. */
#define PR_NEAR_BELOW 3865470566u
#define PR_MID_BELOW 4252017623u

/* The target of outlink j (0 <= j < outdegree) of page p: draw 1 + j picks the class (its top
 * 32 bits), draw 32 + j the place within it. */
static inline PR_HD uint64_t pr_target(const pr_graph *g, uint64_t p, uint32_t j) {
  uint32_t cls = (uint32_t)(pr_draw(g, p, 1 + j) >> 32);
  uint64_t place = pr_draw(g, p, 32 + j);
  if (cls >= PR_MID_BELOW)
    return place % g->n;
  uint64_t radius = cls < PR_NEAR_BELOW ? g->near : g->mid;
  uint64_t d = (1 + (place >> 1) % radius) % g->n;
  return (place & 1) ? (p + d) % g->n : (p + g->n - d) % g->n;
}

#endif
