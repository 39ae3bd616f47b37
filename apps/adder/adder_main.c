/* adder_main.c: the adder application's arguments, inputs, driver and check (see adder.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "../common/run_task.h"
#include "adder.h"

#define APP "adder"
#define W ((uint64_t)sizeof(uint64_t))

/* Reads --app-param flops into *flops (default: --block); 0, or -1 with a one-line reason. */
static int adder_params(const nw_app_args *a, uint64_t *flops, char *why, size_t len) {
  if (nw_app_param_keys(a, APP, "flops", why, len) != 0 ||
      nw_app_param_uint(a, APP, "flops", 1, ADDER_FLOPS_MAX, a->block, flops, why, len) != 0)
    return -1;
  return 0;
}

static nw_status adder_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t flops;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, APP ": --n (elements) and --block (elements per subtask) must be positive");
    return NW_ERR_ARG;
  }
  if (adder_params(a, &flops, why, len))
    return NW_ERR_ARG;
  if (a->n % a->block != 0) {
    snprintf(why, len, APP ": --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > ADDER_N_MAX) {
    snprintf(why, len, APP ": --n %llu is more than 2^27 elements", (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n / a->block > ADDER_SUBTASKS_MAX) {
    snprintf(why, len, APP ": --n %llu / --block %llu gives %llu subtasks; at most 2^24",
             (unsigned long long)a->n, (unsigned long long)a->block,
             (unsigned long long)(a->n / a->block));
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* count full-width words, element i a hash of (stream, i): the same values whatever order they
 * are drawn in, and sums that wrap about half the time. */
static void fill(uint64_t *v, uint64_t count, uint64_t stream) {
  for (uint64_t i = 0; i < count; i++)
    v[i] = nw_app_splitmix64(stream + i);
}

/* Compares C with A + B computed here, element by element. */
static nw_status check(nw_space *sc, const uint64_t *a, const uint64_t *b, uint64_t n, int *equal) {
  uint64_t *got = malloc(n * W);
  nw_status st = got ? nw_space_read(sc, 0, got, n * W) : NW_ERR_NOMEM;
  if (st == NW_OK) {
    uint64_t differ = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
      if (got[i] != a[i] + b[i] && differ++ == 0)
        first = i;
    *equal = differ == 0;
    if (differ)
      fprintf(stderr, APP ": C[%llu] is %llu, the reference %llu (%llu of %llu elements differ)\n",
              (unsigned long long)first, (unsigned long long)got[first],
              (unsigned long long)(a[first] + b[first]), (unsigned long long)differ,
              (unsigned long long)n);
  }
  free(got);
  return st;
}

/* Writes A and B drawn from the seed (functional mode: *a and *b keep them for the check). */
static nw_status write_inputs(nw_space *sa, nw_space *sb, uint64_t n, uint64_t seed, uint64_t **a,
                              uint64_t **b) {
  *a = malloc(n * W);
  *b = malloc(n * W);
  if (!*a || !*b)
    return NW_ERR_NOMEM;
  fill(*a, n, nw_app_splitmix64(seed));
  fill(*b, n, nw_app_splitmix64(seed + 1));
  nw_status st = nw_space_write(sa, 0, *a, n * W);
  return st == NW_OK ? nw_space_write(sb, 0, *b, n * W) : st;
}

static nw_status adder_main(nw_runtime *rt, const nw_app_args *args, nw_app_outcome *out) {
  char why[256];
  adder_conf conf = {.n = args->n, .block = args->block};
  if (adder_params(args, &conf.flops, why, sizeof why))
    return NW_ERR_ARG; /* adder_check has said why */
  uint64_t size = conf.n * W, subtasks = conf.n / conf.block;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *sa = NULL, *sb = NULL, *sc = NULL;
  uint64_t *a = NULL, *b = NULL;
  nw_status st = nw_space_create(rt, size, size, &sa);
  if (st == NW_OK)
    st = nw_space_create(rt, size, size, &sb);
  if (st == NW_OK)
    st = nw_space_create(rt, size, size, &sc);
  if (st == NW_OK && functional)
    st = write_inputs(sa, sb, conf.n, args->seed, &a, &b);
  /* Each subtask's slices of A and B together on a node drawn from the seed (the same draws
   * for both spaces), so that a subtask run there fetches nothing. */
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, sa, subtasks, conf.block * W, args->seed);
  if (st == NW_OK && args->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, sb, subtasks, conf.block * W, args->seed);
  nw_app_binding bind[] = {{.space = sa, .access = NW_READ_ONLY},
                           {.space = sb, .access = NW_READ_ONLY},
                           {.space = sc, .access = NW_WRITE_ONLY}};
  if (st == NW_OK)
    st = nw_app_run_task(rt, &nw_adder_kind, subtasks, &conf, sizeof conf, bind, 3);
  if (st == NW_OK && functional && args->verify != 0) {
    int equal = 0;
    st = check(sc, a, b, conf.n, &equal);
    out->verified = equal;
  }
  nw_space_destroy(sa);
  nw_space_destroy(sb);
  nw_space_destroy(sc);
  free(a);
  free(b);
  return st;
}

const nw_app nw_adder_app = {
    .name = APP,
    .kinds = (const nw_task_kind *const[]){&nw_adder_kind, NULL},
    .check_args = adder_check,
    .main = adder_main,
};
