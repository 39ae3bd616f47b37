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
#include "memcheck.h"
#include "policy.h"
#include "replica.h"

/* A placement or write between tasks goes through phases, each waiting for the cluster:
 * FETCH (node 0 gathers the bytes it lacks, for a placement), CLAIM (node 0 becomes their only
 * owner: nw_space_claim), GIVE (a placement hands them to their node). */
enum { PLACE_FETCH = 1, PLACE_CLAIM, PLACE_GIVE };

static void place_step(nw_node *n);

static void answer(nw_node *n, nw_driver_call *c, nw_status st) {
  c->status = st;
  if (st != NW_OK && n->error[0])
    snprintf(c->error, sizeof c->error, "%s", n->error);
  n->be.ops->driver_return(n->be.be, c);
}

/* Functional data: 1 after refusing a space the run has no memory for (memcheck.h). The room
 * is the backend's word when the first space is made, before any space's memory exists: later
 * spaces count against it with the earlier ones. */
static int refuse_without_room(nw_node *n, nw_driver_call *c, uint64_t bytes) {
  if (!n->cfg.functional || !n->be.ops->memory_room)
    return 0;
  if (!n->room_asked) {
    n->room = (nw_memory_room){.ram = UINT64_MAX, .address = UINT64_MAX};
    n->be.ops->memory_room(n->be.be, &n->room);
    n->room_asked = 1;
  }
  uint64_t all = n->space_bytes > UINT64_MAX - bytes ? UINT64_MAX : n->space_bytes + bytes;
  if (nw_memcheck(&n->room, all, n->spaces_made + 1, n->cfg.nodes, n->members != NULL, n->error,
                  sizeof n->error) == NW_OK) {
    n->space_bytes = all;
    n->spaces_made++;
    return 0;
  }
  answer(n, c, NW_ERR_ARG);
  n->error[0] = '\0';
  return 1;
}

