/* taskbench_peak.c THREADS ITERATIONS: the peak of the taskbench kernel (apps/taskbench/
 * taskbench_graph.h) on this machine, for benchmarks/taskbench.sh's efficiencies: THREADS
 * threads (one per core) each run one task of ITERATIONS iterations, at once, nothing else
 * around them; the kernel's flops (2 per lane per iteration, Task Bench's count) over the
 * slowest thread's wall time.
 * Prints one line: flops_per_core=F seconds=S
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../apps/taskbench/taskbench_graph.h"
#include "bench_clock.h"

static uint64_t iterations;
static pthread_barrier_t start;

static void *run(void *arg) {
  double *seconds = arg;
  tb_cell in, out;
  tb_cell_init(&in, 1);
  pthread_barrier_wait(&start);
  double t0 = bench_now();
  tb_state s;
  tb_task_begin(&s, 1, 1);
  tb_task_add(&s, &in);
  tb_task_finish(&s, 1, 1, iterations, &out);
  *seconds = bench_now() - t0;
  /* The result is used, so the loop stays (it is in another file anyway). */
  if (out.v[0] != out.v[0])
    fprintf(stderr, "taskbench_peak: NaN\n");
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc == 3 ? atoi(argv[1]) : 0;
  iterations = argc == 3 ? strtoull(argv[2], NULL, 10) : 0;
  if (threads < 1 || threads > 1024 || iterations < 1) {
    fprintf(stderr, "usage: taskbench_peak THREADS ITERATIONS\n");
    return 2;
  }
  pthread_t *tid = malloc((size_t)threads * sizeof *tid);
  double *sec = calloc((size_t)threads, sizeof *sec), slowest = 0;
  pthread_barrier_init(&start, NULL, (unsigned)threads);
  for (int i = 0; i < threads; i++)
    pthread_create(&tid[i], NULL, run, &sec[i]);
  for (int i = 0; i < threads; i++) {
    pthread_join(tid[i], NULL);
    slowest = sec[i] > slowest ? sec[i] : slowest;
  }
  printf("flops_per_core=%.6g seconds=%.6f\n", 2.0 * TB_LANES * (double)iterations / slowest,
         slowest);
  free(tid);
  free(sec);
  return 0;
}
