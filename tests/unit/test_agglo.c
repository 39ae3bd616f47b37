/* test_agglo.c: the accelerator FIFO of dynamic agglomeration (core/device/agglo.h): a launch
 * takes min(queued of the lead's group, N) in FIFO order, high priority goes first and alone,
 * work without a batched kernel goes alone, and nothing is lost or taken twice. Static
 * agglomeration: a group's launch holds exactly N while more can come, and the remainder only
 * when none can (the edge case). Also the share of a GPU a launch's width gives
 * (nw_gpu_launch_share), what a launch and a batch are charged. */
#include <stdint.h>
#include <string.h>

#include "agglo.h"
#include "backend.h"
#include "check.h"

static int ids[4096];

static void push(nw_agglo *q, int id, uint64_t group, int batchable, int high) {
  ids[id] = id;
  CHECK(nw_agglo_push(q, (nw_agglo_item){&ids[id], group, batchable, high, id % 16}) == NW_OK);
}

/* Static mode's question, answered per group: more[g] says units of g can still come. */
typedef struct answers {
  int more[4];
  int asked;
} answers;

static int may_grow(void *ctx, uint64_t group) {
  answers *a = ctx;
  a->asked++;
  return a->more[group];
}

static int take_static(nw_agglo *q, int *got, answers *a) {
  void *out[64];
  int k = nw_agglo_take_static(q, out, may_grow, a);
  for (int i = 0; i < k; i++)
    got[i] = *(int *)out[i];
  got[k] = -1;
  return k;
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

/* Static agglomeration (agglo.h): exactly N while more can come, the rest in the edge case. */
static void static_cases(void) {
  nw_agglo q;
  int got[65];
  answers a = {{1, 1, 1, 1}, 0};
  nw_agglo_init(&q, 4);
  for (int i = 0; i < 3; i++)
    push(&q, i, 1, 1, 0);
  CHECK(take_static(&q, got, &a) == 0 && nw_agglo_queued(&q) == 3); /* 3 of 4: it waits */
  CHECK(a.asked == 1);
  push(&q, 3, 1, 1, 0);
  for (int i = 4; i < 10; i++)
    push(&q, i, 1, 1, 0);
  CHECK(take_static(&q, got, &a) == 4 && same(got, (int[]){0, 1, 2, 3, -1})); /* N of 10 */
  CHECK(take_static(&q, got, &a) == 4 && same(got, (int[]){4, 5, 6, 7, -1}));
  CHECK(take_static(&q, got, &a) == 0 && nw_agglo_queued(&q) == 2); /* 2 wait for more */
  a.more[1] = 0;                                                    /* none can come */
  CHECK(take_static(&q, got, &a) == 2 && same(got, (int[]){8, 9, -1}));
  CHECK(take_static(&q, got, &a) == 0 && nw_agglo_queued(&q) == 0);
  /* the lanes the FIFO holds: push() gives unit id the lane id % 16 */
  push(&q, 10, 2, 1, 0);
  CHECK(nw_agglo_holds_lane(&q, 10) && !nw_agglo_holds_lane(&q, 11));
  /* a short group waits; units behind it that need not wait go: not batchable, high
   * priority, another group that is full */
  a.more[2] = 1;
  push(&q, 11, 3, 1, 0);
  push(&q, 12, 2, 0, 0);
  CHECK(take_static(&q, got, &a) == 1 && same(got, (int[]){12, -1}));
  push(&q, 13, 2, 1, 1);
  CHECK(take_static(&q, got, &a) == 1 && same(got, (int[]){13, -1}));
  a.more[3] = 1;
  for (int i = 14; i < 17; i++)
    push(&q, i, 3, 1, 0);
  CHECK(take_static(&q, got, &a) == 4 && same(got, (int[]){11, 14, 15, 16, -1}));
  CHECK(take_static(&q, got, &a) == 0 && nw_agglo_queued(&q) == 1);
  a.more[2] = 0;
  CHECK(take_static(&q, got, &a) == 1 && same(got, (int[]){10, -1}));
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

/* Random pushes, answers and static takes: every unit is launched once; a batchable launch
 * is of one group and holds exactly N unless its group could grow no more when it left. */
static void random_static_runs(void) {
  for (int run = 0; run < 200; run++) {
    int max = 1 + (int)(next() % 12), n = 0, taken[4096] = {0}, group_of[4096], alone[4096];
    answers a = {{1, 1, 1, 1}, 0};
    nw_agglo q;
    nw_agglo_init(&q, max);
    for (int op = 0; op < 600; op++) {
      if (n < 4000 && next() % 3) {
        int g = (int)(next() % 3), b = next() % 5 != 0, h = next() % 11 == 0;
        group_of[n] = g, alone[n] = !b || h;
        push(&q, n++, (uint64_t)g, b, h);
        continue;
      }
      for (int g = 0; g < 3; g++)
        a.more[g] = next() % 4 != 0;
      int got[65], k = take_static(&q, got, &a);
      CHECK(k <= max);
      if (k > 1 || (k == 1 && !alone[got[0]])) {
        for (int i = 0; i < k; i++)
          CHECK(!alone[got[i]] && group_of[got[i]] == group_of[got[0]]);
        CHECK(k == max || !a.more[group_of[got[0]]]);
      }
      for (int i = 0; i < k; i++)
        CHECK(taken[got[i]]++ == 0);
    }
    a.more[0] = a.more[1] = a.more[2] = 0;
    int got[65];
    while (take_static(&q, got, &a) > 0)
      for (int i = 0; got[i] >= 0; i++)
        CHECK(taken[got[i]]++ == 0);
    CHECK(nw_agglo_queued(&q) == 0);
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
  static_cases();
  random_static_runs();
  return check_report("agglo");
}
