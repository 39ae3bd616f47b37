/* matmul_cuda.c: the GPU sgemm with cuBLAS (paper 5.1: the GPU matmul kernel is CUBLAS).
 *
 * cuBLAS is column-major; a row-major C = A * B is the column-major C^T = B^T * A^T, so the
 * operands are passed swapped, with the same leading dimensions. Each thread that calls this
 * (one per GPU stream in the real backend) keeps its own handle.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "matmul.h"

static _Thread_local cublasHandle_t handle;

/* One small sgemm on a new handle. On an H200 the first subtask's sgemm took 107 ms where the
 * others took 10.7 (docs/experiments/h200.md): start-up of the library that belongs before
 * the run (a GPU's threads run this before the run starts), not in its first subtask.
 * Whether this small product pays all of it is for the next GPU run to show. Skipped where
 * the GPU has no room left for it. */
static void warm_up(void) {
  enum { N = 1024 };
  float *m = NULL;
  if (cudaMalloc((void **)&m, 3 * (size_t)N * N * sizeof *m) != cudaSuccess) {
    cudaGetLastError(); /* not sticky: the run goes on without the warm-up */
    return;
  }
  const float one = 1.0f, zero = 0.0f;
  cudaMemset(m, 0, 2 * (size_t)N * N * sizeof *m);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, m, N, m + (size_t)N * N, N, &zero,
              m + 2 * (size_t)N * N, N);
  cudaStreamSynchronize(NULL); /* the handle's stream until a subtask sets its own */
  cudaFree(m);
}

void nw_matmul_cuda_init(void) {
  if (handle)
    return;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuBLAS cannot start on this GPU\n");
    exit(1);
  }
  warm_up();
}

void nw_matmul_cuda_sgemm(const matmul_gemm *g, void *stream) {
  nw_matmul_cuda_init();
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(handle, (cudaStream_t)stream);
  cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->m, g->k, &one, g->b,
                                  g->ldb, g->a, g->lda, &zero, g->c, g->ldc);
  cudaError_t err = cudaStreamSynchronize((cudaStream_t)stream);
  if (st != CUBLAS_STATUS_SUCCESS || err != cudaSuccess) {
    fprintf(stderr, "narwhal: cuBLAS sgemm failed (status %d, %s)\n", (int)st,
            cudaGetErrorString(err));
    exit(1);
  }
}
