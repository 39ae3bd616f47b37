/* bench_first_read.c [ROWS COLS BLOCK [PASSES]]: how long a memory-bound kernel takes on data it
 * reads for the first time since the data was written, against later reads of the same data.
 * Writes a ROWS x COLS float matrix (default 32768 x 32768, 4 GiB, as gemv 32768 holds it),
 * then PASSES times (default 2) runs one OpenBLAS sgemv per block of BLOCK rows (default 4096:
 * gemv 32768/4096's subtask), and prints each pass's blocks' wall milliseconds. A real run's
 * gemv reads each block once, right after its space was written; the model is the mean over
 * calibration runs that did the same (docs/experiments/validation-repeat.md). Run it with one
 * thread: OPENBLAS_NUM_THREADS=1 build/benchmarks/bench_first_read */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

int main(int argc, char **argv) {
  long rows = argc > 3 ? atol(argv[1]) : 32768, cols = argc > 3 ? atol(argv[2]) : 32768,
       block = argc > 3 ? atol(argv[3]) : 4096;
  int passes = argc > 4 ? atoi(argv[4]) : 2;
  if ((argc != 1 && argc != 4 && argc != 5) || rows <= 0 || cols <= 0 || block <= 0 ||
      rows > 65536 || cols > 65536 || rows % block || passes < 1 || passes > 100) {
    fprintf(stderr, "usage: bench_first_read [ROWS COLS BLOCK [PASSES]] (BLOCK divides ROWS; "
                    "each at most 65536; PASSES 1 to 100)\n");
    return 2;
  }
  float *a = malloc((size_t)rows * (size_t)cols * sizeof *a);
  float *x = malloc((size_t)cols * sizeof *x), *y = malloc((size_t)block * sizeof *y);
  if (!a || !x || !y) {
    fprintf(stderr, "bench_first_read: out of memory for a %ld x %ld matrix\n", rows, cols);
    return 1;
  }
  for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
    a[i] = (float)(i & 1023) * 1e-3f;
  for (long j = 0; j < cols; j++)
    x[j] = 1;
  double check = 0;
  for (int p = 0; p < passes; p++) {
    printf("pass %d:", p + 1);
    for (long b = 0; b < rows / block; b++) {
      double t0 = bench_now();
      cblas_sgemv(CblasRowMajor, CblasNoTrans, (int)block, (int)cols, 1, a + b * block * cols,
                  (int)cols, x, 1, 0, y, 1);
      printf(" %.1f", 1e3 * (bench_now() - t0));
      check += y[0];
    }
    printf(" ms\n");
  }
  printf("checksum %.6g\n", check); /* the kernels' result is used: none is optimised away */
  free(a), free(x), free(y);
  return 0;
}
