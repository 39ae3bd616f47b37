/* adder_cuda.cu: the adder's CUDA kernel, a thread per element (GeMTC's trivial adder as one
 * launch per subtask; the many-task engine, backends/real/real_mtc.h, runs its own adder
 * tasks without launches). Integer additions: the host's bits on any GPU. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "adder_kernels.h"

#define THREADS 256

__global__ static void add_kernel(adder_op op) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < op.count)
    op.c[i] = op.a[i] + op.b[i];
}

extern "C" void nw_adder_cuda_add(const adder_op *op, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  unsigned int blocks = (unsigned int)((op->count + THREADS - 1) / THREADS);
  add_kernel<<<blocks, THREADS, 0, st>>>(*op);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the adder CUDA kernel failed (%s)\n", cudaGetErrorString(err));
    exit(1);
  }
}
