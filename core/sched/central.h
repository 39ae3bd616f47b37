/* central.h: one queue of a task's subtasks for the whole cluster, kept by node 0 (eager and
 * prio). Narwhal's scheduler is cluster-wide, unlike StarPU-MPI's one scheduler per node, so
 * "the central queue" is node 0's; an idle device anywhere pulls one subtask at a time from it
 * (StarPU's eager: workers pop from one shared FIFO), a device of another node through a
 * request to node 0 and its answer. With pipelining on, a busy device asks for its next
 * subtask while it computes, so the pipeline can fetch that one's data meanwhile.
 */
#ifndef NW_CENTRAL_H
#define NW_CENTRAL_H

#include "policy.h"

/* The hooks of a central-queue policy; by_priority orders the queue by the kind's priority
 * (larger first, then id), else by id (FIFO). */
void nw_central_start(nw_node *n, nw_task_state *t, int by_priority);
void nw_central_dry(nw_node *n, nw_task_state *t, int d);
void nw_central_busy(nw_node *n, nw_task_state *t, int d);
void nw_central_on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r);

/* Subtask ids [0, count) ordered by priority (larger first), ties by id; NULL on no memory.
 * Shared with dmdas. */
uint64_t *nw_order_by_priority(const nw_task_state *t);

#endif
