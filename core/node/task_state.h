/* task_state.h: a task as one node runs it (struct nw_task_state) and its bound spaces. */
#ifndef NW_TASK_STATE_H
#define NW_TASK_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "exec_state.h"
#include "locality_sched.h"
#include "reduce.h"
#include "reduce_tree.h"
#include "region.h"
#include "resend.h"
#include "space_state.h"

typedef struct nw_bound {
  nw_space_state *space;
  nw_access access;
  nw_reducer reduce; /* op 0: not reduced */
} nw_bound;

/* A task as one node runs it. */
struct nw_task_state {
  uint64_t id;
  const nw_task_kind *kind;
  nw_task_info info;
  unsigned char *conf;
  /* Per bound space (info.nspaces entries each, allocated at its start): the binding, the set
   * S of paper section 3, what this node held at the start (its temporary directory: what
   * "local" means for locality, paper 4.3.4, and its counters), the reduction tree's round,
   * and the sizes and pitches info points at. */
  nw_bound *bound;
  nw_access *access;   /* bound[i].access, as the subscription callbacks' checks take them */
  nw_device_slot *dev; /* one per local device: what it did of this task */
  /* Its subtasks in this node's device queues, and its place in the node's list of tasks
   * with some (queue.c): where a steal agent looks, without walking every running task. */
  uint64_t queued_here;
  struct nw_task_state *queued_next, *queued_prev;
  int ndev, nodes;
  nw_region *written;
  /* What this node held of each bound space when the task started (its temporary directory,
   * paper section 3): what "local" means for locality (paper 4.3.4) and its counters. */
  nw_region *start_resident;
  uint64_t *space_size, *space_pitch;
  nw_task_locality *loc; /* locality-aware scheduling; NULL when off */
  /* Subtasks of the tasks that were running when this one started: a policy that deals
   * ranges over the cluster's devices starts this task's there, so that tasks running at once
   * begin on different devices (0 for a task that started alone). */
  uint64_t deal_offset;
  /* The policy's own state for the task, freed with it by policy_state_free (may be NULL). */
  void *policy_state;
  void (*policy_state_free)(void *state);
  nw_exec **deferred; /* read-write views, applied at task end (transactional semantics) */
  size_t ndeferred, capdeferred;
  int finishing; /* TASK_FINISH seen */
  int running;   /* execs launched and not yet returned */
  int zombie;    /* forgotten, kept only until its running execs return */
  int aborted;   /* rolled back by a recovery (recover.c): its policy hears nothing more */
  /* Reduced spaces across nodes at the task's end (reduce_tree.c): the tree runs between
   * TASK_FINISH and step 2 below. Per bound space, the next round (-1: this node's part is
   * done), and the partial results children sent, per round, kept until their turn. */
  int reducing;       /* begun, and waiting for a child's partial result */
  double red_start_s; /* when this node's part began (TASK_FINISH) */
  int *red_round;
  nw_partial *(*red_in)[NW_REDUCE_ROUNDS]; /* [space][round]; allocated at the first one */
  nw_exec **parked; /* finished copies waiting for the original's verdict (multiassign.c) */
  size_t nparked, capparked;
  nw_resend_list resend; /* what was fetched for its subtasks before they moved (resend.h) */
  /* node 0 only */
  uint64_t done; /* subtasks committed anywhere */
  int masters_pending;
  /* Resilient runs (recover.c): when it started here, the MSG_BACKUP still awaited, and what
   * they brought, applied to the replica when the task completes. */
  double started_s;
  int backups_pending;
  struct nw_backup *backups;
  /* master only: ownership updates (paper section 3, step 3) */
  int updates_pending;
  int acks_pending;
  int master_started;
  nw_region *lost; /* [space slot * nodes + node]: regions that changed owner, per old owner */
  struct nw_task_state *next, *prev; /* the node's tasks in start order (or its zombies) */
};

#endif
