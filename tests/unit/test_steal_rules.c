/* test_steal_rules.c: the rules of paper section 4.3.2, one by one. */
#include "check.h"
#include "steal_rules.h"

int main(void) {
  /* Aggression: 1 at first, 3 after N/2 consecutive failures, 2 half-way. */
  CHECK(nw_steal_aggression(8, 0) == 1);
  CHECK(nw_steal_aggression(8, 1) == 1);
  CHECK(nw_steal_aggression(8, 2) == 2);
  CHECK(nw_steal_aggression(8, 3) == 2);
  CHECK(nw_steal_aggression(8, 4) == 3);
  CHECK(nw_steal_aggression(8, 100) == 3);
  CHECK(nw_steal_aggression(14, 6) == 2 && nw_steal_aggression(14, 7) == 3);
  CHECK(nw_steal_aggression(1, 0) == 1 && nw_steal_aggression(1, 1) == 3); /* N/2 < 1 */

  /* Quantum ceil(Q * Rs / (Rs + Rv)); a stealer 3x faster takes 3/4. */
  CHECK(nw_steal_quantum(8, 3.0, 1.0) == 6);
  CHECK(nw_steal_quantum(8, 1.0, 1.0) == 4);
  CHECK(nw_steal_quantum(7, 1.0, 1.0) == 4);      /* ceil(3.5) */
  CHECK(nw_steal_quantum(1, 0.001, 1000.0) == 1); /* ceil of a tiny share is still one */
  CHECK(nw_steal_quantum(5, 0, 2.0) == 3);        /* unknown rate: half, rounded up */
  CHECK(nw_steal_quantum(0, 1.0, 1.0) == 0);      /* nothing: the steal fails */

  /* Stage filtering: the prefetched subtask counts only at aggression >= its stage. */
  CHECK(nw_steal_q(2, 0, 3) == 2); /* none prefetched */
  CHECK(nw_steal_q(2, 2, 1) == 2); /* waiting for data: not at aggression 1 */
  CHECK(nw_steal_q(2, 2, 2) == 3);
  CHECK(nw_steal_q(0, 3, 2) == 0); /* ready: needs aggression 3 */
  CHECK(nw_steal_q(0, 3, 3) == 1);

  /* Victim: largest Q/R; unknown rate counts as 1; the stealer itself and empty devices never. */
  uint64_t q[4] = {4, 6, 0, 5};
  double r[4] = {1.0, 3.0, 9.0, 0};
  CHECK(nw_steal_victim(q, r, 4, -1) == 3); /* 4/1, 6/3, -, 5/1 */
  CHECK(nw_steal_victim(q, r, 4, 3) == 0);
  uint64_t none[2] = {0, 0};
  CHECK(nw_steal_victim(none, r, 2, -1) == -1);
  /* Multi-assign eligibility: another node, or another device type on the same node. */
  const nw_device_kind C = NW_DEVICE_CPU, G = NW_DEVICE_GPU;
  CHECK(nw_multiassign_eligible(0, C, C, 0, 0, 0));  /* a CPU of another node */
  CHECK(!nw_multiassign_eligible(1, C, C, 0, 0, 0)); /* a CPU of the same node: alike */
  CHECK(nw_multiassign_eligible(1, G, C, 0, 0, 0));  /* a GPU copies its node's CPU */
  CHECK(nw_multiassign_eligible(0, G, C, 0, 0, 0));
  CHECK(!nw_multiassign_eligible(0, C, G, 0, 0, 0)); /* never a GPU's subtask */
  CHECK(!nw_multiassign_eligible(1, C, G, 0, 0, 0));
  CHECK(!nw_multiassign_eligible(0, C, C, 1, 0, 0)); /* only the victim's last subtask */
  CHECK(!nw_multiassign_eligible(0, C, C, 0, 1, 0)); /* at most two holders */
  CHECK(!nw_multiassign_eligible(0, C, C, 0, 0, 1)); /* a copy is not copied again */
  /* Multi-assign: a copy is worth it only if it would finish before the original. */
  CHECK(nw_multiassign_worth(1.0, 0.1, 0.25, 1.0));  /* 1.1 s < 4 - 1 = 3 s left */
  CHECK(!nw_multiassign_worth(1.0, 0.1, 0.25, 3.0)); /* 1.1 s > 1 s left */
  CHECK(!nw_multiassign_worth(1.0, 0.0, 1.0, 0.0));  /* equal devices: never */
  CHECK(!nw_multiassign_worth(0, 0, 0.25, 10.0));    /* stealer rate unknown */
  CHECK(nw_multiassign_worth(2.0, 0, 0, 0.6));       /* victim rate unknown: 0.6 >= 0.525 */
  CHECK(!nw_multiassign_worth(2.0, 0, 0, 0.5));
  /* ProSteal's k: (wait + (fetch + 1/rate)/2) * rate, floored, at most range - 1. */
  CHECK(nw_prosteal_k(10, 0.5, 1.0, 2.0) == 2); /* (0.5 + (1 + 0.5)/2) * 2 = 2.5 */
  CHECK(nw_prosteal_k(10, 0.0, 0.0, 4.0) == 0); /* (0 + 0.25/2) * 4 = 0.5 */
  CHECK(nw_prosteal_k(3, 10.0, 0.0, 1.0) == 2); /* capped at range - 1 */
  CHECK(nw_prosteal_k(10, 1.0, 1.0, 0) == 0);   /* rate unknown: only when dry */
  CHECK(nw_prosteal_k(0, 1.0, 1.0, 1.0) == 0);
  return check_report("steal_rules");
}
