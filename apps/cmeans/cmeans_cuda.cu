/* cmeans_cuda.cu: the C-means map (cmeans_map.h) as two CUDA kernels, bit-exact with the host.
 *
 * First one thread per point computes its weights into the scratch buffer (cm_point_weights:
 * the host's operations, as _rn intrinsics that nvcc never fuses into multiply-adds). Then one
 * thread per key sums over the subtask's points in point order and writes the key's fixed-point
 * value: the same addends in the same order as the host's point-by-point loop, so the same bits
 * (cmeans_kind.c). The second kernel writes every key of the output, so the view needs no
 * identity fill. Simple rather than fast: a thread's point is read with a stride of D floats,
 * and a subtask gets only M (D + 1) threads for its sums (1010 at the paper's sizes); a faster
 * kernel must keep the per-key order of additions.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmeans_map.h"
#include "cmeans_math.h"

#define THREADS 128

__global__ static void weights_kernel(cm_map m) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m.points)
    cm_point_weights(m.x + i * m.ldx, m.c, m.ldc, m.clusters, m.dims, m.w + i * m.clusters);
}

__global__ static void sums_kernel(cm_map m) {
  uint64_t key = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t row = (uint64_t)m.dims + 1;
  if (key >= m.clusters * row)
    return;
  uint64_t j = key / row, k = key % row;
  double sum = 0.0;
  for (uint64_t i = 0; i < m.points; i++) {
    double w = m.w[i * m.clusters + j];
    sum = k < m.dims ? CM_ADD(sum, CM_MUL(w, (double)m.x[i * m.ldx + k])) : CM_ADD(sum, w);
  }
  m.out[key] = cm_fixed(sum);
}

static unsigned int blocks_for(uint64_t threads) {
  return (unsigned int)((threads + THREADS - 1) / THREADS);
}

extern "C" void nw_cmeans_cuda_map(const cm_map *m, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  uint64_t keys = (uint64_t)m->clusters * (m->dims + 1);
  weights_kernel<<<blocks_for(m->points), THREADS, 0, st>>>(*m);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) {
    sums_kernel<<<blocks_for(keys), THREADS, 0, st>>>(*m);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the cmeans CUDA kernel failed (%s)\n", cudaGetErrorString(err));
    exit(1);
  }
}
