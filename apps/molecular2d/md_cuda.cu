/* md_cuda.cu: Molecular2D's CUDA kernels, bit-exact with the host (md_math.h: the host's
 * operations as _rn intrinsics, which nvcc never fuses into multiply-adds).
 *
 * Force: one thread per particle of the cell, summing over the neighbourhood in the host's
 * order (md_particle_accel), so each particle's acceleration is the host's bits. The batched
 * entry is the agglomerating kernel of Lifflander, Evans, Arya and Kale, "Dynamic Scheduling
 * for Work Agglomeration on Heterogeneous Clusters" (Fig. 4): `count` cells in one launch,
 * each block finding its cell's pointers in an offset array (the cells' md_hood, copied to the
 * device on the stream; stream-ordered allocation, which the driver's pool serves without a
 * device-wide synchronisation after the first batches). Every cell has ppc particles, so every
 * cell gets the same number of blocks and a block's cell is its index divided by that number.
 * Simple rather than fast: each thread streams the neighbourhood from global memory.
 *
 * Integrate: one thread per particle (md_particle_move).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "md_kernels.h"

#define THREADS 128

__global__ static void force_kernel(md_hood h) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < h.ppc)
    md_particle_accel(&h, i);
}

__global__ static void force_batch_kernel(const md_hood *hoods, unsigned int blocks_per_cell) {
  const md_hood *h = &hoods[blockIdx.x / blocks_per_cell];
  uint64_t i = (uint64_t)(blockIdx.x % blocks_per_cell) * blockDim.x + threadIdx.x;
  if (i < h->ppc)
    md_particle_accel(h, i);
}

__global__ static void move_kernel(md_move m) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m.ppc)
    md_particle_move(&m, i);
}

static unsigned int blocks_for(uint64_t threads) {
  return (unsigned int)((threads + THREADS - 1) / THREADS);
}

static void finish(cudaError_t err, cudaStream_t st, const char *what) {
  if (err == cudaSuccess)
    err = cudaStreamSynchronize(st);
  if (err != cudaSuccess) {
    fprintf(stderr, "narwhal: the molecular2d %s CUDA kernel failed (%s)\n", what,
            cudaGetErrorString(err));
    exit(1);
  }
}

extern "C" void nw_md_cuda_force(const md_hood *h, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  force_kernel<<<blocks_for(h->ppc), THREADS, 0, st>>>(*h);
  finish(cudaGetLastError(), st, "force");
}

extern "C" void nw_md_cuda_force_batch(const md_hood *hoods, int count, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  size_t bytes = (size_t)count * sizeof *hoods;
  unsigned int per_cell = blocks_for(hoods[0].ppc);
  md_hood *offsets = NULL;
  cudaError_t err = cudaMallocAsync((void **)&offsets, bytes, st);
  /* From pageable memory: the call returns once `hoods` is staged, so the caller may free it. */
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(offsets, hoods, bytes, cudaMemcpyHostToDevice, st);
  if (err == cudaSuccess) {
    force_batch_kernel<<<per_cell *(unsigned int)count, THREADS, 0, st>>>(offsets, per_cell);
    err = cudaGetLastError();
  }
  if (offsets) {
    cudaError_t freed = cudaFreeAsync(offsets, st);
    err = err == cudaSuccess ? freed : err;
  }
  finish(err, st, "batched force");
}

extern "C" void nw_md_cuda_move(const md_move *m, void *stream) {
  cudaStream_t st = (cudaStream_t)stream;
  move_kernel<<<blocks_for(m->ppc), THREADS, 0, st>>>(*m);
  finish(cudaGetLastError(), st, "integrate");
}
