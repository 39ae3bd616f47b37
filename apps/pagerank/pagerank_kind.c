/* pagerank_kind.c: the pagerank task kind: subscriptions, kernels, cost model.
 *
 * Both spaces have one row (pitch = size), so every subscription is one rectangle, and on a
 * GPU a view of the whole output is the array itself: element q at q, whatever device runs it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "pagerank.h"
#include "pagerank_scatter.h"

#define RANK ((uint64_t)sizeof(uint64_t))

/* A map subtask: its pages' ranks in, every page's key out (pages are keys). */
static nw_status pr_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const pagerank_conf *c = t->conf;
  uint64_t mine = c->block * RANK;
  nw_status st = nw_subscribe(s, PR_SPACE_IN, NW_READ_ONLY, subtask * mine, mine, mine, 1);
  if (st == NW_OK)
    st = nw_subscribe_keys(s, PR_SPACE_OUT, PR_TYPE, 0, c->g.n);
  return st;
}

uint64_t pr_scatter_host(const pr_scatter *s, nw_emitter *out) {
  uint64_t teleport = pr_teleport(s->g.n);
  for (uint64_t i = 0; i < s->count; i++) {
    uint64_t p = s->first + i;
    uint32_t deg = pr_outdegree(&s->g, p);
    uint64_t share = pr_share(s->in[i], deg);
    for (uint32_t j = 0; j < deg; j++)
      nw_emit(out, pr_target(&s->g, p, j), &share);
    nw_emit(out, p, &teleport);
  }
  return out->refused;
}

/* Starts the emitter over every page (the view's ranks set to 0, ADD's identity) and maps the
 * subtask's pages into it. A kernel has no status to return: a view that does not hold the
 * whole output, or a link outside the pages, is a bug here, fatal. */
static void map_pages(const pr_scatter *s, nw_status opened, nw_emitter *out) {
  uint64_t refused = opened == NW_OK ? pr_scatter_host(s, out) : 0;
  if (opened != NW_OK || refused) {
    fprintf(stderr, "narwhal: pagerank: subtask at page %llu: %s\n", (unsigned long long)s->first,
            opened != NW_OK ? "its output view does not hold every page"
                            : "a link outside the pages was refused");
    abort();
  }
}

static void pr_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const pagerank_conf *c = t->conf;
  uint64_t first = subtask * c->block;
  pr_scatter s = {c->g, first, c->block, nw_view_at(&v[PR_SPACE_IN], first * RANK), NULL};
  nw_emitter out;
  map_pages(&s, nw_emitter_init(&out, &v[PR_SPACE_OUT], PR_OP, PR_TYPE, 0, c->g.n), &out);
}

/* On a GPU each view holds its subscription's rectangle (narwhal.h, nw_gpu_view): here the
 * subtask's slice of the input row and the whole output row. */
static void gpu_scatter(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                        pr_scatter *s) {
  const pagerank_conf *c = t->conf;
  uint64_t first = subtask * c->block;
  *s = (pr_scatter){c->g, first, c->block, nw_gpu_view_at(&v[PR_SPACE_IN], first * RANK),
                    nw_gpu_view_at(&v[PR_SPACE_OUT], 0)};
}

static void pr_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  pr_scatter s;
  gpu_scatter(t, subtask, v, &s);
  nw_emitter out;
  map_pages(&s, nw_emitter_init_gpu(&out, &v[PR_SPACE_OUT], PR_OP, PR_TYPE, 0, s.g.n), &out);
}

static void pr_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  pr_scatter s;
  gpu_scatter(t, subtask, v, &s);
  nw_pagerank_cuda_scatter(&s, stream);
}

/* Two operations per outlink (the share's division, the add) at the mean outdegree of 10.5,
 * one per page for its teleport term, and one per element of the output the subtask zeroes:
 * with the paper's sizes (2 million pages per subtask, 500 million in all) zeroing is most of
 * the work, as writing the whole output is most of the data (hence the paper's compression,
 * section 5.6.4). Integer operations, counted as flops for the simulator's clock. */
static double pr_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const pagerank_conf *c = t->conf;
  return (2.0 * 10.5 + 1.0) * (double)c->block + (double)c->g.n;
}

/* No cpu_work_item: work-items of one subtask run at once on the same output view, and a
 * race-free split (each item the targets of its own slice of the output) would make every
 * item draw all the subtask's links, so items would not divide the work as the work-group
 * model assumes (paper 4.3.1). */
const nw_task_kind nw_pagerank_kind = {
    .name = "pagerank",
    .subscribe = pr_subscribe,
    .cpu_kernel = pr_cpu,
    .flops = pr_flops,
    .cuda_kernel = pr_cuda,
    .gpu_emulated_kernel = pr_gpu_emulated,
};
