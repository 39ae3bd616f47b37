/* steal_rules.c: see steal_rules.h. */
#include "steal_rules.h"

#include <math.h>

int nw_steal_aggression(int nodes, int fails) {
  int half = nodes / 2 > 0 ? nodes / 2 : 1;
  int level = 1 + (2 * fails) / half;
  return level > 3 ? 3 : level;
}

uint64_t nw_steal_quantum(uint64_t q, double rs, double rv) {
  double share = (rs > 0 && rv > 0) ? rs / (rs + rv) : 0.5;
  double quantum = ceil((double)q * share);
  return quantum < 1 ? 0 : (uint64_t)quantum;
}

uint64_t nw_steal_q(uint64_t queued, int prefetched_stage, int aggr) {
  return queued + (prefetched_stage > 0 && prefetched_stage <= aggr ? 1 : 0);
}

int nw_steal_victim(const uint64_t *q, const double *rate, int n, int exclude) {
  int victim = -1;
  double worst = 0;
  for (int i = 0; i < n; i++) {
    if (i == exclude || q[i] == 0)
      continue;
    double finish = (double)q[i] / (rate[i] > 0 ? rate[i] : 1.0);
    if (victim < 0 || finish > worst) {
      victim = i;
      worst = finish;
    }
  }
  return victim;
}

int nw_multiassign_eligible(int same_node, nw_device_kind stealer_kind, nw_device_kind victim_kind,
                            uint64_t victim_pending, int has_copy, int is_copy) {
  if (same_node && stealer_kind == victim_kind)
    return 0;
  return victim_kind != NW_DEVICE_GPU && victim_pending == 0 && !has_copy && !is_copy;
}

int nw_multiassign_worth(double rs, double fetch_s, double rv, double elapsed) {
  if (rs <= 0)
    return 0;
  if (rv <= 0)
    return elapsed >= 1.05 / rs;
  return 1.0 / rs + fetch_s < 1.0 / rv - elapsed;
}

uint64_t nw_prosteal_k(uint64_t range_len, double steal_wait_s, double max_fetch_s, double rate) {
  if (rate <= 0 || range_len == 0)
    return 0;
  double k = floor((steal_wait_s + (max_fetch_s + 1.0 / rate) / 2.0) * rate);
  uint64_t cap = range_len - 1;
  return k < 0 ? 0 : (k > (double)cap ? cap : (uint64_t)k);
}
