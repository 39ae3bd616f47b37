/* driver.c: node 0 serving the application's driver (its main), one call at a time.
 *
 * The driver runs on its own thread or actor; each public-API call that touches the cluster
 * becomes an NW_EVENT_DRIVER handled here, on node 0's logical thread, and the driver stays
 * blocked until node 0 answers with driver_return. Calls that must wait (reading a space whose
 * bytes are elsewhere, waiting for a task) are answered later, when their condition holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "locality.h"
#include "node_internal.h"

static void answer(nw_node *n, nw_driver_call *c, nw_status st) {
  c->status = st;
  if (st != NW_OK && n->error[0])
    snprintf(c->error, sizeof c->error, "%s", n->error);
  n->be.ops->driver_return(n->be.be, c);
}

static void space_create(nw_node *n, nw_driver_call *c) {
  uint64_t id = n->next_space_id++;
  /* Masters are chosen round robin over creation order (paper section 3). */
  int master = (int)((id - 1) % (uint64_t)n->cfg.nodes);
  nw_space_state *s = nw_space_get(n, id, c->space->size, c->space->pitch, master, 0);
  if (!s) {
    answer(n, c, NW_ERR_NOMEM);
    return;
  }
  c->space->id = id;
  answer(n, c, NW_OK);
}

/* Answers a driver read once every byte it asked for is resident on node 0. */
void nw_driver_read_progress(nw_node *n) {
  nw_driver_call *c = n->read_call;
  if (!c)
    return;
  nw_space_state *s = nw_space_find(n, c->space->id);
  if (!nw_space_has(s, &n->read_need))
    return;
  memcpy(c->dst, s->data + c->offset, c->length);
  nw_region_free(&n->read_need);
  n->read_call = NULL;
  answer(n, c, NW_OK);
}

static void space_read(nw_node *n, nw_driver_call *c) {
  nw_space_state *s = nw_space_find(n, c->space->id);
  if (!n->cfg.functional || c->length == 0) {
    answer(n, c, NW_OK);
    return;
  }
  nw_region_init(&n->read_need, s->pitch);
  nw_status st = nw_region_add_range(&n->read_need, c->offset, c->offset + c->length);
  if (st == NW_OK)
    st = nw_space_need(n, s, &n->read_need, NW_FETCH_DEMAND, NULL); /* the driver waits */
  if (st != NW_OK) {
    nw_region_free(&n->read_need);
    answer(n, c, st);
    return;
  }
  n->read_call = c;
  nw_driver_read_progress(n);
}

static void space_place(nw_node *n, nw_driver_call *c) {
  nw_space_state *s = nw_space_find(n, c->space->id);
  nw_region what;
  nw_region_init(&what, s->pitch);
  nw_status st = nw_region_add_quad(&what, (nw_quad){c->offset, c->length, c->step, c->count});
  if (st == NW_OK && !nw_region_contains(&s->owned, &what)) {
    snprintf(n->error, sizeof n->error,
             "nw_space_place: part of the quad was already placed on another node");
    st = NW_ERR_STATE;
  }
  if (st == NW_OK)
    st = nw_space_give(n, s, &what, c->node, &n->place_acks);
  nw_region_free(&what);
  if (st != NW_OK || n->place_acks == 0) {
    answer(n, c, st);
    n->error[0] = '\0';
    return;
  }
  n->place_call = c;
}

void nw_driver_on_place_ack(nw_node *n) {
  if (!n->place_call || n->place_acks <= 0) {
    nw_node_fail(n, "node 0: unexpected placement acknowledgement");
    return;
  }
  if (--n->place_acks == 0) {
    nw_driver_call *c = n->place_call;
    n->place_call = NULL;
    answer(n, c, NW_OK);
  }
}

static void task_submit(nw_node *n, nw_driver_call *c) {
  nw_submitted *e = calloc(1, sizeof *e);
  if (!e) {
    answer(n, c, NW_ERR_NOMEM);
    return;
  }
  nw_task *t = c->task;
  if (n->cfg.sched.locality && t->subtasks > NW_LOCALITY_MAX_ENTRIES / (uint64_t)n->cfg.nodes) {
    free(e);
    snprintf(n->error, sizeof n->error,
             "task '%s': locality-aware scheduling keeps an affinity per subtask and node; "
             "%llu subtasks x %d nodes is more than %llu (use fewer subtasks, or locality off)",
             t->kind->name, (unsigned long long)t->subtasks, n->cfg.nodes,
             (unsigned long long)NW_LOCALITY_MAX_ENTRIES);
    answer(n, c, NW_ERR_ARG);
    n->error[0] = '\0';
    return;
  }
  t->id = n->next_task_id++;
  e->task = t;
  nw_submitted **tail = &n->submitted;
  while (*tail)
    tail = &(*tail)->next;
  *tail = e;
  if (t->id == 1)
    n->stats.task_first_submit_s = n->be.ops->now(n->be.be);
  n->stats.total_flops += t->flops;
  answer(n, c, NW_OK);
  nw_task_start_next(n);
}

static nw_submitted *find_submitted(nw_node *n, const nw_task *t) {
  for (nw_submitted *e = n->submitted; e; e = e->next)
    if (e->task == t)
      return e;
  return NULL;
}

static void task_wait(nw_node *n, nw_driver_call *c) {
  nw_submitted *e = find_submitted(n, c->task);
  if (!e) { /* already complete */
    answer(n, c, c->task->result);
    return;
  }
  e->wait_call = c;
}

/* The running task (head of the queue) ended, well or not: answer its waiter, start the next.
 * A failure also answers a pending read, so the driver never stays blocked. */
void nw_driver_task_complete(nw_node *n, nw_status st) {
  nw_submitted *e = n->submitted;
  if (st != NW_OK && n->read_call) {
    nw_driver_call *c = n->read_call;
    n->read_call = NULL;
    nw_region_free(&n->read_need);
    answer(n, c, st);
  }
  if (!e || e->task->submitted < 2)
    return;
  n->submitted = e->next;
  e->task->complete = 1;
  e->task->result = st;
  if (e->wait_call)
    answer(n, e->wait_call, st);
  free(e);
  if (st == NW_OK)
    nw_task_start_next(n);
  else /* the run is broken: fail every task still queued, so no driver waits forever */
    while (n->submitted) {
      e = n->submitted;
      n->submitted = e->next;
      e->task->complete = 1;
      e->task->result = st;
      if (e->wait_call)
        answer(n, e->wait_call, st);
      free(e);
    }
}

void nw_driver_on_call(nw_node *n, nw_driver_call *c) {
  nw_space_state *s;
  switch (c->kind) {
  case CALL_SPACE_CREATE:
    space_create(n, c);
    break;
  case CALL_SPACE_WRITE:
    s = nw_space_find(n, c->space->id);
    if (n->cfg.functional)
      memcpy(s->data + c->offset, c->src, c->length);
    answer(n, c, NW_OK);
    break;
  case CALL_SPACE_READ:
    space_read(n, c);
    break;
  case CALL_SPACE_PLACE:
    space_place(n, c);
    break;
  case CALL_TASK_SUBMIT:
    task_submit(n, c);
    break;
  case CALL_TASK_WAIT:
    task_wait(n, c);
    break;
  case CALL_SHUTDOWN:
    for (int k = 0; k < n->cfg.nodes; k++) {
      nw_writer w;
      nw_w_init(&w, MSG_END);
      nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
    }
    answer(n, c, NW_OK);
    break;
  }
}
