/* adder_kind.c: the adder task kind: subscriptions, kernels, cost model (see adder.h). */
#include "adder.h"
#include "adder_kernels.h"
#include "narwhal_mtc.h"

#define W ((uint64_t)sizeof(uint64_t))

static nw_status adder_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const adder_conf *c = t->conf;
  uint64_t at = subtask * c->block * W, len = c->block * W, row = c->n * W;
  nw_status st = nw_subscribe(s, ADDER_A, NW_READ_ONLY, at, len, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, ADDER_B, NW_READ_ONLY, at, len, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, ADDER_C, NW_WRITE_ONLY, at, len, row, 1);
  return st;
}

/* The host's loop: on a CPU's views and on a modelled GPU's bytes alike. */
static void add_host(const adder_op *op) {
  for (uint64_t i = 0; i < op->count; i++)
    op->c[i] = op->a[i] + op->b[i];
}

/* Elements [e0, e1) of the subtask's block, through a CPU view. */
static void cpu_range(const adder_conf *c, uint64_t subtask, uint64_t e0, uint64_t e1,
                      const nw_view *v) {
  uint64_t at = (subtask * c->block + e0) * W;
  adder_op op = {.a = nw_view_at(&v[ADDER_A], at),
                 .b = nw_view_at(&v[ADDER_B], at),
                 .c = nw_view_at(&v[ADDER_C], at),
                 .count = e1 - e0};
  add_host(&op);
}

static void adder_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const adder_conf *c = t->conf;
  cpu_range(c, subtask, 0, c->block, v);
}

/* Work-item `item` of `items`: its own band of the block's elements. */
static void adder_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                           const nw_view *v) {
  const adder_conf *c = t->conf;
  uint64_t e0 = c->block * (uint64_t)item / (uint64_t)items;
  uint64_t e1 = c->block * (uint64_t)(item + 1) / (uint64_t)items;
  if (e1 > e0) /* else more items than elements */
    cpu_range(c, subtask, e0, e1, v);
}

/* On a GPU each view holds its subscription's one segment (narwhal.h, nw_gpu_view). The
 * pointers are device pointers on a CUDA GPU, host ones for the emulation. */
static void gpu_op(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, adder_op *op) {
  const adder_conf *c = t->conf;
  uint64_t at = subtask * c->block * W;
  *op = (adder_op){.a = nw_gpu_view_at(&v[ADDER_A], at),
                   .b = nw_gpu_view_at(&v[ADDER_B], at),
                   .c = nw_gpu_view_at(&v[ADDER_C], at),
                   .count = c->block};
}

static void adder_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  adder_op op;
  gpu_op(t, subtask, v, &op);
  add_host(&op);
}

static void adder_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                       void *stream) {
  adder_op op;
  gpu_op(t, subtask, v, &op);
  nw_adder_cuda_add(&op, stream);
}

/* What --app-param flops says (default: one addition an element): the knob that sets a
 * subtask's modelled duration apart from its data (adder.h). */
static double adder_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const adder_conf *c = t->conf;
  return (double)c->flops;
}

/* The block's elements of A and B read, of C written: 24 bytes an element. */
static double adder_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const adder_conf *c = t->conf;
  return 3.0 * (double)W * (double)c->block;
}

/* The CUDA kernel runs a thread per element of the block (adder_cuda.cu): a block of 32 is one
 * warp, GeMTC's task size, which a launch of its own gives one warp's share of the GPU. */
static uint64_t adder_gpu_threads(const nw_task_info *t, uint64_t subtask) {
  (void)subtask;
  const adder_conf *c = t->conf;
  return c->block;
}

/* Many-task mode: the worker kernel's block adder, a warp per subtask (narwhal_mtc.h). */
static int adder_mtc(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v,
                     nw_mtc_task *task) {
  adder_op op;
  gpu_op(t, subtask, v, &op);
  *task = (nw_mtc_task){.op = NW_MTC_ADD_U64, .count = op.count, .in = {op.a, op.b}, .out = op.c};
  return 0;
}

const nw_task_kind nw_adder_kind = {
    .name = "adder",
    .subscribe = adder_subscribe,
    .cpu_kernel = adder_cpu,
    .cpu_work_item = adder_cpu_item,
    .flops = adder_flops,
    .cuda_kernel = adder_cuda,
    .gpu_emulated_kernel = adder_gpu_emulated,
    .bytes = adder_bytes,
    .gpu_threads = adder_gpu_threads,
    .mtc_task = adder_mtc,
};
