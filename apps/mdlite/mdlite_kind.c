/* mdlite_kind.c: the mdlite task kind: subscriptions, kernels, cost model (see mdlite.h).
 * No work-items: a group is at most 32 particles, too small to split over cores. */
#include <string.h>

#include "mdlite.h"
#include "mdlite_math.h"

#define P ((uint64_t)sizeof(mdlite_particle))

static nw_status mdlite_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const mdlite_conf *c = t->conf;
  uint64_t at = subtask * c->block * P, len = c->block * P, row = c->n * P;
  nw_status st = nw_subscribe(s, MDLITE_IN, NW_READ_ONLY, at, len, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, MDLITE_OUT, NW_WRITE_ONLY, at, len, row, 1);
  return st;
}

/* The host's segment, on a CPU's views and on a modelled GPU's bytes alike: the group moves in
 * `out`, each step's forces taken from a copy of the positions at its start (the CUDA kernel's
 * shared arrays), particle j's pull on i added for j = 0, 1, ... skipping i. */
static void segment_host(const mdlite_group *g) {
  float x[MDLITE_GROUP_MAX], y[MDLITE_GROUP_MAX];
  mdlite_particle *p = g->out;
  memcpy(p, g->in, g->count * sizeof *p);
  for (uint64_t s = 0; s < g->steps; s++) {
    for (uint32_t i = 0; i < g->count; i++) {
      x[i] = p[i].x;
      y[i] = p[i].y;
    }
    for (uint32_t i = 0; i < g->count; i++) {
      float fx = 0.0f, fy = 0.0f;
      for (uint32_t j = 0; j < g->count; j++)
        if (j != i)
          mtc_md_pull(x[i], y[i], x[j], y[j], &fx, &fy);
      mtc_md_move(&p[i].x, &p[i].y, &p[i].vx, &p[i].vy, fx, fy);
    }
  }
}

static void mdlite_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const mdlite_conf *c = t->conf;
  uint64_t at = subtask * c->block * P;
  mdlite_group g = {.in = nw_view_at(&v[MDLITE_IN], at),
                    .out = nw_view_at(&v[MDLITE_OUT], at),
                    .count = (uint32_t)c->block,
                    .steps = c->steps};
  segment_host(&g);
}

/* On a GPU each view holds its subscription's one segment (narwhal.h, nw_gpu_view). The
 * pointers are device pointers on a CUDA GPU, host ones for the emulation. */
static void gpu_group(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                      mdlite_group *g) {
  const mdlite_conf *c = t->conf;
  uint64_t at = subtask * c->block * P;
  *g = (mdlite_group){.in = nw_gpu_view_at(&v[MDLITE_IN], at),
                      .out = nw_gpu_view_at(&v[MDLITE_OUT], at),
                      .count = (uint32_t)c->block,
                      .steps = c->steps};
}

static void mdlite_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  mdlite_group g;
  gpu_group(t, subtask, v, &g);
  segment_host(&g);
}

static void mdlite_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                        void *stream) {
  mdlite_group g;
  gpu_group(t, subtask, v, &g);
  nw_mdlite_cuda_segment(&g, stream);
}

/* Per step, block (block - 1) pulls and block moves (mdlite.h counts their flops): about
 * 12 steps block^2, 8 steps at block 1. */
static double mdlite_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const mdlite_conf *c = t->conf;
  double b = (double)c->block;
  return (double)c->steps * b * (MDLITE_FLOPS_PULL * (b - 1.0) + MDLITE_FLOPS_MOVE);
}

/* The group's particles read once and written once, whatever the steps: 32 bytes a particle,
 * so compute-bound from a few steps on. */
static double mdlite_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const mdlite_conf *c = t->conf;
  return 2.0 * (double)P * (double)c->block;
}

/* The CUDA kernel is one thread block of a thread per particle (mdlite_cuda.cu): at most one
 * warp, GeMTC's worker. */
static uint64_t mdlite_gpu_threads(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  const mdlite_conf *c = t->conf;
  return c->block;
}

const nw_task_kind nw_mdlite_kind = {
    .name = "mdlite",
    .subscribe = mdlite_subscribe,
    .cpu_kernel = mdlite_cpu,
    .flops = mdlite_flops,
    .cuda_kernel = mdlite_cuda,
    .gpu_emulated_kernel = mdlite_gpu_emulated,
    .bytes = mdlite_bytes,
    .gpu_threads = mdlite_gpu_threads,
};
