/* lu_main.c: the LU application's arguments, driver and check (see lu.h).
 *
 * The paper spawns one task per diagonal block, which runs the step's other tasks inside it
 * (nested tasks, Beri et al., "Unicorn: a programming model and runtime for hybrid CPU-GPU
 * clusters", IEEE TPDS, section 5.1): here the diagonal task of step k (lu-step) factorises
 * the block, and its spawn callback submits the panel and update tasks nested in it. The
 * driver submits all steps at once and waits: each step binds the matrix read-write, so it
 * starts when the step before it, nested tasks included, has completed. With nested=0 the
 * driver runs the three tasks of each step itself, waiting for each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "../common/run_task.h"
#include "lu.h"
#include "lu_ref.h"

#define F ((uint64_t)sizeof(float))

static nw_status lu_params(const nw_app_args *a, uint64_t *nested, char *why, size_t len) {
  if (nw_app_param_keys(a, "lu", "nested", why, len) != 0 ||
      nw_app_param_uint(a, "lu", "nested", 0, 1, 1, nested, why, len) != 0)
    return NW_ERR_ARG;
  return NW_OK;
}

static nw_status lu_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t nested;
  if (lu_params(a, &nested, why, len) != NW_OK)
    return NW_ERR_ARG;
  return nw_app_check_grid("lu", a, why, len);
}

/* The panel and update tasks of step conf->k, bound to the matrix m and the side spaces d, r
 * and c; the bindings follow the kinds' space indices (lu.h). */
static void later_bindings(nw_space *m, nw_space *d, nw_space *r, nw_space *c,
                           nw_app_binding panel[4], nw_app_binding update[3]) {
  panel[0] = (nw_app_binding){.space = m, .access = NW_READ_WRITE};
  panel[1] = (nw_app_binding){.space = d, .access = NW_READ_ONLY};
  panel[2] = (nw_app_binding){.space = r, .access = NW_WRITE_ONLY};
  panel[3] = (nw_app_binding){.space = c, .access = NW_WRITE_ONLY};
  update[0] = (nw_app_binding){.space = m, .access = NW_READ_WRITE};
  update[1] = (nw_app_binding){.space = r, .access = NW_READ_ONLY};
  update[2] = (nw_app_binding){.space = c, .access = NW_READ_ONLY};
}

static uint64_t blocks_left(const lu_conf *conf) {
  return conf->n / conf->b - conf->k - 1;
}

/* Step k run by the driver: its three tasks one after the other (only the first for the last
 * block). */
static nw_status step(nw_runtime *rt, const lu_conf *conf, nw_space *m, nw_space *d, nw_space *r,
                      nw_space *c) {
  uint64_t rest = blocks_left(conf);
  nw_app_binding diag[] = {{.space = m, .access = NW_READ_WRITE},
                           {.space = d, .access = NW_WRITE_ONLY}};
  nw_app_binding panel[4], update[3];
  later_bindings(m, d, r, c, panel, update);
  nw_status st = nw_app_run_task(rt, &nw_lu_diag_kind, 1, conf, sizeof *conf, diag, 2);
  if (st == NW_OK && rest > 0)
    st = nw_app_run_task(rt, &nw_lu_panel_kind, 2 * rest, conf, sizeof *conf, panel, 4);
  if (st == NW_OK && rest > 0)
    st = nw_app_run_task(rt, &nw_lu_update_kind, rest * rest, conf, sizeof *conf, update, 3);
  return st;
}

nw_status lu_step_spawn(nw_task *self, const nw_task_info *t) {
  const lu_conf *conf = t->conf;
  uint64_t rest = blocks_left(conf);
  if (rest == 0)
    return NW_OK;
  nw_app_binding panel[4], update[3];
  later_bindings(nw_task_space(self, LU_DIAG_M), nw_task_space(self, LU_DIAG_D),
                 nw_task_space(self, LU_STEP_R), nw_task_space(self, LU_STEP_C), panel, update);
  /* Submitted together: the update reads R and C, which the panels write, so it waits. */
  nw_status st =
      nw_app_submit_nested(self, &nw_lu_panel_kind, 2 * rest, conf, sizeof *conf, panel, 4);
  if (st == NW_OK)
    st = nw_app_submit_nested(self, &nw_lu_update_kind, rest * rest, conf, sizeof *conf, update, 3);
  return st;
}

