/* taskbench_starpu.c PATTERN WIDTH STEPS ITERATIONS: the taskbench graph (apps/taskbench/
 * taskbench_graph.h) as StarPU 1.3 tasks, a baseline of benchmarks/taskbench.sh.
 *
 * One process, StarPU's CPU workers (all cores unless STARPU_NCPU says otherwise). Two
 * registered cells per point, in turn like Narwhal's two spaces: task (p, t) reads its
 * pattern's cells of step t-1 (STARPU_R) and writes its own cell of step t (STARPU_W), and
 * StarPU infers every dependency from that order of submission (read-after-write, and the
 * write-after-read of reusing a cell two steps later). Same kernel and cells as Narwhal's app,
 * so the final cells are checked against the same serial reference (untimed).
 * Prints one line: wall_s=S tasks=N cpu_workers=W verified=0|1
 * Wall: from the first submission until every task has ended. Exit status: 0 right, 1 wrong
 * result or runtime failure, 2 bad arguments.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <starpu.h>

#include "../apps/taskbench/taskbench_graph.h"
#include "bench_clock.h"
#include "taskbench_args.h"

typedef struct task_args {
  int pattern;
  uint64_t width, step, point, iterations;
} task_args;

/* Buffers: the inputs in dependency order, then the output cell. */
static void tb_cpu(void *buffers[], void *arg) {
  task_args a;
  starpu_codelet_unpack_args(arg, &a);
  uint64_t n = tb_ndeps(a.pattern, a.width, a.point);
  tb_state s;
  tb_task_begin(&s, a.step, a.point);
  for (uint64_t k = 0; k < n; k++)
    tb_task_add(&s, (const tb_cell *)STARPU_VARIABLE_GET_PTR(buffers[k]));
  tb_task_finish(&s, a.step, a.point, a.iterations, (tb_cell *)STARPU_VARIABLE_GET_PTR(buffers[n]));
}

static struct starpu_codelet tb_cl = {
    .name = "taskbench",
    .cpu_funcs = {tb_cpu},
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* a pattern's point has 0 to WIDTH inputs */
};

int main(int argc, char **argv) {
  unsigned long long w = 0, steps = 0, iters = 0;
  int pattern = argc == 5 ? tb_pattern_parse(argv[1]) : -1;
  if (argc != 5 || pattern < 0 ||
      !tb_arg_count("taskbench_starpu", "WIDTH", argv[2], 1u << 16, &w) || w == 0 ||
      !tb_arg_count("taskbench_starpu", "STEPS", argv[3], 1u << 30, &steps) ||
      !tb_arg_count("taskbench_starpu", "ITERATIONS", argv[4], 1ull << 40, &iters)) {
    fprintf(stderr, "usage: taskbench_starpu PATTERN(%s) WIDTH STEPS ITERATIONS\n",
            tb_pattern_names());
    return 2;
  }
  if (starpu_init(NULL) != 0) {
    fprintf(stderr, "taskbench_starpu: starpu_init failed\n");
    return 1;
  }
  tb_cell *cells[2] = {calloc(w, sizeof(tb_cell)), calloc(w, sizeof(tb_cell))};
  tb_cell *want = calloc(w, sizeof(tb_cell));
  starpu_data_handle_t *h[2] = {calloc(w, sizeof **h), calloc(w, sizeof **h)};
  struct starpu_data_descr *descr = calloc(w + 1, sizeof *descr);
  for (uint64_t p = 0; p < w; p++)
    tb_cell_init(&cells[0][p], p);
  for (int k = 0; k < 2; k++)
    for (uint64_t p = 0; p < w; p++)
      starpu_variable_data_register(&h[k][p], STARPU_MAIN_RAM, (uintptr_t)&cells[k][p],
                                    sizeof(tb_cell));
  int ok = 1;
  double t0 = bench_now();
  for (uint64_t t = 1; ok && t <= steps; t++)
    for (uint64_t p = 0; ok && p < w; p++) {
      uint64_t n = tb_ndeps(pattern, w, p);
      for (uint64_t k = 0; k < n; k++)
        descr[k] = (struct starpu_data_descr){h[(t - 1) % 2][tb_dep(pattern, w, p, k)], STARPU_R};
      descr[n] = (struct starpu_data_descr){h[t % 2][p], STARPU_W};
      task_args a = {pattern, w, t, p, iters};
      ok = starpu_task_insert(&tb_cl, STARPU_DATA_MODE_ARRAY, descr, (int)(n + 1), STARPU_VALUE, &a,
                              sizeof a, 0) == 0;
    }
  starpu_task_wait_for_all();
  double wall = bench_now() - t0;
  /* Unregistering brings every cell back to main memory (it is there already: CPUs only). */
  for (int k = 0; k < 2; k++)
    for (uint64_t p = 0; p < w; p++)
      starpu_data_unregister(h[k][p]);
  int workers = (int)starpu_cpu_worker_get_count();
  starpu_shutdown();
  if (!ok)
    fprintf(stderr, "taskbench_starpu: a task submission failed\n");
  if (ok && tb_reference(pattern, w, steps, iters, want) != 0)
    ok = 0;
  for (uint64_t p = 0; ok && p < w; p++)
    ok = memcmp(&cells[steps % 2][p], &want[p], sizeof want[p]) == 0;
  printf("wall_s=%.6f tasks=%llu cpu_workers=%d verified=%d\n", wall, w * steps, workers, ok);
  for (int k = 0; k < 2; k++) {
    free(cells[k]);
    free(h[k]);
  }
  free(want);
  free(descr);
  return ok ? 0 : 1;
}
