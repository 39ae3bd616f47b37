/* mdlite_cuda.cu: MDLite's CUDA kernel, bit-exact with the host (narwhal_mtc.h: the host's
 * operations as _rn intrinsics, which nvcc never fuses into multiply-adds).
 *
 * One launch per subtask, one block of `count` threads (at most 32: one warp), a thread per
 * particle. Each step the threads put their positions in shared memory, wait for one another,
 * sum the pulls of the others in index order (the host's order, mdlite_kind.c), wait again so
 * that no position is overwritten while read, and move. Each particle's state lives in its
 * thread's registers from the first read of `in` to the one write of `out`.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "mdlite_kernels.h"
#include "narwhal_mtc.h"

__global__ static void segment_kernel(mdlite_group g) {
  __shared__ float xs[MDLITE_GROUP_MAX], ys[MDLITE_GROUP_MAX];
  uint32_t i = threadIdx.x;
  mdlite_particle me = g.in[i];
  for (uint64_t s = 0; s < g.steps; s++) {
    xs[i] = me.x;
    ys[i] = me.y;
    __syncthreads();
    float fx = 0.0f, fy = 0.0f;
    for (uint32_t j = 0; j < g.count; j++)
      if (j != i)
        nw_mtc_md_pull(xs[i], ys[i], xs[j], ys[j], &fx, &fy);
    __syncthreads();
    nw_mtc_md_move(&me.x, &me.y, &me.vx, &me.vy, fx, fy);
  }
  g.out[i] = me;
}

extern "C" void nw_mdlite_cuda_segment(const mdlite_group *g, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  cudaError_t err = cudaSuccess;
  if (g->count == 0 || g->count > MDLITE_GROUP_MAX)
    err = cudaErrorInvalidValue; /* mdlite_main.c refuses such groups: a bug if here */
  else {
    segment_kernel<<<1, g->count, 0, st>>>(*g);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the mdlite CUDA kernel failed (%s)\n", cudaGetErrorString(err));
    exit(1);
  }
}
