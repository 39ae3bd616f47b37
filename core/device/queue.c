/* queue.c: a device's queue of subtasks across tasks (queue.h). An array of entries [head, n);
 * pushes at the back and pops at the front are O(1), the rest walks the entries. */
#include "queue.h"

#include <stdlib.h>
#include <string.h>

#include "node_state.h"

static nw_queue *queue_of(const nw_node *n, int d) {
  return &n->dev[d].queue;
}

/* Room for one more entry at the back; entries start at 0 again when the queue is empty. */
static nw_status reserve(nw_queue *q) {
  if (q->head == q->n)
    q->head = q->n = 0;
  if (q->n < q->cap)
    return NW_OK;
  if (q->head > 0) { /* reuse what pops left at the front before growing */
    memmove(q->e, q->e + q->head, (q->n - q->head) * sizeof *q->e);
    q->n -= q->head;
    q->head = 0;
    if (q->n < q->cap)
      return NW_OK;
  }
  size_t cap = q->cap ? 2 * q->cap : 4;
  nw_queued *e = realloc(q->e, cap * sizeof *e);
  if (!e)
    return NW_ERR_NOMEM;
  q->e = e;
  q->cap = cap;
  return NW_OK;
}

/* Keeps the counts: the queue's, the task's on the device, and the task's on the node, which
 * puts it in or takes it out of the node's list of tasks with queued subtasks. */
static void counted(nw_node *n, nw_queue *q, nw_task_state *t, int d, int64_t delta) {
  q->count += (uint64_t)delta;
  t->dev[d].queued += (uint64_t)delta;
  uint64_t before = t->queued_here;
  t->queued_here += (uint64_t)delta;
  if (before == 0 && t->queued_here > 0) {
    t->queued_prev = NULL;
    t->queued_next = n->queued_tasks;
    if (n->queued_tasks)
      n->queued_tasks->queued_prev = t;
    n->queued_tasks = t;
  } else if (before > 0 && t->queued_here == 0) {
    *(t->queued_prev ? &t->queued_prev->queued_next : &n->queued_tasks) = t->queued_next;
    if (t->queued_next)
      t->queued_next->queued_prev = t->queued_prev;
    t->queued_next = t->queued_prev = NULL;
  }
}

static nw_status append(nw_node *n, int d, nw_task_state *t, nw_range r, int merge) {
  nw_queue *q = queue_of(n, d);
  if (r.first >= r.last)
    return NW_OK;
  if (merge && q->n > q->head) {
    nw_queued *last = &q->e[q->n - 1];
    if (last->task == t && last->r.last == r.first && last->prio == 0) {
      last->r.last = r.last;
      counted(n, q, t, d, (int64_t)(r.last - r.first));
      return NW_OK;
    }
  }
  if (reserve(q) != NW_OK)
    return NW_ERR_NOMEM;
  q->e[q->n++] = (nw_queued){t, r, 0};
  counted(n, q, t, d, (int64_t)(r.last - r.first));
  return NW_OK;
}

nw_status nw_queue_push(nw_node *n, int d, nw_task_state *t, nw_range r) {
  return append(n, d, t, r, 0);
}

nw_status nw_queue_push_one(nw_node *n, int d, nw_task_state *t, uint64_t s) {
  return append(n, d, t, (nw_range){s, s + 1}, 1);
}

nw_status nw_queue_push_prio(nw_node *n, int d, nw_task_state *t, uint64_t s, int prio) {
  nw_queue *q = queue_of(n, d);
  if (reserve(q) != NW_OK)
    return NW_ERR_NOMEM;
  size_t at = q->n; /* after the last entry of priority >= prio: most pushes land at the back */
  while (at > q->head && q->e[at - 1].prio < prio)
    at--;
  if (at > q->head) {
    nw_queued *before = &q->e[at - 1];
    if (before->task == t && before->prio == prio && before->r.last == s) {
      before->r.last++;
      counted(n, q, t, d, 1);
      return NW_OK;
    }
  }
  memmove(&q->e[at + 1], &q->e[at], (q->n - at) * sizeof *q->e);
  q->e[at] = (nw_queued){t, {s, s + 1}, prio};
  q->n++;
  counted(n, q, t, d, 1);
  return NW_OK;
}

int nw_queue_pop(nw_node *n, int d, nw_task_state **t, uint64_t *s) {
  nw_queue *q = queue_of(n, d);
  if (q->head == q->n)
    return 0;
  nw_queued *e = &q->e[q->head];
  *t = e->task;
  *s = e->r.first++;
  counted(n, q, e->task, d, -1);
  if (e->r.first == e->r.last)
    q->head++;
  return 1;
}

uint64_t nw_queue_length(const nw_node *n, int d, const nw_task_state *t) {
  return t ? t->dev[d].queued : queue_of(n, d)->count;
}

/* The entry holding the k-th queued subtask, and k's offset in it; -1 if none. */
static ptrdiff_t find(const nw_queue *q, uint64_t k, uint64_t *offset) {
  for (size_t i = q->head; i < q->n; i++) {
    uint64_t len = q->e[i].r.last - q->e[i].r.first;
    if (k < len) {
      *offset = k;
      return (ptrdiff_t)i;
    }
    k -= len;
  }
  return -1;
}

