/* smooth.c: read-write across tasks. One read-write space x of n 32-bit integers on a ring,
 * and `steps` tasks over it, each computing in place
 *
 *   x[k] := x[k-1] + 2 x[k] + x[k+1] + step    (indices mod n, integers wrap)
 *
 * Serial code in place would need a second buffer: x[k-1] is overwritten before x[k] reads it.
 * A task does not, because of its transactional semantics (paper section 3): every subtask
 * reads the space as it was when its task started, and the task's writes become visible only
 * to later tasks. So subtask i read-writes its block and reads one neighbour on each side,
 * which another subtask is rewriting at the same time, and still sees the old value.
 *
 * The driver submits all the tasks at once and then waits: each writes the space the next
 * reads, so the runtime runs them one after the other, in submission order.
 *
 *   ./smooth --backend sim --platform platforms/small.xml --nodes 4 --n 4096 --block 256 --steps 6
 *   mpirun -np 2 ./smooth --backend real --n 4096 --block 256 --steps 6
 *
 * The result is checked exactly against the serial computation with two buffers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/own_options.h"

#define MAX_STEPS 64
#define AT(k) ((k) * sizeof(uint32_t)) /* element k's byte offset */

typedef struct conf {
  uint64_t n, block, step;
} conf;

static uint64_t steps = 4; /* --steps; set by main on every process */

/* Its block read-write; its two neighbours read-only (the space is bound read-write, and a
 * subscription may ask for less). With one subtask they are in its own block already. */
static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  uint64_t lo = i * c->block, hi = lo + c->block;
  nw_status st = nw_subscribe(s, 0, NW_READ_WRITE, AT(lo), AT(c->block), AT(c->block), 1);
  if (st == NW_OK && c->block < c->n)
    st = nw_subscribe(s, 0, NW_READ_ONLY, AT((lo + c->n - 1) % c->n), AT(1), AT(1), 1);
  if (st == NW_OK && c->block < c->n)
    st = nw_subscribe(s, 0, NW_READ_ONLY, AT(hi % c->n), AT(1), AT(1), 1);
  return st;
}

/* The subtask's view is one private buffer, for its reads and its writes: inside the subtask,
 * a value it has overwritten is gone, so it keeps the old left neighbour in a variable. */
static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const conf *c = t->conf;
  uint64_t lo = i * c->block, hi = lo + c->block;
  uint32_t *x = nw_view_at(&views[0], AT(lo)); /* x[0 .. block) is the block */
  uint32_t left = *(uint32_t *)nw_view_at(&views[0], AT((lo + c->n - 1) % c->n));
  uint32_t last = *(uint32_t *)nw_view_at(&views[0], AT(hi % c->n)); /* before any write */
  for (uint64_t k = 0; k < c->block; k++) {
    uint32_t old = x[k], right = k + 1 < c->block ? x[k + 1] : last;
    x[k] = left + 2 * old + right + (uint32_t)c->step;
    left = old;
  }
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 4.0 * (double)((const conf *)t->conf)->block;
}

static const nw_task_kind smooth_step = {
    .name = "smooth-step", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n < 2 || a->block == 0 || a->n % a->block != 0 || a->n > (1u << 24)) {
    snprintf(why, len, "smooth: --block must divide --n, and --n be 2 to 2^24 elements");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, bytes = AT(n), submitted = 0;
  uint32_t *x = malloc(bytes), *y = malloc(bytes), *got = malloc(bytes);
  nw_space *sx = NULL;
  nw_task *t[MAX_STEPS] = {NULL};
  nw_status st = x && y && got ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t k = 0; st == NW_OK && k < n; k++)
    x[k] = (uint32_t)(k * 2654435761u ^ a->seed);
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, bytes, &sx);
  if (st == NW_OK)
    st = nw_space_write(sx, 0, x, bytes);
  for (uint64_t s = 1; st == NW_OK && s <= steps; s++) { /* submit them all, wait later */
    conf c = {.n = n, .block = a->block, .step = s};
    st = nw_task_create(rt, &smooth_step, n / a->block, &c, sizeof c, &t[s - 1]);
    if (st == NW_OK)
      st = nw_task_bind(t[s - 1], sx, NW_READ_WRITE);
    if (st == NW_OK && (st = nw_task_submit(t[s - 1])) == NW_OK)
      submitted = s;
  }
  for (uint64_t s = 0; s < submitted; s++) { /* each wait must return before its destroy */
    nw_status w = nw_task_wait(t[s]);
    st = st == NW_OK ? w : st;
  }
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(sx, 0, got, bytes)) == NW_OK) {
    for (uint64_t s = 1; s <= steps; s++) { /* the serial reference: two buffers */
      for (uint64_t k = 0; k < n; k++)
        y[k] = x[(k + n - 1) % n] + 2 * x[k] + x[(k + 1) % n] + (uint32_t)s;
      uint32_t *swap = x;
      x = y, y = swap;
    }
    uint64_t wrong = 0;
    for (uint64_t k = 0; k < n; k++)
      wrong += got[k] != x[k];
    out->verified = wrong == 0;
    printf("smooth: %" PRIu64 " tasks of %" PRIu64 " subtasks over %" PRIu64 " elements, %" PRIu64
           " wrong\n",
           steps, n / a->block, n, wrong);
  }
  for (uint64_t s = 0; s < MAX_STEPS; s++)
    if (t[s])
      nw_task_destroy(t[s]);
  if (sx)
    nw_space_destroy(sx);
  free(x), free(y), free(got);
  return st;
}

static const nw_app smooth = {.name = "smooth",
                              .kinds = (const nw_task_kind *const[]){&smooth_step, NULL},
                              .check_args = check,
                              .main = driver};

int main(int argc, char **argv) {
  /* The program's own option, --steps: what nw_init left in argv. */
  char help[64];
  snprintf(help, sizeof help, "tasks in the chain, 1 to %d (default 4)", MAX_STEPS);
  const own_option steps_option = {
      .name = "--steps", .help = help, .min = 1, .max = MAX_STEPS, .value = &steps};
  int own = 0;
  if (nw_init(&argc, &argv) == NW_OK &&
      (own = own_options(argc, argv, "smooth", &steps_option)) == 0)
    nw_run_app(&smooth);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
