/* workgroup.h: the size of a CPU work-group, found per task by the paper's binary search
 * (section 4.3.1), as pure functions pinned by tests/unit/test_workgroup.c.
 *
 * A CPU work-group device runs one subtask at a time as `size` work-items, one per core, on a
 * node's C compute cores. The first subtask of a task runs on all C cores, the second on C/2;
 * if the first was faster the third tries 3C/4, otherwise C/4; and so on: the search keeps the
 * fastest size seen as the upper end of an interval and halves the interval below it, so it
 * settles on the smallest size that is no slower than any larger one it measured (ties go to
 * fewer cores, which leaves cores to the runtime's support work: section 4.3.1, "CPU cores do
 * not over-execute subtasks"). After about log2(C) + 1 subtasks it stays at that size for the
 * rest of the task. It finds the knee of a cost that falls and then stays flat as cores are
 * added (memory bandwidth running out); a cost that rises again past a peak may leave it one
 * interval below the peak, since it never looks above its best.
 */
#ifndef NW_WORKGROUP_H
#define NW_WORKGROUP_H

typedef struct nw_wg_search {
  int cores;     /* C: the largest size */
  int lo;        /* sizes <= lo lost to `best` (0 at first) */
  int best;      /* the fastest size measured so far (C before any) */
  double best_s; /* its cost; < 0 before the first measurement */
  int next;      /* the size the next subtask runs with */
  int settled;   /* the interval is empty: next == best from now on */
} nw_wg_search;

/* Starts a search over [1, cores] (cores >= 1): the first subtask runs on all cores. */
void nw_wg_init(nw_wg_search *s, int cores);

/* A subtask run with `size` items cost `cost` (its execution seconds, per flop of the cost
 * model where the kind has one, so that subtasks of different sizes compare fairly). Only
 * the measurement of the size being tried moves the search; others (a subtask launched
 * before the previous answer came) are ignored. */
void nw_wg_observe(nw_wg_search *s, int size, double cost);

#endif
