/* pagerank_ref.h: the single-process reference the distributed result must equal bit for bit. */
#ifndef NW_APP_PAGERANK_REF_H
#define NW_APP_PAGERANK_REF_H

#include "pagerank_graph.h"

/* Runs `iterations` iterations of the formula (pagerank_rank.h) over all g->n pages, serially
 * and in page order, from `ranks` (g->n of them), leaving the result there. Returns 0, or -1
 * when out of memory. */
int pr_reference(const pr_graph *g, uint64_t iterations, uint64_t *ranks);

#endif
