/* mdlite_kind.c: the mdlite task kind: subscriptions, kernels, cost model (see mdlite.h).
 * No work-items: a group is at most 32 particles, too small to split over cores. */
#include "mdlite.h"
#include "narwhal_mtc.h"

#define P ((uint64_t)sizeof(mdlite_particle))

static nw_status mdlite_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const mdlite_conf *c = t->conf;
  uint64_t at = subtask * c->block * P, len = c->block * P, row = c->n * P;
  nw_status st = nw_subscribe(s, MDLITE_IN, NW_READ_ONLY, at, len, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, MDLITE_OUT, NW_WRITE_ONLY, at, len, row, 1);
  return st;
}

/* The host's segment, on a CPU's views and on a modelled GPU's bytes alike: the worker
 * kernel's own operation (narwhal_mtc.h), so that the CUDA kernels' order is the host's. */
static void segment_host(const mdlite_group *g) {
  nw_mtc_md_segment_host(g->in, g->out, g->count, g->steps);
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

/* Many-task mode: the worker kernel's MDLite operation, a warp per group (narwhal_mtc.h). */
static int mdlite_mtc(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                      nw_mtc_task *task) {
  mdlite_group g;
  gpu_group(t, subtask, v, &g);
  *task = (nw_mtc_task){
      .op = NW_MTC_MDLITE, .count = g.count, .steps = g.steps, .in = {g.in}, .out = g.out};
  return 0;
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
    .mtc_task = mdlite_mtc,
};
