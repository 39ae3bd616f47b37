/* sim_world.c: the simulated cluster's state (sim_world.h) and the operations on it that the
 * simulator's other files share: events for a node's event loop, actors, host properties and a
 * device's executions.
 *
 * It is the bottom of the simulator's files: sim_backend.c (the entry point and the actors),
 * sim_faults.c and sim_mtc.c call it, and it calls none of them, so that each can be read,
 * changed and tested with only what is below it in mind. */
#include "sim_world.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdio.h>
#include <stdlib.h>

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

/* A daemon is marked only once started: SimGrid 3.32 counts an actor daemonized before its
 * start among the daemons but not yet among the actors, so while it is unstarted the engine
 * sees one daemon too many; if another actor ends then, "only daemons are left" and it kills
 * every actor, the last node's included (a segfault at the end of a run). */
sg_actor_t sim_spawn(const char *name, sg_host_t host, void (*code)(int, char **), void *data,
                     int daemon, unsigned stack) {
  sg_actor_t a = sg_actor_init(name, host);
  sg_actor_set_data(a, data);
  if (stack)
    sg_actor_set_stacksize(a, stack);
  sg_actor_start_(a, code, 0, NULL);
  if (daemon)
    sg_actor_daemonize(a);
  return a;
}

/* ---- the platform */

double sim_host_property(sg_host_t h, const char *key, double fallback) {
  const char *v = sg_host_get_property_value(h, key);
  char *end;
  double x = v ? strtod(v, &end) : fallback;
  return v && (end == v || *end || !(x >= 0)) ? -1 : x;
}

/* ---- devices */

/* One execution of `flops` on d's host, at most `bound` flop/s when bound > 0. A CPU
 * device's runs at 1 / rt_loop_weight of the event loop's priority where the loop shares its
 * cores (sim_costs.h): SimGrid shares a host between executions in proportion to their
 * priorities, as Linux's scheduler shares a core by the threads' weights. */
static void execute(sim_device *d, double flops, double bound) {
  if (bound <= 0 && d->kind == NW_DEVICE_CPU && d->node->costs.loop_weight > 0) {
    sg_actor_execute_with_priority(flops, 1.0 / d->node->costs.loop_weight);
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

/* The modelled GPU's bytes (functional mode), allocated when first touched. */
unsigned char *sim_gpu_memory(sim_gpu *g) {
  if (!g->memory && !(g->memory = malloc(g->memsize ? g->memsize : 1))) {
    fprintf(stderr, "narwhal: cannot allocate %llu bytes to model a GPU's memory (try --gpu-mem)\n",
            (unsigned long long)g->memsize);
    exit(1);
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
