/* bench_cublas.c N [REPS]: plain cuBLAS sgemm on N x N matrices, the baseline Narwhal's GPU
 * matmul is measured against. Prints two GFlop/s figures, best of REPS: the sgemm alone on
 * data already on the GPU, and end to end (copy A and B in, multiply, copy C out), which is
 * what a Narwhal run also pays. */
#define _POSIX_C_SOURCE 200809L
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "bench_cublas: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  if (n <= 0 || n > 65536 || reps < 1) {
    fprintf(stderr, "usage: bench_cublas N [REPS]\n");
    return 2;
  }
  size_t bytes = (size_t)n * (size_t)n * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  if (!a || !b || !c) {
    fprintf(stderr, "bench_cublas: out of memory for N=%ld\n", n);
    return 1;
  }
  for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
    a[i] = (float)((int)(i % 9) - 4);
    b[i] = (float)((int)(i % 7) - 3);
  }
  float *da, *db, *dc;
  check(cudaMalloc((void **)&da, bytes), "cudaMalloc");
  check(cudaMalloc((void **)&db, bytes), "cudaMalloc");
  check(cudaMalloc((void **)&dc, bytes), "cudaMalloc");
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "bench_cublas: cuBLAS cannot start\n");
    return 1;
  }
  const float one = 1.0f, zero = 0.0f;
  double best_gemm = 1e30, best_all = 1e30;
  for (int r = 0; r <= reps; r++) { /* r = 0 warms up */
    double t0 = bench_now();
    check(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice), "copy in");
    check(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice), "copy in");
    double t1 = bench_now();
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one, db, (int)n, da, (int)n,
                &zero, dc, (int)n);
    check(cudaDeviceSynchronize(), "sgemm");
    double t2 = bench_now();
    check(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost), "copy out");
    double t3 = bench_now();
    if (r > 0) {
      best_gemm = t2 - t1 < best_gemm ? t2 - t1 : best_gemm;
      best_all = t3 - t0 < best_all ? t3 - t0 : best_all;
    }
  }
  double flops = 2.0 * (double)n * (double)n * (double)n;
  printf("%.1f %.1f\n", flops / best_gemm / 1e9, flops / best_all / 1e9);
  cublasDestroy(h);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return 0;
}
