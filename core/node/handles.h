/* handles.h: the driver's handles on spaces and tasks (struct nw_space, struct nw_task), which
 * api.c makes and node 0 reads. */
#ifndef NW_HANDLES_H
#define NW_HANDLES_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

/* The driver's handles (api.c). */
struct nw_space {
  nw_runtime *rt;
  uint64_t id, size, pitch;
  struct nw_space *doomed_next; /* destroyed inside a spawn callback: freed at the run's end */
};

struct nw_task {
  nw_runtime *rt;
  uint64_t id;
  const nw_task_kind *kind;
  uint64_t subtasks;
  unsigned char *conf;
  size_t conf_size;
  /* Its bound spaces, nbound of them (room for capbound), grown by nw_task_bind: */
  int nbound, capbound;
  nw_space **space;
  nw_access *access;
  nw_reduce_op *reduce_op; /* 0: the space's writes may not overlap */
  nw_elem_type *reduce_type;
  uint64_t *space_size, *space_pitch; /* what a callback's nw_task_info points at */
  int submitted; /* the driver's: nw_task_submit was called (only the driver thread reads it) */
  /* Its place in the order of submission (from 1, given by nw_task_submit), and the tasks it
   * waits for besides what its spaces imply (nw_task_depend), all submitted before it, by
   * that number: node 0 finds them among its queued entries, since a handle may have been
   * destroyed by then. */
  uint64_t seq;
  uint64_t *deps;
  int ndeps;
  struct nw_submitted *entry;            /* node 0's: its queue entry while queued */
  struct nw_task *live_next, *live_prev; /* the runtime's live handles (api.c) */
  int started, complete;                 /* node 0's: TASK_START went out; every subtask done */
  /* Node 0 of a resilient run (recover.c): when it last started, and whether a recovery rolled
   * it back and has not started it again yet. */
  double started_s;
  int restart_pending;
  nw_status result;
  double flops; /* cost-model work of all subtasks (CPU) */
  /* Nested tasks (nested.c). parent: the task whose spawn callback created this one (NULL for
   * the driver's own). The driver's thread owns children/sibling and in_spawn; node 0 owns
   * body_done (its subtasks are done and published, it waits for its spawn callback and
   * children), spawn_returned and open_children (children submitted and not complete). */
  struct nw_task *parent, *children, *sibling;
  int in_spawn;
  int body_done, spawn_returned;
  uint64_t open_children;
};

#endif
