/* loop_backend.c: see loop_backend.h. */
#include "loop_backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node_internal.h" /* a white-box test backend: it fails a stuck driver call */
#include "rng.h"
#include "sendq.h"

typedef struct pending {
  double at;
  uint64_t seq; /* ties break by insertion order: deterministic */
  int node;
  int link_free; /* not an event for the node: its link finished a data transfer */
  nw_event ev;
} pending;

typedef struct loop {
  loop_config cfg;
  nw_device_desc *cluster; /* built when the config gives none */
  pending *heap;
  size_t n, cap;
  uint64_t seq;
  double now;
  uint64_t rng;
  uint64_t fault_rng;           /* the fault plan's draws */
  nw_fault_counts fault_counts; /* what the plan did (not reported: the tests count effects) */
  unsigned char *lost;          /* [node]: lost by the fault plan */
  nw_node **nodes;
  struct node_be *be;
  /* driver handshake */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  nw_driver_call *posted;   /* a call the driver made, not yet handed to node 0 */
  nw_driver_call *returned; /* the call node 0 answered */
  nw_driver_call *held;     /* a call handed to node 0 and not answered yet */
  int stuck;                /* nothing left to happen while node 0 holds a call: failed */
  int driver_done;
  int just_answered; /* loop thread only: node 0 answered a call in the last event */
  const nw_app *app;
  const nw_app_args *args;
  nw_app_outcome outcome;
  nw_status app_status;
  nw_runtime rt;
} loop;

/* A data transfer waiting for its node's link (serial_data). */
typedef struct transfer {
  int dst;
  void *buf;
  size_t len;
  uint64_t wire;
  double extra; /* the script's delay */
} transfer;

typedef struct node_be {
  loop *l;
  int id;
  nw_sendq out;          /* serial_data: transfers waiting for the link */
  nw_send_class on_link; /* the class of the one on the link */
} node_be;

static void push_pending(loop *l, pending p) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->heap = realloc(l->heap, l->cap * sizeof *l->heap);
  }
  size_t i = l->n++;
  p.seq = l->seq++;
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    pending *q = &l->heap[parent];
    if (q->at < p.at || (q->at == p.at && q->seq < p.seq))
      break;
    l->heap[i] = *q;
    i = parent;
  }
  l->heap[i] = p;
}

static void push(loop *l, double at, int node, nw_event ev) {
  push_pending(l, (pending){.at = at, .node = node, .ev = ev});
}

static pending pop(loop *l) {
  pending top = l->heap[0], last = l->heap[--l->n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= l->n)
      break;
    if (c + 1 < l->n &&
        (l->heap[c + 1].at < l->heap[c].at ||
         (l->heap[c + 1].at == l->heap[c].at && l->heap[c + 1].seq < l->heap[c].seq)))
      c++;
    if (last.at < l->heap[c].at || (last.at == l->heap[c].at && last.seq < l->heap[c].seq))
      break;
    l->heap[i] = l->heap[c];
    i = c;
  }
  if (l->n)
    l->heap[i] = last;
  return top;
}

static double be_now(void *be) {
  return ((node_be *)be)->l->now;
}

static uint64_t be_random(void *be) {
  return nw_rng_next(&((node_be *)be)->l->rng);
}

static double jitter(loop *l) {
  return l->cfg.jitter_s > 0 ? l->cfg.jitter_s * (double)(nw_rng_next(&l->rng) % 1000) / 1000.0
                             : 0.0;
}

/* serial_data: puts the most urgent waiting transfer on the node's free link. It occupies the
 * link for wire / bandwidth and arrives a latency later. */
static void link_next(node_be *b) {
  loop *l = b->l;
  nw_send_class c;
  transfer *x = nw_sendq_start(&b->out, &c);
  while (x && l->lost[b->id]) { /* a lost node starts no transfer */
    nw_sendq_done(&b->out, c);
    free(x->buf);
    free(x);
    x = nw_sendq_start(&b->out, &c);
  }
  if (!x)
    return;
  b->on_link = c;
  double busy = (double)x->wire / l->cfg.bandwidth;
  nw_event ev = {.kind = NW_EVENT_MESSAGE, .src = b->id, .buf = x->buf, .len = x->len};
  push(l, l->now + l->cfg.latency_s + busy + jitter(l) + x->extra, x->dst, ev);
  push_pending(l, (pending){.at = l->now + busy, .node = b->id, .link_free = 1});
  free(x);
}

