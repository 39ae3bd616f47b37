/* pagerank_cuda.cu: the GPU scatter (pagerank_scatter.h) as a CUDA kernel.
 *
 * One thread per page of the subtask. Threads whose pages link to the same target add to the
 * same word, so they accumulate with global-memory atomic adds, as the paper's kernel does
 * (Beri et al., "Unicorn: a programming model and runtime for hybrid CPU-GPU clusters", IEEE
 * TPDS, section 5.1; section 5.2 blames those atomics for GPUs trailing CPUs here). The ranks
 * are integers (pagerank_rank.h), so the atomics' order changes nothing: the result equals the
 * host's bit for bit.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "pagerank_scatter.h"

#define THREADS 256

static_assert(sizeof(unsigned long long) == sizeof(uint64_t), "atomicAdd needs 64-bit words");

__global__ static void scatter_kernel(pr_scatter s, uint64_t teleport) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= s.count)
    return;
  uint64_t p = s.first + i;
  uint32_t deg = pr_outdegree(&s.g, p);
  unsigned long long share = pr_share(s.in[i], deg);
  unsigned long long *out = (unsigned long long *)s.out;
  for (uint32_t j = 0; j < deg; j++)
    atomicAdd(&out[pr_target(&s.g, p, j)], share);
  atomicAdd(&out[p], (unsigned long long)teleport);
}

extern "C" void nw_pagerank_cuda_scatter(const pr_scatter *s, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  cudaError_t err = cudaMemsetAsync(s->out, 0, s->g.n * sizeof(uint64_t), st);
  if (err == cudaSuccess && s->count > 0) {
    unsigned int blocks = (unsigned int)((s->count + THREADS - 1) / THREADS);
    scatter_kernel<<<blocks, THREADS, 0, st>>>(*s, pr_teleport(s->g.n));
    err = cudaGetLastError();
  }
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the pagerank CUDA kernel failed (%s)\n", cudaGetErrorString(err));
    exit(1);
  }
}
