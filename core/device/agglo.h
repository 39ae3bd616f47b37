/* agglo.h: the accelerator FIFO of dynamic work agglomeration, as a rule a backend applies.
 *
 * Lifflander, Evans, Arya, Kale, "Dynamic Scheduling for Work Agglomeration on Heterogeneous
 * Clusters", sections III-IV and Fig. 1: work that has an agglomerating kernel waits in the
 * accelerator's FIFO instead of running at once; "when the scheduler finds no high priority
 * work and a non-empty accelerator FIFO, it will dispatch the maximal amount of work from the
 * FIFO that can be executed in a single agglomerating kernel", up to a maximum agglomeration
 * size. Since the FIFO fills while the accelerator is busy, the size of a launch follows the
 * rate at which work arrives, which is the scheme's point.
 *
 * Here the work units are a GPU's subtasks, launched by its lanes (the GPU's devices, one per
 * --gpu-streams) into the FIFO; the backend takes the next launch when the GPU falls idle.
 * High-priority work (a kind's priority > 0) is never agglomerated: it leaves the FIFO first,
 * alone, as the paper's high-priority work runs before any agglomerated launch. Only work of
 * one group (one task: one kind, one batched kernel entry, one nw_task_info) shares a launch.
 * Pure bookkeeping, no allocation of the work itself, so any thread may own one under its
 * backend's lock.
 */
#ifndef NW_AGGLO_H
#define NW_AGGLO_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

typedef struct nw_agglo_item {
  void *what;
  uint64_t group; /* items of one group may share a launch */
  int batchable;  /* its kind has a batched kernel entry */
  int high;       /* high priority: launched alone, before the rest */
} nw_agglo_item;

typedef struct nw_agglo {
  nw_agglo_item *item; /* queued, oldest first */
  size_t n, cap;
  int max; /* the maximum agglomeration size, >= 1 */
} nw_agglo;

nw_status nw_agglo_init(nw_agglo *q, int max);
void nw_agglo_free(nw_agglo *q);
nw_status nw_agglo_push(nw_agglo *q, nw_agglo_item item);
size_t nw_agglo_queued(const nw_agglo *q);
/* Removes the next launch from the FIFO into out (room for q->max) and returns its size (0
 * when empty): the oldest high-priority item alone if there is one; else the oldest item,
 * alone unless batchable, with the next batchable items of its group, oldest first, up to max.
 * What stays keeps its order. */
int nw_agglo_take(nw_agglo *q, void **out);

#endif
