/* fft2d_kind.c: the 2D FFT's two task kinds, rows then columns (fft2d.h): subscriptions,
 * kernels, cost model. */
#include <math.h>

#include "fft2d.h"

#define E FFT2D_ELEM

static uint64_t row_bytes(const fft2d_conf *c) {
  return c->n * E;
}

/* ---- rows: subtask s reads and writes rows [s b, (s + 1) b) ---- */

static uint64_t rows_at(const fft2d_conf *c, uint64_t s) {
  return s * c->b * row_bytes(c);
}

static nw_status rows_subscribe(nw_subscriber *sub, const nw_task_info *t, uint64_t s) {
  const fft2d_conf *c = t->conf;
  uint64_t row = row_bytes(c);
  nw_status st = nw_subscribe(sub, FFT2D_IN, NW_READ_ONLY, rows_at(c, s), row, row, c->b);
  return st == NW_OK ? nw_subscribe(sub, FFT2D_OUT, NW_WRITE_ONLY, rows_at(c, s), row, row, c->b)
                     : st;
}

static void rows_cpu(const nw_task_info *t, uint64_t s, const nw_view *v) {
  const fft2d_conf *c = t->conf;
  int n = (int)c->n;
  fft2d_rows(n, (int)c->b, nw_view_at(&v[FFT2D_IN], rows_at(c, s)), n,
             nw_view_at(&v[FFT2D_OUT], rows_at(c, s)), n);
}

/* On a GPU each view holds its subscription's rectangle, packed (narwhal.h, nw_gpu_view): the
 * distance between rows is the view's pitch, here whole rows again. */
static void rows_gpu_emulated(const nw_task_info *t, uint64_t s, const nw_gpu_view *v) {
  const fft2d_conf *c = t->conf;
  fft2d_rows((int)c->n, (int)c->b, nw_gpu_view_at(&v[FFT2D_IN], rows_at(c, s)),
             (int)(v[FFT2D_IN].pitch / E), nw_gpu_view_at(&v[FFT2D_OUT], rows_at(c, s)),
             (int)(v[FFT2D_OUT].pitch / E));
}

static void rows_cuda(const nw_task_info *t, uint64_t s, const nw_gpu_view *v, void *stream) {
  const fft2d_conf *c = t->conf;
  nw_fft2d_cuda_rows((int)c->n, (int)c->b, nw_gpu_view_at(&v[FFT2D_IN], rows_at(c, s)),
                     (int)(v[FFT2D_IN].pitch / E), nw_gpu_view_at(&v[FFT2D_OUT], rows_at(c, s)),
                     (int)(v[FFT2D_OUT].pitch / E), stream);
}

/* ---- columns: subtask s reads and writes the stripe [s b, (s + 1) b) of every row ---- */

static uint64_t cols_at(const fft2d_conf *c, uint64_t s) {
  return s * c->b * E;
}

/* One rectangle in the space's pitch: the transposed subscription, no transposed copy. */
static nw_status cols_subscribe(nw_subscriber *sub, const nw_task_info *t, uint64_t s) {
  const fft2d_conf *c = t->conf;
  uint64_t row = row_bytes(c), len = c->b * E;
  nw_status st = nw_subscribe(sub, FFT2D_IN, NW_READ_ONLY, cols_at(c, s), len, row, c->n);
  return st == NW_OK ? nw_subscribe(sub, FFT2D_OUT, NW_WRITE_ONLY, cols_at(c, s), len, row, c->n)
                     : st;
}

/* A CPU view addresses the space itself: points of a column are a whole row apart. */
static void cols_cpu(const nw_task_info *t, uint64_t s, const nw_view *v) {
  const fft2d_conf *c = t->conf;
  int n = (int)c->n;
  fft2d_cols(n, (int)c->b, nw_view_at(&v[FFT2D_IN], cols_at(c, s)), n,
             nw_view_at(&v[FFT2D_OUT], cols_at(c, s)), n);
}

/* A GPU view packs the stripe: points of a column are b elements apart (the view's pitch). */
static void cols_gpu_emulated(const nw_task_info *t, uint64_t s, const nw_gpu_view *v) {
  const fft2d_conf *c = t->conf;
  fft2d_cols((int)c->n, (int)c->b, nw_gpu_view_at(&v[FFT2D_IN], cols_at(c, s)),
             (int)(v[FFT2D_IN].pitch / E), nw_gpu_view_at(&v[FFT2D_OUT], cols_at(c, s)),
             (int)(v[FFT2D_OUT].pitch / E));
}

static void cols_cuda(const nw_task_info *t, uint64_t s, const nw_gpu_view *v, void *stream) {
  const fft2d_conf *c = t->conf;
  nw_fft2d_cuda_cols((int)c->n, (int)c->b, nw_gpu_view_at(&v[FFT2D_IN], cols_at(c, s)),
                     (int)(v[FFT2D_IN].pitch / E), nw_gpu_view_at(&v[FFT2D_OUT], cols_at(c, s)),
                     (int)(v[FFT2D_OUT].pitch / E), stream);
}

/* The usual count for a radix-2 FFT of length n, 5 n log2 n, per transform; b transforms a
 * subtask in both tasks. */
static double fft2d_flops(const nw_task_info *t, uint64_t s, nw_device_kind kind) {
  (void)s;
  (void)kind;
  const fft2d_conf *c = t->conf;
  double n = (double)c->n;
  return (double)c->b * 5.0 * n * log2(n);
}

/* No cpu_work_item: a work-group runs each subtask whole, on one core. */
const nw_task_kind nw_fft2d_rows_kind = {
    .name = "fft2d-rows",
    .subscribe = rows_subscribe,
    .cpu_kernel = rows_cpu,
    .flops = fft2d_flops,
    .cuda_kernel = rows_cuda,
    .gpu_emulated_kernel = rows_gpu_emulated,
};

const nw_task_kind nw_fft2d_cols_kind = {
    .name = "fft2d-cols",
    .subscribe = cols_subscribe,
    .cpu_kernel = cols_cpu,
    .flops = fft2d_flops,
    .cuda_kernel = cols_cuda,
    .gpu_emulated_kernel = cols_gpu_emulated,
};
