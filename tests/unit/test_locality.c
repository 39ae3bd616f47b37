/* test_locality.c: the rules of locality-aware scheduling (core/sched/locality.h), on hand-made
 * affinity matrices: the initial assignment, the victim weights and draw, the choice of what a
 * steal hands over. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "locality.h"
#include "rng.h"

/* Every subtask has exactly one node, in range; counts per node into count[]. */
static int assigned_once(const uint32_t *owner, uint64_t subtasks, int nodes, uint64_t *count) {
  memset(count, 0, (size_t)nodes * sizeof *count);
  for (uint64_t s = 0; s < subtasks; s++) {
    if (owner[s] >= (uint32_t)nodes)
      return 0;
    count[owner[s]]++;
  }
  uint64_t sum = 0;
  for (int k = 0; k < nodes; k++)
    sum += count[k];
  return sum == subtasks;
}

static void assignment(void) {
  uint32_t owner[64];
  uint64_t count[8];

  /* Balanced data: every subtask goes where its data is. local[k][s]. */
  {
    const uint64_t local[2][4] = {{100, 0, 100, 0}, {0, 100, 0, 100}};
    const int cap[2] = {1, 1};
    CHECK(nw_locality_assign(4, 2, &local[0][0], cap, owner) == NW_OK);
    CHECK(owner[0] == 0 && owner[1] == 1 && owner[2] == 0 && owner[3] == 1);
  }
  /* Everything prefers node 0: load balancing overrides the preference, alternately. */
  {
    const uint64_t local[2][4] = {{100, 100, 100, 100}, {0, 0, 0, 0}};
    const int cap[2] = {1, 1};
    CHECK(nw_locality_assign(4, 2, &local[0][0], cap, owner) == NW_OK);
    CHECK(owner[0] == 0 && owner[1] == 1 && owner[2] == 0 && owner[3] == 1);
  }
  /* Capacities: node 0 with three devices takes three times node 1's share, although every
   * subtask prefers node 1. */
  {
    uint64_t local[2][8];
    for (int s = 0; s < 8; s++)
      local[0][s] = 0, local[1][s] = 100;
    const int cap[2] = {3, 1};
    CHECK(nw_locality_assign(8, 2, &local[0][0], cap, owner) == NW_OK);
    CHECK(assigned_once(owner, 8, 2, count) && count[0] == 6 && count[1] == 2);
    CHECK(owner[2] == 1 && owner[6] == 1); /* node 1 whenever it raises no maximum */
  }
  /* Ties in preference go to the lower completion time, not just the lower id: with no local
   * data anywhere and capacities 1, 2, 1, subtask 2 prefers node 2 (completion 0) over node 1
   * (1/2) and node 0 (1), and node 2 raises no maximum. The lower id alone would have made it
   * prefer node 0, which raises the maximum, and then fall back to node 1. */
  {
    const uint64_t local[3][3] = {{0}};
    const int cap[3] = {1, 2, 1};
    CHECK(nw_locality_assign(3, 3, &local[0][0], cap, owner) == NW_OK);
    CHECK(owner[0] == 1 && owner[1] == 0 && owner[2] == 2);
  }
  /* Subtask 1 prefers node 0, which would raise the maximum; of the nodes that raise it by
   * nothing, the one with the most local bytes (node 2) wins... */
  {
    const uint64_t local[3][2] = {{100, 100}, {0, 5}, {0, 9}};
    const int cap[3] = {1, 1, 1};
    CHECK(nw_locality_assign(2, 3, &local[0][0], cap, owner) == NW_OK);
    CHECK(owner[0] == 0 && owner[1] == 2);
  }
  /* ...and with equal local bytes, the lower id. */
  {
    const uint64_t local[3][2] = {{100, 100}, {0, 5}, {0, 5}};
    const int cap[3] = {1, 1, 1};
    CHECK(nw_locality_assign(2, 3, &local[0][0], cap, owner) == NW_OK);
    CHECK(owner[0] == 0 && owner[1] == 1);
  }
  /* One node: everything on node 0. */
  {
    const uint64_t local[5] = {0, 7, 0, 3, 1};
    const int cap[1] = {4};
    memset(owner, 0xff, sizeof owner);
    CHECK(nw_locality_assign(5, 1, local, cap, owner) == NW_OK);
    CHECK(assigned_once(owner, 5, 1, count) && count[0] == 5);
  }
  /* A random matrix: each subtask once; equal capacities keep the counts within one; a
   * subtask not on its preferred node only where that node was full. */
  {
    enum { S = 64, N = 5 };
    uint64_t local[N][S], rng = 42;
    for (int k = 0; k < N; k++)
      for (int s = 0; s < S; s++)
        local[k][s] = nw_rng_next(&rng) % 4 * 1000;
    const int cap[N] = {2, 2, 2, 2, 2};
    CHECK(nw_locality_assign(S, N, &local[0][0], cap, owner) == NW_OK);
    CHECK(assigned_once(owner, S, N, count));
    uint64_t lo = S, hi = 0, on_preferred = 0;
    for (int k = 0; k < N; k++) {
      lo = count[k] < lo ? count[k] : lo;
      hi = count[k] > hi ? count[k] : hi;
    }
    CHECK(hi - lo <= 1);
    for (int s = 0; s < S; s++) {
      uint64_t best = 0;
      for (int k = 0; k < N; k++)
        best = local[k][s] > best ? local[k][s] : best;
      on_preferred += local[owner[s]][s] == best;
    }
    CHECK(on_preferred > S / 2); /* far above the 1/N of a locality-oblivious split */
  }
  /* Bad input is refused, not assumed. */
  {
    const uint64_t local[2] = {0, 0};
    const int cap[2] = {1, 0};
    CHECK(nw_locality_assign(1, 2, local, cap, owner) == NW_ERR_ARG);
    CHECK(nw_locality_assign(1, 0, local, cap, owner) == NW_ERR_ARG);
  }
}

