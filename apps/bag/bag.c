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

static nw_status bag_subscribe(nw_subscriber *sub, const nw_task_info *t, uint64_t s) {
  const bag_conf *c = t->conf;
  int out = c->chain && t->nspaces > 1 ? 1 : 0;
  nw_status st = NW_OK;
  if (out)
    st = nw_subscribe(sub, 0, NW_READ_ONLY, s * CELL, CELL, CELL, 1);
  if (st == NW_OK)
    st = nw_subscribe(sub, out, NW_WRITE_ONLY, s * CELL, CELL, CELL, 1);
  return st;
}

static void bag_cpu(const nw_task_info *t, uint64_t s, const nw_view *v) {
  const bag_conf *c = t->conf;
  int out = c->chain && t->nspaces > 1 ? 1 : 0;
  double read = 0;
  if (out) {
    bag_cell in;
    memcpy(&in, nw_view_at(&v[0], s * CELL), sizeof in);
    read = in.value;
  }
  bag_cell cell = {c->task, s, bag_value(c->task, s, c->flops, read)};
  memcpy(nw_view_at(&v[out], s * CELL), &cell, sizeof cell);
  if (c->sleep_us) {
    struct timespec ts = {c->sleep_us / 1000000, (long)(c->sleep_us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0)
      ;
  }
}

static double bag_flops(const nw_task_info *t, uint64_t s, nw_device_kind k) {
  (void)s, (void)k;
  return (double)((const bag_conf *)t->conf)->flops;
}

static double bag_bytes(const nw_task_info *t, uint64_t s, nw_device_kind k) {
  (void)s, (void)k;
  return (double)CELL * (((const bag_conf *)t->conf)->chain ? 2 : 1);
}

const nw_task_kind nw_bag_kind = {.name = "bag-task",
                                  .subscribe = bag_subscribe,
                                  .cpu_kernel = bag_cpu,
                                  .flops = bag_flops,
                                  .bytes = bag_bytes};

static int bag_params(const nw_app_args *a, uint64_t *flops, uint64_t *chain, uint64_t *sleep_us,
                      char *why, size_t len) {
  if (nw_app_param_keys(a, "bag", "flops,chain,sleep_us", why, len))
    return -1;
  if (nw_app_param_uint(a, "bag", "flops", 0, 1ull << 40, 1000000, flops, why, len) ||
      nw_app_param_uint(a, "bag", "sleep_us", 0, 10000000, 0, sleep_us, why, len))
    return -1;
  return nw_app_param_uint(a, "bag", "chain", 0, 1, 0, chain, why, len);
}

static nw_status bag_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t flops, chain, sleep_us;
  if (bag_params(a, &flops, &chain, &sleep_us, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->n > (1u << 24) || a->block == 0 || a->block > (1u << 20)) {
    snprintf(why, len,
             "bag: --n (tasks) from 1 to 2^24 and --block (subtasks per task) from 1 to 2^20");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* Whether every cell of task t's space holds what its subtasks had to write. */
static int task_right(nw_space *x, uint64_t t, uint64_t subtasks, uint64_t flops, int chain,
                      bag_cell *cells, bag_cell *before) {
  if (nw_space_read(x, 0, cells, subtasks * CELL) != NW_OK)
    return 0;
  for (uint64_t s = 0; s < subtasks; s++) {
    double read = chain && t > 0 ? before[s].value : 0;
    if (cells[s].task != t || cells[s].subtask != s ||
        cells[s].value != bag_value(t, s, flops, read))
      return 0;
  }
  return 1;
}

static nw_status bag_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t flops = 0, chain = 0, sleep_us = 0, tasks = a->n, s = a->block;
  char why[256];
  if (bag_params(a, &flops, &chain, &sleep_us, why, sizeof why))
    return NW_ERR_ARG;
  nw_space **x = calloc(tasks, sizeof *x);
  nw_task **task = calloc(tasks, sizeof *task);
  nw_status st = x && task ? NW_OK : NW_ERR_NOMEM;
  out->verified = -1;
  for (uint64_t t = 0; st == NW_OK && t < tasks; t++)
    st = nw_space_create(rt, s * CELL, CELL, &x[t]);
  /* All submitted before any wait: the policy sees the whole bag at once. */
  for (uint64_t t = 0; st == NW_OK && t < tasks; t++) {
    bag_conf conf = {t, flops, chain && t > 0, (uint32_t)sleep_us};
    st = nw_task_create(rt, &nw_bag_kind, s, &conf, sizeof conf, &task[t]);
    if (st == NW_OK && conf.chain)
      st = nw_task_bind(task[t], x[t - 1], NW_READ_ONLY);
    if (st == NW_OK)
      st = nw_task_bind(task[t], x[t], NW_WRITE_ONLY);
    if (st == NW_OK)
      st = nw_task_submit(task[t]);
    if (st != NW_OK) {
      nw_task_destroy(task[t]);
      task[t] = NULL;
    }
  }
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
      right = task_right(x[t], t, s, flops, (int)chain, cells, before);
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
  free(x);
  free(task);
  return st;
}

const nw_app nw_bag_app = {
    .name = "bag",
    .kinds = (const nw_task_kind *const[]){&nw_bag_kind, NULL},
    .check_args = bag_check,
    .main = bag_main,
};
