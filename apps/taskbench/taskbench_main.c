/* taskbench_main.c: the taskbench app's parameters, driver and check (see taskbench.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/steps.h"
#include "taskbench.h"
#include "taskbench_graph.h"

#define CELL ((uint64_t)sizeof(tb_cell))
/* Reads --app-param pattern / iterations into *pattern, *iterations; 0, or -1 with a reason. */
static int tb_params(const nw_app_args *a, int *pattern, uint64_t *iterations, char *why,
                     size_t len) {
  *pattern = TB_STENCIL_1D;
  *iterations = 0;
  for (int i = 0; i < a->nparams; i++) {
    const char *k = a->params[i].key, *v = a->params[i].value;
    if (!strcmp(k, "pattern")) {
      if ((*pattern = tb_pattern_parse(v)) < 0) {
        snprintf(why, len, "taskbench: --app-param pattern=%s: unknown pattern (one of: %s)", v,
                 tb_pattern_names());
        return -1;
      }
    } else if (!strcmp(k, "iterations")) {
      char *end;
      errno = 0;
      unsigned long long u = strtoull(v, &end, 10);
      if (!isdigit((unsigned char)*v) || *end || errno || u > (1ull << 40)) {
        snprintf(why, len,
                 "taskbench: --app-param iterations=%s: not a whole number from 0 to 2^40", v);
        return -1;
      }
      *iterations = u;
    } else {
      snprintf(why, len, "taskbench: --app-param %s: unknown key (pattern, iterations)", k);
      return -1;
    }
  }
  return 0;
}

static nw_status tb_check(const nw_app_args *a, char *why, size_t len) {
  int pattern;
  uint64_t iterations;
  if (tb_params(a, &pattern, &iterations, why, len))
    return NW_ERR_ARG;
  if (a->n == 0 || a->block == 0 || a->n >= (1u << 31) || a->block > (1u << 20)) {
    snprintf(why, len,
             "taskbench: --n (steps) from 1 to 2^31 - 1 and --block (width) from 1 "
             "to 2^20");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

typedef struct tb_run {
  nw_runtime *rt;
  nw_space *const *x;
  taskbench_conf conf; /* step set per task */
} tb_run;

static nw_status submit_step(void *ctx, uint64_t step, nw_task **out) {
  tb_run *r = ctx;
  nw_space *const *x = r->x;
  const taskbench_conf *conf = &r->conf;
  r->conf.step = step;
  nw_status st = nw_task_create(r->rt, &nw_taskbench_kind, conf->width, conf, sizeof *conf, out);
  if (st != NW_OK)
    return st;
  if ((st = nw_task_bind(*out, x[(conf->step - 1) % 2], NW_READ_ONLY)) == NW_OK &&
      (st = nw_task_bind(*out, x[conf->step % 2], NW_WRITE_ONLY)) == NW_OK)
    st = nw_task_submit(*out);
  if (st != NW_OK) { /* never submitted: nothing to wait for */
    nw_task_destroy(*out);
    *out = NULL;
  }
  return st;
}

/* Step 0's cells into x0; with placement spread, in equal blocks over the nodes, as an MPI
 * program would own them. */
static nw_status init_cells(nw_runtime *rt, const nw_app_args *a, nw_space *x0) {
  uint64_t w = a->block;
  nw_status st = NW_OK;
  if (nw_runtime_functional(rt)) {
    tb_cell *cells = malloc(w * CELL);
    if (!cells)
      return NW_ERR_NOMEM;
    for (uint64_t p = 0; p < w; p++)
      tb_cell_init(&cells[p], p);
    st = nw_space_write(x0, 0, cells, w * CELL);
    free(cells);
  }
  uint64_t nodes = (uint64_t)nw_runtime_nodes(rt);
  for (uint64_t node = 1; st == NW_OK && a->spread && node < nodes; node++) {
    uint64_t lo = w * node / nodes, hi = w * (node + 1) / nodes;
    if (hi > lo)
      st = nw_space_place(x0, lo * CELL, CELL, CELL, hi - lo, (int)node);
  }
  return st;
}

static nw_status check_final(nw_space *y, const taskbench_conf *c, uint64_t steps, int *same) {
  tb_cell *got = malloc(c->width * CELL), *want = malloc(c->width * CELL);
  nw_status st = got && want ? NW_OK : NW_ERR_NOMEM;
  if (st == NW_OK)
    st = nw_space_read(y, 0, got, c->width * CELL);
  if (st == NW_OK && tb_reference(c->pattern, c->width, steps, c->iterations, want))
    st = NW_ERR_NOMEM;
  *same = 1;
  for (uint64_t p = 0; st == NW_OK && p < c->width; p++)
    if (memcmp(&got[p], &want[p], sizeof got[p]) != 0) {
      if (*same)
        fprintf(stderr,
                "taskbench: cell %llu differs from the reference (step %u, hash %08x; "
                "wanted step %u, hash %08x)\n",
                (unsigned long long)p, got[p].step, got[p].hash, want[p].step, want[p].hash);
      *same = 0;
    }
  free(got);
  free(want);
  return st;
}

static nw_status tb_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  taskbench_conf conf = {.width = a->block};
  if (tb_params(a, &conf.pattern, &conf.iterations, why, sizeof why))
    return NW_ERR_ARG; /* tb_check has said why */
  uint64_t steps = a->n;
  out->verified = -1;
  nw_space *x[2] = {NULL, NULL};
  nw_status st = NW_OK;
  for (int k = 0; k < 2 && st == NW_OK; k++)
    st = nw_space_create(rt, conf.width * CELL, CELL, &x[k]);
  if (st == NW_OK)
    st = init_cells(rt, a, x[0]);
  tb_run run = {rt, x, conf};
  if (st == NW_OK)
    st = nw_app_run_steps(steps, submit_step, &run);
  if (st == NW_OK && nw_runtime_functional(rt) && a->verify != 0) {
    int same = 0;
    st = check_final(x[steps % 2], &conf, steps, &same);
    out->verified = st == NW_OK && same;
  }
  for (int k = 0; k < 2; k++)
    if (x[k])
      nw_space_destroy(x[k]);
  return st;
}

const nw_app nw_taskbench_app = {
    .name = "taskbench",
    .kinds = (const nw_task_kind *const[]){&nw_taskbench_kind, NULL},
    .check_args = tb_check,
    .main = tb_main,
};
