/* driver.h: the driver's calls as node 0 serves them (driver.c). */
#ifndef NW_DRIVER_H
#define NW_DRIVER_H

#include <stdint.h>

#include "backend.h"

typedef struct nw_node nw_node;

typedef enum {
  CALL_SPACE_CREATE = 1,
  CALL_SPACE_WRITE,
  CALL_SPACE_READ,
  CALL_SPACE_PLACE,
  CALL_TASK_SUBMIT,
  /* task NULL: wait until no queued task binds `space`, or (space NULL too) until no task is
   * queued at all (the driver's end) */
  CALL_TASK_WAIT,
  CALL_SPAWN_DONE, /* a task's spawn callback returned, with `status` (nested.c) */
  CALL_SHUTDOWN
} nw_call_kind;

struct nw_driver_call {
  nw_call_kind kind;
  nw_status status;
  nw_space *space;
  nw_task *task;
  uint64_t offset, length, step, count;
  int node;
  const void *src;
  void *dst;
  char error[512]; /* why, when status is not NW_OK and node 0 knows */
  /* A wait answered early: this task's spawn callback is due and the driver runs it, then
   * waits again (nested.c). */
  struct nw_task *spawn;
  /* driver.c: waits answered once the tasks that may start have started (complete_entry). */
  struct nw_driver_call *woken_next;
};

/* driver.c */
void nw_driver_on_call(nw_node *n, nw_driver_call *c);
void nw_driver_read_progress(nw_node *n);
/* Task `id` ended, well or not (id 0: the run failed before any task could say which). */
void nw_driver_task_complete(nw_node *n, uint64_t id, nw_status st);
void nw_driver_on_place_ack(nw_node *n);

/* driver.c: a recovery is done: calls that were waiting on the cluster start over, and one
 * that came meanwhile is served. */
void nw_driver_recovered(nw_node *n);

#endif
