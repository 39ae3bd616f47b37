/* task.c: a task's life across the cluster, and the ownership update protocol.
 *
 * Node 0 starts a submitted task once every earlier task it conflicts with has completed
 * (nw_task_start_ready), so independent tasks run at once. TASK_START goes to all nodes; each
 * node runs its share and reports committed subtasks to node 0. When all are in, node 0 sends
 * TASK_FINISH; reduced spaces are combined across nodes (reduce_tree.c), then the deferred
 * ownership updates of paper section 3 run:
 *   1) each node has kept the set S of regions its subtasks wrote;
 *   2) at TASK_FINISH it commits S to its own directory and sends one OWN_UPDATE per master
 *      (one message per master, covering every space that master holds), even when empty, so
 *      the master knows when it has heard from everyone;
 *   3) the master commits each S, finds the regions that changed owner and sends each previous
 *      owner one OWN_PREV;
 *   4) previous owners drop those regions (they now route through the master) and acknowledge.
 * A master reports MASTER_DONE to node 0 once acknowledged; with all masters done the task is
 * complete. Temporary directories (resident data) of written spaces are discarded at task end;
 * those of read-only spaces are kept for the next task.
 */
#include <stdlib.h>
#include <string.h>

#include "perfdata.h"
#include "policy.h"
#include "replica.h"

static void publish_writes(nw_node *n, nw_task_state *t);

static int writes(nw_access a) {
  return (a & NW_WRITE_ONLY) != 0;
}

/* Frees execs held back from the backend (their buffers were malloc'd, so free suffices). */
static void free_execs(nw_exec **list, size_t count, int nspaces) {
  for (size_t i = 0; i < count; i++) {
    for (int j = 0; j < nspaces; j++)
      free(list[i]->write_buf[j]);
    nw_prepared_free(list[i]->prep, nspaces);
    free(list[i]);
  }
  free(list);
}

/* The task's per-space arrays, one block (8-byte entries first, then 4-byte ones). */
static nw_status alloc_spaces(nw_task_state *t, uint32_t ns) {
  size_t n = ns ? ns : 1;
  unsigned char *b = calloc(1, n * (sizeof(nw_bound) + 2 * sizeof(nw_region) +
                                    2 * sizeof(uint64_t) + sizeof(nw_access) + sizeof(int)));
  if (!b)
    return NW_ERR_NOMEM;
  t->bound = (nw_bound *)b;
  t->written = (nw_region *)(t->bound + n);
  t->start_resident = t->written + n;
  t->space_size = (uint64_t *)(t->start_resident + n);
  t->space_pitch = t->space_size + n;
  t->access = (nw_access *)(t->space_pitch + n);
  t->red_round = (int *)(t->access + n);
  return NW_OK;
}

void nw_task_free(nw_task_state *t) {
  int ns = t->bound ? t->info.nspaces : 0;
  free(t->dev);
  free_execs(t->deferred, t->ndeferred, ns);
  free_execs(t->parked, t->nparked, ns);
  nw_resend_free(t);
  for (int i = 0; i < ns; i++) {
    nw_region_free(&t->written[i]);
    nw_region_free(&t->start_resident[i]);
  }
  nw_locality_free(t->loc);
  nw_reduce_tree_free(t);
  nw_backups_free(t->backups);
  if (t->policy_state && t->policy_state_free)
    t->policy_state_free(t->policy_state);
  if (t->lost) {
    for (int i = 0; i < ns * t->nodes; i++)
      nw_region_free(&t->lost[i]);
    free(t->lost);
  }
  free(t->bound); /* the block of every per-space array */
  free(t->conf);
  free(t);
}

void nw_task_mark_finishing(nw_node *n, nw_task_state *t) {
  if (t->finishing)
    return;
  t->finishing = 1;
  n->tasks_active--;
}

void nw_task_release(nw_node *n, nw_task_state *t) {
  nw_task_mark_finishing(n, t);
  nw_pipeline_task_forget(n, t);
  if (n->policy->task_forget)
    n->policy->task_forget(n, t);
  *(t->prev ? &t->prev->next : &n->tasks) = t->next;
  *(t->next ? &t->next->prev : &n->tasks_tail) = t->prev;
  t->prev = NULL;
  nw_idmap_remove(&n->task_ids, t->id);
  if (t->running > 0) { /* a losing instance still computes: keep what it points at */
    t->zombie = 1;
    t->next = n->zombies;
    n->zombies = t;
    return;
  }
  nw_task_free(t);
}

