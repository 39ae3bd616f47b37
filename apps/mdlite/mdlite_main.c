/* mdlite_main.c: the mdlite application's arguments, inputs, driver and check (see mdlite.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/inputs.h"
#include "../common/place.h"
#include "../common/run_task.h"
#include "mdlite_ref.h"

#define APP "mdlite"
#define P ((uint64_t)sizeof(mdlite_particle))

/* Reads --app-param steps into *steps; 0, or -1 with a one-line reason. */
static int mdlite_steps(const nw_app_args *a, uint64_t *steps, char *why, size_t len) {
  if (nw_app_param_keys(a, APP, "steps", why, len) != 0 ||
      nw_app_param_uint(a, APP, "steps", 1, MDLITE_STEPS_MAX, MDLITE_STEPS_DEFAULT, steps, why,
                        len) != 0)
    return -1;
  return 0;
}

static nw_status mdlite_check(const nw_app_args *a, char *why, size_t len) {
  uint64_t steps;
  if (a->n == 0 || a->block == 0) {
    snprintf(why, len, APP ": --n (particles) and --block (particles per group) must be positive");
    return NW_ERR_ARG;
  }
  if (mdlite_steps(a, &steps, why, len))
    return NW_ERR_ARG;
  if (a->block > MDLITE_GROUP_MAX) {
    snprintf(why, len,
             APP ": --block %llu is more than %d particles per group (a GPU thread each, one warp)",
             (unsigned long long)a->block, MDLITE_GROUP_MAX);
    return NW_ERR_ARG;
  }
  if (a->n % a->block != 0) {
    snprintf(why, len, APP ": --block %llu does not divide --n %llu", (unsigned long long)a->block,
             (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  if (a->n > MDLITE_N_MAX) {
    snprintf(why, len, APP ": --n %llu is more than 2^24 particles", (unsigned long long)a->n);
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* The n particles' initial state (mdlite.h), 4 floats each: each value a hash of (seed, index),
 * so the same on every run. */
static void fill_state(float *p, uint64_t n, uint64_t seed) {
  uint64_t at = nw_app_splitmix64(seed), speed = nw_app_splitmix64(seed + 1);
  for (uint64_t i = 0; i < n; i++)
    for (uint64_t d = 0; d < 2; d++) {
      p[4 * i + d] = nw_app_unit24(nw_app_splitmix64(at + 2 * i + d));
      /* 2u - 1 is exact (nw_app_unit24); the one rounding is the scaling's. */
      p[4 * i + 2 + d] =
          MDLITE_SPEED_MAX * (2.0f * nw_app_unit24(nw_app_splitmix64(speed + 2 * i + d)) - 1.0f);
    }
}

/* Compares OUT with the reference run from the input, float by float. */
static nw_status check(nw_space *sout, const mdlite_conf *c, const float *in, int *equal) {
  uint64_t count = c->n * 4;
  float *got = malloc(c->n * P), *want = malloc(c->n * P);
  nw_status st = got && want ? nw_space_read(sout, 0, got, c->n * P) : NW_ERR_NOMEM;
  if (st == NW_OK) {
    mdlite_reference(c, in, want);
    uint64_t differ = 0, first = 0;
    for (uint64_t q = 0; q < count; q++)
      if (memcmp(&got[q], &want[q], sizeof *got) != 0 && differ++ == 0)
        first = q;
    *equal = differ == 0;
    if (differ) {
      static const char *const what[] = {"x", "y", "vx", "vy"};
      uint64_t i = first / 4;
      fprintf(stderr,
              APP ": group %llu particle %llu %s is %.9g, the reference %.9g (%llu of %llu "
                  "floats differ)\n",
              (unsigned long long)(i / c->block), (unsigned long long)(i % c->block),
              what[first % 4], (double)got[first], (double)want[first], (unsigned long long)differ,
              (unsigned long long)count);
    }
  }
  free(got);
  free(want);
  return st;
}

static nw_status mdlite_main(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  char why[256];
  mdlite_conf conf = {.n = a->n, .block = a->block};
  if (mdlite_steps(a, &conf.steps, why, sizeof why))
    return NW_ERR_ARG; /* mdlite_check has said why */
  uint64_t size = conf.n * P, groups = conf.n / conf.block;
  int functional = nw_runtime_functional(rt);
  out->verified = -1; /* phantom mode has no bytes to check; the tool rejects --verify there */
  nw_space *sin = NULL, *sout = NULL;
  float *in = NULL;
  nw_status st = nw_space_create(rt, size, size, &sin);
  if (st == NW_OK) /* written whole by the task before anything reads it */
    st = nw_space_create(rt, size, size, &sout);
  if (st == NW_OK && functional) {
    in = malloc(size);
    st = in ? NW_OK : NW_ERR_NOMEM;
    if (st == NW_OK) {
      fill_state(in, conf.n, a->seed);
      st = nw_space_write(sin, 0, in, size);
    }
  }
  /* Each group's particles on a node drawn from the seed. */
  if (st == NW_OK && a->spread && nw_runtime_nodes(rt) > 1)
    st = nw_app_spread_ranges(rt, sin, groups, conf.block * P, a->seed);
  nw_app_binding bind[] = {{.space = sin, .access = NW_READ_ONLY},
                           {.space = sout, .access = NW_WRITE_ONLY}};
  if (st == NW_OK)
    st = nw_app_run_task(rt, &nw_mdlite_kind, groups, &conf, sizeof conf, bind, 2);
  if (st == NW_OK && functional && a->verify != 0) {
    int equal = 0;
    st = check(sout, &conf, in, &equal);
    out->verified = equal;
  }
  nw_space_destroy(sin);
  nw_space_destroy(sout);
  free(in);
  return st;
}

const nw_app nw_mdlite_app = {
    .name = APP,
    .kinds = (const nw_task_kind *const[]){&nw_mdlite_kind, NULL},
    .check_args = mdlite_check,
    .main = mdlite_main,
};
