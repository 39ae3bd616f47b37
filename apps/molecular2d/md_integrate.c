/* md_integrate.c: the md-integrate task kind: subscriptions, kernels, cost model (see
 * molecular2d.h). Subtask s moves the particles of cell s = (s % G, s / G) by one timestep.
 * No batched entries: a subtask is 8 flops a particle over 40 bytes, bound by memory and by
 * the copies to a GPU, where agglomeration (which amortises launches) changes little. */
#include "md_grid.h"
#include "md_kernels.h"

static uint64_t cell_offset(const md_conf *c, uint64_t subtask) {
  return md_cell_offset(c, subtask % c->grid, subtask / c->grid);
}

static nw_status move_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const md_conf *c = t->conf;
  uint64_t at = cell_offset(c, subtask), cb = md_cell_bytes(c), row = md_row_bytes(c);
  nw_status st = nw_subscribe(s, MD_MOVE_ACC, NW_READ_ONLY, at, cb, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, MD_MOVE_POS, NW_READ_WRITE, at, cb, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, MD_MOVE_VEL, NW_READ_WRITE, at, cb, row, 1);
  return st;
}

static void cpu_move(const md_conf *c, uint64_t subtask, const nw_view *v, md_move *m) {
  uint64_t at = cell_offset(c, subtask);
  *m = (md_move){.acc = nw_view_at(&v[MD_MOVE_ACC], at),
                 .pos = nw_view_at(&v[MD_MOVE_POS], at),
                 .vel = nw_view_at(&v[MD_MOVE_VEL], at),
                 .ppc = c->ppc,
                 .dt = c->dt};
}

/* On a GPU each view holds the cell's one segment (narwhal.h, nw_gpu_view). */
static void gpu_move(const md_conf *c, uint64_t subtask, const nw_gpu_view *v, md_move *m) {
  uint64_t at = cell_offset(c, subtask);
  *m = (md_move){.acc = nw_gpu_view_at(&v[MD_MOVE_ACC], at),
                 .pos = nw_gpu_view_at(&v[MD_MOVE_POS], at),
                 .vel = nw_gpu_view_at(&v[MD_MOVE_VEL], at),
                 .ppc = c->ppc,
                 .dt = c->dt};
}

static void move_particles(const md_move *m, uint64_t first, uint64_t last) {
  for (uint64_t i = first; i < last; i++)
    md_particle_move(m, i);
}

static void move_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  md_move m;
  cpu_move(t->conf, subtask, v, &m);
  move_particles(&m, 0, m.ppc);
}

/* Work-item `item` of `items`: its own band of the cell's particles. */
static void move_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                          const nw_view *v) {
  md_move m;
  cpu_move(t->conf, subtask, v, &m);
  move_particles(&m, m.ppc * (uint64_t)item / (uint64_t)items,
                 m.ppc * (uint64_t)(item + 1) / (uint64_t)items);
}

static void move_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  md_move m;
  gpu_move(t->conf, subtask, v, &m);
  move_particles(&m, 0, m.ppc);
}

static void move_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  md_move m;
  gpu_move(t->conf, subtask, v, &m);
  nw_md_cuda_move(&m, stream);
}

/* 8 flops a particle (md_math.h). */
static double move_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const md_conf *c = t->conf;
  return MD_FLOPS_MOVE * (double)c->ppc;
}

/* The accelerations read, the positions and velocities read and written: 5 x 8 bytes a
 * particle, 0.2 flops per byte. */
static double move_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const md_conf *c = t->conf;
  return 5.0 * (double)md_cell_bytes(c);
}

const nw_task_kind nw_md_integrate_kind = {
    .name = "md-integrate",
    .subscribe = move_subscribe,
    .cpu_kernel = move_cpu,
    .cpu_work_item = move_cpu_item,
    .flops = move_flops,
    .cuda_kernel = move_cuda,
    .gpu_emulated_kernel = move_gpu_emulated,
    .bytes = move_bytes,
};
