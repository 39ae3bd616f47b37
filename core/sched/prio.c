/* prio.c: StarPU's prio (eager with priorities; Augonnet, Thibault, Namyst: StarPU: a Runtime
 * System for Scheduling Tasks over Accelerator-Based Multicore Machines, RR-7240, section 5): the
 * cluster-wide queue of central.h ordered by the kind's subtask priority, larger first, equal
 * priorities in id order. */
#include "central.h"

static void task_start(nw_node *n, nw_task_state *t) {
  nw_central_start(n, t, 1);
}

const nw_policy nw_policy_prio = {
    .name = "prio",
    .summary = "StarPU prio: the cluster-wide queue ordered by subtask priority",
    .task_start = task_start,
    .dry = nw_central_dry,
    .busy = nw_central_busy,
    .on_message = nw_central_on_message,
};
