/* central.c: node 0's queue of a task's subtasks, served to every device of the cluster. */
#include <stdlib.h>

#include "central.h"
#include "heft_rules.h"

enum { CQ_ASK = 1, CQ_GIVE = 2 };

typedef struct central {
  uint64_t *order; /* node 0: the queue's subtask ids; NULL: 0, 1, 2, ... */
  uint64_t next;   /* node 0: the first not yet handed out */
  unsigned char exhausted[NW_MAX_DEVICES_PER_NODE]; /* this node's devices told "no more" */
} central;

static void central_free(void *p) {
  central *c = p;
  free(c->order);
  free(c);
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

void nw_central_start(nw_node *n, nw_task_state *t, int by_priority) {
  central *c = calloc(1, sizeof *c);
  if (c && n->cfg.id == 0 && by_priority && t->kind->priority) {
    c->order = nw_order_by_priority(t);
    if (!c->order) {
      free(c);
      c = NULL;
    }
  }
  if (!c) {
    nw_node_fail(n, "node %d: out of memory", n->cfg.id);
    return;
  }
  t->policy_state = c;
  t->policy_state_free = central_free;
  nw_pipeline_go(n, t); /* every device is dry: each asks */
}

/* Node 0: the next subtask of the queue, or 0 when all are out. */
static int take(nw_task_state *t, uint64_t *id) {
  central *c = t->policy_state;
  if (c->next >= t->info.subtasks)
    return 0;
  *id = c->order ? c->order[c->next] : c->next;
  c->next++;
  return 1;
}

static void answered(nw_node *n, nw_task_state *t, int d, int has, uint64_t id) {
  central *c = t->policy_state;
  if (has) {
    nw_pipeline_give(n, t, d, (nw_range){id, id + 1});
    return;
  }
  c->exhausted[d] = 1;
  nw_pipeline_retire(n, t, d);
}

static void ask(nw_node *n, nw_task_state *t, int d) {
  central *c = t->policy_state;
  if (c->exhausted[d] || t->dev[d].steal_active)
    return;
  if (n->cfg.id == 0) {
    uint64_t id = 0;
    int has = take(t, &id);
    answered(n, t, d, has, id);
    return;
  }
  nw_pipeline_wait_for_work(n, t, d);
  nw_writer w;
  nw_w_init(&w, MSG_POLICY);
  nw_w_u64(&w, t->id);
  nw_w_u8(&w, CQ_ASK);
  nw_w_u32(&w, (uint32_t)d);
  nw_node_send(n, 0, NW_CHANNEL_CONTROL, &w, 0);
}

void nw_central_dry(nw_node *n, nw_task_state *t, int d) {
  central *c = t->policy_state;
  if (c->exhausted[d])
    nw_pipeline_retire(n, t, d);
  else
    ask(n, t, d);
}

void nw_central_busy(nw_node *n, nw_task_state *t, int d) {
  nw_device_slot *s = &t->dev[d];
  if (n->cfg.sched.pipeline && !s->next && nw_pipeline_queued(s) == 0)
    ask(n, t, d);
}

void nw_central_on_message(nw_node *n, int src, nw_msg_type type, nw_reader *r) {
  uint64_t task = nw_r_u64(r);
  int kind = nw_r_u8(r);
  uint32_t dev = nw_r_u32(r);
  if (r->bad || type != MSG_POLICY || (kind != CQ_ASK && kind != CQ_GIVE)) {
    r->bad = 1;
    return;
  }
  nw_task_state *t = nw_node_task(n, task);
  if (kind == CQ_ASK) {
    if (n->cfg.id != 0 || src <= 0 || src >= n->cfg.nodes ||
        dev >= (uint32_t)n->cfg.devices_per_node[src]) {
      r->bad = 1;
      return;
    }
    uint64_t id = 0;
    int has = t && !t->finishing && take(t, &id);
    nw_writer w;
    nw_w_init(&w, MSG_POLICY);
    nw_w_u64(&w, task);
    nw_w_u8(&w, CQ_GIVE);
    nw_w_u32(&w, dev);
    nw_w_u8(&w, (uint8_t)has);
    nw_w_u64(&w, id);
    nw_node_send(n, src, NW_CHANNEL_CONTROL, &w, 0);
    return;
  }
  int has = nw_r_u8(r);
  uint64_t id = nw_r_u64(r);
  if (r->bad || src != 0 || dev >= (uint32_t)n->cfg.devices || has > 1) {
    r->bad = 1;
    return;
  }
  if (!t || t->finishing)
    return; /* the task ended while the answer travelled */
  if (has && id >= t->info.subtasks) {
    r->bad = 1;
    return;
  }
  t->dev[dev].steal_active = 0;
  answered(n, t, (int)dev, has, id);
}
