/* queue.h: a device's queue of subtasks to run, across tasks (StarPU's per-worker queue).
 *
 * Scheduling is over the ready work of every running task: a device's queue holds ranges of
 * subtask ids of any task, in the order the device runs them. Policies fill and reorder it only
 * through these calls (they never touch its array), and the pipeline (pipeline.c) pops it. The
 * queue also keeps, per task and device, how many of the task's subtasks it holds
 * (nw_device_slot.queued), so that "what does this device still have of task t" is O(1).
 *
 * Order: entries pushed with nw_queue_push run in push order (FIFO); nw_queue_push_prio keeps
 * larger priorities first, equal priorities in push order (StarPU's dmdas and prio worker
 * queues). A queue uses one of the two: FIFO entries count as priority 0.
 */
#ifndef NW_QUEUE_H
#define NW_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "narwhal.h"

typedef struct nw_node nw_node;
typedef struct nw_task_state nw_task_state;

typedef struct nw_range {
  uint64_t first, last; /* subtask ids [first, last) */
} nw_range;

/* One entry: consecutive subtask ids of one task. */
typedef struct nw_queued {
  nw_task_state *task;
  nw_range r;
  int prio;
} nw_queued;

typedef struct nw_queue {
  nw_queued *e; /* entries [head, n) */
  size_t head, n, cap;
  uint64_t count; /* subtasks queued, of every task */
} nw_queue;

/* Appends range r of task t to device d's queue as an entry of its own (a steal takes from
 * the last entry only, so where ranges begin and end is part of the policy's behaviour). */
nw_status nw_queue_push(nw_node *n, int d, nw_task_state *t, nw_range r);
/* Appends subtask s of task t, merged into the last entry when it continues it (policies that
 * place subtasks one by one keep their runs as ranges). */
nw_status nw_queue_push_one(nw_node *n, int d, nw_task_state *t, uint64_t s);
/* Inserts subtask s of task t after the last entry of priority >= prio. */
nw_status nw_queue_push_prio(nw_node *n, int d, nw_task_state *t, uint64_t s, int prio);
/* Takes the head: 1 with its task and subtask, 0 when the queue is empty. */
int nw_queue_pop(nw_node *n, int d, nw_task_state **t, uint64_t *s);
/* Subtasks queued on device d: of task t, or of every task when t is NULL. O(1). */
uint64_t nw_queue_length(const nw_node *n, int d, const nw_task_state *t);
/* The k-th queued subtask (0: the head) without taking it: 1, or 0 when there are fewer. */
int nw_queue_at(const nw_node *n, int d, uint64_t k, nw_task_state **t, uint64_t *s);
/* Takes the k-th queued subtask out of the queue (a range it falls inside is split): 1, 0 when
 * there are fewer, -1 when a split found no memory (the queue is unchanged). */
int nw_queue_take_at(nw_node *n, int d, uint64_t k, nw_task_state **t, uint64_t *s);
/* Takes up to `want` subtasks from the tail: from the last entry of task t (t NULL: the last
 * entry of any task), so what is taken is contiguous. Returns how many, their task in *from
 * (may be NULL) and their range in *out. */
uint64_t nw_queue_take_tail(nw_node *n, int d, const nw_task_state *t, uint64_t want,
                            nw_task_state **from, nw_range *out);
/* Task t's queued subtask ids on device d, in queue order, into ids (room for
 * nw_queue_length(n, d, t) entries). */
void nw_queue_task_ids(const nw_node *n, int d, const nw_task_state *t, uint64_t *ids);
/* Removes task t's queued subtasks on device d whose position among them (the order of
 * nw_queue_task_ids) has drop[i] set; the others keep their places. */
nw_status nw_queue_remove(nw_node *n, int d, const nw_task_state *t, const unsigned char *drop);
/* Removes every queued subtask of task t, on every device of the node (a task rolled back). */
void nw_queue_forget(nw_node *n, nw_task_state *t);
void nw_queue_free(nw_queue *q);

#endif
