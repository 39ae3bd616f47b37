/* gmm_cuda.cu: the GMM map (gmm_map.h) as two CUDA kernels, bit-exact with the host.
 *
 * First one thread per point computes its responsibilities into the scratch buffer
 * (gm_point_resp: the host's operations, as _rn intrinsics that nvcc never fuses into
 * multiply-adds, and gm_exp rather than CUDA's exp). Then one thread per key sums over the
 * subtask's points in point order and writes the key's fixed-point value: the same addends,
 * each computed by the same operations, in the same order as the host's point-by-point loop,
 * so the same bits (gmm_kind.c). The second kernel writes every key of the output, so the view
 * needs no identity fill. Simple rather than fast: a thread's point is read with a stride of D
 * floats, a thread finds its key's (k, l) by a loop, and the parameters are read from global
 * memory by every thread; a faster kernel must keep the per-key order of additions.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "gmm_map.h"
#include "gmm_math.h"

#define THREADS 128

__global__ static void resp_kernel(gm_map m) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m.points)
    gm_point_resp(m.x + i * m.ldx, m.p, m.ldp, m.clusters, m.dims, m.d + i * m.dims,
                  m.r + i * m.clusters);
}

__global__ static void sums_kernel(gm_map m) {
  uint64_t key = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t row = 1 + (uint64_t)m.dims + (uint64_t)m.dims * (m.dims + 1) / 2;
  if (key >= m.clusters * row)
    return;
  uint64_t j = key / row, t = key % row, k = 0, l = 0;
  int order = t == 0 ? 0 : t <= m.dims ? 1 : 2;
  if (order == 1)
    k = t - 1;
  if (order == 2) { /* packed lower triangle: (k, l) at k (k + 1) / 2 + l */
    uint64_t u = t - 1 - m.dims;
    while ((k + 1) * (k + 2) / 2 <= u)
      k++;
    l = u - k * (k + 1) / 2;
  }
  double sum = 0.0;
  for (uint64_t i = 0; i < m.points; i++) {
    double r = m.r[i * m.clusters + j];
    const float *x = m.x + i * m.ldx;
    if (order == 0)
      sum = __dadd_rn(sum, r);
    else if (order == 1)
      sum = __dadd_rn(sum, __dmul_rn(r, (double)x[k]));
    else
      sum = __dadd_rn(sum, __dmul_rn(__dmul_rn(r, (double)x[k]), (double)x[l]));
  }
  m.out[key] = gm_fixed(sum);
}

static unsigned int blocks_for(uint64_t threads) {
  return (unsigned int)((threads + THREADS - 1) / THREADS);
}

extern "C" void nw_gmm_cuda_map(const gm_map *m, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  uint64_t row = 1 + (uint64_t)m->dims + (uint64_t)m->dims * (m->dims + 1) / 2;
  resp_kernel<<<blocks_for(m->points), THREADS, 0, st>>>(*m);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) {
    sums_kernel<<<blocks_for(m->clusters * row), THREADS, 0, st>>>(*m);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the gmm CUDA kernel failed (%s)\n", cudaGetErrorString(err));
    exit(1);
  }
}
