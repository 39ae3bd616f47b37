/* gemv_main.c: the gemv application's arguments, inputs, driver and check (see gemv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "../common/run_task.h"
#include "gemv.h"

#define F ((uint64_t)sizeof(float))
#define ROWS_MAX (1u << 24) /* BLAS takes int sizes; rows x cols x 4 stays far from 2^64 */

/* Reads --app-param cols into *cols (default: --n, a square matrix); 0, or -1 with a one-line
 * reason. */
static int gemv_params(const nw_app_args *a, uint64_t *cols, char *why, size_t len) {
  if (nw_app_param_keys(a, "gemv", "cols", why, len) != 0 ||
      nw_app_param_uint(a, "gemv", "cols", 1, UINT64_MAX, a->n, cols, why, len) != 0)
    return -1;
  if (*cols > GEMV_COLS_MAX) {
    snprintf(why, len,
             "gemv: %llu columns (--app-param cols, default --n) is more than %u: a row's sum of "
             "products of integers in [-8, 8] could pass 2^24 and stop being exact in float",
             (unsigned long long)*cols, GEMV_COLS_MAX);
    return -1;
  }
  return 0;
}

static nw_status gemv_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t cols;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, "gemv: --n (rows) and --block (rows per subtask) must be positive");
    return NW_ERR_ARG;
  }
  if (gemv_params(a, &cols, why, len))
    return NW_ERR_ARG;
  if (a->n % a->block != 0) {
    snprintf(why, len, "gemv: --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > ROWS_MAX) {
    snprintf(why, len, "gemv: --n %llu is more than %u rows", (unsigned long long)a->n, ROWS_MAX);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* count integers in [-8, 8] as floats, element i a hash of (stream, i): the same values
 * whatever order they are drawn in. */
static void fill(float *v, uint64_t count, uint64_t stream) {
  for (uint64_t i = 0; i < count; i++)
    v[i] =
        (float)((int)(nw_app_splitmix64(stream + i) % (2 * GEMV_VALUE_MAX + 1)) - GEMV_VALUE_MAX);
}

/* The reference: a plain loop in row order, apart from the kernels' BLAS calls, so a wrong
 * row, view or offset differs from it; exact, so it must match bit for bit. */
static void reference(const float *a, const float *x, uint64_t rows, uint64_t cols, float *y) {
  for (uint64_t r = 0; r < rows; r++) {
    float sum = 0.0f;
    for (uint64_t c = 0; c < cols; c++)
      sum += a[r * cols + c] * x[c];
    y[r] = sum;
  }
}

static nw_status check(nw_space *sy, const float *a, const float *x, uint64_t rows, uint64_t cols,
                       int *equal) {
  float *got = malloc(rows * F), *want = malloc(rows * F);
  nw_status st = got && want ? nw_space_read(sy, 0, got, rows * F) : NW_ERR_NOMEM;
  if (st == NW_OK) {
    reference(a, x, rows, cols, want);
    uint64_t differ = 0, first = 0;
    for (uint64_t r = 0; r < rows; r++)
      if (memcmp(&got[r], &want[r], F) != 0 && differ++ == 0)
        first = r;
    *equal = differ == 0;
    if (differ)
      fprintf(stderr, "gemv: y[%llu] is %g, the reference %g (%llu of %llu rows differ)\n",
              (unsigned long long)first, (double)got[first], (double)want[first],
              (unsigned long long)differ, (unsigned long long)rows);
  }
  free(got);
  free(want);
  return st;
}

/* Writes A and x drawn from the seed (functional mode: *a and *x keep them for the check). */
static nw_status write_inputs(nw_space *sa, nw_space *sx, const gemv_conf *c, uint64_t seed,
                              float **a, float **x) {
  *a = malloc(c->rows * c->cols * F);
  *x = malloc(c->cols * F);
  if (!*a || !*x)
    return NW_ERR_NOMEM;
  fill(*a, c->rows * c->cols, nw_app_splitmix64(seed));
  fill(*x, c->cols, nw_app_splitmix64(seed + 1));
  nw_status st = nw_space_write(sa, 0, *a, c->rows * c->cols * F);
  return st == NW_OK ? nw_space_write(sx, 0, *x, c->cols * F) : st;
}

static nw_status gemv_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  char why[256];
  gemv_conf conf = {.rows = args->n, .block = args->block};
  if (gemv_params(args, &conf.cols, why, sizeof why))
    return NW_ERR_ARG; /* gemv_check has said why */
  uint64_t row = conf.cols * F;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *sa = NULL, *sx = NULL, *sy = NULL;
  float *a = NULL, *x = NULL;
  nw_status st = nw_space_create(rt, conf.rows * row, row, &sa);
  if (st == NW_OK)
    st = nw_space_create(rt, row, row, &sx);
  if (st == NW_OK)
    st = nw_space_create(rt, conf.rows * F, conf.rows * F, &sy);
  if (st == NW_OK && functional)
    st = write_inputs(sa, sx, &conf, args->seed, &a, &x);
  /* Each subtask's stripe of A on a node drawn from the seed (the paper's inputs start spread
   * over the nodes), or with `--placement local` each node its own rows; x is one row that
   * every subtask reads, left on node 0. */
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_place_ranges(rt, sa, conf.rows / conf.block, conf.block * row, args->seed,
                             args->placement);
  nw_app_binding bind[] = {{.space = sa, .access = NW_READ_ONLY},
                           {.space = sx, .access = NW_READ_ONLY},
                           {.space = sy, .access = NW_WRITE_ONLY}};
  if (st == NW_OK)
    st = nw_app_run_task(rt, &nw_gemv_kind, conf.rows / conf.block, &conf, sizeof conf, bind, 3);
  if (st == NW_OK && functional && args->verify != 0) {
    int equal = 0;
    st = check(sy, a, x, conf.rows, conf.cols, &equal);
    out->verified = equal;
  }
  nw_space_destroy(sa);
  nw_space_destroy(sx);
  nw_space_destroy(sy);
  free(a);
  free(x);
  return st;
}

const nw_app nw_gemv_app = {
    .name = "gemv",
    .kinds = (const nw_task_kind *const[]){&nw_gemv_kind, NULL},
    .check_args = gemv_check,
    .main = gemv_main,
};
