/* pagerank.h: the PageRank application (Beri et al., "Unicorn: a programming model and runtime
 * for hybrid CPU-GPU clusters", IEEE TPDS, sections 4.6 and 5.1): a MapReduce-style iteration
 * whose subtasks all write the whole rank array, summed by the runtime's reduction.
 *
 * --n pages, --block pages per subtask, `--app-param iterations=K` (default 25, the paper's).
 * Two spaces of n fixed-point ranks (pagerank_rank.h) take turns as input and output, one task
 * per iteration (paper 5.1). Subtask s reads its pages' ranks from the input space and
 * write-subscribes the whole output space, as the paper's subtasks do ("a web page may point
 * to any other page in the web"); the task asks for NW_REDUCE_ADD over uint64 on it. Each
 * iteration is a MapReduce task (narwhal.h, "MapReduce"): pages are keys, and the kernels emit
 * every share into an emitter over all of them. The web graph is regenerated from the seed
 * wherever it is needed (pagerank_graph.h).
 */
#ifndef NW_APP_PAGERANK_H
#define NW_APP_PAGERANK_H

#include "narwhal_app.h"
#include "pagerank_graph.h"

/* Bound spaces, in binding order: nw_mapreduce_create's one input, then its output. */
#define PR_SPACE_IN 0
#define PR_SPACE_OUT 1

/* The output's reduction: every key (page) is a uint64 sum. */
#define PR_OP NW_REDUCE_ADD
#define PR_TYPE NW_TYPE_UINT64

typedef struct pagerank_conf {
  pr_graph g;
  uint64_t block; /* pages per subtask */
} pagerank_conf;

extern const nw_task_kind nw_pagerank_kind;
extern const nw_app nw_pagerank_app;

#endif
