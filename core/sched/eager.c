/* eager.c: StarPU's eager (greedy, no priorities; Augonnet, Thibault, Namyst: StarPU: a Runtime
 * System for Scheduling Tasks over Accelerator-Based Multicore Machines, RR-7240, section 5): one
 * FIFO of the ready subtasks of every running task for the whole cluster, served one subtask at
 * a time to whichever device is idle (central.h). */
#include "central.h"

const nw_policy nw_policy_eager = {
    .name = "eager",
    .summary = "StarPU eager: one cluster-wide FIFO of ready subtasks at node 0, idle devices pull",
    .init = nw_central_init_fifo,
    .fini = nw_central_fini,
    .task_start = nw_central_start,
    .dry = nw_central_dry,
    .busy = nw_central_busy,
    .task_forget = nw_central_forget,
    .on_message = nw_central_on_message,
};
