/* workgroup.c: see workgroup.h. */
#include "workgroup.h"

/* The next size to try: the middle of (lo, best), or best itself once nothing lies between. */
static void choose_next(nw_wg_search *s) {
  if (s->best - s->lo >= 2) {
    s->next = (s->lo + s->best) / 2;
  } else {
    s->next = s->best;
    s->settled = 1;
  }
}

void nw_wg_init(nw_wg_search *s, int cores) {
  if (cores < 1)
    cores = 1;
  *s = (nw_wg_search){.cores = cores, .lo = 0, .best = cores, .best_s = -1, .next = cores};
  s->settled = cores == 1;
}

void nw_wg_observe(nw_wg_search *s, int size, double cost) {
  if (s->settled || size != s->next || !(cost >= 0))
    return;
  if (s->best_s < 0) { /* the first measurement: all cores */
    s->best_s = cost;
  } else if (cost <= s->best_s) { /* the smaller size is no slower: look below it */
    s->best = size;
    s->best_s = cost;
  } else { /* slower: the answer lies above it */
    s->lo = size;
  }
  choose_next(s);
}
