/* bag.c: the bag-of-tasks application (bag.h): its kind, arguments and driver. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "bag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CELL ((uint64_t)sizeof(bag_cell))

/* A dependent chain of multiply-adds: flops / 2 steps, each needing the one before, so that
 * neither the compiler nor the processor can skip or overlap them. Exact in every order the
 * runtime may pick, since each subtask's chain is its own. */
double bag_value(uint64_t task, uint64_t subtask, uint64_t flops, double read) {
  double x = (double)(task % 1000) * 1e-3 + (double)(subtask % 1000) * 1e-6 + read;
  for (uint64_t i = 0; i < flops / 2; i++)
    x = x * 0.999999 + 1e-6;
  return x;
}

double bag_input(uint64_t k, uint64_t s) {
  return (double)(k + 1) * 1e-3 + (double)(s % 1000) * 1e-6;
}

/* Bound spaces: the inputs, then the previous task's space (chain), then the task's own. */
static nw_status bag_subscribe(nw_subscriber *sub, const nw_task_info *t, uint64_t s) {
  nw_status st = NW_OK;
  for (int i = 0; st == NW_OK && i < t->nspaces - 1; i++)
    st = nw_subscribe(sub, i, NW_READ_ONLY, s * CELL, CELL, CELL, 1);
  if (st == NW_OK)
    st = nw_subscribe(sub, t->nspaces - 1, NW_WRITE_ONLY, s * CELL, CELL, CELL, 1);
  return st;
}

