/* gemv_cuda.c: the GPU sgemv with cuBLAS (the paper's GPU GEMV: Li, Fox, von Laszewski,
 * Chauhan, "Co-processing SPMD Computation on CPUs and GPUs Cluster", IEEE Cluster 2013,
 * section IV.A.3).
 *
 * cuBLAS is column-major: the row-major block (rows x cols, lda apart) is the column-major
 * cols x rows matrix A^T, so y = A x is op(A^T) x with CUBLAS_OP_T. Each thread that calls this
 * (one per GPU stream in the real backend) keeps its own handle.
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "gemv.h"

static _Thread_local cublasHandle_t handle;

void nw_gemv_cuda_init(void) {
  if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "narwhal: cuBLAS cannot start on this GPU\n");
    exit(1);
  }
}

void nw_gemv_cuda_sgemv(const gemv_op *op, void *stream) {
  nw_gemv_cuda_init();
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(handle, (cudaStream_t)stream);
  cublasStatus_t st = cublasSgemv(handle, CUBLAS_OP_T, op->cols, op->rows, &one, op->a, op->lda,
                                  op->x, 1, &zero, op->y, 1);
  cudaError_t err = cudaStreamSynchronize((cudaStream_t)stream);
  if (st != CUBLAS_STATUS_SUCCESS || err != cudaSuccess) {
    fprintf(stderr, "narwhal: gemv: cuBLAS sgemv failed (status %d, %s)\n", (int)st,
            cudaGetErrorString(err));
    exit(1);
  }
}
