/* graph.h: node 0's queue of submitted tasks and its task graph (graph.c). */
#ifndef NW_GRAPH_H
#define NW_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

typedef struct nw_node nw_node;

/* Node 0's queue of submitted tasks, in queue order, until each completes (graph.c). */
typedef struct nw_submitted {
  nw_task *task;
  nw_driver_call *wait_call; /* a driver blocked in nw_task_wait on it */
  /* Queue order, larger later: a nested task's lies between its neighbours' (graph.c). */
  uint64_t order;
  /* The task graph (graph.c): incomplete entries before it that it waits for, the entries
   * that wait for it, and its place in each bound space's list of readers (-1: none). */
  uint64_t preds;
  struct nw_submitted **succ;
  size_t nsucc, capsucc;
  int *reader_at; /* one per bound space, allocated when it is queued */
  int ready;      /* in the node's ready list */
  struct nw_submitted *next, *prev;
} nw_submitted;

/* graph.c: node 0's task graph, which queued task waits for which */
/* Queues entry e (of e->task): at the end, or for a nested task right after its parent's
 * queued descendants; counts the incomplete entries before it that it waits for, and puts it
 * in the ready list when there are none. NW_ERR_STATE when a nested task's parent is not
 * queued. */
nw_status nw_graph_insert(nw_node *n, nw_submitted *e);
/* Entry e's task completed: out of the queue, and the entries that waited only for it into
 * the ready list. The caller frees e. */
void nw_graph_remove(nw_node *n, nw_submitted *e);
/* Entry e's task started with id `id` (found by it from now on), or was rolled back (started
 * 0: ready to start again). */
nw_status nw_graph_started(nw_node *n, nw_submitted *e, uint64_t id);
void nw_graph_unstarted(nw_node *n, nw_submitted *e);
/* The queued entry of started task `id`, or NULL. */
nw_submitted *nw_graph_by_id(nw_node *n, uint64_t id);
/* The ready entries in queue order into *out (the list is emptied; the caller frees *out). */
size_t nw_graph_take_ready(nw_node *n, nw_submitted ***out);
/* Drops the whole queue (a failed run, the node's end); each entry's task goes to done(ctx, e)
 * before the entry is freed. */
void nw_graph_clear(nw_node *n, void (*done)(nw_node *n, nw_submitted *e, void *ctx), void *ctx);

#endif
