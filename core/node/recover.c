/* recover.c: surviving a lost node (README, "Faults"), in resilient runs.
 *
 * The decisions (README, "Design decisions", says why):
 * - Node 0, the driver's, is the stable one: it keeps a replica of every space as the last
 *   completed task or driver write left it. At each task's end every other node sends it the
 *   bytes it wrote (MSG_BACKUP), and node 0 applies them to the replica when the task
 *   completes, so the replica never holds half a task. Node 0's loss ends the run.
 * - A loss rolls back every task under way and runs it again on the survivors. Unicorn checks
 *   nothing of a task in before its end (paper section 3: ownership moves only in the task
 *   end's update round), so the state before those tasks is the checked-in state, and the
 *   replica holds it.
 * - After a loss node 0 masters every space. A space a rolled-back task wrote (or a driver
 *   placement under way) is node 0's alone, from its replica: the others' bytes of it may be
 *   rolled-back results. Every other space keeps its owners and copies; node 0 takes over what
 *   the lost node owned, from its replica.
 * - The survivors are renumbered 0..nodes-1 in their original order: every policy and protocol
 *   then sees an ordinary smaller cluster. Messages carry the recovery epoch, so whatever was
 *   sent before a recovery is dropped on arrival, and nothing from a lost node is taken.
 *
 * The protocol: node 0 hears of the loss (NW_EVENT_NODE_LOST), rolls back its tasks and sends
 * MSG_RECOVER (the new epoch, the members, the spaces written) to every survivor; each rolls
 * back, renumbers and answers MSG_RECOVER_READY with its highest space version and what it
 * owns of the other spaces, and holds every other message until MSG_RECOVER_DONE. With every
 * answer in, node 0 rebuilds every space's directory at a version above all of those, sends
 * MSG_RECOVER_DONE (that version, the last task id given, every space) and starts the
 * rolled-back tasks again under new ids. A loss during a recovery begins another, of a later
 * epoch.
 */
#include <stdlib.h>
#include <string.h>

#include "node_internal.h"
#include "policy.h"
#include "replica.h"

/* Node 0: what survivor `node` (logical, this epoch) owns of a space no rolled-back task wrote. */
typedef struct nw_owned_report {
  uint64_t space;
  int node;
  nw_region owned;
  struct nw_owned_report *next;
} nw_owned_report;

static void free_reports(nw_membership *m) {
  while (m->reports) {
    nw_owned_report *r = m->reports;
    m->reports = r->next;
    nw_region_free(&r->owned);
    free(r);
  }
}

static int is_dirty(const nw_membership *m, uint64_t space) {
  for (size_t i = 0; i < m->ndirty; i++)
    if (m->dirty[i] == space)
      return 1;
  return 0;
}

static nw_status add_dirty(nw_membership *m, uint64_t space) {
  if (is_dirty(m, space))
    return NW_OK;
  if (m->ndirty == m->capdirty) {
    size_t cap = m->capdirty ? 2 * m->capdirty : 8;
    uint64_t *d = realloc(m->dirty, cap * sizeof *d);
    if (!d)
      return NW_ERR_NOMEM;
    m->dirty = d;
    m->capdirty = cap;
  }
  m->dirty[m->ndirty++] = space;
  return NW_OK;
}

nw_status nw_recover_init(nw_node *n) {
  if (!n->cfg.resilient)
    return NW_OK;
  nw_membership *m = calloc(1, sizeof *m);
  if (!m)
    return NW_ERR_NOMEM;
  m->home = n->cfg.id;
  m->original_nodes = n->cfg.nodes;
  for (int k = 0; k < n->cfg.nodes; k++) {
    m->to_backend[k] = m->to_logical[k] = k;
    m->original_devices[k] = n->cfg.devices_per_node[k];
  }
  m->original_cluster = n->cfg.cluster;
  n->members = m;
  return NW_OK;
}

static void free_held(nw_membership *m) {
  while (m->held) {
    nw_stashed *s = m->held;
    m->held = s->next;
    free(s->buf);
    free(s);
  }
}

