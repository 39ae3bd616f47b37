/* real_placement.c: see real_placement.h. */
#define _GNU_SOURCE
#include "real_placement.h"

#include <pthread.h>
#include <string.h>

void real_placement_plan(real_placement *p, int reserved, int compute_cores) {
  memset(p, 0, sizeof *p);
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (reserved <= 0 || sched_getaffinity(0, sizeof mask, &mask) != 0)
    return;
  int have = CPU_COUNT(&mask);
  if (have <= reserved || compute_cores > have - reserved)
    return;
  CPU_ZERO(&p->runtime);
  CPU_ZERO(&p->compute);
  p->original = mask;
  int taken = 0;
  for (int c = 0; c < CPU_SETSIZE && taken < have; c++) {
    if (!CPU_ISSET(c, &mask))
      continue;
    if (taken++ < reserved)
      CPU_SET(c, &p->runtime);
    else
      CPU_SET(c, &p->compute);
  }
  p->active = 1;
}

/* A refusal (a cpuset that changed under the run) leaves the thread where it was: slower
 * perhaps, never wrong. */
void real_placement_runtime(const real_placement *p) {
  if (p->active)
    (void)pthread_setaffinity_np(pthread_self(), sizeof p->runtime, &p->runtime);
}

void real_placement_compute(const real_placement *p) {
  if (p->active)
    (void)pthread_setaffinity_np(pthread_self(), sizeof p->compute, &p->compute);
}

void real_placement_restore(const real_placement *p) {
  if (p->active)
    (void)pthread_setaffinity_np(pthread_self(), sizeof p->original, &p->original);
}
