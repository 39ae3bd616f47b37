/* test_heft_rules.c: the decisions of StarPU's model-based policies (core/sched/heft_rules.h)
 * on hand-made situations. */
#include <stdint.h>

#include "check.h"
#include "heft_rules.h"

int main(void) {
  /* dm: the device of earliest predicted finish. Device 0 is free now but slow (10 s), device
   * 1 is busy for 4 s but fast (2 s): 6 < 10, so device 1. */
  double end[3] = {0, 4, 9};
  double len[3] = {10, 2, 1};
  CHECK(nw_heft_pick(3, end, len, NULL) == 1);
  /* Device 2 would end at 10 too: not earlier than device 1's 6. */
  /* dmda: the same, but device 1 lacks the data and needs 5 s to get it: its fitness is
   * 0 + 5 = 5, device 0's is 4 + 0, device 2's 4 + 0; ties go to the lower index. */
  double pen[3] = {0, 5, 0};
  CHECK(nw_heft_pick(3, end, len, pen) == 0);
  /* A small penalty does not change dm's choice. */
  double small[3] = {0, 1, 0};
  CHECK(nw_heft_pick(3, end, len, small) == 1);
  /* Unknown durations are never chosen; none known: -1. */
  double unknown[3] = {-1, -1, 3};
  CHECK(nw_heft_pick(3, end, unknown, NULL) == 2);
  double none[2] = {-1, -1};
  CHECK(nw_heft_pick(2, end, none, NULL) == -1);

  /* Commit: the transfer overlaps queued work. Device 1 is busy 4 s; a 3 s transfer hides
   * entirely, a 6 s one sticks out by 2 s. */
  double e[2] = {0, 4};
  nw_heft_commit(e, 1, 2, 3);
  CHECK(e[1] == 6);
  nw_heft_commit(e, 1, 2, 10); /* busy until 6: 4 s stick out */
  CHECK(e[1] == 12);
  nw_heft_commit(e, 0, 1, 0);
  CHECK(e[0] == 1);

  /* A sequence: four equal subtasks on a device twice as fast as the other go 3 to 1. */
  double ends[2] = {0, 0}, lens[2] = {2, 1};
  int on[2] = {0, 0};
  for (int i = 0; i < 4; i++) {
    int g = nw_heft_pick(2, ends, lens, NULL);
    nw_heft_commit(ends, g, lens[g], 0);
    on[g]++;
  }
  CHECK(on[1] == 3 && on[0] == 1);

  /* A many-task GPU's lanes share its host stage. The lane is free at 2 but the stage is busy
   * until 5: the subtask starts at 5 + 1. A lane busy past the stage starts after itself. */
  CHECK(nw_heft_staged_start(2, 5, 1) == 6);
  CHECK(nw_heft_staged_start(7, 5, 1) == 8);
  /* Four lanes of a GPU behind a stage of 1 s per subtask, a subtask taking 2 s on a lane,
   * and one CPU core taking 4.5 s: eight subtasks. Without the stage the lanes look like four
   * devices and take all eight, two each, ending at 4. With it, lane k's first subtask starts
   * at k (the stage passes one a second), and the CPU wins the third (a lane would end it at
   * 5, the core at 4.5) and the last (a tie at 9, which goes to the lower index). */
  double free_at[5], dur[5] = {4.5, 2, 2, 2, 2}, begin[5];
  int cpu_takes[2];
  for (int staged = 0; staged < 2; staged++) {
    double stage = 0;
    cpu_takes[staged] = 0;
    for (int g = 0; g < 5; g++)
      free_at[g] = 0;
    for (int i = 0; i < 8; i++) {
      for (int g = 0; g < 5; g++)
        begin[g] = g > 0 && staged ? nw_heft_staged_start(free_at[g], stage, 1) : free_at[g];
      int g = nw_heft_pick(5, begin, dur, NULL);
      if (g > 0 && staged)
        stage = begin[g];
      free_at[g] = begin[g];
      nw_heft_commit(free_at, g, dur[g], 0);
      cpu_takes[staged] += g == 0;
    }
  }
  CHECK(cpu_takes[0] == 0);
  CHECK(cpu_takes[1] == 2);
  CHECK(free_at[0] == 9);

  /* Priority order (prio, dmdas): larger first, equal ones in id order. */
  int prio[6] = {0, 5, 0, 7, 5, -1};
  uint64_t order[6];
  CHECK(nw_rank_by_priority(prio, 6, order) == 0);
  uint64_t want[6] = {3, 1, 4, 0, 2, 5};
  for (int i = 0; i < 6; i++)
    CHECK(order[i] == want[i]);
  /* All equal: the FIFO order (eager's). */
  int flat[4] = {0, 0, 0, 0};
  CHECK(nw_rank_by_priority(flat, 4, order) == 0);
  for (int i = 0; i < 4; i++)
    CHECK(order[i] == (uint64_t)i);
  return check_report("heft_rules");
}