static void victim_weights(void) {
  CHECK(nw_locality_victim_weight(4, 0, 0) == 1.0);   /* reads nothing: neutral */
  CHECK(nw_locality_victim_weight(4, 0, 100) == 1.0); /* nothing local: still possible */
  CHECK(nw_locality_victim_weight(4, 50, 100) == 3.0);
  CHECK(nw_locality_victim_weight(4, 100, 100) == 5.0);
  CHECK(nw_locality_victim_weight(14, 100, 100) == 15.0);

  /* The draw: proportional to the weights, every untried entry possible, tried ones never. */
  double w[3] = {1.0, 100.0, 1.0};
  unsigned char tried[3];
  int hits[3] = {0, 0, 0};
  uint64_t rng = 7;
  for (int i = 0; i < 20000; i++) {
    memset(tried, 0, sizeof tried);
    tried[2] = 1;
    int k = nw_locality_pick(w, tried, 3, nw_rng_next(&rng));
    CHECK(k == 0 || k == 1);
    if (k >= 0) {
      hits[k]++;
      CHECK(tried[k] == 1);
    }
  }
  CHECK(hits[2] == 0);
  CHECK(hits[0] > 0);                    /* a weight-1 node is still chosen sometimes */
  CHECK(hits[0] > 100 && hits[0] < 400); /* about 20000 / 101 = 198 */
  /* The ends of the random range: 0 picks the first untried entry, the largest the last. */
  memset(tried, 0, sizeof tried);
  CHECK(nw_locality_pick(w, tried, 3, 0) == 0);
  memset(tried, 0, sizeof tried);
  CHECK(nw_locality_pick(w, tried, 3, UINT64_MAX) == 2);
  /* Deterministic: the same number gives the same entry. */
  for (uint64_t r = 1; r < 1000000000000ull; r *= 7) {
    unsigned char t1[3] = {0}, t2[3] = {0};
    CHECK(nw_locality_pick(w, t1, 3, r * 0x9E3779B97F4A7C15ull) ==
          nw_locality_pick(w, t2, 3, r * 0x9E3779B97F4A7C15ull));
  }
  /* Nothing left untried. */
  memset(tried, 1, sizeof tried);
  CHECK(nw_locality_pick(w, tried, 3, 12345) == -1);
}

static void steal_choice(void) {
  unsigned char chosen[5];
  const int64_t gain[5] = {5, -1, 5, 3, 0};
  CHECK(nw_locality_choose(gain, 5, 2, chosen) == 2);
  CHECK(chosen[0] && chosen[2] && !chosen[1] && !chosen[3] && !chosen[4]);
  CHECK(nw_locality_choose(gain, 5, 1, chosen) == 1);
  CHECK(chosen[2] && !chosen[0]); /* equal gains: the later one */
  CHECK(nw_locality_choose(gain, 5, 3, chosen) == 3);
  CHECK(chosen[0] && chosen[2] && chosen[3]);
  /* No affinity difference: the tail, as without locality. */
  const int64_t flat[5] = {0, 0, 0, 0, 0};
  CHECK(nw_locality_choose(flat, 5, 2, chosen) == 2);
  CHECK(!chosen[0] && !chosen[1] && !chosen[2] && chosen[3] && chosen[4]);
  /* More wanted than there is: everything. */
  CHECK(nw_locality_choose(gain, 5, 9, chosen) == 5);
  CHECK(chosen[0] && chosen[1] && chosen[2] && chosen[3] && chosen[4]);
  CHECK(nw_locality_choose(gain, 5, 0, chosen) == 0 && !chosen[0] && !chosen[2]);
}

int main(void) {
  assignment();
  victim_weights();
  steal_choice();
  return check_report("locality");
}
