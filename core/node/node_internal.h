/* node_internal.h: the state of one node, shared by the core's files (not by backends).
 *
 * One struct holds everything a node knows (STYLE.md: "all state hangs off one struct"):
 * the address spaces it has seen, the tasks under way, its devices, and the driver call it is
 * serving (node 0). Only nw_node_handle() and the functions it calls change it.
 *
 * This header only gathers the ones that hold it, for a file that uses most of them; a file
 * that needs a few includes those instead:
 *   node/node_state.h      struct nw_node, its devices' and GPUs' accessors, and node.c's
 *                          services to every layer (nw_node_fail, _send, _trace, _task)
 *   node/task_state.h      a task as one node runs it (struct nw_task_state, nw_bound)
 *   node/task.h            a task's life (task.c)
 *   node/handles.h         the driver's handles (struct nw_space, struct nw_task; api.c)
 *   node/driver.h          the driver's calls (struct nw_driver_call; driver.c)
 *   node/graph.h           node 0's queue and task graph (nw_submitted; graph.c)
 *   node/nested.h          nested tasks (nested.c)
 *   node/reduce_tree.h     reductions across nodes (reduce_tree.c)
 *   node/recover.h         resilient runs (nw_membership; recover.c)
 *   sched/steal.h          unicorn's stealing (steal.c) and what a steal hands over (nw_loot)
 *   sched/multiassign.h    multi-assign (multiassign.c)
 *   sched/locality_sched.h locality-aware scheduling of a task (nw_task_locality;
 *                          locality_sched.c)
 *   device/exec_state.h    nw_prepared, struct nw_exec, nw_device, nw_device_slot
 *   device/pipeline.h      a device's pipeline (pipeline.c)
 *   device/gpu_stage.h     a GPU's state and its staging (nw_gpu_state; gpu_stage.c)
 *   data/space_state.h     an address space as a node knows it (nw_space_state)
 *   data/space.h           the fetch protocol (space.c)
 *   data/subscribe.h       a subtask's subscriptions and scratch buffer (subscribe.c)
 */
#ifndef NW_NODE_INTERNAL_H
#define NW_NODE_INTERNAL_H

#include <stdio.h>

#include "bufpool.h"
#include "chunked.h"
#include "directory.h"
#include "idmap.h"
#include "node.h"
#include "queue.h"
#include "reduce.h"
#include "region.h"
#include "tally.h"
#include "trace.h"
#include "wire.h"
#include "workgroup.h"

#include "driver.h"
#include "exec_state.h"
#include "gpu_stage.h"
#include "graph.h"
#include "handles.h"
#include "locality_sched.h"
#include "multiassign.h"
#include "nested.h"
#include "node_state.h"
#include "pipeline.h"
#include "recover.h"
#include "reduce_tree.h"
#include "space.h"
#include "space_state.h"
#include "steal.h"
#include "subscribe.h"
#include "task.h"
#include "task_state.h"

#endif
