/* exec_state.h: the device side of a node's state: a subtask prepared on a device
 * (nw_prepared), an exec (struct nw_exec), a device across tasks (nw_device) and what one
 * device did of one task (nw_device_slot). */
#ifndef NW_EXEC_STATE_H
#define NW_EXEC_STATE_H

#include <stdint.h>

#include "backend.h"
#include "gpu_cache.h"
#include "queue.h"
#include "region.h"
#include "subscribe.h"
#include "workgroup.h"

typedef struct nw_task_state nw_task_state;

/* A subtask prepared on a device: subscriptions known, reads requested. */

/* A subtask prepared on a device. Its arrays have one entry per bound space of its task (the
 * cache entries one more: the scratch buffer's, index nspaces), allocated with it
 * (nw_prepared_new): a task binds as many spaces as it needs. */
typedef struct nw_prepared {
  nw_task_state *task;
  uint64_t subtask;
  nw_region *read;
  nw_region *write;
  /* Per bound space, the bytes this node requested for it (its reads it lacked and had not
   * asked for yet), and what was fetched for it where it was before (resend.h). */
  nw_region *fetched;
  int waiting;       /* reads not yet all resident */
  double prepared_s; /* when its reads were requested */
  double current_s;  /* when it became its device's current subtask (for demand_wait_s) */
  double started_s;  /* when it started executing */
  /* Multi-assign (paper 4.3.3, multiassign.c). On the original assignee: where its copy runs
   * (copy_node < 0: none). On a copy: the original's node and device (origin_node < 0: not a
   * copy). lost: another instance won; discard this one's views when it ends. */
  int copy_node, copy_dev;
  int origin_node, origin_dev;
  int lost;
  /* On a GPU (gpu_stage.c): the cache entry holding each bound space's subscription on the
   * device, and how far staging got. */
  nw_cache_entry **entry; /* [nspaces]: the scratch buffer's */
  int gpu_stage; /* GPU_UNSTAGED, GPU_COPYING (room taken, copies under way), GPU_ON_DEVICE */
  nw_scratch scratch;
} nw_prepared;

enum { GPU_UNSTAGED = 0, GPU_COPYING, GPU_ON_DEVICE };

struct nw_exec {
  nw_task_state *task;
  int device;
  uint64_t subtask;
  double flops;
  double bytes; /* the kind's memory-side cost model (0 when it has none) */
  double started_s;
  nw_prepared *prep;
  int items; /* work-items: the cores of its work-group it runs on (1 elsewhere) */
  /* Pages of the node's copies its CPU kernel writes first, in place (nw_space_kernel_writes):
   * faults the kernel takes, priced by a simulator inside the kernel's time. */
  uint64_t kernel_pages_fresh;
  /* Arrays of one entry per bound space (views and gview one more: [nspaces] is the scratch
   * buffer's, if the subtask has one), allocated with the exec (pipeline.c). */
  nw_view *views;
  unsigned char **write_buf; /* private write views (functional) */
  size_t *write_cap;         /* their sizes, for the buffer pool */
  /* On a GPU: views with base = offset into the GPU's memory (nw_exec_run_gpu adds the
   * memory's base), and the device-to-host copies of its results still under way. */
  int gpu;
  nw_gpu_view *gview;
  nw_gpu_view *gview_run; /* gview with the memory's base added, as a kernel gets them */
  int copies_out;
  /* Checked views (viewcheck.h): private read views, write views' initial bytes. */
  unsigned char **check_read;
  unsigned char **check_shadow;
  uint64_t *check_len;
};

/* What a device is doing (its pipeline, pipeline.c). DEV_STEALING: idle, waiting for the work
 * its policy asked for (a steal, a central queue). DEV_BACKOFF: idle, its policy retries later.
 * DEV_RETIRED: idle, its policy found nothing to give it until new work appears (a task
 * starts). */
typedef enum {
  DEV_IDLE,
  DEV_WAITING,
  DEV_EXECUTING,
  DEV_STEALING,
  DEV_BACKOFF,
  DEV_RETIRED
} nw_dev_state;

/* One device of this node, across tasks: its queue and its pipeline. A device runs one
 * subtask at a time, whatever its task; the one it runs (or waits for data or room for) is
 * `current`, the one whose data pipelining fetches meanwhile is `next` (each may be of any
 * task: nw_prepared.task). */
typedef struct nw_device {
  nw_queue queue;
  nw_prepared *current;
  nw_prepared *next;
  nw_dev_state state;
  /* The policy asked for work for this device (a steal, a central queue's answer), also while
   * it executes (ProSteal, asking ahead): the answer gives it, the device waits for it. */
  int asked;
  nw_exec *running; /* the exec on the device now, for freeing at the end of a failed run */
} nw_device;

/* What one device did of one task: what it holds of it and how fast it ran it, the figures
 * the policies' rules read per task (a task's subtasks are alike; another task's are not). */
typedef struct nw_device_slot {
  uint64_t queued; /* its subtasks in the device's queue (queue.c keeps it) */
  uint64_t executed;
  double busy_s;
  double fetch_wait_s; /* total time its subtasks waited for data, and how many did */
  uint64_t fetches;
  double max_fetch_s;  /* longest wait for a subtask's data */
  double steal_wait_s; /* total time steal requests for it took to be answered, and how many */
  uint64_t steal_answers;
  uint64_t range_len; /* size of the range it works through (initial or last stolen) */
  nw_wg_search wg;    /* a CPU work-group: its size search for this task (paper 4.3.1) */
} nw_device_slot;

#endif
