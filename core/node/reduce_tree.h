/* reduce_tree.h: combining a task's reduced spaces across nodes at its end (reduce_tree.c). */
#ifndef NW_REDUCE_TREE_H
#define NW_REDUCE_TREE_H

#include "wire.h"

typedef struct nw_node nw_node;
typedef struct nw_task_state nw_task_state;

typedef struct nw_partial nw_partial;

/* Rounds of a reduction tree: enough for NW_MAX_NODES (node.h) nodes. */
#define NW_REDUCE_ROUNDS 16

/* reduce_tree.c: combining reduced spaces across nodes (paper 4.5, Fig. 8) */
/* Whether any bound space of t is reduced. */
int nw_reduce_tree_needed(const nw_task_state *t);
/* Begins (at TASK_FINISH) / continues (as children's results come) this node's part of every
 * reduced space's tree: merges the children's partial results in round order and sends its
 * own to its parent. Returns 1 once its part is done (t->written then holds what it owns of
 * the results), 0 while it waits (t->reducing). */
int nw_reduce_tree_begin(nw_node *n, nw_task_state *t);
int nw_reduce_tree_step(nw_node *n, nw_task_state *t);
/* A child's partial result (MSG_REDUCE): kept for its round. */
void nw_reduce_tree_on_partial(nw_node *n, nw_task_state *t, int src, nw_reader *r);
void nw_reduce_tree_free(nw_task_state *t);

#endif
