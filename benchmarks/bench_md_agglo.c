/* bench_md_agglo.c: what agglomeration gains on this machine's GPU, kernel by kernel.
 * Molecular2D's force work units (apps/molecular2d/md_cuda.cu) on a 16 x 16 grid of cells,
 * PPC particles a cell, for PPC from 32 to 2048: the 256 units launched one by one (each
 * launch finished before the next, as the runtime issues them on a stream today) against the
 * same units agglomerated into batches of 16 and of 256 (nw_md_cuda_force_batch: one launch and
 * one copy of the offset array a batch). Prints the seconds of each (best of 5, interleaved)
 * and the speed-ups: the dynamic agglomeration paper's Figs. 5-6 measure this speed-up against
 * problem size, falling as the GPU fills. Exits 77 where no CUDA GPU is present. */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_clock.h"
#include "molecular2d/md_data.h"
#include "molecular2d/md_grid.h"
#include "molecular2d/md_kernels.h"
#include "molecular2d/molecular2d.h"

#define GRID 16
#define REPS 5

static void cuda_ok(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    fprintf(stderr, "bench_md_agglo: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

/* Seconds to run all cells' force units in batches of `batch` (1: one launch a unit). */
static double timed(const md_hood *hoods, int cells, int batch, void *stream) {
  double t0 = bench_now();
  for (int j = 0; j < cells; j += batch) {
    if (batch == 1)
      nw_md_cuda_force(&hoods[j], stream);
    else
      nw_md_cuda_force_batch(&hoods[j], batch < cells - j ? batch : cells - j, stream);
  }
  return bench_now() - t0;
}

int main(void) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    printf("bench_md_agglo: skipped: no CUDA GPU on this machine\n");
    return 77;
  }
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cudaStream_t stream;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const int cells = GRID * GRID, batches[] = {1, 16, 256};
  printf("%6s %12s %12s %12s %10s %10s\n", "ppc", "1/launch s", "16/launch s", "256/launch s",
         "gain 16", "gain 256");
  for (uint64_t ppc = 32; ppc <= 2048; ppc *= 2) {
    md_conf c = {.grid = GRID, .ppc = ppc, .k = md_force_constant(ppc), .dt = MD_DT};
    uint64_t size = (uint64_t)cells * md_cell_bytes(&c);
    float *pos = malloc(size), *vel = malloc(size);
    md_hood *hoods = malloc((size_t)cells * sizeof *hoods);
    if (!pos || !vel || !hoods) {
      fprintf(stderr, "bench_md_agglo: out of memory\n");
      return 1;
    }
    md_fill_state(&c, 9, pos, vel);
    float *dpos = NULL, *dacc = NULL;
    cuda_ok(cudaMalloc((void **)&dpos, size), "cudaMalloc");
    cuda_ok(cudaMalloc((void **)&dacc, size), "cudaMalloc");
    cuda_ok(cudaMemcpy(dpos, pos, size, cudaMemcpyHostToDevice), "copy to the GPU");
    for (int s = 0; s < cells; s++) {
      uint64_t off[9];
      md_neighbour_offsets(&c, (uint64_t)s, off);
      hoods[s] = (md_hood){.acc = dacc + off[4] / sizeof(float), .ppc = c.ppc, .k = c.k};
      for (int k = 0; k < 9; k++)
        hoods[s].cell[k] = off[k] == UINT64_MAX ? NULL : dpos + off[k] / sizeof(float);
    }
    double best[3] = {1e30, 1e30, 1e30};
    timed(hoods, cells, 1, stream); /* warm-up */
    for (int r = 0; r < REPS; r++)
      for (int b = 0; b < 3; b++) {
        double s = timed(hoods, cells, batches[b], stream);
        best[b] = s < best[b] ? s : best[b];
      }
    printf("%6llu %12.6f %12.6f %12.6f %9.2fx %9.2fx\n", (unsigned long long)ppc, best[0], best[1],
           best[2], best[0] / best[1], best[0] / best[2]);
    cudaFree(dpos);
    cudaFree(dacc);
    free(pos);
    free(vel);
    free(hoods);
  }
  cudaStreamDestroy(stream);
  return 0;
}
