/* multiassign.h: running a subtask twice, on its assignee and a stealer (multiassign.c). */
#ifndef NW_MULTIASSIGN_H
#define NW_MULTIASSIGN_H

#include <stdint.h>

#include "exec_state.h"
#include "wire.h"

typedef struct nw_node nw_node;

/* multiassign.c */
/* Whether a subtask on device d may ever get a copy (the policy table's may_run_twice). */
int nw_multiassign_possible(const nw_node *n, int d);
int nw_multiassign_offer(nw_node *n, nw_task_state *t, int stealer_node, int stealer_dev,
                         nw_device_kind stealer_kind, double rs, double fetch_s, uint64_t *subtask,
                         int *origin_dev);
void nw_multiassign_accept(nw_node *n, nw_task_state *t, int d, int origin_node, int origin_dev,
                           uint64_t subtask);
void nw_multiassign_copy_finished(nw_node *n, nw_task_state *t, nw_exec *e);
void nw_multiassign_original_won(nw_node *n, nw_task_state *t, nw_prepared *p);
void nw_multiassign_on_finished(nw_node *n, int src, nw_reader *r);
void nw_multiassign_on_cancel(nw_node *n, nw_reader *r);
void nw_multiassign_task_ended(nw_node *n, nw_task_state *t);

#endif
