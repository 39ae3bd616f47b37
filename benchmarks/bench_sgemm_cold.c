/* bench_sgemm_cold.c M N K [CALLS]: a fresh process's first OpenBLAS sgemm against the ones
 * after it (C = A B, A M x K, B K x N, row-major, a new C for every call as a subtask's view
 * is new). Prints each call's wall and thread CPU milliseconds. A calibration's kernels are
 * timed after a warm-up run in the same process; a real run's first kernel is a fresh
 * process's first (docs/experiments/message-buffers.md). Run it with one thread and core:
 *   OPENBLAS_NUM_THREADS=1 taskset -c 1 build/benchmarks/bench_sgemm_cold 768 768 3072 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

int main(int argc, char **argv) {
  long m = argc > 3 ? atol(argv[1]) : 0, n = argc > 3 ? atol(argv[2]) : 0,
       k = argc > 3 ? atol(argv[3]) : 0;
  int calls = argc > 4 ? atoi(argv[4]) : 6;
  if (m <= 0 || n <= 0 || k <= 0 || m > 65536 || n > 65536 || k > 65536 || calls < 1) {
    fprintf(stderr, "usage: bench_sgemm_cold M N K [CALLS]\n");
    return 2;
  }
  float *a = malloc((size_t)(m * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
  if (!a || !b) {
    fprintf(stderr, "bench_sgemm_cold: out of memory\n");
    return 1;
  }
  for (long i = 0; i < m * k; i++)
    a[i] = 1e-3f * (float)(i % 7);
  for (long i = 0; i < k * n; i++)
    b[i] = 1e-3f * (float)(i % 5);
  for (int r = 0; r < calls; r++) {
    float *c = malloc((size_t)(m * n) * sizeof *c);
    if (!c) {
      fprintf(stderr, "bench_sgemm_cold: out of memory\n");
      return 1;
    }
    double w0 = bench_clock_s(CLOCK_MONOTONIC), c0 = bench_clock_s(CLOCK_THREAD_CPUTIME_ID);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1, a, (int)k, b,
                (int)n, 0, c, (int)n);
    printf("call %d: wall %.2f ms, cpu %.2f ms\n", r + 1,
           1e3 * (bench_clock_s(CLOCK_MONOTONIC) - w0),
           1e3 * (bench_clock_s(CLOCK_THREAD_CPUTIME_ID) - c0));
    free(c);
  }
  free(a);
  free(b);
  return 0;
}
