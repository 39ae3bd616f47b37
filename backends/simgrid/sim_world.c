/* sim_world.c: the simulated cluster's state (sim_world.h) and the operations on it that the
 * simulator's other files share: events for a node's event loop, actors, the platform's nodes
 * and host properties, a device's executions, messages from their sending to their delivery,
 * and the world's teardown.
 *
 * It is the bottom of the simulator's files: sim_backend.c (the entry point and the actors),
 * sim_faults.c and sim_mtc.c call it, and it calls none of them, so that each can be read,
 * changed and tested with only what is below it in mind. */
#include "sim_world.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <xbt/config.h>
#include <xbt/sysdep.h>

#include "rng.h"

/* ---- events and actors */

void sim_post(sim_node *sn, nw_event *ev) {
  ev->next = NULL;
  if (sn->q.tail)
    sn->q.tail->next = ev;
  else
    sn->q.head = ev;
  sn->q.tail = ev;
  sg_sem_release(sn->q.sem);
}

nw_event *sim_new_event(nw_event_kind kind) {
  nw_event *ev = calloc(1, sizeof *ev);
  if (!ev) {
    fprintf(stderr, "narwhal: out of memory in the simulator\n");
    exit(1);
  }
  ev->kind = kind;
  return ev;
}

/* SimGrid gives each actor's stack a guard page, in a memory map of its own; past the system's
 * limit on a process's maps (vm.max_map_count, 65,530 by default) it aborts with a backtrace.
 * Tens of thousands of actors reach it (a many-task GPU's workers and lanes are actors: 240
 * nodes of 168 workers). Every 1024 actors this counts the process's maps and, 4096 short of
 * the limit (each actor adds about two), stops the run with one line, before any result
 * exists: the run can go on without the guards, or with a higher limit. */
static void check_memory_maps(void) {
  static unsigned long spawned;
  static long limit = -1;
  if (++spawned % 1024 != 0 || sg_cfg_get_int("contexts/guard-size") <= 0)
    return;
  if (limit < 0) {
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (!f || fscanf(f, "%ld", &limit) != 1)
      limit = 0; /* unknown: not checked */
    if (f)
      fclose(f);
  }
  FILE *maps = limit > 0 ? fopen("/proc/self/maps", "r") : NULL;
  if (!maps)
    return;
  long count = 0;
  for (int c; (c = getc(maps)) != EOF;)
    count += c == '\n';
  fclose(maps);
  if (count + 4096 > limit) {
    fprintf(stderr,
            "narwhal: more simulated actors than this system's memory maps allow with SimGrid's "
            "stack guards (%lu actors so far, %ld maps of vm.max_map_count %ld): rerun with "
            "--cfg contexts/guard-size:0 or raise vm.max_map_count\n",
            spawned, count, limit);
    exit(2);
  }
}

/* A daemon is marked only once started: SimGrid 3.32 counts an actor daemonized before its
 * start among the daemons but not yet among the actors, so while it is unstarted the engine
 * sees one daemon too many; if another actor ends then, "only daemons are left" and it kills
 * every actor, the last node's included (a segfault at the end of a run). */
sg_actor_t sim_spawn(const char *name, sg_host_t host, void (*code)(int, char **), void *data,
                     int daemon, unsigned stack) {
  check_memory_maps();
  sg_actor_t a = sg_actor_init(name, host);
  sg_actor_set_data(a, data);
  if (stack)
    sg_actor_set_stacksize(a, stack);
  sg_actor_start_(a, code, 0, NULL);
  if (daemon)
    sg_actor_daemonize(a);
  return a;
}

/* ---- the platform's nodes */

int sim_count_nodes(void) {
  int k = 0;
  char name[32];
  for (;;) {
    snprintf(name, sizeof name, "n%d-cpu", k);
    if (!sg_host_by_name(name))
      return k;
    k++;
  }
}

/* A node host n<i>-cpu beyond the first gap in the numbering (`count` nodes from n0), or -1:
 * such a node would be left out without a word. */
