/* nested.c: node 0's bookkeeping for nested tasks (paper section 2: "tasks may also
 * hierarchically spawn other tasks"; its LU runs one task per diagonal block, which runs the
 * block's other tasks within).
 *
 * A task whose kind has a spawn callback runs its subtasks like any task; when they are done
 * and their writes published (its "body"), node 0 hands the callback to the driver's thread at
 * its next wait (driver.c). The callback creates and submits nested tasks; the parent
 * completes once the callback has returned and every nested task has completed, so anything
 * that waits for the parent waits for them too.
 *
 * Why nested tasks cannot deadlock with the queue: a nested task binds only spaces its parent
 * binds, never more strongly than a parent's read-only binding (api.c), and it goes into the
 * queue right after its parent's other descendants, before every task submitted after the
 * parent (graph.c). It waits only for the parent's earlier descendants it conflicts with, never
 * for its ancestors (incomplete by construction), so it waits only for tasks that do not wait
 * for it; and a later task that conflicts with it conflicts with its parent, which completes
 * after it.
 */
#include <stdlib.h>

#include "handles.h"
#include "nested.h"
#include "node_state.h"

int nw_nested_is_ancestor(const nw_task *a, const nw_task *b) {
  for (const nw_task *p = b->parent; p; p = p->parent)
    if (p == a)
      return 1;
  return 0;
}

nw_status nw_nested_spawn_due(nw_node *n, nw_task *t) {
  if (n->spawn_due_n == n->spawn_due_cap) {
    size_t cap = n->spawn_due_cap ? 2 * n->spawn_due_cap : 8;
    nw_task **a = realloc(n->spawn_due, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    n->spawn_due = a;
    n->spawn_due_cap = cap;
  }
  n->spawn_due[n->spawn_due_n++] = t;
  return NW_OK;
}

nw_task *nw_nested_next_spawn(nw_node *n) {
  if (n->spawn_due_n == 0)
    return NULL;
  nw_task *t = n->spawn_due[0];
  for (size_t i = 1; i < n->spawn_due_n; i++) /* oldest first; the list is short */
    n->spawn_due[i - 1] = n->spawn_due[i];
  n->spawn_due_n--;
  return t;
}
