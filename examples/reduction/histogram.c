/* histogram.c: a reduction. A histogram of n 32-bit samples into `bins` counters: every
 * subtask counts its own block of samples, and every subtask writes every counter. Two
 * subtasks of one task may write the same bytes only when the task says how to combine them
 * (paper sections 4.5-4.6):
 *
 *   nw_task_bind(t, hist, NW_WRITE_ONLY);
 *   nw_task_reduce(t, hist, NW_REDUCE_ADD, NW_TYPE_UINT64);
 *
 * Each node adds up its own subtasks' counters as they finish, then the nodes add theirs
 * along a tree; the space then holds the sum of all of them. Integer addition gives the same
 * bytes in any order, so the result is exact on every run (floating-point sums would round
 * differently as the order changes). The combination is of the subtasks' results alone: the
 * space is write-only, so what it held before the task is not added in.
 *
 *   ./histogram --backend sim --platform platforms/small.xml --nodes 4 --n 65536 --block 4096
 *   mpirun -np 2 ./histogram --backend real --n 65536 --block 4096 --bins 100
 *
 * The check is exact: every counter against a serial count, and their total against n. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <narwhal.h>

#include "../common/own_options.h"

typedef struct conf {
  uint64_t block, bins;
} conf;

static uint64_t bins = 16; /* --bins; set by main on every process */

static uint64_t bin_of(uint32_t sample, uint64_t nbins) {
  return sample % nbins;
}

/* Its block of samples, and the whole histogram: the same bytes for every subtask. */
static nw_status subscribe(nw_subscriber *s, const nw_task_info *t, uint64_t i) {
  const conf *c = t->conf;
  uint64_t bytes = c->block * sizeof(uint32_t), hist = c->bins * sizeof(uint64_t);
  nw_status st = nw_subscribe(s, 0, NW_READ_ONLY, i * bytes, bytes, bytes, 1);
  return st == NW_OK ? nw_subscribe(s, 1, NW_WRITE_ONLY, 0, hist, hist, 1) : st;
}

/* The view of the histogram is this subtask's own and starts as zeros (a reduced write-only
 * view always does): it counts into it without any lock, and every counter it subscribed,
 * zero included, is its result. */
static void kernel(const nw_task_info *t, uint64_t i, const nw_view *views) {
  const conf *c = t->conf;
  const uint32_t *x = nw_view_at(&views[0], i * c->block * sizeof(uint32_t));
  uint64_t *h = nw_view_at(&views[1], 0);
  for (uint64_t k = 0; k < c->block; k++)
    h[bin_of(x[k], c->bins)]++;
}

static double flops(const nw_task_info *t, uint64_t i, nw_device_kind kind) {
  (void)i, (void)kind;
  return 2.0 * (double)((const conf *)t->conf)->block;
}

static const nw_task_kind count = {
    .name = "count", .subscribe = subscribe, .cpu_kernel = kernel, .flops = flops};

static nw_status check(const nw_app_args *a, char *why, size_t len) {
  if (a->n == 0 || a->block == 0 || a->n % a->block != 0 || a->n > (1u << 26)) {
    snprintf(why, len, "histogram: --block must divide --n, and --n be 1 to 2^26 samples");
    return NW_ERR_ARG;
  }
  return NW_OK;
}

static nw_status driver(nw_runtime *rt, const nw_app_args *a, nw_app_outcome *out) {
  uint64_t n = a->n, bytes = n * sizeof(uint32_t), hbytes = bins * sizeof(uint64_t);
  uint32_t *x = malloc(bytes);
  uint64_t *want = calloc(bins, sizeof(uint64_t)), *got = malloc(hbytes);
  nw_space *sx = NULL, *sh = NULL;
  nw_task *t = NULL;
  conf c = {.block = a->block, .bins = bins};
  nw_status st = x && want && got ? NW_OK : NW_ERR_NOMEM;
  for (uint64_t k = 0; st == NW_OK && k < n; k++)
    x[k] = (uint32_t)((k + a->seed) * 2654435761u) >> 7;
  if (st == NW_OK)
    st = nw_space_create(rt, bytes, bytes, &sx);
  if (st == NW_OK)
    st = nw_space_create(rt, hbytes, hbytes, &sh);
  if (st == NW_OK)
    st = nw_space_write(sx, 0, x, bytes);
  if (st == NW_OK)
    st = nw_task_create(rt, &count, n / a->block, &c, sizeof c, &t);
  if (st == NW_OK)
    st = nw_task_bind(t, sx, NW_READ_ONLY);
  if (st == NW_OK)
    st = nw_task_bind(t, sh, NW_WRITE_ONLY);
  if (st == NW_OK) /* without it, nw_task_submit refuses the overlapping writes */
    st = nw_task_reduce(t, sh, NW_REDUCE_ADD, NW_TYPE_UINT64);
  if (st == NW_OK)
    st = nw_task_submit(t);
  if (st == NW_OK)
    st = nw_task_wait(t);
  out->verified = -1; /* phantom data (--data phantom) has no bytes to compare */
  if (st == NW_OK && nw_runtime_functional(rt) &&
      (st = nw_space_read(sh, 0, got, hbytes)) == NW_OK) {
    uint64_t wrong = 0, total = 0;
    for (uint64_t k = 0; k < n; k++) /* the serial count */
      want[bin_of(x[k], bins)]++;
    for (uint64_t b = 0; b < bins; b++) {
      wrong += got[b] != want[b];
      total += got[b];
    }
    out->verified = wrong == 0 && total == n;
    printf("histogram: %" PRIu64 " samples in %" PRIu64 " bins by %" PRIu64
           " subtasks, total %" PRIu64 ", %" PRIu64 " wrong bins\n",
           n, bins, n / a->block, total, wrong);
  }
  if (t)
    nw_task_destroy(t);
  if (sx)
    nw_space_destroy(sx);
  if (sh)
    nw_space_destroy(sh);
  free(x), free(want), free(got);
  return st;
}

static const nw_app histogram = {.name = "histogram",
                                 .kinds = (const nw_task_kind *const[]){&count, NULL},
                                 .check_args = check,
                                 .main = driver};

/* The program's own option, --bins: what nw_init left in argv. */
static const own_option bins_option = {.name = "--bins",
                                       .help = "counters, 1 to 65536 (default 16)",
                                       .min = 1,
                                       .max = 65536,
                                       .value = &bins};

int main(int argc, char **argv) {
  int own = 0;
  if (nw_init(&argc, &argv) == NW_OK &&
      (own = own_options(argc, argv, "histogram", &bins_option)) == 0)
    nw_run_app(&histogram);
  int status = nw_finalize();
  return own == 2 ? 2 : status;
}