static void be_send(void *be, int dst, nw_channel ch, void *buf, size_t len, uint64_t wire) {
  node_be *b = be;
  loop *l = b->l;
  double extra =
      l->cfg.message_delay ? l->cfg.message_delay(l->cfg.script, b->id, dst, ch, buf, len) : 0.0;
  if (dst != b->id)
    extra += nw_fault_message_delay(&l->cfg.faults, &l->fault_rng, &l->fault_counts);
  if (dst != b->id && ch != NW_CHANNEL_CONTROL && l->cfg.serial_data) {
    transfer *x = malloc(sizeof *x);
    nw_send_class c = ch == NW_CHANNEL_PREFETCH ? NW_SEND_PREFETCH : NW_SEND_DEMAND;
    if (!x || nw_sendq_push(&b->out, c, x) != NW_OK) {
      fprintf(stderr, "loop backend: out of memory\n");
      exit(1);
    }
    *x = (transfer){dst, buf, len, wire, extra};
    int idle = !nw_sendq_inflight(&b->out, NW_SEND_DEMAND) &&
               !nw_sendq_inflight(&b->out, NW_SEND_PREFETCH);
    if (idle)
      link_next(b);
    return;
  }
  double delay = extra;
  if (dst != b->id)
    delay += l->cfg.latency_s + (double)wire / l->cfg.bandwidth + jitter(l);
  nw_event ev = {.kind = NW_EVENT_MESSAGE, .src = b->id, .buf = buf, .len = len};
  push(l, l->now + delay, dst, ev);
}

static void be_launch(void *be, int device, nw_exec *e) {
  node_be *b = be;
  loop *l = b->l;
  (void)device;
  if (l->cfg.functional && !l->cfg.kernel_at_done)
    nw_exec_run(e);
  double speed = l->cfg.speed / (b->id == 1 ? l->cfg.slow_node_factor : 1.0);
  double extra = l->cfg.exec_delay ? l->cfg.exec_delay(l->cfg.script, b->id, e) : 0.0;
  nw_event ev = {.kind = NW_EVENT_EXEC_DONE, .exec = e};
  push(l, l->now + nw_exec_flops(e) / speed + extra, b->id, ev);
}

static void be_timer(void *be, double delay, uint64_t token) {
  node_be *b = be;
  nw_event ev = {.kind = NW_EVENT_TIMER, .token = token};
  push(b->l, b->l->now + delay, b->id, ev);
}

