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

void nw_matmul_cuda_init(void) {
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuBLAS cannot start on this GPU\n");
    exit(1);
  }
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