static void space_create(nw_node *n, nw_driver_call *c) {
  if (refuse_without_room(n, c, nw_space_copy_bytes(c->space->size, c->space->pitch)))
    return;
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

/* Answers a driver read once every byte it asked for is resident on node 0; moves a
 * placement on once node 0 has gathered its bytes. */
void nw_driver_read_progress(nw_node *n) {
  if (n->place_call && n->place_phase == PLACE_FETCH && n->place_acks == 0)
    place_step(n);
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

/* The task queued or running that binds space s, or NULL: the driver may write or place a
 * space only while no task uses it (narwhal.h). Node 0 counts them per space (graph.c); the
 * queue is walked only to name one. */
static const nw_task *task_using(const nw_node *n, const nw_space_state *s) {
  if (s->uses == 0)
    return NULL;
  for (const nw_submitted *e = n->submitted; e; e = e->next)
    for (int i = 0; i < e->task->nbound; i++)
      if (e->task->space[i]->id == s->id)
        return e->task;
  return NULL;
}

static int refuse_if_used(nw_node *n, nw_driver_call *c, nw_space_state *s, const char *fn) {
  const nw_task *t = task_using(n, s);
  if (!t)
    return 0;
  char which[160];
  if (t->started)
    snprintf(which, sizeof which, "task %llu ('%s')", (unsigned long long)t->id, t->kind->name);
  else /* ids are given at the start */
    snprintf(which, sizeof which, "a queued task ('%s')", t->kind->name);
  snprintf(n->error, sizeof n->error,
           "%s: space %llu is bound to %s, which has not completed; wait for it first", fn,
           (unsigned long long)s->id, which);
  answer(n, c, NW_ERR_STATE);
  n->error[0] = '\0';
  return 1;
}

static void place_answer(nw_node *n, nw_status st) {
  nw_driver_call *c = n->place_call;
  n->place_call = NULL;
  nw_region_free(&n->place_what);
  answer(n, c, st);
  n->error[0] = '\0';
}

/* Runs the next phase of the pending placement or write; returns when it must wait. */
static void place_step(nw_node *n) {
  nw_driver_call *c = n->place_call;
  nw_space_state *s = nw_space_find(n, c->space->id);
  nw_status st = NW_OK;
  while (st == NW_OK && n->place_acks == 0) {
    if (n->place_phase == PLACE_FETCH) {
      if (!nw_space_has(s, &n->place_what))
        return; /* nw_driver_read_progress calls again as data arrives */
      n->place_phase = PLACE_CLAIM;
      nw_gpu_space_written(n, s->id); /* GPUs' cached copies of the space go stale */
      st = nw_space_claim(n, s, &n->place_what, &n->place_acks);
    } else if (n->place_phase == PLACE_CLAIM && c->kind == CALL_SPACE_PLACE) {
      n->place_phase = PLACE_GIVE;
      st = nw_space_give(n, s, &n->place_what, n->place_to, &n->place_acks);
    } else {
      break;
    }
  }
  if (st != NW_OK || n->place_acks == 0)
    place_answer(n, st);
}

static void space_place(nw_node *n, nw_driver_call *c) {
  nw_space_state *s = nw_space_find(n, c->space->id);
  if (refuse_if_used(n, c, s, "nw_space_place"))
    return;
  nw_region_init(&n->place_what, s->pitch);
  n->place_call = c;
  n->place_acks = 0;
  nw_status st =
      nw_region_add_quad(&n->place_what, (nw_quad){c->offset, c->length, c->step, c->count});
  if (st != NW_OK) {
    place_answer(n, st);
    return;
  }
  /* The driver numbers nodes as the run began; after a loss (recover.c) the survivors are
   * renumbered, and bytes placed on a lost node stay on node 0. */
  int to = nw_recover_logical_id(n, c->node);
  n->place_to = to < 0 ? 0 : to;
  if (!s->shared && nw_region_contains(&s->owned, &n->place_what)) {
    n->place_phase = PLACE_CLAIM; /* before any task: node 0 holds it, nobody else has a copy */
  } else {
    /* Earlier tasks or placements spread the bytes: gather them on node 0 first. */
    n->place_phase = PLACE_FETCH;
    st = n->cfg.functional ? nw_space_need(n, s, &n->place_what, NW_FETCH_DEMAND, NULL) : NW_OK;
    if (st != NW_OK) {
      place_answer(n, st);
      return;
    }
    if (!n->cfg.functional) { /* phantom: no bytes to gather, only ownership */
      n->place_phase = PLACE_CLAIM;
      nw_gpu_space_written(n, s->id); /* GPUs' cached copies of the space go stale */
      st = nw_space_claim(n, s, &n->place_what, &n->place_acks);
      if (st != NW_OK) {
        place_answer(n, st);
        return;
      }
    }
  }
  place_step(n);
}

static void space_write(nw_node *n, nw_driver_call *c) {
  nw_space_state *s = nw_space_find(n, c->space->id);
  if (refuse_if_used(n, c, s, "nw_space_write"))
    return;
  if (n->cfg.functional) {
    memcpy(s->data + c->offset, c->src, c->length);
    nw_replica_write(s, c->offset, c->src, c->length);
  }
  nw_space_wrote_range(n, s, c->offset, c->offset + c->length);
  nw_region_init(&n->place_what, s->pitch);
  n->place_call = c;
  n->place_phase = PLACE_CLAIM;
  nw_status st = nw_region_add_range(&n->place_what, c->offset, c->offset + c->length);
  if (st == NW_OK) {
    nw_gpu_space_written(n, s->id); /* GPUs' cached copies of the space go stale */
    st = nw_space_claim(n, s, &n->place_what, &n->place_acks);
  }
  if (st != NW_OK) {
    place_answer(n, st);
    return;
  }
  place_step(n);
}

void nw_driver_on_place_ack(nw_node *n) {
  if (!n->place_call || n->place_acks <= 0) {
    nw_node_fail(n, "node 0: unexpected placement acknowledgement");
    return;
  }
  if (--n->place_acks == 0)
    place_step(n);
}

static void task_submit(nw_node *n, nw_driver_call *c) {
  nw_submitted *e = calloc(1, sizeof *e);
  if (!e) {
    answer(n, c, NW_ERR_NOMEM);
    return;
  }
  nw_task *t = c->task;
  if (n->policy->uses_affinity && n->policy->uses_affinity(n) &&
      t->subtasks > NW_LOCALITY_MAX_ENTRIES / (uint64_t)n->cfg.nodes) {
    free(e);
    snprintf(n->error, sizeof n->error,
             "task '%s': policy '%s' keeps an affinity per subtask and node; %llu subtasks x "
             "%d nodes is more than %llu (use fewer subtasks, or another policy or locality off)",
             t->kind->name, n->policy->name, (unsigned long long)t->subtasks, n->cfg.nodes,
             (unsigned long long)NW_LOCALITY_MAX_ENTRIES);
    answer(n, c, NW_ERR_ARG);
    n->error[0] = '\0';
    return;
  }
  e->task = t;
  nw_status st = nw_graph_insert(n, e);
  if (st == NW_ERR_STATE) { /* api.c creates nested tasks only while their parent waits */
    free(e);
    snprintf(n->error, sizeof n->error,
             "task '%s': its parent task is no longer queued, so it cannot nest in it",
             t->kind->name);
    answer(n, c, NW_ERR_STATE);
    n->error[0] = '\0';
    return;
  }
  if (st != NW_OK) {
    nw_node_fail(n, "node 0: out of memory queueing a task");
    answer(n, c, st);
    return;
  }
  if (t->parent)
    t->parent->open_children++;
  if (n->tasks_submitted++ == 0)
    n->stats.task_first_submit_s = n->be.ops->now(n->be.be);
  n->stats.total_flops += t->flops;
  answer(n, c, NW_OK);
  nw_task_start_ready(n);
}

/* Answers a driver wait early with the oldest due spawn callback, for the driver to run
 * (api.c). Returns whether it did. */
static int offer_spawn(nw_node *n, nw_driver_call *c) {
  nw_task *t = nw_nested_next_spawn(n);
  if (!t)
    return 0;
  c->spawn = t;
  answer(n, c, NW_OK);
  return 1;
}

/* A spawn callback became due: the driver runs it if it is waiting now, else at its next wait
 * (a driver busy in its own code runs none). */
static void offer_spawn_to_waiter(nw_node *n) {
  nw_driver_call **waiting = n->until_call ? &n->until_call : NULL;
  if (!waiting && n->wait_entry && n->wait_entry->wait_call)
    waiting = &n->wait_entry->wait_call; /* the driver makes one call at a time */
  if (!waiting)
    return;
  nw_driver_call *c = *waiting;
  *waiting = NULL;
  offer_spawn(n, c);
}

/* Answers the driver's wait for a space to be unused, or for the queue to empty, once it
 * holds. */
static void answer_until(nw_node *n) {
  nw_driver_call *c = n->until_call;
  if (!c)
    return;
  const nw_space_state *s = c->space ? nw_space_find(n, c->space->id) : NULL;
  if (c->space ? s && task_using(n, s) : n->submitted != NULL)
    return;
  n->until_call = NULL;
  answer(n, c, NW_OK);
}

static void task_wait(nw_node *n, nw_driver_call *c) {
  if (offer_spawn(n, c))
    return;
  if (!c->task) { /* a space the driver frees, or the driver's end */
    n->until_call = c;
    answer_until(n);
    return;
  }
  nw_submitted *e = c->task->entry;
  if (!e) { /* already complete */
    answer(n, c, c->task->result);
    return;
  }
  e->wait_call = c;
  n->wait_entry = e;
}

/* A started task's subtasks are over (it completed, or waits for its spawn callback). */
static void subtasks_ended(nw_node *n, nw_task *t) {
  if (!t->started || t->body_done)
    return;
  n->running_tasks--;
  n->running_subtasks -= t->subtasks;
}

static void failed_entry(nw_node *n, nw_submitted *e, void *ctx) {
  nw_status st = *(const nw_status *)ctx;
  e->task->complete = 1;
  e->task->result = st;
  if (e->wait_call)
    answer(n, e->wait_call, st);
}

/* Fails every task still queued, so no driver waits forever: the run is broken. */
static void fail_queue(nw_node *n, nw_status st) {
  nw_graph_clear(n, failed_entry, &st);
  n->wait_entry = NULL;
  n->running_tasks = n->running_subtasks = 0;
  n->spawn_due_n = 0;
  answer_until(n);
}

/* The task of entry e is complete: out of the queue, and its waiter (if any) onto *woken, to
 * be answered with answer_woken once the tasks that may start now have started. The next
 * task's start is then not held up behind waking the driver's thread: on the real backend a
 * futex wake of a sleeping thread cost the event loop 7 us of a 73 us two-rank Task Bench
 * step before its next task start went out (docs/experiments/early-task-start.md). A parent
 * whose callback has returned completes with its last nested task. */
static void complete_entry(nw_node *n, nw_submitted *e, nw_driver_call **woken) {
  nw_task *t = e->task, *parent = t->parent; /* read before the waiter may free t */
  subtasks_ended(n, t);
  nw_graph_remove(n, e);
  t->complete = 1;
  t->result = NW_OK;
  if (e->wait_call) {
    e->wait_call->woken_next = *woken;
    *woken = e->wait_call;
  }
  if (n->wait_entry == e)
    n->wait_entry = NULL;
  free(e);
  if (parent && --parent->open_children == 0 && parent->spawn_returned && parent->entry)
    complete_entry(n, parent->entry, woken);
}

static void answer_woken(nw_node *n, nw_driver_call *woken) {
  while (woken) {
    nw_driver_call *c = woken;
    woken = c->woken_next;
    answer(n, c, NW_OK);
  }
}

/* A task's spawn callback returned (api.c): the task completes now if it nested nothing or
 * its nested tasks are done, else with the last of them. */
static void spawn_done(nw_node *n, nw_driver_call *c) {
  nw_task *t = c->task;
  nw_status st = c->status;
  answer(n, c, NW_OK);
  t->spawn_returned = 1;
  nw_submitted *e = t->entry;
  if (!e) {
    nw_node_fail(n, "node 0: a spawn callback returned for a task that is not queued");
    return;
  }
  if (st != NW_OK) {
    fail_queue(n, st);
    return;
  }
  nw_driver_call *woken = NULL;
  if (t->open_children == 0)
    complete_entry(n, e, &woken);
  nw_task_start_ready(n);
  answer_woken(n, woken);
  answer_until(n);
}

/* A task's subtasks ended, well or not: answer its waiter (or, for a task with a spawn
 * callback, hand the callback to the driver), start what may start now. A failure also
 * answers a pending read, so the driver never stays blocked. */
void nw_driver_task_complete(nw_node *n, uint64_t id, nw_status st) {
  nw_submitted *e = st == NW_OK ? nw_graph_by_id(n, id) : NULL;
  if (st != NW_OK && n->read_call) {
    nw_driver_call *c = n->read_call;
    n->read_call = NULL;
    nw_region_free(&n->read_need);
    answer(n, c, st);
  }
  if (st != NW_OK && n->place_call)
    place_answer(n, st);
  if (st != NW_OK) {
    fail_queue(n, st);
    return;
  }
  nw_task *t = e ? e->task : NULL;
  nw_driver_call *woken = NULL;
  if (t && t->kind->spawn && !t->body_done) {
    subtasks_ended(n, t);
    t->body_done = 1;
    if (nw_nested_spawn_due(n, t) != NW_OK) {
      nw_node_fail(n, "node 0: out of memory");
      return;
    }
    offer_spawn_to_waiter(n);
  } else if (t) {
    complete_entry(n, e, &woken);
  }
  nw_task_start_ready(n);
  answer_woken(n, woken);
  answer_until(n);
}

uint64_t nw_driver_call_bytes(const nw_driver_call *c) {
  return c->kind == CALL_SPACE_WRITE || c->kind == CALL_SPACE_READ ? c->length : 0;
}

void nw_driver_on_call(nw_node *n, nw_driver_call *c) {
  if (nw_recover_busy(n)) {
    n->deferred_call = c; /* the driver makes one call at a time */
    return;
  }
  switch (c->kind) {
  case CALL_SPACE_CREATE:
    space_create(n, c);
    break;
  case CALL_SPACE_WRITE:
    space_write(n, c);
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
  case CALL_SPAWN_DONE:
    spawn_done(n, c);
    break;
  case CALL_SHUTDOWN:
    n->shutting_down = 1; /* a node lost from now on takes nothing with it (recover.c) */
    for (int k = 0; k < n->cfg.nodes; k++) {
      nw_writer w;
      nw_w_init(&w, MSG_END);
      nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
    }
    answer(n, c, NW_OK);
    break;
  }
}

void nw_driver_recovered(nw_node *n) {
  nw_driver_call *again = NULL;
  if (n->read_call) { /* its fetches went to the old owners: node 0 owns everything now */
    again = n->read_call;
    n->read_call = NULL;
    nw_region_free(&n->read_need);
  } else if (n->place_call) { /* it starts over: gathering, claiming, giving */
    again = n->place_call;
    n->place_call = NULL;
    n->place_acks = 0;
    nw_region_free(&n->place_what);
  }
  if (again)
    nw_driver_on_call(n, again);
  if (n->deferred_call) {
    nw_driver_call *c = n->deferred_call;
    n->deferred_call = NULL;
    nw_driver_on_call(n, c);
  }
}