void nw_task_exec_returned(nw_node *n, nw_task_state *t) {
  if (!t->zombie || t->running > 0)
    return;
  for (nw_task_state **p = &n->zombies; *p; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      break;
    }
  nw_task_free(t);
}

static int is_master_here(const nw_node *n, const nw_task_state *t) {
  for (int i = 0; i < t->info.nspaces; i++)
    if (writes(t->bound[i].access) && t->bound[i].space->master == n->cfg.id)
      return 1;
  return 0;
}

/* A node forgets a task once it has nothing more to do for it. */
static void maybe_forget(nw_node *n, nw_task_state *t) {
  if (!t->finishing || t->reducing || n->cfg.id == 0)
    return; /* node 0 forgets at completion */
  if (is_master_here(n, t) && (!t->master_started || t->updates_pending || t->acks_pending))
    return;
  nw_task_release(n, t);
}

static void start_task(nw_node *n, nw_submitted *e);

/* One task at a time: whether a task before e still runs its subtasks, or waits for its spawn
 * callback without being e's ancestor (the callback is about to submit nested tasks, which go
 * before e; an ancestor's callback may be waiting for e itself). */
static int busy_before(const nw_node *n, const nw_submitted *e) {
  for (const nw_submitted *f = n->submitted; f != e; f = f->next)
    if (f->task->started && (!f->task->body_done || (!f->task->spawn_returned &&
                                                     !nw_nested_is_ancestor(f->task, e->task))))
      return 1;
  return 0;
}

static void started(nw_node *n) {
  if (n->running_tasks > n->stats.tasks_concurrent_max)
    n->stats.tasks_concurrent_max = n->running_tasks;
}

/* Which tasks run: a queued task starts once no task before it in the queue and not yet
 * complete conflicts with it: they share a space one of them writes (paper section 2:
 * concurrent tasks share no space, or share it read-only), or it said so (nw_task_depend). So
 * every reader waits for the writers before it and every writer for the readers and writers
 * before it, and independent tasks run at once, sharing the devices. graph.c counts each
 * queued task's incomplete predecessors and lists those whose count is 0; they start here,
 * in queue order. Task ids are given here, in start order, which is the order every node
 * starts them in (node.c). With sequential_tasks, one task at a time, in queue order. */
void nw_task_start_ready(nw_node *n) {
  if (nw_recover_busy(n))
    return; /* the recovery starts them when it is done (recover.c) */
  if (n->cfg.sched.sequential_tasks) {
    free(n->ready); /* not needed: the first queued task that may start is found below */
    n->ready = NULL;
    n->nready = n->capready = 0;
    for (nw_submitted *e = n->submitted; e; e = e->next) {
      e->ready = 0;
      if (e->task->started)
        continue;
      if (busy_before(n, e))
        return;
      if (e->preds == 0) {
        start_task(n, e);
        started(n);
      }
    }
    return;
  }
  nw_submitted **ready;
  size_t count = nw_graph_take_ready(n, &ready);
  for (size_t k = 0; k < count && !n->error[0]; k++)
    if (!ready[k]->task->started && ready[k]->task->entry == ready[k]) {
      start_task(n, ready[k]);
      started(n);
    }
  free(ready);
}

