/* taskbench_kind.c: the task kind of the taskbench app: one subtask = one point of a step. */
#include "taskbench.h"

#include <string.h>

#include "taskbench_graph.h"

#define CELL ((uint64_t)sizeof(tb_cell))

static nw_status tb_sub(nw_subscriber *sub, const nw_task_info *t, uint64_t p) {
  const taskbench_conf *c = t->conf;
  uint64_t n = tb_ndeps(c->pattern, c->width, p);
  nw_status st = NW_OK;
  if (n && tb_deps_contiguous(c->pattern)) /* one rectangle: a few directory entries */
    st = nw_subscribe(sub, 0, NW_READ_ONLY, tb_dep(c->pattern, c->width, p, 0) * CELL, CELL, CELL,
                      n);
  else
    for (uint64_t k = 0; k < n && st == NW_OK; k++)
      st = nw_subscribe(sub, 0, NW_READ_ONLY, tb_dep(c->pattern, c->width, p, k) * CELL, CELL, CELL,
                        1);
  if (st == NW_OK)
    st = nw_subscribe(sub, 1, NW_WRITE_ONLY, p * CELL, CELL, CELL, 1);
  return st;
}

static void tb_cpu(const nw_task_info *t, uint64_t p, const nw_view *v) {
  const taskbench_conf *c = t->conf;
  tb_state s;
  tb_task_begin(&s, c->step, p);
  for (uint64_t k = 0, n = tb_ndeps(c->pattern, c->width, p); k < n; k++) {
    tb_cell in; /* views need not be aligned for tb_cell */
    memcpy(&in, nw_view_at(&v[0], tb_dep(c->pattern, c->width, p, k) * CELL), sizeof in);
    tb_task_add(&s, &in);
  }
  tb_cell out;
  tb_task_finish(&s, c->step, p, c->iterations, &out);
  memcpy(nw_view_at(&v[1], p * CELL), &out, sizeof out);
}

/* The kernel's own count, so the simulator charges the compute loop as well as the runtime. */
static double tb_flops(const nw_task_info *t, uint64_t p, nw_device_kind k) {
  (void)k;
  const taskbench_conf *c = t->conf;
  return tb_task_flops(tb_ndeps(c->pattern, c->width, p), c->iterations);
}

const nw_task_kind nw_taskbench_kind = {
    .name = "taskbench-step", .subscribe = tb_sub, .cpu_kernel = tb_cpu, .flops = tb_flops};
