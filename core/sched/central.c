/* central.c: node 0's pool of the ready subtasks of every running task, served to every device
 * of the cluster (central.h).
 *
 * The pool is a heap of tasks keyed by the priority of each one's next subtask (all 0 for
 * eager), then by task id (start order): taking a subtask is O(log tasks), and a task of a
 * million subtasks costs one entry, not a million. Devices that found it empty wait in two
 * FIFOs at node 0, idle ones before those asking ahead, and are served as tasks start.
 *
 * Messages (MSG_POLICY, control channel): u64 task, u8 subtype, u32 device, then
 *   CQ_ASK (to node 0, task 0): nothing; the device word's top bit says the device is busy,
 *     asking for its next subtask ahead (no byte more than an ask that says nothing of it);
 *   CQ_GIVE (from node 0, the subtask's task): u8 1, u64 subtask.
 */
#include <stdlib.h>

#include "central.h"
#include "heft_rules.h"

enum { CQ_ASK = 1, CQ_GIVE = 2 };
#define ASK_AHEAD 0x80000000u

/* Node 0's state of one task in the pool (t->policy_state). */
typedef struct central_task {
  uint64_t *order; /* subtask ids by priority; NULL: 0, 1, 2, ... */
  uint64_t next;   /* the first not yet handed out */
  int prio;        /* priority of order[next] */
  size_t at;       /* its place in the heap; SIZE_MAX: not there */
} central_task;

typedef struct waiter {
  int node, dev;
} waiter;

typedef struct fifo {
  waiter *w;
  size_t head, n, cap;
} fifo;

typedef struct central {
  int by_priority;
  nw_task_state **heap; /* node 0: tasks with subtasks to hand out */
  size_t nheap, capheap;
  fifo idle, ahead; /* node 0: devices waiting for work */
} central;

static central *state_of(nw_node *n) {
  return n->sched;
}

static central_task *task_of(nw_task_state *t) {
  return t->policy_state;
}

/* ---- the heap of tasks */

static int before(nw_task_state *a, nw_task_state *b) {
  central_task *x = task_of(a), *y = task_of(b);
  return x->prio != y->prio ? x->prio > y->prio : a->id < b->id;
}

static void place(central *c, size_t i, nw_task_state *t) {
  c->heap[i] = t;
  task_of(t)->at = i;
}

static void sift_up(central *c, size_t i) {
  nw_task_state *t = c->heap[i];
  while (i > 0 && before(t, c->heap[(i - 1) / 2])) {
    place(c, i, c->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  place(c, i, t);
}

static void sift_down(central *c, size_t i) {
  nw_task_state *t = c->heap[i];
  for (;;) {
    size_t k = 2 * i + 1;
    if (k >= c->nheap)
      break;
    if (k + 1 < c->nheap && before(c->heap[k + 1], c->heap[k]))
      k++;
    if (!before(c->heap[k], t))
      break;
    place(c, i, c->heap[k]);
    i = k;
  }
  place(c, i, t);
}

static void heap_remove(central *c, nw_task_state *t) {
  size_t i = task_of(t)->at;
  task_of(t)->at = SIZE_MAX;
  if (i >= c->nheap || c->heap[i] != t)
    return;
  nw_task_state *last = c->heap[--c->nheap];
  if (i == c->nheap)
    return;
  place(c, i, last);
  sift_up(c, i);
  sift_down(c, task_of(last)->at);
}

static int priority_of(nw_task_state *t, uint64_t s) {
  return t->kind->priority ? t->kind->priority(&t->info, s) : 0;
}

/* The pool's next subtask: 1 with it, 0 when the pool is empty. */
static int take(central *c, nw_task_state **t, uint64_t *s) {
  if (c->nheap == 0)
    return 0;
  *t = c->heap[0];
  central_task *ct = task_of(*t);
  *s = ct->order ? ct->order[ct->next] : ct->next;
  if (++ct->next == (*t)->info.subtasks) {
    heap_remove(c, *t);
  } else if (ct->order) {
    ct->prio = priority_of(*t, ct->order[ct->next]);
    sift_down(c, 0);
  }
  return 1;
}

/* ---- devices waiting at node 0 */

static nw_status fifo_push(fifo *f, waiter w) {
  if (f->head == f->n)
    f->head = f->n = 0;
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 8;
    waiter *a = realloc(f->w, cap * sizeof *a);
    if (!a)
      return NW_ERR_NOMEM;
    f->w = a;
    f->cap = cap;
  }
  f->w[f->n++] = w;
  return NW_OK;
}

static int fifo_pop(fifo *f, waiter *w) {
  if (f->head == f->n)
    return 0;
  *w = f->w[f->head++];
  return 1;
}

static void send_give(nw_node *n, int node, int dev, nw_task_state *t, uint64_t s) {
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, t->id);
  nw_w_u8(&w, CQ_GIVE);
  nw_w_u32(&w, (uint32_t)dev);
  nw_w_u8(&w, 1);
  nw_w_u64(&w, s);
  nw_node_send(n, node, NW_CHANNEL_CONTROL, &w, 0);
}

/* Node 0: a device asks. It gets the pool's next subtask, or waits for one. */
static void serve(nw_node *n, int node, int dev, int ahead) {
  central *c = state_of(n);
  nw_task_state *t;
  uint64_t s;
  if (!take(c, &t, &s)) {
    if (fifo_push(ahead ? &c->ahead : &c->idle, (waiter){node, dev}) != NW_OK)
      nw_node_fail(n, "node 0: out of memory");
    return;
  }
  if (node == 0)
    nw_pipeline_give(n, t, dev, (nw_range){s, s + 1});
  else
    send_give(n, node, dev, t, s);
}

