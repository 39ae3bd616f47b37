/* heft_rules.c: see heft_rules.h. */
#include <stdlib.h>

#include "heft_rules.h"

int nw_heft_pick(int count, const double *exp_end, const double *len, const double *penalty) {
  double best_end = 0;
  int any = 0;
  for (int g = 0; g < count; g++)
    if (len[g] >= 0 && (!any || exp_end[g] + len[g] < best_end)) {
      best_end = exp_end[g] + len[g];
      any = 1;
    }
  int best = -1;
  double best_fit = 0;
  for (int g = 0; g < count; g++) {
    if (len[g] < 0)
      continue;
    double fit = (exp_end[g] + len[g] - best_end) + (penalty ? penalty[g] : 0.0);
    if (best < 0 || fit < best_fit) {
      best = g;
      best_fit = fit;
    }
  }
  return best;
}

void nw_heft_commit(double *exp_end, int g, double len, double penalty) {
  double sticks_out = penalty > exp_end[g] ? penalty - exp_end[g] : 0.0;
  exp_end[g] += len + sticks_out;
}

double nw_heft_staged_start(double lane_end, double stage_end, double stage_s) {
  return (lane_end > stage_end ? lane_end : stage_end) + stage_s;
}

typedef struct ranked {
  int priority;
  uint64_t id;
} ranked;

static int by_rank(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->priority != y->priority)
    return x->priority > y->priority ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

int nw_rank_by_priority(const int *priority, uint64_t count, uint64_t *order) {
  ranked *r = malloc((count ? count : 1) * sizeof *r);
  if (!r)
    return -1;
  for (uint64_t s = 0; s < count; s++)
    r[s] = (ranked){priority[s], s};
  qsort(r, count, sizeof *r, by_rank);
  for (uint64_t s = 0; s < count; s++)
    order[s] = r[s].id;
  free(r);
  return 0;
}
