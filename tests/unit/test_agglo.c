/* test_agglo.c: the accelerator FIFO of dynamic agglomeration (core/device/agglo.h): a launch
 * takes min(queued of the lead's group, N) in FIFO order, high priority goes first and alone,
 * work without a batched kernel goes alone, and nothing is lost or taken twice. Also the share
 * of a GPU a launch's width gives (nw_gpu_launch_share), what a launch and a batch are charged. */
#include <stdint.h>
#include <string.h>

#include "agglo.h"
#include "backend.h"
#include "check.h"

static int ids[4096];

static void push(nw_agglo *q, int id, uint64_t group, int batchable, int high) {
  ids[id] = id;
  CHECK(nw_agglo_push(q, (nw_agglo_item){&ids[id], group, batchable, high}) == NW_OK);
}

/* The ids of the next launch, -1 terminated. */
static int take(nw_agglo *q, int *got) {
  void *out[64];
  int k = nw_agglo_take(q, out);
  for (int i = 0; i < k; i++)
    got[i] = *(int *)out[i];
  got[k] = -1;
  return k;
}

static int same(const int *got, const int *want) {
  for (int i = 0;; i++) {
    if (got[i] != want[i])
      return 0;
    if (want[i] < 0)
      return 1;
  }
}

static void cases(void) {
  nw_agglo q;
  int got[65];
  nw_agglo_init(&q, 3);
  for (int i = 0; i < 5; i++)
    push(&q, i, 7, 1, 0);
  CHECK(take(&q, got) == 3 && same(got, (int[]){0, 1, 2, -1})); /* N of 5 */
  CHECK(take(&q, got) == 2 && same(got, (int[]){3, 4, -1}));    /* what is queued */
  CHECK(take(&q, got) == 0 && nw_agglo_queued(&q) == 0);
  nw_agglo_free(&q);

  nw_agglo_init(&q, 8); /* a high-priority unit leaves first, alone */
  push(&q, 0, 1, 1, 0);
  push(&q, 1, 1, 1, 0);
  push(&q, 2, 1, 1, 1);
  push(&q, 3, 1, 1, 0);
  CHECK(take(&q, got) == 1 && same(got, (int[]){2, -1}));
  CHECK(take(&q, got) == 3 && same(got, (int[]){0, 1, 3, -1}));
  /* one group per launch, the others keep their order */
  push(&q, 4, 1, 1, 0);
  push(&q, 5, 2, 1, 0);
  push(&q, 6, 1, 1, 0);
  push(&q, 7, 2, 1, 0);
  push(&q, 8, 1, 1, 0);
  CHECK(take(&q, got) == 3 && same(got, (int[]){4, 6, 8, -1}));
  CHECK(take(&q, got) == 2 && same(got, (int[]){5, 7, -1}));
  /* no batched kernel: alone, whether it leads or sits inside a group */
  push(&q, 9, 3, 0, 0);
  push(&q, 10, 3, 1, 0);
  push(&q, 11, 3, 0, 0);
  push(&q, 12, 3, 1, 0);
  CHECK(take(&q, got) == 1 && same(got, (int[]){9, -1}));
  CHECK(take(&q, got) == 2 && same(got, (int[]){10, 12, -1}));
  CHECK(take(&q, got) == 1 && same(got, (int[]){11, -1}));
  nw_agglo_free(&q);

  nw_agglo_init(&q, 0); /* a maximum below 1 is 1: one launch per unit */
  push(&q, 0, 1, 1, 0);
  push(&q, 1, 1, 1, 0);
  CHECK(take(&q, got) == 1 && take(&q, got) == 1 && take(&q, got) == 0);
  nw_agglo_free(&q);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Random pushes and takes against a reference list: every unit is launched exactly once; a
 * launch is the reference's rule applied to what is queued at that moment. */
static void random_runs(void) {
  for (int run = 0; run < 200; run++) {
    int max = 1 + (int)(next() % 12), n = 0, taken[4096] = {0};
    struct {
      int id, group, batchable, high;
    } ref[4096];
    int nref = 0;
    nw_agglo q;
    nw_agglo_init(&q, max);
    for (int op = 0; op < 600; op++) {
      if (n < 4000 && next() % 3) {
        int g = (int)(next() % 3), b = next() % 5 != 0, h = next() % 11 == 0;
        ref[nref].id = n, ref[nref].group = g, ref[nref].batchable = b, ref[nref].high = h;
        nref++;
        push(&q, n++, (uint64_t)g, b, h);
        continue;
      }
      int want[65], k = 0, lead = -1;
      for (int i = 0; i < nref && lead < 0; i++)
        if (ref[i].high)
          lead = i;
      lead = lead < 0 && nref ? 0 : lead;
      int kept = 0, alone = 0, group = 0;
      if (lead >= 0) {
        alone = ref[lead].high || !ref[lead].batchable;
        group = ref[lead].group;
      }
      for (int i = 0; i < nref; i++) {
        int joins = i == lead || (!alone && i > lead && k < max && !ref[i].high &&
                                  ref[i].batchable && ref[i].group == group);
        if (joins)
          want[k++] = ref[i].id;
        else
          ref[kept++] = ref[i];
      }
      nref = kept;
      want[k] = -1;
      int got[65];
      CHECK(take(&q, got) == k && same(got, want) && k <= max);
      for (int i = 0; i < k; i++)
        CHECK(taken[got[i]]++ == 0);
      CHECK(nw_agglo_queued(&q) == (size_t)nref);
    }
    int got[65];
    while (take(&q, got) > 0)
      for (int i = 0; got[i] >= 0; i++)
        CHECK(taken[got[i]]++ == 0);
    for (int i = 0; i < n; i++)
      CHECK(taken[i] == 1);
    nw_agglo_free(&q);
  }
}

/* Whole warps over the threads that fill the GPU, at most all of it; unknown on either side:
 * all of it. The K20X model: 168 warps. */
static void launch_shares(void) {
  CHECK(nw_gpu_launch_share(32, 5376) == 1.0 / 168);
  CHECK(nw_gpu_launch_share(1, 5376) == 1.0 / 168);  /* a thread holds a whole warp */
  CHECK(nw_gpu_launch_share(33, 5376) == 2.0 / 168); /* two warps */
  CHECK(nw_gpu_launch_share(5376, 5376) == 1.0);
  CHECK(nw_gpu_launch_share(1u << 20, 5376) == 1.0);
  CHECK(nw_gpu_launch_share(0, 5376) == 1.0); /* the kind does not say */
  CHECK(nw_gpu_launch_share(32, 0) == 1.0);   /* the platform does not say */
}

int main(void) {
  launch_shares();
  cases();
  random_runs();
  return check_report("agglo");
}
