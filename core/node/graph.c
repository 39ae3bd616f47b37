/* graph.c: node 0's task graph: which queued task waits for which, counted.
 *
 * The rule is task.c's ("Which tasks run"): a queued task starts once no task before it in the
 * queue and not yet complete conflicts with it (they share a space one of them writes, or it
 * said nw_task_depend), its ancestors aside. Checking that by walking the queue made starting a
 * task O(queue^2); here each entry counts its incomplete predecessors when it is queued, and
 * each completion counts its successors down, so a graph of n tasks costs the runtime O(edges)
 * in all (StarPU's implicit data dependencies are built the same way).
 *
 * Predecessors of a task queued at the end (not nested), found per bound space from the
 * space's last queued writer and its queued readers since (node 0's nw_space_state): a task
 * that writes the space waits for both, one that only reads it for the writer. Waiting for the
 * last writer and the readers since is enough: an earlier writer or reader is complete before
 * they start, by the same rule applied to them. Entries leave those lists when they complete.
 *
 * A nested task goes in the queue right after its parent's queued descendants (nested.c says
 * why nothing can deadlock), so the only queued tasks before it that it can conflict with,
 * besides its ancestors, are those descendants: it finds them by walking from the parent's
 * entry, and stays out of the spaces' lists (a later task that conflicts with it conflicts
 * with its parent, and waits for that).
 *
 * Ready entries (no incomplete predecessor, not started) are started in queue order: each
 * entry has an order number, a nested one between its neighbours' (the numbers are spread
 * out again when two neighbours leave no room between them).
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "handles.h"
#include "nested.h"
#include "node_state.h"
#include "space.h"

#define ORDER_STEP ((uint64_t)1 << 20)

static int writes(nw_access a) {
  return (a & NW_WRITE_ONLY) != 0;
}

static nw_status push_ready(nw_node *n, nw_submitted *e) {
  if (e->ready)
    return NW_OK;
  if (n->nready == n->capready) {
    size_t cap = n->capready ? 2 * n->capready : 16;
    nw_submitted **a = realloc(n->ready, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    n->ready = a;
    n->capready = cap;
  }
  e->ready = 1;
  n->ready[n->nready++] = e;
  return NW_OK;
}

/* Entry `to` waits for entry `from`. */
static nw_status edge(nw_submitted *from, nw_submitted *to) {
  if (from->nsucc == from->capsucc) {
    size_t cap = from->capsucc ? 2 * from->capsucc : 4;
    nw_submitted **a = realloc(from->succ, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    from->succ = a;
    from->capsucc = cap;
  }
  from->succ[from->nsucc++] = to;
  to->preds++;
  return NW_OK;
}

/* Whether later task b waits for earlier task a (nested tasks: task.c's rule). */
static int conflict(const nw_task *a, const nw_task *b) {
  for (int i = 0; i < b->ndeps; i++)
    if (b->deps[i] == a->seq)
      return 1;
  for (int i = 0; i < a->nbound; i++)
    for (int j = 0; j < b->nbound; j++)
      if (a->space[i]->id == b->space[j]->id && ((a->access[i] | b->access[j]) & NW_WRITE_ONLY))
        return 1;
  return 0;
}

/* Spreads the order numbers out again: the queue's entries get ORDER_STEP apart. */
static void renumber(nw_node *n) {
  uint64_t k = 0;
  for (nw_submitted *e = n->submitted; e; e = e->next)
    e->order = ++k * ORDER_STEP;
}

/* Links e in before `next` (NULL: at the end) and gives it an order between its neighbours'. */
static void link_before(nw_node *n, nw_submitted *e, nw_submitted *next) {
  nw_submitted *prev = next ? next->prev : n->submitted_tail;
  e->prev = prev;
  e->next = next;
  *(prev ? &prev->next : &n->submitted) = e;
  *(next ? &next->prev : &n->submitted_tail) = e;
  e->order = 0;
  uint64_t lo = prev ? prev->order : 0, hi = next ? next->order : lo + 2 * ORDER_STEP;
  if (hi - lo < 2) {
    renumber(n); /* e gets a number too, then is placed between its neighbours' new ones */
    lo = prev ? prev->order : 0;
    hi = next ? next->order : lo + 2 * ORDER_STEP;
  }
  e->order = lo + (hi - lo) / 2;
}

/* The space state of bound space i of t (node 0 knows every space the driver made). */
static nw_space_state *space_of(nw_node *n, const nw_task *t, int i) {
  return nw_space_find(n, t->space[i]->id);
}

static nw_status add_reader(nw_space_state *s, nw_submitted *e, int i) {
  if (s->nreaders == s->capreaders) {
    size_t cap = s->capreaders ? 2 * s->capreaders : 4;
    nw_submitted **a = realloc(s->readers, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    s->readers = a;
    s->capreaders = cap;
  }
  e->reader_at[i] = (int)s->nreaders;
  s->readers[s->nreaders++] = e;
  return NW_OK;
}

/* The index of space s among task t's bound spaces. */
static int bound_index(const nw_task *t, const nw_space_state *s) {
  for (int i = 0; i < t->nbound; i++)
    if (t->space[i]->id == s->id)
      return i;
  return -1;
}

/* Predecessors of a task queued at the end, from its spaces' writers and readers. */
static nw_status top_level_edges(nw_node *n, nw_submitted *e) {
  const nw_task *t = e->task;
  nw_status st = NW_OK;
  for (int i = 0; st == NW_OK && i < t->ndeps; i++) {
    nw_submitted *f = nw_idmap_get(&n->queued_seq, t->deps[i]);
    if (f && f != e)
      st = edge(f, e);
  }
  for (int i = 0; st == NW_OK && i < t->nbound; i++) {
    nw_space_state *s = space_of(n, t, i);
    if (!s)
      return NW_ERR_INTERNAL;
    if (s->writer)
      st = edge(s->writer, e);
    if (!writes(t->access[i])) {
      if (st == NW_OK)
        st = add_reader(s, e, i);
      continue;
    }
    for (size_t k = 0; st == NW_OK && k < s->nreaders; k++) {
      nw_submitted *r = s->readers[k];
      r->reader_at[bound_index(r->task, s)] = -1;
      st = edge(r, e);
    }
    s->nreaders = 0;
    s->writer = e;
  }
  return st;
}

/* Predecessors of a nested task: its parent's queued descendants before it that conflict. */
static nw_status nested_edges(nw_node *n, nw_submitted *e) {
  (void)n;
  nw_status st = NW_OK;
  for (nw_submitted *f = e->task->parent->entry->next; st == NW_OK && f != e; f = f->next)
    if (conflict(f->task, e->task))
      st = edge(f, e);
  return st;
}

nw_status nw_graph_insert(nw_node *n, nw_submitted *e) {
  nw_task *t = e->task;
  nw_submitted *next = NULL;
  if (t->parent) {
    if (!t->parent->entry)
      return NW_ERR_STATE; /* api.c creates nested tasks only while their parent is queued */
    next = t->parent->entry->next;
    while (next && nw_nested_is_ancestor(t->parent, next->task))
      next = next->next;
  }
  e->reader_at = malloc((size_t)(t->nbound ? t->nbound : 1) * sizeof *e->reader_at);
  if (!e->reader_at || nw_idmap_put(&n->queued_seq, t->seq, e) != NW_OK) {
    free(e->reader_at);
    e->reader_at = NULL;
    return NW_ERR_NOMEM;
  }
  for (int i = 0; i < t->nbound; i++)
    e->reader_at[i] = -1;
  link_before(n, e, next);
  t->entry = e;
  for (int i = 0; i < t->nbound; i++) {
    nw_space_state *s = space_of(n, t, i);
    if (s)
      s->uses++;
  }
  nw_status st = t->parent ? nested_edges(n, e) : top_level_edges(n, e);
  if (st == NW_OK && e->preds == 0)
    st = push_ready(n, e);
  return st;
}

void nw_graph_remove(nw_node *n, nw_submitted *e) {
  nw_task *t = e->task;
  *(e->prev ? &e->prev->next : &n->submitted) = e->next;
  *(e->next ? &e->next->prev : &n->submitted_tail) = e->prev;
  nw_idmap_remove(&n->queued_seq, t->seq);
  if (t->started)
    nw_idmap_remove(&n->queued_id, t->id);
  t->entry = NULL;
  for (int i = 0; i < t->nbound; i++) {
    nw_space_state *s = space_of(n, t, i);
    if (!s)
      continue;
    s->uses--;
    if (s->writer == e)
      s->writer = NULL;
    int at = e->reader_at[i];
    if (at >= 0) { /* the last reader takes its place */
      nw_submitted *moved = s->readers[--s->nreaders];
      s->readers[at] = moved;
      if (moved != e)
        moved->reader_at[bound_index(moved->task, s)] = at;
    }
  }
  for (size_t k = 0; k < e->nsucc; k++)
    if (--e->succ[k]->preds == 0 && !e->succ[k]->task->started &&
        push_ready(n, e->succ[k]) != NW_OK)
      nw_node_fail(n, "node 0: out of memory");
  free(e->succ);
  e->succ = NULL;
  e->nsucc = e->capsucc = 0;
  free(e->reader_at);
  e->reader_at = NULL;
  if (e->ready) { /* never started (a failed run): out of the ready list */
    for (size_t k = 0; k < n->nready; k++)
      if (n->ready[k] == e) {
        n->ready[k] = n->ready[--n->nready];
        break;
      }
  }
}

nw_status nw_graph_started(nw_node *n, nw_submitted *e, uint64_t id) {
  return nw_idmap_put(&n->queued_id, id, e);
}

void nw_graph_unstarted(nw_node *n, nw_submitted *e) {
  nw_idmap_remove(&n->queued_id, e->task->id);
  if (e->preds == 0 && push_ready(n, e) != NW_OK)
    nw_node_fail(n, "node 0: out of memory");
}

nw_submitted *nw_graph_by_id(nw_node *n, uint64_t id) {
  return nw_idmap_get(&n->queued_id, id);
}

static int by_order(const void *a, const void *b) {
  uint64_t x = (*(nw_submitted *const *)a)->order, y = (*(nw_submitted *const *)b)->order;
  return (x > y) - (x < y);
}

size_t nw_graph_take_ready(nw_node *n, nw_submitted ***out) {
  size_t count = n->nready;
  *out = n->ready;
  n->ready = NULL;
  n->nready = n->capready = 0;
  for (size_t k = 0; k < count; k++)
    (*out)[k]->ready = 0;
  if (count > 1)
    qsort(*out, count, sizeof **out, by_order);
  return count;
}

void nw_graph_clear(nw_node *n, void (*done)(nw_node *n, nw_submitted *e, void *ctx), void *ctx) {
  while (n->submitted) {
    nw_submitted *e = n->submitted;
    n->submitted = e->next;
    e->task->entry = NULL;
    free(e->succ);
    free(e->reader_at);
    if (done)
      done(n, e, ctx);
    free(e);
  }
  n->submitted_tail = NULL;
  for (nw_space_state *s = n->spaces; s; s = s->next) {
    s->writer = NULL;
    s->nreaders = 0;
    s->uses = 0;
  }
  nw_idmap_free(&n->queued_seq);
  nw_idmap_free(&n->queued_id);
  free(n->ready);
  n->ready = NULL;
  n->nready = n->capready = 0;
}