static void start_task(nw_node *n, nw_submitted *e) {
  nw_task *task = e->task;
  task->started = 1;
  task->started_s = n->be.ops->now(n->be.be);
  n->stats.tasks_run++;
  n->stats.tasks_nested += task->parent != NULL;
  task->id = n->next_task_id++;
  if (nw_graph_started(n, e, task->id) != NW_OK) {
    nw_node_fail(n, "node 0: out of memory");
    return;
  }
  /* Tasks already running hold the devices their ranges begin on: this one's initial split
   * starts after theirs (nw_task_state.deal_offset). */
  uint64_t offset = n->running_subtasks;
  n->running_tasks++;
  n->running_subtasks += task->subtasks;
  nw_writer w;
  nw_w_init(&w, MSG_TASK_START);
  nw_w_u64(&w, task->id);
  size_t name_len = strlen(task->kind->name);
  nw_w_u32(&w, (uint32_t)name_len);
  nw_w_bytes(&w, task->kind->name, name_len);
  nw_w_u64(&w, task->subtasks);
  nw_w_u64(&w, task->conf_size);
  nw_w_bytes(&w, task->conf, task->conf_size);
  nw_w_u32(&w, (uint32_t)task->nbound);
  for (int i = 0; i < task->nbound; i++) {
    nw_space_state *s = nw_space_find(n, task->space[i]->id);
    s->shared = 1; /* other nodes may keep copies of its bytes from now on */
    nw_w_u64(&w, s->id);
    nw_w_u64(&w, s->size);
    nw_w_u64(&w, s->pitch);
    nw_w_u32(&w, (uint32_t)s->master);
    nw_w_u32(&w, (uint32_t)s->creator);
    /* The reduction rides in the access word's upper bytes: a task without one sends the
     * same bytes as before reductions existed, so simulated timings did not move. */
    nw_w_u32(&w, (uint32_t)task->access[i] | (uint32_t)task->reduce_op[i] << 8 |
                     (uint32_t)task->reduce_type[i] << 16);
  }
  /* The offset is sent only when not 0, so a task that starts alone sends the same bytes as
   * before tasks ran concurrently. */
  if (offset)
    nw_w_u64(&w, offset);
  for (int k = 0; k < n->cfg.nodes; k++) {
    nw_writer copy = w;
    if (k + 1 < n->cfg.nodes) { /* every destination gets its own buffer */
      copy.buf = malloc(w.len);
      copy.cap = w.len; /* its own buffer: what nw_node_send appends must grow it */
      if (!copy.buf) {
        nw_w_free(&w);
        nw_node_fail(n, "node 0: out of memory");
        return;
      }
      memcpy(copy.buf, w.buf, w.len);
    }
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &copy, 0);
  }
}

static const nw_task_kind *find_kind(const nw_node *n, const char *name, size_t len) {
  for (const nw_task_kind *const *k = n->cfg.kinds; k && *k; k++)
    if (strlen((*k)->name) == len && memcmp((*k)->name, name, len) == 0)
      return *k;
  return NULL;
}

void nw_task_on_start(nw_node *n, int src, nw_reader *r) {
  (void)src;
  nw_task_state *t = calloc(1, sizeof *t);
  if (!t) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  t->nodes = n->cfg.nodes;
  t->id = nw_r_u64(r);
  uint32_t name_len = nw_r_u32(r);
  const char *name = (const char *)nw_r_bytes(r, name_len);
  t->info.subtasks = nw_r_u64(r);
  uint64_t conf_size = nw_r_u64(r);
  const unsigned char *conf = nw_r_bytes(r, conf_size);
  uint32_t nspaces = nw_r_u32(r);
  /* 36 bytes describe a bound space: a count the message cannot hold is malformed */
  if (r->bad || nspaces > NW_MAX_BOUND_SPACES || nspaces > (r->len - r->pos) / 36) {
    r->bad = 1;
    free(t);
    return;
  }
  if (alloc_spaces(t, nspaces) != NW_OK) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    free(t);
    return;
  }
  t->kind = find_kind(n, name, name_len);
  if (!t->kind) {
    nw_node_fail(n, "node %d: task kind '%.*s' is not registered here", n->cfg.id, (int)name_len,
                 name);
    nw_task_free(t);
    return;
  }
  t->conf = malloc(conf_size ? conf_size : 1);
  if (t->conf && conf_size)
    memcpy(t->conf, conf, conf_size);
  t->info = (nw_task_info){.task_id = t->id,
                           .subtasks = t->info.subtasks,
                           .conf = t->conf,
                           .conf_size = conf_size,
                           .nspaces = (int)nspaces,
                           .space_size = t->space_size,
                           .space_pitch = t->space_pitch};
  for (uint32_t i = 0; i < nspaces; i++) {
    uint64_t id = nw_r_u64(r), size = nw_r_u64(r), pitch = nw_r_u64(r);
    int master = (int)nw_r_u32(r), creator = (int)nw_r_u32(r);
    uint32_t word = nw_r_u32(r);
    nw_access a = (nw_access)(word & 0xff);
    nw_reduce_op op = (nw_reduce_op)(word >> 8 & 0xff);
    nw_elem_type type = (nw_elem_type)(word >> 16 & 0xff);
    nw_space_state *s = r->bad ? NULL : nw_space_get(n, id, size, pitch, master, creator);
    if (!s || (op && (!nw_reduce_op_name(op) || !nw_reduce_type_name(type)))) {
      r->bad = 1;
      break;
    }
    t->bound[i] = (nw_bound){
        s, a, {.op = op, .type = type, .kind = t->kind, .info = &t->info, .space = (int)i}};
    t->access[i] = a;
    if (a != NW_WRITE_ONLY) /* a phantom program wrote what its first task reads (space.h) */
      nw_space_read_first(n, s);
    s->task_wrote |= writes(a);
    if (writes(a)) /* before any of its subtasks asks for data (nw_space_new_version says why) */
      nw_space_new_version(n, s);
    t->space_size[i] = size;
    t->space_pitch[i] = pitch;
    nw_region_init(&t->written[i], pitch);
    if (nw_chunked_flatten(&s->resident, &t->start_resident[i]) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      nw_task_free(t);
      return;
    }
  }
  if (!r->bad && r->pos < r->len)
    t->deal_offset = nw_r_u64(r);
  t->ndev = n->cfg.devices;
  t->dev = calloc((size_t)t->ndev, sizeof *t->dev);
  if (r->bad || !t->conf || !t->dev) {
    if (!r->bad)
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    nw_task_free(t);
    return;
  }
  if (nw_idmap_put(&n->task_ids, t->id, t) != NW_OK) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    nw_task_free(t);
    return;
  }
  n->last_started_task = t->id;
  n->tasks_active++;
  t->prev = n->tasks_tail;
  *(n->tasks_tail ? &n->tasks_tail->next : &n->tasks) = t;
  n->tasks_tail = t;
  nw_gpu_task_writes(n, t);
  nw_pipeline_task_init(n, t);
  n->policy->task_start(n, t);
}

