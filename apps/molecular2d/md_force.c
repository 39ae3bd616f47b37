/* md_force.c: the md-force task kind: subscriptions, kernels (one, and a batch of subtasks in
 * one GPU launch), cost model (see molecular2d.h). Subtask s is cell s = (s % G, s / G). */
#include <stdio.h>
#include <stdlib.h>

#include "md_grid.h"
#include "md_kernels.h"

static nw_status force_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const md_conf *c = t->conf;
  md_span n = md_neighbourhood(c, subtask);
  uint64_t cb = md_cell_bytes(c), row = md_row_bytes(c);
  /* The neighbourhood's positions: one rectangle, up to 3 cells' bytes of up to 3 rows. */
  nw_status st = nw_subscribe(s, MD_FORCE_POS, NW_READ_ONLY, md_cell_offset(c, n.x0, n.y0),
                              (n.x1 - n.x0 + 1) * cb, row, n.y1 - n.y0 + 1);
  if (st == NW_OK)
    st = nw_subscribe(s, MD_FORCE_ACC, NW_WRITE_ONLY,
                      md_cell_offset(c, subtask % c->grid, subtask / c->grid), cb, row, 1);
  return st;
}

/* The subtask's hood on a CPU: the views hold the whole space for reads, the cell's range (or
 * the whole space) for the write; offsets translate directly. */
static void cpu_hood(const md_conf *c, uint64_t subtask, const nw_view *v, md_hood *h) {
  uint64_t off[9];
  md_neighbour_offsets(c, subtask, off);
  for (int k = 0; k < 9; k++)
    h->cell[k] = off[k] == UINT64_MAX ? NULL : nw_view_at(&v[MD_FORCE_POS], off[k]);
  h->acc = nw_view_at(&v[MD_FORCE_ACC], off[4]);
  h->ppc = c->ppc;
  h->k = c->k;
}

/* On a GPU each view holds its subscription's rectangle, packed (narwhal.h, nw_gpu_view): the
 * neighbourhood's rows of cells a view pitch apart, the cell's accelerations. The pointers are
 * device pointers on a CUDA GPU, host ones for the emulation. */
static void gpu_hood(const md_conf *c, uint64_t subtask, const nw_gpu_view *v, md_hood *h) {
  uint64_t off[9];
  md_neighbour_offsets(c, subtask, off);
  for (int k = 0; k < 9; k++)
    h->cell[k] = off[k] == UINT64_MAX ? NULL : nw_gpu_view_at(&v[MD_FORCE_POS], off[k]);
  h->acc = nw_gpu_view_at(&v[MD_FORCE_ACC], off[4]);
  h->ppc = c->ppc;
  h->k = c->k;
}

static void force_particles(const md_hood *h, uint64_t first, uint64_t last) {
  for (uint64_t i = first; i < last; i++)
    md_particle_accel(h, i);
}

static void force_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  md_hood h;
  cpu_hood(t->conf, subtask, v, &h);
  force_particles(&h, 0, h.ppc);
}

/* Work-item `item` of `items`: its own band of the cell's particles, each particle's sum the
 * same as in the whole cell's loop. */
static void force_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                           const nw_view *v) {
  md_hood h;
  cpu_hood(t->conf, subtask, v, &h);
  force_particles(&h, h.ppc * (uint64_t)item / (uint64_t)items,
                  h.ppc * (uint64_t)(item + 1) / (uint64_t)items);
}

static void force_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  md_hood h;
  gpu_hood(t->conf, subtask, v, &h);
  force_particles(&h, 0, h.ppc);
}

/* The agglomerated launch's computation on the host: each subtask as force_gpu_emulated runs it,
 * on its own views. */
static void force_gpu_emulated_batch(const nw_task_info *t, const uint64_t *subtasks, int count,
                                     const nw_gpu_view *const *views) {
  for (int j = 0; j < count; j++)
    force_gpu_emulated(t, subtasks[j], views[j]);
}

static void force_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  md_hood h;
  gpu_hood(t->conf, subtask, v, &h);
  nw_md_cuda_force(&h, stream);
}

/* The paper's agglomerating kernel (its Fig. 4): the subtasks' hoods, built here in host memory,
 * are the offset array the one launch reads (96 bytes a subtask, against the launch it saves). */
static void force_cuda_batch(const nw_task_info *t, const uint64_t *subtasks, int count,
                             const nw_gpu_view *const *views, void *stream) {
  if (count <= 0)
    return;
  md_hood *hoods = malloc((size_t)count * sizeof *hoods);
  if (!hoods) {
    fprintf(stderr, "narwhal: md-force: no memory for a batch of %d subtasks' offsets\n", count);
    exit(1);
  }
  for (int j = 0; j < count; j++)
    gpu_hood(t->conf, subtasks[j], views[j], &hoods[j]);
  nw_md_cuda_force_batch(hoods, count, stream);
  free(hoods);
}

/* Force on each particle: per neighbour cell 11 flops a pair and 2 for the shift, then 2 for
 * the scaling (md_math.h): ppc m (11 ppc + 2) + 2 ppc, m the neighbourhood's cells (9 inside
 * the box, 6 on an edge, 4 in a corner). */
static double force_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)kind;
  const md_conf *c = t->conf;
  double ppc = (double)c->ppc, m = (double)md_neighbours(c, subtask);
  return ppc * m * (MD_FLOPS_PAIR * ppc + MD_FLOPS_SHIFT) + MD_FLOPS_SCALE * ppc;
}

/* The neighbourhood's positions read once and the cell's accelerations written once, 8 bytes a
 * particle each: 8 ppc (m + 1). Flops per byte about 11 m ppc / 8 (m + 1), 1.24 ppc inside the
 * box: compute-bound for any but tiny cells. */
static double force_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)kind;
  const md_conf *c = t->conf;
  return (double)md_cell_bytes(c) * (double)(md_neighbours(c, subtask) + 1);
}

const nw_task_kind nw_md_force_kind = {
    .name = "md-force",
    .subscribe = force_subscribe,
    .cpu_kernel = force_cpu,
    .cpu_work_item = force_cpu_item,
    .flops = force_flops,
    .cuda_kernel = force_cuda,
    .gpu_emulated_kernel = force_gpu_emulated,
    .bytes = force_bytes,
    .cuda_batch_kernel = force_cuda_batch,
    .gpu_emulated_batch_kernel = force_gpu_emulated_batch,
};
