/* prio.c: StarPU's prio (eager with priorities; Augonnet, Thibault, Namyst: StarPU: a Runtime
 * System for Scheduling Tasks over Accelerator-Based Multicore Machines, RR-7240, section 5): the
 * cluster-wide pool of central.h ordered by the kind's subtask priority, larger first, across
 * tasks; equal priorities in task start order, then id order. */
#include "central.h"

const nw_policy nw_policy_prio = {
    .name = "prio",
    .summary = "StarPU prio: the cluster-wide pool ordered by subtask priority, across tasks",
    .init = nw_central_init_prio,
    .fini = nw_central_fini,
    .task_start = nw_central_start,
    .dry = nw_central_dry,
    .busy = nw_central_busy,
    .task_forget = nw_central_forget,
    .on_message = nw_central_on_message,
};
