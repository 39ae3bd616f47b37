/* locality.c: see locality.h. */
#include "locality.h"

#include <stdlib.h>

/* Completion times are fractions count / capacity, compared exactly by cross-multiplying, so
 * that ties are ties on every machine (the assignment must be the same wherever it runs).
 * count < 2^40 and capacity <= 2^20 keep the products below 2^60. */
typedef struct frac {
  uint64_t num, den;
} frac;

static int frac_cmp(frac a, frac b) {
  uint64_t l = a.num * b.den, r = b.num * a.den;
  return l < r ? -1 : l > r;
}

nw_status nw_locality_assign(uint64_t subtasks, int nodes, const uint64_t *local,
                             const int *capacity, uint32_t *owner) {
  if (nodes < 1 || subtasks >= (1ull << 40))
    return NW_ERR_ARG;
  for (int k = 0; k < nodes; k++)
    if (capacity[k] < 1 || capacity[k] > (1 << 20))
      return NW_ERR_ARG;
  uint64_t *count = calloc((size_t)nodes, sizeof *count);
  if (!count)
    return NW_ERR_NOMEM;
  frac max = {0, 1}; /* the current maximum completion time */
  for (uint64_t s = 0; s < subtasks; s++) {
    /* The preferred node: most local bytes; ties to the lower completion time, then lower id
     * (the loop runs in id order and only a strictly better node replaces the best). */
    int p = 0;
    for (int k = 1; k < nodes; k++) {
      uint64_t lk = local[(uint64_t)k * subtasks + s], lp = local[(uint64_t)p * subtasks + s];
      frac ck = {count[k], (uint64_t)capacity[k]}, cp = {count[p], (uint64_t)capacity[p]};
      if (lk > lp || (lk == lp && frac_cmp(ck, cp) < 0))
        p = k;
    }
    int to = p;
    frac after_p = {count[p] + 1, (uint64_t)capacity[p]};
    if (frac_cmp(after_p, max) > 0) {
      /* It would raise the maximum: the node that raises it least, i.e. with the smallest
       * max(completion after, current maximum), so that every node still below the maximum
       * ties at "raises it by nothing"; ties to the most local bytes, then the lower id. */
      to = -1;
      frac best = {0, 1};
      for (int k = 0; k < nodes; k++) {
        frac ak = {count[k] + 1, (uint64_t)capacity[k]};
        if (frac_cmp(ak, max) < 0)
          ak = max;
        int c = to < 0 ? -1 : frac_cmp(ak, best);
        if (c < 0 ||
            (c == 0 && local[(uint64_t)k * subtasks + s] > local[(uint64_t)to * subtasks + s])) {
          to = k;
          best = ak;
        }
      }
    }
    frac after = {count[to] + 1, (uint64_t)capacity[to]};
    if (frac_cmp(after, max) > 0)
      max = after;
    count[to]++;
    owner[s] = (uint32_t)to;
  }
  free(count);
  return NW_OK;
}

double nw_locality_victim_weight(int nodes, uint64_t local_bytes, uint64_t read_bytes) {
  if (read_bytes == 0)
    return 1.0;
  if (local_bytes > read_bytes) /* cannot happen for consistent inputs; keep the bound */
    local_bytes = read_bytes;
  return 1.0 + (double)nodes * ((double)local_bytes / (double)read_bytes);
}

int nw_locality_pick(const double *weight, unsigned char *tried, int count, uint64_t random) {
  double total = 0;
  int last = -1;
  for (int i = 0; i < count; i++)
    if (!tried[i]) {
      total += weight[i];
      last = i;
    }
  if (last < 0)
    return -1;
  /* The top 53 bits as a uniform double in [0, 1). */
  double target = (double)(random >> 11) * (1.0 / 9007199254740992.0) * total;
  int pick = last; /* rounding can leave target at the total: the last untried entry */
  double sum = 0;
  for (int i = 0; i < count; i++) {
    if (tried[i])
      continue;
    sum += weight[i];
    if (target < sum) {
      pick = i;
      break;
    }
  }
  tried[pick] = 1;
  return pick;
}

typedef struct candidate {
  int64_t gain;
  size_t index;
} candidate;

/* Largest gain first; among equal gains the later entry first. */
static int by_gain(const void *a, const void *b) {
  const candidate *x = a, *y = b;
  if (x->gain != y->gain)
    return x->gain > y->gain ? -1 : 1;
  return x->index > y->index ? -1 : x->index < y->index;
}

uint64_t nw_locality_choose(const int64_t *gain, size_t count, uint64_t want,
                            unsigned char *chosen) {
  for (size_t i = 0; i < count; i++)
    chosen[i] = 0;
  if (want == 0 || count == 0)
    return 0;
  candidate *c = malloc(count * sizeof *c);
  if (!c)
    return 0;
  for (size_t i = 0; i < count; i++)
    c[i] = (candidate){gain[i], i};
  qsort(c, count, sizeof *c, by_gain);
  uint64_t take = want < count ? want : count;
  for (uint64_t i = 0; i < take; i++)
    chosen[c[i].index] = 1;
  free(c);
  return take;
}
