/* pipeline.h: a device's pipeline (pipeline.c): preparing subtasks, their execs, and
 * committing or discarding what they wrote. */
#ifndef NW_PIPELINE_H
#define NW_PIPELINE_H

#include <stdint.h>

#include "exec_state.h"
#include "region.h"

typedef struct nw_node nw_node;

/* pipeline.c */
/* The node's devices (cfg.devices of them), idle with empty queues; and their end. */
nw_status nw_pipeline_init(nw_node *n);
void nw_pipeline_free(nw_node *n);
/* Task t starts here: its per-device figures begin (a work-group's size search starts afresh). */
void nw_pipeline_task_init(nw_node *n, nw_task_state *t);
/* Work was dealt (task t started, or a policy pushed into queues): every device that is idle,
 * or waits for its policy's answer while its queue now holds work, goes on; a device its policy
 * retired is offered to its policy again (new work appeared in the cluster). */
void nw_pipeline_go(nw_node *n, nw_task_state *t);
void nw_pipeline_advance(nw_node *n, int d);
void nw_pipeline_on_exec_done(nw_node *n, nw_exec *e);
/* The result of a finished exec (after its copies out, on a GPU): commit, hand to multi-assign,
 * or discard. */
void nw_pipeline_exec_result(nw_node *n, nw_exec *e);
/* Retries staging on GPU g and advances its devices that wait for it (room freed, copies in). */
void nw_pipeline_retry_gpu(nw_node *n, int g);
/* A GPU copy completed (the backend's event): the cache learns it, an exec whose last copy out
 * it was has its result handled, and GPU g's waiting subtasks are retried. */
void nw_pipeline_copy_done(nw_node *n, nw_copy *c);
/* Frees a prepared subtask that will not run here, letting go of its GPU entries. */
void nw_pipeline_drop_prepared(nw_node *n, int d, nw_prepared *p);
/* Task t is forgotten here: its queued subtasks leave the queues, its prepared ones that are
 * not running are dropped (their GPU entries let go); a running one is discarded when it ends. */
void nw_pipeline_task_forget(nw_node *n, nw_task_state *t);
/* A recovery starts over: every device idle, nothing asked of the policy. */
void nw_pipeline_reset(nw_node *n);
/* Prepares a subtask (subscriptions, fetches); NULL after a failure. prefetch: it is to run
 * after the device's current one (pipelining), so its reads are fetched at prefetch priority
 * when the run's prefetch_priority is LOW; otherwise it is the subtask the device runs now
 * (it becomes current) and its reads are demand fetches. */
nw_prepared *nw_pipeline_prepare(nw_node *n, nw_task_state *t, int d, uint64_t subtask,
                                 int prefetch);
/* Commits a finished exec's result (write views, set S, the count at node 0) and frees it. */
void nw_pipeline_commit_result(nw_node *n, nw_task_state *t, nw_exec *e);
/* Frees an exec whose result is thrown away. */
void nw_exec_discard(nw_node *n, nw_exec *e);
void nw_pipeline_data_arrived(nw_node *n);
/* Bytes of a subtask's reads (read[i] per bound space) this node held at the task's start:
 * what "local" means for the locality counters and for locality-aware policies. */
uint64_t nw_locality_local_bytes(const nw_task_state *t, const nw_region *read);
/* Copies a deferred exec's private write views into the node's copy of its spaces (all but
 * the reduced ones, merged when its result came) and frees it. */
void nw_exec_commit(nw_node *n, nw_exec *e);
/* Subtasks of task t per second of device time on a device (0: none finished yet). */
double nw_pipeline_rate(const nw_device_slot *s);
/* A prepared subtask of a task of nspaces bound spaces, its arrays zeroed; NULL on no memory. */
nw_prepared *nw_prepared_new(int nspaces);
void nw_prepared_free(nw_prepared *p, int nspaces);
/* Device d's current subtask when it is task t's (NULL otherwise), and its prefetched one. */
nw_prepared *nw_pipeline_current_of(const nw_node *n, int d, const nw_task_state *t);
nw_prepared *nw_pipeline_next_of(const nw_node *n, int d, const nw_task_state *t);
/* Takes device d's prefetched subtask away (a steal) when it is task t's: 1 with its id in *s;
 * its data stays resident here, and what was fetched for it goes with it (resend.h). 0 when d
 * prefetches none of t's. */
int nw_pipeline_steal_next(nw_node *n, int d, const nw_task_state *t, uint64_t *s);
/* Whether device d has a subtask in hand: executing it, or waiting for its data or room. */
int nw_pipeline_in_hand(const nw_node *n, int d);
/* Whether device d still holds a subtask of `task` that it has not handed to its backend: in
 * its queue, prefetched, or its current one being prepared or staged (static agglomeration's
 * edge case, agglo.h). Reads the node's state: call it where no other thread changes it (the
 * simulator's actors take turns). */
int nw_pipeline_may_add(nw_node *n, int d, uint64_t task);

#endif