int nw_queue_at(const nw_node *n, int d, uint64_t k, nw_task_state **t, uint64_t *s) {
  const nw_queue *q = queue_of(n, d);
  uint64_t off;
  ptrdiff_t i = find(q, k, &off);
  if (i < 0)
    return 0;
  *t = q->e[i].task;
  *s = q->e[i].r.first + off;
  return 1;
}

int nw_queue_take_at(nw_node *n, int d, uint64_t k, nw_task_state **t, uint64_t *s) {
  nw_queue *q = queue_of(n, d);
  uint64_t off;
  ptrdiff_t at = find(q, k, &off);
  if (at < 0)
    return 0;
  size_t i = (size_t)at;
  nw_queued *e = &q->e[i];
  *t = e->task;
  *s = e->r.first + off;
  if (off == 0) {
    e->r.first++;
  } else if (*s + 1 == e->r.last) {
    e->r.last--;
  } else { /* split: [first, s) stays, [s + 1, last) follows it */
    if (reserve(q) != NW_OK)
      return -1;
    i = (size_t)find(q, k, &off); /* reserve may have moved the entries to the front */
    memmove(&q->e[i + 2], &q->e[i + 1], (q->n - i - 1) * sizeof *q->e);
    q->e[i + 1] = q->e[i];
    q->e[i + 1].r.first = *s + 1;
    q->e[i].r.last = *s;
    q->n++;
  }
  counted(n, q, *t, d, -1);
  if (q->e[i].r.first == q->e[i].r.last) {
    memmove(&q->e[i], &q->e[i + 1], (q->n - i - 1) * sizeof *q->e);
    q->n--;
  }
  return 1;
}

uint64_t nw_queue_take_tail(nw_node *n, int d, const nw_task_state *t, uint64_t want,
                            nw_task_state **from, nw_range *out) {
  nw_queue *q = queue_of(n, d);
  if (want == 0 || (t && t->dev[d].queued == 0))
    return 0;
  size_t i = q->n;
  while (i > q->head && t && q->e[i - 1].task != t)
    i--;
  if (i == q->head)
    return 0;
  nw_queued *e = &q->e[i - 1];
  uint64_t have = e->r.last - e->r.first, take = want < have ? want : have;
  out->last = e->r.last;
  out->first = e->r.last - take;
  e->r.last -= take;
  if (from)
    *from = e->task;
  counted(n, q, e->task, d, -(int64_t)take);
  if (e->r.first == e->r.last) {
    memmove(&q->e[i - 1], &q->e[i], (q->n - i) * sizeof *q->e);
    q->n--;
  }
  return take;
}

void nw_queue_task_ids(const nw_node *n, int d, const nw_task_state *t, uint64_t *ids) {
  const nw_queue *q = queue_of(n, d);
  uint64_t k = 0;
  for (size_t i = q->head; i < q->n; i++)
    if (q->e[i].task == t)
      for (uint64_t s = q->e[i].r.first; s < q->e[i].r.last; s++)
        ids[k++] = s;
}

nw_status nw_queue_remove(nw_node *n, int d, const nw_task_state *t, const unsigned char *drop) {
  nw_queue *q = queue_of(n, d);
  /* Rebuilt in a new array: an entry may split into as many pieces as it keeps runs. */
  size_t cap = q->n - q->head + (size_t)t->dev[d].queued + 1;
  nw_queued *e = malloc(cap * sizeof *e);
  if (!e)
    return NW_ERR_NOMEM;
  size_t m = 0;
  uint64_t k = 0, dropped = 0;
  nw_task_state *owner = NULL;
  for (size_t i = q->head; i < q->n; i++) {
    nw_queued x = q->e[i];
    if (x.task != t) {
      e[m++] = x;
      continue;
    }
    owner = x.task;
    for (uint64_t s = x.r.first; s < x.r.last; s++, k++) {
      if (drop[k]) {
        dropped++;
        continue;
      }
      if (m > 0 && e[m - 1].task == t && e[m - 1].r.last == s && e[m - 1].prio == x.prio)
        e[m - 1].r.last++;
      else
        e[m++] = (nw_queued){x.task, {s, s + 1}, x.prio};
    }
  }
  free(q->e);
  q->e = e;
  q->head = 0;
  q->n = m;
  q->cap = cap;
  if (owner)
    counted(n, q, owner, d, -(int64_t)dropped);
  return NW_OK;
}

void nw_queue_forget(nw_node *n, nw_task_state *t) {
  for (int d = 0; d < n->cfg.devices && t->queued_here > 0; d++) {
    nw_queue *q = queue_of(n, d);
    if (t->dev[d].queued == 0)
      continue;
    size_t m = q->head;
    for (size_t i = q->head; i < q->n; i++) {
      if (q->e[i].task == t)
        counted(n, q, t, d, -(int64_t)(q->e[i].r.last - q->e[i].r.first));
      else
        q->e[m++] = q->e[i];
    }
    q->n = m;
  }
}

void nw_queue_free(nw_queue *q) {
  free(q->e);
  *q = (nw_queue){0};
}
