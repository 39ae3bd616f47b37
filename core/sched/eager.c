/* eager.c: StarPU's eager (greedy, no priorities; Augonnet, Thibault, Namyst: StarPU: a Runtime
 * System for Scheduling Tasks over Accelerator-Based Multicore Machines, RR-7240, section 5): one
 * FIFO of the task's subtasks for the whole cluster, served one subtask at a time to whichever
 * device is idle (central.h). */
#include "central.h"

static void task_start(nw_node *n, nw_task_state *t) {
  nw_central_start(n, t, 0);
}

const nw_policy nw_policy_eager = {
    .name = "eager",
    .summary = "StarPU eager: one cluster-wide FIFO at node 0, idle devices pull",
    .task_start = task_start,
    .dry = nw_central_dry,
    .busy = nw_central_busy,
    .on_message = nw_central_on_message,
};
