/* uneven.c: a workload of uneven subtasks, to compare scheduling policies on (compare.sh runs
 * it under two). Subtask i of n runs i + 1 units of work, a unit being `block` steps of a
 * 64-bit linear congruential generator started from the seed and i, and writes the generator's
 * last value to out[i]: the big subtasks are the last ones.
 *
 * The kind gives the scheduler two hints: `flops`, the cost model the simulator charges (two
 * operations a step), and `priority`, larger for bigger subtasks. Policies use them
 * differently: `eager` hands subtasks out in index order, small ones first, and ignores
 * priorities; `prio` hands out the largest first (the longest-processing-time rule). With
 * n = 32 subtasks of 1 to 32 units on one node of 4 cores, index order leaves one core alone
 * with the last big subtasks: list scheduling gives 144 units against 132 largest first, the
 * perfect 528 / 4. On small.xml's 1 Gflop/s cores with --block 100000 a unit is 0.2 ms, and
 * the simulator gives exactly 0.0288 s and 0.0264 s with --pipeline off. Pipelining (on by
 * default) has a device take its next subtask as soon as it starts one, which changes what
 * the rule computes: on 4 nodes the cores of node 0, nearest the queue, take the 8 biggest
 * subtasks two by two, and prio ends after eager.
 *
 *   ./uneven --backend sim --platform platforms/small.xml --nodes 1 --n 32 --block 100000 \
 *       --pipeline off --sched prio
 *   mpirun -np 2 ./uneven --backend real --n 32 --block 100000 --sched eager
 *   examples/compare-policies/compare.sh ./uneven eager prio --platform platforms/small.xml \
 *       --nodes 1 --n 32 --block 100000 --pipeline off
 *
 * The check is exact: every out[i] against the same generator run serially. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/lcg_task.h"
#include "../common/own_options.h"

/* Subtask i's work: (i + 1) * block steps from a start that depends on i. */
static uint64_t work(uint64_t i, uint64_t block, uint64_t seed) {
  return lcg(i, (i + 1) * block, seed);
}

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const lcg_conf *c = t->conf;
  *(uint64_t *)nw_view_at(&views[0], i * 8) = work(i, c->block, c->seed);
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)kind;
  return 2.0 * (double)((i + 1) * ((const lcg_conf *)t->conf)->block);
}

static int priority(const nw_task_info *t, uint64_t i) {
  (void)t;
  return (int)i; /* the later, the bigger */
}

static const nw_task_kind uneven_kind = {.name = "uneven",
                                         .subscribe = lcg_subscribe,
                                         .cpu_kernel = kernel,
                                         .flops = flops,
                                         .priority = priority};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->n > 4096 || a->block == 0 || a->block > 100000000 / a->n) {
    snprintf(why, len,
             "uneven: --n (subtasks) 1 to 4096, --block (steps per unit) at most 1e8 / n");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, *got = malloc(n * 8);
  lcg_conf c = {.block = a->block, .seed = a->seed};
  int filled = 0;
  nw_status st = got ? lcg_run(rt, &uneven_kind, n, &c, got, &filled) : NW_ERR_NOMEM;
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (filled) {
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
      wrong += got[i] != work(i, a->block, a->seed);
    out->verified = wrong == 0;
    printf("uneven: %" PRIu64 " subtasks of 1 to %" PRIu64 " units, %" PRIu64 " wrong\n", n, n,
           wrong);
  }
  free(got);
  return st;
}

static const nw_app uneven = {.name = "uneven",
                              .kinds = (const nw_task_kind *const[]){&uneven_kind, NULL},
                              .check_args = check,
                              .main = driver};

int main(int argc, char **argv) {
  int own = 0;
  /* No options of its own: whatever nw_init left (a mistyped Narwhal option) is refused. */
  if (nw_init(&argc, &argv) == NW_OK && (own = own_options(argc, argv, "uneven", NULL)) == 0)
    nw_run_app(&uneven);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