int sim_node_after_gap(int count) {
  sg_host_t *hosts = sg_host_list();
  size_t count_hosts = sg_host_count(); /* SimGrid 3.32 walks every zone to count them */
  int found = -1;
  for (size_t h = 0; hosts && h < count_hosts && found < 0; h++) {
    int i, end = 0;
    if (sscanf(sg_host_get_name(hosts[h]), "n%d-cpu%n", &i, &end) == 1 &&
        sg_host_get_name(hosts[h])[end] == '\0' && end > 0 && i > count)
      found = i;
  }
  xbt_free(hosts);
  return found;
}

int sim_count_gpus(int node) {
  int k = 0;
  char name[48];
  for (;;) {
    snprintf(name, sizeof name, "n%d-gpu%d", node, k);
    if (!sg_host_by_name(name))
      return k;
    k++;
  }
}

double sim_host_property(sg_host_t h, const char *key, double fallback) {
  const char *v = sg_host_get_property_value(h, key);
  char *end;
  double x = v ? strtod(v, &end) : fallback;
  return v && (end == v || *end || !(x >= 0)) ? -1 : x;
}

/* ---- devices */

/* An actor waiting for a node's loop: for its next poll (pollers) or a kernel's end
 * (pickup_waiters). */
typedef struct sim_poller {
  sg_sem_t sem;
  struct sim_poller *next;
} sim_poller;

/* Wakes every waiter of the list and empties it. */
static void release_all(sim_poller **list) {
  while (*list) {
    sim_poller *p = *list;
    *list = p->next;
    sg_sem_release(p->sem);
  }
}

/* One execution of `flops` on d's host, at most `bound` flop/s when bound > 0. A CPU
 * device's runs at 1 / rt_loop_weight of the event loop's priority where the loop shares its
 * cores (sim_costs.h): SimGrid shares a host between executions in proportion to their
 * priorities, as Linux's scheduler shares a core by the threads' weights. */
static void execute(sim_device *d, double flops, double bound) {
  if (bound <= 0 && d->kind == NW_DEVICE_CPU && d->node->costs.loop_weight > 0) {
    d->node->kernels++;
    sg_actor_execute_with_priority(flops, 1.0 / d->node->costs.loop_weight);
    d->node->kernels--;
    release_all(&d->node->pickup_waiters); /* its core is free: a waiting message is seen */
    return;
  }
  if (bound <= 0) {
    sg_actor_execute(flops);
    return;
  }
  sg_exec_t x = sg_actor_exec_init(flops);
  sg_exec_set_host(x, d->host);
  sg_exec_set_bound(x, bound);
  sg_exec_start(x);
  sg_exec_wait(x);
}

/* Charges `flops` at `bound` flop/s (0: the host's per-core speed) divided by the node's
 * slowdown factor, which may change while the subtask runs (--slow): split at each change,
 * exactly. */
void sim_execute_bounded(sim_device *d, double flops, double bound) {
  const nw_run_config *cfg = d->node->w->cfg;
  int node = d->node->id;
  double speed = bound > 0 ? bound : sg_host_get_speed(d->host);
  while (flops > 0) {
    double now = simgrid_get_clock();
    double f = nw_slowdown_factor(cfg, node, now);
    double next = nw_slowdown_next_change(cfg, node, now);
    double part = next > now ? (next - now) * speed : 0; /* nominal flops before the change */
    if (part <= 0 || part >= flops * f) {
      execute(d, flops * f, bound);
      return;
    }
    execute(d, part, bound);
    flops -= part / f;
  }
}

void sim_execute_slowed(sim_device *d, double flops) {
  sim_execute_bounded(d, flops, 0);
}

/* The modelled GPU's bytes (functional mode), mapped when first used. Mapped without reserving
 * swap (MAP_NORESERVE): a GPU's memory is its whole size (an H200's 148 GB, more than the
 * machine running the simulation may have), and a run touches only the pages of the entries
 * it stages, which alone take memory. */
