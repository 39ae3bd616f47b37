/* bench_blocks.c N BLOCK: Narwhal's matmul decomposition without the runtime. One thread per
 * core, each with a one-thread OpenBLAS, takes the next block (i, j) of C from a shared
 * counter and computes it with the very call of a matmul subtask (apps/matmul/matmul.c: block
 * row i of A times block column j of B, k = N, written in place with ldc = N). Timed like a
 * Narwhal run: the first multiplication of a fresh process, C freshly allocated. Prints the
 * GFlop/s: the ceiling a runtime with a CPU device per core can reach, so that
 * benchmarks/run.sh can tell the runtime's cost from the cost of the decomposition itself
 * (block products on one thread each against OpenBLAS's threads on the whole matrix). */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_clock.h"

typedef struct job {
  long n, b;
  const float *a, *bm;
  float *c;
  atomic_long next;
} job;

static void *worker(void *arg) {
  job *j = arg;
  long blocks = j->n / j->b;
  for (long s; (s = atomic_fetch_add(&j->next, 1)) < blocks * blocks;) {
    long bi = s / blocks, bj = s % blocks;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)j->b, (int)j->b, (int)j->n, 1.0f,
                j->a + bi * j->b * j->n, (int)j->n, j->bm + bj * j->b, (int)j->n, 0.0f,
                j->c + bi * j->b * j->n + bj * j->b, (int)j->n);
  }
  return NULL;
}

int main(int argc, char **argv) {
  long n = argc == 3 ? atol(argv[1]) : 0, b = argc == 3 ? atol(argv[2]) : 0;
  if (n <= 0 || n > 65536 || b <= 0 || n % b != 0) {
    fprintf(stderr, "usage: bench_blocks N BLOCK (BLOCK divides N, N <= 65536)\n");
    return 2;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = cores > 0 && cores < 1024 ? (int)cores : 1;
  size_t count = (size_t)n * (size_t)n;
  float *a = malloc(count * sizeof *a), *bm = malloc(count * sizeof *bm),
        *c = malloc(count * sizeof *c);
  pthread_t *t = malloc((size_t)threads * sizeof *t);
  if (!a || !bm || !c || !t) {
    fprintf(stderr, "bench_blocks: out of memory for N=%ld\n", n);
    return 1;
  }
  for (size_t i = 0; i < count; i++) {
    a[i] = (float)((int)(i % 9) - 4);
    bm[i] = (float)((int)(i % 7) - 3);
  }
  openblas_set_num_threads(1);
  job j = {.n = n, .b = b, .a = a, .bm = bm, .c = c};
  atomic_init(&j.next, 0);
  double t0 = bench_now();
  int started = 0;
  while (started < threads && pthread_create(&t[started], NULL, worker, &j) == 0)
    started++;
  if (started == 0)
    worker(&j);
  for (int i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  printf("%.3f\n", 2.0 * (double)n * (double)n * (double)n / (bench_now() - t0) / 1e9);
  free(a);
  free(bm);
  free(c);
  free(t);
  return 0;
}
