/* bench_sgemm.c N [REPS]: plain OpenBLAS sgemm on N x N matrices with every core, the
 * baseline that Narwhal's real backend is measured against. Prints the best GFlop/s. */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

int main(int argc, char **argv) {
  char *end;
  long n = argc > 1 ? strtol(argv[1], &end, 10) : 0;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  if (n <= 0 || n > 65536 || reps < 1) {
    fprintf(stderr, "usage: bench_sgemm N [REPS]\n");
    return 2;
  }
  size_t count = (size_t)n * (size_t)n;
  float *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b),
        *c = malloc(count * sizeof *c);
  if (!a || !b || !c) {
    fprintf(stderr, "bench_sgemm: out of memory for N=%ld\n", n);
    return 1;
  }
  for (size_t i = 0; i < count; i++) {
    a[i] = (float)((int)(i % 9) - 4);
    b[i] = (float)((int)(i % 7) - 3);
  }
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0f, a, (int)n,
                b, (int)n, 0.0f, c, (int)n);
    double t = bench_now() - t0;
    best = t < best ? t : best;
  }
  printf("%.3f\n", 2.0 * (double)n * (double)n * (double)n / best / 1e9);
  free(a);
  free(b);
  free(c);
  return 0;
}