unsigned char *sim_gpu_memory(sim_gpu *g) {
  if (!g->memory) {
    void *m = mmap(NULL, g->memsize ? g->memsize : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
      fprintf(stderr, "narwhal: cannot map %llu bytes to model a GPU's memory (try --gpu-mem)\n",
              (unsigned long long)g->memsize);
      exit(1);
    }
    g->memory = m;
  }
  return g->memory;
}

/* The flops a subtask's work-item is charged at the host's speed: its own, or, when moving its
 * bytes at the device's memory bandwidth takes longer, the flops that would take as long (the
 * roofline: Williams, Waterman, Patterson, CACM 2009; the PRS paper's equations 6-7). */
double sim_roofline_work(const sim_device *d, nw_exec *e) {
  double items = nw_exec_items(e), flops = nw_exec_flops(e) / items;
  if (d->bytes_per_s <= 0)
    return flops;
  double memory = nw_exec_bytes(e) / items / d->bytes_per_s * sg_host_get_speed(d->host);
  return memory > flops ? memory : flops;
}

/* ---- messages between nodes */

static void unlink_live(sim_world *w, envelope *e) {
  if (e->live_prev)
    e->live_prev->live_next = e->live_next;
  else
    w->live = e->live_next;
  if (e->live_next)
    e->live_next->live_prev = e->live_prev;
}

/* What a control message to e->dst waits for behind the node's data transfer in flight to the
 * same peer: on hardware both share one TCP connection, and what of the transfer is already in
 * its fragment and the socket's buffer (at most sn->costs.control_behind bytes, measured by
 * `narwhal calibrate`) goes first. The transfer's progress is estimated at the route's
 * bandwidth from its start, less the latency. 0 on platforms without rt_control_behind. */
static double behind_data(const sim_node *sn, int dst, double latency, double bw) {
  if (!(sn->costs.control_behind > 0) || sn->out_dst != dst || !(bw > 0 && bw < INFINITY))
    return 0;
  double left = sn->out_bytes - (simgrid_get_clock() - sn->out_start - latency) * bw;
  if (left > sn->costs.control_behind)
    left = sn->costs.control_behind;
  return left > 0 ? left / bw : 0;
}

/* A control message's travel time: latency + size / bandwidth of the route, uncontended. Control
 * messages are small (tens to hundreds of bytes: on a 4 GB/s link their size costs ~1% of a
 * 2 us latency), so sharing bandwidth with the data flows would change their times and the
 * flows' by less than that, while every flow SimGrid starts or ends re-solves the bandwidth
 * shares of all flows it connects to: with control messages as flows, that work per event grew
 * with the cluster (docs/experiments/sim-scale-control-messages.md). On a calibrated TCP
 * platform it also waits behind the data in flight to its peer (behind_data). */
static double control_delay(sim_node *sn, int dst, double wire) {
  if (!sn->route_latency) {
    sn->route_latency = calloc((size_t)sn->w->nodes, sizeof *sn->route_latency);
    sn->route_bandwidth = calloc((size_t)sn->w->nodes, sizeof *sn->route_bandwidth);
    if (!sn->route_latency || !sn->route_bandwidth) {
      fprintf(stderr, "narwhal: out of memory in the simulator\n");
      exit(1);
    }
  }
  if (sn->route_bandwidth[dst] <= 0) {
    sg_host_t to = sn->w->node[dst].host;
    sn->route_latency[dst] = sg_host_get_route_latency(sn->host, to);
    sn->route_bandwidth[dst] = sg_host_get_route_bandwidth(sn->host, to);
  }
  double bw = sn->route_bandwidth[dst]; /* a route without links: no size term */
  return sn->route_latency[dst] + (bw > 0 && bw < INFINITY ? wire / bw : 0.0) +
         behind_data(sn, dst, sn->route_latency[dst], bw);
}

