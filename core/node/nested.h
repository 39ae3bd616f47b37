/* nested.h: node 0's side of nested tasks (nested.c). */
#ifndef NW_NESTED_H
#define NW_NESTED_H

#include "narwhal.h"

typedef struct nw_node nw_node;

/* nested.c: node 0's side of nested tasks */
/* Whether task a is an ancestor of task b (b was created in a's spawn callback, or in one of
 * its nested tasks'). */
int nw_nested_is_ancestor(const nw_task *a, const nw_task *b);
/* Task t's spawn callback is due: queued for the driver, oldest first. */
nw_status nw_nested_spawn_due(nw_node *n, nw_task *t);
/* The oldest due spawn callback's task, taken off the list, or NULL. */
nw_task *nw_nested_next_spawn(nw_node *n);

#endif
