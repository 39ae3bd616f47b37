/* task.h: a task's life on a node (task.c): its messages, which tasks run, its end. */
#ifndef NW_TASK_H
#define NW_TASK_H

#include <stdint.h>

#include "wire.h"

typedef struct nw_node nw_node;
typedef struct nw_task_state nw_task_state;

/* task.c */
void nw_task_on_start(nw_node *n, int src, nw_reader *r);
void nw_task_on_subtask_done(nw_node *n, nw_reader *r);
void nw_task_on_finish(nw_node *n, nw_reader *r);
void nw_task_on_update(nw_node *n, int src, nw_reader *r);
void nw_task_on_prev(nw_node *n, int src, nw_reader *r);
void nw_task_on_prev_ack(nw_node *n, nw_reader *r);
void nw_task_on_master_done(nw_node *n, nw_reader *r);
void nw_task_on_reduce(nw_node *n, int src, nw_reader *r);
/* Node 0: starts every queued task that may start now (task.c, "Which tasks run"). */
void nw_task_start_ready(nw_node *n);
void nw_task_free(nw_task_state *t);
/* The task ends here (TASK_FINISH, or a recovery rolled it back): no policy deals its work any
 * more. */
void nw_task_mark_finishing(nw_node *n, nw_task_state *t);
/* Forgets a task: frees it, or keeps it as a zombie while execs still run. */
void nw_task_release(nw_node *n, nw_task_state *t);
/* An exec of t returned: frees t if it was a zombie waiting for it. */
void nw_task_exec_returned(nw_node *n, nw_task_state *t);
void nw_task_subtask_committed(nw_node *n, nw_task_state *t, uint64_t count);

/* task.c: node 0 completes t once its masters and its backups are all in. */
void nw_task_maybe_complete(nw_node *n, nw_task_state *t);

#endif