/* How long a message to a loop that waits beside a running kernel waits to be seen: drawn
 * from an exponential distribution of mean rt_pickup, from the node's own stream (the core's
 * draws stay as they were). On hardware (2 one-core ranks, PageRank 262144/16384) small
 * messages waited from send to receipt a median of 0.61-0.88 ms and a p90 of 1.9-2.2 ms, mean
 * 0.81-0.90 ms: an exponential's median is 0.69 and its p90 2.3 times its mean
 * (docs/experiments/message-pickup.md). A constant delay missed the tail, which is what
 * reaches the critical path: a prefetch late by more than the kernel beside it. */
static double pickup_delay(sim_node *sn) {
  double u = (double)(nw_rng_next(&sn->pickup_rng) >> 11) * 0x1.0p-53; /* [0, 1) */
  return -sn->costs.pickup_s * log1p(-u);
}

/* Whether the cores the node's loop shares compute now: a kernel runs. (A slowed node's kernels
 * run longer, and so does this; on hardware a slowed rank's kernels hold their core until they
 * have spent FACTOR times their CPU time, real_backend.c, hold_slowed. Until that, busy threads
 * slowed a rank on hardware and kept its loop from messages between kernels too, which this also
 * charged: docs/experiments/kernel-drift.md.) */
static int cores_busy(const sim_node *sn) {
  return sn->kernels > 0;
}

/* The draw is cut short when a kernel ends (execute): on hardware (two one-core ranks, PageRank
 * 262144/16384) a kernel's end to the handling of its completion took 20 us in all over 400
 * subtasks; waiting out the whole draw beside a kernel that had ended held them 253 ms
 * (docs/experiments/probe-twice.md). */
void sim_pickup_wait(sim_node *sn) {
  if (!(sn->costs.pickup_s > 0) || !cores_busy(sn))
    return;
  double delay = pickup_delay(sn);
  if (!(delay > 0))
    return;
  sim_poller w = {sg_sem_init(0), sn->pickup_waiters};
  sn->pickup_waiters = &w;
  sg_sem_acquire_timeout(w.sem, delay);
  for (sim_poller **p = &sn->pickup_waiters; *p; p = &(*p)->next)
    if (*p == &w) { /* timed out: still listed */
      *p = w.next;
      break;
    }
  sg_sem_destroy(w.sem);
}

/* ---- the rendezvous of large messages (rt_eager_bytes)
 *
 * Open MPI sends a message past its eager limit by rendezvous: the first fragment crosses, the
 * receiver answers once its progress engine has matched it, and the rest moves only after the
 * sender's progress has seen the answer. Neither rank progresses while its event loop handles
 * events (the real backend polls MPI between them, real_queue.c), and the answer crosses the
 * TCP connection behind what the receiver is sending the other way. On two emulated hosts at
 * 100 Mbit/s, matmul 2048/512's first kernels started 489-529 ms into the task where every
 * message went eagerly in 374-459, the simulation's 370-461 without this
 * (docs/experiments/network-validation.md). The real backend posts a demand transfer at
 * once, so its rendezvous runs beside the transfers ahead of it (an actor of its own), and a
 * prefetch only when the link is otherwise free, so the sender actor runs its rendezvous. */

void sim_loop_polls(sim_node *sn) {
  release_all(&sn->pollers);
}

/* Until node n's loop polls: at once if it waits for an event (after the message's pickup
 * where a kernel has its core), at the end of its queue's events if it is handling them. */
static void wait_for_poll(sim_node *n) {
  if (n->lost || n->loop_ended)
    return;
  if (n->loop_idle) {
    sim_pickup_wait(n);
    return;
  }
  sim_poller p = {sg_sem_init(0), n->pollers};
  n->pollers = &p;
  sg_sem_acquire(p.sem);
  sg_sem_destroy(p.sem);
}

/* Bytes of the answer: Open MPI's rendezvous acknowledgement, a header alone. */
#define RENDEZVOUS_ANSWER_BYTES 64.0

/* The first fragment crosses (behind the data in flight to the peer), the peer's loop sees
 * it, the answer crosses back (behind the data in flight from the peer), this loop sees it. */