static void be_driver_return(void *be, nw_driver_call *call) {
  loop *l = ((node_be *)be)->l;
  l->just_answered = 1;
  pthread_mutex_lock(&l->mu);
  if (l->held == call)
    l->held = NULL;
  l->returned = call;
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

/* No copy engines (no GPUs), no pinning, no memory check. */
static const nw_backend_ops ops = {be_now,    be_send, be_launch, be_timer, be_driver_return,
                                   be_random, NULL,    NULL,      NULL};

/* Driver thread side: hand the call over and wait for node 0's answer. */
static void driver_post(void *be, nw_driver_call *call) {
  loop *l = be;
  pthread_mutex_lock(&l->mu);
  if (l->stuck) { /* the run is over: fail every later call at once */
    call->status = NW_ERR_INTERNAL;
    snprintf(call->error, sizeof call->error, "loop backend: the core is stuck");
    pthread_mutex_unlock(&l->mu);
    return;
  }
  l->posted = call;
  pthread_cond_broadcast(&l->cv);
  while (l->returned != call)
    pthread_cond_wait(&l->cv, &l->mu);
  l->returned = NULL;
  pthread_mutex_unlock(&l->mu);
}

static void *driver_main(void *arg) {
  loop *l = arg;
  l->app_status = l->app->main(&l->rt, l->args, &l->outcome);
  nw_runtime_shutdown(&l->rt);
  pthread_mutex_lock(&l->mu);
  l->driver_done = 1;
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
  return NULL;
}

/* Waits until the driver has posted a call (returned 1), finished, or is blocked on a call
 * node 0 holds (0). The driver is running or blocked; blocked on an answered call means it is
 * about to run. */
static int wait_driver(loop *l, nw_driver_call **call) {
  pthread_mutex_lock(&l->mu);
  while (!l->posted && !(l->driver_done && !l->returned) && !l->held)
    pthread_cond_wait(&l->cv, &l->mu);
  *call = l->posted;
  l->posted = NULL;
  if (*call)
    l->held = *call;
  pthread_mutex_unlock(&l->mu);
  return *call != NULL;
}

/* With NW_LOOP_DUMP set, what every node still holds when the run is stuck (for debugging). */
static void dump_nodes(loop *l) {
  if (!getenv("NW_LOOP_DUMP"))
    return;
  for (int k = 0; k < l->cfg.nodes; k++) {
    nw_node *n = l->nodes[k];
    fprintf(stderr, "node %d: call %d read %d place %d\n", k, l->held ? (int)l->held->kind : 0,
            n->read_call != NULL, n->place_call != NULL);
    for (nw_task_state *t = n->tasks; t; t = t->next) {
      fprintf(stderr,
              "  task %llu finishing %d running %d done %llu/%llu masters %d upd %d acks %d\n",
              (unsigned long long)t->id, t->finishing, t->running, (unsigned long long)t->done,
              (unsigned long long)t->info.subtasks, t->masters_pending, t->updates_pending,
              t->acks_pending);
      for (int d = 0; d < t->ndev; d++)
        fprintf(stderr, "    dev %d queued %llu\n", d, (unsigned long long)t->dev[d].queued);
    }
    for (int d = 0; d < n->cfg.devices; d++) {
      const nw_device *v = &n->dev[d];
      fprintf(stderr,
              "  dev %d state %d asked %d queued %llu current %lld (waiting %d) next %lld\n", d,
              (int)v->state, v->asked, (unsigned long long)v->queue.count,
              v->current ? (long long)v->current->subtask : -1LL,
              v->current ? v->current->waiting : 0, v->next ? (long long)v->next->subtask : -1LL);
    }
    for (nw_space_state *sp = n->spaces; sp; sp = sp->next)
      fprintf(stderr, "  space %llu v%llu owned %llu resident %llu inflight %llu\n",
              (unsigned long long)sp->id, (unsigned long long)sp->version,
              (unsigned long long)nw_region_bytes(&sp->owned),
              (unsigned long long)nw_chunked_bytes(&sp->resident),
              (unsigned long long)nw_region_bytes(&sp->inflight));
  }
}

/* No event is left and node 0 still holds the driver's call: nothing can ever answer it (a
 * subtask lost, a message never sent). Fail the call and every later one, so the run ends
 * with an error instead of hanging the test. */
static void declare_stuck(loop *l) {
  dump_nodes(l);
  pthread_mutex_lock(&l->mu);
  l->stuck = 1;
  if (l->held) {
    l->held->status = NW_ERR_INTERNAL;
    snprintf(l->held->error, sizeof l->held->error, "loop backend: the core is stuck");
    l->returned = l->held;
    l->held = NULL;
  }
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

void loop_config_defaults(loop_config *c) {
  *c = (loop_config){
      .nodes = 4,
      .devices = 2,
      .functional = 1,
      .latency_s = 1e-5,
      .bandwidth = 1e9,
      .speed = 1e9,
      .jitter_s = 0,
      .slow_node_factor = 1,
      .serial_data = 0,
      .check_views = 1, /* every loop test also checks its kernels' bytes */
      .seed = 1,
      .faults = {.rto_s = NW_FAULT_RTO_DEFAULT, .delay_p = 1, .detect_s = NW_FAULT_DETECT_DEFAULT},
      .sched = {.pipeline = 1,
                .steal_retry_s = 0,
                .multi_assign = 1,
                .prosteal = 1,
                .prefetch_priority = NW_PREFETCH_LOW}};
}

nw_status loop_run(const loop_config *c, const nw_app *app, const nw_app_args *args,
                   nw_run_result *res) {
  loop *l = calloc(1, sizeof *l);
  l->cfg = *c;
  l->rng = c->seed;
  l->fault_rng = c->seed ^ 0xD1B54A32D192ED03ull;
  l->lost = calloc((size_t)c->nodes, 1);
  l->app = app;
  l->args = args;
  l->outcome.verified = -1;
  pthread_mutex_init(&l->mu, NULL);
  pthread_cond_init(&l->cv, NULL);
  l->nodes = calloc((size_t)c->nodes, sizeof *l->nodes);
  l->be = calloc((size_t)c->nodes, sizeof *l->be);
  nw_node_config nc;
  memset(&nc, 0, sizeof nc);
  nc.nodes = c->nodes;
  nc.functional = c->functional;
  nc.count_space_pages = c->functional;
  nc.devices = c->devices;
  nc.sched = c->sched;
  nc.check_views = c->check_views;
  nc.compress_network = c->compress_network;
  nc.resilient = c->faults.nfail > 0;
  nc.kinds = app->kinds;
  for (int k = 0; k < c->nodes; k++)
    nc.devices_per_node[k] = c->devices;
  nc.cluster = c->cluster;
  if (!nc.cluster && (l->cluster = calloc((size_t)(c->nodes * c->devices), sizeof *l->cluster))) {
    for (int g = 0; g < c->nodes * c->devices; g++)
      l->cluster[g] = (nw_device_desc){.kind = NW_DEVICE_CPU, .cores = 1, .flops = c->speed};
    nc.cluster = l->cluster;
  }
  for (int k = 0; k < c->nodes; k++) {
    nc.id = k;
    l->be[k] = (node_be){.l = l, .id = k};
    nw_sendq_init(&l->be[k].out);
    nw_node_create(&nc, (nw_backend){&ops, &l->be[k]}, &l->nodes[k]);
  }
  l->rt =
      (nw_runtime){.post = driver_post, .be = l, .functional = c->functional, .nodes = c->nodes};
  /* The plan's losses, earliest first; each happens when the cluster's next event is no
   * earlier (never while the loop waits for the driver, whose calls take no time). */
  nw_fault_fail losses[NW_MAX_FAILS];
  int nloss = 0, next_loss = 0;
  for (int i = 0; i < c->faults.nfail; i++) {
    int j = nloss++;
    for (; j > 0 && losses[j - 1].at_s > c->faults.fail[i].at_s; j--)
      losses[j] = losses[j - 1];
    losses[j] = c->faults.fail[i];
  }
  pthread_t driver;
  pthread_create(&driver, NULL, driver_main, l);
  int ended = 0;
  while (ended < c->nodes) {
    /* Serve the driver whenever the cluster has nothing left to do before its next call. */
    if (l->n == 0) {
      nw_driver_call *call;
      if (!wait_driver(l, &call)) {
        fprintf(stderr, "loop backend: no event and no driver call: the core is stuck\n");
        declare_stuck(l);
        break;
      }
      l->just_answered = 0;
      nw_event ev = {.kind = NW_EVENT_DRIVER, .call = call};
      push(l, l->now, 0, ev);
    }
    if (next_loss < nloss && losses[next_loss].at_s <= l->heap[0].at) {
      int lost = losses[next_loss].node;
      l->now = losses[next_loss++].at_s;
      if (lost >= c->nodes || l->lost[lost] || nw_node_finished(l->nodes[lost]))
        continue;
      for (int k = 0; k < c->nodes; k++) /* node 0's loss reaches itself: it ends the run */
        if (lost == 0 ? k == 0 : k != lost && !l->lost[k])
          push(l, l->now + (lost == 0 ? 0 : c->faults.detect_s), k,
               (nw_event){.kind = NW_EVENT_NODE_LOST, .src = lost, .at_s = l->now});
      if (lost != 0) {
        l->lost[lost] = 1;
        ended++;
      }
      continue;
    }
    pending p = pop(l);
    l->now = p.at;
    if (p.link_free) {
      node_be *b = &l->be[p.node];
      nw_sendq_done(&b->out, b->on_link);
      link_next(b);
      continue;
    }
    nw_node *node = l->nodes[p.node];
    if (l->lost[p.node]) { /* what reaches a lost node vanishes */
      if (p.ev.kind == NW_EVENT_MESSAGE)
        free(p.ev.buf);
      continue;
    }
    if (p.ev.kind == NW_EVENT_EXEC_DONE && l->cfg.functional && l->cfg.kernel_at_done)
      nw_exec_run(p.ev.exec);
    if (nw_node_finished(node)) { /* late arrivals after the end are dropped */
      if (p.ev.kind == NW_EVENT_MESSAGE)
        free(p.ev.buf);
      continue;
    }
    nw_node_handle(node, &p.ev);
    if (nw_node_finished(node))
      ended++;
    /* A driver call answered synchronously lets the driver run on: wait for its next move
     * before simulated time advances, so the loop stays deterministic. */
    nw_driver_call *call;
    int answered = l->just_answered;
    l->just_answered = 0;
    if (answered && ended < c->nodes && wait_driver(l, &call)) {
      nw_event ev = {.kind = NW_EVENT_DRIVER, .call = call};
      push(l, l->now, 0, ev);
    }
  }
  pthread_join(driver, NULL);
  while (l->n) {
    pending p = pop(l);
    if (p.ev.kind == NW_EVENT_MESSAGE)
      free(p.ev.buf);
  }
  nw_stats *stats = calloc((size_t)c->nodes, sizeof *stats);
  for (int k = 0; k < c->nodes; k++) {
    stats[k] = *nw_node_stats(l->nodes[k]);
    stats[k].demand_overtakes = l->be[k].out.overtakes;
  }
  memset(res, 0, sizeof *res);
  nw_run_result_fill(res, stats, c->nodes, &l->outcome);
  res->status = l->stuck && l->app_status == NW_OK ? NW_ERR_INTERNAL : l->app_status;
  snprintf(res->error, sizeof res->error, "%s", l->rt.error);
  for (int k = 0; k < c->nodes; k++) {
    nw_node_destroy(l->nodes[k]);
    for (transfer *x; (x = nw_sendq_take_any(&l->be[k].out));) {
      free(x->buf);
      free(x);
    }
    nw_sendq_free(&l->be[k].out);
  }
  free(stats);
  free(l->nodes);
  free(l->be);
  free(l->heap);
  free(l->cluster);
  free(l->lost);
  pthread_mutex_destroy(&l->mu);
  pthread_cond_destroy(&l->cv);
  free(l);
  return res->status;
}
