/* own_program.c: a program of one's own as a shared object, for tests/python: two nw_app
 * tables. squares_app: subtask i writes (i + seed)^2 into out[i]; its driver checks every value
 * and prints one line, so the test knows the program's own code ran. crash_app: its driver
 * calls abort(), as a program with a bug does. Built by the test with gcc against libnarwhal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

typedef struct conf {
  uint64_t seed;
} conf;

static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  (void)t;
  return nw_subscribe(s, 0, NW_WRITE_ONLY, i * 8, 8, 8, 1);
}

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  uint64_t x = i + ((const conf *)t->conf)->seed;
  *(uint64_t *)nw_view_at(&views[0], i * 8) = x * x;
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)t, (void)i, (void)kind;
  return 1e6;
}

static const nw_task_kind square = {
    .name = "square", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->n > 4096) {
    snprintf(why, len, "squares: --n must be 1 to 4096");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, got[4096];
  conf c = {a->seed};
  nw_space *space = NULL;
  nw_task *t = NULL;
  nw_status st = nw_space_create(rt, n * 8, 8, &space);
  if (st == NW_OK)
    st = nw_task_create(rt, &square, n, &c, sizeof c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, space, NW_WRITE_ONLY);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1;
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(space, 0, got, n * 8)) == NW_OK) {
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
      wrong += got[i] != (i + a->seed) * (i + a->seed);
    out->verified = wrong == 0;
    printf("squares: %" PRIu64 " values, %" PRIu64 " wrong\n", n, wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (space)
    nw_space_destroy(space);
  return st;
}

static nw_status crash(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  (void)rt, (void)a, (void)out;
  fprintf(stderr, "crash: aborting on purpose\n"); /* the last words a crash must not lose */
  abort();
}

const nw_app squares_app = {.name = "squares",
                            .kinds = (const nw_task_kind *const[]){&square, NULL},
                            .check_args = check,
                            .main = driver};

const nw_app crash_app = {.name = "crash",
                          .kinds = (const nw_task_kind *const[]){&square, NULL},
                          .check_args = check,
                          .main = crash};