static void complete_task(nw_node *n, nw_task_state *t) {
  n->stats.task_last_complete_s = n->be.ops->now(n->be.be);
  nw_replica_task_complete(n, t); /* resilient runs: the replica takes its results */
  uint64_t id = t->id;
  nw_task_release(n, t);
  n->hooks.task_complete(n, id, NW_OK);
}

/* The distinct master nodes of the spaces t writes, into masters (room for nspaces); their
 * count. */
static int write_masters(const nw_task_state *t, int *masters) {
  int nm = 0;
  for (int i = 0; i < t->info.nspaces; i++) {
    if (!writes(t->bound[i].access))
      continue;
    int m = t->bound[i].space->master, seen = 0;
    for (int j = 0; j < nm; j++)
      seen |= masters[j] == m;
    if (!seen)
      masters[nm++] = m;
  }
  return nm;
}

static void broadcast_finish(nw_node *n, nw_task_state *t) {
  int masters[NW_MAX_BOUND_SPACES];
  int nm = write_masters(t, masters);
  t->masters_pending = nm;
  /* Resilient runs: every other node's MSG_BACKUP of what it wrote (recover.c). */
  t->backups_pending = n->members && nm > 0 ? n->cfg.nodes - 1 : 0;
  for (int k = 0; k < n->cfg.nodes; k++) {
    nw_writer w;
    nw_w_init(&w, MSG_TASK_FINISH);
    nw_w_u64(&w, t->id);
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
  }
  if (nm == 0)
    complete_task(n, t);
}

void nw_task_maybe_complete(nw_node *n, nw_task_state *t) {
  if (t->masters_pending == 0 && t->backups_pending == 0)
    complete_task(n, t);
}

void nw_task_subtask_committed(nw_node *n, nw_task_state *t, uint64_t count) {
  if (n->cfg.id != 0) {
    /* Ahead of the count on the same channel: node 0 has every measurement of a task before
     * it can complete it, and so before the run can end. */
    nw_perf_flush(n);
    nw_writer w;
    nw_w_init(&w, MSG_SUBTASK_DONE);
    nw_w_u64(&w, t->id);
    nw_w_u64(&w, count);
    nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
    return;
  }
  t->done += count;
  if (t->done == t->info.subtasks)
    broadcast_finish(n, t);
}

void nw_task_on_subtask_done(nw_node *n, nw_reader *r) {
  uint64_t id = nw_r_u64(r), count = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t || n->cfg.id != 0) {
    r->bad = 1;
    return;
  }
  nw_task_subtask_committed(n, t, count);
}

