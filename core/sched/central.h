/* central.h: one pool of ready subtasks for the whole cluster, kept by node 0 (eager and prio).
 * Narwhal's scheduler is cluster-wide, unlike StarPU-MPI's one scheduler per node, so "the
 * central queue" is node 0's: it holds the subtasks not yet handed out of every running task,
 * and an idle device anywhere pulls one subtask at a time from it (StarPU's eager: workers pop
 * from one shared FIFO), a device of another node through a request to node 0 and its answer.
 * A device that finds the pool empty waits at node 0 until a task starts; idle devices are
 * served before busy ones. With pipelining on, a busy device asks for its next subtask while it
 * computes, so the pipeline can fetch that one's data meanwhile.
 */
#ifndef NW_CENTRAL_H
#define NW_CENTRAL_H

#include "policy.h"

/* The hooks of a central-pool policy. nw_central_init_fifo orders the pool by task start, then
 * subtask id (eager); nw_central_init_prio by the kind's subtask priority (larger first), then
 * task start and subtask id (prio). */
nw_status nw_central_init_fifo(nw_node *n);
nw_status nw_central_init_prio(nw_node *n);
void nw_central_fini(nw_node *n);
void nw_central_start(nw_node *n, nw_task_state *t);
void nw_central_dry(nw_node *n, int d);
void nw_central_busy(nw_node *n, int d);
void nw_central_forget(nw_node *n, nw_task_state *t);
void nw_central_on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r);

/* Subtask ids [0, count) ordered by priority (larger first), ties by id; NULL on no memory.
 * Shared with dmdas. */
uint64_t *nw_order_by_priority(const nw_task_state *t);

#endif