/* Every step submitted at once, each an lu-step task that nests the step's other two. */
static nw_status nested_steps(nw_runtime *rt, uint64_t n, uint64_t b, nw_space *m, nw_space *d,
                              nw_space *r, nw_space *c) {
  uint64_t nb = n / b;
  nw_task **steps = calloc(nb, sizeof *steps);
  if (!steps)
    return NW_ERR_NOMEM;
  nw_status st = NW_OK;
  uint64_t submitted = 0;
  for (uint64_t k = 0; k < nb && st == NW_OK; k++) {
    lu_conf conf = {n, b, k};
    st = nw_task_create(rt, &nw_lu_step_kind, 1, &conf, sizeof conf, &steps[k]);
    nw_space *bound[] = {m, d, r, c};
    nw_access access[] = {NW_READ_WRITE, NW_WRITE_ONLY, NW_WRITE_ONLY, NW_WRITE_ONLY};
    for (int i = 0; i < 4 && st == NW_OK; i++)
      st = nw_task_bind(steps[k], bound[i], access[i]);
    if (st == NW_OK)
      st = nw_task_submit(steps[k]);
    submitted += st == NW_OK;
  }
  for (uint64_t k = 0; k < submitted; k++) { /* waits for all, even after a failure */
    nw_status w = nw_task_wait(steps[k]);
    if (st == NW_OK)
      st = w;
  }
  for (uint64_t k = 0; k < nb; k++)
    nw_task_destroy(steps[k]);
  free(steps);
  return st;
}

/* Compares the factors in space m with the reference's, computed from `a` (replaced): bit for
 * bit, except where `native` (CUDA kernels ran on a GPU), where lu_accept_rounded judges. */
static nw_status check(nw_space *m, float *a, uint64_t n, uint64_t b, int native, int *equal) {
  float *got = malloc(n * n * F), *orig = native ? malloc(n * n * F) : NULL;
  nw_status st = got && (orig || !native) ? nw_space_read(m, 0, got, n * n * F) : NW_ERR_NOMEM;
  if (st == NW_OK && orig)
    memcpy(orig, a, n * n * F);
  if (st == NW_OK && lu_reference(a, n, b) != 0)
    st = NW_ERR_NOMEM;
  if (st == NW_OK) {
    *equal = memcmp(got, a, n * n * F) == 0;
    uint64_t differ = 0, first = 0;
    double worst = 0.0;
    for (uint64_t e = 0; !*equal && e < n * n; e++)
      if (memcmp(&got[e], &a[e], F) != 0) {
        if (differ++ == 0)
          first = e;
        double rel = (double)(got[e] - a[e]) / (double)a[e];
        worst = rel < 0 ? (-rel > worst ? -rel : worst) : (rel > worst ? rel : worst);
      }
    /* A real GPU's cuBLAS rounds otherwise than OpenBLAS: a small relative difference there
     * is rounding, a large one a wrong or stale block. */
    if (differ)
      fprintf(stderr,
              "lu: element (%llu, %llu) is %.9g, the reference %.9g (%llu of %llu differ, by at "
              "most %.3g relative)\n",
              (unsigned long long)(first / n), (unsigned long long)(first % n), (double)got[first],
              (double)a[first], (unsigned long long)differ, (unsigned long long)(n * n), worst);
    if (differ && native) {
      double mine, ref, bound;
      *equal = lu_accept_rounded(orig, got, a, n, &mine, &ref, &bound);
      fprintf(
          stderr,
          "lu: CUDA kernels ran: residual max|(LU - A) x| / max(|A| |x|) is %.3g, the reference's "
          "%.3g, the bound %.3g: %s\n",
          mine, ref, bound, *equal ? "accepted" : "rejected");
    }
  }
  free(got);
  free(orig);
  return st;
}

static nw_status lu_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  uint64_t n = args->n, b = args->block;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *m = NULL, *d = NULL, *r = NULL, *c = NULL;
  float *a = NULL;
  nw_status st = nw_space_create(rt, n * n * F, n * F, &m);
  if (st == NW_OK)
    st = nw_space_create(rt, b * b * F, b * F, &d);
  if (st == NW_OK)
    st = nw_space_create(rt, n * b * F, b * F, &r);
  if (st == NW_OK)
    st = nw_space_create(rt, n * b * F, b * F, &c);
  if (st == NW_OK && functional) {
    a = malloc(n * n * F);
    st = a ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      lu_fill_input(a, n, args->seed);
      st = nw_space_write(m, 0, a, n * n * F);
    }
  }
  /* Only the matrix is an input; D, R and C are written before they are read. */
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_place_pixel_blocks(rt, m, n, b, F, args->seed, args->placement);
  uint64_t nested = 1;
  char why[200];
  if (st == NW_OK)
    st = lu_params(args, &nested, why, sizeof why);
  if (st == NW_OK && nested)
    st = nested_steps(rt, n, b, m, d, r, c);
  for (uint64_t k = 0; k < n / b && st == NW_OK && !nested; k++) {
    lu_conf conf = {n, b, k};
    st = step(rt, &conf, m, d, r, c);
  }
  if (st == NW_OK && functional && args->verify != 0) {
    int equal = 0;
    st = check(m, a, n, b, nw_runtime_native_gpus(rt), &equal);
    out->verified = equal;
  }
  nw_space_destroy(m);
  nw_space_destroy(d);
  nw_space_destroy(r);
  nw_space_destroy(c);
  free(a);
  return st;
}

const nw_app nw_lu_app = {
    .name = "lu",
    .kinds = (const nw_task_kind *const[]){&nw_lu_diag_kind, &nw_lu_panel_kind, &nw_lu_update_kind,
                                           &nw_lu_step_kind, NULL},
    .check_args = lu_check,
    .main = lu_main,
};
