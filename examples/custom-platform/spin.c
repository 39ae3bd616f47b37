/* spin.c: how a simulated time follows from a platform's numbers. n equal subtasks of pure
 * computation: subtask i runs `block` steps of a 64-bit linear congruential generator from a
 * start that depends on i, and writes the last value to out[i] (8 bytes: next to no data).
 *
 * The simulator charges a subtask its kind's flops over the speed of the core it runs on; the
 * kernel runs too, for the result, but its time on this machine does not count. Here a step is
 * a multiply and an add, so a subtask is F = 2 * block flops, and on two-nodes.xml (cores of
 * S = 100 Mflop/s, 4 per node) it takes F / S. The default policy gives each of the D = 4 x
 * nodes cores an equal share of the subtasks, n / D each, one after the other, so
 *
 *   makespan = (n / D) * F / S = (16 / 8) * 2e6 / 1e8 = 0.04 s with --n 16 --block 1000000
 *
 * on 2 nodes, and 0.08 s on one (--nodes 1), plus the runtime's messages: a few latencies of
 * 21 us. Edit speed="100Mf" in the platform and the makespan follows.
 *
 *   ./spin --backend sim --platform examples/custom-platform/two-nodes.xml --n 16 --block 1000000
 *
 * The check is exact: every out[i] against the same generator run serially. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/lcg_task.h"
#include "../common/own_options.h"

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const lcg_conf *c = t->conf;
  *(uint64_t *)nw_view_at(&views[0], i * 8) = lcg(i, c->block, c->seed);
}

/* The cost model: what the simulator charges, whatever the kernel does. */
static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 2.0 * (double)((const lcg_conf *)t->conf)->block;
}

static const nw_task_kind spin_kind = {
    .name = "spin", .subscribe = lcg_subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->n > 4096 || a->block == 0 || a->block > 100000000 / a->n) {
    snprintf(why, len, "spin: --n (subtasks) 1 to 4096, --block (steps each) at most 1e8 / n");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, *got = malloc(n * 8);
  lcg_conf c = {.block = a->block, .seed = a->seed};
  int filled = 0;
  nw_status st = got ? lcg_run(rt, &spin_kind, n, &c, got, &filled) : NW_ERR_NOMEM;
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (filled) {
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
      wrong += got[i] != lcg(i, a->block, a->seed);
    out->verified = wrong == 0;
    printf("spin: %" PRIu64 " subtasks of %.0f flops, %" PRIu64 " wrong\n", n,
           2.0 * (double)a->block, wrong);
  }
  free(got);
  return st;
}

static const nw_app spin_app = {.name = "spin",
                                .kinds = (const nw_task_kind *const[]){&spin_kind, NULL},
                                .check_args = check,
                                .main = driver};

int main(int argc, char **argv) {
  int own = 0;
  nw_run_summary run;
  /* No options of its own: whatever nw_init left (a mistyped Narwhal option) is refused. The
   * run's own numbers are the program's too (nw_run_summary_get): here its simulated time,
   * beside the prediction of the header comment. */
  if (nw_init(&argc, &argv) == NW_OK && (own = own_options(argc, argv, "spin", NULL)) == 0 &&
      nw_run_app(&spin_app) == 0 && nw_run_summary_get(&run) == NW_OK && run.reporter)
    printf("spin: makespan %.6f s on %d node%s\n", run.makespan_s, run.nodes,
           run.nodes == 1 ? "" : "s");
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