static void bag_cpu(const nw_task_info *t, uint64_t s, const nw_view *v) {
  const bag_conf *c = t->conf;
  double read = 0;
  for (int i = 0; i < t->nspaces - 1; i++) { /* inputs in order, then the previous task's */
    bag_cell in;
    memcpy(&in, nw_view_at(&v[i], s * CELL), sizeof in);
    read += in.value;
  }
  bag_cell cell = {c->task, s, bag_value(c->task, s, c->flops, read)};
  memcpy(nw_view_at(&v[t->nspaces - 1], s * CELL), &cell, sizeof cell);
  if (c->sleep_us) {
    struct timespec ts = {c->sleep_us / 1000000, (long)(c->sleep_us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0)
      ;
  }
}

/* The same on a modelled GPU's views (the simulator's functional mode): each view holds the
 * subtask's one cell of its space. */
static void bag_gpu_emulated(const nw_task_info *t, uint64_t s, const nw_gpu_view *v) {
  const bag_conf *c = t->conf;
  double read = 0;
  for (int i = 0; i < t->nspaces - 1; i++) {
    bag_cell in;
    memcpy(&in, nw_gpu_view_at(&v[i], s * CELL), sizeof in);
    read += in.value;
  }
  bag_cell cell = {c->task, s, bag_value(c->task, s, c->flops, read)};
  memcpy(nw_gpu_view_at(&v[t->nspaces - 1], s * CELL), &cell, sizeof cell);
}

static double bag_flops(const nw_task_info *t, uint64_t s, nw_device_kind k) {
  (void)s, (void)k;
  return (double)((const bag_conf *)t->conf)->flops;
}

static double bag_bytes(const nw_task_info *t, uint64_t s, nw_device_kind k) {
  (void)s, (void)k;
  return (double)CELL * (double)t->nspaces;
}

const nw_task_kind nw_bag_kind = {.name = "bag-task",
                                  .subscribe = bag_subscribe,
                                  .cpu_kernel = bag_cpu,
                                  .gpu_emulated_kernel = bag_gpu_emulated,
                                  .flops = bag_flops,
                                  .bytes = bag_bytes};

typedef struct bag_params {
  uint64_t flops, chain, sleep_us, inputs;
} bag_params;

static int params_of(const nw_app_args *a, bag_params *p, char *why, size_t len) {
  if (nw_app_param_keys(a, "bag", "flops,chain,sleep_us,inputs", why, len))
    return -1;
  /* inputs: the runtime says so when a task binds more than it allows (no limit here) */
  return nw_app_param_uint(a, "bag", "flops", 0, 1ull << 40, 1000000, &p->flops, why, len) ||
                 nw_app_param_uint(a, "bag", "sleep_us", 0, 10000000, 0, &p->sleep_us, why, len) ||
                 nw_app_param_uint(a, "bag", "inputs", 0, 1 << 20, 0, &p->inputs, why, len) ||
                 nw_app_param_uint(a, "bag", "chain", 0, 1, 0, &p->chain, why, len)
             ? -1
             : 0;
}

static nw_status bag_check(const nw_app_args *a, char *why, size_t len) {
  bag_params p;
  if (params_of(a, &p, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->n > (1u << 24) || a->block == 0 || a->block > (1u << 20)) {
    snprintf(why, len,
             "bag: --n (tasks) from 1 to 2^24 and --block (subtasks per task) from 1 to 2^20");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* Whether every cell of task t's space holds what its subtasks had to write. */
static int task_right(nw_space *x, uint64_t t, uint64_t subtasks, const bag_params *p,
                      bag_cell *cells, const bag_cell *before) {
  if (nw_space_read(x, 0, cells, subtasks * CELL) != NW_OK)
    return 0;
  for (uint64_t s = 0; s < subtasks; s++) {
    double read = 0;
    for (uint64_t k = 0; k < p->inputs; k++) /* the kernel's order of additions */
      read += bag_input(k, s);
    if (p->chain && t > 0)
      read += before[s].value;
    if (cells[s].task != t || cells[s].subtask != s ||
        cells[s].value != bag_value(t, s, p->flops, read))
      return 0;
  }
  return 1;
}

/* The input spaces, filled (functional runs). */
static nw_status make_inputs(nw_runtime *rt, uint64_t k, uint64_t s, nw_space **in) {
  nw_status st = NW_OK;
  bag_cell *cells = nw_runtime_functional(rt) ? malloc(s * CELL) : NULL;
  for (uint64_t i = 0; st == NW_OK && i < k; i++) {
    st = nw_space_create(rt, s * CELL, CELL, &in[i]);
    for (uint64_t c = 0; cells && c < s; c++)
      cells[c] = (bag_cell){0, c, bag_input(i, c)};
    if (st == NW_OK && cells)
      st = nw_space_write(in[i], 0, cells, s * CELL);
  }
  free(cells);
  return st;
}

static nw_status submit(nw_runtime *rt, const bag_params *p, uint64_t t, uint64_t s, nw_space **in,
                        nw_space **x, nw_task **out) {
  bag_conf conf = {t, p->flops, (uint32_t)p->inputs, p->chain && t > 0, (uint32_t)p->sleep_us};
  nw_status st = nw_task_create(rt, &nw_bag_kind, s, &conf, sizeof conf, out);
  for (uint64_t k = 0; st == NW_OK && k < p->inputs; k++)
    st = nw_task_bind(*out, in[k], NW_READ_ONLY);
  if (st == NW_OK && conf.chain)
    st = nw_task_bind(*out, x[t - 1], NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(*out, x[t], NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(*out);
  if (st != NW_OK) {
    nw_task_destroy(*out);
    *out = NULL;
  }
  return st;
}

static nw_status bag_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  bag_params p;
  uint64_t tasks = a->n, s = a->block;
  char why[256];
  if (params_of(a, &p, why, sizeof why))
    return NW_ERR_ARG;
  nw_space **x = calloc(tasks, sizeof *x), **in = calloc(p.inputs ? p.inputs : 1, sizeof *in);
  nw_task **task = calloc(tasks, sizeof *task);
  nw_status st = x && in && task ? NW_OK : NW_ERR_NOMEM;
  out->verified = -1;
  if (st == NW_OK)
    st = make_inputs(rt, p.inputs, s, in);
  for (uint64_t t = 0; st == NW_OK && t < tasks; t++)
    st = nw_space_create(rt, s * CELL, CELL, &x[t]);
  /* All submitted before any wait: the policy sees the whole bag at once. */
  for (uint64_t t = 0; st == NW_OK && t < tasks; t++)
    st = submit(rt, &p, t, s, in, x, &task[t]);
  for (uint64_t t = 0; task && t < tasks; t++)
    if (task[t]) {
      nw_status w = nw_task_wait(task[t]);
      st = st == NW_OK ? w : st;
      nw_task_destroy(task[t]);
    }
  if (st == NW_OK && nw_runtime_functional(rt) && a->verify) {
    bag_cell *cells = malloc(s * CELL), *before = malloc(s * CELL);
    int right = cells && before;
    for (uint64_t t = 0; right && t < tasks; t++) {
      right = task_right(x[t], t, s, &p, cells, before);
      bag_cell *swap = before;
      before = cells, cells = swap;
    }
    out->verified = right;
    free(cells);
    free(before);
  }
  for (uint64_t t = 0; x && t < tasks; t++)
    if (x[t])
      nw_space_destroy(x[t]);
  for (uint64_t k = 0; in && k < p.inputs; k++)
    if (in[k])
      nw_space_destroy(in[k]);
  free(x);
  free(in);
  free(task);
  return st;
}

const nw_app nw_bag_app = {
    .name = "bag",
    .kinds = (const nw_task_kind *const[]){&nw_bag_kind, NULL},
    .check_args = bag_check,
    .main = bag_main,
};