void nw_recover_free(nw_node *n) {
  if (!n->members)
    return;
  free_held(n->members);
  free_reports(n->members);
  free(n->members->dirty);
  free(n->members->cluster);
  free(n->members);
  n->members = NULL;
}

/* Keeps a message of a later epoch, or one that arrives while this survivor waits for
 * MSG_RECOVER_DONE, for replay then (in arrival order). */
static void hold(nw_node *n, int src, void *buf, size_t len) {
  nw_stashed *s = malloc(sizeof *s), **at = &n->members->held;
  if (!s) {
    free(buf);
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  *s = (nw_stashed){.src = src, .buf = buf, .len = len};
  while (*at)
    at = &(*at)->next;
  *at = s;
}

int nw_recover_admit(nw_node *n, int *src, void *buf, size_t *len) {
  nw_membership *m = n->members;
  const unsigned char *p = buf;
  if (*len < 5) {
    free(buf);
    nw_node_fail(n, "node %d: a message of %zu bytes from node %d has no epoch", n->cfg.id, *len,
                 *src);
    return 0;
  }
  uint32_t epoch = (uint32_t)p[*len - 4] | (uint32_t)p[*len - 3] << 8 |
                   (uint32_t)p[*len - 2] << 16 | (uint32_t)p[*len - 1] << 24;
  int from = nw_recover_logical_id(n, *src);
  if (p[0] == MSG_RECOVER) { /* only node 0 sends it, to begin a later epoch */
    if (*src != 0 || epoch <= m->epoch) {
      n->stats.stale_epoch_dropped++;
      free(buf);
      return 0;
    }
    m->epoch = epoch;
    *len -= 4;
    return 1;
  }
  if (from < 0 || epoch < m->epoch) { /* sent before a recovery, or by a lost node */
    n->stats.stale_epoch_dropped++;
    free(buf);
    return 0;
  }
  if (epoch > m->epoch || (m->awaiting_done && p[0] != MSG_RECOVER_DONE)) {
    hold(n, *src, buf, *len);
    return 0;
  }
  *len -= 4;
  *src = from;
  return 1;
}

/* The survivors are members[0..count): backend ids in logical order (node 0 first). */
static void renumber(nw_node *n, const int *members, int count) {
  nw_membership *m = n->members;
  for (int k = 0; k < m->original_nodes; k++)
    m->to_logical[k] = -1;
  int total = 0;
  for (int i = 0; i < count; i++) {
    m->to_backend[i] = members[i];
    m->to_logical[members[i]] = i;
    n->cfg.devices_per_node[i] = m->original_devices[members[i]];
    total += n->cfg.devices_per_node[i];
  }
  n->cfg.nodes = count;
  n->cfg.id = m->to_logical[m->home];
  if (!m->original_cluster)
    return;
  /* The survivors' devices, in their new order, from the cluster as the backend gave it. */
  nw_device_desc *c = malloc((size_t)(total > 0 ? total : 1) * sizeof *c);
  if (!c) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  int at = 0;
  for (int i = 0; i < count; i++) {
    int first = 0;
    for (int k = 0; k < members[i]; k++)
      first += m->original_devices[k];
    memcpy(c + at, m->original_cluster + first,
           (size_t)m->original_devices[members[i]] * sizeof *c);
    at += m->original_devices[members[i]];
  }
  free(m->cluster);
  m->cluster = c;
  n->cfg.cluster = c;
}

/* Forgets every task under way here (their executions still running return as zombies and
 * are discarded) and every message stashed for a task not yet started. Node 0 also takes its
 * driver's tasks back to "not started" and counts what is thrown away. An execution still
 * running may yet write a write-only result in place (pipeline.c, writes_in_place): the same
 * bytes its task, run again from the same inputs, writes; in the simulator its kernel ran
 * when it started, and a device starts what it was launched at once. */
static void rollback(nw_node *n) {
  while (n->tasks) {
    nw_task_state *t = n->tasks;
    nw_submitted *e = n->cfg.id == 0 ? nw_graph_by_id(n, t->id) : NULL;
    if (e) { /* to be started again, with the ids of the tasks that start after the recovery */
      if (!e->task->body_done) {
        n->running_tasks--;
        n->running_subtasks -= e->task->subtasks;
      }
      nw_graph_unstarted(n, e);
      e->task->started = 0;
      e->task->restart_pending = 1;
      n->stats.tasks_restarted++;
      n->stats.subtasks_reexecuted += t->done;
    }
    nw_task_mark_finishing(n, t); /* what still runs of it is thrown away when it returns */
    t->aborted = 1;
    nw_task_release(n, t);
  }
  while (n->stash) {
    nw_stashed *s = n->stash;
    n->stash = s->next;
    free(s->buf);
    free(s);
  }
}

/* After the renumbering: the devices forget what they asked, and the policy starts over on the
 * smaller cluster (its state names devices and tasks of the old one). */
static void restart_scheduling(nw_node *n) {
  nw_pipeline_reset(n);
  if (n->policy->fini)
    n->policy->fini(n);
  if (n->policy->init && n->policy->init(n) != NW_OK)
    nw_node_fail(n, "node %d: out of memory restarting the scheduler after a recovery", n->cfg.id);
}

static uint64_t max_version(const nw_node *n) {
  uint64_t v = 0;
  for (const nw_space_state *s = n->spaces; s; s = s->next)
    if (s->version > v)
      v = s->version;
  return v;
}

static void finish_recovery(nw_node *n);

void nw_recover_on_lost(nw_node *n, int backend_id, double at_s) {
  (void)at_s;
  nw_membership *m = n->members;
  if (n->cfg.id != 0 || backend_id <= 0 || nw_recover_logical_id(n, backend_id) < 0 ||
      n->shutting_down)
    return; /* node 0 alone recovers; a node is lost once; after the last call, nothing is */
  int members[NW_MAX_NODES], count = 0;
  for (int i = 0; i < n->cfg.nodes; i++)
    if (m->to_backend[i] != backend_id)
      members[count++] = m->to_backend[i];
  m->epoch++;
  n->stats.recoveries++;
  free_reports(m); /* of a recovery this one replaces: in the old numbering */
  int oom = 0;
  for (nw_task_state *t = n->tasks; t; t = t->next)
    for (int i = 0; i < t->info.nspaces; i++)
      if (t->bound[i].access & NW_WRITE_ONLY)
        oom |= add_dirty(m, t->bound[i].space->id) != NW_OK;
  if (n->place_call) /* a driver write or placement under way moves its space's ownership */
    oom |= add_dirty(m, n->place_call->space->id) != NW_OK;
  if (oom) {
    nw_node_fail(n, "node 0: out of memory beginning a recovery");
    return;
  }
  rollback(n);
  renumber(n, members, count);
  restart_scheduling(n);
  m->ready_pending = count - 1;
  m->max_version = max_version(n);
  for (int i = 1; i < count; i++) {
    nw_writer w;
    nw_w_init(&w, MSG_RECOVER);
    nw_w_u32(&w, (uint32_t)count);
    for (int j = 0; j < count; j++)
      nw_w_u32(&w, (uint32_t)members[j]);
    nw_w_u32(&w, (uint32_t)m->ndirty);
    for (size_t j = 0; j < m->ndirty; j++)
      nw_w_u64(&w, m->dirty[j]);
    nw_node_send(n, i, NW_CHANNEL_CONTROL, &w, 0);
  }
  if (m->ready_pending == 0)
    finish_recovery(n);
}

/* A message of recovery in a run that does not recover is malformed input: marked bad. */
static int refused(nw_node *n, nw_reader *r) {
  if (!n->members)
    r->bad = 1;
  return !n->members;
}

void nw_recover_on_recover(nw_node *n, nw_reader *r) {
  if (refused(n, r))
    return;
  nw_membership *m = n->members;
  uint32_t count = nw_r_u32(r);
  int members[NW_MAX_NODES], self = 0;
  if (r->bad || count < 1 || count > (uint32_t)m->original_nodes)
    r->bad = 1;
  for (uint32_t i = 0; i < count && !r->bad; i++) {
    uint32_t b = nw_r_u32(r);
    if (b >= (uint32_t)m->original_nodes)
      r->bad = 1;
    members[i] = (int)b;
    self |= members[i] == m->home;
  }
  uint32_t ndirty = nw_r_u32(r);
  if (r->bad || !self || members[0] != 0 || ndirty > (r->len - r->pos) / 8) {
    r->bad = 1;
    return;
  }
  m->ndirty = 0;
  for (uint32_t i = 0; i < ndirty; i++)
    if (add_dirty(m, nw_r_u64(r)) != NW_OK) {
      nw_node_fail(n, "node %d: out of memory", n->cfg.id);
      return;
    }
  rollback(n);
  renumber(n, members, (int)count);
  restart_scheduling(n);
  free_held(m); /* of an earlier recovery that this one replaces */
  m->awaiting_done = 1;
  nw_writer w;
  nw_w_init(&w, MSG_RECOVER_READY);
  nw_w_u64(&w, max_version(n));
  uint32_t kept = 0;
  for (const nw_space_state *s = n->spaces; s; s = s->next)
    kept += !is_dirty(m, s->id) && !nw_region_empty(&s->owned);
  nw_w_u32(&w, kept);
  for (const nw_space_state *s = n->spaces; s; s = s->next)
    if (!is_dirty(m, s->id) && !nw_region_empty(&s->owned)) {
      nw_w_u64(&w, s->id);
      nw_w_region(&w, &s->owned);
    }
  nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_recover_on_ready(nw_node *n, int src, nw_reader *r) {
  if (refused(n, r))
    return;
  nw_membership *m = n->members;
  uint64_t v = nw_r_u64(r);
  uint32_t kept = nw_r_u32(r);
  if (r->bad || n->cfg.id != 0 || m->ready_pending <= 0) {
    r->bad = 1;
    return;
  }
  for (uint32_t i = 0; i < kept && !r->bad; i++) {
    nw_space_state *s = nw_space_find(n, nw_r_u64(r));
    nw_owned_report *rep = s ? calloc(1, sizeof *rep) : NULL;
    if (!rep) {
      r->bad = 1;
      return;
    }
    rep->space = s->id;
    rep->node = src;
    nw_r_region(r, &rep->owned, s->pitch);
    rep->next = m->reports;
    m->reports = rep;
  }
  if (r->bad)
    return;
  if (v > m->max_version)
    m->max_version = v;
  if (--m->ready_pending == 0)
    finish_recovery(n);
}

static void finish_recovery(nw_node *n) {
  nw_membership *m = n->members;
  uint64_t version = m->max_version + 1;
  uint32_t spaces = 0;
  nw_region *reports = calloc((size_t)n->cfg.nodes, sizeof *reports);
  if (!reports) {
    nw_node_fail(n, "node 0: out of memory ending a recovery");
    return;
  }
  for (nw_space_state *s = n->spaces; s; s = s->next, spaces++) {
    int keep = !is_dirty(m, s->id);
    for (int k = 0; k < n->cfg.nodes; k++)
      nw_region_init(&reports[k], s->pitch);
    for (nw_owned_report *rep = m->reports; rep; rep = rep->next)
      if (rep->space == s->id && rep->node > 0 && rep->node < n->cfg.nodes &&
          nw_region_add(&reports[rep->node], &rep->owned) != NW_OK)
        keep = -1;
    if (keep < 0 || nw_space_recovered(n, s, version, keep, reports) != NW_OK)
      nw_node_fail(n, "node 0: out of memory recovering space %llu", (unsigned long long)s->id);
    for (int k = 0; k < n->cfg.nodes; k++)
      nw_region_free(&reports[k]);
    if (!keep)
      nw_gpu_space_written(n, s->id); /* the GPUs' copies may hold rolled-back results */
  }
  free(reports);
  free_reports(m);
  for (int k = 1; k < n->cfg.nodes; k++) {
    nw_writer w;
    nw_w_init(&w, MSG_RECOVER_DONE);
    nw_w_u64(&w, version);
    nw_w_u64(&w, n->next_task_id - 1);
    nw_w_u32(&w, spaces);
    for (nw_space_state *s = n->spaces; s; s = s->next) {
      nw_w_u64(&w, s->id);
      nw_w_u64(&w, s->size);
      nw_w_u64(&w, s->pitch);
    }
    nw_node_send(n, k, NW_CHANNEL_CONTROL, &w, 0);
  }
  double now = n->be.ops->now(n->be.be);
  for (nw_submitted *e = n->submitted; e; e = e->next) {
    if (e->task->restart_pending) {
      e->task->restart_pending = 0;
      n->stats.time_lost_s += now - e->task->started_s;
    }
  }
  m->ndirty = 0;
  n->hooks.recovered(n);
  nw_task_start_ready(n);
}

void nw_recover_on_done(nw_node *n, nw_reader *r) {
  if (refused(n, r))
    return;
  nw_membership *m = n->members;
  uint64_t version = nw_r_u64(r), last_task = nw_r_u64(r);
  uint32_t spaces = nw_r_u32(r);
  if (r->bad || !m->awaiting_done) {
    r->bad = 1;
    return;
  }
  for (uint32_t i = 0; i < spaces && !r->bad; i++) {
    uint64_t id = nw_r_u64(r), size = nw_r_u64(r), pitch = nw_r_u64(r);
    nw_space_state *s = r->bad ? NULL : nw_space_get(n, id, size, pitch, 0, 0);
    int keep = s && !is_dirty(m, s->id);
    if (!s || nw_space_recovered(n, s, version, keep, NULL) != NW_OK)
      r->bad = 1;
    else if (!keep)
      nw_gpu_space_written(n, s->id); /* the GPUs' copies may hold rolled-back results */
  }
  if (r->bad)
    return;
  n->last_started_task = last_task;
  m->awaiting_done = 0;
  nw_stashed *held = m->held;
  m->held = NULL;
  while (held) { /* in arrival order; each is admitted again (a later recovery may drop it) */
    nw_stashed *s = held;
    held = s->next;
    n->hooks.replay(n, s->src, s->buf, s->len);
    free(s);
  }
}

/* ---- the replica on node 0 */

void nw_recover_on_backup(nw_node *n, nw_reader *r) {
  if (refused(n, r))
    return;
  uint64_t id = nw_r_u64(r);
  uint32_t entries = nw_r_u32(r);
  nw_task_state *t = r->bad ? NULL : nw_node_task(n, id);
  if (!t || n->cfg.id != 0 || t->backups_pending <= 0) {
    r->bad = 1;
    return;
  }
  for (uint32_t e = 0; e < entries && !r->bad; e++) {
    uint64_t space = nw_r_u64(r);
    nw_space_state *s = nw_space_find(n, space);
    nw_backup *b = s ? calloc(1, sizeof *b) : NULL;
    if (!b) {
      r->bad = 1;
      break;
    }
    b->space = space;
    nw_r_region(r, &b->region, s->pitch);
    uint64_t bytes = r->bad ? 0 : nw_region_bytes(&b->region);
    if (!r->bad && n->cfg.functional && bytes > 0) {
      const unsigned char *p = nw_r_bytes(r, bytes);
      b->bytes = p ? malloc(bytes) : NULL;
      if (b->bytes)
        memcpy(b->bytes, p, bytes);
      else if (p)
        nw_node_fail(n, "node 0: out of memory keeping a backup");
    }
    b->next = t->backups;
    t->backups = b;
  }
  if (r->bad)
    return;
  t->backups_pending--;
  nw_task_maybe_complete(n, t);
}