static int begin_master(nw_node *n, nw_task_state *t) {
  if (t->master_started)
    return 1;
  t->master_started = 1;
  for (int i = 0; i < t->info.nspaces; i++)
    if (writes(t->bound[i].access) && t->bound[i].space->master == n->cfg.id)
      nw_space_round_begins(t->bound[i].space);
  t->updates_pending = n->cfg.nodes; /* every node, this one included */
  t->lost = calloc((size_t)(t->info.nspaces * n->cfg.nodes), sizeof *t->lost);
  if (!t->lost) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return 0;
  }
  for (int i = 0; i < t->info.nspaces; i++)
    for (int k = 0; k < n->cfg.nodes; k++)
      nw_region_init(&t->lost[i * n->cfg.nodes + k], t->info.space_pitch[i]);
  return 1;
}

static int bound_slot(const nw_task_state *t, uint64_t space_id) {
  for (int i = 0; i < t->info.nspaces; i++)
    if (t->bound[i].space->id == space_id)
      return i;
  return -1;
}

/* Step 3, once every node's S is in: this master's view of what it owns, and one OWN_PREV
 * per previous owner that lost something. */
static void settle_master(nw_node *n, nw_task_state *t) {
  int nodes = n->cfg.nodes;
  for (int i = 0; i < t->info.nspaces; i++) {
    nw_space_state *s = t->bound[i].space;
    if (!writes(t->bound[i].access) || s->master != n->cfg.id)
      continue;
    nw_region_free(&s->owned);
    if (nw_region_copy(&s->owned, nw_directory_owned_by(s->dir, n->cfg.id)) != NW_OK ||
        nw_chunked_assign(&s->resident, &s->owned) != NW_OK)
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    nw_space_round_settled(n, s);
  }
  for (int k = 0; k < nodes; k++) {
    if (k == n->cfg.id)
      continue;
    nw_writer w;
    nw_w_init(&w, MSG_OWN_PREV);
    nw_w_u64(&w, t->id);
    uint32_t entries = 0;
    for (int i = 0; i < t->info.nspaces; i++)
      entries += !nw_region_empty(&t->lost[i * nodes + k]);
    if (entries == 0) {
      nw_w_free(&w);
      continue;
    }
    nw_w_u32(&w, entries);
    for (int i = 0; i < t->info.nspaces; i++) {
      if (nw_region_empty(&t->lost[i * nodes + k]))
        continue;
      nw_w_u64(&w, t->bound[i].space->id);
      nw_w_region(&w, &t->lost[i * nodes + k]);
    }
    n->stats.ownership_messages++;
    t->acks_pending++;
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
  }
  if (t->acks_pending == 0) {
    nw_writer w;
    nw_w_init(&w, MSG_MASTER_DONE);
    nw_w_u64(&w, t->id);
    nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
  }
}

/* Applies one node's S (as read from an OWN_UPDATE, or this node's own). */
static void master_apply(nw_node *n, nw_task_state *t, int writer, uint64_t space_id,
                         const nw_region *written) {
  int i = bound_slot(t, space_id);
  if (i < 0 || t->bound[i].space->master != n->cfg.id) {
    nw_node_fail(n, "node %d: ownership update for space %llu it is not master of", n->cfg.id,
                 (unsigned long long)space_id);
    return;
  }
  nw_status st =
      nw_directory_assign(t->bound[i].space->dir, writer, written, &t->lost[i * n->cfg.nodes]);
  if (st != NW_OK)
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
}

static void update_received(nw_node *n, nw_task_state *t) {
  if (--t->updates_pending == 0)
    settle_master(n, t);
  maybe_forget(n, t);
}

void nw_task_on_finish(nw_node *n, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t)
    return; /* node 0 completed a task that wrote nothing before its own FINISH arrived */
  nw_task_mark_finishing(n, t);
  if (n->policy->task_end)
    n->policy->task_end(n, t);
  nw_perf_flush(n);
  for (size_t i = 0; i < t->ndeferred; i++)
    nw_exec_commit(n, t->deferred[i]);
  t->ndeferred = 0;
  /* Reduced spaces combine across nodes first; nw_task_on_reduce goes on as the children's
   * results come. */
  if (nw_reduce_tree_needed(t) && !nw_reduce_tree_begin(n, t))
    return;
  publish_writes(n, t);
}

/* A child's partial result of a reduced space (reduce_tree.c). */
void nw_task_on_reduce(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t) {
    r->bad = 1;
    return;
  }
  nw_reduce_tree_on_partial(n, t, src, r);
  if (!r->bad && t->reducing && nw_reduce_tree_step(n, t))
    publish_writes(n, t);
}

