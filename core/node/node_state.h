/* node_state.h: the state of one node (struct nw_node: STYLE.md's "all state hangs off one
 * struct") and the services every layer calls (data/node_services.c): fail, send, trace, find. */
#ifndef NW_NODE_STATE_H
#define NW_NODE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "bufpool.h"
#include "exec_state.h"
#include "gpu_stage.h"
#include "graph.h"
#include "idmap.h"
#include "node.h"
#include "recover.h"
#include "region.h"
#include "space_state.h"
#include "task_state.h"
#include "trace.h"
#include "wire.h"

/* A message that arrived for a task this node has not started yet: replayed at its start. */
typedef struct nw_stashed {
  uint64_t task;
  int src;
  void *buf;
  size_t len;
  struct nw_stashed *next;
} nw_stashed;

/* What a lower layer tells a higher one, as functions the node installs at its creation
 * (nw_node_create): the lower layer calls through them and names no higher file, so calls go
 * down only (core/README.md). */
typedef struct nw_node_hooks {
  /* the pipeline (device/): count subtasks of t committed here (task.c counts them toward the
   * task's end), and t's exec came back from a device (task.c frees a finished task whose
   * last exec it was) */
  void (*subtask_committed)(nw_node *n, nw_task_state *t, uint64_t count);
  void (*exec_returned)(nw_node *n, nw_task_state *t);
  /* node 0: task id completed (task.c; the driver's wait for it ends), or the run failed
   * (node_services.c's nw_node_fail: id 0 ends the driver's call under way with st) */
  void (*task_complete)(nw_node *n, uint64_t id, nw_status st);
  /* recover.c: a recovery is done (the driver's deferred call goes on), and a message it held
   * during the recovery is handled now, as if it had just arrived from backend node src */
  void (*recovered)(nw_node *n);
  void (*replay)(nw_node *n, int src, void *buf, size_t len);
} nw_node_hooks;

struct nw_node {
  nw_node_config cfg;
  nw_node_hooks hooks;
  nw_membership *members;         /* resilient runs only (recover.c) */
  const struct nw_policy *policy; /* the run's scheduling policy (sched/policy.h) */
  nw_backend be;
  nw_stats stats;
  nw_device_stats device_stats_unlisted; /* nw_dev_stats: devices past NW_STATS_MAX_DEVICES */
  nw_trace trace;                        /* cfg.trace: what happened where (trace.h) */
  nw_space_state *spaces;
  nw_idmap space_ids;                /* spaces by id */
  nw_task_state *tasks, *tasks_tail; /* under way here, oldest first */
  nw_idmap task_ids;                 /* the same by id */
  uint64_t tasks_active;             /* of them, those not finishing (nw_tasks_running) */
  nw_task_state *queued_tasks;       /* tasks with subtasks in this node's queues (queue.c) */
  nw_task_state *zombies;            /* finished tasks with execs still running */
  nw_stashed *stash;
  uint64_t last_started_task; /* tasks are numbered from 1 */
  int ended;                  /* END received */
  /* Per local device: execs launched and not yet returned, of any task (a device runs one at a
   * time), and the device itself: its queue and pipeline (cfg.devices entries). */
  int dev_running[NW_MAX_DEVICES_PER_NODE];
  nw_device *dev;
  /* The scheduling policy's own state on this node (its init and fini), NULL when it keeps
   * none: per device or cluster-wide, across tasks. */
  void *sched;
  /* node 0 */
  nw_submitted *submitted, *submitted_tail; /* queue order, a nested task right after its
                                             * parent's other descendants (graph.c) */
  nw_idmap queued_seq, queued_id; /* queued entries by submission number, and started ones by
                                   * task id */
  nw_submitted **ready;           /* entries whose predecessors completed, not started yet */
  size_t nready, capready;
  uint64_t running_tasks, running_subtasks; /* started tasks whose subtasks run, and theirs */
  nw_submitted *wait_entry;                 /* the entry the driver waits for, if any */
  /* Tasks whose spawn callback is due, oldest first, for the driver's next wait (nested.c). */
  nw_task **spawn_due;
  size_t spawn_due_n, spawn_due_cap;
  /* A driver wait for no queued task to bind a space, or for the queue to empty (driver.c) */
  nw_driver_call *until_call;
  uint64_t tasks_submitted;
  uint64_t next_space_id, next_task_id;
  /* Functional data: the memory the backend said the run may take, asked at the first space
   * (room_asked), and the spaces made since, in bytes of one copy each (memcheck.h). */
  int room_asked;
  nw_memory_room room;
  uint64_t space_bytes;
  int spaces_made;
  nw_driver_call *read_call; /* a driver read waiting for data */
  nw_region read_need;
  nw_driver_call *place_call; /* a driver placement or write waiting for the cluster */
  int place_acks;
  int place_phase;               /* driver.c: what it waits for */
  int place_to;                  /* a placement's node, as this node numbers them (recover.c) */
  nw_driver_call *deferred_call; /* came during a recovery, served after it (recover.c) */
  int shutting_down;             /* the driver's last call came: the run's work is done */
  nw_region place_what;          /* the bytes it places or writes */
  char error[512];               /* first failure of the run */
  nw_bufpool views;              /* recycled private write views */
  struct nw_perf_sample *perf;   /* measured durations not yet sent to node 0 (perfdata.h) */
  size_t perf_n, perf_cap;
  /* Node 0: the run's model as it was before this run's first sample went into it, which
   * kernels_predicted_s prices by (perfdata.c); NULL until then. */
  struct nw_perfmodel *perf_given;
  uint64_t said_calibrating; /* node 0: kinds (bit = index in cfg.kinds) said to calibrate */
  nw_gpu_state gpu[NW_MAX_GPUS_PER_NODE];
};

static inline int nw_dev_is_gpu(const nw_node *n, int d) {
  return n->cfg.device_kind[d] == NW_DEVICE_GPU;
}

/* This node's counters for local device d. */
/* A device's counters; those past NW_STATS_MAX_DEVICES (many-task lanes) count into a slot
 * that is not reported, so that no listed device's row holds another's work. */
static inline nw_device_stats *nw_dev_stats(nw_node *n, int d) {
  return d < NW_STATS_MAX_DEVICES ? &n->stats.device[d] : &n->device_stats_unlisted;
}

/* node_services.c (data/) */
/* The run fails with this reason (node 0 ends it; other nodes report to node 0). */
void nw_node_fail(nw_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for a failure the run's input causes (a GPU budget below what a subtask needs): the
 * run ends with NW_ERR_ARG, so the tool exits 2 (bad input) rather than 1. */
void nw_node_fail_input(nw_node *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records a trace event (trace.h) when the run is traced: a span from start_s to now, or an
 * instant (start_s < 0: now). t: the subtask's task, or NULL. */
void nw_node_trace(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                   uint64_t subtask, double start_s, uint64_t bytes);
/* The same with both ends given (a span whose end the caller read from the clock already). */
void nw_node_trace_span(nw_node *n, nw_trace_kind kind, int device, const nw_task_state *t,
                        uint64_t subtask, double start_s, double end_s, uint64_t bytes);
void nw_node_send(nw_node *n, int dst, nw_channel ch, nw_writer *w, uint64_t payload_bytes);
nw_task_state *nw_node_task(nw_node *n, uint64_t id);

#endif
