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
 *
 * Static agglomeration (--agglomerate-mode static; the paper's comparison, sections V-A6 and
 * V-B, "a fixed number of work units are agglomerated"): a batchable group's launch waits until
 * the FIFO holds max units of it, and takes fewer only in the paper's edge case, when no more
 * can come for it: no lane of the GPU can put another unit of the group in before a launch. A
 * lane runs one subtask at a time (pipeline.c), so one whose unit waits in the FIFO can give no
 * other until a launch; one that still holds a unit of the group (queued, prefetched or being
 * staged, but not waiting for room on the GPU, which the FIFO's units hold) can. The backend
 * answers that question through nw_agglo_more_fn, from which lanes the FIFO holds
 * (nw_agglo_holds_lane) and what the node's devices hold (nw_pipeline_may_add, pipeline.h). As in
 * the paper's Molecular2D, where each scheduler counts the interaction objects mapped to it, the
 * count is of the work dealt to this GPU's lanes: a unit a lane steals later arrives after the
 * edge-case launch and forms one of its own.
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
  int lane;       /* the device that put it in (read by static mode only) */
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

/* Static agglomeration. more(ctx, group): whether another unit of the group can still reach
 * the FIFO before its next launch (the backend's answer; see above). */
typedef int (*nw_agglo_more_fn)(void *ctx, uint64_t group);
/* Removes the next static launch into out and returns its size, 0 when none may go yet: the
 * oldest high-priority item alone if there is one; else, oldest first, the first item that is
 * not batchable (alone), or the first whose group holds max batchable items (the oldest max)
 * or fewer that more() says no unit can join (all of them). A group still short waits. */
int nw_agglo_take_static(nw_agglo *q, void **out, nw_agglo_more_fn more, void *ctx);
/* Whether an item that `lane` put in is queued (the lane is blocked until a launch). */
int nw_agglo_holds_lane(const nw_agglo *q, int lane);

#endif