static void handshake(sim_node *sn, const envelope *e) {
  sim_node *to = &sn->w->node[e->dst];
  sg_actor_sleep_for(control_delay(sn, e->dst, sn->costs.eager_bytes));
  wait_for_poll(to);
  sg_actor_sleep_for(control_delay(to, sn->id, RENDEZVOUS_ANSWER_BYTES));
  wait_for_poll(sn);
}

static int needs_rendezvous(const sim_node *sn, const envelope *e) {
  return sn->costs.eager_bytes > 0 && (double)e->wire > sn->costs.eager_bytes;
}

static void rendezvous_actor(int argc, char **argv) {
  (void)argc, (void)argv;
  envelope *e = sg_actor_self_get_data();
  sim_node *sn = &e->world->node[e->src];
  if (e->packed_at > simgrid_get_clock()) /* posted once packed */
    sg_actor_sleep_for(e->packed_at - simgrid_get_clock());
  handshake(sn, e);
  e->handshaking = 0;
  sg_sem_release(e->matched);
}

double sim_rendezvous_bulk(sim_node *sn, envelope *e) {
  if (!needs_rendezvous(sn, e))
    return (double)e->wire;
  if (!e->matched) { /* posted now: the link waits for all of it */
    handshake(sn, e);
    return (double)e->wire - sn->costs.eager_bytes;
  }
  int waited = e->handshaking; /* else its first fragment crossed beside the transfers before */
  sg_sem_acquire(e->matched);
  sg_sem_destroy(e->matched);
  e->matched = NULL;
  return waited ? (double)e->wire - sn->costs.eager_bytes : (double)e->wire;
}

/* The seconds the fault plan delays a message between two nodes by (sim_faults.h; 0 without a
 * plan), drawn as it is sent, from the plan's own generator. */
static double message_delay(sim_world *w) {
  return nw_fault_message_delay(&w->cfg->faults, &w->fault_rng, &w->faults);
}

void sim_send(sim_node *sn, int dst, nw_channel ch, void *buf, size_t len, uint64_t wire) {
  if (dst == sn->id) {
    nw_event *ev = sim_new_event(NW_EVENT_MESSAGE);
    ev->src = sn->id;
    ev->buf = buf;
    ev->len = len;
    sim_post(sn, ev);
    return;
  }
  envelope *e = malloc(sizeof *e);
  if (!e) {
    fprintf(stderr, "narwhal: out of memory in the simulator\n");
    exit(1);
  }
  *e = (envelope){.world = sn->w,
                  .src = sn->id,
                  .buf = buf,
                  .len = len,
                  .wire = (long)wire,
                  .dst = dst,
                  .late_s = message_delay(sn->w)};
  e->live_next = sn->w->live;
  if (sn->w->live)
    sn->w->live->live_prev = e;
  sn->w->live = e;
  /* Packed into a buffer of its own: the fresh pages of that buffer, and of those packed before
   * it in the same handler, hold it back (the loop spends them after the handler). */
  if (sn->costs.page_fresh_s > 0)
    sn->pack_s +=
        (double)sim_msg_pages_alloc(&sn->msg_pages, wire, &e->sent) * sn->costs.page_fresh_s;
  e->packed_at = simgrid_get_clock() + sn->pack_s;
  if (ch != NW_CHANNEL_CONTROL) {
    nw_send_class c = ch == NW_CHANNEL_PREFETCH ? NW_SEND_PREFETCH : NW_SEND_DEMAND;
    if (nw_sendq_push(&sn->out, c, e) != NW_OK) {
      fprintf(stderr, "narwhal: out of memory in the simulator\n");
      exit(1);
    }
    if (c == NW_SEND_DEMAND && needs_rendezvous(sn, e)) {
      e->matched = sg_sem_init(0);
      e->handshaking = 1;
      sim_spawn("rendezvous", sn->host, rendezvous_actor, e, 1, STACK_SERVICE);
    }
    sg_sem_release(sn->out_sem);
    return;
  }
  /* Control messages go at once, each on its own: due after the route's travel time. */
  sim_world *w = sn->w;
  double due = e->packed_at + control_delay(sn, e->dst, (double)e->wire) + e->late_s;
  if (nw_due_push(&w->mail, due, e) != 0) {
    fprintf(stderr, "narwhal: out of memory in the simulator\n");
    exit(1);
  }
  if (due < w->postman_wakes) { /* sooner than the postman would look: wake it */
    w->postman_wakes = due;
    sg_sem_release(w->postman_sem);
  }
}

