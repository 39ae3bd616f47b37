/* gemv_kind.c: the gemv task kind: subscriptions, kernels, cost model (see gemv.h). */
#include <cblas.h>

#include "gemv.h"

#define F ((uint64_t)sizeof(float))

static nw_status gemv_subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t subtask) {
  const gemv_conf *c = t->conf;
  uint64_t row = c->cols * F, first = subtask * c->block;
  nw_status st = nw_subscribe(s, GEMV_A, NW_READ_ONLY, first * row, row, row, c->block);
  if (st == NW_OK)
    st = nw_subscribe(s, GEMV_X, NW_READ_ONLY, 0, row, row, 1);
  if (st == NW_OK)
    st = nw_subscribe(s, GEMV_Y, NW_WRITE_ONLY, first * F, c->block * F, c->block * F, 1);
  return st;
}

/* OpenBLAS on the host (the paper used MKL); any order of additions gives the same bits here. */
static void sgemv_host(const gemv_op *op) {
  cblas_sgemv(CblasRowMajor, CblasNoTrans, op->rows, op->cols, 1.0f, op->a, op->lda, op->x, 1, 0.0f,
              op->y, 1);
}

/* Rows [r0, r1) of the subtask's block, through a CPU view. */
static void cpu_rows(const gemv_conf *c, uint64_t subtask, uint64_t r0, uint64_t r1,
                     const nw_view *v) {
  uint64_t row = c->cols * F, top = subtask * c->block + r0;
  gemv_op op = {.rows = (int)(r1 - r0),
                .cols = (int)c->cols,
                .lda = (int)c->cols,
                .a = nw_view_at(&v[GEMV_A], top * row),
                .x = nw_view_at(&v[GEMV_X], 0),
                .y = nw_view_at(&v[GEMV_Y], top * F)};
  sgemv_host(&op);
}

static void gemv_cpu(const nw_task_info *t, uint64_t subtask, const nw_view *v) {
  const gemv_conf *c = t->conf;
  cpu_rows(c, subtask, 0, c->block, v);
}

/* Work-item `item` of `items` (paper 4.3.1 of the Unicorn paper): its own band of the block's
 * rows; each row's sum is the same as in the whole block's call. */
static void gemv_cpu_item(const nw_task_info *t, uint64_t subtask, int item, int items,
                          const nw_view *v) {
  const gemv_conf *c = t->conf;
  uint64_t r0 = c->block * (uint64_t)item / (uint64_t)items;
  uint64_t r1 = c->block * (uint64_t)(item + 1) / (uint64_t)items;
  if (r1 > r0) /* else more items than rows */
    cpu_rows(c, subtask, r0, r1, v);
}

/* On a GPU each view holds its subscription's rectangle (narwhal.h, nw_gpu_view): the block's
 * rows of A, packed a view pitch apart; x whole; the block's slice of y's one row. */
static void gpu_op(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, gemv_op *op) {
  const gemv_conf *c = t->conf;
  uint64_t first = subtask * c->block;
  *op = (gemv_op){.rows = (int)c->block,
                  .cols = (int)c->cols,
                  .lda = (int)(v[GEMV_A].pitch / F),
                  .a = nw_gpu_view_at(&v[GEMV_A], first * c->cols * F),
                  .x = nw_gpu_view_at(&v[GEMV_X], 0),
                  .y = nw_gpu_view_at(&v[GEMV_Y], first * F)};
}

static void gemv_gpu_emulated(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v) {
  gemv_op op;
  gpu_op(t, subtask, v, &op);
  sgemv_host(&op);
}

static void gemv_cuda(const nw_task_info *t, uint64_t subtask, const nw_gpu_view *v, void *stream) {
  gemv_op op;
  gpu_op(t, subtask, v, &op);
  nw_gemv_cuda_sgemv(&op, stream);
}

static void gemv_cuda_init(void) {
  nw_gemv_cuda_init();
}

/* A multiply and an add per element of the block's rows. */
static double gemv_flops(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const gemv_conf *c = t->conf;
  return 2.0 * (double)c->block * (double)c->cols;
}

/* The block's rows of A, all of x, the block's slice of y: each element moved once. Flops per
 * byte 2bN / 4(bN + N + b), just under 1/2 for any sizes: the paper's "low arithmetic
 * density", bound by memory (and on a GPU by PCIe) wherever it runs. */
static double gemv_bytes(const nw_task_info *t, uint64_t subtask, nw_device_kind kind) {
  (void)subtask;
  (void)kind;
  const gemv_conf *c = t->conf;
  double b = (double)c->block, n = (double)c->cols;
  return (double)F * (b * n + n + b);
}

const nw_task_kind nw_gemv_kind = {
    .name = "gemv",
    .subscribe = gemv_subscribe,
    .cpu_kernel = gemv_cpu,
    .cpu_work_item = gemv_cpu_item,
    .flops = gemv_flops,
    .cuda_kernel = gemv_cuda,
    .gpu_emulated_kernel = gemv_gpu_emulated,
    .cuda_thread_init = gemv_cuda_init,
    .bytes = gemv_bytes,
};
