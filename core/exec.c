/* exec.c: the device side of a subtask: run its kernel on its views, report its cost.
 *
 * A device thread (real backend) or actor (simulator) calls these; they touch only the exec
 * and the bytes its views point at, never the node, so they are safe off the node's thread.
 */
#include "node_internal.h"

void nw_exec_run(nw_exec *e) {
  const nw_task_kind *k = e->task->kind;
  if (k->cpu_kernel)
    k->cpu_kernel(&e->task->info, e->subtask, e->views);
}

double nw_exec_flops(const nw_exec *e) {
  return e->flops;
}
