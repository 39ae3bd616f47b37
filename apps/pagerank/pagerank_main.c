/* pagerank_main.c: the pagerank application's parameters, driver and check (see pagerank.h).
 *
 * The driver writes every page's initial rank 1/N, runs one task per iteration (each waited
 * for before the next is submitted; the next one reads what the reduction of this one left),
 * and in functional mode compares the final ranks with the serial reference bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/place.h"
#include "../common/run_task.h"
#include "pagerank.h"
#include "pagerank_rank.h"
#include "pagerank_ref.h"

#define RANK ((uint64_t)sizeof(uint64_t))
#define ITERATIONS_DEFAULT 25 /* the paper's (section 5.1) */
#define ITERATIONS_MAX 1000
#define PAGES_MAX (1ull << 32) /* the fixed point's bound (pagerank_rank.h) */
#define SUBTASKS_MAX 65536     /* each writes the whole output: submission checks them all */

/* Reads --app-param iterations into *iterations; 0, or -1 with a one-line reason. */
static int pr_params(const nw_app_args *a, uint64_t *iterations, char *why, size_t len) {
  if (nw_app_param_keys(a, "pagerank", "iterations", why, len) != 0)
    return -1;
  return nw_app_param_uint(a, "pagerank", "iterations", 1, ITERATIONS_MAX, ITERATIONS_DEFAULT,
                           iterations, why, len);
}

static nw_status pr_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t iterations;
  if (pr_params(a, &iterations, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, "pagerank: --n (pages) and --block (pages per subtask) must be positive");
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, "pagerank: --block %llu does not divide --n %llu",
             (unsigned long long)a->block, (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > PAGES_MAX) {
    snprintf(why, len, "pagerank: --n %llu is more than 2^32 pages", (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n / a->block > SUBTASKS_MAX) {
    snprintf(why, len, "pagerank: --n %llu / --block %llu gives %llu subtasks; at most %d",
             (unsigned long long)a->n, (unsigned long long)a->block,
             (unsigned long long)(a->n / a->block), SUBTASKS_MAX);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* One iteration, a MapReduce task: reads space `in`, leaves the summed ranks in `out`. Every
 * subtask subscribes every page, so the output needs no fill (NW_MAPREDUCE_KEYS_COVERED). */
static nw_status iterate(nw_runtime *rt, const pagerank_conf *conf, nw_space *in, nw_space *out) {
  nw_mapreduce_spec m = {.kind = &nw_pagerank_kind,
                         .subtasks = conf->g.n / conf->block,
                         .conf = conf,
                         .conf_size = sizeof *conf,
                         .inputs = &in,
                         .ninputs = 1,
                         .output = out,
                         .op = PR_OP,
                         .type = PR_TYPE,
                         .flags = NW_MAPREDUCE_KEYS_COVERED};
  return nw_app_run_mapreduce(rt, &m);
}

/* Compares the final ranks with the reference run from `ranks` (the initial ones, replaced). */
static nw_status check_final(nw_space *result, const pr_graph *g, uint64_t iterations,
                             uint64_t *ranks, int *equal) {
  uint64_t n = g->n, *got = malloc(n * RANK);
  nw_status st = got ? nw_space_read(result, 0, got, n * RANK) : NW_ERR_NOMEM;
  if (st == NW_OK && pr_reference(g, iterations, ranks) != 0)
    st = NW_ERR_NOMEM;
  if (st == NW_OK) {
    uint64_t differ = 0, first = 0;
    for (uint64_t q = 0; q < n; q++)
      if (got[q] != ranks[q] && differ++ == 0)
        first = q;
    *equal = differ == 0;
    if (differ)
      fprintf(stderr,
              "pagerank: page %llu has rank %llu, the reference %llu (%llu of %llu differ)\n",
              (unsigned long long)first, (unsigned long long)got[first],
              (unsigned long long)ranks[first], (unsigned long long)differ, (unsigned long long)n);
  }
  free(got);
  return st;
}

static nw_status pr_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  uint64_t iterations, n = a->n;
  if (pr_params(a, &iterations, why, sizeof why))
    return NW_ERR_ARG; /* pr_check has said why */
  pagerank_conf conf = {.block = a->block};
  pr_graph_init(&conf.g, n, a->seed);
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *rank[2] = {NULL, NULL};
  uint64_t *ranks = NULL;
  nw_status st = NW_OK;
  for (int k = 0; k < 2 && st == NW_OK; k++)
    st = nw_space_create(rt, n * RANK, n * RANK, &rank[k]);
  if (st == NW_OK && functional) {
    ranks = malloc(n * RANK);
    st = ranks ? NW_OK : NW_ERR_NOMEM;
    for (uint64_t q = 0; st == NW_OK && q < n; q++)
      ranks[q] = pr_initial_rank(n);
    if (st == NW_OK)
      st = nw_space_write(rank[0], 0, ranks, n * RANK);
  }
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    /* Each subtask's slice of the initial ranks on a node drawn from the seed, as the paper's
     * inputs start "randomly distributed ... over the cluster nodes" (section 5). */
    st = nw_app_spread_ranges(rt, rank[0], n / a->block, a->block * RANK, a->seed);
  /* Iteration k reads space (k - 1) % 2 and writes space k % 2 (paper 5.1). */
  for (uint64_t k = 1; k <= iterations && st == NW_OK; k++)
    st = iterate(rt, &conf, rank[(k - 1) % 2], rank[k % 2]);
  if (st == NW_OK && functional && a->verify != 0) {
    int equal = 0;
    st = check_final(rank[iterations % 2], &conf.g, iterations, ranks, &equal);
    out->verified = equal;
  }
  nw_space_destroy(rank[0]);
  nw_space_destroy(rank[1]);
  free(ranks);
  return st;
}

const nw_app nw_pagerank_app = {
    .name = "pagerank",
    .kinds = (const nw_task_kind *const[]){&nw_pagerank_kind, NULL},
    .check_args = pr_check,
    .main = pr_main,
};