/* Node 0, the pool gained work: the waiting devices get it, idle ones first. */
static void serve_waiting(nw_node *n) {
  central *c = state_of(n);
  waiter w;
  while (c->nheap > 0 && (fifo_pop(&c->idle, &w) || fifo_pop(&c->ahead, &w)))
    serve(n, w.node, w.dev, 0);
}

/* ---- the hooks */

static nw_status init(nw_node *n, int by_priority) {
  central *c = calloc(1, sizeof *c);
  if (!c)
    return NW_ERR_NOMEM;
  c->by_priority = by_priority;
  n->sched = c;
  return NW_OK;
}

nw_status nw_central_init_fifo(nw_node *n) {
  return init(n, 0);
}

nw_status nw_central_init_prio(nw_node *n) {
  return init(n, 1);
}

void nw_central_fini(nw_node *n) {
  central *c = state_of(n);
  if (!c)
    return;
  free(c->heap);
  free(c->idle.w);
  free(c->ahead.w);
  free(c);
  n->sched = NULL;
}

uint64_t *nw_order_by_priority(const nw_task_state *t) {
  uint64_t count = t->info.subtasks;
  uint64_t *order = malloc((count ? count : 1) * sizeof *order);
  int *priority = malloc((count ? count : 1) * sizeof *priority);
  if (order && priority)
    for (uint64_t s = 0; s < count; s++)
      priority[s] = t->kind->priority ? t->kind->priority(&t->info, s) : 0;
  if (!order || !priority || nw_rank_by_priority(priority, count, order) != 0) {
    free(order);
    order = NULL;
  }
  free(priority);
  return order;
}

static void task_free(void *p) {
  central_task *ct = p;
  free(ct->order);
  free(ct);
}

static nw_status heap_push(central *c, nw_task_state *t) {
  if (c->nheap == c->capheap) {
    size_t cap = c->capheap ? 2 * c->capheap : 16;
    nw_task_state **h = realloc(c->heap, cap * sizeof *h);
    if (!h)
      return NW_ERR_NOMEM;
    c->heap = h;
    c->capheap = cap;
  }
  place(c, c->nheap++, t);
  sift_up(c, c->nheap - 1);
  return NW_OK;
}

void nw_central_start(nw_node *n, nw_task_state *t) {
  central *c = state_of(n);
  if (n->cfg.id == 0 && t->info.subtasks > 0) {
    central_task *ct = calloc(1, sizeof *ct);
    if (ct && c->by_priority && t->kind->priority && !(ct->order = nw_order_by_priority(t))) {
      free(ct);
      ct = NULL;
    }
    if (ct) {
      t->policy_state = ct;
      t->policy_state_free = task_free;
      ct->prio = ct->order ? priority_of(t, ct->order[0]) : 0;
    }
    if (!ct || heap_push(c, t) != NW_OK) {
      nw_node_fail(n, "node 0: out of memory");
      return;
    }
    serve_waiting(n);
  }
  nw_pipeline_go(n, t);
}

static void ask(nw_node *n, int d, int ahead) {
  nw_pipeline_wait_for_work(n, d);
  if (n->cfg.id == 0) {
    serve(n, 0, d, ahead);
    return;
  }
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, 0);
  nw_w_u8(&w, CQ_ASK);
  nw_w_u32(&w, (uint32_t)d | (ahead ? ASK_AHEAD : 0));
  nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_central_dry(nw_node *n, int d) {
  ask(n, d, 0);
}

void nw_central_busy(nw_node *n, int d) {
  const nw_device *v = &n->dev[d];
  if (n->cfg.sched.pipeline && !v->asked && !v->next && nw_queue_length(n, d, NULL) == 0)
    ask(n, d, 1);
}

void nw_central_forget(nw_node *n, nw_task_state *t) {
  if (n->cfg.id == 0 && t->policy_state)
    heap_remove(state_of(n), t); /* a task rolled back with subtasks not handed out */
}

void nw_central_on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  int kind = nw_r_u8(r);
  uint32_t dev = nw_r_u32(r);
  if (r->bad || type != MSG_POLICY || (kind != CQ_ASK && kind != CQ_GIVE)) {
    r->bad = 1;
    return;
  }
  if (kind == CQ_ASK) {
    int ahead = (dev & ASK_AHEAD) != 0;
    dev &= ~ASK_AHEAD;
    if (r->bad || n->cfg.id != 0 || src <= 0 || src >= n->cfg.nodes ||
        dev >= (uint32_t)n->cfg.devices_per_node[src]) {
      r->bad = 1;
      return;
    }
    serve(n, src, (int)dev, ahead);
    return;
  }
  int has = nw_r_u8(r);
  uint64_t id = nw_r_u64(r);
  nw_task_state *t = nw_node_task(n, task);
  if (r->bad || src != 0 || dev >= (uint32_t)n->cfg.devices || has != 1 || !t ||
      id >= t->info.subtasks) {
    r->bad = 1; /* a given subtask is not done, so its task still runs here */
    return;
  }
  nw_pipeline_give(n, t, (int)dev, (nw_range){id, id + 1});
}
