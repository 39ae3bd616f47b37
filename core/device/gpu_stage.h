/* gpu_stage.h: a GPU's state on a node and the staging of its subtasks' data (gpu_stage.c). */
#ifndef NW_GPU_STAGE_H
#define NW_GPU_STAGE_H

#include <stdint.h>

#include "backend.h"
#include "exec_state.h"
#include "gpu_cache.h"
#include "region.h"

typedef struct nw_node nw_node;

/* One GPU of this node: its software cache (paper 4.4) over its memory budget. */
typedef struct nw_gpu_state {
  nw_gpu_cache cache;
} nw_gpu_state;

/* gpu_stage.c: a GPU subtask's data on the device (paper 4.1, 4.4) */
nw_status nw_gpu_init(nw_node *n);
void nw_gpu_free(nw_node *n);
/* Takes room for p's subscriptions on device d's GPU and starts the copies in. Returns 1 when
 * everything is on the device, 0 while copies run or room is short (retried later). */
int nw_gpu_stage_in(nw_node *n, int d, nw_prepared *p);
/* Bytes a subtask of task t with these subscriptions would copy to local device d's GPU now:
 * its reads that GPU's cache does not hold, and its read-write views (dmda's data penalty). */
uint64_t nw_gpu_bytes_to_stage(const nw_node *n, int d, const nw_task_state *t,
                               const nw_region *read, const nw_region *write);
/* Fills an exec's GPU views from its prepared subtask's entries. */
void nw_gpu_exec_views(nw_node *n, nw_exec *e);
/* The kernel finished: lets go of the reads, starts the copies out of the writes. Returns 1
 * when nothing is left to copy (the result can be handled now). */
int nw_gpu_exec_done(nw_node *n, nw_exec *e);
/* Lets go of every entry a prepared subtask holds (result used or thrown away); nothing is
 * restaged meanwhile (see nw_pipeline_retry_gpu). */
void nw_gpu_unstage(nw_node *n, int d, nw_prepared *p, int publish);
/* A copy to or from a GPU completed: its cache entry is valid or let go. Returns the exec whose
 * last copy out it was (its result can be handled now: nw_pipeline_copy_done), or NULL. */
nw_exec *nw_gpu_copy_finished(nw_node *n, nw_copy *c);
/* A task that writes these spaces starts: cached copies of them are stale. */
void nw_gpu_task_writes(nw_node *n, nw_task_state *t);
/* The driver rewrote bytes of space `space`: every GPU entry of it is stale. */
void nw_gpu_space_written(nw_node *n, uint64_t space);

#endif
