/* stencil_app.c: see stencil_app.h. */
#include "stencil_app.h"

#include <string.h>

/* Rows x cols floats; init writes Y[i][j] = i*cols + j, smooth does
 * Y'[i] = Y[i-1] + Y[i] + Y[i+1] (clamped at the edges) in place, read-write. */
typedef struct stencil_conf {
  uint64_t rows, cols;
} stencil_conf;

static nw_status init_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const stencil_conf *c = t->conf;
  uint64_t row = c->cols * sizeof(float);
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * row, row, row, 1);
}

static void init_cpu(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const stencil_conf *c = t->conf;
  float *y = nw_view_at(&v[0], i * c->cols * sizeof(float));
  for (uint64_t j = 0; j < c->cols; j++)
    y[j] = (float)(i * c->cols + j);
}

static nw_status smooth_sub(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const stencil_conf *c = t->conf;
  uint64_t row = c->cols * sizeof(float);
  uint64_t lo = i > 0 ? i - 1 : 0, hi = i + 1 < c->rows ? i + 1 : i;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, lo * row, row, row, hi - lo + 1);
  return st == NW_OK ? nw_subscribe(s, 0, NW_WRITE_ONLY, i * row, row, row, 1) : st;
}

static void smooth_cpu(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const stencil_conf *c = t->conf;
  uint64_t row = c->cols * sizeof(float);
  uint64_t lo = i > 0 ? i - 1 : 0, hi = i + 1 < c->rows ? i + 1 : i;
  float sum[64];
  for (uint64_t j = 0; j < c->cols; j++) {
    sum[j] = 0;
    for (uint64_t k = lo; k <= hi; k++)
      sum[j] += ((const float *)nw_view_at(&v[0], k * row))[j];
  }
  memcpy(nw_view_at(&v[0], i * row), sum, row);
}

static double unit_flops(const nw_task_info *t, uint64_t i, nw_device_kind k) {
  (void)t, (void)i, (void)k;
  return 1e6;
}

static const nw_task_kind init_kind = {
    .name = "stencil-init", .subscribe = init_sub, .cpu_kernel = init_cpu, .flops = unit_flops};
/* Rows with a larger i % 3 first, for the policies that order by priority (prio, dmdas);
 * the others ignore it. */
static int smooth_priority(const nw_task_info *t, uint64_t i) {
  (void)t;
  return (int)(i % 3);
}

static const nw_task_kind smooth_kind = {.name = "stencil-smooth",
                                         .subscribe = smooth_sub,
                                         .cpu_kernel = smooth_cpu,
                                         .flops = unit_flops,
                                         .priority = smooth_priority};

enum { ROWS = STENCIL_ROWS, COLS = 16, STEPS = STENCIL_STEPS };

static nw_status stencil_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)a;
  stencil_conf conf = {ROWS, COLS};
  nw_space *y;
  nw_status st = nw_space_create(rt, ROWS * COLS * sizeof(float), COLS * sizeof(float), &y);
  nw_task *t;
  if (st == NW_OK)
    st = nw_task_create(rt, &init_kind, ROWS, &conf, sizeof conf, &t);
  if (st == NW_OK && (st = nw_task_bind(t, y, NW_WRITE_ONLY)) == NW_OK &&
      (st = nw_task_submit(t)) == NW_OK)
    st = nw_task_wait(t);
  nw_task_destroy(t);
  for (int step = 0; st == NW_OK && step < STEPS; step++) {
    st = nw_task_create(rt, &smooth_kind, ROWS, &conf, sizeof conf, &t);
    if (st == NW_OK && (st = nw_task_bind(t, y, NW_READ_WRITE)) == NW_OK &&
        (st = nw_task_submit(t)) == NW_OK)
      st = nw_task_wait(t);
    nw_task_destroy(t);
  }
  float got[ROWS][COLS], ref[ROWS][COLS], next[ROWS][COLS];
  if (st == NW_OK)
    st = nw_space_read(y, 0, got, sizeof got);
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      ref[i][j] = (float)(i * COLS + j);
  for (int step = 0; step < STEPS; step++) {
    for (int i = 0; i < ROWS; i++)
      for (int j = 0; j < COLS; j++) {
        int lo = i > 0 ? i - 1 : 0, hi = i + 1 < ROWS ? i + 1 : i;
        next[i][j] = 0;
        for (int k = lo; k <= hi; k++)
          next[i][j] += ref[k][j];
      }
    memcpy(ref, next, sizeof ref);
  }
  out->verified = st == NW_OK && memcmp(got, ref, sizeof got) == 0;
  nw_space_destroy(y);
  return st;
}

const nw_app nw_test_stencil_app = {
    "stencil", (const nw_task_kind *const[]){&init_kind, &smooth_kind, NULL}, NULL, stencil_main};
