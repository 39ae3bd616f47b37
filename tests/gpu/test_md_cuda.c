/* test_md_cuda.c: Molecular2D's CUDA kernels (apps/molecular2d/md_cuda.cu) on this machine's
 * GPU against the kinds' CPU kernels, bit for bit: the force kernel cell by cell, the batched
 * force kernel (the agglomerated launch, its offset array copied to the device) over every cell
 * in a scrambled order and over a few, and the integrate kernel. 5 x 5 cells of 150 particles:
 * corner, edge and inside cells, two blocks a cell, the second partly idle. The real backend
 * runs them too (tests/gpu, gpu.molecular2d_*; batches only under --agglomerate and as arrival
 * allows), so this is where the batched kernel is checked on fixed batches. Exit 77 (skipped)
 * where no GPU is present.
 * Passed on an NVIDIA H100 (2026-11-24, docs/experiments/h100.md). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "molecular2d/md_data.h"
#include "molecular2d/md_grid.h"
#include "molecular2d/md_kernels.h"
#include "molecular2d/molecular2d.h"

static void cuda_ok(cudaError_t err, const char *what) {
  if (err != cudaSuccess) {
    fprintf(stderr, "md_cuda: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

static void *alloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fprintf(stderr, "md_cuda: out of memory\n");
    exit(1);
  }
  return p;
}

/* Cell s's hood over device copies of the whole spaces (the kernels take plain pointers). */
static md_hood device_hood(const md_conf *c, uint64_t s, const float *pos, float *acc) {
  uint64_t off[9];
  md_neighbour_offsets(c, s, off);
  md_hood h = {.acc = acc + off[4] / sizeof(float), .ppc = c->ppc, .k = c->k};
  for (int k = 0; k < 9; k++)
    h.cell[k] = off[k] == UINT64_MAX ? NULL : pos + off[k] / sizeof(float);
  return h;
}

/* The cells in `cells` of the device's accelerations equal want's. */
static int cells_equal(const md_conf *c, const float *dacc, const float *want, float *got,
                       const uint64_t *cells, int count) {
  uint64_t size = c->grid * c->grid * md_cell_bytes(c), cb = md_cell_bytes(c);
  cuda_ok(cudaMemcpy(got, dacc, size, cudaMemcpyDeviceToHost), "copy from the GPU");
  int equal = 1;
  for (int j = 0; j < count; j++) {
    uint64_t at = md_cell_offset(c, cells[j] % c->grid, cells[j] / c->grid);
    equal &= memcmp((const char *)got + at, (const char *)want + at, cb) == 0;
  }
  return equal;
}

int main(void) {
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    printf("md_cuda: skipped: no CUDA GPU on this machine\n");
    return 77;
  }
  cuda_ok(cudaSetDevice(0), "cudaSetDevice");
  cudaStream_t stream;
  cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  md_conf c = {.grid = 5, .ppc = 150, .k = md_force_constant(150), .dt = MD_DT};
  uint64_t cells = c.grid * c.grid, size = cells * md_cell_bytes(&c);
  float *pos = alloc(size), *vel = alloc(size), *acc = alloc(size), *got = alloc(size);
  md_fill_state(&c, 9, pos, vel);
  uint64_t sizes[3] = {size, size, size};
  uint64_t pitches[3] = {md_row_bytes(&c), md_row_bytes(&c), md_row_bytes(&c)};
  nw_task_info t = {.subtasks = cells,
                    .conf = &c,
                    .conf_size = sizeof c,
                    .nspaces = 2,
                    .space_size = sizes,
                    .space_pitch = pitches};
  nw_view fv[2] = {{(unsigned char *)pos, 0, size}, {(unsigned char *)acc, 0, size}};
  for (uint64_t s = 0; s < cells; s++)
    nw_md_force_kind.cpu_kernel(&t, s, fv);

  float *dpos = NULL, *dvel = NULL, *dacc = NULL;
  cuda_ok(cudaMalloc((void **)&dpos, size), "cudaMalloc");
  cuda_ok(cudaMalloc((void **)&dvel, size), "cudaMalloc");
  cuda_ok(cudaMalloc((void **)&dacc, size), "cudaMalloc");
  cuda_ok(cudaMemcpy(dpos, pos, size, cudaMemcpyHostToDevice), "copy to the GPU");
  uint64_t *all = alloc(cells * sizeof *all);
  md_hood *hoods = alloc(cells * sizeof *hoods);

  /* Cell by cell. */
  cuda_ok(cudaMemset(dacc, 0xff, size), "cudaMemset");
  for (uint64_t s = 0; s < cells; s++) {
    md_hood h = device_hood(&c, s, dpos, dacc);
    nw_md_cuda_force(&h, stream);
    all[s] = s;
  }
  CHECK(cells_equal(&c, dacc, acc, got, all, (int)cells));

  /* Every cell in one launch, in the order 0, 7, 14, ... (7 is prime to 25). */
  cuda_ok(cudaMemset(dacc, 0xff, size), "cudaMemset");
  for (uint64_t j = 0; j < cells; j++) {
    all[j] = j * 7 % cells;
    hoods[j] = device_hood(&c, all[j], dpos, dacc);
  }
  nw_md_cuda_force_batch(hoods, (int)cells, stream);
  CHECK(cells_equal(&c, dacc, acc, got, all, (int)cells));

  /* A few cells: the inside one, two corners, an edge. */
  const uint64_t few[] = {12, 0, 24, 3};
  cuda_ok(cudaMemset(dacc, 0xff, size), "cudaMemset");
  for (int j = 0; j < 4; j++)
    hoods[j] = device_hood(&c, few[j], dpos, dacc);
  nw_md_cuda_force_batch(hoods, 4, stream);
  CHECK(cells_equal(&c, dacc, acc, got, few, 4));

  /* The step, from the accelerations above. */
  cuda_ok(cudaMemcpy(dacc, acc, size, cudaMemcpyHostToDevice), "copy to the GPU");
  cuda_ok(cudaMemcpy(dvel, vel, size, cudaMemcpyHostToDevice), "copy to the GPU");
  t.nspaces = 3; /* the third entries of sizes and pitches were there already */
  nw_view mv[3] = {{(unsigned char *)acc, 0, size},
                   {(unsigned char *)pos, 0, size},
                   {(unsigned char *)vel, 0, size}};
  for (uint64_t s = 0; s < cells; s++) {
    nw_md_integrate_kind.cpu_kernel(&t, s, mv);
    uint64_t at = md_cell_offset(&c, s % c.grid, s / c.grid) / sizeof(float);
    md_move m = {.acc = dacc + at, .pos = dpos + at, .vel = dvel + at, .ppc = c.ppc, .dt = c.dt};
    nw_md_cuda_move(&m, stream);
    all[s] = s;
  }
  CHECK(cells_equal(&c, dpos, pos, got, all, (int)cells));
  CHECK(cells_equal(&c, dvel, vel, got, all, (int)cells));

  cudaFree(dpos);
  cudaFree(dvel);
  cudaFree(dacc);
  cudaStreamDestroy(stream);
  free(pos);
  free(vel);
  free(acc);
  free(got);
  free(all);
  free(hoods);
  return check_report("md_cuda");
}
