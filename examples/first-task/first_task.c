/* first_task.c: a first Narwhal program. y = alpha * x + y over n 32-bit integers, cut into
 * subtasks of `block` elements each; the same binary runs simulated or under mpirun:
 *
 *   ./first_task --backend sim --platform platforms/small.xml --nodes 2 --n 4096 --block 512
 *   mpirun -np 2 ./first_task --backend real --n 4096 --block 512 --alpha 7
 *
 * Narwhal's options (--backend, --n, --block, --seed, ...) are taken by nw_init; --alpha is
 * this program's own. Integers wrap the same way on every device, so the check is exact. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/own_options.h"

/* What every subtask needs, passed as the task's configuration bytes: kernels may run on
 * another node (another process), so they read nothing else. */
typedef struct conf {
  uint64_t block; /* elements per subtask */
  uint32_t alpha;
} conf;

static uint64_t alpha = 3; /* --alpha, below 2^32; set by main on every process */

/* Subtask i reads x[i*block, (i+1)*block) and reads and writes the same range of y. */
static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  uint64_t bytes = c->block * sizeof(uint32_t), at = i * bytes;
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, at, bytes, bytes, 1);
  return st == NW_OK ? nw_subscribe(s, 1, NW_READ_WRITE, at, bytes, bytes, 1) : st;
}

static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const conf *c = t->conf;
  uint64_t at = i * c->block * sizeof(uint32_t);
  const uint32_t *x = nw_view_at(&views[0], at);
  uint32_t *y = nw_view_at(&views[1], at);
  for (uint64_t k = 0; k < c->block; k++)
    y[k] = c->alpha * x[k] + y[k];
}

/* Two integer operations per element: what the simulator charges a subtask. */
static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 2.0 * (double)((const conf *)t->conf)->block;
}

static const nw_task_kind axpy = {
    .name = "axpy", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->block == 0 || a->n % a->block != 0 || a->n > (1u << 26)) {
    snprintf(why, len, "first_task: --block must divide --n, and --n be 1 to 2^26 elements");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

/* The driver: runs on node 0 only. */
static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, bytes = n * sizeof(uint32_t);
  uint32_t *x = malloc(bytes), *y = malloc(bytes), *got = malloc(bytes);
  nw_space *sx = NULL, *sy = NULL;
  nw_task *t = NULL;
  conf c = {.block = a->block, .alpha = (uint32_t)alpha};
  nw_status st = x && y && got ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t k = 0; st == NW_OK && k < n; k++) {
    x[k] = (uint32_t)(k * 2654435761u + a->seed);
    y[k] = (uint32_t)(k ^ a->seed);
  }
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, bytes, &sx);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, bytes, &sy);
  if (st == NW_OK)
    st = nw_space_write(sx, 0, x, bytes);
  if (st == NW_OK)
    st = nw_space_write(sy, 0, y, bytes);
  if (st == NW_OK)
    st = nw_task_create(rt, &axpy, n / a->block, &c, sizeof c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, sx, NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(t, sy, NW_READ_WRITE);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(sy, 0, got, bytes)) == NW_OK) {
    uint64_t wrong = 0;
    for (uint64_t k = 0; k < n; k++)
      wrong += got[k] != (uint32_t)(alpha * x[k] + y[k]);
    out->verified = wrong == 0;
    printf("first_task: alpha %" PRIu64 ", %" PRIu64 " elements, %" PRIu64 " wrong\n", alpha, n,
           wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (sx)
    nw_space_destroy(sx);
  if (sy)
    nw_space_destroy(sy);
  free(x), free(y), free(got);
  return st;
}

static const nw_app first_task = {.name = "first_task",
                                  .kinds = (const nw_task_kind *const[]){&axpy, NULL},
                                  .check_args = check,
                                  .main = driver};

/* The program's own option, --alpha, is what nw_init left in argv; anything else there is
 * refused (a mistyped Narwhal option ends up there too). */
static const own_option alpha_option = {.name = "--alpha",
                                        .help = "the multiplier (default 3)",
                                        .wants = "a whole number below 2^32",
                                        .min = 0,
                                        .max = UINT32_MAX,
                                        .value = &alpha};

int main(int argc, char **argv) {
  int own = 0;
  if (nw_init(&argc, &argv) == NW_OK &&
      (own = own_options(argc, argv, "first_task", &alpha_option)) == 0)
    nw_run_app(&first_task);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
