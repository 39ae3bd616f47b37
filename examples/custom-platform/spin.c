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
#include <string.h>

#include <narwhal.h>

typedef struct conf {
  uint64_t block, seed;
} conf;

static uint64_t spin(uint64_t i, uint64_t steps, uint64_t seed) {
  uint64_t x = seed ^ (i * 0x9E3779B97F4A7C15ull);
  for (uint64_t k = 0; k < steps; k++)
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * 8, 8, 8, 1); /* reads nothing */
}

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const conf *c = t->conf;
  *(uint64_t *)nw_view_at(&views[0], i * 8) = spin(i, c->block, c->seed);
}

/* The cost model: what the simulator charges, whatever the kernel does. */
static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 2.0 * (double)((const conf *)t->conf)->block;
}

static const nw_task_kind spin_kind = {
    .name = "spin", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->n > 4096 || a->block == 0 || a->block > 100000000 / a->n) {
    snprintf(why, len, "spin: --n (subtasks) 1 to 4096, --block (steps each) at most 1e8 / n");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, *got = malloc(n * 8);
  nw_space *so = NULL;
  nw_task *t = NULL;
  conf c = {.block = a->block, .seed = a->seed};
  nw_status st = got ? NW_OK : NW_ERR_NOMEM;
  if (st == NW_OK)
    st = nw_space_create(rt, n * 8, 8, &so);
  if (st == NW_OK)
    st = nw_task_create(rt, &spin_kind, n, &c, sizeof c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, so, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(so, 0, got, n * 8)) == NW_OK) {
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
      wrong += got[i] != spin(i, a->block, a->seed);
    out->verified = wrong == 0;
    printf("spin: %" PRIu64 " subtasks of %.0f flops, %" PRIu64 " wrong\n", n,
           2.0 * (double)a->block, wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (so)
    nw_space_destroy(so);
  free(got);
  return st;
}

static const nw_app spin_app = {.name = "spin",
                                .kinds = (const nw_task_kind *const[]){&spin_kind, NULL},
                                .check_args = check,
                                .main = driver};

int main(int argc, char **argv) {
  int own = 0;
  if (nw_init(&argc, &argv) == NW_OK) {
    /* No options of its own: whatever nw_init left (a mistyped Narwhal option) is refused. */
    if (argc > 1 && strcmp(argv[1], "--help") != 0) {
      fprintf(stderr, "spin: %s: unknown option (spin --help)\n", argv[1]);
      own = 2;
    } else if (argc > 1) {
      printf("spin has no options of its own\n");
      own = 1;
    }
    nw_run_summary run;
    /* The run's own numbers are the program's too (nw_run_summary_get): here its simulated
     * time, beside the prediction of the header comment. */
    if (own == 0 && nw_run_app(&spin_app) == 0 && nw_run_summary_get(&run) == NW_OK && run.reporter)
      printf("spin: makespan %.6f s on %d node%s\n", run.makespan_s, run.nodes,
             run.nodes == 1 ? "" : "s");
  }
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
