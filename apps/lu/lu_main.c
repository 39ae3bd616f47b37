/* lu_main.c: the LU application's arguments, driver and check (see lu.h).
 *
 * The paper spawns one task per diagonal block, which runs the step's three tasks inside it
 * (nested tasks, Beri et al., "Unicorn: a programming model and runtime for hybrid CPU-GPU
 * clusters", IEEE TPDS, section 5.1). Nested tasks are still pending in the runtime, so the
 * driver submits the three itself, in order, waiting for each: each reads what the one before
 * it wrote, so none could start earlier anyway.
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

static nw_status lu_check(const nw_app_args *a, char *why, size_t len) {
  if (a->nparams > 0) {
    snprintf(why, len, "lu: --app-param %s: lu takes no app parameters", a->params[0].key);
    return NW_ERR_ARG;
  }
  return nw_app_check_grid("lu", a, why, len);
}

/* Step k: the three tasks of diagonal block k (only the first for the last block). The
 * bindings follow the kinds' space indices (lu.h). */
static nw_status step(nw_runtime *rt, const lu_conf *conf, nw_space *m, nw_space *d, nw_space *r,
                      nw_space *c) {
  uint64_t rest = conf->n / conf->b - conf->k - 1;
  nw_app_binding diag[] = {{.space = m, .access = NW_READ_WRITE},
                           {.space = d, .access = NW_WRITE_ONLY}};
  nw_app_binding panel[] = {{.space = m, .access = NW_READ_WRITE},
                            {.space = d, .access = NW_READ_ONLY},
                            {.space = r, .access = NW_WRITE_ONLY},
                            {.space = c, .access = NW_WRITE_ONLY}};
  nw_app_binding update[] = {{.space = m, .access = NW_READ_WRITE},
                             {.space = r, .access = NW_READ_ONLY},
                             {.space = c, .access = NW_READ_ONLY}};
  nw_status st = nw_app_run_task(rt, &nw_lu_diag_kind, 1, conf, sizeof *conf, diag, 2);
  if (st == NW_OK && rest > 0)
    st = nw_app_run_task(rt, &nw_lu_panel_kind, 2 * rest, conf, sizeof *conf, panel, 4);
  if (st == NW_OK && rest > 0)
    st = nw_app_run_task(rt, &nw_lu_update_kind, rest * rest, conf, sizeof *conf, update, 3);
  return st;
}

/* Compares the factors in space m with the reference's, computed from `a` (replaced). */
static nw_status check(nw_space *m, float *a, uint64_t n, uint64_t b, int *equal) {
  float *got = malloc(n * n * F);
  nw_status st = got ? nw_space_read(m, 0, got, n * n * F) : NW_ERR_NOMEM;
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
  }
  free(got);
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
  for (uint64_t k = 0; k < n / b && st == NW_OK; k++) {
    lu_conf conf = {n, b, k};
    st = step(rt, &conf, m, d, r, c);
  }
  if (st == NW_OK && functional && args->verify != 0) {
    int equal = 0;
    st = check(m, a, n, b, &equal);
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
                                           NULL},
    .check_args = lu_check,
    .main = lu_main,
};