/* Steps 2 on, once the node's results are final: commit S here, tell the masters. */
static void publish_writes(nw_node *n, nw_task_state *t) {
  nw_replica_send_backup(n, t); /* resilient runs: node 0's replica (replica.c) */
  /* Step 2: commit S here; written spaces drop their fetched (now stale) data. */
  int masters[NW_MAX_BOUND_SPACES], nm = 0;
  for (int i = 0; i < t->info.nspaces; i++) {
    if (!writes(t->bound[i].access))
      continue;
    nw_space_state *s = t->bound[i].space;
    if (nw_region_add(&s->owned, &t->written[i]) != NW_OK ||
        nw_chunked_assign(&s->resident, &s->owned) != NW_OK)
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    nw_space_new_version(n, s); /* what arrives for it now is stale: dropped by version */
    int seen = 0;
    for (int j = 0; j < nm; j++)
      seen |= masters[j] == s->master;
    if (!seen)
      masters[nm++] = s->master;
  }
  int master_here = 0;
  for (int j = 0; j < nm; j++) {
    int m = masters[j];
    if (m == n->cfg.id) {
      master_here = 1;
      continue;
    }
    nw_writer w;
    nw_w_init(&w, MSG_OWN_UPDATE);
    nw_w_u64(&w, t->id);
    uint32_t entries = 0;
    for (int i = 0; i < t->info.nspaces; i++)
      entries += writes(t->bound[i].access) && t->bound[i].space->master == m;
    nw_w_u32(&w, entries);
    for (int i = 0; i < t->info.nspaces; i++) {
      if (!writes(t->bound[i].access) || t->bound[i].space->master != m)
        continue;
      nw_w_u64(&w, t->bound[i].space->id);
      nw_w_region(&w, &t->written[i]);
    }
    n->stats.ownership_messages++;
    nw_node_send(n, m, NW_CHANNEL_CONTROL, &w, 0);
  }
  /* Last, because it may complete the master's part and let this node forget the task. */
  if (master_here) {
    if (!begin_master(n, t))
      return;
    for (int i = 0; i < t->info.nspaces; i++)
      if (writes(t->bound[i].access) && t->bound[i].space->master == n->cfg.id)
        master_apply(n, t, n->cfg.id, t->bound[i].space->id, &t->written[i]);
    update_received(n, t); /* ends with maybe_forget */
    return;
  }
  maybe_forget(n, t);
}

void nw_task_on_update(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  uint32_t entries = nw_r_u32(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t || !begin_master(n, t)) {
    r->bad = !t;
    return;
  }
  for (uint32_t e = 0; e < entries && !r->bad; e++) {
    uint64_t space_id = nw_r_u64(r);
    int i = bound_slot(t, space_id);
    if (i < 0) {
      r->bad = 1;
      return;
    }
    nw_region got;
    nw_r_region(r, &got, t->info.space_pitch[i]);
    if (!r->bad)
      master_apply(n, t, src, space_id, &got);
    nw_region_free(&got);
  }
  if (!r->bad)
    update_received(n, t);
}

void nw_task_on_prev(nw_node *n, int src, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  uint32_t entries = nw_r_u32(r);
  for (uint32_t e = 0; e < entries && !r->bad; e++) {
    nw_space_state *s = nw_space_find(n, nw_r_u64(r));
    if (!s) {
      r->bad = 1;
      return;
    }
    nw_region lost;
    nw_r_region(r, &lost, s->pitch);
    if (!r->bad && (nw_region_subtract(&s->owned, &lost) != NW_OK ||
                    nw_chunked_subtract(&s->resident, &lost) != NW_OK))
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    nw_region_free(&lost);
  }
  if (r->bad)
    return;
  nw_writer w;
  nw_w_init(&w, MSG_OWN_PREV_ACK);
  nw_w_u64(&w, id);
  nw_node_send(n, src, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_task_on_prev_ack(nw_node *n, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t || t->acks_pending == 0) {
    r->bad = 1;
    return;
  }
  if (--t->acks_pending == 0) {
    nw_writer w;
    nw_w_init(&w, MSG_MASTER_DONE);
    nw_w_u64(&w, t->id);
    nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
  }
  maybe_forget(n, t);
}

void nw_task_on_master_done(nw_node *n, nw_reader *r) {
  uint64_t id = nw_r_u64(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t || n->cfg.id != 0 || t->masters_pending == 0) {
    r->bad = 1;
    return;
  }
  t->masters_pending--;
  nw_task_maybe_complete(n, t);
}