/* A message reaches its destination: its node's loop gets it as an event, unless the node was
 * lost (sim_faults.h). */
void sim_deliver(sim_world *w, envelope *e) {
  unlink_live(w, e);
  sim_msg_pages_free(&w->node[e->src].msg_pages, &e->sent);
  if (w->node[e->dst].lost) {
    free(e->buf);
    free(e);
    return;
  }
  nw_event *ev = sim_new_event(NW_EVENT_MESSAGE);
  ev->src = e->src;
  ev->buf = e->buf;
  ev->len = e->len;
  ev->stamp = (double)e->wire; /* what its receive buffer holds on hardware (sim_msg_pages.h) */
  int dst = e->dst;
  free(e);
  sim_post(&w->node[dst], ev);
}

void sim_discard(sim_world *w, envelope *e) {
  unlink_live(w, e);
  sim_msg_pages_free(&w->node[e->src].msg_pages, &e->sent);
  free(e->buf);
  free(e);
}

/* ---- teardown */

void sim_world_free(sim_world *w) {
  for (int i = 0; w->node && i < w->nodes; i++) {
    sim_node *sn = &w->node[i];
    while (sn->q.head) {
      nw_event *ev = sn->q.head;
      sn->q.head = ev->next;
      if (ev->kind == NW_EVENT_MESSAGE)
        free(ev->buf);
      if (ev->kind == NW_EVENT_COPY_DONE)
        nw_copy_free(ev->copy);
      free(ev);
    }

    for (int d = 0; sn->dev && d < sn->ndev; d++) {
      free(sn->dev[d].queue);
      if (sn->dev[d].sem)
        sg_sem_destroy(sn->dev[d].sem);
    }
    for (int g = 0; g < sn->ngpu; g++) {
      if (sn->gpu[g].memory)
        munmap(sn->gpu[g].memory, sn->gpu[g].memsize ? sn->gpu[g].memsize : 1);
      nw_agglo_free(&sn->gpu[g].fifo); /* execs there are the core's, freed with the node */
      free(sn->gpu[g].batch);
      if (sn->gpu[g].fifo_sem)
        sg_sem_destroy(sn->gpu[g].fifo_sem);
      for (int dir = 0; dir < 2; dir++) {
        sim_engine *e = &sn->gpu[g].engine[dir];
        while (e->head) {
          copy_item *it = e->head;
          e->head = it->next;
          nw_copy_free(it->c);
          free(it);
        }
        while (e->moving) {
          copy_item *it = e->moving;
          e->moving = it->next;
          nw_copy_free(it->c);
          free(it);
        }
        if (e->sem)
          sg_sem_destroy(e->sem);
      }
      if (sn->gpu[g].turns)
        sg_mutex_destroy(sn->gpu[g].turns);
    }
    if (sn->q.sem)
      sg_sem_destroy(sn->q.sem);
    free(sn->route_latency);
    free(sn->route_bandwidth);
    if (sn->out_sem)
      sg_sem_destroy(sn->out_sem);
    nw_sendq_free(&sn->out); /* its envelopes are on the live list, freed below */
    free(sn->dev);
    nw_node_destroy(sn->node);
  }
  free(w->node);
  free(w->cluster);
  free(w->priced);
  nw_perfmodel_free(w->durations);
  nw_due_free(&w->mail); /* its envelopes are on the live list, freed below */
  while (w->live) {      /* undelivered messages, queued or inside SimGrid (a failed run) */
    envelope *e = w->live;
    w->live = e->live_next;
    if (e->matched)
      sg_sem_destroy(e->matched);
    free(e->buf);
    free(e);
  }
}
