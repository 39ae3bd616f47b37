/* jacobi.c: a program author's commonest bug, for --check-views to catch. One Jacobi sweep of
 * a 1-D array of floats, y[k] = (x[k-1] + x[k] + x[k+1]) / 3 (ends clamped), in subtasks of
 * --block elements: subtask i writes y's block i and reads x's block i and, with --halo 1, the
 * element on each side of it. With --halo 0 it subscribes to its block only and reads its
 * neighbours all the same: the bug. Unchecked, those reads see whatever the node's copy of x
 * holds there, so the result may even be right; with --check-views on they see
 * viewcheck.h's NaN, and the run fails naming the task, subtask, space and byte.
 *
 *   jacobi --backend sim --platform platforms/small.xml --n 4096 --block 256 --halo 1
 *
 * The result is compared with the serial sweep (verified). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../../examples/common/own_options.h"

#define AT(k) ((k) * sizeof(float))

static uint64_t halo = 1; /* --halo */

typedef struct conf {
  uint64_t n, block, halo;
} conf;

static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  uint64_t lo = i * c->block, hi = lo + c->block;
  uint64_t rlo = c->halo && lo > 0 ? lo - 1 : lo, rhi = c->halo && hi < c->n ? hi + 1 : hi;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, AT(rlo), AT(rhi - rlo), AT(rhi - rlo), 1);
  if (st == NW_OK)
    st = nw_subscribe(s, 1, NW_WRITE_ONLY, AT(lo), AT(c->block), AT(c->block), 1);
  return st;
}

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *v) {
  const conf *c = t->conf;
  uint64_t lo = i * c->block;
  const float *x = nw_view_at(&v[0], 0); /* views are indexed by the space's offsets */
  float *y = nw_view_at(&v[1], AT(lo));
  for (uint64_t k = lo; k < lo + c->block; k++) {
    float left = k > 0 ? x[k - 1] : x[k], right = k + 1 < c->n ? x[k + 1] : x[k];
    y[k - lo] = (left + x[k] + right) / 3.0f;
  }
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 3.0 * (double)((const conf *)t->conf)->block;
}

static const nw_task_kind sweep_kind = {
    .name = "jacobi-sweep", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->block == 0 || a->n % a->block != 0 || a->n < 2 || a->n > (1u << 24)) {
    snprintf(why, len, "jacobi: --block must divide --n, and --n be 2 to 2^24 elements");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n;
  float *x = malloc(AT(n)), *got = malloc(AT(n));
  nw_space *sx = NULL, *sy = NULL;
  nw_task *t = NULL;
  nw_status st = x && got ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t k = 0; st == NW_OK && k < n; k++)
    x[k] = (float)((k * 2654435761u ^ a->seed) % 1000) / 10.0f;
  if (st == NW_OK)
    st = nw_space_create(rt, AT(n), AT(n), &sx);
  if (st == NW_OK)
    st = nw_space_create(rt, AT(n), AT(n), &sy);
  if (st == NW_OK)
    st = nw_space_write(sx, 0, x, AT(n));
  conf c = {.n = n, .block = a->block, .halo = halo};
  if (st == NW_OK)
    st = nw_task_create(rt, &sweep_kind, n / a->block, &c, sizeof c, &t);
  if (st == NW_OK && (st = nw_task_bind(t, sx, NW_READ_ONLY)) == NW_OK &&
      (st = nw_task_bind(t, sy, NW_WRITE_ONLY)) == NW_OK && (st = nw_task_submit(t)) == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1;
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(sy, 0, got, AT(n))) == NW_OK) {
    uint64_t wrong = 0;
    for (uint64_t k = 0; k < n; k++) {
      float left = k > 0 ? x[k - 1] : x[k], right = k + 1 < n ? x[k + 1] : x[k];
      wrong += !(got[k] == (left + x[k] + right) / 3.0f);
    }
    out->verified = wrong == 0;
    printf("jacobi: %llu elements, %llu wrong\n", (unsigned long long)n, (unsigned long long)wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (sx)
    nw_space_destroy(sx);
  if (sy)
    nw_space_destroy(sy);
  free(x), free(got);
  return st;
}

static const nw_app jacobi = {.name = "jacobi",
                              .kinds = (const nw_task_kind *const[]){&sweep_kind, NULL},
                              .check_args = check,
                              .main = driver};

int main(int argc, char **argv) {
  const own_option halo_option = {.name = "--halo",
                                  .help = "1: subscribe to the neighbours read (right); 0: not "
                                          "(the bug --check-views catches)",
                                  .min = 0,
                                  .max = 1,
                                  .value = &halo};
  int own = 0;
  if (nw_init(&argc, &argv) == NW_OK &&
      (own = own_options(argc, argv, "jacobi", &halo_option)) == 0)
    nw_run_app(&jacobi);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
